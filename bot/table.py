"""The table service: seats to users, one lock per game, saving, computer turns, turn timers.

Every public change follows one path (:meth:`TableService._change`): take the game's lock, validate,
apply, save the snapshot and the move log row in one storage transaction, then answer. A refused
action (:class:`TableError` or the engine's ``IllegalMove``) changes nothing, not even the version; a
failed save puts the in-memory game back as it was saved and lets the error through.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.rules import RuleSet
from bot.game import AWAY_AFTER, MAX_SEATS, MIN_SEATS, Game, GameStatus, Seat, TurnEvent
from bot.storage import ChannelBusy, MoveEntry, Storage
from bot.storage.records import MatchResult, PlayerStats, RoundScore
from bot.table_computer import play_computer_move
from bot.table_events import add_events, move_events, table_ids
from bot.table_scores import Standing, last_round_scores, match_results, standings
from bot.table_timers import GameTimers

log = logging.getLogger(__name__)

NEXT_ROUND_DELAY = 30.0
"""Seconds after a round ends before the next one starts by itself."""
RETRY_DELAY = 5.0
"""Seconds before a timed action that failed (e.g. the database was busy) is tried again."""

TABLE_ERROR_CODES = (
    "game.none_here",
    "game.exists",
    "game.not_running",
    "game.not_finished",
    "lobby.closed",
    "lobby.full",
    "lobby.not_host",
    "lobby.too_few",
    "seat.not_seated",
    "seat.already_seated",
    "turn.not_yours",
    "panel.stale",
    "round.not_over",
    "stop.not_allowed",
)
"""Every code a :class:`TableError` can carry (the message catalog has an entry for each)."""


class TableError(Exception):
    """A table action refused for a reason that is not a rule of the game; nothing changed.

    ``code`` is one of :data:`TABLE_ERROR_CODES`; ``params`` fill the message (``game_id``, ``seat``…).

    >>> err = TableError("lobby.full", seats=6)
    >>> err.code, err.params
    ('lobby.full', {'seats': 6})
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params = params


class TableListener(Protocol):
    """Told about every change made without a user's interaction (implemented by the cog layer).

    ``reason`` is ``"computer"`` (a computer move), ``"timeout"`` (a turn timer fired; the computer
    plays the turn next), or ``"next_round"`` (the next round started by itself). The game shows the
    rest: ``last_turn``, ``between_rounds``, ``status``.
    """

    async def game_changed(self, game: Game, *, reason: str) -> None:
        """React to the change (edit the table message…); must not raise into the service."""
        ...


class _NoListener:
    async def game_changed(self, game: Game, *, reason: str) -> None:
        return None


_UNCHANGED = object()


def _seeded_rngs(seed: int) -> Callable[[str], random.Random]:
    return lambda key: random.Random(f"{seed}:{key}")


