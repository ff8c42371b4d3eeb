"""The bot's database on a PostgreSQL server (``DATABASE_URL=postgresql://…``), through asyncpg.

The same interface and the same guarantees as the SQLite :class:`~bot.storage.Storage`:

- every write is one transaction, committed (``synchronous_commit`` as the server has it; on by
  default: flushed to disk) before the call returns; the game's row and the move-log row of a move
  are one transaction, so a move the bot has answered for is stored with its game;
- a save is ONE round trip: one statement, ``romme_save`` (a function of the schema,
  ``pg_migrations/0003``), sent outside a transaction block, so that it is its own transaction and
  commits before its answer comes back (five round trips before: BEGIN, the row lock, the log row,
  the game's row, COMMIT; and asyncpg's reset of the connection after each, which the pool here
  leaves out); a new game, a table message and the other one-statement writes are one round trip too;
- optimistic versions: a save with ``expected_version`` is refused (:class:`VersionConflict`,
  nothing written) unless the game's row is still at that version; the row is locked
  (``SELECT … FOR UPDATE``) for the check, so two processes cannot both pass it;
- fenced saves: once the storage holds shard leases (:meth:`PostgresStorage.take_shards`), a save
  or a new game is refused (:class:`ShardLost`, nothing written) unless the lease of its server's
  shard still carries this storage's epoch: a process that lost its shards to another cannot write
  the games the other plays now, even if it has not noticed yet;
- the move log is append-only (a trigger refuses an UPDATE), numbered 1, 2, … per game;
- the saves of one game are committed in the order they were started (:meth:`start_save` queues a
  save when it is called; the saves of different games run side by side on the pool);
- the schema comes from numbered migrations (``bot/storage/pg_migrations``), each in its own
  transaction with the version bump, under an advisory lock (two processes starting together
  migrate once); a database newer than this code, or another program's, is refused in one line,
  and so are a server that cannot be reached and a login the server refuses.

A URL may carry server settings as query parameters (asyncpg passes unknown ones to the server):
``…/romme?search_path=shard_tests`` keeps the bot's tables in that schema (the tests do this).

Besides the games, the server keeps the shard leases (:meth:`PostgresStorage.take_shards`): the
database is shared by every bot process, and a lease per shard says which one plays its games.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
import socket
import threading
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib.resources import files
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

from bot.storage import rows as read
from bot.storage.errors import ChannelBusy, GameNotFound, StorageError, VersionConflict
from bot.storage.records import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Announcement,
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    GameStatusName,
    MatchResult,
    MoveEntry,
    MoveRecord,
    PlayerStats,
    Replay,
    RoundScore,
    SaveResult,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
_Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

CONNECT_TIMEOUT = 10.0
"""Seconds to reach the server and log in before giving up with one line."""

POOL_SIZE = 10
"""Connections one process keeps to the server at most, unless its URL says ``?pool_size=N``: the
saves of different games run side by side on them. A save is one round trip of about a millisecond
of the server's time, so ten carry several thousand saves a second; more only help a server far away
(a save holds its connection for the whole round trip). Every process holds its own: keep
processes × pool size under the server's ``max_connections`` (100 by default)."""

