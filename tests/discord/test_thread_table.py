"""``/romme start thread:true``: the game in a public thread of its own, opened from the channel,
which gets one line pointing to it; the refusals when that cannot be (no permission to open
threads, already in a thread, a thread Discord refuses) change nothing."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord

from bot.service.game import Game
from tests.discord.play_helpers import Room, service, table_message, texts

CREATE_THREAD = "/channels/*/threads"
CALLBACK = "/interactions/*/*/callback"


def games(env: simcord.Env) -> list[Game]:
    """Every game the bot keeps in memory."""
    return list(service(env).changes.games())


def thread_requests(env: simcord.Env) -> int:
    """How many threads the bot asked Discord to open."""
    return sum(1 for e in env.http_requests if e.method == "POST" and e.path.endswith("/threads"))


def threads_of(channel: simcord.ChannelHandle) -> list[simcord.ChannelHandle]:
    """The threads Discord holds under ``channel``."""
    return channel.threads


async def test_a_game_in_a_thread_is_played_there_and_the_channel_points_to_it(room: Room) -> None:
    env = room.env
    result = await room.ada.slash(room.channel, "romme start", thread=True)
    (home,) = threads_of(room.channel)
    assert home.name == "Rommé, ada's table"
    # The channel gets one public line, naming the thread; the lobby is in the thread.
    assert result.response is not None and not result.response.ephemeral
    assert f"<#{home.id}>" in (result.response.content or "")
    (game,) = games(env)
    assert game.channel_id == home.id and game.guild_id == room.guild.id
    lobby = table_message(env, game)
    assert "a new game" in texts(lobby)
    # People join and start with the lobby's buttons, in the thread.
    await room.bob.click(lobby, label="Join")
    await room.ada.click(table_message(env, game), label="Start")
    game = service(env).get(game.id)
    assert game.running and len(game.seats) == 2
    # /romme hand works in the thread; the channel itself has no game.
    hand = await room.ada.slash(home, "romme hand")
    assert hand.response is not None and hand.response.ephemeral
    assert service(env).game_in_channel(room.channel.id) is None


async def test_the_channel_can_hold_its_own_game_beside_a_game_in_a_thread(room: Room) -> None:
    env = room.env
    await room.ada.slash(room.channel, "romme start", thread=True)
    await room.bob.slash(room.channel, "romme start")
    assert sorted(game.channel_id == room.channel.id for game in games(env)) == [False, True]


async def test_without_the_thread_permissions_nothing_is_opened(simcord_env: simcord.Env) -> None:
    env = simcord_env
    guild = env.create_guild("Cards")
    assert env.bot.user is not None
    closed = discord.PermissionOverwrite(create_public_threads=False, send_messages_in_threads=False)
    channel = guild.create_text_channel("romme", overwrites={env.bot.user: closed})
    ada = guild.add_member(env.create_user("ada"))
    result = await ada.slash(channel, "romme start", thread=True)
    assert result.response is not None and result.response.ephemeral
    text = result.response.content or ""
    assert "Create Public Threads" in text and "Send Messages in Threads" in text
    assert games(env) == [] and threads_of(channel) == []


async def test_a_thread_cannot_open_a_thread_of_its_own(room: Room) -> None:
    env = room.env
    await room.ada.slash(room.channel, "romme start", thread=True)
    (home,) = threads_of(room.channel)
    before = len(games(env))
    result = await room.bob.slash(home, "romme start", thread=True)
    assert result.response is not None and result.response.ephemeral
    assert "thread already" in (result.response.content or "")
    assert len(games(env)) == before


async def test_a_thread_discord_refuses_starts_no_game(room: Room) -> None:
    env = room.env
    env.inject_error("POST", CREATE_THREAD, status=403, code=50013, message="Missing Permissions", times=1)
    result = await room.ada.slash(room.channel, "romme start", thread=True)
    assert result.response is not None and result.response.ephemeral
    assert "could not open a thread" in (result.response.content or "")
    assert games(env) == [] and threads_of(room.channel) == []


async def test_a_host_at_the_lobby_limit_gets_no_thread(room: Room) -> None:
    env = room.env
    for _ in range(3):  # the most open lobbies a host may have on one server
        await room.ada.slash(room.channel, "romme start", thread=True)
    assert len(threads_of(room.channel)) == 3
    threads_opened = thread_requests(env)
    result = await room.ada.slash(room.channel, "romme start", thread=True)
    assert result.response is not None and result.response.ephemeral
    assert "already host 3 open lobbies" in (result.response.content or "")
    assert len(games(env)) == 3 and len(threads_of(room.channel)) == 3
    # Refused before a thread was asked for (the bot may not be allowed to delete one again).
    assert (
        sum(1 for e in env.http_requests if e.method == "POST" and e.path.endswith("/threads"))
        == threads_opened
    )


async def test_a_lost_answer_leaves_the_game_in_its_thread(
    room: Room, caplog: pytest.LogCaptureFixture
) -> None:
    # The thread and the lobby come before the answer; an answer Discord no longer takes (the 3 s
    # passed: 10062) loses only the pointer line; the channel still shows the thread's start.
    caplog.set_level(logging.WARNING)
    env = room.env
    env.inject_error(
        "POST", "/interactions/*/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    await room.ada.slash(room.channel, "romme start", thread=True)
    (home,) = threads_of(room.channel)
    (game,) = games(env)
    assert game.channel_id == home.id and game.table_message_id is not None
    assert "a new game" in texts(table_message(env, game))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
