"""Fuzz: 5,000 random interactions (five seeded chunks of 1,000) against two running games.

Random people (seated in one game, the other, or none) click real and forged components (see
:mod:`fuzz_clicks`) on messages they can see, while the games go on by real moves between them. Some
clicks come from the owner of another server, or from a member who may not see the first channel:
those on the hall's games (that channel's) are all refused.
After every click: it was answered; a refusal is ephemeral and changed nothing in any game (snapshot
and version); no answer is the apology for an unexpected error; a hand is only ever shown, privately,
to its owner; and no public answer shows a hand. SimCord re-raises any error the bot let escape at
teardown, and no error is logged.
"""

from __future__ import annotations

import collections
import logging
import random
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.render.cards import hand_text
from bot.render.ids import parse_custom_id
from tests.robustness.fuzz_clicks import random_click
from tests.robustness.robust_helpers import EPHEMERAL, Answer, Hall, answers, fire, state, tables
from tests.robustness.table_driver import TableDriver

CHUNKS, CLICKS = 5, 1000


@dataclass
class Strangers:
    """People who must never act on the hall's games: ``outsider`` owns another server (where they
    opened a lobby of their own, a message to click on), ``blind`` is in the hall's server but may
    not see its first channel."""

    outsider: simcord.MemberActor
    elsewhere: simcord.ChannelHandle
    blind: simcord.MemberActor


async def strangers(hall: Hall) -> Strangers:
    """The outsider's server and lobby, and the member denied View Channel on the first channel."""
    env = hall.env
    owner = env.create_user("zed")
    other = env.create_guild("Elsewhere", owner=owner)
    outsider = other.add_member(owner)
    elsewhere = other.create_text_channel("romme")
    lobby = await outsider.slash(elsewhere, "romme start")
    assert lobby.response is not None
    blind = hall.guild.add_member(env.create_user("vic"))
    deny = discord.Permissions(view_channel=True).value
    env.backend.set_overwrite(hall.channels[0].id, Overwrite(blind.id, OverwriteType.MEMBER, deny=deny))
    return Strangers(outsider, elsewhere, blind)


async def two_games(hall: Hall) -> list[TableDriver]:
    """Ada and Bob with a computer in one channel, Cy and Dee with a computer in the other; Eve and
    Fay play nowhere. Two rounds each, so round ends happen during the fuzz."""
    drivers = []
    for channel, (host, guest) in zip(hall.channels, (("ada", "bob"), ("cy", "dee")), strict=True):
        first, second = hall.person(host), hall.person(guest)
        lobby = await first.slash(channel, "romme start", computers=1, rounds=2, opening=0)
        assert lobby.response is not None
        await second.click(lobby.response, label="Join")
        await first.click(lobby.response, label="Start")
        drivers.append(TableDriver(hall.env, channel, {first.id: first, second.id: second}))
    return drivers


def games(env: simcord.Env) -> dict[int, dict[str, Any]]:
    return {game.id: state(game) for game in tables(env).changes.games()}


def hands(env: simcord.Env) -> list[tuple[int, list[str]]]:
    """Every seated person's hand now, as (user id, card codes)."""
    found = []
    for game in tables(env).changes.games():
        if game.match is None:
            continue
        rnd = game.match.round.to_dict()
        for index, seat in enumerate(game.match.round_seats):
            user = game.seats[seat].user_id
            if user is not None and rnd["hands"][index]:
                found.append((user, rnd["hands"][index]))
    return found


def panel_cards(answer: Answer) -> tuple[int, list[str]] | None:
    """The game and the card codes of a hand panel's card select, if the answer is a panel."""
    for row in answer.components:
        for item in row.get("components", [row]):
            cid = parse_custom_id(item.get("custom_id"))
            if cid is not None and cid.action == "select":
                return cid.game_id, [o["value"].split("#")[0] for o in item.get("options", [])]
    return None


