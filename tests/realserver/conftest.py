"""The bot and the room of the tests in this folder that do not bring their own.

A test file that defines or imports its own ``simcord_bot`` (the robustness suite's, say) keeps it:
a module's fixture wins over this one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot.client import RommeBot
from tests.discord.play_helpers import Room
from tests.realserver.hold_up import bot_on, make_room


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    """The production bot of these tests on the test's file (see ``bot_on``), closed at the end."""
    bot = bot_on(database_path)
    yield bot
    await bot.close()


@pytest.fixture
def room(simcord_env: simcord.Env) -> Room:
    """A server, a channel and the people of ``make_room``."""
    return make_room(simcord_env)
