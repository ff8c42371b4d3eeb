"""The health and metrics of a sharded bot on PostgreSQL (issue 26): its gateway shards and the
leases it holds, as ``/healthz`` and ``/metrics`` report them."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
import simcord
from discord.ext import commands

from bot.client import RommeBot
from tests.discord.test_health_and_metrics import free_port, get, samples, value
from tests.robustness.robust_helpers import make_bot


@pytest.fixture
async def simcord_bot(postgres_url: str) -> AsyncIterator[RommeBot]:
    """A bot running shard 1 of 2 on PostgreSQL, with its health server on."""
    bot = make_bot(postgres_url, shard_count=2, shard_ids="1", health_port=free_port())
    yield bot
    await bot.close()


async def test_a_sharded_bot_reports_its_shards_and_their_leases(
    simcord_env: simcord.Env, simcord_bot: RommeBot
) -> None:
    assert isinstance(simcord_bot, commands.AutoShardedBot)
    status, _, body = await get(simcord_bot, "/healthz")
    assert status == 200, body
    health = json.loads(body)
    assert health["shards"] == [1] and health["shard_leases"] == [1]
    assert health["database_answering"] and health["writer_alive"]  # the pool is open
    status, _, text = await get(simcord_bot, "/metrics")
    found = samples(text)
    assert value(found, "romme_shard_leases_held") == 1
    assert value(found, "romme_gateway_connected", shard="1") == 1
    assert ("romme_commits_total", frozenset()) in found  # the pool's write transactions
