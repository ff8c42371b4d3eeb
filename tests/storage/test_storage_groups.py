"""The storage on a real file when saves share a transaction: a COMMIT that fails, cancelled saves,
reads beside a commit, the writer's settings and the one GameStatus."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

import bot.storage
from bot.storage import (
    GAME_STATUSES,
    OPEN_STATUSES,
    GameStatus,
    MoveEntry,
    Save,
    SaveResult,
    Storage,
    StorageError,
)
from tests.storage import peek
from tests.storage.conftest import TIMEOUT, Gate, committed

GAME: dict[str, Any] = {"guild_id": 10, "host_id": 30}


@pytest.fixture
async def storage(database_path: Path) -> AsyncIterator[Storage]:
    storage = await Storage.open(database_path)
    yield storage
    async with asyncio.timeout(TIMEOUT):
        await storage.close()


async def games(storage: Storage, count: int) -> list[int]:
    return [await storage.create_game(**GAME, channel_id=100 + n, snapshot={"n": 0}) for n in range(count)]


def trap_seat(path: Path, seat: int) -> None:
    """From another connection: a move by ``seat`` adds a row whose foreign key (deferred) is
    broken, so the transaction holding that move fails at COMMIT, not at any statement before."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE trap (game_id INTEGER REFERENCES games (id) DEFERRABLE INITIALLY DEFERRED)")
        db.execute(
            f"CREATE TRIGGER trap_seat AFTER INSERT ON moves WHEN NEW.seat = {seat} "
            "BEGIN INSERT INTO trap VALUES (-NEW.game_id); END"
        )


async def test_a_failed_commit_fails_every_save_of_the_group_and_the_next_save_works(
    storage: Storage, database_path: Path
) -> None:
    ids = await games(storage, 3)
    trap_seat(database_path, 3)
    gate = Gate()
    held = await gate.hold(storage._writes)
    before = storage._writes.transactions
    saves = [
        asyncio.create_task(
            storage.save_game(Save(game_id, {"n": 1}, "playing", move=MoveEntry(seat, 30, {"n": 1})))
        )
        for game_id, seat in zip(ids, (0, 3, 1), strict=True)
    ]
    await asyncio.sleep(0.01)
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        outcomes = await asyncio.gather(*saves, return_exceptions=True)
    assert storage._writes.transactions - before == 1
    for outcome in outcomes:
        assert isinstance(outcome, sqlite3.IntegrityError) and "FOREIGN KEY" in str(outcome), outcome
    for game_id in ids:
        game = await storage.get_game(game_id)
        assert game is not None and (game.version, game.snapshot) == (1, {"n": 0})
        assert await storage.moves(game_id) == []
    assert committed(database_path, "SELECT COUNT(*) FROM trap") == [(0,)]
    saved = await storage.save_game(
        Save(ids[0], {"n": 1}, GameStatus.PLAYING, move=MoveEntry(0, 30, {"n": 1}))
    )
    assert saved == SaveResult(version=2, seq=1)
    assert committed(database_path, "PRAGMA integrity_check") == [("ok",)]


