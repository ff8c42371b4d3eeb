"""Shared fixtures: the real bot on a real SQLite file in a temporary folder, inside SimCord.

``simcord_env`` (from SimCord's pytest plugin) starts the bot built by ``simcord_bot`` below:
logged in to a simulated Discord, at READY, its commands synced. Tests act as people through
SimCord's actors (``slash``, ``click``, ``select``); nothing about discord is mocked.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import create_bot
from bot.client import RommeBot


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    """The bot's database file for one test (a new, empty folder each time)."""
    return tmp_path / "romme.db"


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    """The bot as the tests run it: its own database file, computer players without delay."""
    bot = create_bot(database_path=database_path, computer_delay=0)
    yield bot
    # SimCord detaches the bot without closing it; closing here releases the database.
    await bot.close()
