"""Everything the bot keeps: one interface (:class:`Database`, in :mod:`bot.storage.interface`) and
two backends, an SQLite file (:mod:`bot.storage.sqlite`) or a PostgreSQL database
(:mod:`bot.storage.postgres`), each with its numbered migrations. :func:`open_database` opens one.

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     storage = await Storage.open(path)
...     game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"version": 1})
...     saved = await storage.save_game(Save(
...         game_id, {"version": 1, "turn": 1}, GameStatus.PLAYING,
...         expected_version=1, move=MoveEntry(seat=0, user_id=3, move={"kind": "draw"})))
...     await storage.close()
...     return saved
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(pathlib.Path(folder) / "romme.db"))
SaveResult(version=2, seq=1)
"""

from bot.storage.errors import ChannelBusy, GameNotFound, StorageError, VersionConflict, WriteFenced
from bot.storage.interface import Database, check_database, open_database
from bot.storage.records import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Announcement,
    AnnouncementKind,
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    GameStatusName,
    MatchResult,
    MoveEntry,
    MoveRecord,
    PlayerStats,
    ProfileCounts,
    RatedMatch,
    RatedSeat,
    Rating,
    RatingChange,
    RoundScore,
    Save,
    SaveResult,
    Season,
    Standing,
)
from bot.storage.sqlite import SCHEMA_VERSION, Storage

__all__ = [
    "GAME_STATUSES",
    "OPEN_STATUSES",
    "SCHEMA_VERSION",
    "Announcement",
    "AnnouncementKind",
    "AnnouncementRecord",
    "ChannelBusy",
    "Database",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStatusName",
    "MatchResult",
    "MoveEntry",
    "MoveRecord",
    "PlayerStats",
    "ProfileCounts",
    "RatedMatch",
    "RatedSeat",
    "Rating",
    "RatingChange",
    "RoundScore",
    "Save",
    "SaveResult",
    "Season",
    "Standing",
    "Storage",
    "StorageError",
    "VersionConflict",
    "WriteFenced",
    "check_database",
    "open_database",
]
