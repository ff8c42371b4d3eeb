"""The bot on a simulated Discord: it logs in, opens its database, and syncs /romme for servers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord

from bot import create_bot
from bot.client import RommeBot
from bot.storage import SCHEMA_VERSION
from tests.discord.play_helpers import romme_bot

ROMME_COMMANDS = {
    "romme start",
    "romme join",
    "romme leave",
    "romme hand",
    "romme score",
    "romme history",
    "romme replay",
    "romme profile",
    "romme season",
    "romme rules",
    "romme stop",
    "romme settings",
    "romme preferences",
    "romme help",
}


async def test_bot_logs_in_and_opens_its_database(simcord_env: simcord.Env, database_path: Path) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, RommeBot)
    assert bot.is_ready()
    assert bot.user is not None
    assert database_path.is_file()
    # The storage is open and migrated: it answers queries on the fresh file.
    assert await bot.storage.unfinished_games() == []
    assert SCHEMA_VERSION >= 1


async def test_bot_asks_for_no_privileged_intent(simcord_env: simcord.Env) -> None:
    intents = simcord_env.bot.intents
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)
    assert not intents.guild_messages


async def test_a_member_sees_every_romme_subcommand(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(simcord_env.create_user("alice"))
    # available_commands lists what was synced AND is visible to this member here.
    assert set(alice.available_commands(channel)) == ROMME_COMMANDS


async def test_romme_commands_are_for_servers_only(simcord_env: simcord.Env) -> None:
    (romme,) = romme_bot(simcord_env).tree.get_commands()
    assert romme.name == "romme"
    assert romme.guild_only
    assert romme.allowed_contexts is not None
    assert romme.allowed_contexts.guild and not romme.allowed_contexts.dm_channel


async def test_every_command_answers(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(simcord_env.create_user("alice"))
    required = {"romme replay": {"game": 1}}  # the options a command cannot go without
    for name in sorted(ROMME_COMMANDS):
        result = await alice.slash(channel, name, **required.get(name, {}))
        assert result.acknowledged, name


@pytest.fixture
async def dev_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    bot = create_bot(database_path=database_path, computer_delay=0, dev_guild_id=4242)
    yield bot
    await bot.close()


async def test_dev_guild_gets_the_commands_and_no_one_else(dev_bot: RommeBot) -> None:
    async with simcord.run(dev_bot) as env:
        dev = env.create_guild("dev", id=4242)
        other = env.create_guild("other")
        dev_member = dev.add_member(env.create_user("dev"))
        other_member = other.add_member(env.create_user("other"))
        assert set(dev_member.available_commands(dev.create_text_channel("a"))) == ROMME_COMMANDS
        assert other_member.available_commands(other.create_text_channel("b")) == ()


async def test_close_closes_the_database(database_path: Path) -> None:
    bot = create_bot(database_path=database_path, computer_delay=0)
    async with simcord.run(bot):
        storage = bot.storage
        assert not storage.closed
    await bot.close()
    assert storage.closed
    with pytest.raises(RuntimeError, match="not open"):
        bot.storage  # noqa: B018  # the property is what is tested


def test_create_bot_needs_no_token_and_takes_overrides(tmp_path: Path) -> None:
    bot = create_bot(database_path=tmp_path / "x.db", turn_timeout=45, computer_delay=0, dev_guild_id="7")
    assert bot.settings.token is None
    assert bot.settings.database_path == tmp_path / "x.db"
    assert (bot.settings.turn_timeout, bot.settings.computer_delay, bot.settings.dev_guild_id) == (
        45.0,
        0.0,
        7,
    )
    assert not bot.is_ready()
    assert isinstance(bot.intents, discord.Intents)


def test_create_bot_refuses_an_unknown_setting() -> None:
    with pytest.raises(TypeError, match="unknown setting 'colour'"):
        create_bot(colour="red")
