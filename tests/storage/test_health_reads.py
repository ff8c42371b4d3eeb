"""What the health check and the metrics read of the storage (bot/ops), on both backends: a cheap
read that answers, whether writes can go out, and the count of write transactions."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Save, StorageError
from bot.storage.interface import Database, open_database


async def test_an_open_storage_answers_and_counts_its_transactions(storage: Database) -> None:
    await storage.ping()
    assert storage.writer_alive
    before = storage.transactions
    game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"n": 0})
    await storage.save_game(Save(game_id, {"n": 1}, "playing", expected_version=1))
    assert storage.transactions - before == 2
    await storage.ping()  # reads count no transaction
    assert storage.transactions - before == 2


async def test_a_closed_storage_neither_answers_nor_writes(database: str | Path) -> None:
    storage = await open_database(database)
    await storage.close()
    assert not storage.writer_alive
    with pytest.raises(StorageError):
        await storage.ping()
