"""Bring a PostgreSQL database to the schema this code expects, one numbered migration at a time.

``romme_schema`` holds the number of the last migration applied; each migration runs in its own
transaction with the bump of that number, under an advisory lock (two processes starting together
migrate once). A database newer than the code, or another program's, is refused in one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import asyncpg

from bot.storage.errors import StorageError
from bot.storage.schema import Migration
from bot.storage.schema import migrations as shipped

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

_Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

_MIGRATION_LOCK = 0x526F6D6D65  # "Romme": the advisory lock every migrating process takes


def pg_migrations() -> tuple[Migration, ...]:
    """The PostgreSQL migrations shipped with the code (``bot/storage/postgres/migrations``), in order.

    >>> [m.version for m in pg_migrations()][:2]
    [1, 2]
    """
    return shipped("bot.storage.postgres.migrations")


PG_SCHEMA_VERSION = len(pg_migrations())
"""The PostgreSQL schema version this code writes and reads (numbered apart from SQLite's)."""


def schema_problem(shown: str, current: int, *, has_tables: bool) -> StorageError | None:
    """Why a database at schema ``current`` (0: none; ``has_tables``: it holds tables all the same)
    cannot be used, or ``None``: newer than this code, or another program's. An older one is migrated.

    >>> print(schema_problem("postgresql://bot@db/romme", 99, has_tables=True))
    postgresql://bot@db/romme has schema version 99, newer than this bot understands (...): ...
    """
    if current == 0 and has_tables:
        return StorageError(
            f"{shown} holds another program's tables (and no Rommé schema version): "
            "point DATABASE_URL at a new database"
        )
    if current > PG_SCHEMA_VERSION:
        return StorageError(
            f"{shown} has schema version {current}, newer than this bot understands "
            f"({PG_SCHEMA_VERSION}): run a newer version of the bot, or point DATABASE_URL at "
            "another database"
        )
    return None


async def migrate(db: _Conn, shown: str) -> int:
    """Apply every PostgreSQL migration the database lacks, each in its own transaction with the
    version bump, under an advisory lock; return the version now. Raises :class:`StorageError`
    (one line) for a newer or foreign database."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
        await db.execute("CREATE TABLE IF NOT EXISTS romme_schema (version integer NOT NULL)")
        current = await db.fetchval("SELECT max(version) FROM romme_schema")
        others = 0
        if current is None:
            others = await db.fetchval(
                "SELECT count(*) FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_name <> 'romme_schema'"
            )
            current = 0
        problem = schema_problem(shown, current, has_tables=bool(others))
        if problem is not None:
            raise problem
        for migration in pg_migrations()[current:]:
            async with db.transaction():
                await db.execute(migration.sql)
                await db.execute("DELETE FROM romme_schema")
                await db.execute("INSERT INTO romme_schema (version) VALUES ($1)", migration.version)
        return int(await db.fetchval("SELECT max(version) FROM romme_schema"))
