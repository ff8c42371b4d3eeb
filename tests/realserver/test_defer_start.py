"""A lost answer to ``/romme start`` (Discord's 3 s passed, 404 10062) does not hide the lobby: it is
posted in the channel all the same, and the next ``/romme start`` there points to it."""

from __future__ import annotations

import logging

import pytest
import simcord

# The robustness tests' bot (seeded, table edits not merged) and quick settling, for this module only.
from tests.robustness.conftest import bots, fast_settle, simcord_bot  # noqa: F401
from tests.robustness.robust_helpers import EPHEMERAL, tables

CALLBACK = "/interactions/*/*/callback"


def setup_room(env: simcord.Env) -> tuple[simcord.ChannelHandle, simcord.MemberActor, simcord.MemberActor]:
    """A server with #romme, ada and bob."""
    guild = env.create_guild("Cards")
    channel = guild.create_text_channel("romme")
    ada, bob = (guild.add_member(env.create_user(name)) for name in ("ada", "bob"))
    return channel, ada, bob


async def test_a_lost_start_answer_still_shows_the_lobby(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    env = simcord_env
    channel, ada, bob = setup_room(env)
    env.inject_error("POST", CALLBACK, status=404, code=10062, message="Unknown interaction", times=1)
    await ada.slash(channel, "romme start")
    game = tables(env).game_in_channel(channel.id)
    assert game is not None and game.match is None
    # The lobby is in the channel, as the game's table message, and people can join through it.
    assert game.table_message_id is not None
    message = channel.history()[-1] if channel.history()[-1].id == game.table_message_id else None
    assert message is not None
    await bob.click(message, label="Join")
    assert [seat.user_id for seat in tables(env).get(game.id).seats] == [ada.id, bob.id]
    # The next start in the channel links to it.
    again = await ada.slash(channel, "romme start")
    assert again.response is not None and again.ephemeral
    link = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.table_message_id}"
    assert link in (again.response.content or "")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_start_whose_lobby_was_never_posted_shows_it_now(simcord_env: simcord.Env) -> None:
    env = simcord_env
    channel, ada, bob = setup_room(env)
    # The answer is lost, and so is the post in the channel (Discord is down for a moment).
    env.inject_error("POST", CALLBACK, status=404, code=10062, message="Unknown interaction", times=1)
    env.inject_error("POST", "/channels/*/messages", status=503, code=0, times=1)
    await ada.slash(channel, "romme start")
    game = tables(env).game_in_channel(channel.id)
    assert game is not None and game.table_message_id is None
    # Bob's start shows the lobby that exists, and it becomes the game's table message.
    again = await bob.slash(channel, "romme start")
    assert again.response is not None
    assert not (again.response.flags.value & EPHEMERAL)
    assert any(e.footer.text == f"Game {game.id}" for e in again.response.embeds)
    assert tables(env).get(game.id).table_message_id == again.response.id
    await bob.click(again.response, label="Join")
    assert [seat.user_id for seat in tables(env).get(game.id).seats] == [ada.id, bob.id]
