"""The PostgreSQL backend on a real server: its migrations, its one-line refusals (no server, a login
refused, a missing, foreign or newer database), a reopened database keeps its games, two processes'
worth of connections on one game (the row lock and the versions), and the shard leases."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import asyncpg
import pytest

from bot.storage import MoveEntry, Save, StorageError, VersionConflict
from bot.storage.postgres import PG_SCHEMA_VERSION, PostgresStorage, ShardTaken, pg_migrations, shown_url
from tests.conftest import raw_sql, with_database

GAME: dict[str, Any] = {"guild_id": 10, "channel_id": 20, "host_id": 30}
DRAW = {"kind": "draw", "source": "stock"}


async def fetchval(url: str, sql: str) -> object:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval(sql)
    finally:
        await connection.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def one_line(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and message, message
    return message


async def test_a_new_database_gets_every_migration_once(postgres_url: str) -> None:
    first = await PostgresStorage.open(postgres_url)
    game_id = await first.create_game(**GAME, snapshot={"n": 0})
    await first.save_game(Save(game_id, {"n": 1}, "playing", move=MoveEntry(0, 30, DRAW)))
    await first.close()
    assert await fetchval(postgres_url, "SELECT max(version) FROM romme_schema") == PG_SCHEMA_VERSION
    assert [m.version for m in pg_migrations()] == list(range(1, PG_SCHEMA_VERSION + 1))
    again = await PostgresStorage.open(postgres_url)
    try:
        game = await again.get_game(game_id)
        assert game is not None and (game.snapshot, game.version) == ({"n": 1}, 2)
        assert await fetchval(postgres_url, "SELECT count(*) FROM romme_schema") == 1
    finally:
        await again.close()


async def test_two_processes_opening_a_new_database_together_migrate_it_once(postgres_url: str) -> None:
    # The advisory lock: the second waits for the first's migrations, then finds nothing to do.
    opened = await asyncio.gather(*(PostgresStorage.open(postgres_url) for _ in range(3)))
    for storage in opened:
        await storage.close()
    assert await fetchval(postgres_url, "SELECT max(version) FROM romme_schema") == PG_SCHEMA_VERSION


async def test_a_newer_database_is_refused_with_one_line(postgres_url: str) -> None:
    (await PostgresStorage.open(postgres_url)).terminate()
    await raw_sql(postgres_url, f"UPDATE romme_schema SET version = {PG_SCHEMA_VERSION + 1}")
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(postgres_url)
    message = one_line(caught.value)
    assert "newer than this bot" in message and shown_url(postgres_url) in message


async def test_another_programs_database_is_refused(postgres_url: str) -> None:
    await raw_sql(postgres_url, "CREATE TABLE invoices (id integer)")
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(postgres_url)
    assert "another program" in one_line(caught.value)


async def test_an_unreachable_server_is_one_line() -> None:
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/romme"
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(url)
    assert "cannot reach the PostgreSQL server" in one_line(caught.value)


async def test_a_refused_login_is_one_line_without_the_password(postgres_database: str) -> None:
    url = postgres_database.replace("postgres@", "no_such_role:hunter2@", 1)
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(url)
    message = one_line(caught.value)
    assert "refused the login" in message and "no_such_role" in message
    assert "hunter2" not in message


async def test_a_missing_database_is_one_line(postgres_database: str) -> None:
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(with_database(postgres_database, "romme_no_such_database"))
    assert "does not exist" in one_line(caught.value)


async def test_two_storages_on_one_game_one_wins_the_version(postgres_url: str) -> None:
    """Two processes' storages save the same version of one game at once: the row lock lets one
    through; the other is refused with a version conflict and writes nothing."""
    one = await PostgresStorage.open(postgres_url)
    two = await PostgresStorage.open(postgres_url)
    try:
        game_id = await one.create_game(**GAME, snapshot={"n": 0})
        outcomes = await asyncio.gather(
            one.save_game(
                Save(game_id, {"n": 1}, "playing", expected_version=1, move=MoveEntry(0, 30, DRAW))
            ),
            two.save_game(
                Save(game_id, {"n": 2}, "playing", expected_version=1, move=MoveEntry(1, 31, DRAW))
            ),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["SaveResult", "VersionConflict"]
        assert [m.seq for m in await two.moves(game_id)] == [1]
        winner = next(o for o in outcomes if not isinstance(o, VersionConflict))
        assert winner.version == 2  # type: ignore[union-attr]
    finally:
        await one.close()
        await two.close()


async def test_the_saves_of_one_game_commit_in_the_order_they_were_started(postgres_url: str) -> None:
    storage = await PostgresStorage.open(postgres_url)
    try:
        game_id = await storage.create_game(**GAME, snapshot={"n": 0})
        pending = [
            storage.start_save(Save(game_id, {"n": n}, "playing", move=MoveEntry(0, 30, {"n": n})))
            for n in range(1, 31)
        ]
        results = [await save for save in pending]
        assert [r.seq for r in results] == list(range(1, 31))
        assert [m.move["n"] for m in await storage.moves(game_id)] == list(range(1, 31))
        game = await storage.get_game(game_id)
        assert game is not None and game.snapshot == {"n": 30} and game.version == 31
    finally:
        await storage.close()


async def test_a_shard_held_by_a_live_process_refuses_the_second_with_one_line(postgres_url: str) -> None:
    storage = await PostgresStorage.open(postgres_url)
    try:
        await storage.take_shards([0, 1], 4, owner="first", ttl=60)
        with pytest.raises(ShardTaken) as caught:
            await storage.take_shards([1, 2], 4, owner="second", ttl=60)
        message = one_line(caught.value)
        assert message.startswith("shard 1 is held by") and "first" in message
        # All or none: the refused call took shard 2 neither.
        assert [(lease.shard_id, lease.owner) for lease in await storage.leases()] == [
            (0, "first"),
            (1, "first"),
        ]
        # The holder renews its own; an expired lease is another's to take.
        assert await storage.renew_shards([0, 1], owner="first", ttl=60) == [0, 1]
        await raw_sql(postgres_url, "UPDATE shard_leases SET expires_at = now() - interval '1 second'")
        await storage.take_shards([1, 2], 4, owner="second", ttl=60)
        assert await storage.renew_shards([0, 1], owner="first", ttl=60) == [0]
        await storage.release_shards([1, 2], owner="second")
        assert [lease.shard_id for lease in await storage.leases()] == [0]
    finally:
        await storage.close()
