"""The PostgreSQL backend: the bot's database on a server, shared by several bot processes.

:mod:`~bot.storage.postgres.store` holds :class:`PostgresStorage`; :mod:`~bot.storage.postgres.leases`
the shard leases and their heartbeat (:class:`LeaseKeeper`); :mod:`~bot.storage.postgres.schema`
applies the numbered files of ``migrations/``; :mod:`~bot.storage.postgres.importer` copies an
SQLite file in (``romme-bot migrate-db``).
"""

from bot.storage.postgres.leases import (
    Lease,
    LeaseKeeper,
    ShardCountMismatch,
    ShardLost,
    ShardTaken,
    default_owner,
)
from bot.storage.postgres.schema import PG_SCHEMA_VERSION, pg_migrations
from bot.storage.postgres.store import POOL_SIZE, PostgresStorage, pool_setting, shown_url

__all__ = [
    "PG_SCHEMA_VERSION",
    "POOL_SIZE",
    "Lease",
    "LeaseKeeper",
    "PostgresStorage",
    "ShardCountMismatch",
    "ShardLost",
    "ShardTaken",
    "default_owner",
    "pg_migrations",
    "pool_setting",
    "shown_url",
]
