"""SimCord fixtures for the gameplay tests: the real bot (seeded deal) in a guild with people.

The bot is built exactly as production builds it (``create_bot``), on a real SQLite file, with
computer players without delay; only the deal is seeded so a scenario replays the same way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot.client import RommeBot
from tests.discord.play_helpers import Room, seeded_bot


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    bot = seeded_bot(database_path)
    yield bot
    await bot.close()


@pytest.fixture
def room(simcord_env: simcord.Env) -> Room:
    return Room.made(simcord_env)
