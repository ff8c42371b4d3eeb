"""The bot's database on a PostgreSQL server (``DATABASE_URL=postgresql://…``), through asyncpg.

The same interface and the same guarantees as the SQLite :class:`~bot.storage.Storage`:

- every write is one transaction, committed (``synchronous_commit`` as the server has it; on by
  default: flushed to disk) before the call returns; the game's row and the move-log row of a move
  are one transaction, so a move the bot has answered for is stored with its game;
- optimistic versions: a save with ``expected_version`` is refused (:class:`VersionConflict`,
  nothing written) unless the game's row is still at that version; the row is locked
  (``SELECT … FOR UPDATE``) for the check, so two processes cannot both pass it;
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
"""Connections one process keeps to the server at most (saves of different games run side by side)."""

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


@dataclass(frozen=True, slots=True)
class Lease:
    """A shard's lease as stored: who holds it and until when (see :meth:`PostgresStorage.take_shards`)."""

    shard_id: int
    shard_count: int
    owner: str
    expires_at: datetime


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

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, url: str, *, pool_size: int | None = None) -> PostgresStorage:
        """Connect to the server, bring the schema up to date and return the storage.

        ``pool_size``: connections kept at most (default :data:`POOL_SIZE`).
        Raises :class:`StorageError` with one line naming the database when the server cannot be
        reached, refuses the login, has no such database, or holds a newer or foreign schema.
        """
        shown = shown_url(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size or POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=60,
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

        async def write(db: _Conn) -> int:
            if status in OPEN_STATUSES:
                row = await db.fetchrow(
                    f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN}", channel_id
                )
                if row is not None:
                    raise ChannelBusy(channel_id, game_id=row["id"])
            try:
                async with db.transaction():
                    game_id = await db.fetchval(
                        "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot) "
                        "VALUES ($1, $2, $3, $4, $5::json) RETURNING id",
                        guild_id,
                        channel_id,
                        host_id,
                        status.value,
                        snapshot_json,
                    )
            except asyncpg.UniqueViolationError:
                # Another process opened a game in the channel between the check and the insert.
                row = await db.fetchrow(
                    f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN}", channel_id
                )
                raise ChannelBusy(channel_id, game_id=row["id"] if row else 0) from None
            return int(game_id)

        return await self._write(write)

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
        is set once the save's statements have run, as its COMMIT goes to the server (or else with
        its outcome): work on the loop from then on overlaps the commit's round trip and fsync.
        """
        status = _status(status)
        if snapshot is None and move is None:
            raise ValueError("a save without a snapshot needs its move")
        snapshot_json = _dumps(snapshot) if snapshot is not None else None
        move_json = _dumps(move.move) if move is not None else None
        state_json = _dumps(move.state) if move is not None and move.state is not None else None
        owed = [(a.round_no, a.kind, _dumps(a.payload)) for a in announcements]
        scores = list(round_scores)
        results = list(match_results)

        async def write(db: _Conn) -> SaveResult:
            version = await _version(db, game_id, lock=True)
            if expected_version is not None and expected_version != version:
                raise VersionConflict(game_id, expected=expected_version, actual=version)
            seq = None
            if move is not None and move_json is not None:
                seq = await db.fetchval(
                    "INSERT INTO moves (game_id, seq, seat, user_id, move, state) "
                    "SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4::json, $5::json "
                    "FROM moves WHERE game_id = $1 RETURNING seq",
                    game_id,
                    move.seat,
                    move.user_id,
                    move_json,
                    None if snapshot_json else state_json,
                )
            if snapshot_json is not None:
                await db.execute(
                    "UPDATE games SET snapshot = $1::json, status = $2, version = version + 1, "
                    "updated_at = now(), "
                    "snapshot_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = $3) "
                    "WHERE id = $3",
                    snapshot_json,
                    status.value,
                    game_id,
                )
            else:
                await db.execute(
                    "UPDATE games SET status = $1, version = version + 1, updated_at = now() WHERE id = $2",
                    status.value,
                    game_id,
                )
            await _insert_round_scores(db, game_id, scores)
            await _record_match(db, game_id, results)
            if owed:
                await db.executemany(
                    "INSERT INTO announcements (game_id, round_no, kind, payload) "
                    "VALUES ($1, $2, $3, $4::json) ON CONFLICT (game_id, round_no) DO NOTHING",
                    [(game_id, *row) for row in owed],
                )
            if ready is not None and not ready.done():
                ready.set_result(None)  # the COMMIT follows as this returns
            return SaveResult(version=version + 1, seq=None if seq is None else int(seq))

        result = self._start(write, game_id)
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

        await self._write(write)

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

        return await self._write(write)

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
        return [_announcement(row) for row in rows]

    async def announcement(self, game_id: int, round_no: int) -> AnnouncementRecord | None:
        """The announcement of this game's round, delivered or not, or ``None``."""
        rows = await self._fetch(
            "SELECT * FROM announcements WHERE game_id = $1 AND round_no = $2", game_id, round_no
        )
        return _announcement(rows[0]) if rows else None

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

        return await self._write(write)

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
        return [
            RoundScore(
                round_no=row["round_no"],
                seat=row["seat"],
                user_id=row["user_id"],
                melded=row["melded"],
                in_hand=row["in_hand"],
                score=row["score"],
            )
            for row in rows
        ]

    async def record_match(self, game_id: int, results: Iterable[MatchResult]) -> int:
        """Add a finished match's results to the statistics; a person recorded already for this
        game is skipped. Returns how many were new. Raises :class:`GameNotFound`."""
        rows = list(results)

        async def write(db: _Conn) -> int:
            return await _record_match(db, game_id, rows)

        return await self._write(write)

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's statistics on one server, or ``None``."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
        )
        return _stats(rows[0]) if rows else None

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's best players: most matches won, then most points, then fewest matches."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = $1 "
            "ORDER BY matches_won DESC, points DESC, matches_played ASC, user_id ASC LIMIT $2",
            guild_id,
            limit,
        )
        return [_stats(row) for row in rows]

    # ------------------------------------------------------------------ shard leases

    async def take_shards(
        self, shard_ids: Sequence[int], shard_count: int, *, owner: str, ttl: float
    ) -> list[Lease]:
        """Take the lease of every shard in ``shard_ids`` for ``ttl`` seconds, all or none.

        A shard whose lease is held by another owner and has not expired refuses the whole call
        with :class:`ShardTaken` (one line naming the shard and its holder); an expired lease (its
        process died, or stopped renewing) is taken over. Taking a lease this owner holds renews it.
        """

        async def write(db: _Conn) -> list[Lease]:
            taken = []
            for shard in sorted(shard_ids):
                row = await db.fetchrow(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, expires_at) "
                    "VALUES ($1, $2, $3, now() + make_interval(secs => $4)) "
                    "ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, "
                    "owner = excluded.owner, heartbeat_at = now(), expires_at = excluded.expires_at, "
                    "taken_at = CASE WHEN shard_leases.owner = excluded.owner THEN shard_leases.taken_at "
                    "ELSE now() END "
                    "WHERE shard_leases.owner = excluded.owner OR shard_leases.expires_at < now() "
                    "RETURNING shard_id, shard_count, owner, expires_at",
                    shard,
                    shard_count,
                    owner,
                    float(ttl),
                )
                if row is None:
                    held = await db.fetchrow(
                        "SELECT owner, EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                        "FROM shard_leases WHERE shard_id = $1",
                        shard,
                    )
                    assert held is not None
                    raise ShardTaken(shard, owner=held["owner"], seconds_left=float(held["left_s"]))
                taken.append(Lease(row["shard_id"], row["shard_count"], row["owner"], row["expires_at"]))
            return taken

        return await self._write(write)

    async def renew_shards(self, shard_ids: Sequence[int], *, owner: str, ttl: float) -> list[int]:
        """The heartbeat: push the leases this owner still holds ``ttl`` seconds on; returns the
        shards renewed (a shard missing from it was lost: its lease expired and another took it)."""

        async def write(db: _Conn) -> list[int]:
            rows = await db.fetch(_RENEW, list(shard_ids), owner, float(ttl))
            return sorted(int(row["shard_id"]) for row in rows)

        return await self._write(write)

    def keep_shards(
        self, shard_ids: Sequence[int], *, owner: str, ttl: float, lost: Callable[[list[int]], None]
    ) -> LeaseKeeper:
        """Start the heartbeat of this owner's leases (see :class:`LeaseKeeper`); ``lost`` is called on
        the calling loop with the shards found taken over by another process."""
        keeper = LeaseKeeper(self.url, shard_ids, owner=owner, ttl=ttl, lost=lost)
        keeper.start()
        return keeper

    async def release_shards(self, shard_ids: Sequence[int], *, owner: str) -> None:
        """Give the leases up (a clean stop): another process may take the shards at once."""

        async def write(db: _Conn) -> None:
            await db.execute(
                "DELETE FROM shard_leases WHERE shard_id = ANY($1::integer[]) AND owner = $2",
                list(shard_ids),
                owner,
            )

        await self._write(write)

    async def leases(self) -> list[Lease]:
        """Every shard lease, by shard."""
        rows = await self._fetch("SELECT * FROM shard_leases ORDER BY shard_id")
        return [Lease(r["shard_id"], r["shard_count"], r["owner"], r["expires_at"]) for r in rows]

    # ------------------------------------------------------------------ plumbing

    def _game(self, row: asyncpg.Record) -> GameRecord:
        record = _game(row)
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

    async def _transaction(self, write: Callable[[_Conn], Awaitable[T]]) -> T:
        async with self._live_pool().acquire() as db, db.transaction():
            result = await write(db)
        self.transactions += 1
        return result

    def _start(self, write: Callable[[_Conn], Awaitable[T]], game_id: int | None) -> Awaitable[T]:
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
            return await self._transaction(write)

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

    async def _write(self, write: Callable[[_Conn], Awaitable[T]]) -> T:
        return await self._start(write, None)


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
    "WHERE shard_id = ANY($1::integer[]) AND owner = $2 RETURNING shard_id"
)


