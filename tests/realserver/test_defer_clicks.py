"""The 3-second window: a click whose answer is not ready in about 2 s is deferred, and answered
when the save is done; a lost answer (404 10062) loses nothing of the move.

A slow save is made real by holding the game's lock (as a long save of another change of the same
game holds it); SimCord's virtual clock stands for Discord's 3 s.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

import pytest
import simcord

from cogs import clicks
from tests.discord.play_helpers import table_message

# The robustness tests' bot (seeded, table edits not merged) and quick settling, for this module only.
from tests.robustness.conftest import bots, fast_settle, simcord_bot  # noqa: F401
from tests.robustness.robust_helpers import Hall, answers, fire, tables
from tests.robustness.table_driver import TableDriver

CALLBACK = "/interactions/*/*/callback"
HELD = 1.0
"""Real seconds the other connection holds the write lock (within the bot's 5 s busy timeout)."""


@pytest.fixture
def room(simcord_env: simcord.Env) -> Hall:
    """A server with two channels and six people (the robustness tests' hall)."""
    return Hall.build(simcord_env)


async def started(hall: Hall) -> tuple[TableDriver, simcord.MemberActor]:
    """Ada and Bob at a table; the person on turn, with their hand panel open."""
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(hall.channels[0], "romme start")
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    driver = TableDriver(hall.env, hall.channels[0], {ada.id: ada, bob.id: bob})
    game = driver.game()
    on_turn = ada if game.to_play == game.seat_of(ada.id) else bob
    await driver.open_hand(on_turn)
    return driver, on_turn


@pytest.mark.slow
async def test_a_slow_move_is_deferred_then_answered_with_the_panel(
    room: Hall, database_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = room.env
    driver, person = await started(room)
    game = driver.game()
    version = game.version
    # SimCord moves its clock only while the bot is idle, never during a real wait (the save's
    # thread): the bot's defer timer cannot fire inside a slow save there. The window is therefore
    # shortened to 0 s (a setting, not a mock: every click then takes the deferred path), and the
    # save is made slow for real: another process holds the database's write lock for 1 s.
    monkeypatch.setattr(clicks, "DEFER_AFTER", 0.0)
    other = sqlite3.connect(database_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(HELD, other.rollback)
    release.start()
    mark = len(env.http_requests)
    panel = driver.panels[person.id]
    try:
        result = await person.click(panel, label="Draw")
    finally:
        release.join()
        other.close()
    assert result.deferred, "not deferred"
    after = tables(env).get(game.id)
    assert after.version == version + 1 and after.match is not None and after.match.round.phase == "play"
    requests = [(e.method, e.path) for e in env.http_requests[mark:]]
    # One callback (the deferred update, type 6), then the panel edited through the original response.
    callbacks = [(e.json or {}).get("type") for e in env.http_requests[mark:] if e.path.endswith("/callback")]
    assert callbacks == [6], requests
    assert any(m == "PATCH" and p.endswith("/messages/@original") for m, p in requests), requests
    shown = env.backend.get_message(room.channels[0].id, panel.id)
    labels = {c.get("label"): c.get("disabled", False) for row in shown.components for c in row["components"]}
    assert labels.get("Draw") is True, labels  # drawn: the panel is in the play phase
    # Every kind of answer takes its deferred path: a new private panel (a followup), a refusal.
    again = await person.click(table_message(env, after), label="My hand")
    assert again.deferred and again.followups, again
    other_person = next(p for p in (room.person("ada"), room.person("bob")) if p.id != person.id)
    refused = await fire(other_person, table_message(env, after), f"romme:{game.id}:draw")
    got = answers(env, refused)
    assert refused.deferred and [(a.kind, a.ephemeral, a.refusal) for a in got] == [
        (6, False, False),
        ("followup", True, True),
    ]


async def test_a_quick_move_is_answered_at_once_without_deferring(room: Hall) -> None:
    env = room.env
    driver, person = await started(room)
    mark = len(env.http_requests)
    result = await person.click(driver.panels[person.id], label="Draw")
    assert result.acknowledged and not result.deferred
    assert [a.kind for a in answers(env, result, since=mark)] == [7]


async def test_a_lost_answer_keeps_the_move_and_breaks_nothing(
    room: Hall, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    env = room.env
    driver, person = await started(room)
    game = driver.game()
    version = game.version
    env.inject_error("POST", CALLBACK, status=404, code=10062, message="Unknown interaction", times=1)
    await person.click(driver.panels[person.id], label="Draw")
    after = tables(env).get(game.id)
    assert after.version == version + 1 and after.match is not None and after.match.round.phase == "play"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # The game goes on: the same person opens a fresh panel and discards.
    seat = after.seat_of(person.id)
    assert seat is not None
    await driver.open_hand(person)
    card = after.match.view(seat)["hand"][0]
    await driver.choose(person, [card])
    await driver.press(person, "Discard")
    assert tables(env).get(game.id).to_play != seat
