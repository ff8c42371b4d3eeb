"""A whole match played by the real bot as a person starts it: ``/romme start`` with two computers
and one round (in a thread of the channel, or in the channel), **Start**, then the host's
``/romme leave`` gives the seat to the computer, which plays the match to its end. Used by
``tests/discord/test_memory_follows_games.py`` and ``bench/memory.py``."""

from __future__ import annotations

import simcord

from bot.client import RommeBot
from bot.service.game import Game, GameStatus
from tests.discord.play_helpers import table_message


async def play_a_match(
    env: simcord.Env, host: simcord.MemberActor, channel: simcord.ChannelHandle, *, thread: bool
) -> Game:
    """One match played to its end by the computers, in ``channel`` or in a new thread of it; returns
    once the end is announced and the table drawn (SimCord's clock moved on a few seconds)."""
    bot = env.bot
    assert isinstance(bot, RommeBot)
    result = await host.slash(channel, "romme start", computers=2, rounds=1, thread=thread)
    assert result.response is not None
    home = channel.threads[-1] if thread else channel
    game = bot.tables.game_in_channel(home.id)
    assert game is not None
    await host.click(table_message(env, game), label="Start")
    await host.slash(home, "romme leave")
    for _ in range(20):
        if game.status is GameStatus.FINISHED:
            break
        await env.advance_time(5)
    assert game.status is GameStatus.FINISHED and not game.ended_early
    await env.advance_time(5)  # the announcement's delivery noted, the table's last edit made
    return game
