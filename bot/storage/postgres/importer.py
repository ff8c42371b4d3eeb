"""``romme-bot migrate-db --from romme.db --to postgresql://…``: an SQLite file's games into PostgreSQL.

Every row is copied as it is, ids included: the games (open, finished, set aside), their move logs,
round scores, match results, the player statistics, the outbox of announcements, and the ratings
(seasons, rated matches, rating history, ratings). The file is
first brought to the current schema (and locked, so no bot writes to it meanwhile); the PostgreSQL
database must hold no game yet; the copy is one transaction there, so it happens whole or not at all.
Afterwards, point the bot at the database (``DATABASE_URL``) and keep the file as the backup.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.storage.errors import StorageError
from bot.storage.postgres.store import PostgresStorage
from bot.storage.sqlite import Storage

# The tables in the order their foreign keys allow, with their columns, and which of those are JSON
# and which are times (SQLite keeps both as text).
_TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "games",
        (
            "id", "guild_id", "channel_id", "host_id", "table_message_id", "status", "snapshot",
            "version", "created_at", "updated_at", "damaged", "snapshot_seq", "last_seq",
        ),
    ),
    ("moves", ("game_id", "seq", "seat", "user_id", "move", "created_at", "state")),
    ("round_scores", ("game_id", "round_no", "seat", "user_id", "melded", "in_hand", "score")),
    ("match_results", ("game_id", "user_id", "points", "won", "best_round")),
    ("player_stats", ("guild_id", "user_id", "matches_played", "matches_won", "points", "best_round")),
    (
        "announcements",
        ("game_id", "round_no", "kind", "payload", "created_at", "delivered_at", "message_id"),
    ),
    ("seasons", ("guild_id", "number", "started_at", "started_by")),
    ("rated_matches", ("game_id", "guild_id", "season", "ended_at", "seats")),
    (
        "rating_history",
        (
            "game_id", "user_id", "guild_id", "season", "ended_at", "place", "seats", "won", "left_early",
            "mu_before", "sigma_before", "mu", "sigma", "points", "rounds", "rounds_out", "hand_rommes",
            "best_round", "beaten",
        ),
    ),
    ("ratings", ("guild_id", "season", "user_id", "mu", "sigma", "ordinal", "matches", "wins")),
    ("guild_settings", ("guild_id", "settings", "updated_at")),
    ("member_preferences", ("user_id", "preferences", "updated_at")),
)  # fmt: skip
_JSON = {("games", "snapshot"), ("moves", "move"), ("moves", "state"), ("announcements", "payload")}
_JSON |= {("rated_matches", "seats")}
_TIMES = {"created_at", "updated_at", "delivered_at", "started_at", "ended_at"}


@dataclass(frozen=True, slots=True)
class Copied:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    def summary(self) -> str:
        """One line for the command line.

        >>> Copied({"games": 2, "moves": 30}).summary()
        'copied 2 games, 30 moves'
        """
        return "copied " + ", ".join(f"{count} {table}" for table, count in self.rows.items())


async def copy_sqlite_to_postgres(source: str | Path, url: str) -> Copied:
    """Copy every row of the SQLite file ``source`` into the PostgreSQL database ``url`` (see the
    module's docstring). Raises :class:`StorageError` (one line) for an unusable file or database,
    or a database that holds games already."""
    path = Path(source)
    if not path.is_file():
        raise StorageError(f"{path}: no such SQLite file to migrate from")
    sqlite_storage = await Storage.open(path)  # brings the file to the current schema; holds its lock
    try:
        target = await PostgresStorage.open(url)
        try:
            return await _copy(path, target)
        finally:
            await target.close()
    finally:
        await sqlite_storage.close()


async def _copy(path: Path, target: PostgresStorage) -> Copied:
    file = sqlite3.connect(path)
    try:
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table, columns in _TABLES:
            cursor = file.execute(f"SELECT {', '.join(columns)} FROM {table}")
            rows[table] = [_converted(columns, row) for row in cursor]
    finally:
        file.close()

    async def write(db: Any) -> Copied:
        if await db.fetchval("SELECT count(*) FROM games"):
            raise StorageError(f"{target.path} already holds games: migrate into a new, empty database")
        for table, columns in _TABLES:
            casts = [
                f"${n}::json" if (table, name) in _JSON else f"${n}"
                for n, name in enumerate(columns, start=1)
            ]
            if rows[table]:
                await db.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(casts)})", rows[table]
                )
        await db.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), GREATEST(COALESCE(MAX(id), 0), 1), "
            "MAX(id) IS NOT NULL) FROM games"
        )
        return Copied({table: len(rows[table]) for table, _ in _TABLES})

    return await target._write(write)


def _converted(columns: tuple[str, ...], row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(
        datetime.fromisoformat(value) if name in _TIMES and value is not None else value
        for name, value in zip(columns, row, strict=True)
    )
