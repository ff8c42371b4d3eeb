"""A refusal that will not go away is not retried forever (issue 11, point 3).

The real bot in SimCord, with Discord's refusals injected on the table message: an old message whose
edits Discord caps (400 30046) is replaced by a fresh one, which is edited from then on; a deleted one
(404 10008) is posted again once; a refusal that a retry cannot mend (403 50001 / 50013, 404 10003)
stops the game's requests and is logged once; 5xx and 429 are retried with a pause that grows. Whatever
Discord answers, one game sends at most a bounded number of failed requests in ten minutes, counted in
SimCord's REST log.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
import simcord
import simcord.http.router as simcord_router

from bench._common import TimedRequests, time_requests
from bot.publish.publisher import table_message as drawn_table
from bot.service.game import Game
from bot.storage import StorageError
from tests.discord.play_helpers import game_in, table_message
from tests.robustness import conftest as robustness
from tests.robustness.robust_helpers import Hall
from tests.robustness.table_driver import TableDriver

BOUND = 10
"""Failed table requests one game may send in ten minutes, whatever Discord answers (and as many
failed announcement posts)."""
WINDOW = 600.0
WATCHED = 1800.0
"""Seconds of play watched under a permanent refusal: three windows."""


# The robustness suite's bot (seeded, computers without delay), its closing, its quick settling and
# its hall of six people.
fast_settle = robustness.fast_settle
bots = robustness.bots
simcord_bot = robustness.simcord_bot
hall = robustness.hall


async def two_people(hall: Hall) -> TableDriver:
    """Ada and Bob at a one-round table; the driver plays for both."""
    ada, bob, channel = hall.person("ada"), hall.person("bob"), hall.channels[0]
    lobby = await ada.slash(channel, "romme start", rounds=1, opening=0)
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    return TableDriver(hall.env, channel, {ada.id: ada, bob.id: bob})


def shows_now(env: simcord.Env, game: Game) -> bool:
    """The stored table message is what the game looks like now."""
    embeds = drawn_table(game)[1]
    return bool(table_message(env, game).embeds[0].to_dict() == embeds[0].to_dict())


def table_posts(env: simcord.Env, channel_id: int, since: int) -> list[Any]:
    """The bot's posts of a table message in the channel (not the round ends) from ``since``."""
    found = []
    for entry in env.http_requests[since:]:
        if entry.method != "POST" or entry.path != f"/channels/{channel_id}/messages":
            continue
        embeds = (entry.json or {}).get("embeds") or [{}]
        if not str(embeds[0].get("title", "")).endswith(" is over"):
            found.append(entry)
    return found


def edits(env: simcord.Env, channel_id: int, since: int) -> list[Any]:
    """The bot's edits of channel messages (table edits) in the channel from ``since``."""
    prefix = f"/channels/{channel_id}/messages/"
    return [e for e in env.http_requests[since:] if e.method == "PATCH" and e.path.startswith(prefix)]


async def test_an_old_table_message_whose_edits_are_capped_is_replaced_by_a_fresh_one(hall: Hall) -> None:
    env = hall.env
    driver = await two_people(hall)
    game = driver.game()
    old = game.table_message_id
    env.inject_error(
        "PATCH",
        f"/channels/{game.channel_id}/messages/{old}",
        status=400,
        code=30046,
        times=None,
        message="Maximum number of edits to messages older than 1 hour reached. Try again later",
    )
    since = len(env.http_requests)
    for _ in range(6):
        await driver.step()
    await env.advance_time(60)
    game = driver.game()
    assert game.table_message_id not in (None, old)
    stored = await env.bot.storage.get_game(game.id)  # type: ignore[attr-defined]
    assert stored is not None and stored.table_message_id == game.table_message_id
    assert len(table_posts(env, game.channel_id, since)) == 1, "one fresh table, edited from then on"
    assert len([e for e in edits(env, game.channel_id, since) if e.path.endswith(f"/{old}")]) <= 1
    assert shows_now(env, game)


async def test_a_table_id_that_cannot_be_stored_does_not_turn_into_a_post_a_change(
    hall: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = hall.env
    driver = await two_people(hall)
    game = driver.game()

    async def disk_full(game_id: int, message_id: int | None) -> None:
        raise StorageError("database or disk is full")

    for person in driver.people.values():
        await driver.open_hand(person)
    monkeypatch.setattr(env.bot.storage, "set_table_message", disk_full)  # type: ignore[attr-defined]
    assert game.table_message_id is not None
    env.backend.delete_message(game.channel_id, game.table_message_id)
    since = len(env.http_requests)
    for _ in range(8):
        await driver.step()
    await env.advance_time(60)
    assert len(table_posts(env, game.channel_id, since)) == 1, "posted again once"
    assert shows_now(env, driver.game())


def most_in_a_window(log: TimedRequests, indexes: list[int]) -> int:
    """The most of these REST log entries that fall in any ten minutes of virtual time."""
    times = sorted(log.stamps[i].virtual for i in indexes)
    return max((sum(1 for u in times if t <= u < t + WINDOW) for t in times), default=0)


async def computers_play_long(hall: Hall) -> Game:
    """Ada opens a twelve-round table with one computer and leaves it: computers play for minutes."""
    ada, channel = hall.person("ada"), hall.channels[0]
    lobby = await ada.slash(channel, "romme start", computers=1, rounds=12, opening=0)
    assert lobby.response is not None
    await ada.click(lobby.response, label="Start")
    await ada.slash(channel, "romme leave")
    return game_in(hall.env, channel)


REFUSALS = [
    (500, 0, "a Discord error"),
    (429, 0, "a rate limit after discord.py's own retries"),
    (400, 30046, "edits capped on a fresh message"),
    (403, 50013, "missing permissions"),
    (403, 50001, "missing access"),
    (404, 10003, "unknown channel"),
]


@pytest.mark.slow
@pytest.mark.parametrize("status,code,what", REFUSALS, ids=[r[2] for r in REFUSALS])
async def test_a_permanent_refusal_costs_a_bounded_number_of_requests(
    hall: Hall,
    status: int,
    code: int,
    what: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = hall.env
    # time_requests wraps SimCord's router for good: put the original back after the test.
    monkeypatch.setattr(simcord_router, "dispatch", simcord_router.dispatch)
    log = time_requests(env)
    caplog.set_level(logging.WARNING, logger="bot.publish")
    stops = code in (50013, 50001, 10003)
    env.inject_error("PATCH", "/channels/*/messages/*", status=status, code=code, times=None)
    if stops:
        env.inject_error("POST", "/channels/*/messages", status=status, code=code, times=None)
    since = len(env.http_requests)
    game = await computers_play_long(hall)
    for _ in range(int(WATCHED // 10)):
        await env.advance_time(10)
    prefix = f"/channels/{game.channel_id}/messages"
    failed = [
        i
        for i in range(since, len(env.http_requests))
        if env.http_requests[i].path.startswith(prefix)
        and (env.http_requests[i].method == "PATCH" or (stops and env.http_requests[i].method == "POST"))
    ]
    worst = most_in_a_window(log, failed)
    print(f"{what}: {len(failed)} failed requests in {WATCHED:.0f} s, at most {worst} in ten minutes")
    if stops:
        assert worst <= 2, f"{worst} failed requests in ten minutes after a refusal that stops the game"
        said = [
            r
            for r in caplog.records
            if r.name.startswith("bot.publish") and "stopped trying" in r.getMessage()
        ]
        assert len(said) == 1, [r.getMessage() for r in said]
    else:
        assert worst <= BOUND, f"{worst} failed requests in ten minutes"
