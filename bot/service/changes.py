"""The core of the table service: the one path of every change, and the changes made by time.

Every change (:meth:`TableCore._change`) takes the game's lock, applies, saves the snapshot and the
move log row in one storage transaction, then schedules what comes next without a click: a computer
move ``computer_delay`` later, the turn timer at the persisted ``turn_deadline``, or the next round at
``round_deadline``. A refused or failed change puts the in-memory game back as it was saved.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from bot.service.computer import play_computer_move
from bot.service.errors import NoListener, TableError, TableListener
from bot.service.events import add_events, move_events, table_ids
from bot.service.game import AWAY_AFTER, Game, GameStatus, TurnEvent
from bot.service.scores import last_round_scores, match_results
from bot.service.timers import GameTimers
from bot.storage import ChannelBusy, MoveEntry, Storage
from bot.storage.records import MatchResult

log = logging.getLogger(__name__)

NEXT_ROUND_DELAY = 30.0
"""Seconds after a round ends before the next one starts by itself."""
RETRY_DELAY = 5.0
"""Seconds before a timed action that failed (e.g. the database was busy) is tried again."""

UNCHANGED = object()
"""What an action returns to :meth:`TableCore._change` when there is nothing to save."""


def _seeded_rngs(seed: int) -> Callable[[str], random.Random]:
    return lambda key: random.Random(f"{seed}:{key}")


class TableCore:
    """The games of one bot in memory, their locks, saving and timers (see :class:`~bot.service.tables.TableService`).

    ``computer_delay`` seconds pass between two computer moves (from when the previous change was made).
    ``clock`` gives epoch seconds for the persisted deadlines. ``rng_factory(key)`` makes the random
    source for a key such as ``"deal:<game>"`` or ``"computer:<game>:<version>"``; ``seed`` is a
    shortcut for a seeded factory (tests, benchmarks: seeded games replay exactly, restarts included).
    The default is ``random.SystemRandom`` (R19).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        computer_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        listener: TableListener | None = None,
        rng_factory: Callable[[str], random.Random] | None = None,
        seed: int | None = None,
        next_round_delay: float = NEXT_ROUND_DELAY,
    ) -> None:
        self.storage = storage
        self.computer_delay = computer_delay
        self.next_round_delay = next_round_delay
        self.listener: TableListener = listener or NoListener()
        self._clock = clock
        if rng_factory is None:
            rng_factory = _seeded_rngs(seed) if seed is not None else (lambda key: random.SystemRandom())
        self._rng = rng_factory
        self._games: dict[int, Game] = {}
        self._saved: dict[int, dict[str, Any]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._players: dict[int, ComputerPlayer] = {}
        self._changed_at: dict[int, float] = {}
        self._timers = GameTimers()

    def get(self, game_id: int) -> Game:
        """The game with this id (in memory); ``TableError("game.none_here")`` if there is none."""
        game = self._games.get(game_id)
        if game is None:
            raise TableError("game.none_here", game_id=game_id)
        return game

    # ------------------------------------------------------------------ the one path of every change

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    def _register(self, game: Game, snapshot: dict[str, Any]) -> None:
        self._games[game.id] = game
        self._saved[game.id] = snapshot
        # A finished game stays in memory (for its end messages) until its channel gets a new game.
        for other in [g for g in self._games.values() if g.channel_id == game.channel_id and g.id != game.id]:
            if other.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
                self._forget(other.id)

    def _forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        self._saved.pop(game_id, None)
        self._locks.pop(game_id, None)
        self._players.pop(game_id, None)
        self._changed_at.pop(game_id, None)
        self._timers.cancel(game_id)

    async def _create(self, game: Game) -> Game:
        snapshot = game.to_snapshot()
        try:
            game.id = await self.storage.create_game(
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                host_id=game.host_id,
                snapshot=snapshot,
                status=str(game.status),  # type: ignore[arg-type]
            )
        except ChannelBusy as exc:
            raise TableError("game.exists", game_id=exc.game_id) from None
        # The stored snapshot was written before the id was known; load() takes the id from the row.
        snapshot["id"] = game.id
        self._register(game, snapshot)
        return game

    async def _change(
        self,
        game_id: int,
        apply: Callable[[Game], Any],
        *,
        reason: str | None = None,
        expect_version: int | None = None,
    ) -> Game:
        """Lock, apply, save, schedule, and (for changes without an interaction) tell the listener.

        ``apply`` raises to refuse, returns ``UNCHANGED`` for nothing to save, or the move log rows
        (a list of :class:`MoveEntry`, at most one) of what it did. With ``expect_version`` the change
        is skipped unless the game is still at that version (for timers that may have been overtaken).
        """
        game = self.get(game_id)
        async with self._lock(game_id):
            if self._games.get(game_id) is not game:
                raise TableError("game.none_here", game_id=game_id)
            if expect_version is not None and game.version != expect_version:
                return game
            saved = self._saved[game_id]
            try:
                result = apply(game)
                if result is UNCHANGED:
                    return game
                self._changed_at[game_id] = asyncio.get_running_loop().time()
                entries: list[MoveEntry] = result if isinstance(result, list) else []
                if game.running and game.match is not None and game.match.over:
                    game.status = GameStatus.FINISHED
                self._arm(game)
                snapshot = await self._save(game, entries)
            except BaseException:
                self._restore(game, saved)
                raise
            self._saved[game_id] = snapshot
            self._schedule(game)
        if reason is not None:
            await self._notify(game, reason)
        return game

    async def _save(self, game: Game, entries: list[MoveEntry]) -> dict[str, Any]:
        ended_round = (
            game.match is not None and game.match.round.phase == "over" and not _round_recorded(game)
        )
        round_rows = last_round_scores(game) if ended_round else []
        results: list[MatchResult] = []
        if game.match is not None and game.match.over and not game.stats_recorded:
            # The match's last move, its round scores and the statistics: one transaction, once.
            results = match_results(game)
            game.stats_recorded = True
        if ended_round and game.match is not None:
            game.recorded_rounds = game.match.round_no
        expected = game.version
        game.version += 1
        snapshot = game.to_snapshot()
        saved = await self.storage.save_game(
            game.id,
            snapshot,
            str(game.status),  # type: ignore[arg-type]
            expected_version=expected,
            move=entries[0] if entries else None,
            round_scores=round_rows,
            match_results=results,
        )
        if saved.version != game.version:
            # The stored version is the truth; keep the snapshot's copy equal to it.
            game.version = saved.version
            snapshot["game_version"] = saved.version
        return snapshot

    def _restore(self, game: Game, snapshot: dict[str, Any]) -> None:
        message_id = game.table_message_id
        game.__dict__.update(Game.from_snapshot(snapshot).__dict__)
        game.table_message_id = message_id

    async def _notify(self, game: Game, reason: str) -> None:
        try:
            await self.listener.game_changed(game, reason=reason)
        except Exception:
            log.exception("game %s: the listener failed on %s", game.id, reason)

    # ------------------------------------------------------------------ rules of the table

    def _acting_seat(self, game: Game, user_id: int, version: int | None) -> int:
        if not game.running:
            raise TableError("game.not_running", game_id=game.id)
        seat = game.active_seat_of(user_id)
        if seat is None:
            raise TableError("seat.not_seated", game_id=game.id)
        if version is not None and version != game.version:
            raise TableError("panel.stale", game_id=game.id, version=game.version)
        return seat

    def _after_move(self, game: Game, turn_before: tuple[int, int, bool]) -> None:
        """Bookkeeping once a move is applied: a new turn gets a new timer, an ended round its event."""
        if turn_id(game) != turn_before:
            game.turn_deadline = None
            game.auto_turn = None

    def _deal_next(self, game: Game) -> None:
        assert game.match is not None
        game.match.next_round()
        game.round_deadline = None
        game.turn_deadline = None
        game.auto_turn = None
        game.last_turn.clear()

    def _arm(self, game: Game) -> None:
        """Set the deadlines the new state needs (they are saved with it)."""
        if not game.running or game.match is None:
            game.turn_deadline = game.round_deadline = game.auto_turn = None
            return
        if game.between_rounds:
            game.turn_deadline = game.auto_turn = None
            if game.round_deadline is None:
                game.round_deadline = self._clock() + self.next_round_delay
            return
        game.round_deadline = None
        seat = game.to_play
        assert seat is not None
        if self._computer_turn(game) or game.turn_timeout <= 0:
            game.turn_deadline = None
        elif game.turn_deadline is None:
            game.turn_deadline = self._clock() + game.turn_timeout

    @staticmethod
    def _computer_turn(game: Game) -> bool:
        seat = game.to_play
        return seat is not None and (game.seats[seat].played_by_computer or game.auto_turn == seat)

    # ------------------------------------------------------------------ timers and computer turns

    def _schedule(self, game: Game) -> None:
        """Wake the game up for whatever comes next without a click: a computer move, the turn timer,
        or the next round."""
        if not game.running or game.match is None:
            self._timers.cancel(game.id)
            return
        version = game.version
        if game.between_rounds:
            deadline = game.round_deadline if game.round_deadline is not None else self._clock()
            self._timers.schedule(
                game.id, deadline - self._clock(), lambda: self._auto_next_round(game.id, version)
            )
        elif self._computer_turn(game):
            # Counted from when the change was made, not from when its save came back: saves committed
            # together would otherwise line their tables up, and the next moves come due all at once.
            changed = self._changed_at.get(game.id)
            since = 0.0 if changed is None else asyncio.get_running_loop().time() - changed
            delay = max(0.0, self.computer_delay - since)
            self._timers.schedule(game.id, delay, lambda: self._computer_step(game.id, version))
        elif game.turn_deadline is not None:
            delay = game.turn_deadline - self._clock()
            self._timers.schedule(game.id, delay, lambda: self._turn_timeout(game.id, version))
        else:
            self._timers.cancel(game.id)

    async def _timed(self, game_id: int, version: int, apply: Callable[[Game], Any], reason: str) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        try:
            await self._change(game_id, apply, reason=reason, expect_version=version)
        except TableError:
            return
        except Exception:
            log.exception("game %s: %s failed; trying again in %s s", game_id, reason, RETRY_DELAY)
            if game.version == version:
                self._timers.schedule(game_id, RETRY_DELAY, lambda: self._retry(game_id))

    async def _retry(self, game_id: int) -> None:
        game = self._games.get(game_id)
        if game is not None:
            self._schedule(game)

    async def _computer_step(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not self._computer_turn(game):
                return UNCHANGED
            assert game.match is not None
            seat = game.to_play
            assert seat is not None
            player = self._players.get(game_id)
            if player is None:
                # Not setdefault(…, ComputerPlayer()): that builds (and seeds) a player on every move.
                player = self._players[game_id] = ComputerPlayer()
            rng = self._rng(f"computer:{game.id}:{game.version}")
            before = table_ids(game)
            turn = turn_id(game)
            move = play_computer_move(game.match, seat, player, rng)
            add_events(game, move_events(game, seat, move, before, auto=not game.seats[seat].computer))
            self._after_move(game, turn)
            return [MoveEntry(seat=seat, user_id=None, move=move.to_dict())]

        await self._timed(game_id, version, apply, "computer")

    async def _turn_timeout(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            seat = game.to_play
            if seat is None or self._computer_turn(game):
                return UNCHANGED
            owner = game.seats[seat]
            owner.missed += 1
            events = [TurnEvent(seat, "timeout", auto=True)]
            if owner.missed >= AWAY_AFTER:
                owner.away = True
                events.append(TurnEvent(seat, "away"))
            game.auto_turn = seat
            game.turn_deadline = None
            add_events(game, events)
            if game.match is not None and game.match.round.pending(game.match.round_seat(seat)):
                # The computer plans its own melds: proposals the person left are taken back first.
                take_back = Move.take_back()
                game.match.play(seat, take_back)
                return [MoveEntry(seat=seat, user_id=None, move=take_back.to_dict())]
            return None

        await self._timed(game_id, version, apply, "timeout")

    async def _auto_next_round(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not game.between_rounds:
                return UNCHANGED
            self._deal_next(game)
            return None

        await self._timed(game_id, version, apply, "next_round")


def touch_seat(game: Game, seat: int | None) -> None:
    """The seat's owner clicked: its missed turns are forgiven and an away seat is back."""
    if seat is None:
        return
    owner = game.seats[seat]
    if owner.away:
        add_events(game, [TurnEvent(seat, "back")])
    owner.away, owner.missed = False, 0


def turn_id(game: Game) -> tuple[int, int, bool]:
    """What identifies the turn being played: a new value means a new turn (and a new timer)."""
    assert game.match is not None
    return (game.match.round_no, game.match.round.to_play, game.match.round.phase == "over")


def _round_recorded(game: Game) -> bool:
    return game.match is not None and game.recorded_rounds >= game.match.round_no
