"""The storage's one interface (:class:`Database`) and :func:`open_database`, the one way to open it.

A setting names the database: an SQLite file (:class:`~bot.storage.sqlite.Storage`, the default: one
bot process per file) or a PostgreSQL URL (:class:`~bot.storage.postgres.PostgresStorage`: a bot
spread over several processes). Both are written against :class:`Database`, whose docstrings say
what every method guarantees, whichever backend keeps the data; the tests run on both.

What both backends share is written once, beside this interface: the values in and out
(:mod:`bot.storage.records`: a :class:`~bot.storage.records.Save` is what one change writes), the
readers of rows and the replay of a game's tail (:mod:`bot.storage.rows`), the reads, in SQL both
dialects understand (:mod:`bot.storage.sql`), and the loader of the numbered migrations
(:mod:`bot.storage.schema`). A backend holds its writes, its connections and its dialect's pieces.

Adding a table and a query:

1. one migration file per backend: the next number in ``bot/storage/sqlite/migrations/`` and in
   ``bot/storage/postgres/migrations/`` (the schema version follows by itself; never edit a
   released file);
2. the query's entry here, an abstract method whose docstring says what it guarantees, and the
   record it returns in :mod:`bot.storage.records` with its columns in :mod:`bot.storage.rows`;
3. the method: a read whose SQL both dialects understand is written once, in
   :class:`~bot.storage.sql.SqlStorage` (``?`` placeholders); a write is one method per backend
   (``sqlite/store.py``: a function run on the writer thread; ``postgres/store.py``: one statement
   where it can, one round trip);
4. its test in ``tests/storage`` on the ``storage`` fixture, which runs it on both backends.

Nothing else changes: the service reaches it through :class:`Database`.

Several processes on one PostgreSQL database each keep what they read of the settings in memory
(:class:`~bot.service.settings.SettingsBook`); :meth:`Database.on_settings_changed` tells a process
that a server's settings or a member's preferences were saved, by itself or by another process
(PostgreSQL: ``NOTIFY``, delivered as the save commits; SQLite: one process per file, nothing to hear).

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     database = await open_database(path)
...     game_id = await database.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"n": 0})
...     saved = await database.save_game(Save(game_id, {"n": 1}, "playing", expected_version=1))
...     await database.close()
...     return type(database).__name__, game_id, saved
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(pathlib.Path(folder) / "romme.db"))
('Storage', 1, SaveResult(version=2, seq=None))
"""

from __future__ import annotations

import abc
import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from bot.storage.records import (
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    GameStatusName,
    MoveRecord,
    PlayerStats,
    ProfileCounts,
    RatedMatch,
    Rating,
    RatingChange,
    Replay,
    RoundScore,
    Save,
    SaveResult,
    Season,
    Standing,
    dumps,
    game_status,
)

Clock = Callable[[], float]
"""The time as epoch seconds: what a storage stamps its writes with (the table service's clock)."""


@dataclass(frozen=True, slots=True)
class SettingsChange:
    """What :meth:`Database.on_settings_changed` hears: the settings of server ``owner``
    (``kind="server"``) or the preferences of member ``owner`` (``"member"``) were saved; or, with
    ``kind=None``, any of them may have changed unheard (the notices were lost for a while: what a
    process kept in memory is to be read again).

    >>> SettingsChange("member", 7).everything, SettingsChange(None).everything
    (False, True)
    """

    kind: Literal["server", "member"] | None
    owner: int | None = None

    @property
    def everything(self) -> bool:
        """Whether anything may have changed (``kind`` is ``None``)."""
        return self.kind is None


SettingsListener = Callable[[SettingsChange], None]
"""Called on the event loop with each :class:`SettingsChange` (see :meth:`Database.on_settings_changed`)."""