_OPEN = "(" + ", ".join(f"'{status.value}'" for status in OPEN_STATUSES) + ")"
_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_MIGRATION_LOCK = 0x526F6D6D65  # "Romme": the advisory lock every migrating process takes


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the PostgreSQL schema: after ``sql`` has run, the database is at ``version``."""

    version: int
    name: str
    sql: str


def pg_migrations() -> tuple[Migration, ...]:
    """The PostgreSQL migrations shipped with the code, in order; their numbers run 1, 2, 3, … .

    >>> [m.version for m in pg_migrations()][:2]
    [1, 2]
    """
    found = []
    for entry in files("bot.storage.pg_migrations").iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3, …: {[m.name for m in found]}")
    return tuple(found)


PG_SCHEMA_VERSION = len(pg_migrations())
"""The PostgreSQL schema version this code writes and reads (numbered apart from SQLite's)."""


def shown_url(url: str) -> str:
    """The URL as the bot names it in its messages: without the password or the query.

    >>> shown_url("postgresql://bot:secret@db:5432/romme?search_path=x")
    'postgresql://bot@db:5432/romme'
    """
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    if len(netloc) == 2:
        user = netloc[0].split(":", 1)[0]
        host = f"{user}@{netloc[1]}"
    else:
        host = netloc[0]
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def pool_setting(url: str) -> tuple[str, int | None]:
    """The URL without its ``pool_size`` parameter (the bot's, not the server's), and that size.

    >>> pool_setting("postgresql://bot@db/romme?pool_size=20&search_path=x")
    ('postgresql://bot@db/romme?search_path=x', 20)
    >>> pool_setting("postgresql://bot@db/romme")
    ('postgresql://bot@db/romme', None)
    """
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    sizes = [value for key, value in query if key == "pool_size"]
    if not sizes:
        return url, None
    if not sizes[-1].isdigit() or int(sizes[-1]) < 1:
        raise StorageError(f"{shown_url(url)}: pool_size must be a whole number of connections, 1 or more")
    kept = urllib.parse.urlencode([(key, value) for key, value in query if key != "pool_size"])
    return urllib.parse.urlunsplit(parts._replace(query=kept)), int(sizes[-1])


async def _keep_session(connection: asyncpg.Connection) -> None:
    """The pool's reset: nothing to undo (see :meth:`PostgresStorage.open`)."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A shard's lease as stored: who holds it and until when (see :meth:`PostgresStorage.take_shards`)."""

    shard_id: int
    shard_count: int
    owner: str
    expires_at: datetime
    epoch: int = 0
    """The fencing token of the take that holds it (see :meth:`PostgresStorage.take_shards`)."""


class ShardTaken(StorageError):
    """A shard this process should run is held by another live process; the message is one line.

    >>> str(ShardTaken(3, owner="host-a pid 12", seconds_left=27.5))
    'shard 3 is held by another romme-bot process (host-a pid 12) for 28 s more: run each shard ...'
    """

    def __init__(self, shard_id: int, *, owner: str, seconds_left: float) -> None:
        super().__init__(
            f"shard {shard_id} is held by another romme-bot process ({owner}) for "
            f"{max(0, round(seconds_left))} s more: run each shard in one process"
        )
        self.shard_id = shard_id
        self.owner = owner


class ShardLost(StorageError):
    """A write refused because the lease of its game's shard was taken over by another process
    since this one took it (the fencing token differs): nothing was written, the other process
    plays the game now.

    >>> str(ShardLost("game 7"))
    'game 7: the shard lease of this process was taken over by another romme-bot process: not saved'
    """

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what}: the shard lease of this process was taken over by another romme-bot process: not saved"
        )


def default_owner() -> str:
    """What this process writes into the leases it holds: its host and process id.

    >>> "pid" in default_owner()
    True
    """
    import os

    return f"{socket.gethostname()} pid {os.getpid()}"