async def test_cancelled_saves_are_stored_whole_or_not_at_all(storage: Storage, database_path: Path) -> None:
    """Saves of eight games (each a snapshot, a move and a version bump), a third of them cancelled
    at once or up to a few milliseconds later: the log and the snapshots stay in step."""
    ids = await games(storage, 8)
    shuffle = random.Random(11)
    loop = asyncio.get_running_loop()
    saves: list[tuple[int, int, asyncio.Task[SaveResult]]] = []
    for n in range(240):
        game_id = ids[n % len(ids)]
        task = asyncio.create_task(
            storage.save_game(Save(game_id, {"last": n}, "playing", move=MoveEntry(n % 4, 30, {"n": n})))
        )
        saves.append((n, game_id, task))
        if shuffle.random() < 0.33:
            loop.call_later(shuffle.random() * 0.01, task.cancel)
        if n % 20 == 0:
            await asyncio.sleep(0.001)
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(*(task for _, _, task in saves), return_exceptions=True)
    logged = {
        game_id: [
            (seq, n)
            for seq, n in committed(
                database_path,
                f"SELECT seq, json_extract(move, '$.n') FROM moves WHERE game_id = {game_id} ORDER BY seq",
            )
        ]
        for game_id in ids
    }
    for game_id in ids:
        game = await storage.get_game(game_id)
        assert game is not None
        seqs = [seq for seq, _ in logged[game_id]]
        assert seqs == list(range(1, len(seqs) + 1))  # no gap
        assert game.version == len(seqs) + 1  # a bump for every logged move, none without
        if seqs:
            assert game.snapshot == {"last": logged[game_id][-1][1]}  # the last move's snapshot
    stored = {n for moves in logged.values() for _, n in moves}
    for n, game_id, task in saves:
        if not task.cancelled():
            result = task.result()
            assert n in stored and (result.seq, n) in logged[game_id]
    assert any(task.cancelled() for _, _, task in saves)
    assert committed(database_path, "PRAGMA integrity_check") == [("ok",)]


async def test_a_read_does_not_wait_for_a_transaction_being_written(storage: Storage) -> None:
    [game_id] = await games(storage, 1)
    gate = Gate()
    held = await gate.hold(storage._writes)
    save = asyncio.create_task(storage.save_game(Save(game_id, {"n": 1}, "playing")))
    async with asyncio.timeout(TIMEOUT / 4):
        game = await storage.get_game(game_id)  # the writer is busy: the read goes beside it
    assert game is not None and game.version == 1
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        assert (await save).version == 2
    game = await storage.get_game(game_id)
    assert game is not None and game.version == 2  # committed before save_game returned


async def test_the_writer_connection_syncs_fully_and_checks_foreign_keys(storage: Storage) -> None:
    def settings(db: sqlite3.Connection) -> tuple[object, ...]:
        return tuple(
            db.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("synchronous", "foreign_keys", "journal_mode")
        )

    assert await storage._writes.write(settings) == (2, 1, "wal")  # 2: FULL


async def test_a_folder_in_place_of_the_file_is_a_storage_error(tmp_path: Path) -> None:
    (tmp_path / "romme.db").mkdir()
    with pytest.raises(StorageError, match="cannot open the database") as caught:
        await Storage.open(tmp_path / "romme.db")
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- one GameStatus


async def test_game_status_members_and_strings_are_both_accepted(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, channel_id=1, snapshot={}, status=GameStatus.LOBBY)
    await storage.save_game(Save(game_id, {}, GameStatus.PLAYING))
    game = await storage.get_game(game_id)
    assert game is not None and game.status is GameStatus.PLAYING and cast(str, game.status) == "playing"
    await storage.save_game(Save(game_id, {}, "finished"))  # a plain string, as old snapshots hold it
    game = await storage.get_game(game_id)
    assert game is not None and game.status is GameStatus.FINISHED
    assert await peek.game_in_channel(storage, 1) is None
    other = await storage.create_game(**GAME, channel_id=1, snapshot={}, status="playing")
    assert [g.status for g in await storage.unfinished_games()] == [GameStatus.PLAYING]
    with pytest.raises(ValueError, match="status must be one of lobby, playing, finished, cancelled"):
        await storage.save_game(Save(other, {}, "paused"))  # type: ignore[arg-type]


def test_game_status_is_the_storages_one_enum() -> None:
    assert bot.storage.GameStatus is GameStatus
    assert [s.value for s in GAME_STATUSES] == ["lobby", "playing", "finished", "cancelled"]
    assert OPEN_STATUSES == (GameStatus.LOBBY, GameStatus.PLAYING)
    assert all(isinstance(s, GameStatus) and isinstance(s, str) for s in GAME_STATUSES)
