"""SimCord fixtures for the gameplay tests: the real bot (seeded deal) in a guild with people.

The bot is built exactly as production builds it (``create_bot``), on a real SQLite file, with
computer players without delay; only the deal is seeded so a scenario replays the same way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import simcord

from bot import create_bot
from bot.client import RommeBot

SEED = 11


def seeded_bot(database_path: Path, seed: int = SEED, *, edit_interval: float = 0.0) -> RommeBot:
    """A bot on ``database_path`` whose deals and computer moves follow ``seed``.

    ``edit_interval`` 0 turns off the merging of table edits (one a second per channel in
    production), which would otherwise cost a second of real time per click under SimCord.
    """
    return create_bot(
        database_path=database_path, computer_delay=0, game_seed=seed, table_edit_interval=edit_interval
    )


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    bot = seeded_bot(database_path)
    yield bot
    await bot.close()


@dataclass
class Room:
    """A server with a channel and four people: the host Ada, Bob, Cy (seated later) and Dee (never)."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    ada: simcord.MemberActor
    bob: simcord.MemberActor
    cy: simcord.MemberActor
    dee: simcord.MemberActor


@pytest.fixture
def room(simcord_env: simcord.Env) -> Room:
    env = simcord_env
    guild = env.create_guild("Cards")
    channel = guild.create_text_channel("romme")
    people = [guild.add_member(env.create_user(name)) for name in ("ada", "bob", "cy", "dee")]
    return Room(env, guild, channel, *people)