class PostgresStorage:
    """The database of the bot on a PostgreSQL server: open it with :meth:`PostgresStorage.open`,
    close it with :meth:`close`. Same methods, records and errors as :class:`~bot.storage.Storage`.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        """Wrap an open pool on a migrated database; use :meth:`PostgresStorage.open`."""
        self._pool: asyncpg.Pool | None = pool
        self.url = url
        self.path = shown_url(url)
        """How the bot names this database (the URL without its password)."""
        self.replay: Replay | None = None
        """How to fold the moves logged after a game's snapshot into it (see
        :attr:`bot.storage.Storage.replay`)."""
        self._chains: dict[int, list[Any]] = {}
        self.transactions = 0
        """How many write transactions this storage has committed."""
        self._pending: set[asyncio.Future[Any]] = set()
        self.fence: int | None = None
        """The epoch of this storage's shard leases (:meth:`take_shards`): every save and new game
        is refused (:class:`ShardLost`) unless the lease of its server's shard still carries it.
        ``None`` (no lease taken, one process on the database): not fenced."""
        self._shard_count = 0
        self._lost: Callable[[list[int]], None] | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, url: str, *, pool_size: int | None = None) -> PostgresStorage:
        """Connect to the server, bring the schema up to date and return the storage.

        ``pool_size``: connections kept at most (default: the URL's ``pool_size`` parameter, else
        :data:`POOL_SIZE`). Raises :class:`StorageError` with one line naming the database when the
        server cannot be reached, refuses the login, has no such database, or holds a newer or
        foreign schema.
        """
        shown = shown_url(url)
        server_url, size = pool_setting(url)
        try:
            pool = await asyncpg.create_pool(
                server_url,
                min_size=1,
                max_size=pool_size or size or POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=60,
                # The bot leaves nothing in a session (no SET, LISTEN, cursor or session lock), so a
                # connection goes back to the pool as it is, without asyncpg's reset query: that
                # would be one more round trip after every statement.
                reset=_keep_session,
            )
        except (TimeoutError, OSError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise StorageError(f"{shown}: cannot reach the PostgreSQL server ({reason})") from None
        except (
            asyncpg.InvalidAuthorizationSpecificationError,
            asyncpg.InvalidPasswordError,
        ) as exc:
            raise StorageError(f"{shown}: the PostgreSQL server refused the login ({_line(exc)})") from None
        except asyncpg.InvalidCatalogNameError as exc:
            raise StorageError(f"{shown}: {_line(exc)} (create it first: createdb)") from None
        except asyncpg.PostgresError as exc:
            raise StorageError(f"{shown}: cannot open the database ({_line(exc)})") from None
        try:
            async with pool.acquire() as conn:
                await migrate(conn, shown)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError):
                raise StorageError(f"{shown}: cannot migrate the database ({_line(exc)})") from None
            raise
        return cls(pool, url)

    async def close(self) -> None:
        """Close the pool once the saves started are committed; closing twice is harmless."""
        if self._pool is not None:
            pool = self._pool
            if self._pending:
                await asyncio.gather(*self._pending, return_exceptions=True)
            self._pool = None
            await pool.close()

    def terminate(self) -> None:
        """Drop the connections at once, as a killed process would (tests); nothing is committed."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.terminate()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._pool is None

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
        """Save a new game at version 1 and return its id (see :meth:`bot.storage.Storage.create_game`)."""
        status = _status(status)
        snapshot_json = _dumps(snapshot)

        fence = self.fence

        async def write(db: _Conn) -> int:
            # One statement (its own transaction): the unique index of open games in a channel
            # refuses a second one, which another process may have opened a moment ago.
            try:
                game_id = await db.fetchval(
                    _CREATE, guild_id, channel_id, host_id, status.value, snapshot_json, fence
                )
            except asyncpg.UniqueViolationError:
                row = await db.fetchrow(
                    f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN}", channel_id
                )
                raise ChannelBusy(channel_id, game_id=row["id"] if row else 0) from None
            if game_id is None:
                self._fenced(guild_id)
                raise ShardLost(f"a new game in channel {channel_id}")
            return int(game_id)

        return await self._write(write, transaction=False)

    async def save_game(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
    ) -> SaveResult:
        """Save the game (see :meth:`start_save`, which this awaits)."""
        return await self.start_save(
            game_id,
            snapshot,
            status,
            expected_version=expected_version,
            move=move,
            round_scores=round_scores,
            match_results=match_results,
            announcements=announcements,
        )

    def start_save(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
        now: bool = False,
        ready: asyncio.Future[None] | None = None,
    ) -> Awaitable[SaveResult]:
        """Replace the game's snapshot and status and, in the SAME transaction, log ``move``, record
        the scores and results and owe the announcements: see :meth:`bot.storage.Storage.start_save`.

        The save starts when this is called (the caller may work on the loop while it commits, as
        the service draws a panel); the saves of one game commit in the order they were started.
        ``now`` is accepted for the interface's sake: a save here always starts at once. ``ready``
        is set as the save's one statement goes to the server (or else with its outcome): work on
        the loop from then on overlaps its round trip, its commit and the fsync.

        The save is one statement, ``romme_save`` (one round trip, committed as it returns: see
        ``pg_migrations/0003``). Once this process has taken shard leases (:meth:`take_shards`),
        the save is fenced by them: it raises :class:`ShardLost` (nothing written) when the lease of
        the game's shard was taken over by another process since.
        """
        status = _status(status)
        if snapshot is None and move is None:
            raise ValueError("a save without a snapshot needs its move")
        snapshot_json = _dumps(snapshot) if snapshot is not None else None
        move_json = _dumps(move.move) if move is not None else None
        state_json = _dumps(move.state) if move is not None and move.state is not None else None
        scores_json = _rows([dataclasses.asdict(score) for score in round_scores]) if round_scores else None
        results_json = _rows([_result(result) for result in match_results]) if match_results else None
        owed_json = (
            _rows(
                [
                    {"round_no": a.round_no, "kind": a.kind, "payload": _object(a.payload)}
                    for a in announcements
                ]
            )
            if announcements
            else None
        )
        fence = self.fence

        async def write(db: _Conn) -> SaveResult:
            if ready is not None and not ready.done():
                # The statement goes to the server as this coroutine next waits: from then on the
                # work on the loop overlaps its round trip, its commit and the fsync.
                ready.set_result(None)
            row = await db.fetchrow(
                _SAVE,
                game_id,
                expected_version,
                snapshot_json,
                status.value,
                move.seat if move is not None else None,
                move.user_id if move is not None else None,
                move_json,
                state_json,
                scores_json,
                results_json,
                owed_json,
                fence,
            )
            assert row is not None
            outcome = row["outcome"]
            if outcome == "missing":
                raise GameNotFound(game_id)
            if outcome == "fenced":
                self._fenced(int(row["guild_id"]))
                raise ShardLost(f"game {game_id}")
            if outcome == "conflict":
                assert expected_version is not None
                raise VersionConflict(game_id, expected=expected_version, actual=int(row["version"]))
            seq = row["seq"]
            return SaveResult(version=int(row["version"]), seq=None if seq is None else int(seq))

        result = self._start(write, game_id, transaction=False)
        if ready is not None:
            # A save that fails (or never starts) sets ready with its outcome.
            future = asyncio.ensure_future(result)

            def outcome(_: asyncio.Future[SaveResult]) -> None:
                if not ready.done():
                    ready.set_result(None)

            future.add_done_callback(outcome)
            return future
        return result

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the game's public table message; the version stays. Raises
        :class:`GameNotFound`."""

        async def write(db: _Conn) -> None:
            status = await db.execute(
                "UPDATE games SET table_message_id = $1, updated_at = now() WHERE id = $2",
                message_id,
                game_id,
            )
            if status.endswith(" 0"):
                raise GameNotFound(game_id)

        await self._write(write, transaction=False)

    async def set_aside(self, game_id: int, problem: str) -> bool:
        """Set aside a game whose snapshot cannot be read (see :meth:`bot.storage.Storage.set_aside`)."""
        problem = " ".join(problem.split())[:500] or "unreadable"

        async def write(db: _Conn) -> bool:
            status = await db.execute(
                f"UPDATE games SET status = $1, damaged = $2, updated_at = now() "
                f"WHERE id = $3 AND status IN {_OPEN}",
                GameStatus.CANCELLED.value,
                problem,
                game_id,
            )
            return not status.endswith(" 0")

        return await self._write(write, transaction=False)

    async def damaged_games(self) -> list[GameRecord]:
        """Every game set aside as unreadable, oldest first."""
        return [
            self._game(row) for row in await self._fetch(f"{_GAME} WHERE damaged IS NOT NULL ORDER BY id")
        ]

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or ``None``."""
        rows = await self._fetch(f"{_GAME} WHERE id = $1", game_id)
        return self._game(rows[0]) if rows else None

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game in the lobby or in play in this channel, or ``None``."""
        rows = await self._fetch(f"{_GAME} WHERE channel_id = $1 AND status IN {_OPEN}", channel_id)
        return self._game(rows[0]) if rows else None

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or in play, oldest first."""
        return [self._game(row) for row in await self._fetch(f"{_GAME} WHERE status IN {_OPEN} ORDER BY id")]

    async def moves(self, game_id: int, *, after: int = 0) -> list[MoveRecord]:
        """The game's logged moves with ``seq`` above ``after``, in order."""
        rows = await self._fetch(
            "SELECT * FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq", game_id, after
        )
        return [
            MoveRecord(
                game_id=row["game_id"],
                seq=row["seq"],
                seat=row["seat"],
                user_id=row["user_id"],
                move=json.loads(row["move"]),
                created_at=row["created_at"],
                state=json.loads(row["state"]) if row["state"] is not None else None,
            )
            for row in rows
        ]

    # ------------------------------------------------------------------ announcements (the outbox)

    async def owed_announcements(self, game_id: int | None = None) -> list[AnnouncementRecord]:
        """The announcements not delivered yet (of one game, or of all), by game, then round."""
        if game_id is None:
            rows = await self._fetch(
                "SELECT * FROM announcements WHERE delivered_at IS NULL ORDER BY game_id, round_no"
            )
        else:
            rows = await self._fetch(
                "SELECT * FROM announcements WHERE delivered_at IS NULL AND game_id = $1 "
                "ORDER BY game_id, round_no",
                game_id,
            )
        return [read.announcement(row, _stamp) for row in rows]

    async def announcement(self, game_id: int, round_no: int) -> AnnouncementRecord | None:
        """The announcement of this game's round, delivered or not, or ``None``."""
        rows = await self._fetch(
            "SELECT * FROM announcements WHERE game_id = $1 AND round_no = $2", game_id, round_no
        )
        return read.announcement(rows[0], _stamp) if rows else None

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool:
        """Note that the announcement of this round is in the channel; False if noted already."""

        async def write(db: _Conn) -> bool:
            status = await db.execute(
                "UPDATE announcements SET delivered_at = now(), message_id = $1 "
                "WHERE game_id = $2 AND round_no = $3 AND delivered_at IS NULL",
                message_id,
                game_id,
                round_no,
            )
            return not status.endswith(" 0")

        return await self._write(write, transaction=False)

    # ------------------------------------------------------------------ scores and statistics

    async def record_round(self, game_id: int, scores: Sequence[RoundScore]) -> None:
        """Record the scores of one finished round; raises :class:`GameNotFound`, or asyncpg's
        ``UniqueViolationError`` for a round already recorded (nothing is written then)."""
        rows = list(scores)

        async def write(db: _Conn) -> None:
            await _version(db, game_id, lock=False)
            await _insert_round_scores(db, game_id, rows)

        await self._write(write)

    async def round_scores(self, game_id: int) -> list[RoundScore]:
        """Every recorded round score of the game, by round then seat."""
        rows = await self._fetch(
            "SELECT * FROM round_scores WHERE game_id = $1 ORDER BY round_no, seat", game_id
        )
        return [read.round_score(row) for row in rows]

    async def record_match(self, game_id: int, results: Iterable[MatchResult]) -> int:
        """Add a finished match's results to the statistics; a person recorded already for this
        game is skipped. Returns how many were new. Raises :class:`GameNotFound`."""
        rows = list(results)

        async def write(db: _Conn) -> int:
            if not rows:
                if await db.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is None:
                    raise GameNotFound(game_id)
                return 0
            row = await db.fetchrow(
                "SELECT romme_record_match(id, guild_id, $2::json) AS new FROM games WHERE id = $1",
                game_id,
                _rows([_result(result) for result in rows]),
            )
            if row is None:
                raise GameNotFound(game_id)
            return int(row["new"])

        return await self._write(write, transaction=False)

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's statistics on one server, or ``None``."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
        )
        return read.stats(rows[0]) if rows else None

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's best players: most matches won, then most points, then fewest matches."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = $1 "
            "ORDER BY matches_won DESC, points DESC, matches_played ASC, user_id ASC LIMIT $2",
            guild_id,
            limit,
        )
        return [read.stats(row) for row in rows]

    # ------------------------------------------------------------------ shard leases

    async def take_shards(
        self, shard_ids: Sequence[int], shard_count: int, *, owner: str, ttl: float
    ) -> list[Lease]:
        """Take the lease of every shard in ``shard_ids`` for ``ttl`` seconds, all or none.

        A shard whose lease is held by another owner and has not expired refuses the whole call
        with :class:`ShardTaken` (one line naming the shard and its holder); an expired lease (its
        process died, or stopped renewing) is taken over. Taking a lease this owner holds renews it.

        Every take draws a new epoch (the fencing token, :attr:`Lease.epoch`), the same for all the
        shards of the call; from then on this storage's saves are fenced by it (:attr:`fence`). A
        lease held before is deleted and inserted again, which waits for the saves under way that
        hold it (they lock it ``FOR KEY SHARE``): once a take-over returns, no save of the process
        that lost the shard can commit any more.
        """

        async def write(db: _Conn) -> list[Lease]:
            epoch = int(await db.fetchval("SELECT nextval('shard_lease_epochs')"))
            taken = []
            for shard in sorted(shard_ids):
                held = await db.fetchrow(
                    "SELECT owner, taken_at, expires_at < now() AS expired, "
                    "EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                    "FROM shard_leases WHERE shard_id = $1 FOR UPDATE",
                    shard,
                )
                if held is not None:
                    if held["owner"] != owner and not held["expired"]:
                        raise ShardTaken(shard, owner=held["owner"], seconds_left=float(held["left_s"]))
                    await db.execute("DELETE FROM shard_leases WHERE shard_id = $1", shard)
                row = await db.fetchrow(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, epoch, taken_at, expires_at) "
                    "VALUES ($1, $2, $3, $4, COALESCE($5, now()), now() + make_interval(secs => $6)) "
                    "ON CONFLICT (shard_id) DO NOTHING "
                    "RETURNING shard_id, shard_count, owner, expires_at, epoch",
                    shard,
                    shard_count,
                    owner,
                    epoch,
                    held["taken_at"] if held is not None and held["owner"] == owner else None,
                    float(ttl),
                )
                if row is None:  # another process took it in the meantime (and has committed)
                    won = await db.fetchrow(
                        "SELECT owner, EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                        "FROM shard_leases WHERE shard_id = $1",
                        shard,
                    )
                    assert won is not None
                    raise ShardTaken(shard, owner=won["owner"], seconds_left=float(won["left_s"]))
                taken.append(_lease(row))
            return taken

        leases = await self._write(write)
        if leases:
            self.fence = leases[0].epoch
            self._shard_count = shard_count
        return leases

    async def renew_shards(self, shard_ids: Sequence[int], *, owner: str, ttl: float) -> list[int]:
        """The heartbeat: push the leases this owner still holds ``ttl`` seconds on; returns the
        shards renewed (a shard missing from it was lost: its lease expired and another took it)."""

        async def write(db: _Conn) -> list[int]:
            rows = await db.fetch(_RENEW, list(shard_ids), owner, float(ttl), None)
            return sorted(int(row["shard_id"]) for row in rows)

        return await self._write(write, transaction=False)

    def keep_shards(
        self, shard_ids: Sequence[int], *, owner: str, ttl: float, lost: Callable[[list[int]], None]
    ) -> LeaseKeeper:
        """Start the heartbeat of this owner's leases (see :class:`LeaseKeeper`); ``lost`` is called on
        the calling loop with the shards found taken over by another process."""
        keeper = LeaseKeeper(
            self.url, shard_ids, owner=owner, ttl=ttl, lost=self._report_once(lost), epoch=self.fence
        )
        self._lost = keeper._lost
        keeper.start()
        return keeper

    def _report_once(self, lost: Callable[[list[int]], None]) -> Callable[[list[int]], None]:
        """``lost`` called at most once, by the heartbeat or by the first fenced write."""
        told: list[bool] = []

        def report(shards: list[int]) -> None:
            if not told:
                told.append(True)
                lost(shards)

        return report

    def _fenced(self, guild_id: int) -> None:
        """A write was refused by the fence: its shard is lost, and the owner hears it now rather
        than at the next heartbeat."""
        if self._lost is not None and self._shard_count:
            self._lost([(guild_id >> 22) % self._shard_count])

    async def release_shards(self, shard_ids: Sequence[int], *, owner: str) -> None:
        """Give the leases up (a clean stop): another process may take the shards at once."""

        async def write(db: _Conn) -> None:
            await db.execute(
                "DELETE FROM shard_leases WHERE shard_id = ANY($1::integer[]) AND owner = $2",
                list(shard_ids),
                owner,
            )

        await self._write(write, transaction=False)

    async def leases(self) -> list[Lease]:
        """Every shard lease, by shard."""
        rows = await self._fetch("SELECT * FROM shard_leases ORDER BY shard_id")
        return [_lease(row) for row in rows]

    # ------------------------------------------------------------------ plumbing

    def _game(self, row: asyncpg.Record) -> GameRecord:
        record = read.game(row, _stamp)
        tail_json = row["tail"]
        if self.replay is None or tail_json is None:
            return record
        tail = [
            MoveRecord(
                game_id=record.id,
                seq=entry["seq"],
                seat=entry["seat"],
                user_id=entry["user_id"],
                move=entry["move"],
                created_at=datetime.fromisoformat(entry["created_at"]),
                state=entry["state"],
            )
            for entry in json.loads(tail_json)
        ]
        if not tail:
            return record
        try:
            snapshot = self.replay(record.snapshot, tail)
        except Exception as exc:
            problem = f"its last {len(tail)} moves cannot be replayed ({type(exc).__name__}: {exc})"
            return dataclasses.replace(record, replay_error=" ".join(problem.split())[:500])
        return dataclasses.replace(record, snapshot=snapshot, replayed=len(tail))

    def _live_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError(f"{self.path}: the database is closed")
        return self._pool

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return list(await self._live_pool().fetch(sql, *params))

    async def _transaction(self, write: Callable[[_Conn], Awaitable[T]], transaction: bool) -> T:
        async with self._live_pool().acquire() as db:
            if transaction:
                async with db.transaction():
                    result = await write(db)
            else:  # one statement: its own transaction, committed as it returns (one round trip)
                result = await write(db)
        self.transactions += 1
        return result

    def _start(
        self, write: Callable[[_Conn], Awaitable[T]], game_id: int | None, *, transaction: bool = True
    ) -> Awaitable[T]:
        """Start ``write`` as a task now (after the earlier writes of the same game) and return a
        future of its outcome that the caller's cancellation does not stop: once started, a write
        ends with a COMMIT or a ROLLBACK, never half-way."""
        self._live_pool()
        previous: asyncio.Future[Any] | None = None
        if game_id is not None:
            chain = self._chains.get(game_id)
            previous = chain[0] if chain else None

        async def run() -> T:
            if previous is not None:
                await asyncio.wait([previous])
            return await self._transaction(write, transaction)

        task = asyncio.ensure_future(run())
        self._pending.add(task)
        if game_id is not None:
            self._chains[game_id] = [task]

        def done(finished: asyncio.Future[Any]) -> None:
            self._pending.discard(finished)
            if game_id is not None and self._chains.get(game_id, [None])[0] is finished:
                del self._chains[game_id]
            if not finished.cancelled():
                finished.exception()  # retrieved: the caller gets it through the shield

        task.add_done_callback(done)
        return asyncio.shield(task)

    async def _write(self, write: Callable[[_Conn], Awaitable[T]], *, transaction: bool = True) -> T:
        """Run ``write`` on a connection of the pool: in a transaction block, or (``transaction``
        false, for ``write`` of one statement) without one, saving the BEGIN and COMMIT round trips."""
        return await self._start(write, None, transaction=transaction)


