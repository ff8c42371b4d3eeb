"""The one path of every change: lock → validate → apply → save (→ draw while it commits) → answer.

:class:`ChangePath` holds the games of one bot in memory with what each was last saved as and one
lock per game. :meth:`ChangePath.change` takes the game's lock, lets the action validate and apply,
saves in one storage transaction (with the round's scores and the match's results when the move
ends them), and only then returns, so the caller answers with what is on disk. A refused or failed
change puts the in-memory game back as it was saved.

A move is saved as what it is: its move-log row, with the few keys of the table's own state it
changed (:meth:`Game.table_state`), and no snapshot. A full snapshot is written with a change that
is not a logged move, with a move that shuffles, deals, ends a round or changes the game's status
(the engine's generator moves then, or the end is owed to the channel), and after
:data:`SNAPSHOT_EVERY` moves logged without one, so a game read back replays at most that many
moves onto its snapshot (:func:`~bot.service.game.replay_snapshot`, which the storage is opened
with: ``open_database(target, replay=replay_snapshot)``). What a save writes is planned first, by the
pure :func:`plan_save` (a :class:`~bot.storage.Save` and what the game is then saved as), and then
committed. A caller may pass a :class:`PreparedAnswer`: its answer is drawn while the save commits, and
handed back only once it is committed.

A change that ends a match commits the match's outcome in its save, under the lock; the match is
rated after the lock is let go (the ratings are a projection of the stored outcome, see
:class:`Rater`), and :meth:`ChangePath.change` returns once it is rated, so the answer shows the
rating line. Whoever waits on the game otherwise (a test, a stop) waits on
:meth:`ChangePath.rated` (or :meth:`ChangePath.settle`), not on the lock.

What happens next without a click (the turn timer, a computer move, the next round) is not this
module's business: a :class:`Pacer` sets the deadlines a state needs before it is saved, and wakes
the game up after (see :class:`~bot.service.autopilot.Autopilot`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import marshal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from bot.logs import about_game
from bot.service.errors import TableError
from bot.service.game import Game, GameStatus, state_changes
from bot.service.listener import NoListener, Reason, TableListener
from bot.service.matchlog import RoundMark, log_cards
from bot.service.meter import Meter, NoMeter
from bot.service.scores import last_round_scores, match_results
from bot.storage import (
    Announcement,
    AnnouncementKind,
    ChannelBusy,
    MatchResult,
    MoveEntry,
    RoundScore,
    Save,
    SaveResult,
    VersionConflict,
    WriteFenced,
)
from bot.storage.interface import Database

log = logging.getLogger(__name__)

T = TypeVar("T")

SNAPSHOT_EVERY = 16
"""Moves logged after a snapshot at most: the next one is saved with a snapshot. Reading a game back
replays up to this many moves (each an engine move and a few keys: well under a millisecond
together), and a full snapshot (6-8 KB) is written once in that many moves instead of every move."""

UNCHANGED = object()
"""What an action returns to :meth:`ChangePath.change` when there is nothing to save."""

Action = Callable[[Game], Any]
"""An action on a game: raises to refuse, returns :data:`UNCHANGED`, ``None``, or its move log rows."""


class Rater(Protocol):
    """Who rates a match once it is saved as finished (:class:`~bot.service.ratings.Ratings`)."""

    async def rate(self, game: Game) -> Any:
        """Rate ``game``'s finished match (once); what it returns is the service's business."""
        ...


class Pacer(Protocol):
    """What the change path asks of whoever runs the game between clicks."""

    def arm(self, game: Game, *, by_person: bool) -> None:
        """Set the deadlines the new state needs; they are saved with it. ``by_person``: the change
        is a person's (a click or a command), not one made without a click."""
        ...

    def changed(self, game: Game) -> None:
        """The game was just changed (before its save): pacing counts from here."""
        ...

    def schedule(self, game: Game) -> None:
        """Wake the game up for what comes next without a click (after its save)."""
        ...

    def forget(self, game_id: int) -> None:
        """The game is no longer in memory: drop its wake-ups."""
        ...


