"""One failure budget for the whole bot (issue 25, point 9): tables in channels that took the bot's
permissions away, people clicking at every one of them for ten minutes of SimCord's clock. Discord
bans a bot after 10,000 failed requests (401, 403, 429) in ten minutes, counted bot-wide; each game
keeping its own budget let every broken table fail about ten times. The bot-wide budget holds every
table back once a fifth of its limit is spent, while every click is still answered.

The budget's limit is lowered here (40 instead of 2,500) so that 30 tables show what 1,000 tables do
with the real one (``bench/failure_budget.py`` measures those).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import RommeBot
from bot.publish.faults import FAILURE_WINDOW, HOLD_ALL_SHARE
from tests.discord.play_helpers import romme_bot
from tests.robustness.broken_tables import (
    counted_refusals,
    keep_clicking,
    open_tables,
    take_permissions_away,
    virtual_only,
)
from tests.robustness.robust_helpers import make_bot

TABLES = 30
LIMIT = 40


@pytest.fixture(autouse=True)
def clock_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's timers fire on SimCord's clock only (:func:`virtual_only`)."""
    monkeypatch.setattr(simcord.Env, "_schedule_timer", virtual_only(simcord.Env._schedule_timer))


@pytest.fixture
def simcord_bot(database_path: Path, bots: list[RommeBot]) -> RommeBot:
    """The bot, with no idle timeout: nothing sleeps at a table between clicks."""
    bot = make_bot(database_path, idle_game_timeout=0)
    bots.append(bot)
    return bot


async def test_broken_tables_fail_fewer_times_than_there_are_tables(simcord_env: simcord.Env) -> None:
    env = simcord_env
    budget = romme_bot(env).publisher.guard.budget
    budget.limit = LIMIT
    drivers = await open_tables(env, TABLES)
    take_permissions_away(env, drivers)
    with counted_refusals(env) as refusals:
        clicks = await keep_clicking(env, drivers, minutes=10)
    # Every person clicked every minute and every click was answered (TableDriver checks each one).
    assert clicks >= TABLES * 10
    assert sum(driver.moves for driver in drivers) >= TABLES * 8
    # The bot-wide budget: past a fifth of its limit nothing more goes out to the tables (requests
    # already on their way when it filled still fail) until the first failures leave the ten
    # minutes: fewer failures than there are tables, where each game's own budget let every table
    # fail ten times.
    first = min(refusals.times)
    in_window = [at for at in refusals.times if at < first + FAILURE_WINDOW]
    assert int(LIMIT * HOLD_ALL_SHARE) <= len(in_window) < TABLES, refusals.requests
    assert max(in_window) - first < 60  # all in the first minute: then held for the rest
    assert set(refusals.by_status) == {403}


async def test_held_tables_wait_on_one_timer_not_a_task_each(simcord_env: simcord.Env) -> None:
    """Once the budget holds every table back, their edits wait on one timer of the event loop: a
    thousand held tables are not a thousand sleeping tasks (which also took SimCord hours to settle)."""
    env = simcord_env
    publisher = romme_bot(env).publisher
    publisher.guard.budget.limit = LIMIT
    drivers = await open_tables(env, TABLES)
    take_permissions_away(env, drivers)
    before = live_tasks()
    with counted_refusals(env) as refusals:
        await keep_clicking(env, drivers, minutes=2)
    assert refusals.total >= int(LIMIT * HOLD_ALL_SHARE)
    with env._bot_scope():  # the bot's clock (SimCord's)
        held = [driver for driver in drivers if publisher.guard.wait(driver.game().id) > 0]
    assert len(held) == TABLES  # the bot-wide budget holds every table back now
    assert len(live_tasks() - before) <= 2, sorted(task.get_name() for task in live_tasks() - before)


def live_tasks() -> set[asyncio.Task[Any]]:
    return {task for task in asyncio.all_tasks() if not task.done()}


async def test_tables_held_together_go_again_only_as_the_budget_has_room(simcord_env: simcord.Env) -> None:
    """When the first failures leave the window, the held tables do not all go out at once (and all
    fail past the level that held them): in every ten minutes, the count stays at the level."""
    env = simcord_env
    romme_bot(env).publisher.guard.budget.limit = LIMIT
    drivers = await open_tables(env, TABLES)
    take_permissions_away(env, drivers)
    with counted_refusals(env) as refusals:
        await keep_clicking(env, drivers, minutes=13)
    times = sorted(refusals.times)
    assert times[-1] - times[0] > FAILURE_WINDOW  # tables went out again once the window slid
    level = int(LIMIT * HOLD_ALL_SHARE)
    worst = max(sum(1 for at in times if end - FAILURE_WINDOW < at <= end) for end in times)
    assert worst <= level + 2, (worst, times)
