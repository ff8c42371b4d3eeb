"""What ``romme-bot check`` asks of a PostgreSQL database, in one read-only transaction: the server
answers, the login works, the schema is this code's (or older: the bot migrates it at start), and
the shards this process would run are not leased by a live process. Nothing is created or written
(a backup of a PostgreSQL database is ``pg_dump``'s business, not the bot's)."""

from __future__ import annotations

from typing import NamedTuple

import asyncpg

from bot.storage.errors import StorageError
from bot.storage.postgres.leases import CONNECT_TIMEOUT, ShardCountMismatch, one_line
from bot.storage.postgres.schema import PG_SCHEMA_VERSION, schema_problem
from bot.storage.postgres.store import not_connected, pool_setting, shown_url


class _Found(NamedTuple):
    """What the read-only transaction found in a database with the bot's tables."""

    schema: int
    games: int
    unfinished: int
    leases: list[asyncpg.Record]
    """The live shard leases (``shard_id``, ``shard_count``, ``owner``, ``left_s``), by shard."""


async def check_server(
    url: str, shards: tuple[int, ...] | None = None, shard_count: int | None = None
) -> str:
    """One line saying what is fine with the database at ``url``; raises :class:`StorageError`
    (one line) naming what is not. ``shards``: the ones this process would run (``SHARD_IDS``):
    a live lease on one of them is a problem (the bot would be refused at start), and so is a live
    lease of another count than ``shard_count`` (:class:`~bot.storage.postgres.ShardCountMismatch`)."""
    shown = shown_url(url)
    found = await _read(url, shown)
    if found is None:
        return f"{shown} answers and is empty: the bot makes its tables when it starts"
    _refuse_leases(shown, found.leases, shards, shard_count)
    return _summary(shown, found)


async def _read(url: str, shown: str) -> _Found | None:
    """Connect, and read what :func:`check_server` reports in one read-only transaction (``None``:
    an empty database); a schema the bot cannot use raises, as does a server that does not answer."""
    server_url, _ = pool_setting(url)
    try:
        db = await asyncpg.connect(server_url, timeout=CONNECT_TIMEOUT)
    except (OSError, asyncpg.PostgresError) as exc:
        raise not_connected(shown, exc) from None
    try:
        async with db.transaction(readonly=True):
            schema = await _schema(db, shown)
            if schema == 0:
                return None
            games = await db.fetchrow(
                "SELECT count(*) AS total, count(*) FILTER (WHERE status IN ('lobby', 'playing')) AS open "
                "FROM games"
            )
            assert games is not None  # an aggregate has one row
            return _Found(schema, games["total"], games["open"], await _live_leases(db))
    except asyncpg.PostgresError as exc:
        raise StorageError(f"{shown}: cannot read the database ({one_line(exc)})") from None
    finally:
        await db.close()


async def _schema(db: asyncpg.Connection, shown: str) -> int:
    """The database's schema version (0: none), raising the problem if this code cannot use it."""
    exists = await db.fetchval("SELECT to_regclass('romme_schema') IS NOT NULL")
    current = int(await db.fetchval("SELECT max(version) FROM romme_schema") or 0) if exists else 0
    others = await db.fetchval(
        "SELECT count(*) FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_name <> 'romme_schema'"
    )
    problem = schema_problem(shown, current, has_tables=bool(others))
    if problem is not None:
        raise problem
    return current


async def _live_leases(db: asyncpg.Connection) -> list[asyncpg.Record]:
    """The shard leases not yet expired, by shard (none before the table exists)."""
    if not await db.fetchval("SELECT to_regclass('shard_leases') IS NOT NULL"):
        return []
    return list(
        await db.fetch(
            "SELECT shard_id, shard_count, owner, EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
            "FROM shard_leases WHERE expires_at > now() ORDER BY shard_id"
        )
    )


def _refuse_leases(
    shown: str, leases: list[asyncpg.Record], shards: tuple[int, ...] | None, shard_count: int | None
) -> None:
    """Raise if a live lease is of another shard count, or on one of this process's ``shards``."""
    if shard_count is not None:
        other = [lease for lease in leases if lease["shard_count"] != shard_count]
        if other:
            first = other[0]
            mismatch = ShardCountMismatch(
                shard_count,
                other_count=first["shard_count"],
                owner=first["owner"],
                seconds_left=float(first["left_s"]),
            )
            raise StorageError(f"{shown}: {mismatch}")
    held = [lease for lease in leases if shards is not None and lease["shard_id"] in shards]
    if held:
        first = held[0]
        raise StorageError(
            f"{shown}: shard {first['shard_id']} is held by another romme-bot process ({first['owner']})"
        )


def _summary(shown: str, found: _Found) -> str:
    """The one line of a database that passed: its schema, games and leases."""
    leased = len(found.leases)
    line = (
        f"{shown}: schema version {found.schema}, {found.games} game{'' if found.games == 1 else 's'} "
        f"({found.unfinished} unfinished), {leased} shard{'' if leased == 1 else 's'} leased"
    )
    if found.schema < PG_SCHEMA_VERSION:
        return f"{line}; {found.schema} of {PG_SCHEMA_VERSION}: the bot brings it up to date when it starts"
    return line
