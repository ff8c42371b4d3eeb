"""Setting aside a game whose snapshot cannot be read (issue 11, point 4), on a real database:
the row frees its channel, is no longer brought back, keeps its snapshot and says what was wrong
(both backends); an SQLite file of schema 2 gets the column by migration, its rows untouched."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import GameStatus, Storage
from bot.storage.interface import open_database
from bot.storage.sqlite.schema import SCHEMA_VERSION
from tests.storage import peek


async def test_a_game_set_aside_frees_its_channel_and_keeps_its_snapshot(database: str | Path) -> None:
    storage = await open_database(database)
    try:
        bad = await storage.create_game(guild_id=1, channel_id=5, host_id=7, snapshot={"version": 99})
        good = await storage.create_game(guild_id=1, channel_id=6, host_id=7, snapshot={"version": 1})
        assert await storage.set_aside(bad, "unknown game snapshot format 99\nsecond line")
        assert [record.id for record in await storage.unfinished_games()] == [good]
        record = await storage.get_game(bad)
        assert record is not None
        assert record.status is GameStatus.CANCELLED
        assert record.damaged == "unknown game snapshot format 99 second line"
        assert record.snapshot == {"version": 99}
        assert [r.id for r in await peek.damaged_games(storage)] == [bad]
        assert (await storage.get_game(good)).damaged is None  # type: ignore[union-attr]
        # The channel is free for a new game.
        await storage.create_game(guild_id=1, channel_id=5, host_id=8, snapshot={"version": 1})
        # Setting aside twice, or a game that is over, changes nothing.
        assert not await storage.set_aside(bad, "again")
        assert (await storage.get_game(bad)).damaged == record.damaged  # type: ignore[union-attr]
    finally:
        await storage.close()


async def test_a_file_of_schema_2_gets_the_damaged_column_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "romme.db"
    storage = await Storage.open(path)
    game_id = await storage.create_game(guild_id=1, channel_id=5, host_id=7, snapshot={"version": 1})
    await storage.close()
    # Back to schema 2, as the previous version of the bot left it (the columns and tables of the
    # later schemas go too).
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE guild_settings")
        db.execute("DROP TABLE member_preferences")
        db.execute("ALTER TABLE games DROP COLUMN last_seq")
        for table in ("seasons", "rated_matches", "rating_history", "ratings"):
            db.execute(f"DROP TABLE {table}")
        db.execute("ALTER TABLE games DROP COLUMN snapshot_seq")
        db.execute("ALTER TABLE moves DROP COLUMN state")
        db.execute("ALTER TABLE games DROP COLUMN damaged")
        db.execute("PRAGMA user_version = 2")
    storage = await Storage.open(path)
    try:
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        (record,) = await storage.unfinished_games()
        assert record.id == game_id and record.damaged is None
    finally:
        await storage.close()