class TableService:
    """All tables of one bot. Build it, ``await load()``, use it, ``await close()``.

    ``computer_delay`` seconds pass between two computer moves. ``clock`` gives epoch seconds for the
    persisted deadlines. ``rng_factory(key)`` makes the random source for a key such as
    ``"deal:<game>"`` or ``"computer:<game>:<version>"``; ``seed`` is a shortcut for a seeded factory
    (tests, benchmarks: seeded games replay exactly, restarts included). The default is
    ``random.SystemRandom`` (R19).
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
        self.listener: TableListener = listener or _NoListener()
        self._clock = clock
        if rng_factory is None:
            rng_factory = _seeded_rngs(seed) if seed is not None else (lambda key: random.SystemRandom())
        self._rng = rng_factory
        self._games: dict[int, Game] = {}
        self._saved: dict[int, dict[str, Any]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._players: dict[int, ComputerPlayer] = {}
        self._timers = GameTimers()

    # ------------------------------------------------------------------ lifecycle and queries

    async def load(self) -> list[Game]:
        """Bring back every unfinished game from storage and resume its timers and computer turns.

        Deadlines are the persisted ones: a turn timer that should have fired while the bot was away
        fires at once.
        """
        loaded = []
        for record in await self.storage.unfinished_games():
            if record.id in self._games:
                continue
            game = Game.from_snapshot(record.snapshot)
            game.id, game.version, game.table_message_id = record.id, record.version, record.table_message_id
            self._register(game, record.snapshot)
            loaded.append(game)
        for game in loaded:
            self._schedule(game)
        return loaded

    async def close(self) -> None:
        """Cancel every timer and computer turn (the storage stays open: its owner closes it)."""
        await self._timers.close()

    def get(self, game_id: int) -> Game:
        """The game with this id (in memory); ``TableError("game.none_here")`` if there is none."""
        game = self._games.get(game_id)
        if game is None:
            raise TableError("game.none_here", game_id=game_id)
        return game

    def game_in_channel(self, channel_id: int, *, include_finished: bool = False) -> Game | None:
        """The channel's game in the lobby or in play; with ``include_finished``, else its latest one."""
        latest = None
        for game in self._games.values():
            if game.channel_id != channel_id:
                continue
            if game.status in (GameStatus.LOBBY, GameStatus.PLAYING):
                return game
            if include_finished and (latest is None or game.id > latest.id):
                latest = game
        return latest

    async def fetch(self, game_id: int) -> Game:
        """The game with this id, from memory or, for a game that ended before a restart, from storage."""
        if game_id in self._games:
            return self._games[game_id]
        record = await self.storage.get_game(game_id)
        if record is None:
            raise TableError("game.none_here", game_id=game_id)
        game = Game.from_snapshot(record.snapshot)
        game.id, game.version, game.table_message_id = record.id, record.version, record.table_message_id
        if game.status in (GameStatus.LOBBY, GameStatus.PLAYING):
            # Another process made it; it is ours to run from now on.
            self._register(game, record.snapshot)
            self._schedule(game)
        return game

    def standings(self, game_id: int) -> list[Standing]:
        """The seats by total with their scores round by round (see :class:`~bot.table_scores.Standing`)."""
        return standings(self.get(game_id))

    async def round_scores(self, game_id: int) -> list[RoundScore]:
        """Every recorded round score of the game (from storage)."""
        return await self.storage.round_scores(game_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's best players (from storage)."""
        return await self.storage.leaderboard(guild_id, limit)

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One person's record on one server, or ``None`` (from storage)."""
        return await self.storage.player_record(guild_id, user_id)

    # ------------------------------------------------------------------ lobby

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet | None = None,
        computers: int = 0,
        turn_timeout: float = 120.0,
    ) -> Game:
        """Open a lobby in the channel with the host in seat 0 and ``computers`` computer seats.

        Raises ``TableError("game.exists", game_id=…)`` when the channel already has a game.
        """
        existing = self.game_in_channel(channel_id)
        if existing is not None:
            raise TableError("game.exists", game_id=existing.id)
        computers = max(0, min(int(computers), MAX_SEATS - 1))
        game = Game(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules or RuleSet(),
            computers=computers,
            turn_timeout=float(turn_timeout),
            seats=[Seat(user_id=host_id, name=host_name)],
        )
        for _ in range(computers):
            game.seats.append(_computer_seat(game))
        return await self._create(game)

    async def join(self, game_id: int, user_id: int, name: str) -> Game:
        """Take a free seat in the lobby."""

        def apply(game: Game) -> None:
            _require_lobby(game)
            if game.seat_of(user_id) is not None:
                raise TableError("seat.already_seated", game_id=game_id)
            if len(game.seats) >= MAX_SEATS:
                raise TableError("lobby.full", seats=MAX_SEATS)
            game.seats.append(Seat(user_id=user_id, name=name))

        return await self._change(game_id, apply)

    async def leave(self, game_id: int, user_id: int) -> Game:
        """Leave the table. In the lobby the seat is freed (the host's role passes on; a lobby with no
        person left is cancelled); in play the computer takes the seat over, its points stay with it.
        """

        def apply(game: Game) -> None:
            seat = game.active_seat_of(user_id)
            if game.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
                raise TableError("game.not_running", game_id=game_id)
            if seat is None:
                raise TableError("seat.not_seated", game_id=game_id)
            if game.status is GameStatus.LOBBY:
                del game.seats[seat]
            else:
                owner = game.seats[seat]
                owner.computer, owner.away, owner.missed = True, False, 0
                if game.auto_turn == seat:
                    game.auto_turn = None
                add_events(game, [TurnEvent(seat, "left")])
            if user_id == game.host_id:
                persons = [s for s in game.seats if s.is_person]
                if persons and persons[0].user_id is not None:
                    game.host_id = persons[0].user_id
                elif game.status is GameStatus.LOBBY:
                    game.status = GameStatus.CANCELLED

        return await self._change(game_id, apply)

    async def add_computer(self, game_id: int, user_id: int) -> Game:
        """Add a computer seat to the lobby (any seated person may)."""

        def apply(game: Game) -> None:
            _require_lobby(game)
            if game.active_seat_of(user_id) is None:
                raise TableError("seat.not_seated", game_id=game_id)
            if len(game.seats) >= MAX_SEATS:
                raise TableError("lobby.full", seats=MAX_SEATS)
            game.seats.append(_computer_seat(game))

        return await self._change(game_id, apply)

    async def begin(self, game_id: int, user_id: int) -> Game:
        """Start the match (the host; 2 to 6 seats): seat 0 deals the first round (R4, R5)."""

        def apply(game: Game) -> None:
            _require_lobby(game)
            if user_id != game.host_id:
                raise TableError("lobby.not_host", game_id=game_id)
            if not MIN_SEATS <= len(game.seats) <= MAX_SEATS:
                raise TableError("lobby.too_few", seats=len(game.seats), needed=MIN_SEATS)
            game.match = Match.new(len(game.seats), rules=game.rules, rng=self._rng(f"deal:{game.id}"))
            game.status = GameStatus.PLAYING
            game.last_turn.clear()

        return await self._change(game_id, apply)

    async def cancel(self, game_id: int, user_id: int) -> Game:
        """Close the lobby without playing (the host)."""

        def apply(game: Game) -> None:
            _require_lobby(game)
            if user_id != game.host_id:
                raise TableError("lobby.not_host", game_id=game_id)
            game.status = GameStatus.CANCELLED

        return await self._change(game_id, apply)

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the public table message (``None``: it must be posted again). Not a game change:
        the version stays."""
        game = self.get(game_id)
        async with self._lock(game_id):
            await self.storage.set_table_message(game_id, message_id)
            game.table_message_id = message_id

    # ------------------------------------------------------------------ play

    async def play(self, game_id: int, user_id: int, move: Move, *, version: int | None = None) -> Game:
        """Play ``move`` for the user's seat. Refused: not seated (``seat.not_seated``), a panel of
        another version (``panel.stale``), not the seat's turn (``turn.not_yours``), or a rule
        (``IllegalMove``). Any accepted click of an away seat's owner brings the seat back.
        """

        def apply(game: Game) -> list[MoveEntry]:
            seat = self._acting_seat(game, user_id, version)
            if game.to_play != seat:
                raise TableError("turn.not_yours", game_id=game_id, to_play=game.to_play)
            assert game.match is not None
            before = table_ids(game)
            turn = _turn_id(game)
            game.match.play(seat, move)
            # After a timeout, the owner's own move takes the rest of the turn back from the computer.
            game.auto_turn = None
            _touch(game, seat)
            add_events(game, move_events(game, seat, move, before, auto=False))
            self._after_move(game, turn)
            return [MoveEntry(seat=seat, user_id=user_id, move=move.to_dict())]

        return await self._change(game_id, apply)

    async def touch(self, game_id: int, user_id: int) -> Game:
        """The seat's owner clicked something: clear its missed turns and bring it back from away."""

        def apply(game: Game) -> object:
            seat = game.active_seat_of(user_id)
            if seat is None or not game.running:
                return _UNCHANGED
            owner = game.seats[seat]
            if not owner.away and owner.missed == 0:
                return _UNCHANGED
            _touch(game, seat)
            return None

        return await self._change(game_id, apply)

    async def next_round(self, game_id: int, user_id: int | None) -> Game:
        """Deal the next round now (a seated person's click; ``None``: the 30-second timer)."""

        def apply(game: Game) -> None:
            if not game.running:
                raise TableError("game.not_running", game_id=game_id)
            if user_id is not None and game.active_seat_of(user_id) is None:
                raise TableError("seat.not_seated", game_id=game_id)
            if not game.between_rounds:
                raise TableError("round.not_over", game_id=game_id)
            if user_id is not None:
                _touch(game, game.active_seat_of(user_id))
            self._deal_next(game)

        return await self._change(game_id, apply)

    async def stop(self, game_id: int, user_id: int, *, can_manage: bool) -> Game:
        """End the game (the host, or a member who may manage the server). Rounds already played stay
        recorded; a stopped match does not count in the statistics."""

        def apply(game: Game) -> None:
            if game.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
                raise TableError("game.not_running", game_id=game_id)
            if user_id != game.host_id and not can_manage:
                raise TableError("stop.not_allowed", game_id=game_id)
            game.status = GameStatus.CANCELLED if game.status is GameStatus.LOBBY else GameStatus.FINISHED
            game.stopped_by = user_id

        return await self._change(game_id, apply)

    async def play_again(self, game_id: int, user_id: int) -> Game:
        """A new lobby in the same channel with the same people (persons still seated, and the computer
        seats), hosted by whoever clicked **Play again** (who must have played)."""
        old = await self.fetch(game_id)
        if old.status in (GameStatus.LOBBY, GameStatus.PLAYING):
            raise TableError("game.not_finished", game_id=game_id)
        mine = old.active_seat_of(user_id)
        if mine is None:
            raise TableError("seat.not_seated", game_id=game_id)
        existing = self.game_in_channel(old.channel_id)
        if existing is not None:
            raise TableError("game.exists", game_id=existing.id)
        host = old.seats[mine]
        game = Game(
            id=0,
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=user_id,
            rules=old.rules,
            computers=old.computers,
            turn_timeout=old.turn_timeout,
            seats=[Seat(user_id=user_id, name=host.name)],
        )
        for index, seat in enumerate(old.seats):
            if index == mine or seat.has_left:
                continue
            game.seats.append(Seat(user_id=seat.user_id, name=seat.name, computer=seat.computer))
        return await self._create(game)

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

        ``apply`` raises to refuse, returns ``_UNCHANGED`` for nothing to save, or the move log rows
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
                if result is _UNCHANGED:
                    return game
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
        if _turn_id(game) != turn_before:
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
            self._timers.schedule(game.id, self.computer_delay, lambda: self._computer_step(game.id, version))
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
                return _UNCHANGED
            assert game.match is not None
            seat = game.to_play
            assert seat is not None
            player = self._players.setdefault(game_id, ComputerPlayer())
            rng = self._rng(f"computer:{game.id}:{game.version}")
            before = table_ids(game)
            turn = _turn_id(game)
            move = play_computer_move(game.match, seat, player, rng)
            add_events(game, move_events(game, seat, move, before, auto=not game.seats[seat].computer))
            self._after_move(game, turn)
            return [MoveEntry(seat=seat, user_id=None, move=move.to_dict())]

        await self._timed(game_id, version, apply, "computer")

    async def _turn_timeout(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            seat = game.to_play
            if seat is None or self._computer_turn(game):
                return _UNCHANGED
            owner = game.seats[seat]
            owner.missed += 1
            events = [TurnEvent(seat, "timeout", auto=True)]
            if owner.missed >= AWAY_AFTER:
                owner.away = True
                events.append(TurnEvent(seat, "away"))
            game.auto_turn = seat
            game.turn_deadline = None
            if game.match is not None and game.match.round.pending(game.match.round_seat(seat)):
                # The computer plans its own melds: proposals the person left are taken back first.
                game.match.play(seat, Move.take_back())
            add_events(game, events)
            return None

        await self._timed(game_id, version, apply, "timeout")

    async def _auto_next_round(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not game.between_rounds:
                return _UNCHANGED
            self._deal_next(game)
            return None

        await self._timed(game_id, version, apply, "next_round")


def _require_lobby(game: Game) -> None:
    if game.status is not GameStatus.LOBBY:
        raise TableError("lobby.closed", game_id=game.id)


def _computer_seat(game: Game) -> Seat:
    taken = {seat.name for seat in game.seats}
    number = next(n for n in range(1, MAX_SEATS + 2) if f"Computer {n}" not in taken)
    return Seat(user_id=None, name=f"Computer {number}", computer=True)


def _touch(game: Game, seat: int | None) -> None:
    if seat is None:
        return
    owner = game.seats[seat]
    if owner.away:
        add_events(game, [TurnEvent(seat, "back")])
    owner.away, owner.missed = False, 0


def _turn_id(game: Game) -> tuple[int, int, bool]:
    assert game.match is not None
    return (game.match.round_no, game.match.round.to_play, game.match.round.phase == "over")


def _round_recorded(game: Game) -> bool:
    return game.match is not None and game.recorded_rounds >= game.match.round_no


__all__ = ["TABLE_ERROR_CODES", "TableError", "TableListener", "TableService"]
