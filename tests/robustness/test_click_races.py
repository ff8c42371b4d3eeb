"""Races: 100 clicks from six people (three seated, three not) at one table, all at once.

SimCord refuses overlapping actor operations (``asyncio.gather`` over ``actor.click`` raises
``SetupError: operation overlaps active click``, checked below), so the clicks are emitted together
with :func:`robust_helpers.fire_all`: each becomes its own discord.py task and the handlers
interleave at every await, as simultaneous clicks do in production. Every legal move must apply
exactly once, every other click be refused privately, and all 108 cards stay in the game (R1).
On both backends: the bot's database is an SQLite file, then a PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import RommeBot
from bot.render.ids import parse_custom_id
from tests.discord.play_helpers import component, components, game_in, table_message
from tests.robustness.robust_helpers import (
    DECK_SIZE,
    Hall,
    answers,
    card_count,
    fire_all,
    make_bot,
    move_log,
    tables,
)


@pytest.fixture
def simcord_bot(database: Path | str, bots: list[RommeBot]) -> RommeBot:
    """The robustness suite's bot, on each backend in turn."""
    bot = make_bot(database)
    bots.append(bot)
    return bot


MOVE_ACTIONS = {"draw", "take", "p_draw", "p_take", "discard", "meld", "takeback"}


async def seated_table(hall: Hall) -> tuple[Any, dict[int, Any]]:
    """Ada, Bob and Cy with one computer; returns the table message and each person's panel, opened
    when a person is to draw."""
    env, channel = hall.env, hall.channels[0]
    ada = hall.person("ada")
    lobby = await ada.slash(channel, "romme start", computers=1, rounds=1)
    assert lobby.response is not None
    for name in ("bob", "cy"):
        await hall.person(name).click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    game = game_in(env, channel)
    assert game.match is not None and game.match.round.phase == "draw"
    assert game.seats[game.to_play or 0].user_id is not None, "the computer already moved"
    table = table_message(env, game)
    panels = {}
    for name in ("ada", "bob", "cy"):
        person = hall.person(name)
        result = await person.click(table, label="My hand")
        panels[person.id] = result.response
    return table, panels


def random_clicks(
    hall: Hall, rng: random.Random, table: Any, panels: dict[int, Any], count: int
) -> list[tuple[simcord.MemberActor, Any, str, list[str] | None]]:
    """``count`` clicks by anyone on the table's buttons, and by the seated on their own panel."""
    clicks: list[tuple[simcord.MemberActor, Any, str, list[str] | None]] = []
    table_ids = [c["custom_id"] for c in components(table)]
    while len(clicks) < count:
        person = rng.choice(hall.people)
        panel = panels.get(person.id)
        if panel is not None and rng.random() < 0.6:
            buttons = [c["custom_id"] for c in components(panel) if c.get("type") == 2]
            clicks.append((person, panel, rng.choice(buttons), None))
        else:
            clicks.append((person, table, rng.choice(table_ids), None))
    return clicks


def check_answers(
    env: simcord.Env, clicks: list[tuple[simcord.MemberActor, Any, str, list[str] | None]], results: list[Any]
) -> list[tuple[int, str]]:
    """Every click answered once, every refusal private; returns the accepted moves as (user, action)."""
    accepted = []
    for (person, _, custom_id, _), result in zip(clicks, results, strict=True):
        assert result.acknowledged, custom_id
        [answer] = answers(env, result)
        parsed = parse_custom_id(custom_id)
        assert parsed is not None, custom_id
        action = parsed.action
        if answer.refusal:
            assert answer.ephemeral, answer.content
        elif action in MOVE_ACTIONS:
            accepted.append((person.id, action))
    return accepted


async def test_simultaneous_actor_clicks_are_refused_by_simcord(hall: Hall) -> None:
    """Why the races below use fire_all: SimCord serialises actor operations by refusing overlaps."""
    ada = hall.person("ada")
    lobby = await ada.slash(hall.channels[0], "romme start", computers=1)
    assert lobby.response is not None
    outcomes = await asyncio.gather(
        ada.click(lobby.response, label="Join"),
        hall.person("bob").click(lobby.response, label="Join"),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, simcord.SetupError)]
    assert len(refused) == 1 and "overlaps" in str(refused[0])


@pytest.mark.slow
async def test_a_hundred_simultaneous_clicks_apply_each_legal_move_once(hall: Hall) -> None:
    env = hall.env
    rng = random.Random(100)
    table, panels = await seated_table(hall)
    game = game_in(env, hall.channels[0])
    mover = game.seats[game.to_play or 0].user_id
    assert mover is not None
    log_before, version = await move_log(env, game.id), game.version

    # Round one: everyone clicks at the drawing phase; only one draw by the person on turn can win (R11).
    clicks = random_clicks(hall, rng, table, panels, 90)
    mover_actor = next(p for p in hall.people if p.id == mover)
    draws = [c["custom_id"] for c in components(panels[mover]) if c.get("label") in ("Draw", "Take discard")]
    draws += [c["custom_id"] for c in components(table) if c.get("label") in ("Draw", "Take discard")]
    clicks += [(mover_actor, panels[mover] if ":p_" in cid else table, cid, None) for cid in draws * 3][:10]
    rng.shuffle(clicks)
    results = await fire_all(clicks)
    accepted = check_answers(env, clicks, results)
    assert len(accepted) == 1 and accepted[0][0] == mover
    assert accepted[0][1] in {"draw", "take", "p_draw", "p_take"}
    log = await move_log(env, game.id)
    assert len(log) == len(log_before) + 1 and log[-1][2] == mover and log[-1][3]["kind"] == "draw"
    game = game_in(env, hall.channels[0])
    assert game.match is not None
    assert game.version == version + 1 and game.match.round.phase == "play"
    assert sum(card_count(game).values()) == DECK_SIZE

    # Round two: the mover's panel with one card selected, Discard clicked 30 times among 70 others.
    mover_panel = (await mover_actor.click(table, label="My hand")).response
    assert mover_panel is not None
    card = game.match.view(game.to_play)["hand"][0]
    select = component(mover_panel, action="select")
    value = next(o["value"] for o in select["options"] if o["value"].split("#")[0] == card)
    mover_panel = (await mover_actor.select(mover_panel, [value], custom_id=select["custom_id"])).response
    discard = component(mover_panel, label="Discard")["custom_id"]
    panels = {p: (await hall.person(n).click(table, label="My hand")).response for n, p in _seated(hall)}
    clicks = random_clicks(hall, rng, table, panels, 70) + [(mover_actor, mover_panel, discard, None)] * 30
    rng.shuffle(clicks)
    log_before = await move_log(env, game.id)
    results = await fire_all(clicks)
    accepted = check_answers(env, clicks, results)
    log = await move_log(env, game.id)
    people_moves = [(entry[2], entry[3]["kind"]) for entry in log[len(log_before) :] if entry[2] is not None]
    # Exactly one discard by the mover; a draw by the next person may also be legal in the same burst.
    assert [a for a in accepted if a[1] == "discard"] == [(mover, "discard")]
    assert people_moves[0] == (mover, "discard")
    assert len(people_moves) == len(accepted), (people_moves, accepted)
    assert sum(card_count(game_in(env, hall.channels[0])).values()) == DECK_SIZE
    assert card_count(game_in(env, hall.channels[0])) == card_count(tables(env).get(game.id))


def _seated(hall: Hall) -> list[tuple[str, int]]:
    return [(name, hall.person(name).id) for name in ("ada", "bob", "cy")]
