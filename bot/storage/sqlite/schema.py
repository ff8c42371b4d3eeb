"""Bring an SQLite file to the schema this code expects, one numbered migration at a time.

``PRAGMA user_version`` holds the number of the last migration applied; each migration runs in its
own transaction together with the bump of that number, so a crash leaves the file at a whole
version. A file that is newer than the code, or is some other program's database, is refused.
"""

from __future__ import annotations

import aiosqlite

from bot.storage.errors import StorageError
from bot.storage.schema import Migration
from bot.storage.schema import migrations as shipped


def migrations() -> tuple[Migration, ...]:
    """The SQLite migrations shipped with the code (``bot/storage/sqlite/migrations``), in order.

    >>> [m.version for m in migrations()][:1]
    [1]
    """
    return shipped("bot.storage.sqlite.migrations")


SCHEMA_VERSION = len(migrations())
"""The schema version this code writes and reads."""


async def migrate(db: aiosqlite.Connection, path: str) -> int:
    """Apply every migration newer than the file's ``user_version``; return the version now.

    ``db`` must be in autocommit mode (``isolation_level=None``): each step opens its own
    transaction. Raises :class:`StorageError` for a newer or foreign database.
    """
    current = await user_version(db)
    problem = schema_problem(path, current, has_tables=current == 0 and await _has_tables(db))
    if problem is not None:
        raise problem
    for migration in migrations()[current:]:
        # executescript runs the statements one by one; BEGIN/COMMIT inside it make the step atomic.
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{migration.sql}\nPRAGMA user_version = {migration.version};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
    return await user_version(db)


def schema_problem(path: str, current: int, *, has_tables: bool) -> StorageError | None:
    """Why a file at schema ``current`` (``has_tables``: it holds tables) cannot be used, or
    ``None``: newer than this code, or another program's database. An older one is migrated.

    >>> print(schema_problem("romme.db", 0, has_tables=True))
    romme.db is an SQLite database of another program (it has tables but no Rommé schema version): ...
    >>> schema_problem("romme.db", 1, has_tables=True) is None
    True
    """
    if current > SCHEMA_VERSION:
        return StorageError(
            f"{path} has schema version {current}, newer than this bot understands ({SCHEMA_VERSION}): "
            "run a newer version of the bot, or point DATABASE_PATH at another file"
        )
    if current == 0 and has_tables:
        return StorageError(
            f"{path} is an SQLite database of another program (it has tables but no Rommé schema "
            "version): point DATABASE_PATH at a new file"
        )
    return None


async def user_version(db: aiosqlite.Connection) -> int:
    """The schema version recorded in the file (0 for a new, empty file)."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def _has_tables(db: aiosqlite.Connection) -> bool:
    async with db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1") as cursor:
        return await cursor.fetchone() is not None
