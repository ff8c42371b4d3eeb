"""Secrets stay secret in the log and in the ids (R13: a proposed meld is the proposer's own until the
opening is complete; R19: a seat sees only its own hand).

A failed click logs the game and the action, never the custom id (a panel's id carries the selected
cards). Proposing a meld and taking it back changes nothing another seat can observe: no edit of the
table message, the same ids on the other seat's panel, and the other seat's open panel is not made
"out of date". The proposer's own old panel is still refused as out of date.
"""

from __future__ import annotations

import itertools
import json
import logging

import pytest
import simcord

from bot.engine.cards import Card
from bot.engine.errors import IllegalMove
from bot.engine.meld import make_meld
from bot.logs import JsonFormatter, stamp_game
from bot.render.ids import compact_code, parse_custom_id
from tests.discord.play_helpers import component, components

# The robustness tests' bot (seeded, table edits not merged) and quick settling, for this module only.
from tests.robustness.conftest import bots, fast_settle, simcord_bot  # noqa: F401
from tests.robustness.robust_helpers import Hall, fire
from tests.robustness.table_driver import TableDriver

CALLBACK = "/interactions/*/*/callback"


@pytest.fixture
def hall(simcord_env: simcord.Env) -> Hall:
    """A server with two channels and six people (the robustness tests' hall)."""
    return Hall.build(simcord_env)


async def two_people(hall: Hall) -> TableDriver:
    """Ada and Bob at a table of two (opening 40, R13); Ada is on turn first or second."""
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(hall.channels[0], "romme start")
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    return TableDriver(hall.env, hall.channels[0], {ada.id: ada, bob.id: bob})


def small_meld(hand: list[str], opening: int) -> list[str] | None:
    """Three cards of ``hand`` that make a meld worth less than ``opening`` (so it stays proposed)."""
    for cards in itertools.combinations(hand, 3):
        try:
            meld = make_meld([Card.parse(code) for code in cards])
        except (IllegalMove, ValueError):
            continue
        if meld.points < opening:
            return list(cards)
    return None


async def test_a_failed_click_logs_the_game_and_action_but_not_the_cards(
    hall: Hall, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # The records keep the game they were made about, as the bot's own handler does (bot.logs).
    caplog.handler.addFilter(stamp_game)
    driver = await two_people(hall)
    game = driver.game()
    ada = hall.person("ada")
    seat = game.seat_of(ada.id)
    assert seat is not None and game.match is not None
    hand = game.match.view(seat)["hand"][:3]
    await driver.open_hand(ada)
    await driver.choose(ada, hand)
    sort = component(driver.panels[ada.id], action="sort")["custom_id"]
    parsed = parse_custom_id(sort)
    assert parsed is not None and parsed.arg is not None
    secret = parsed.arg.split(".")[1]
    assert sorted(secret[i : i + 2] for i in range(0, 6, 2)) == sorted(
        map(compact_code, hand)
    )  # the id carries the selection…
    hall.env.inject_error("POST", CALLBACK, status=500, code=0, times=1)
    await ada.click(driver.panels[ada.id], custom_id=sort)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert f"game {game.id}" in logged and "sort" in logged
    assert secret not in logged  # …and the log does not
    # Nor its JSON lines (LOG_FORMAT=json), tracebacks included; the failed click's line names the
    # game, its server and its shard in fields of their own.
    as_json = JsonFormatter(shard_count=2)
    lines = [json.loads(as_json.format(record)) for record in caplog.records]
    assert all(secret not in json.dumps(line) for line in lines)
    [failed] = [line for line in lines if "the answer to sort failed" in line["message"]]
    assert failed["game"] == game.id and failed["guild"] == hall.guild.id
    assert failed["shard"] == (hall.guild.id >> 22) % 2 and failed["level"] == "WARNING"


async def test_a_hidden_proposal_and_its_take_back_change_nothing_another_seat_sees(hall: Hall) -> None:
    env = hall.env
    driver = await two_people(hall)
    ada, bob = hall.person("ada"), hall.person("bob")
    # Play until Ada is on turn, has drawn, and holds a meld too small to open with.
    for _ in range(200):
        game = driver.game()
        assert game.match is not None
        seat = game.seat_of(ada.id)
        view = game.match.view(seat)
        if game.to_play == seat and view["phase"] == "play":
            cards = small_meld(view["hand"], game.match.rules.opening)
            if cards is not None and view["opening_needed"] > 0:
                break
        await driver.step()
    else:
        pytest.fail("Ada never held a small meld")
    await driver.open_hand(bob)
    await driver.open_hand(ada)
    bob_panel = driver.panels[bob.id]
    bob_draw = component(bob_panel, action="p_draw")["custom_id"]
    bob_ids = sorted(c["custom_id"] for c in components(bob_panel) if c.get("custom_id"))
    ada_old = driver.panels[ada.id]
    ada_old_draw = component(ada_old, action="p_draw")[
        "custom_id"
    ]  # ids read now: the panel is edited in place
    table_id = driver.game().table_message_id
    mark = len(env.http_requests)
    await driver.choose(ada, cards)
    await driver.press(ada, "Meld")
    proposed = driver.game()
    assert proposed.match is not None and proposed.match.view(seat)["pending"], "the meld is proposed"
    # Ada's panel from before the proposal is out of date (her own stale-panel protection).
    stale = await fire(ada, ada_old, ada_old_draw)
    assert stale.response is not None and "out of date" in (stale.response.content or "")
    await driver.press(ada, "Take back")
    assert not driver.game().match.view(seat)["pending"]  # type: ignore[union-attr]
    await env.advance_time(5)
    edits = [
        e
        for e in env.http_requests[mark:]
        if e.method == "PATCH" and e.path.endswith(f"/messages/{table_id}")
    ]
    assert not edits, "the table message was edited for a hidden proposal"
    # Bob's panel is not out of date, and a fresh one carries the same ids.
    # (Draw is Bob's first button; it is off, as it is not his turn: fired as a forged click would be.)
    result = await fire(bob, bob_panel, bob_draw)
    assert result.response is not None and "out of date" not in (result.response.content or "")
    await driver.open_hand(bob)
    fresh = sorted(c["custom_id"] for c in components(driver.panels[bob.id]) if c.get("custom_id"))
    assert fresh == bob_ids
