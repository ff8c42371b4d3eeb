"""A server's defaults and a member's preferences on both backends: none until saved, replaced
whole by the next save, kept across a restart (the storage closed and opened again), one server's
never another's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.game import replay_snapshot
from bot.storage.interface import Database, open_database


async def test_nothing_saved_reads_as_no_settings(storage: Database) -> None:
    assert await storage.guild_settings(1) == {}
    assert await storage.member_preferences(1) == {}


async def test_a_save_replaces_the_last_one_and_stays_with_its_server(storage: Database) -> None:
    await storage.save_guild_settings(1, {"jokers": 4, "language": "de"})
    await storage.save_guild_settings(1, {"jokers": 2})
    await storage.save_guild_settings(2, {"turn_timeout": 90})
    assert await storage.guild_settings(1) == {"jokers": 2}
    assert await storage.guild_settings(2) == {"turn_timeout": 90}
    await storage.save_member_preferences(7, {"cards": "text"})
    assert await storage.member_preferences(7) == {"cards": "text"}
    assert await storage.member_preferences(8) == {}


async def test_a_value_that_is_not_an_object_is_refused_before_it_is_sent(storage: Database) -> None:
    with pytest.raises(TypeError):
        await storage.save_guild_settings(1, [1])  # type: ignore[arg-type]
    assert await storage.guild_settings(1) == {}


async def test_settings_and_preferences_survive_a_restart(database: str | Path) -> None:
    first = await open_database(database, replay=replay_snapshot)
    await first.save_guild_settings(5, {"channels": [11, 12], "game_master_role": 99})
    await first.save_member_preferences(6, {"cards": "text", "sort": "rank"})
    await first.close()
    second = await open_database(database, replay=replay_snapshot)
    try:
        assert await second.guild_settings(5) == {"channels": [11, 12], "game_master_role": 99}
        assert await second.member_preferences(6) == {"cards": "text", "sort": "rank"}
    finally:
        await second.close()
