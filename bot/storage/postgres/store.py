"""The bot's database on a PostgreSQL server (``DATABASE_URL=postgresql://…``), through asyncpg.

The interface :class:`~bot.storage.interface.Database` and its guarantees, kept here this way:

- every write is one transaction, committed (``synchronous_commit`` as the server has it; on by
  default: flushed to disk) before the call returns; the game's row and the move-log row of a move
  are one transaction, so a move the bot has answered for is stored with its game;
- a save is ONE round trip: one statement, ``romme_save`` (a function of the schema,
  ``migrations/0003``), sent outside a transaction block, so that it is its own transaction and
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
- the schema comes from numbered migrations (``bot/storage/postgres/migrations``, applied by
  :mod:`bot.storage.postgres.schema`); a server that cannot be reached and a login the server
  refuses are refused in one line, like a database newer than this code or another program's.

A URL may carry server settings as query parameters (asyncpg passes unknown ones to the server):
``…/romme?search_path=shard_tests`` keeps the bot's tables in that schema (the tests do this).

Each process also holds one connection apart from the pool that listens (``LISTEN``) for the settings'
notices (:mod:`bot.storage.postgres.notices`): a save of a server's settings or a member's
preferences sends a ``NOTIFY`` in its own transaction, so every process hears of it as it commits
(:meth:`~bot.storage.interface.Database.on_settings_changed`).

Besides the games, the server keeps the shard leases (:meth:`PostgresStorage.take_shards`,
:mod:`bot.storage.postgres.leases`): the database is shared by every bot process, and a lease per
shard says which one plays its games.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import urllib.parse
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import asyncpg

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

from bot.storage.errors import ChannelBusy, GameNotFound, StorageError, VersionConflict
from bot.storage.interface import Clock, SettingsListener
from bot.storage.postgres.leases import (
    CONNECT_TIMEOUT,
    Lease,
    LeaseHolder,
    ShardLost,
    lease_of,
    one_line,
)
from bot.storage.postgres.notices import SettingsNotices, notice_sql
from bot.storage.postgres.schema import migrate
from bot.storage.records import (
    GameStatus,
    MatchResult,
    RatedMatch,
    Rating,
    RatingChange,
    Replay,
    Save,
    SaveResult,
    Season,
)
from bot.storage.sql import OPEN, SqlStorage

log = logging.getLogger(__name__)

T = TypeVar("T")
_Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

POOL_SIZE = 10
"""Connections one process keeps to the server at most, unless its URL says ``?pool_size=N``: the
saves of different games run side by side on them. A save is one round trip of about a millisecond
of the server's time, so ten carry several thousand saves a second; more only help a server far away
(a save holds its connection for the whole round trip). Every process holds its own, and one more
connection that listens for the settings' notices: keep processes × (pool size + 2, with the leases'
heartbeat) under the server's ``max_connections`` (100 by default)."""


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


def not_connected(shown: str, exc: TimeoutError | OSError | asyncpg.PostgresError) -> StorageError:
    """The one line for a connection to ``shown`` that failed with ``exc``: the server out of
    reach, the login refused, no such database, or another refusal of the server.

    >>> str(not_connected("postgresql://bot@db/romme", ConnectionRefusedError("Connect call failed")))
    'postgresql://bot@db/romme: cannot reach the PostgreSQL server (Connect call failed)'
    """
    if isinstance(exc, (TimeoutError, OSError)):
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return StorageError(f"{shown}: cannot reach the PostgreSQL server ({reason})")
    if isinstance(exc, (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError)):
        return StorageError(f"{shown}: the PostgreSQL server refused the login ({one_line(exc)})")
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return StorageError(f"{shown}: {one_line(exc)} (create it first: createdb)")
    return StorageError(f"{shown}: cannot open the database ({one_line(exc)})")


async def _keep_session(connection: asyncpg.Connection) -> None:
    """The pool's reset: nothing to undo (see :meth:`PostgresStorage.open`)."""