def check_privacy(env: simcord.Env, clicker: int, got: list[Answer]) -> None:
    # R19: a hand is shown to its owner only, privately, and never in public.
    seated = hands(env)
    for answer in got:
        text = answer.text()
        lines = set(text.splitlines())
        shown = panel_cards(answer)
        if shown is not None or "Only you see this panel" in text:
            assert answer.ephemeral, "a hand panel in public"
        if shown is not None:
            # A panel without a card select holds no cards (its seat went out): nothing to compare.
            game = tables(env).get(shown[0])
            seat = game.active_seat_of(clicker)
            assert seat is not None, "a panel for someone not seated"
            assert game.match is not None
            hand = game.match.view(seat)["hand"]
            assert collections.Counter(shown[1]) <= collections.Counter(hand), "someone else's cards"
        # Two decks: another hand may draw as a line the clicker's own hand also draws (one 4♦ each).
        own = {
            hand_text(hand, sort) for owner, hand in seated if owner == clicker for sort in ("suit", "rank")
        }
        for owner, hand in seated:
            if owner == clicker and answer.ephemeral:
                continue
            for sort in ("suit", "rank"):
                # A panel shows the hand as a line of its own.
                line = hand_text(hand, sort)
                assert line not in lines or (answer.ephemeral and line in own), "a hand shown to someone else"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
async def test_random_clicks_are_answered_refused_safely_and_keep_hands_private(
    hall: Hall, chunk: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    env = hall.env
    rng = random.Random(f"fuzz:{chunk}")
    drivers = await two_games(hall)
    away = await strangers(hall)
    own: dict[int, list[Any]] = {p.id: [] for p in (*hall.people, away.outsider, away.blind)}
    refused = changed = strange = 0
    for _ in range(CLICKS):
        running = [d for d in drivers if d.game().running]
        if running and rng.random() < 0.12:
            await rng.choice(running).step()  # the games go on by real moves
            continue
        stored = [m for c in hall.channels for m in env.backend.messages.get(c.id, {}).values()]
        public = [m for m in stored if not m.flags & EPHEMERAL]
        panels = [m for ms in own.values() for m in ms[-3:]]
        clicker = rng.choice(hall.people)
        roll = rng.random()
        if roll < 0.08:  # from another server: on a message of that server, any id
            clicker = away.outsider
            public_here = [
                m for m in env.backend.messages.get(away.elsewhere.id, {}).values() if not m.flags & EPHEMERAL
            ]
            source = rng.choice(public_here + own[clicker.id][-3:] * 3)
        elif roll < 0.16:  # a member who cannot see the first channel (its messages reach them forged)
            clicker = away.blind
            source = rng.choice(public + own[clicker.id][-3:] * 3)
        else:
            source = rng.choice(public + own[clicker.id][-3:] * 3)
        ids = [g.id for g in tables(env).changes.games()]
        versions = [g.version for g in tables(env).changes.games()]
        click = random_click(rng, public + panels, ids, versions)
        before, mark = games(env), len(env.http_requests)
        result = await fire(clicker, source, click.custom_id, click.values)
        got = answers(env, result, since=mark)
        assert result.acknowledged and got, click
        assert not any("something went wrong" in a.content for a in got), click
        if any(a.refusal for a in got):
            refused += 1
            assert all(a.ephemeral for a in got if a.refusal), click
            assert games(env) == before, f"a refused click changed a game: {click}"
        elif games(env) != before:
            changed += 1
        target = parse_custom_id(click.custom_id)
        game = tables(env).changes.find(target.game_id) if target is not None else None
        if game is not None and (
            (clicker is away.outsider and game.guild_id == hall.guild.id)
            or (clicker is away.blind and game.channel_id == hall.channels[0].id)
        ):
            # A game of a server the clicker is not on, or of a channel they cannot see.
            assert any(a.refusal for a in got) and games(env) == before, click
            strange += 1
        check_privacy(env, clicker.id, got)
        message = result.response
        if message is not None and message.ephemeral and panel_cards(got[0]) is not None:
            own[clicker.id].append(env.backend.get_message(message.channel_id, message.id))
    assert refused > CLICKS // 3, "the fuzz mostly tries what must be refused"
    assert strange > CLICKS // 50, "clicks from another server or a hidden channel were tried"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
