"""The SQLite backend: the bot's database in one file (the default, one bot process per file).

:mod:`~bot.storage.sqlite.store` holds :class:`Storage`; :mod:`~bot.storage.sqlite.writer` its
writer thread with group commit; :mod:`~bot.storage.sqlite.lock` the file lock that keeps a second
process out; :mod:`~bot.storage.sqlite.schema` applies the numbered files of ``migrations/``.
"""

from bot.storage.sqlite.schema import SCHEMA_VERSION
from bot.storage.sqlite.store import Storage

__all__ = ["SCHEMA_VERSION", "Storage"]