class PostgresStorage(SqlStorage, LeaseHolder):
    """The database of the bot on a PostgreSQL server: open it with :meth:`PostgresStorage.open`,
    close it with :meth:`close`."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        notices: SettingsNotices,
        *,
        replay: Replay | None = None,
        clock: Clock | None = None,
    ) -> None:
        """Wrap an open pool on a migrated database and the connection listening for the settings'
        notices; use :meth:`PostgresStorage.open`."""
        super().__init__(replay, clock)
        self._pool: asyncpg.Pool | None = pool
        self.notices = notices
        """The connection that hears the settings' notices (:meth:`on_settings_changed`)."""
        self.url = url
        self.path = shown_url(url)
        """How the bot names this database (the URL without its password)."""
        self._chains: dict[int, list[Any]] = {}
        self._transactions = 0
        self._pending: set[asyncio.Future[Any]] = set()

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int | None = None,
        replay: Replay | None = None,
        clock: Clock | None = None,
    ) -> PostgresStorage:
        """Connect to the server, bring the schema up to date and return the storage; ``replay``:
        see :attr:`~bot.storage.interface.Database.replay`; ``clock``: the time its writes are
        stamped with (see :class:`~bot.storage.interface.Database`, "Time").

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
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            raise not_connected(shown, exc) from None
        try:
            async with pool.acquire() as conn:
                await migrate(conn, shown)
            # Listening from the start: whatever is read from now on hears of its later changes.
            notices = await SettingsNotices.open(server_url, shown)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError):
                raise StorageError(f"{shown}: cannot migrate the database ({one_line(exc)})") from None
            raise
        return cls(pool, url, notices, replay=replay, clock=clock)

    async def close(self) -> None:
        """Close the pool once the saves started are committed; closing twice is harmless."""
        if self._pool is not None:
            pool = self._pool
            if self._pending:
                await asyncio.gather(*self._pending, return_exceptions=True)
            self._pool = None
            await self.notices.close()
            await pool.close()

    def terminate(self) -> None:
        """Drop the connections at once, as a killed process would (tests); nothing is committed."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            self.notices.terminate()
            pool.terminate()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._pool is None

    @property
    def writer_alive(self) -> bool:
        """See :attr:`Database.writer_alive`: the pool is open."""
        return self._pool is not None and not self._pool.is_closing()

    @property
    def transactions(self) -> int:
        """See :attr:`Database.transactions`: write transactions committed (or tried) on the pool."""
        return self._transactions

    # ------------------------------------------------------------------ games

    async def _insert_game(
        self, guild_id: int, channel_id: int, host_id: int, status: GameStatus, snapshot: str
    ) -> int:
        fence, at = self.fence, self.now()

        async def write(db: _Conn) -> int:
            # One statement (its own transaction): the unique index of open games in a channel
            # refuses a second one, which another process may have opened a moment ago.
            try:
                game_id = await db.fetchval(
                    _CREATE, guild_id, channel_id, host_id, status.value, snapshot, fence, at
                )
            except asyncpg.UniqueViolationError:
                row = await db.fetchrow(
                    f"SELECT id FROM games WHERE channel_id = $1 AND status IN {OPEN}", channel_id
                )
                raise ChannelBusy(channel_id, game_id=row["id"] if row else 0) from None
            if game_id is None:
                self._fenced(guild_id)
                raise ShardLost(f"a new game in channel {channel_id}")
            return int(game_id)

        return await self._write(write, transaction=False)

    def start_save(
        self, save: Save, *, now: bool = False, ready: asyncio.Future[None] | None = None
    ) -> Awaitable[SaveResult]:
        """See :meth:`Database.start_save`.

        The save starts when this is called (the caller may work on the loop while it commits, as
        the service draws a panel); the saves of one game commit in the order they were started.
        ``now`` is accepted for the interface's sake: a save here always starts at once. ``ready``
        is set as the save's one statement goes to the server (or else with its outcome): work on
        the loop from then on overlaps its round trip, its commit and the fsync.

        The save is one statement, ``romme_save`` (one round trip, committed as it returns: see
        ``migrations/0003``). Once this process has taken shard leases (:meth:`take_shards`),
        the save is fenced by them: it raises :class:`ShardLost` (nothing written) when the lease of
        the game's shard was taken over by another process since.
        """
        game_id, expected_version, move = save.game_id, save.expected_version, save.move
        snapshot_json, move_json, state_json = save.encoded()
        scores_json = (
            _rows([dataclasses.asdict(score) for score in save.round_scores]) if save.round_scores else None
        )
        results_json = (
            _rows([_result(result) for result in save.match_results]) if save.match_results else None
        )
        owed_json = (
            _rows(
                [
                    {"round_no": a.round_no, "kind": a.kind, "payload": _object(a.payload)}
                    for a in save.announcements
                ]
            )
            if save.announcements
            else None
        )
        # When the change was made, by the storage's clock (read here, not by the server).
        fence, at = self.fence, self.now()

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
                str(save.status),
                move.seat if move is not None else None,
                move.user_id if move is not None else None,
                move_json,
                state_json,
                scores_json,
                results_json,
                owed_json,
                fence,
                at,
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
        """See :meth:`Database.set_table_message`."""
        at = self.now()

        async def write(db: _Conn) -> None:
            status = await db.execute(
                "UPDATE games SET table_message_id = $1, updated_at = $3 WHERE id = $2",
                message_id,
                game_id,
                at,
            )
            if status.endswith(" 0"):
                raise GameNotFound(game_id)

        await self._write(write, transaction=False)

    async def set_aside(self, game_id: int, problem: str) -> bool:
        """See :meth:`Database.set_aside`."""
        problem = " ".join(problem.split())[:500] or "unreadable"
        at = self.now()

        async def write(db: _Conn) -> bool:
            status = await db.execute(
                f"UPDATE games SET status = $1, damaged = $2, updated_at = $4 "
                f"WHERE id = $3 AND status IN {OPEN}",
                GameStatus.CANCELLED.value,
                problem,
                game_id,
                at,
            )
            return not status.endswith(" 0")

        return await self._write(write, transaction=False)

    # ------------------------------------------------------------------ history (replays)

    async def compact_moves(self, before: datetime) -> int:
        """See :meth:`Database.compact_moves`: one statement."""
        if before.tzinfo is None:
            raise ValueError("a time with its zone, please")

        async def write(db: _Conn) -> int:
            status = await db.execute(
                f"DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE status NOT IN {OPEN} "
                "AND updated_at < $1)",
                before,
            )
            return int(status.rsplit(" ", 1)[-1])

        return await self._write(write, transaction=False)

    # ------------------------------------------------------------------ announcements (the outbox)

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool:
        """See :meth:`Database.announcement_delivered`."""
        at = self.now()

        async def write(db: _Conn) -> bool:
            status = await db.execute(
                "UPDATE announcements SET delivered_at = $4, message_id = $1 "
                "WHERE game_id = $2 AND round_no = $3 AND delivered_at IS NULL",
                message_id,
                game_id,
                round_no,
                at,
            )
            return not status.endswith(" 0")

        return await self._write(write, transaction=False)

    # ------------------------------------------------------------------ server settings, member preferences

    async def _put_settings(self, table: str, key: str, column: str, owner: int, value: str) -> None:
        """See :meth:`Database._put_settings`: one statement (one round trip), which writes the row
        and sends its notice (:func:`~bot.storage.postgres.notices.notice_sql`) in one transaction:
        the notice goes out as the row commits, never without it."""
        sql = (
            f"WITH saved AS (INSERT INTO {table} ({key}, {column}) VALUES ($1, $2) "
            f"ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}, updated_at = now() "
            f"RETURNING {key}) " + notice_sql(table, key)
        )

        async def write(db: _Conn) -> None:
            await db.execute(sql, owner, value)

        await self._write(write, transaction=False)

    def on_settings_changed(self, listener: SettingsListener) -> None:
        """See :meth:`Database.on_settings_changed`: heard on :attr:`notices`' connection."""
        self.notices.add(listener)

    # ------------------------------------------------------------------ ratings and seasons

    async def record_rating(
        self, match: RatedMatch, changes: Sequence[RatingChange], ratings: Sequence[Rating]
    ) -> bool:
        """See :meth:`Database.record_rating`: one statement, ``romme_rate`` (one round trip)."""
        seats = _rows([seat.to_dict() for seat in match.seats])
        history = _rows(
            [
                {
                    name: int(v) if isinstance(v, bool) else v
                    for name in _CHANGE_JSON
                    for v in (getattr(c, name),)
                }
                for c in changes
            ]
        )
        rows = _rows(
            [
                {"user_id": r.user_id, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
                | {"matches": r.matches, "wins": r.wins}
                for r in ratings
            ]
        )

        async def write(db: _Conn) -> bool:
            return bool(
                await db.fetchval(
                    "SELECT romme_rate($1, $2, $3, $4, $5::json, $6::json, $7::json)",
                    match.game_id,
                    match.guild_id,
                    match.season,
                    match.ended_at,
                    seats,
                    history,
                    rows,
                )
            )

        return await self._write(write, transaction=False)

    async def forget_ratings(self, guild_id: int) -> None:
        """See :meth:`Database.forget_ratings`."""

        async def write(db: _Conn) -> None:
            for table in ("rated_matches", "rating_history", "ratings"):
                await db.execute(f"DELETE FROM {table} WHERE guild_id = $1", guild_id)

        await self._write(write)

    async def start_season(self, season: Season) -> bool:
        """See :meth:`Database.start_season`."""

        async def write(db: _Conn) -> bool:
            status = await db.execute(
                "INSERT INTO seasons (guild_id, number, started_at, started_by) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (guild_id, number) DO NOTHING",
                season.guild_id,
                season.number,
                season.started_at,
                season.started_by,
            )
            return not status.endswith(" 0")

        return await self._write(write, transaction=False)

    # ------------------------------------------------------------------ shard leases (and LeaseHolder)

    async def leases(self) -> list[Lease]:
        """Every shard lease, by shard."""
        rows = await self._fetch("SELECT * FROM shard_leases ORDER BY shard_id")
        return [lease_of(row) for row in rows]

    # ------------------------------------------------------------------ plumbing

    @staticmethod
    def _stamp(value: Any) -> datetime:
        # asyncpg hands back timestamps as datetimes already.
        assert isinstance(value, datetime)
        return value

    def _live_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError(f"{self.path}: the database is closed")
        return self._pool

    async def _fetch(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        return list(await self._live_pool().fetch(numbered(sql), *params))

    async def _transaction(self, write: Callable[[_Conn], Awaitable[T]], transaction: bool) -> T:
        async with self._live_pool().acquire() as db:
            if transaction:
                async with db.transaction():
                    result = await write(db)
            else:  # one statement: its own transaction, committed as it returns (one round trip)
                result = await write(db)
        self._transactions += 1
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


_CREATE = (
    "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot, created_at, updated_at) "
    "SELECT $1, $2, $3, $4, $5::json, $7, $7 "
    "WHERE $6::bigint IS NULL OR EXISTS (SELECT 1 FROM shard_leases l "
    "WHERE l.shard_id = ($1::bigint >> 22) % l.shard_count AND l.epoch = $6 FOR KEY SHARE) "
    "RETURNING id"
)
"""A new game, fenced like a save (no row back: the lease of the server's shard is another's)."""

_SAVE = (
    "SELECT outcome, version, seq, guild_id "
    "FROM romme_save($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
)
"""A save: one statement, one round trip (``migrations/0003_one_round_trip_saves.sql``), its times
the storage's clock's (``migrations/0007_times_from_the_bot.sql``)."""


_CHANGE_JSON = tuple(
    field.name
    for field in dataclasses.fields(RatingChange)
    if field.name not in ("game_id", "guild_id", "season", "ended_at")
)
"""The columns of a history row ``romme_rate`` reads from its JSON (the rest are the match's)."""


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


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL wants them (the shared reads of
    :mod:`bot.storage.sql` are written with ``?``); remembered, as the reads are a few fixed texts.

    >>> numbered("SELECT * FROM moves WHERE game_id = ? AND seq > ?")
    'SELECT * FROM moves WHERE game_id = $1 AND seq > $2'
    """
    if "?" not in sql:
        return sql
    parts = sql.split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))
