"""Issue 25, point 1, at the storage's level: one damaged row never stops a read over all games.

The bot-level tests (``tests/robustness/test_damaged_logs.py``) damage games' rows between two runs
of the real bot; these damage what the bot reads besides games, and check the reads one by one.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Announcement, GameStatus, Save, Storage


async def test_a_damaged_announcement_is_left_out_and_the_others_are_still_owed(
    database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = await Storage.open(database_path)
    try:
        games = []
        for channel in (20, 21):
            game = await storage.create_game(
                guild_id=1, channel_id=channel, host_id=3, snapshot={"v": 1}, status=GameStatus.PLAYING
            )
            ends = [Announcement("round_end", 1, {"round": 1})]
            await storage.save_game(Save(game, {"v": 2}, "playing", announcements=ends))
            games.append(game)
        with sqlite3.connect(database_path) as db:
            db.execute("PRAGMA ignore_check_constraints = ON")
            db.execute("UPDATE announcements SET payload = '{\"round\": ' WHERE game_id = ?", (games[0],))
        with caplog.at_level(logging.WARNING):
            owed = await storage.owed_announcements()
        assert [(record.game_id, record.payload) for record in owed] == [(games[1], {"round": 1})]
        lines = [r.getMessage() for r in caplog.records if f"game {games[0]}:" in r.getMessage()]
        assert len(lines) == 1 and "cannot be read" in lines[0], lines
        # The game itself is unharmed: read back as it was saved.
        record = await storage.get_game(games[0])
        assert record is not None and record.snapshot == {"v": 2} and record.replay_error is None
    finally:
        await storage.close()
