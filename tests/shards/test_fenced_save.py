"""Issue 25, point 10: a stalled process's save, refused because another process took its shard
over (the fence), is one WARNING line without a traceback, and the person whose click it was gets a
short answer in their language: the table moved to another process, try again.

The real bot under SimCord on PostgreSQL with its shard leases; the take-over is what another
process's start does to the lease rows once they expired (a new owner and a new epoch).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import asyncpg
import pytest
import simcord

from bot.client import RommeBot
from bot.i18n import t
from bot.playground.session import interaction_locales
from tests.discord.play_helpers import game_in, texts
from tests.robustness.robust_helpers import Hall, make_bot


@pytest.fixture
async def simcord_bot(postgres_url: str) -> AsyncIterator[RommeBot]:
    bot = make_bot(postgres_url, shard_count=2, shard_ids="0-1")
    yield bot
    await bot.close()


@pytest.mark.parametrize("locale", ["en-US", "de", "id"])
async def test_a_fenced_save_is_one_warning_and_a_short_answer_in_the_players_language(
    simcord_env: simcord.Env, postgres_url: str, caplog: pytest.LogCaptureFixture, locale: str
) -> None:
    hall = Hall.build(simcord_env)
    ada, bob = hall.person("ada"), hall.person("bob")
    channel = hall.channels[0]
    lobby = await ada.slash(channel, "romme start")
    assert lobby.response is not None
    game = game_in(simcord_env, channel)
    version = game.version
    # Another process takes the shards over while this one is stalled (it has not noticed yet).
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute(
            "UPDATE shard_leases SET owner = 'elsewhere pid 1', epoch = nextval('shard_lease_epochs')"
        )
    finally:
        await connection.close()
    with caplog.at_level(logging.INFO), interaction_locales({bob.id: locale}):
        result = await bob.click(lobby.response, label="Join")
    assert result.response is not None and result.ephemeral
    language = locale.split("-")[0]
    assert texts(result.response).strip().endswith(t("error.game.moved", language))
    # Nothing was written, and the game in memory is as it was saved.
    assert game.version == version and [seat.user_id for seat in game.seats] == [ada.id]
    connection = await asyncpg.connect(postgres_url)
    try:
        stored = await connection.fetchrow("SELECT version, snapshot FROM games WHERE id = $1", game.id)
    finally:
        await connection.close()
    assert stored is not None and stored["version"] == version
    # One warning line naming the game, no traceback, nothing at ERROR about the save.
    about = [r for r in caplog.records if f"game {game.id} is not saved" in r.getMessage()]
    assert len(about) == 1 and about[0].levelno == logging.WARNING and about[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info is not None]