class Database(abc.ABC):
    """The storage the service, the publisher and the client use, whichever backend keeps it.

    Guarantees every backend keeps (each method adds its own):

    - **Atomic writes.** Each write is one transaction: it happens whole or not at all, and a
      reader never sees half of one. A write's coroutine returns only once it is committed (on
      disk, as the backend's durability setting has it); if it raises, nothing of it is stored
      (except :class:`~bot.storage.errors.StorageError` from a lost connection, when the outcome is
      the database's: read it back).
    - **Order.** The saves of one game commit in the order they were started (:meth:`start_save`
      is called); the writes of different games may commit in any order.
    - **Versions.** Every save bumps the game's ``version`` by one; nothing else does. A save with
      an ``expected_version`` the game is no longer at raises
      :class:`~bot.storage.errors.VersionConflict` and writes nothing.
    - **Reads** see the last committed state, never a write under way, and never wait for one.
    - **Errors.** A game that does not exist: :class:`~bot.storage.errors.GameNotFound`; a second
      open game in a channel: :class:`~bot.storage.errors.ChannelBusy`; a closed storage or an
      unusable database: :class:`~bot.storage.errors.StorageError` (one line). A value JSON cannot
      hold: ``TypeError``/``ValueError`` before anything is sent.
    - **Replay.** The storage knows no rules: its owner gives it the :class:`~bot.storage.records.Replay`
      when it opens it (:func:`open_database`'s ``replay``), and a game read back then carries the
      snapshot as of its last save (the moves logged after the stored snapshot replayed onto it).
      Without one, a game read back carries the stored snapshot.
    - **Time.** Every time the storage writes of a game (a game's ``created_at`` and ``updated_at``,
      a move's and an announcement's ``created_at``, a delivery's ``delivered_at``) is read from the
      :data:`Clock` its owner gives it when it opens it (:func:`open_database`'s ``clock``; by
      default the wall clock), on the event loop when the write is made: the bot's clock, the one
      its turns, timers and ratings run on, never the database server's. The shard leases alone
      are timed by the server's clock, the one every process shares; a server setting's or a
      member preference's ``updated_at`` (never read by the bot) is the database's time too.
    """

    path: Any
    """How the database is named in messages: the file's path, or the URL without its password."""

    def __init__(self, replay: Replay | None, clock: Clock | None = None) -> None:
        self._replay = replay
        self._clock: Clock = clock or time.time

    def now(self) -> datetime:
        """The time a write made now is stamped with: the storage's :data:`Clock`, in UTC."""
        return datetime.fromtimestamp(self._clock(), UTC)

    @property
    def replay(self) -> Replay | None:
        """How the moves logged after a game's snapshot are folded into it when the game is read
        (:meth:`get_game`, :meth:`unfinished_games`); given at opening, fixed for the storage's
        life: ``None`` reads the stored snapshot as it was written."""
        return self._replay

    @property
    @abc.abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` has run (every other method then raises StorageError)."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close once the saves already started are committed. A second call does nothing."""

    # ------------------------------------------------------------------ health (bot/ops)

    @property
    @abc.abstractmethod
    def writer_alive(self) -> bool:
        """Whether a write can go out now: the storage is open and its writer is up (the SQLite
        writer thread runs; the PostgreSQL pool is open). Cheap: no query."""

    @property
    @abc.abstractmethod
    def transactions(self) -> int:
        """Write transactions since opening: each is one COMMIT (the SQLite writer commits the saves
        that arrive together in one, and counts one it rolled back too; on PostgreSQL each write is
        one). Cheap: a counter."""

    @abc.abstractmethod
    async def ping(self) -> None:
        """One cheap read (no table): returns once the database answered it. Raises
        :class:`~bot.storage.errors.StorageError` once closed, or what the driver raises."""

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        snapshot: dict[str, Any],
        status: GameStatus | GameStatusName = GameStatus.LOBBY,
    ) -> int:
        """Store a new game at version 1 and return its id (new, never reused).

        Raises :class:`~bot.storage.errors.ChannelBusy` (nothing written) when ``status`` is open
        (lobby, playing) and the channel already has an open game: at most one per channel, even
        when two processes create one at the same moment. Not idempotent: a second call makes a
        second game (or, in the same channel, is refused). The status and the snapshot are checked
        here, on the loop (ValueError, TypeError), before the backend's :meth:`_insert_game`.
        """
        return await self._insert_game(guild_id, channel_id, host_id, game_status(status), dumps(snapshot))

    @abc.abstractmethod
    async def _insert_game(
        self, guild_id: int, channel_id: int, host_id: int, status: GameStatus, snapshot: str
    ) -> int:
        """:meth:`create_game` in the backend, ``snapshot`` as JSON text: what it guarantees."""

    @abc.abstractmethod
    def start_save(
        self, save: Save, *, now: bool = False, ready: asyncio.Future[None] | None = None
    ) -> Awaitable[SaveResult]:
        """Write ``save`` in ONE transaction: the game's status and version (+1), its snapshot
        (unless ``None``: then the stored snapshot stays, and the move is logged with its
        :attr:`~bot.storage.records.MoveEntry.state` to be replayed onto it when the game is read
        back), its move appended to the log (numbered 1, 2, … per game: ``SaveResult.seq``), its
        round scores, its match's results added to the players' statistics (a person already
        counted for this game is skipped: a retry counts nothing twice) and its announcements owed
        to the channel (one per game and round: a round already owed or delivered keeps its row).

        Raises :class:`~bot.storage.errors.VersionConflict` when the game is not at
        ``save.expected_version``, :class:`~bot.storage.errors.GameNotFound`, and (PostgreSQL with
        shard leases) :class:`~bot.storage.postgres.ShardLost`; each time nothing is written. A
        round score recorded twice for a seat is refused by the schema (the backend's integrity
        error), nothing written.

        The save is started when this is called, not when the result is awaited (which it must
        be): the caller may work on the loop while it commits, and the saves of one game commit in
        the order of these calls. ``now`` asks the backend to send it at once rather than gather it
        with others (a click waits for it); ``ready`` is set once the save's statements have run or
        gone to the server, as its COMMIT begins (or with its outcome, if it fails first): work on
        the loop from then on overlaps the commit. Cancelling the caller once the save has started
        does not stop it: it commits or rolls back whole, and its outcome is the database's.
        """

    async def save_game(self, save: Save) -> SaveResult:
        """:meth:`start_save` and await it: the save is committed when this returns."""
        return await self.start_save(save)

    @abc.abstractmethod
    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the game's public table message (``None``: it must be posted again).

        Not a move: the version stays. Idempotent. Raises :class:`~bot.storage.errors.GameNotFound`.
        """

    @abc.abstractmethod
    async def set_aside(self, game_id: int, problem: str) -> bool:
        """Set aside an open game that cannot be read: its status becomes ``cancelled`` (it frees its
        channel and is not brought back again) and ``problem`` (folded to one line, at most 500
        characters) is kept as its ``damaged``; the snapshot stays. Returns False, changing
        nothing, if the game is not open (so a second call returns False)."""

    @abc.abstractmethod
    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id (its row and its tail read in one statement, so they agree), or
        ``None``."""

    @abc.abstractmethod
    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or in play, oldest (lowest id) first: what to bring back after a
        restart. Nothing in one game's rows stops the read: a game whose row or tail cannot be
        decoded, whose tail does not continue its snapshot up to its last move without a gap, or
        cannot be replayed, comes back with ``replay_error`` set (see :func:`bot.storage.rows.game`)."""

    @abc.abstractmethod
    async def moves(self, game_id: int, *, after: int = 0) -> list[MoveRecord]:
        """The game's logged moves with ``seq`` above ``after``, in log order (the move log is
        append-only: a move once logged never changes). Empty for an unknown game."""

    # ------------------------------------------------------------------ history (replays)

    @abc.abstractmethod
    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """The server's last ``limit`` finished games (played to the end, stopped or ended idle:
        status ``finished``), the last finished first (then the highest id), each with its stored
        snapshot (a finished game's last save wrote it whole). With ``user_id``: only those the
        person hosted or has a round score or a logged move in."""

    @abc.abstractmethod
    async def compact_moves(self, before: datetime) -> int:
        """Delete the logged moves of every game over (finished or cancelled) whose last save is
        older than ``before`` (an aware datetime), in one transaction; return how many went. The
        games' rows and snapshots, round scores, match results and statistics stay as they are: what
        players see of their scores does not change, only the replay of those games is gone. A
        second call deletes nothing more."""

    # ------------------------------------------------------------------ announcements (the outbox)

    @abc.abstractmethod
    async def owed_announcements(self, game_id: int | None = None) -> list[AnnouncementRecord]:
        """The announcements not delivered yet (of one game, or of all), by game, then round. A row
        that cannot be read (its payload or a time damaged) is left out, with a warning naming it."""

    @abc.abstractmethod
    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool:
        """Note that this round's announcement is in the channel, as message ``message_id``.

        Returns False, changing nothing, if it was noted already (the first delivery's message id
        stays) or is not owed: two deliveries racing note one.
        """

    # ------------------------------------------------------------------ scores and statistics

    @abc.abstractmethod
    async def round_scores(self, game_id: int) -> list[RoundScore]:
        """Every recorded round score of the game, by round then seat."""

    @abc.abstractmethod
    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's statistics on one server, or ``None`` if they never finished a match there."""

    @abc.abstractmethod
    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's best ``limit`` players: most matches won, then most points, then fewest
        matches played, then lowest user id (a total order: equal records never swap)."""

    # ------------------------------------------------------------------ server settings, member preferences

    @abc.abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's saved defaults (``/romme settings``) as the JSON object last saved with
        :meth:`save_guild_settings`; an empty dict for a server that never saved any."""

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Keep ``settings`` (a JSON object, replacing the server's last one whole) in one
        transaction. Idempotent; the last call wins. TypeError before anything is sent for a value
        that is not a JSON object."""
        await self._put_settings("guild_settings", "guild_id", "settings", guild_id, dumps(settings))

    @abc.abstractmethod
    async def member_preferences(self, user_id: int) -> dict[str, Any]:
        """A member's saved preferences (``/romme preferences``, the same on every server) as the
        JSON object last saved with :meth:`save_member_preferences`; an empty dict if none."""

    async def save_member_preferences(self, user_id: int, preferences: dict[str, Any]) -> None:
        """Keep ``preferences`` (a JSON object, replacing the member's last one whole) in one
        transaction. Idempotent; the last call wins."""
        await self._put_settings("member_preferences", "user_id", "preferences", user_id, dumps(preferences))

    @abc.abstractmethod
    async def _put_settings(self, table: str, key: str, column: str, owner: int, value: str) -> None:
        """Insert or replace the row of ``owner`` in ``table`` (one of the two above, named by the
        code, never by a user): its ``column`` becomes the JSON text ``value``; on a backend shared
        by several processes, the notice of :meth:`on_settings_changed` goes out with it."""

    @abc.abstractmethod
    def on_settings_changed(self, listener: SettingsListener) -> None:
        """Call ``listener`` (on the event loop, synchronously: it must not block) each time a
        server's settings or a member's preferences are saved through any storage on this database,
        in this process or another, so that what a process keeps in memory of them can be read
        again. Listeners are called in the order they were added, for as long as the storage is open.

        - PostgreSQL: :meth:`save_guild_settings` and :meth:`save_member_preferences` send a
          ``NOTIFY`` in their own transaction, delivered to every process as it commits (so a read
          made on hearing it sees the save), within milliseconds; a process hears its own saves
          too. The notices arrive on one connection of their own; when it is lost, and again once
          it is back, the listener hears ``SettingsChange(None)`` (notices may have been missed).
        - SQLite: one process per file, which saves everything itself: nothing is ever heard.

        Only the id of the server or member is sent, never the values (read them).
        """

    # ------------------------------------------------------------------ ratings and seasons

    @abc.abstractmethod
    async def record_rating(
        self, match: RatedMatch, changes: Sequence[RatingChange], ratings: Sequence[Rating]
    ) -> bool:
        """Store a rated match in ONE transaction: its row (the result it was rated from), each
        person's rating before and after (``changes``) and their season ratings (``ratings``, each
        written whole: a row of the same server, season and person is replaced). Returns False,
        writing nothing, when the game is rated already (a second call, or a race: one wins)."""

    @abc.abstractmethod
    async def forget_ratings(self, guild_id: int) -> None:
        """Delete the server's rated matches, rating history and ratings (not its seasons), in one
        transaction: the first step of a recompute, which then rates every match again."""

    @abc.abstractmethod
    async def start_season(self, season: Season) -> bool:
        """Store a new season of its server. Returns False, writing nothing, when the server already
        has a season with that number (two starts racing: one wins)."""

    @abc.abstractmethod
    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, oldest (number 1) first."""

    @abc.abstractmethod
    async def latest_ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, Rating]:
        """Each of these persons' rating of their latest season on the server (any season); a person
        never rated there is left out."""

    @abc.abstractmethod
    async def season_board(self, guild_id: int, season: int, offset: int, limit: int) -> list[Standing]:
        """``limit`` lines of the season's leaderboard from rank ``offset + 1``: highest ordinal
        first, then lowest user id (a total order: equal ratings never swap)."""

    @abc.abstractmethod
    async def season_rank(self, guild_id: int, season: int, user_id: int) -> tuple[int, Standing | None]:
        """How many persons have a rating in the season, and the person's line of its leaderboard
        (in the order of :meth:`season_board`; ``None`` if they have no rating in that season), read
        together: one pass over the season's ratings."""

    @abc.abstractmethod
    async def season_size(self, guild_id: int, season: int) -> int:
        """How many persons have a rating in the season."""

    @abc.abstractmethod
    async def rating_history(self, guild_id: int, user_id: int, limit: int) -> list[RatingChange]:
        """The person's last ``limit`` rated matches on the server (every season), oldest first."""

    @abc.abstractmethod
    async def game_rating_changes(self, game_id: int) -> list[tuple[RatingChange, int]]:
        """Each rating change the game's match made (none: not rated yet, or not rated), with the
        person's number of rated matches in that season up to and with this one: what its match-end
        message shows ("+23 → 1,412", provisional or not), read back after a restart."""

    @abc.abstractmethod
    async def profile_counts(self, guild_id: int, user_id: int) -> ProfileCounts:
        """What the person's rated matches on the server add up to (zeros when there are none)."""

    @abc.abstractmethod
    async def rated_matches(self, guild_id: int) -> list[RatedMatch]:
        """The server's rated matches in the order they were rated (end, then game id)."""

    @abc.abstractmethod
    async def games_to_rate(self, guild_id: int | None = None) -> list[tuple[int, int, datetime]]:
        """``(game id, server, last saved)`` of every finished game (of one server, or all), in the
        order they were last saved: what a recompute rates again."""

    @abc.abstractmethod
    async def unrated_matches(self) -> list[tuple[int, int, datetime]]:
        """``(game id, server, last saved)`` of every finished game (played to its end, or ended
        early) with no rated match yet, in the order they were last saved: the matches a start
        rates (the last process stopped between their save and their rating), or stores as not
        rated, so that it never reads them again."""


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL).

    >>> is_postgres_url("postgresql://bot@db/romme"), is_postgres_url(Path("romme.db"))
    (True, False)
    """
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_database(
    target: str | Path, *, replay: Replay | None = None, clock: Clock | None = None
) -> Database:
    """Open the database ``target`` names: a ``postgresql://`` URL, or else an SQLite file's path,
    bringing its schema up to date. ``replay`` is how a game read back gets its moves since its
    snapshot (see :attr:`Database.replay`): a table service needs it. ``clock`` is the time its
    writes are stamped with (see :class:`Database`, "Time"): the table service's clock.

    Raises :class:`~bot.storage.errors.StorageError` (one line) when it cannot be used.
    """
    if is_postgres_url(target):
        # Imported here: a bot on an SQLite file never loads asyncpg.
        from bot.storage.postgres import PostgresStorage

        return await PostgresStorage.open(str(target), replay=replay, clock=clock)
    from bot.storage.sqlite import Storage

    return await Storage.open(target, replay=replay, clock=clock)


async def check_database(
    target: str | Path, *, shards: tuple[int, ...] | None = None, shard_count: int | None = None
) -> str:
    """Look at the database ``target`` names without opening it as :func:`open_database` does:
    nothing is migrated, created, locked or written. Returns one line saying what is fine; raises
    :class:`~bot.storage.errors.StorageError` with one line naming the problem (``romme-bot check``).

    Each backend checks what its :func:`open_database` would refuse: the file or the server out of
    reach, a schema newer than this code or another program's, the database in use where only one
    process may use it (an SQLite file another process has open; for PostgreSQL, a live lease on one
    of ``shards``, the ones this process would run, or of another count than ``shard_count``). A
    schema older than this code is fine: the line says that the bot brings it up to date when it
    starts. An SQLite file that does not exist yet is fine if the bot can create it.
    """
    if is_postgres_url(target):
        from bot.storage.postgres.tools import check_server

        return await check_server(str(target), shards, shard_count)
    from bot.storage.sqlite.tools import check_file

    return await asyncio.to_thread(check_file, target)
