"""The numbered migrations a backend ships: how they are found and checked, for both backends.

Each backend keeps its schema as files ``NNNN_what.sql`` in its own package
(``bot/storage/sqlite/migrations``, ``bot/storage/postgres/migrations``); ``NNNN`` is the schema
version the database is at once the file has run. The numbers must run 1, 2, 3, … with no gap.
Never edit a released file: add the next number. How a backend applies them (and where it keeps
the version) is its own (``bot/storage/sqlite/schema.py``, ``bot/storage/postgres/schema.py``).

>>> [m.name for m in migrations("bot.storage.sqlite.migrations")][:1]
['0001_initial.sql']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: after ``sql`` has run, the database is at ``version``."""

    version: int
    name: str
    sql: str


def migrations(package: str) -> tuple[Migration, ...]:
    """The migrations shipped in ``package``, in order; RuntimeError unless their numbers run
    1, 2, 3, … ."""
    found = []
    for entry in files(package).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3, …: {[m.name for m in found]}")
    return tuple(found)