@dataclass
class Saved:
    """What a game was last saved as: the last full snapshot written, the moves logged since (match
    seat, move, the table state's changed keys; the ones saved in this process), and the table
    state after them. ``logged`` counts the moves in the file after that snapshot (after a restart,
    the ones replayed when it was read, which ``snapshot`` already holds). ``mark`` is what a logged
    move must leave alone to need no snapshot (see :func:`_mark`).

    The snapshot and the moves are held packed (:mod:`marshal` bytes), read back only when a change
    fails and the game is put back as it was saved: a snapshot as dicts and lists is some sixty
    objects for the garbage collector to walk at every young collection, for every table, as bytes
    it is one that the collector never walks.

    >>> saved = Saved.packing({"version": 1, "seats": [{"user_id": 7}]}, {}, RoundMark(None))
    >>> saved.snapshot()
    {'version': 1, 'seats': [{'user_id': 7}]}
    >>> saved.logging(1, {"kind": "draw", "source": "stock"}, {"game_version": 2}).moves()
    [(1, {'kind': 'draw', 'source': 'stock'}, {'game_version': 2})]
    """

    packed_snapshot: bytes
    state: dict[str, Any]
    mark: RoundMark
    packed_moves: tuple[bytes, ...] = ()
    logged: int = 0

    @classmethod
    def packing(
        cls, snapshot: dict[str, Any], state: dict[str, Any], mark: RoundMark, *, logged: int = 0
    ) -> Saved:
        """A game saved as ``snapshot`` (its table state ``state``), no move logged since here."""
        return cls(marshal.dumps(snapshot), state, mark, logged=logged)

    @classmethod
    def of(cls, game: Game, snapshot: dict[str, Any], *, logged: int = 0) -> Saved:
        """``game`` as saved in ``snapshot`` (with ``logged`` moves in the file after it)."""
        return cls.packing(snapshot, game.table_state(), _mark(game), logged=logged)

    def logging(
        self,
        seat: int,
        move: dict[str, Any],
        changed: dict[str, Any],
        *,
        state: dict[str, Any] | None = None,
        mark: RoundMark | None = None,
    ) -> Saved:
        """This save with one more move logged after the snapshot (and the table state after it)."""
        return Saved(
            self.packed_snapshot,
            self.state if state is None else state,
            self.mark if mark is None else mark,
            (*self.packed_moves, marshal.dumps((seat, move, changed))),
            self.logged + 1,
        )

    def snapshot(self) -> dict[str, Any]:
        """The last full snapshot, as a new dict."""
        snapshot: dict[str, Any] = marshal.loads(self.packed_snapshot)
        return snapshot

    def moves(self) -> list[tuple[int, dict[str, Any], dict[str, Any]]]:
        """The moves saved in this process since the snapshot: (match seat, move, changed keys)."""
        return [marshal.loads(packed) for packed in self.packed_moves]

    def game(self) -> Game:
        """The game as saved: the snapshot with the moves since replayed onto it."""
        return Game.replayed(self.snapshot(), self.moves())


class PreparedAnswer(Generic[T]):
    """The answer to a change, drawn while its save commits (and so the loop is idle) but handed
    back only once the save is committed: pass it to :meth:`ChangePath.change` (or the table
    service's actions that take one), then read :meth:`result`.

    ``draw(game)`` runs once, under the game's lock, after the action has applied and the save is
    on its way to the database. If it raises, :meth:`result` raises that (after the commit); if the
    change saved nothing or failed, it does not run (:meth:`result` gives ``None``: draw then).

    >>> answer = PreparedAnswer(lambda game: game.version)
    >>> answer.result() is None
    True
    """

    __slots__ = ("_error", "_prepare", "_prepared", "_value")

    def __init__(self, prepare: Callable[[Game], T]) -> None:
        self._prepare = prepare
        self._prepared = False
        self._value: T | None = None
        self._error: Exception | None = None

    def run(self, game: Game) -> None:
        """Prepare the answer for ``game`` now (its exception is kept for :meth:`result`)."""
        try:
            self._value = self._prepare(game)
        except Exception as exc:
            self._error = exc
        self._prepared = True

    def discard(self) -> None:
        """Forget the prepared answer (its change was refused or failed)."""
        self._prepared, self._value, self._error = False, None, None

    def result(self) -> T | None:
        """The answer prepared for the committed change; ``None`` if none was prepared."""
        if self._error is not None:
            raise self._error
        return self._value if self._prepared else None