_GAME = (
    "SELECT games.*, (SELECT json_agg(json_build_object("
    "'seq', seq, 'seat', seat, 'user_id', user_id, 'move', move, 'state', state, "
    "'created_at', created_at) ORDER BY seq) FROM moves "
    "WHERE moves.game_id = games.id AND moves.seq > games.snapshot_seq) AS tail FROM games"
)
"""A game read back: its row and the moves logged after its snapshot, in one statement (one
committed state)."""


_RENEW = (
    "UPDATE shard_leases SET heartbeat_at = now(), expires_at = now() + make_interval(secs => $3) "
    "WHERE shard_id = ANY($1::integer[]) AND owner = $2 AND ($4::bigint IS NULL OR epoch = $4) "
    "RETURNING shard_id"
)
"""The heartbeat (an UPDATE of no key column: the saves' ``FOR KEY SHARE`` does not hold it up)."""

_CREATE = (
    "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot) "
    "SELECT $1, $2, $3, $4, $5::json "
    "WHERE $6::bigint IS NULL OR EXISTS (SELECT 1 FROM shard_leases l "
    "WHERE l.shard_id = ($1::bigint >> 22) % l.shard_count AND l.epoch = $6 FOR KEY SHARE) "
    "RETURNING id"
)
"""A new game, fenced like a save (no row back: the lease of the server's shard is another's)."""