class LeaseKeeper:
    """The heartbeat of a process's shard leases: every third of the lease, on a thread of its own
    with its own connection, the leases are renewed. Apart from the bot's event loop on purpose: a
    busy loop (or a test's simulated clock) never lets a live process's leases lapse, and a process
    that dies takes the thread with it, so its leases expire. A lease found held by another owner
    (this process was cut off from the server longer than the lease, and another took over) is
    reported to ``lost`` on the loop that started the keeper, and the heartbeat ends."""

    def __init__(
        self, url: str, shard_ids: Sequence[int], *, owner: str, ttl: float, lost: Callable[[list[int]], None]
    ) -> None:
        self.url = url
        self.shard_ids = sorted(shard_ids)
        self.owner = owner
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
                    rows = await connection.fetch(_RENEW, self.shard_ids, self.owner, float(self.ttl))
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


async def _record_match(db: _Conn, game_id: int, results: Sequence[MatchResult]) -> int:
    if not results:
        return 0
    guild_id = await db.fetchval("SELECT guild_id FROM games WHERE id = $1", game_id)
    if guild_id is None:
        raise GameNotFound(game_id)
    new = 0
    for result in results:
        inserted = await db.fetchval(
            "INSERT INTO match_results (game_id, user_id, points, won, best_round) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, user_id) DO NOTHING RETURNING 1",
            game_id,
            result.user_id,
            result.points,
            int(result.won),
            result.best_round,
        )
        if inserted is None:
            continue
        new += 1
        await db.execute(
            "INSERT INTO player_stats (guild_id, user_id, matches_played, matches_won, points, best_round) "
            "VALUES ($1, $2, 1, $3, $4, $5) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "matches_played = player_stats.matches_played + 1, "
            "matches_won = player_stats.matches_won + excluded.matches_won, "
            "points = player_stats.points + excluded.points, "
            "best_round = GREATEST(player_stats.best_round, excluded.best_round)",
            guild_id,
            result.user_id,
            int(result.won),
            result.points,
            result.best_round,
        )
    return new


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


def _game(row: asyncpg.Record) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        table_message_id=row["table_message_id"],
        status=GameStatus(row["status"]),
        snapshot=json.loads(row["snapshot"]),
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        damaged=row["damaged"],
    )


def _announcement(row: asyncpg.Record) -> AnnouncementRecord:
    return AnnouncementRecord(
        game_id=row["game_id"],
        round_no=row["round_no"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        created_at=row["created_at"],
        delivered_at=row["delivered_at"],
        message_id=row["message_id"],
    )


def _stats(row: asyncpg.Record) -> PlayerStats:
    return PlayerStats(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        matches_played=row["matches_played"],
        matches_won=row["matches_won"],
        points=row["points"],
        best_round=row["best_round"],
    )
