"""What the "hold up on a real server" tests (issue 11) share: the bot as they build it, a room.

Each test module defines its own ``simcord_bot`` and ``room`` fixtures from these (a folder-wide
conftest would change the bot of the other tests in this folder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import simcord

from bot import create_bot
from bot.client import RommeBot
from tests.discord.play_helpers import SEED, Room


def bot_on(database_path: Path, **overrides: Any) -> RommeBot:
    """The bot on ``database_path`` as these tests run it (seeded deal, no computer delay, table
    edits not merged), with ``overrides`` of its settings."""
    settings: dict[str, Any] = {
        "database_path": database_path,
        "computer_delay": 0,
        "game_seed": SEED,
        "table_edit_interval": 0.0,
        "table_edits_per_second": 0.0,
    }
    return create_bot(**{**settings, **overrides})


def make_room(env: simcord.Env) -> Room:
    """A server with one channel and four people: ada, bob, cy, dee (as ``tests/discord`` has it)."""
    guild = env.create_guild("Cards")
    channel = guild.create_text_channel("romme")
    people = [guild.add_member(env.create_user(name)) for name in ("ada", "bob", "cy", "dee")]
    return Room(env, guild, channel, *people)
