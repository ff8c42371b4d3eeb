"""What the tests read of a database that the bot itself never asks for: the storage's interface
keeps only what ``bot/`` uses (:class:`~bot.storage.backend.Database`), and these read the tables
directly, on either backend, through the storage's own reading connection (the last committed state).

Each reader turns rows into the bot's records with :mod:`bot.storage.rows`, as the backends do.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.storage import rows as read
from bot.storage.backend import Database
from bot.storage.postgres import PostgresStorage
from bot.storage.records import AnnouncementRecord, GameRecord
from bot.storage.sqlite import Storage
from bot.storage.sqlite import store as sqlite_store

_OPEN = "('lobby', 'playing')"


async def game_in_channel(storage: Database, channel_id: int) -> GameRecord | None:
    """The game in the lobby or in play in this channel (at most one), or ``None``."""
    rows = await _fetch(
        storage, f"{_select_game(storage)} WHERE channel_id = ? AND status IN {_OPEN}", channel_id
    )
    return read.game(rows[0], _stamp(storage), storage.replay) if rows else None


async def damaged_games(storage: Database) -> list[GameRecord]:
    """Every game set aside as unreadable, oldest first."""
    rows = await _fetch(storage, f"{_select_game(storage)} WHERE damaged IS NOT NULL ORDER BY id")
    return [read.game(row, _stamp(storage), storage.replay) for row in rows]


async def announcement(storage: Database, game_id: int, round_no: int) -> AnnouncementRecord | None:
    """The announcement of this game's round, delivered or not, or ``None``."""
    rows = await _fetch(
        storage, "SELECT * FROM announcements WHERE game_id = ? AND round_no = ?", game_id, round_no
    )
    return read.announcement(rows[0], _stamp(storage)) if rows else None


def _select_game(storage: Database) -> str:
    if isinstance(storage, PostgresStorage):
        from bot.storage.postgres import store as postgres_store

        return postgres_store.SELECT_GAME
    return sqlite_store.SELECT_GAME


def _stamp(storage: Database) -> Any:
    return (lambda value: value) if isinstance(storage, PostgresStorage) else datetime.fromisoformat


async def _fetch(storage: Database, sql: str, *params: Any) -> list[Any]:
    """``sql`` written with ``?`` placeholders, on the storage's reading connection."""
    if isinstance(storage, PostgresStorage):
        parts = sql.split("?")
        sql = "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))
        return await storage._fetch(sql, *params)
    assert isinstance(storage, Storage)
    return await storage._fetch(sql, *params)
