"""What the tests read of a database that the bot itself never asks for: the storage's interface
keeps only what ``bot/`` uses (:class:`~bot.storage.interface.Database`), and these read the tables
directly, on either backend, through the storage's own reading connection (the last committed
state), turning rows into the bot's records with :mod:`bot.storage.rows` as the backends do.
"""

from __future__ import annotations

from bot.storage import rows as read
from bot.storage.interface import Database
from bot.storage.records import AnnouncementRecord, GameRecord
from bot.storage.sql import OPEN, SqlStorage


async def game_in_channel(storage: Database, channel_id: int) -> GameRecord | None:
    """The game in the lobby or in play in this channel (at most one), or ``None``."""
    store = _sql(storage)
    found = await store.read_games(f"games.channel_id = ? AND games.status IN {OPEN}", channel_id)
    return found[0] if found else None


async def damaged_games(storage: Database) -> list[GameRecord]:
    """Every game set aside as unreadable, oldest first."""
    store = _sql(storage)
    return await store.read_games("games.damaged IS NOT NULL")


async def announcement(storage: Database, game_id: int, round_no: int) -> AnnouncementRecord | None:
    """The announcement of this game's round, delivered or not, or ``None``."""
    store = _sql(storage)
    rows = await store._fetch(
        "SELECT * FROM announcements WHERE game_id = ? AND round_no = ?", game_id, round_no
    )
    return read.announcement(rows[0], store._stamp) if rows else None


def _sql(storage: Database) -> SqlStorage:
    assert isinstance(storage, SqlStorage), f"{type(storage).__name__} is no SQL backend"
    return storage