class _Idle:
    """A pacer that never wakes a game (a change path built without one: tests, tools)."""

    def arm(self, game: Game, *, by_person: bool) -> None:
        return None

    def changed(self, game: Game) -> None:
        return None

    def schedule(self, game: Game) -> None:
        return None

    def forget(self, game_id: int) -> None:
        return None


class ChangePath:
    """The games in memory, their locks and saved snapshots, and the one way to change them.

    Built whole: ``listener`` hears of changes made without a click (``reason`` given; none: they
    go unheard); ``pacer(path)`` builds whoever runs the games between clicks (the
    :class:`~bot.service.autopilot.Autopilot`), given this path; ``meter`` hears how long each
    save took (the bot's metrics, when they are on); ``rater`` rates a match once its end is saved
    (none: matches are not rated).
    """

    def __init__(
        self,
        storage: Database,
        *,
        listener: TableListener | None = None,
        pacer: Callable[[ChangePath], Pacer] | None = None,
        meter: Meter | None = None,
        rater: Rater | None = None,
    ) -> None:
        self.storage = storage
        self.listener: TableListener = listener or NoListener()
        self.meter: Meter = meter or NoMeter()
        self.last_save: float | None = None
        """When the last change was committed (``time.monotonic()``); ``None``: none yet."""
        self.rater: Rater | None = rater
        """Rates a match once its end is saved (after the game's lock is let go; the change that
        ended it returns once it is rated, so the click answers with the ratings); ``None``: matches
        are not rated."""
        self.snapshot_every = SNAPSHOT_EVERY
        """Moves logged after a snapshot at most (1: a snapshot with every save, as before schema 4)."""
        self._games: dict[int, Game] = {}
        self._saved: dict[int, Saved] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        # The ids of the games in memory by channel (an open one and the last ended one, at most a
        # few): finding a channel's games never walks every game, so loading N games is linear.
        self._by_channel: dict[int, set[int]] = {}
        self._rating: dict[int, asyncio.Task[None]] = {}
        """The matches being rated now, by game (after their end was saved, outside the lock)."""
        # A genuine cycle: the pacer changes games through this path, and the path tells the pacer
        # of each change. The path builds its pacer last, given itself, so neither is re-pointed.
        self.pacer: Pacer = _Idle() if pacer is None else pacer(self)

    # ------------------------------------------------------------------ the games in memory

    def get(self, game_id: int) -> Game:
        """The game with this id (in memory); ``TableError("game.none_here")`` if there is none."""
        game = self._games.get(game_id)
        if game is None:
            raise TableError("game.none_here", game_id=game_id)
        return game

    def find(self, game_id: int) -> Game | None:
        """The game with this id if it is in memory."""
        return self._games.get(game_id)

    def games(self) -> list[Game]:
        """Every game in memory (open ones, and each channel's last ended one)."""
        return list(self._games.values())

    def in_channel(self, channel_id: int) -> list[Game]:
        """The games in memory in this channel (its open one and its last ended one), oldest first."""
        return [self._games[game_id] for game_id in sorted(self._by_channel.get(channel_id, ()))]

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: every change of one game is made under it, one at a time."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def rated(self, game_id: int | None = None) -> None:
        """Return once the game's match, if it is being rated now, is rated (or its rating failed,
        which is logged): its rating runs after its end is saved and the lock is let go. Without
        ``game_id``: once every rating under way now is done."""
        if game_id is None:
            tasks = list(self._rating.values())
        else:
            tasks = [task for task in (self._rating.get(game_id),) if task is not None]
        for task in tasks:
            await asyncio.shield(task)

    async def settle(self) -> None:
        """Return once every change started before this call is saved (or refused), and every match
        it ended rated: each game's lock is taken once, in turn, then each rating under way is
        waited for. For a stop: call it once no new change can start.

        >>> async def demo():
        ...     path = ChangePath.__new__(ChangePath)
        ...     path._locks, path._rating = {1: asyncio.Lock()}, {}
        ...     await path.lock(1).acquire()
        ...     asyncio.get_running_loop().call_later(0.01, path.lock(1).release)
        ...     await path.settle()
        ...     return path.lock(1).locked()
        >>> asyncio.run(demo())
        False
        """
        for lock in list(self._locks.values()):
            async with lock:
                pass
        await self.rated()

    def register(self, game: Game, snapshot: dict[str, Any], *, logged: int = 0) -> None:
        """Keep ``game`` (saved as ``snapshot``, ``logged`` moves after the snapshot in the file) in
        memory; its channel's older ended game is forgotten."""
        self._games[game.id] = game
        self._saved[game.id] = Saved.of(game, snapshot, logged=logged)
        # A finished game stays in memory (for its end messages) until its channel gets a new game.
        here = self._by_channel.get(game.channel_id, set())
        for other in [self._games[other_id] for other_id in here if other_id != game.id]:
            if other.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
                self.forget(other.id)
        self._by_channel.setdefault(game.channel_id, set()).add(game.id)

    def forget(self, game_id: int) -> None:
        """Drop the game from memory, with its lock and its wake-ups."""
        game = self._games.pop(game_id, None)
        if game is not None:
            here = self._by_channel.get(game.channel_id)
            if here is not None:
                here.discard(game_id)
                if not here:
                    del self._by_channel[game.channel_id]
        self._saved.pop(game_id, None)
        self._locks.pop(game_id, None)
        self.pacer.forget(game_id)

    # ------------------------------------------------------------------ creating and changing

    async def create(self, game: Game) -> Game:
        """Store a new game (its id comes from the storage) and keep it in memory.

        ``TableError("game.exists")`` when the channel already has an open game.
        """
        self.pacer.arm(game, by_person=True)
        snapshot = game.to_snapshot()
        try:
            game.id = await self.storage.create_game(
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                host_id=game.host_id,
                snapshot=snapshot,
                status=game.status,
            )
        except ChannelBusy as exc:
            raise TableError("game.exists", game_id=exc.game_id) from None
        except WriteFenced as exc:
            log.warning("a new game in channel %s is not saved: %s", game.channel_id, exc)
            raise TableError("game.moved", game_id=0) from None
        # The stored snapshot was written before the id was known; load() takes the id from the row.
        snapshot["id"] = game.id
        self.register(game, snapshot)
        self.pacer.schedule(game)
        return game

    async def change(
        self,
        game_id: int,
        apply: Action,
        *,
        reason: Reason | None = None,
        expect_version: int | None = None,
        answer: PreparedAnswer[Any] | None = None,
    ) -> Game:
        """Lock, apply, save, schedule, let the lock go, rate a match the change ended, and (for
        changes without an interaction) tell the listener.
        ``answer`` is prepared while the save commits (see :class:`PreparedAnswer`).

        ``apply`` raises to refuse, returns ``UNCHANGED`` for nothing to save, or the move log rows
        (a list of :class:`MoveEntry`, at most one) of what it did. With ``expect_version`` the change
        is skipped unless the game is still at that version (for timers that may have been overtaken).

        A save refused because the file holds a newer version (another process saved the game) reads
        the game again from the file, in place, and refuses the change with
        ``TableError("game.changed")``: the next change starts from what the file says. A save
        refused because another process holds the game's shard now (:class:`~bot.storage.WriteFenced`)
        is put back, logged as one warning, and refused with ``TableError("game.moved")``.
        """
        game = self.get(game_id)
        with about_game(game_id, game.guild_id):
            return await self._change(game, apply, reason, expect_version, answer)

    async def _change(
        self,
        game: Game,
        apply: Action,
        reason: Reason | None,
        expect_version: int | None,
        answer: PreparedAnswer[Any] | None,
    ) -> Game:
        game_id = game.id
        rating: asyncio.Task[None] | None = None
        async with self.lock(game_id):
            if self._games.get(game_id) is not game:
                raise TableError("game.none_here", game_id=game_id)
            if expect_version is not None and game.version != expect_version:
                return game
            saved = self._saved[game_id]
            try:
                done = await self._apply_and_save(game, apply, reason, saved, answer)
            except BaseException as exc:
                if answer is not None:
                    answer.discard()
                self.restore(game, saved)
                await self._refused(game, exc)
                raise
            if done is None:
                return game
            now_saved, entries, began = done
            self.meter.saved(time.perf_counter() - began, [entry.move["kind"] for entry in entries])
            self.last_save = time.monotonic()
            self._saved[game_id] = now_saved
            self.pacer.schedule(game)
            if game.status is GameStatus.FINISHED and saved.state.get("status") != GameStatus.FINISHED:
                # Started under the lock (so whoever takes it next finds it in rated()), run after.
                rating = self._start_rating(game)
        if rating is not None:
            # Shielded: a cancelled caller leaves the rating to finish all the same.
            await asyncio.shield(rating)
        if reason is not None:
            await self.notify(game, reason)
        return game

    async def _apply_and_save(
        self,
        game: Game,
        apply: Action,
        reason: Reason | None,
        saved: Saved,
        answer: PreparedAnswer[Any] | None,
    ) -> tuple[Saved, list[MoveEntry], float] | None:
        """Apply the change and save it: what is saved now, the logged rows and when the save
        began; ``None`` if the change had nothing to save. A save that fails is counted here."""
        result = apply(game)
        if result is UNCHANGED:
            return None
        self.pacer.changed(game)
        entries: list[MoveEntry] = result if isinstance(result, list) else []
        # The cards a deal or a reshuffle brought, so the log alone replays the match.
        entries = log_cards(game, entries, saved.mark)
        if game.running and game.match is not None and game.match.over:
            game.status = GameStatus.FINISHED
        self.pacer.arm(game, by_person=reason is None)
        began = time.perf_counter()
        try:
            now_saved = await self.save(game, entries, saved, answer)
        except VersionConflict:
            self.meter.save_failed("conflict")
            raise
        except asyncio.CancelledError:
            raise
        except BaseException:
            self.meter.save_failed("error")
            raise
        return now_saved, entries, began

    async def _refused(self, game: Game, exc: BaseException) -> None:
        """After a failed change was undone: a save refused for a newer version in the file reads the
        game again and refuses with ``game.changed``; one refused because another process holds the
        game's shard now refuses with ``game.moved``. Anything else is the caller's to raise."""
        if isinstance(exc, VersionConflict):
            await self._reload(game, exc)
            raise TableError("game.changed", game_id=game.id) from None
        if isinstance(exc, WriteFenced):
            # A stalled process's save, refused because another process holds the game's shard
            # now: nothing was written, the other process plays the game. Expected after a
            # take-over, not a fault of this code: one line, and the player is told where.
            log.warning("game %s is not saved: %s", game.id, exc)
            raise TableError("game.moved", game_id=game.id) from None

    async def save(
        self,
        game: Game,
        entries: list[MoveEntry],
        saved: Saved | None = None,
        answer: PreparedAnswer[Any] | None = None,
    ) -> Saved:
        """Save the game at its next version with its move row, and what the move ends: the round's
        scores and its announcement (owed to the channel until it is delivered) once per round, the
        match's results once per match. A logged move goes without a snapshot when it may (see the
        module's docstring; ``saved`` is what the game was saved as before, ``None``: a snapshot).
        ``answer`` is prepared once the save is on its way to the database. Returns what is saved.

        The game's bookkeeping comes first (:func:`_book`: what the change ends is marked recorded,
        the version moves on), then the pure :func:`plan_save` says what to write and what the game
        is saved as, then :meth:`_commit` writes it."""
        plan = plan_save(game, entries, saved, _book(game), snapshot_every=self.snapshot_every)
        stored = await self._commit(game, plan, answer)
        if stored.version != game.version:
            # The stored version is the truth; keep the saved copies equal to it.
            plan.at_version(game, stored.version)
            if answer is not None:
                answer.run(game)
        return plan.saved(saved)

    async def _commit(self, game: Game, plan: SavePlan, answer: PreparedAnswer[Any] | None) -> SaveResult:
        """Start the save and, with an ``answer``, prepare it beside its COMMIT; the save's outcome."""
        if answer is None:
            return await self.storage.start_save(plan.save)
        ready = asyncio.get_running_loop().create_future()
        pending = self.storage.start_save(plan.save, now=True, ready=ready)
        cancelled = False
        try:
            # Once the statements have run (they need the interpreter's lock), the COMMIT's
            # fsync does not: the answer is prepared beside it.
            await ready
        except asyncio.CancelledError:
            cancelled = True  # the save is on its way: its outcome is awaited all the same
        if not cancelled:
            answer.run(game)
        stored = await pending
        if cancelled:
            task = asyncio.current_task()
            if task is not None:
                task.cancel()  # delivered at the caller's next await, as the storage does
        return stored

    async def _reload(self, game: Game, conflict: VersionConflict) -> None:
        """Read ``game`` again from the file after a save found a newer version there (under its
        lock); the in-memory object is updated in place, so whoever holds it sees the file's state."""
        log.warning(
            "game %s was changed in the database by someone else (version %s there, %s here); read again",
            game.id,
            conflict.actual,
            conflict.expected,
        )
        record = await self.storage.get_game(game.id)
        try:
            if record is None:
                raise ValueError("the row is gone")
            if record.replay_error is not None:
                raise ValueError(record.replay_error)
            fresh = Game.from_snapshot(record.snapshot)
        except Exception as exc:
            log.warning("game %s cannot be read again (%s); it is dropped from memory", game.id, exc)
            self.forget(game.id)
            return
        assert record is not None
        fresh.id, fresh.version, fresh.table_message_id = record.id, record.version, record.table_message_id
        game.become(fresh)
        snapshot = dict(record.snapshot)
        snapshot["id"], snapshot["game_version"] = record.id, record.version
        self._saved[game.id] = Saved.of(game, snapshot, logged=record.replayed)
        self.pacer.schedule(game)

    def restore(self, game: Game, saved: Saved) -> None:
        """Put the in-memory game back as it was saved (the table message id is not in a change)."""
        message_id = game.table_message_id
        game.become(saved.game())
        game.table_message_id = message_id

    def _start_rating(self, game: Game) -> asyncio.Task[None] | None:
        """Rate the match just saved as finished, in a task that starts once the lock is let go;
        ``None`` without a rater. The task is kept in :attr:`_rating` until it is done."""
        if self.rater is None:
            return None
        task = asyncio.get_running_loop().create_task(self._rate(game), name=f"romme-rate-{game.id}")
        self._rating[game.id] = task
        task.add_done_callback(
            lambda done: self._rating.pop(game.id, None) if self._rating.get(game.id) is done else None
        )
        return task

    async def _rate(self, game: Game) -> None:
        """Rate the match just saved as finished (its stored outcome); a failure is logged, never
        raised into the change (the match stays saved; it is rated at the next start, or by
        ``romme-bot ratings --recompute``)."""
        if self.rater is None:
            return
        try:
            game.rating_shifts = await self.rater.rate(game)
        except Exception:
            log.exception("game %s: rating the match failed", game.id)

    async def notify(self, game: Game, reason: Reason) -> None:
        """Tell the listener; its failure is logged, never raised into the change."""
        try:
            await self.listener.game_changed(game, reason=reason)
        except Exception:
            log.exception("game %s: the listener failed on %s", game.id, reason)


