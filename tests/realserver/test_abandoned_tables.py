"""Issue 11, point 6: abandoned tables free their channel.

A lobby nobody starts within ``LOBBY_TIMEOUT`` closes itself and says so; a running game in which no
person acted for ``IDLE_GAME_TIMEOUT`` ends with the standings so far; one member hosts at most
``MAX_LOBBIES_PER_HOST`` open lobbies per server. The deadlines are in the snapshot, so a restart
keeps them. Played through the real bot in SimCord, on its virtual clock.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.client import RommeBot
from bot.service.game import GameStatus
from tests.discord.play_helpers import Room, game_in, romme_bot, table_message, texts
from tests.realserver.hold_up import bot_on


async def test_a_lobby_nobody_starts_closes_itself_and_frees_the_channel(room: Room) -> None:
    env = room.env
    result = await room.ada.slash(room.channel, "romme start")
    assert result.response is not None
    await env.advance_time(14 * 60)
    assert game_in(env, room.channel).status is GameStatus.LOBBY
    await env.advance_time(61)  # the default: 15 minutes
    game = game_in(env, room.channel)
    assert game.status is GameStatus.CANCELLED
    # The lobby message says it closed, and its buttons are off.
    message = table_message(env, game)
    assert "closed by itself" in texts(message) and "in time" in texts(message)
    assert all(c.get("disabled") for row in message.components for c in row.to_dict()["components"])
    # Anyone may open a new table in the channel now.
    again = await room.bob.slash(room.channel, "romme start")
    assert again.response is not None and not again.ephemeral
    assert game_in(env, room.channel).host_id == room.bob.id


async def test_the_lobby_deadline_survives_a_restart(room: Room, database_path: Path) -> None:
    env = room.env
    await room.ada.slash(room.channel, "romme start")
    await env.advance_time(10 * 60)
    old = env.bot
    new = bot_on(database_path)
    try:
        await env.restart_bot(new)
        await old.close()
        await env.advance_time(4 * 60)
        assert game_in(env, room.channel).status is GameStatus.LOBBY
        await env.advance_time(61)  # 15 minutes after the lobby opened, not after the restart
        assert game_in(env, room.channel).status is GameStatus.CANCELLED
    finally:
        await new.close()


@contextlib.asynccontextmanager
async def idle_table(room: Room, database_path: Path) -> AsyncIterator[RommeBot]:
    """A bot whose games end after 700 s without a person's change, and Ada's game against a
    computer in the room's channel, just started (Ada's turn first, 600 s on its timer)."""
    env = room.env
    old = env.bot
    bot = bot_on(database_path, idle_game_timeout=700)
    await env.restart_bot(bot)
    await old.close()
    try:
        lobby = await room.ada.slash(room.channel, "romme start", computers=1, rounds=12, turn_timeout=600)
        assert lobby.response is not None
        await room.ada.click(lobby.response, label="Start")
        yield bot
    finally:
        await bot.close()


async def test_a_game_nobody_plays_ends_with_the_standings_so_far(room: Room, database_path: Path) -> None:
    env = room.env
    async with idle_table(room, database_path) as bot:
        await env.advance_time(650)  # Ada's turn timed out: the computer played it, the game goes on
        game = game_in(env, room.channel)
        assert game.status is GameStatus.PLAYING
        await env.advance_time(60)  # 700 s without a person's move
        game = game_in(env, room.channel)
        assert game.status is GameStatus.FINISHED
        shown = texts(table_message(env, game))
        assert "results so far" in shown and "standings" in shown, shown
        # Not a finished match: nobody is credited on the leaderboard.
        assert await bot.storage.leaderboard(room.guild.id) == []
        # The channel is free.
        again = await room.bob.slash(room.channel, "romme start")
        assert again.response is not None and not again.ephemeral


async def test_a_persons_move_puts_the_end_of_an_idle_game_off(room: Room, database_path: Path) -> None:
    env = room.env
    async with idle_table(room, database_path):
        await env.advance_time(400)
        hand = await room.ada.click(table_message(env, game_in(env, room.channel)), label="My hand")
        assert hand.response is not None
        await room.ada.click(hand.response, label="Draw")  # a person's move at 400 s: the end is at 1,100 s
        await env.advance_time(350)  # 750 s: past the first deadline (700 s), whose timer sleeps on
        assert game_in(env, room.channel).status is GameStatus.PLAYING
        await env.advance_time(340)  # 1,090 s
        assert game_in(env, room.channel).status is GameStatus.PLAYING
        await env.advance_time(20)  # 1,110 s: 700 s after Ada's move
        game = game_in(env, room.channel)
        assert game.status is GameStatus.FINISHED and game.closed_by == "idle"


async def test_one_member_hosts_at_most_three_lobbies_per_server(room: Room) -> None:
    env = room.env
    channels = [room.channel, *(room.guild.create_text_channel(f"romme-{n}") for n in range(2, 6))]
    for channel in channels[:3]:
        result = await room.ada.slash(channel, "romme start")
        assert result.response is not None and not result.ephemeral
    refused = await room.ada.slash(channels[3], "romme start")
    assert refused.response is not None and refused.ephemeral
    assert "3" in texts(refused.response) and "lobbies" in texts(refused.response)
    assert romme_bot(env).tables.game_in_channel(channels[3].id) is None
    # Someone else may still open one there.
    other = await room.bob.slash(channels[3], "romme start")
    assert other.response is not None and not other.ephemeral
    # A lobby that closes frees a place for its host.
    first = game_in(env, channels[0])
    await room.ada.click(table_message(env, first), label="Cancel")
    result = await room.ada.slash(channels[4], "romme start")
    assert result.response is not None and not result.ephemeral
