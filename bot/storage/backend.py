"""What every storage backend offers (:class:`Database`), and :func:`open_database`, which opens the
one a setting names: an SQLite file (:class:`~bot.storage.Storage`, the default) or a PostgreSQL
database (:class:`~bot.storage.postgres.PostgresStorage`, for a bot spread over several processes).

>>> import asyncio, tempfile, pathlib
>>> async def demo(path):
...     database = await open_database(path)
...     game_id = await database.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"n": 0})
...     await database.close()
...     return type(database).__name__, game_id
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(pathlib.Path(folder) / "romme.db"))
('Storage', 1)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from bot.storage.records import (
    Announcement,
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    GameStatusName,
    MatchResult,
    MoveEntry,
    MoveRecord,
    PlayerStats,
    Replay,
    RoundScore,
    SaveResult,
)


class Database(Protocol):
    """The storage the service, the publisher and the client use, whichever backend keeps it.

    The methods are those of :class:`bot.storage.Storage` (whose docstrings say what each one
    guarantees); :class:`bot.storage.postgres.PostgresStorage` keeps the same guarantees.
    """

    path: Any
    """How the database is named in messages: the file's path, or the URL without its password."""
    replay: Replay | None

    @property
    def closed(self) -> bool: ...

    async def close(self) -> None: ...

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        snapshot: dict[str, Any],
        status: GameStatus | GameStatusName = ...,
    ) -> int: ...

    async def save_game(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
    ) -> SaveResult: ...

    def start_save(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
        now: bool = False,
        ready: asyncio.Future[None] | None = None,
    ) -> Awaitable[SaveResult]: ...

    async def set_table_message(self, game_id: int, message_id: int | None) -> None: ...

    async def set_aside(self, game_id: int, problem: str) -> bool: ...

    async def damaged_games(self) -> list[GameRecord]: ...

    async def get_game(self, game_id: int) -> GameRecord | None: ...

    async def game_in_channel(self, channel_id: int) -> GameRecord | None: ...

    async def unfinished_games(self) -> list[GameRecord]: ...

    async def moves(self, game_id: int, *, after: int = 0) -> list[MoveRecord]: ...

    async def owed_announcements(self, game_id: int | None = None) -> list[AnnouncementRecord]: ...

    async def announcement(self, game_id: int, round_no: int) -> AnnouncementRecord | None: ...

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool: ...

    async def record_round(self, game_id: int, scores: Sequence[RoundScore]) -> None: ...

    async def round_scores(self, game_id: int) -> list[RoundScore]: ...

    async def record_match(self, game_id: int, results: Iterable[MatchResult]) -> int: ...

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None: ...

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]: ...


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL).

    >>> is_postgres_url("postgresql://bot@db/romme"), is_postgres_url(Path("romme.db"))
    (True, False)
    """
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_database(target: str | Path) -> Database:
    """Open the database ``target`` names: a ``postgresql://`` URL, or else an SQLite file's path.

    Raises :class:`~bot.storage.StorageError` (one line) when it cannot be used.
    """
    if is_postgres_url(target):
        # Imported here: a bot on an SQLite file never loads asyncpg.
        from bot.storage.postgres import PostgresStorage

        return await PostgresStorage.open(str(target))
    from bot.storage.database import Storage

    return await Storage.open(target)