class Ends(NamedTuple):
    """What a change ends and the storage must record once: the round's score rows (``ended_round``:
    the round is over and not recorded yet) and the match's results (its statistics)."""

    ended_round: bool
    round_rows: list[RoundScore]
    results: list[MatchResult]
    expected: int
    """The version the game was at before the change (the save expects it)."""


def _book(game: Game) -> Ends:
    """What the change ends, marked recorded on ``game`` (the round, the match's statistics), and
    the game's version moved on: the bookkeeping the snapshot must carry, done before it is taken."""
    match = game.match
    ended_round = match is not None and match.round.over and not _round_recorded(game)
    round_rows = last_round_scores(game) if ended_round else []
    results: list[MatchResult] = []
    if match is not None and not game.stats_recorded and (counted := game.counted_outcome()) is not None:
        # The match's last move (or the stop, the idle close of a match rated early), its round
        # scores, its outcome (in the snapshot) and the statistics read from it: one transaction, once.
        game.recorded_outcome = counted
        results = match_results(game)
        game.stats_recorded = True
    if ended_round and match is not None:
        game.recorded_rounds = match.round_no
    expected = game.version
    game.version += 1
    return Ends(ended_round, round_rows, results, expected)


class SavePlan(NamedTuple):
    """What one change writes (:attr:`save`) and what the game is saved as once it is committed
    (:meth:`saved`): the table state after it, its mark and, for a move without a snapshot, the
    state's changed keys logged with the move."""

    save: Save
    state: dict[str, Any]
    mark: RoundMark
    changed: dict[str, Any]

    def at_version(self, game: Game, version: int) -> None:
        """The storage stored another version than planned: the game and the saved copies take it."""
        game.version = version
        self.state["game_version"] = version
        if self.save.snapshot is None:
            self.changed["game_version"] = version
        else:
            self.save.snapshot["game_version"] = version

    def saved(self, before: Saved | None) -> Saved:
        """What the game is saved as once :attr:`save` is committed (``before``: as it was saved)."""
        if self.save.snapshot is not None:
            return Saved.packing(self.save.snapshot, self.state, self.mark)
        move = self.save.move
        assert before is not None and move is not None
        return before.logging(move.seat, move.move, self.changed, state=self.state, mark=self.mark)