_SAVE = (
    "SELECT outcome, version, seq, guild_id "
    "FROM romme_save($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
)
"""A save: one statement, one round trip (``pg_migrations/0003_one_round_trip_saves.sql``)."""


class LeaseKeeper:
    """The heartbeat of a process's shard leases: every third of the lease, on a thread of its own
    with its own connection, the leases are renewed. Apart from the bot's event loop on purpose: a
    busy loop (or a test's simulated clock) never lets a live process's leases lapse, and a process
    that dies takes the thread with it, so its leases expire. A lease found held by another owner
    (this process was cut off from the server longer than the lease, and another took over) is
    reported to ``lost`` on the loop that started the keeper, and the heartbeat ends."""

    def __init__(
        self,
        url: str,
        shard_ids: Sequence[int],
        *,
        owner: str,
        ttl: float,
        lost: Callable[[list[int]], None],
        epoch: int | None = None,
    ) -> None:
        self.url = url
        self.shard_ids = sorted(shard_ids)
        self.owner = owner
        self.epoch = epoch
        """The epoch of the take (a lease taken again since, even by this owner, is lost)."""
        self.ttl = ttl
        self._lost = lost
        self._loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="romme-shard-heartbeat", daemon=True)
        self.beats = 0
        """How many heartbeats renewed every lease."""

    def start(self) -> None:
        """Start the heartbeat thread."""
        self._thread.start()

    def stop(self) -> None:
        """End the heartbeat (waits for the thread; the leases stay until released or expired)."""
        self._stop.set()
        self._thread.join(timeout=CONNECT_TIMEOUT + 5)

    def _run(self) -> None:
        asyncio.run(self._beat())

    async def _beat(self) -> None:
        connection: asyncpg.Connection | None = None
        try:
            while not self._stop.wait(self.ttl / 3):
                try:
                    if connection is None or connection.is_closed():
                        connection = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
                    rows = await connection.fetch(
                        _RENEW, self.shard_ids, self.owner, float(self.ttl), self.epoch
                    )
                except Exception as exc:  # the server is away for a moment: try at the next beat
                    log.warning(
                        "the shard leases could not be renewed (%s: %s)", type(exc).__name__, _line(exc)
                    )
                    connection = None
                    continue
                missing = sorted(set(self.shard_ids) - {int(row["shard_id"]) for row in rows})
                if missing:
                    self._loop.call_soon_threadsafe(self._lost, missing)
                    return
                self.beats += 1
        finally:
            if connection is not None and not connection.is_closed():
                await connection.close()


