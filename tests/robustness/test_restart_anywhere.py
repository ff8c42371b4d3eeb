"""Restart anywhere: a seeded game played by clicks ends exactly the same when the bot is closed and
a new one built on the same database file between any two clicks.

Each game is played twice in one SimCord world: once on ``reference.db`` without a restart, then on
``restarted.db`` with the bot closed after randomly chosen clicks (50 restart points over the four
games). After each restart the people go on clicking the panels and messages the OLD bot sent.
The final game (snapshot, totals, version), the round scores and the move log must be equal.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import RommeBot
from bot.service.game import GameStatus
from tests.robustness.robust_helpers import Hall, make_bot, move_log, state, tables
from tests.robustness.table_driver import TableDriver

# (name, people seated besides ada, /romme start options, restart points)
GAMES: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = [
    ("two people, one computer", ("bob",), {"computers": 1, "rounds": 1, "opening": 0}, 14),
    ("one person, two computers, two rounds", (), {"computers": 2, "rounds": 2, "opening": 0}, 12),
    ("two people, opening 40", ("bob",), {"rounds": 1}, 12),
    ("three people, one computer", ("bob", "cy"), {"computers": 1, "rounds": 1, "opening": 30}, 12),
]
assert sum(points for *_, points in GAMES) == 50


async def begin(hall: Hall, channel: simcord.ChannelHandle, joiners: tuple[str, ...], **options: Any) -> None:
    """Ada opens the lobby, the others join, Ada starts (R3)."""
    ada = hall.person("ada")
    lobby = await ada.slash(channel, "romme start", **options)
    assert lobby.response is not None
    for name in joiners:
        await hall.person(name).click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")


async def outcome(env: simcord.Env, driver: TableDriver) -> dict[str, Any]:
    game = driver.game()
    assert game.status is GameStatus.FINISHED
    service = tables(env)
    return {
        "state": state(game),
        "standings": [vars(s) if hasattr(s, "__dict__") else s for s in service.standings(game.id)],
        "rounds": await service.round_scores(game.id),
        "moves": await move_log(env, game.id),
    }


async def play(
    hall: Hall,
    bots: list[RommeBot],
    path: Path | str,
    spec: tuple[str, tuple[str, ...], dict[str, Any], int],
    restart_after: set[int],
) -> tuple[dict[str, Any], int]:
    """Play the game of ``spec`` on a fresh bot over ``path``; restart after the clicks numbered in
    ``restart_after``. Returns the outcome and the number of clicks made."""
    env = hall.env
    _, joiners, options, _ = spec

    async def fresh_bot() -> None:
        old = env.bot
        bot = make_bot(path)
        bots.append(bot)
        await env.restart_bot(bot)
        await old.close()

    await fresh_bot()
    channel = hall.channels[0]
    await begin(hall, channel, joiners, **options)
    people = {hall.person(name).id: hall.person(name) for name in ("ada", *joiners)}
    driver = TableDriver(env, channel, people)
    restarts = 0

    async def maybe_restart() -> None:
        nonlocal restarts
        if driver.clicks in restart_after:
            old_game = driver.game()
            before = state(old_game)
            await fresh_bot()
            restarts += 1
            # The new bot brought the game back from the file exactly as it was.
            assert driver.game() is not old_game and state(driver.game()) == before

    driver.after_click = maybe_restart
    await driver.play_to_end()
    assert restarts == len(restart_after)
    return await outcome(env, driver), driver.clicks


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES, ids=[g[0] for g in GAMES])
async def test_a_game_ends_the_same_with_restarts_between_clicks(
    hall: Hall,
    bots: list[RommeBot],
    tmp_path: Path,
    database: Path | str,
    spec: tuple[str, tuple[str, ...], dict[str, Any], int],
) -> None:
    # The reference is played on an SQLite file without restarts; the restarted game on each backend
    # (on PostgreSQL, it must end exactly as the game on SQLite did).
    reference, clicks = await play(hall, bots, tmp_path / "reference.db", spec, set())
    assert clicks > spec[3] * 2, "the game is long enough to restart in many places"
    points = set(random.Random(spec[0]).sample(range(1, clicks), spec[3]))
    target = database if isinstance(database, str) else tmp_path / "restarted.db"
    restarted, clicks_again = await play(hall, bots, target, spec, points)
    # A restarted bot does not keep the open panels live (they are kept in memory): a person whose
    # panel went out of date refreshes it with a click, so a restarted game may take a few more.
    assert clicks_again >= clicks
    assert restarted["moves"] == reference["moves"]
    assert restarted["rounds"] == reference["rounds"]
    assert restarted["standings"] == reference["standings"]
    assert restarted["state"] == reference["state"]