def plan_save(
    game: Game, entries: list[MoveEntry], saved: Saved | None, ends: Ends, *, snapshot_every: int
) -> SavePlan:
    """What to write for ``game`` (its bookkeeping done, :func:`_book`), saved before as ``saved``
    (``None``: a full snapshot), with its move rows ``entries`` and what the change ``ends``: a
    pure function of them (it changes nothing). A full snapshot goes with a change that is not a
    logged move, ends a round or the match, deals or reshuffles (:func:`_mark`), changes the
    status, or comes :data:`SNAPSHOT_EVERY` moves after the last snapshot (see the module's
    docstring); else the move goes alone with the keys of the table state it changed."""
    state = game.table_state()
    mark = _mark(game)
    move = entries[0] if entries else None
    snapshot: dict[str, Any] | None = None
    changed: dict[str, Any] = {}
    if move is None or saved is None or _needs_snapshot(saved, ends, state, mark, snapshot_every):
        snapshot = game.to_snapshot(state)
    else:
        changed = state_changes(saved.state, state)
        move = dataclasses.replace(move, state=changed)
    owed: list[Announcement] = []
    if ends.ended_round and game.match is not None and snapshot is not None:
        # What the announcement shows is the game as it is now: it may go out after the next deal.
        kind: AnnouncementKind = "match_end" if game.match.over else "round_end"
        owed.append(Announcement(kind=kind, round_no=game.match.round_no, payload=snapshot))
    save = Save(
        game.id,
        snapshot,
        game.status,
        expected_version=ends.expected,
        move=move,
        round_scores=ends.round_rows,
        match_results=ends.results,
        announcements=owed,
    )
    return SavePlan(save, state, mark, changed)


def _needs_snapshot(saved: Saved, ends: Ends, state: dict[str, Any], mark: RoundMark, every: int) -> bool:
    """Whether a logged move must go with a full snapshot all the same (see :func:`plan_save`)."""
    return (
        ends.ended_round
        or bool(ends.results)
        or mark != saved.mark
        or state["status"] != saved.state["status"]
        or saved.logged + 1 >= every
    )


def _mark(game: Game) -> RoundMark:
    """What a move logged without a snapshot leaves alone: the round (a deal draws on the engine's
    generator), the reshuffles of its stock (so does a reshuffle: a generator that cannot be saved,
    ``random.SystemRandom``, would not give the same stock again) and whether it is over."""
    if game.match is None:
        return RoundMark(None)
    return RoundMark(game.match.round_no, game.match.round.reshuffles, game.match.round.over)


def _round_recorded(game: Game) -> bool:
    return game.match is not None and game.recorded_rounds >= game.match.round_no
