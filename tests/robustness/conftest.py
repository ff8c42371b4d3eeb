"""Fixtures of the robustness tests: the real bot on a real SQLite file, a server with six people.

Every bot built during a test (restarts build several) is closed at the end, after SimCord has
detached the last one. The gameplay helpers of ``tests/discord`` (``play_helpers``) are reused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot.client import RommeBot
from tests.robustness.robust_helpers import Hall, make_bot, quick_idle


@pytest.fixture(autouse=True)
def fast_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll every 2 ms instead of 50 ms while SimCord waits for the bot to settle.

    After each interaction SimCord waits, ``idle`` seconds at a time, for the bot's pending tasks;
    the turn timer's task sleeps for minutes of virtual time, so each click would wait the full 50 ms
    for a task that cannot finish. The interval is only how often SimCord looks again: what the bot
    does, and when SimCord considers it settled, is unchanged. It makes 5,000 fuzzed clicks fit.
    """
    monkeypatch.setattr(simcord.Env, "_settle_internal", quick_idle(simcord.Env._settle_internal))


@pytest.fixture
async def bots() -> AsyncIterator[list[RommeBot]]:
    """Every bot of the test, closed at its end (the database file is released)."""
    made: list[RommeBot] = []
    yield made
    for bot in made:
        await bot.close()


@pytest.fixture
def simcord_bot(database_path: Path, bots: list[RommeBot]) -> RommeBot:
    bot = make_bot(database_path)
    bots.append(bot)
    return bot


@pytest.fixture
def hall(simcord_env: simcord.Env) -> Hall:
    return Hall.build(simcord_env)
