"""A click acts only on the game of its own server and channel, and only on that game's messages.

Game ids are small and printed in footers, so a custom id can be copied or forged. Every click is
checked against the game's guild and channel, the clicker must see the game's channel, and a public
click must be on one of the game's own messages. A refusal is a short ephemeral line and changes
nothing (the clicked message neither).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import simcord

from bot.service.game import Game

# The robustness tests' bot (seeded, table edits not merged) and quick settling, for this module only.
from tests.robustness.conftest import bots, fast_settle, simcord_bot  # noqa: F401
from tests.robustness.robust_helpers import answers, fire, state, tables


@dataclass
class Servers:
    """Two servers: "Cards" (ada hosts a game in #romme, bob; eve may not see #romme; #lounge for
    everyone) and "Other", owned by mallory, with its own #romme."""

    env: simcord.Env
    cards: simcord.GuildHandle
    romme: simcord.ChannelHandle
    lounge: simcord.ChannelHandle
    ada: simcord.MemberActor
    bob: simcord.MemberActor
    eve: simcord.MemberActor
    other: simcord.GuildHandle
    other_romme: simcord.ChannelHandle
    mallory: simcord.MemberActor


def build(env: simcord.Env) -> Servers:
    """The two servers; eve is denied View Channel on Cards' #romme."""
    cards = env.create_guild("Cards")
    ada, bob, eve = (cards.add_member(env.create_user(name)) for name in ("ada", "bob", "eve"))
    romme = cards.create_text_channel(
        "romme", overwrites={eve: discord.PermissionOverwrite(view_channel=False)}
    )
    lounge = cards.create_text_channel("lounge")
    owner = env.create_user("mallory")
    other = env.create_guild("Other", owner=owner)
    mallory = other.add_member(owner)
    return Servers(
        env, cards, romme, lounge, ada, bob, eve, other, other.create_text_channel("romme"), mallory
    )


async def lobby(actor: simcord.MemberActor, channel: simcord.ChannelHandle) -> Any:
    """``actor`` opens a lobby in ``channel``; its public message."""
    result = await actor.slash(channel, "romme start")
    assert result.response is not None
    return result.response


def game_of(env: simcord.Env, channel: simcord.ChannelHandle) -> Game:
    """The channel's latest game."""
    game = tables(env).game_in_channel(channel.id, include_finished=True)
    assert game is not None
    return game


def stored(env: simcord.Env, message: Any) -> dict[str, Any]:
    """What Discord stores of ``message`` now: content, embeds and components."""
    raw = env.backend.get_message(
        message.channel_id if hasattr(message, "channel_id") else message.channel.id, message.id
    )
    return {"content": raw.content, "embeds": raw.embeds, "components": raw.components}


async def refused(
    env: simcord.Env, actor: simcord.MemberActor, message: Any, custom_id: str, words: str
) -> None:
    """``actor`` fires ``custom_id`` on ``message``: one ephemeral refusal containing ``words``, no game
    changed, the message unchanged."""
    before = {g.id: state(g) for g in tables(env).changes.games()}
    shown = stored(env, message)
    mark = len(env.http_requests)
    result = await fire(actor, message, custom_id)
    got = answers(env, result, since=mark)
    assert len(got) == 1 and got[0].refusal and got[0].ephemeral, got
    assert words in got[0].content, got[0].content
    assert {g.id: state(g) for g in tables(env).changes.games()} == before
    assert stored(env, message) == shown


async def test_stop_from_another_server_by_its_owner_is_refused(simcord_env: simcord.Env) -> None:
    # R23 (the table's own server decides who may stop it): Manage Server is read in the game's guild.
    s = build(simcord_env)
    await lobby(s.ada, s.romme)
    here = game_of(s.env, s.romme)
    await lobby(s.mallory, s.other_romme)
    confirm = await s.mallory.slash(s.other_romme, "romme stop")
    assert confirm.response is not None and confirm.ephemeral
    await refused(s.env, s.mallory, confirm.response, f"romme:{here.id}:stop_yes", "another server")
    assert game_of(s.env, s.romme).status == here.status


async def test_join_from_another_server_is_refused(simcord_env: simcord.Env) -> None:
    s = build(simcord_env)
    await lobby(s.ada, s.romme)
    here = game_of(s.env, s.romme)
    theirs = await lobby(s.mallory, s.other_romme)
    await refused(s.env, s.mallory, theirs, f"romme:{here.id}:join", "another server")
    assert [seat.user_id for seat in game_of(s.env, s.romme).seats] == [s.ada.id]


async def test_join_from_another_channel_is_refused(simcord_env: simcord.Env) -> None:
    s = build(simcord_env)
    await lobby(s.ada, s.romme)
    here = game_of(s.env, s.romme)
    other = await lobby(s.bob, s.lounge)
    await refused(s.env, s.eve, other, f"romme:{here.id}:join", "another channel")
    assert [seat.user_id for seat in game_of(s.env, s.romme).seats] == [s.ada.id]


async def test_join_by_a_member_who_cannot_see_the_channel_is_refused(simcord_env: simcord.Env) -> None:
    s = build(simcord_env)
    message = await lobby(s.ada, s.romme)
    here = game_of(s.env, s.romme)
    await refused(s.env, s.eve, message, f"romme:{here.id}:join", "cannot see")
    assert [seat.user_id for seat in game_of(s.env, s.romme).seats] == [s.ada.id]
    # The same button works for bob, who sees the channel.
    await s.bob.click(message, label="Join")
    assert [seat.user_id for seat in game_of(s.env, s.romme).seats] == [s.ada.id, s.bob.id]


async def test_a_forged_id_on_another_games_message_is_refused(simcord_env: simcord.Env) -> None:
    s = build(simcord_env)
    old = await lobby(s.ada, s.romme)
    first = game_of(s.env, s.romme)
    await s.ada.click(old, label="Cancel")
    await lobby(s.ada, s.romme)
    second = game_of(s.env, s.romme)
    assert second.id != first.id
    for action in ("join", "leave", "start", "cancel", "add_computer", "hand", "next", "again"):
        await refused(s.env, s.bob, old, f"romme:{second.id}:{action}", "not on a message of its game")
    # A stop confirmation is only ever private: forged on a public message, it is refused too.
    await refused(s.env, s.ada, old, f"romme:{second.id}:stop_yes", "not on a message of its game")


async def test_the_own_buttons_still_work(simcord_env: simcord.Env) -> None:
    s = build(simcord_env)
    message = await lobby(s.ada, s.romme)
    await s.bob.click(message, label="Join")
    await s.ada.click(message, label="Start")
    game = game_of(s.env, s.romme)
    assert game.running
    confirm = await s.ada.slash(s.romme, "romme stop")
    assert confirm.response is not None
    await s.ada.click(confirm.response, label="Stop the game")
    assert not game_of(s.env, s.romme).running