async def migrate(db: _Conn, shown: str) -> int:
    """Apply every PostgreSQL migration the database lacks, each in its own transaction with the
    version bump, under an advisory lock; return the version now. Raises :class:`StorageError`
    (one line) for a newer or foreign database."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS romme_schema (version integer NOT NULL)")
        current = await db.fetchval("SELECT max(version) FROM romme_schema")
        if current is None:
            others = await db.fetchval(
                "SELECT count(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_name <> 'romme_schema'"
            )
            if others:
                raise StorageError(
                    f"{shown} holds another program's tables (and no Rommé schema version): "
                    "point DATABASE_URL at a new database"
                )
            current = 0
        if current > PG_SCHEMA_VERSION:
            raise StorageError(
                f"{shown} has schema version {current}, newer than this bot understands "
                f"({PG_SCHEMA_VERSION}): run a newer version of the bot, or point DATABASE_URL at "
                "another database"
            )
        for migration in pg_migrations()[current:]:
            async with db.transaction():
                await db.execute(migration.sql)
                await db.execute("DELETE FROM romme_schema")
                await db.execute("INSERT INTO romme_schema (version) VALUES ($1)", migration.version)
        return int(await db.fetchval("SELECT max(version) FROM romme_schema"))


async def _version(db: _Conn, game_id: int, *, lock: bool) -> int:
    sql = "SELECT version FROM games WHERE id = $1" + (" FOR UPDATE" if lock else "")
    version = await db.fetchval(sql, game_id)
    if version is None:
        raise GameNotFound(game_id)
    return int(version)


async def _insert_round_scores(db: _Conn, game_id: int, scores: Sequence[RoundScore]) -> None:
    if scores:
        await db.executemany(
            "INSERT INTO round_scores (game_id, round_no, seat, user_id, melded, in_hand, score) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(game_id, s.round_no, s.seat, s.user_id, s.melded, s.in_hand, s.score) for s in scores],
        )


def _lease(row: asyncpg.Record) -> Lease:
    return Lease(row["shard_id"], row["shard_count"], row["owner"], row["expires_at"], row["epoch"])


def _result(result: MatchResult) -> dict[str, Any]:
    return {
        "user_id": result.user_id,
        "points": result.points,
        "won": int(result.won),
        "best_round": result.best_round,
    }


def _rows(rows: list[dict[str, Any]]) -> str:
    return json.dumps(rows, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _object(value: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), not {type(value).__name__}")
    return value


def _line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _status(status: str) -> GameStatus:
    try:
        return GameStatus(status)
    except ValueError:
        raise ValueError(f"status must be one of {', '.join(GAME_STATUSES)}, not {status!r}") from None


def _dumps(value: dict[str, Any]) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _stamp(value: datetime) -> datetime:
    # asyncpg hands back timestamps as datetimes already.
    return value
