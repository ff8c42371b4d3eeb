"""A sharded bot (``SHARD_COUNT``/``SHARD_IDS``) in SimCord on PostgreSQL: an ``AutoShardedBot`` on
its shards, which loads, times and plays only the games of its shards' servers, under a lease per
shard; and the settings that would let two processes play the same games are refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast

import asyncpg
import pytest
import simcord
from discord.ext import commands

from bot.client import RommeBot, lease_owner
from bot.config import ConfigError, Settings, load_settings
from bot.service import TableService
from bot.service.game import replay_snapshot
from bot.service.shards import shard_of
from bot.storage.postgres import PostgresStorage
from tests.robustness.robust_helpers import make_bot

MINE, OTHERS = 2 << 22, 3 << 22  # servers of shard 0 and shard 1 of 2


@pytest.fixture
async def simcord_bot(postgres_url: str) -> AsyncIterator[RommeBot]:
    """A bot running shard 0 of 2, over a database that already holds a lobby on each shard."""
    storage = await PostgresStorage.open(postgres_url, replay=replay_snapshot)
    service = TableService(storage, computer_delay=0)
    for guild, channel in ((MINE, 11), (OTHERS, 12)):
        await service.open_lobby(guild, channel, 5, "host")
    await service.close()
    await storage.close()
    bot = make_bot(postgres_url, shard_count=2, shard_ids="0")
    yield bot
    await bot.close()


async def test_a_sharded_bot_plays_only_its_shards_games(
    simcord_env: simcord.Env, simcord_bot: RommeBot, postgres_url: str
) -> None:
    assert isinstance(simcord_bot, commands.AutoShardedBot)
    assert (simcord_bot.shard_count, simcord_bot.shard_ids) == (2, [0])
    loaded = simcord_bot.tables.changes.games()
    assert [(game.guild_id, shard_of(game.guild_id, 2)) for game in loaded] == [(MINE, 0)]
    connection = await asyncpg.connect(postgres_url)
    try:
        leases = [tuple(row) for row in await connection.fetch("SELECT shard_id, owner FROM shard_leases")]
    finally:
        await connection.close()
    assert leases == [(0, lease_owner())]
    # A clean stop gives the lease back: another process may take the shard at once.
    await simcord_bot.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM shard_leases") == 0
    finally:
        await connection.close()


def test_some_shards_on_an_sqlite_file_are_refused() -> None:
    with pytest.raises(
        ConfigError, match=r"^SHARD_IDS runs only some of the 2 shards, which needs DATABASE_URL"
    ):
        load_settings({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, dotenv_path=None)
    with pytest.raises(ConfigError, match=r"^SHARD_IDS needs SHARD_COUNT"):
        Settings(shard_ids=cast(Any, "0"))  # Settings parses the string; its field names the parsed type
    with pytest.raises(ConfigError, match=r"^SHARD_COUNT must be a whole number 1 or more"):
        Settings(shard_count=0)
    # Every shard in one process is fine on a file (the file lock keeps it to one process).
    assert Settings(shard_count=2).shards == (0, 1)
    chosen = load_settings(
        {"DATABASE_URL": "postgresql://bot@db/romme", "SHARD_COUNT": "4", "SHARD_IDS": "1,3"},
        dotenv_path=None,
    )
    assert (chosen.shard_count, chosen.shards, chosen.database) == (4, (1, 3), "postgresql://bot@db/romme")
