"""The table message a publisher posts again is recorded through the service, under the game's lock."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.service import TableService
from bot.service.game import Game, GameStatus
from bot.storage import Storage

from .conftest import BOB, CHANNEL, GUILD, HOST, ServiceFactory


async def two_people(service: TableService) -> Game:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    return game


async def stored_message(storage: Storage, game_id: int) -> tuple[int | None, int]:
    record = await storage.get_game(game_id)
    assert record is not None
    return record.table_message_id, record.version


async def test_a_posted_table_message_waits_for_the_games_lock(
    make_service: ServiceFactory, storage: Storage
) -> None:
    service = await make_service(computer_delay=3600.0)
    game = await two_people(service)
    version = game.version
    async with service.changes.lock(game.id):
        posted = asyncio.create_task(service.table_posted(game, 777))
        for _ in range(20):
            await asyncio.sleep(0)
        # A change under way keeps the game as it is until it is done.
        assert not posted.done() and game.table_message_id is None
    await posted
    assert game.table_message_id == 777
    # Not a game change: the version stays, in memory and in the file.
    assert game.version == version and await stored_message(storage, game.id) == (777, version)


async def test_a_failed_write_keeps_the_posted_message(make_service: ServiceFactory, db_path: Path) -> None:
    # The message is in the channel: it stays the one edited, or every change would post (and ping) anew.
    service = await make_service(computer_delay=3600.0)
    game = await two_people(service)
    other = sqlite3.connect(db_path)
    other.execute(
        "CREATE TRIGGER refuse BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
    )
    other.commit()
    try:
        with pytest.raises(sqlite3.DatabaseError, match="disk says no"):
            await service.table_posted(game, 777)
    finally:
        other.close()
    assert game.table_message_id == 777


async def test_a_finished_game_read_from_storage_gets_its_message(
    make_service: ServiceFactory, storage: Storage
) -> None:
    first = await make_service(computer_delay=3600.0)
    game = await first.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await first.begin(game.id, HOST)
    await first.stop(game.id, HOST, can_manage=False)
    # A service started later keeps no finished game in memory: it reads it from the storage.
    later = await make_service(computer_delay=3600.0)
    copy = await later.fetch(game.id)
    assert copy.status is GameStatus.FINISHED and later.changes.find(game.id) is None
    await later.table_posted(copy, 888)
    assert copy.table_message_id == 888
    assert (await stored_message(storage, game.id))[0] == 888
    assert (await later.fetch(game.id)).table_message_id == 888
