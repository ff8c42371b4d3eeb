"""The table service: seats to users and every action of the lobby and the table.

Every public change follows one path (:class:`~bot.service.changes.ChangePath`): take the game's
lock, validate, apply, save the snapshot and the move log row in one storage transaction, then
answer. A refused action (:class:`TableError` or the engine's ``IllegalMove``) changes nothing, not
even the version; a failed save puts the in-memory game back as it was saved and lets the error
through. What happens without a click is the :class:`~bot.service.autopilot.Autopilot`'s.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bot.engine.computer import DEFAULT_LEVEL, LEVELS
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.rules import RuleSet
from bot.service.autopilot import IDLE_GAME_TIMEOUT, LOBBY_TIMEOUT, NEXT_ROUND_DELAY, Autopilot
from bot.service.changes import UNCHANGED, ChangePath, PreparedAnswer
from bot.service.errors import TableError
from bot.service.events import add_events, history_seen, move_events
from bot.service.game import (
    DEFAULT_TURN_TIMEOUT,
    MAX_SEATS,
    MIN_SEATS,
    Game,
    GameStatus,
    Seat,
    TurnEvent,
)
from bot.service.listener import TableListener
from bot.service.meter import Meter
from bot.service.ratings import Ratings, early_rating
from bot.service.replays import MatchArchive
from bot.service.scores import Standing, standings
from bot.service.seasons import SeasonLength
from bot.service.settings import SettingsBook
from bot.service.shards import everything
from bot.service.turns import acting_seat, deal_next, end_of_move, touch_seat, turn_id
from bot.storage import MoveEntry
from bot.storage.interface import Database
from bot.storage.records import GameRecord, PlayerStats, RoundScore

log = logging.getLogger(__name__)

MAX_LOBBIES_PER_HOST = 3
"""Open lobbies one member may host on one server at once, by default."""
ENDED_KEPT = 10_000
"""Channels whose last finished game (its id only, once the game left memory) is remembered for
``/romme score``: the most recent ones."""
RECENT_KEPT = 32
"""Finished games let go from memory that are still kept whole, the most recent ones (a click on
their messages, ``/romme score`` right after the end, read no row): a bound, not one a channel."""


def seeded_rngs(seed: int) -> Callable[[str], random.Random]:
    """A random source per key, each seeded from ``seed`` and the key (seeded games replay exactly).

    >>> rng = seeded_rngs(7)
    >>> rng("deal:1").random() == seeded_rngs(7)("deal:1").random() != rng("deal:2").random()
    True
    """
    return lambda key: random.Random(f"{seed}:{key}")


class TableService:
    """All tables of one bot. Build it, ``await load()``, use it, ``await close()``.

    ``computer_delay`` seconds pass between two computer moves (counted from when the previous
    change was made, not from when its save returned); ``clock`` gives epoch seconds for the
    persisted deadlines; ``rng_factory(key)`` makes the random source for a key such as
    ``"deal:<game>"`` or ``"computer:<game>:<version>"``, and ``seed`` is a shortcut for a seeded
    factory (tests, benchmarks: seeded games replay exactly, restarts included). The default is
    ``random.SystemRandom`` (R19). ``listener`` hears of every change made without a click;
    ``meter`` how long each save and computer move took (the bot's metrics; none: nothing hears).
    ``lobby_timeout`` and ``idle_timeout`` are the seconds after which a lobby nobody started closes
    and a game no person plays ends (0: never); ``max_lobbies_per_host`` is how many open lobbies
    one member may host on one server (0: any number).

    Its parts: :attr:`changes` (the games in memory and the one change path), :attr:`autopilot`
    (timers and computer turns) and :attr:`ratings` (each finished match rated, the seasons).
    """

    # Fixed attributes: a setting assigned to the service by mistake (say ``computer_delay``, which is
    # the autopilot's) fails loudly instead of being ignored.
    __slots__ = (
        "_ended",
        "_recent",
        "_replayed",
        "_rng",
        "autopilot",
        "book",
        "changes",
        "max_lobbies_per_host",
        "owns",
        "ratings",
        "replays",
        "storage",
    )

    def __init__(
        self,
        storage: Database,
        *,
        computer_delay: float = 1.0,
        clock: Callable[[], float] = time.time,
        listener: TableListener | None = None,
        rng_factory: Callable[[str], random.Random] | None = None,
        seed: int | None = None,
        next_round_delay: float = NEXT_ROUND_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        idle_timeout: float = IDLE_GAME_TIMEOUT,
        max_lobbies_per_host: int = MAX_LOBBIES_PER_HOST,
        owns: Callable[[int], bool] = everything,
        meter: Meter | None = None,
    ) -> None:
        if rng_factory is None:
            rng_factory = seeded_rngs(seed) if seed is not None else (lambda key: random.SystemRandom())
        # The storage keeps moves as they are, a snapshot every few moves: it reads a game back by
        # replaying the moves after its snapshot, which needs the rules (ours), given when it opens.
        if storage.replay is None:
            raise ValueError(
                "the table service needs a storage that replays its games: open it with "
                "open_database(target, replay=replay_snapshot)"
            )
        self.storage = storage
        self.book = SettingsBook(storage)
        """The servers' settings and the members' preferences (``/romme settings``,
        ``/romme preferences``)."""
        self.max_lobbies_per_host = max_lobbies_per_host
        # Whether a server's games are this process's to play (its shards: bot/service/shards.py).
        self.owns = owns
        self._rng = rng_factory
        self.replays = MatchArchive(storage)
        """The finished matches and their replays (``/romme history``, ``/romme replay``)."""
        # The ratings and seasons run on the service's clock, so simulated time moves seasons too.
        # Each server's season length is its setting (/romme settings), read when a season may be due.
        self.ratings = Ratings(
            storage, now=lambda: datetime.fromtimestamp(clock(), UTC), season_length=self._season_length
        )
        self._replayed: dict[int, int] = {}
        """Per channel, the finished game whose Play again opened the channel's newest lobby."""
        self._ended: dict[int, int] = {}
        """Per channel, the last finished game let go from memory (:meth:`release`), most recent last."""
        self._recent: dict[int, Game] = {}
        """The last :data:`RECENT_KEPT` games let go from memory, by id, most recent last."""
        # The change path and its autopilot need each other: the path builds it (see ChangePath).
        self.changes = ChangePath(
            storage,
            listener=listener,
            meter=meter,
            rater=self.ratings,
            pacer=lambda changes: Autopilot(
                changes,
                clock=clock,
                rng=self._rng,
                computer_delay=computer_delay,
                next_round_delay=next_round_delay,
                lobby_timeout=lobby_timeout,
                idle_timeout=idle_timeout,
            ),
        )
        assert isinstance(self.changes.pacer, Autopilot)
        self.autopilot: Autopilot = self.changes.pacer
        """The timers and computer turns (the change path's pacer)."""

    async def _season_length(self, guild_id: int) -> SeasonLength:
        """The server's season length, as its settings say."""
        return (await self.book.server(guild_id)).season_length

    @property
    def listener(self) -> TableListener:
        """Who hears of the changes made without a click (given when the service is built)."""
        return self.changes.listener

    def known_games(self) -> list[Game]:
        """The games in memory and the finished ones still kept whole after leaving it."""
        live = self.changes.games()
        ids = {game.id for game in live}
        return live + [game for game in self._recent.values() if game.id not in ids]

    def find(self, game_id: int) -> Game | None:
        """The game with this id if it is in memory, else ``None``."""
        return self.changes.find(game_id)

    def get(self, game_id: int) -> Game:
        """The game with this id (in memory, or finished lately and still kept whole);
        ``TableError("game.none_here")`` if there is none."""
        game = self.changes.find(game_id) or self._recent.get(game_id)
        if game is None:
            raise TableError("game.none_here", game_id=game_id)
        return game

    # ------------------------------------------------------------------ lifecycle and queries

    async def load(self) -> list[Game]:
        """Bring back every unfinished game from storage and resume its timers and computer turns.

        Deadlines are the persisted ones: a turn timer that should have fired while the bot was away
        fires at once. A game whose snapshot cannot be read is set aside (:meth:`set_aside`): the
        others come back all the same.

        First, before any game of this process moves again (and before the bot answers a click),
        every finished match of its servers whose rating is missing is rated
        (:meth:`~bot.service.ratings.Ratings.rate_missed`): in the order they ended and before any
        match that ends from now on, so a recompute gives the stored numbers. Usually there is none,
        and finding that out is one query; a failure is logged and the start goes on.
        """
        try:
            await self.ratings.rate_missed(self.owns)
        except Exception:
            log.exception("rating the matches whose rating was missing failed")
        loaded = []
        for record in await self.storage.unfinished_games():
            if self.changes.find(record.id) is not None or not self.owns(record.guild_id):
                continue
            game = await self._readable(record)
            if game is None:
                continue
            self.changes.register(game, record.snapshot, logged=record.replayed)
            loaded.append(game)
        for game in loaded:
            self.autopilot.schedule(game)
        return loaded

    async def close(self) -> None:
        """Cancel every timer and computer turn and wait for the ratings under way (the storage
        stays open: its owner closes it)."""
        await self.autopilot.close()
        await self.changes.rated()

    def game_in_channel(self, channel_id: int, *, include_finished: bool = False) -> Game | None:
        """The channel's game in the lobby or in play; with ``include_finished``, else its latest one."""
        latest = None
        for game in self.changes.in_channel(channel_id):
            if game.status in (GameStatus.LOBBY, GameStatus.PLAYING):
                return game
            if include_finished and (latest is None or game.id > latest.id):
                latest = game
        if include_finished and latest is None:
            recent = self._recent.get(self._ended.get(channel_id, 0))
            latest = recent if recent is not None and recent.channel_id == channel_id else None
        return latest

    def release(self, game_id: int) -> bool:
        """Let a game that is over leave memory (its publisher owes it nothing more); True if it is
        not in memory now. A game in the lobby or in play, or one being changed, stays (False).
        Read again from storage when asked for (:meth:`fetch`, :meth:`last_ended_in_channel`)."""
        game = self.changes.find(game_id)
        if game is None:
            return True
        if game.status in (GameStatus.LOBBY, GameStatus.PLAYING) or self.changes.lock(game_id).locked():
            return False
        self.changes.forget(game_id)
        self._ended.pop(game.channel_id, None)
        self._ended[game.channel_id] = game_id
        while len(self._ended) > ENDED_KEPT:
            del self._ended[next(iter(self._ended))]
        self._recent[game_id] = game
        while len(self._recent) > RECENT_KEPT:
            del self._recent[next(iter(self._recent))]
        return True

    async def last_ended_in_channel(self, channel_id: int) -> Game | None:
        """The channel's last finished game that left memory (read from storage), or ``None``."""
        game_id = self._ended.get(channel_id)
        if game_id is None:
            return None
        try:
            return await self.fetch(game_id)
        except TableError:
            return None

    async def last_scored_in_channel(self, channel_id: int) -> Game | None:
        """The finished match whose **Play again** opened the channel's newest lobby (what
        ``/romme score`` shows while that lobby has no round yet), or ``None``."""
        game_id = self._replayed.get(channel_id)
        if game_id is None:
            return None
        try:
            game = await self.fetch(game_id)
        except TableError:
            return None
        return game if game.match is not None and game.match.history else None

    async def fetch(self, game_id: int) -> Game:
        """The game with this id, from memory or, for a game that ended before a restart, from storage."""
        known = self.changes.find(game_id) or self._recent.get(game_id)
        if known is not None:
            return known
        record = await self.storage.get_game(game_id)
        game = None if record is None else await self._readable(record)
        if game is None or record is None:
            raise TableError("game.none_here", game_id=game_id)
        if game.status in (GameStatus.LOBBY, GameStatus.PLAYING) and self.owns(record.guild_id):
            # Another process made it; it is ours to run from now on.
            self.changes.register(game, record.snapshot, logged=record.replayed)
            self.autopilot.schedule(game)
        return game

    async def _readable(self, record: GameRecord) -> Game | None:
        """The game of ``record``, or ``None`` for a snapshot this code cannot read (set aside)."""
        if record.damaged is not None:
            return None
        try:
            if record.replay_error is not None:
                raise ValueError(record.replay_error)
            game = Game.from_snapshot(record.snapshot)
            _check(game)
        except Exception as exc:
            await self.set_aside(record, exc)
            return None
        game.id, game.version, game.table_message_id = record.id, record.version, record.table_message_id
        return game

    async def set_aside(self, record: GameRecord, problem: BaseException) -> None:
        """Mark an unreadable game in storage (it frees its channel and is not loaded again) and log
        it once, with its id; a game that is over already is only logged."""
        text = f"{type(problem).__name__}: {problem}"
        marked = await self.storage.set_aside(record.id, text)
        log.error(
            "game %s in channel %s is damaged and %s: its snapshot cannot be read (%s)",
            record.id,
            record.channel_id,
            "set aside, its channel is free" if marked else "left as it is",
            text,
        )

    def standings(self, game_id: int) -> list[Standing]:
        """The seats by total with their scores round by round (see :class:`~bot.service.scores.Standing`)."""
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
        turn_timeout: float = DEFAULT_TURN_TIMEOUT,
        *,
        language: str = "en",
        computer_level: str = DEFAULT_LEVEL,
        lobby_timeout: float | None = None,
        server_rules: bool = False,
    ) -> Game:
        """Open a lobby in the channel with the host in seat 0 and ``computers`` computer seats;
        its public messages speak ``language``.

        ``computer_level`` is the level of those seats and of the ones Add computer seats later
        (``ValueError`` for a level that is not one of ``LEVELS``: the command offers only those).

        Raises ``TableError("game.exists", game_id=…)`` when the channel already has a game (also one
        this bot did not know of: it is read from storage, so the refusal can point to it), and
        ``TableError("lobby.host_limit")`` when the host already hosts ``max_lobbies_per_host`` open
        lobbies on the server. ``lobby_timeout`` (seconds, the server's setting) closes this lobby
        after that long instead of the bot's ``lobby_timeout``; ``server_rules``: the lobby shows
        that its settings are the server's defaults.
        """
        existing = self.game_in_channel(channel_id)
        if existing is not None:
            raise TableError("game.exists", game_id=existing.id)
        self.check_host_limit(guild_id, host_id)
        computers = max(0, min(int(computers), MAX_SEATS - 1))
        if computer_level not in LEVELS:
            raise ValueError(f"unknown computer level {computer_level!r}")
        game = Game(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules or RuleSet(),
            computers=computers,
            computer_level=computer_level,
            turn_timeout=float(turn_timeout),
            seats=[Seat(user_id=host_id, name=host_name)],
            language=language,
            server_rules=server_rules,
        )
        if lobby_timeout is not None and lobby_timeout > 0:
            game.lobby_deadline = self.autopilot.clock() + lobby_timeout
        for _ in range(computers):
            game.seats.append(_computer_seat(game))
        return await self._create(game)

    async def _create(self, game: Game) -> Game:
        try:
            return await self.changes.create(game)
        except TableError as exc:
            other = exc.params.get("game_id")
            if exc.code == "game.exists" and isinstance(other, int):
                # Made by another process on the file: bring it into memory for the refusal to show.
                with contextlib.suppress(TableError):
                    await self.fetch(other)
            raise

    def check_host_limit(self, guild_id: int, host_id: int) -> None:
        """Refuse (``TableError("lobby.host_limit")``) a host who already hosts
        ``max_lobbies_per_host`` open lobbies on the server; :meth:`open_lobby` checks it too, so a
        caller that must make something first (a thread) can ask before it does."""
        limit = self.max_lobbies_per_host
        if limit <= 0:
            return
        hosted = sum(
            1
            for game in self.changes.games()
            if game.status is GameStatus.LOBBY and game.host_id == host_id and game.guild_id == guild_id
        )
        if hosted >= limit:
            # ``seats`` is the catalog's number parameter (as for lobby.full): here, the limit.
            raise TableError("lobby.host_limit", seats=limit)

    async def join(self, game_id: int, user_id: int, name: str) -> Game:
        """Take a free seat in the lobby."""

        def apply(game: Game) -> None:
            _require_lobby(game)
            if game.seat_of(user_id) is not None:
                raise TableError("seat.already_seated", game_id=game_id)
            if len(game.seats) >= MAX_SEATS:
                raise TableError("lobby.full", seats=MAX_SEATS)
            game.seats.append(Seat(user_id=user_id, name=name))

        return await self.changes.change(game_id, apply)

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

        return await self.changes.change(game_id, apply)

    async def add_computer(self, game_id: int, user_id: int, level: str | None = None) -> Game:
        """Add a computer seat to the lobby (any seated person may), at ``level`` (one of ``LEVELS``;
        ``None``: the lobby's level, set by ``/romme start computer_level:``, normal by default;
        ``ValueError`` for another)."""
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown computer level {level!r}")

        def apply(game: Game) -> None:
            _require_lobby(game)
            if game.active_seat_of(user_id) is None:
                raise TableError("seat.not_seated", game_id=game_id)
            if len(game.seats) >= MAX_SEATS:
                raise TableError("lobby.full", seats=MAX_SEATS)
            game.seats.append(_computer_seat(game, level))

        return await self.changes.change(game_id, apply)

    async def begin(self, game_id: int, user_id: int) -> Game:
        """Start the match (the host; 2 to 6 seats): seat 0 deals the first round (R4, R5)."""

        def apply(game: Game) -> None:
            _require_lobby(game, host=user_id)
            if not MIN_SEATS <= len(game.seats) <= MAX_SEATS:
                raise TableError("lobby.too_few", seats=len(game.seats), needed=MIN_SEATS)
            game.match = Match.new(len(game.seats), rules=game.rules, rng=self._rng(f"deal:{game.id}"))
            game.status = GameStatus.PLAYING
            game.last_turn.clear()

        return await self.changes.change(game_id, apply)

    async def cancel(self, game_id: int, user_id: int) -> Game:
        """Close the lobby without playing (the host)."""

        def apply(game: Game) -> None:
            _require_lobby(game, host=user_id)
            game.status = GameStatus.CANCELLED

        return await self.changes.change(game_id, apply)

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the public table message (``None``: it must be posted again). Not a game change:
        the version stays."""
        game = self.get(game_id)
        async with self.changes.lock(game_id):
            await self.storage.set_table_message(game_id, message_id)
            game.table_message_id = message_id

    async def table_posted(self, game: Game, message_id: int) -> None:
        """A fresh table message of ``game`` is in its channel: it is the one edited from now on. Set
        under the game's lock before it is stored, so a failed write (raised) never turns into a new
        post, and a new ping, at every change. ``game`` may be a finished game read from storage
        (:meth:`fetch`), held only by its caller. Not a game change: the version stays."""
        known = self.changes.find(game.id)
        if known is None:
            game.table_message_id = message_id
            await self.storage.set_table_message(game.id, message_id)
            return
        async with self.changes.lock(game.id):
            known.table_message_id = game.table_message_id = message_id
            await self.storage.set_table_message(game.id, message_id)

    # ------------------------------------------------------------------ play

    async def play(
        self,
        game_id: int,
        user_id: int,
        move: Move,
        *,
        version: int | None = None,
        seat_version: int | None = None,
        answer: PreparedAnswer[Any] | None = None,
    ) -> Game:
        """Play ``move`` for the user's seat. Refused: not seated (``seat.not_seated``), a panel of
        another game ``version`` or ``seat_version`` (``panel.stale``; a hand panel carries the
        seat's, :meth:`Game.seat_version`), not the seat's turn (``turn.not_yours``), or a rule
        (``IllegalMove``). Any accepted click of an away seat's owner brings the seat back.
        ``answer``: the answer, prepared while the move's save commits (see
        :class:`~bot.service.changes.PreparedAnswer`).
        """

        def apply(game: Game) -> list[MoveEntry]:
            seat = acting_seat(game, user_id, version, seat_version)
            if game.to_play != seat:
                raise TableError("turn.not_yours", game_id=game_id, to_play=game.to_play)
            assert game.match is not None
            seen = history_seen(game)
            turn = turn_id(game)
            game.match.play(seat, move)
            game.seats[seat].own_moves += 1
            # After a timeout, the owner's own move takes the rest of the turn back from the computer.
            game.auto_turn = None
            touch_seat(game, seat)
            add_events(game, move_events(game, seat, move, seen, auto=False))
            end_of_move(game, turn)
            return [MoveEntry(seat=seat, user_id=user_id, move=move.to_dict())]

        return await self.changes.change(game_id, apply, answer=answer)

    async def touch(self, game_id: int, user_id: int) -> Game:
        """The seat's owner clicked something: clear its missed turns and bring it back from away."""

        def apply(game: Game) -> object:
            seat = game.active_seat_of(user_id)
            if seat is None or not game.running:
                return UNCHANGED
            owner = game.seats[seat]
            if not owner.away and owner.missed == 0:
                return UNCHANGED
            touch_seat(game, seat)
            return None

        return await self.changes.change(game_id, apply)

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
                touch_seat(game, game.active_seat_of(user_id))
            deal_next(game)

        return await self.changes.change(game_id, apply)

    async def stop(self, game_id: int, user_id: int, *, can_manage: bool) -> Game:
        """End the game (the host, or a member who may manage the server). Rounds already played stay
        recorded. A running match is rated as :func:`~bot.service.ratings.early_rating` says (kept
        in ``game.early_rating``): a seated stopper ranks last, a member not seated leaves it rated
        on the standings so far once a round has ended; a match so rated counts in the statistics
        too, on the same outcome (:meth:`Game.counted_outcome`), written with the
        stop's save; the change path rates it right after its save, as a match played to its end."""

        def apply(game: Game) -> None:
            if game.status not in (GameStatus.LOBBY, GameStatus.PLAYING):
                raise TableError("game.not_running", game_id=game_id)
            if user_id != game.host_id and not can_manage:
                raise TableError("stop.not_allowed", game_id=game_id)
            running = game.status is GameStatus.PLAYING
            game.status = GameStatus.FINISHED if running else GameStatus.CANCELLED
            game.stopped_by = user_id
            if running:
                game.early_rating = early_rating(game, user_id)

        return await self.changes.change(game_id, apply)

    async def play_again(self, game_id: int, user_id: int) -> Game:
        """A new lobby in the same channel (or thread) with the same people (persons still seated, and
        the computer seats at their levels) and every setting of the old one (:meth:`Game.rematch`),
        hosted by whoever clicked **Play again** (who must have played)."""
        old = await self.fetch(game_id)
        if old.status in (GameStatus.LOBBY, GameStatus.PLAYING):
            raise TableError("game.not_finished", game_id=game_id)
        if old.active_seat_of(user_id) is None:
            raise TableError("seat.not_seated", game_id=game_id)
        existing = self.game_in_channel(old.channel_id)
        if existing is not None:
            raise TableError("game.exists", game_id=existing.id)
        self.check_host_limit(old.guild_id, user_id)
        created = await self._create(old.rematch(user_id))
        self._replayed[old.channel_id] = old.id
        return created


def _check(game: Game) -> None:
    """Refuse a game read back whose parts do not fit together (it would fail later, in a click)."""
    if game.match is None:
        return
    if game.match.n_seats != len(game.seats):
        raise ValueError(f"the match has {game.match.n_seats} seats, the table {len(game.seats)}")
    game.match.round.to_dict()
    if game.running and not game.match.round.over:
        seat = game.to_play
        if seat is None or not 0 <= seat < len(game.seats):
            raise ValueError(f"no seat on turn ({seat!r})")


def _require_lobby(game: Game, *, host: int | None = None) -> None:
    """Refuse unless ``game`` is in its lobby and, with ``host``, that user hosts it."""
    if game.status is not GameStatus.LOBBY:
        raise TableError("lobby.closed", game_id=game.id)
    if host is not None and host != game.host_id:
        raise TableError("lobby.not_host", game_id=game.id)


def _computer_seat(game: Game, level: str | None = None) -> Seat:
    taken = {seat.name for seat in game.seats}
    number = next(n for n in range(1, MAX_SEATS + 2) if f"Computer {n}" not in taken)
    return Seat(user_id=None, name=f"Computer {number}", computer=True, level=level or game.computer_level)


__all__ = ["TableService", "seeded_rngs"]
