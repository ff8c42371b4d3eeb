"""A save without a snapshot (schema 4): the move is logged with its state, the stored snapshot
stays, and a game read back is the snapshot with the moves after it folded in by the owner's replay;
a replay that fails says so on the record. A real database each, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.storage import GameStatus, MoveEntry, MoveRecord, Save, VersionConflict
from bot.storage.interface import open_database


def count_moves(snapshot: dict[str, Any], moves: Sequence[MoveRecord]) -> dict[str, Any]:
    """A replay of a toy game: each move adds its ``n`` to ``total``, and its state is merged in."""
    folded = dict(snapshot)
    for move in moves:
        folded["total"] += move.move["n"]
        folded.update(move.state or {})
    return folded


async def test_moves_after_the_snapshot_are_replayed_onto_it(database: str | Path) -> None:
    storage = await open_database(database)
    try:
        game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"total": 0})
        entry = MoveEntry(seat=0, user_id=3, move={"n": 5}, state={"turn": 1})
        first = await storage.save_game(
            Save(game_id, None, GameStatus.PLAYING, expected_version=1, move=entry)
        )
        await storage.save_game(Save(game_id, None, "playing", move=MoveEntry(0, 3, {"n": 2}, {"turn": 2})))
        assert first.seq == 1
        # Without a replay: the snapshot as it was written; the moves are in the log with their state.
        plain = await storage.get_game(game_id)
        assert plain is not None and plain.snapshot == {"total": 0} and plain.version == 3
        assert plain.replayed == 0 and plain.status is GameStatus.PLAYING
        assert [(m.move, m.state) for m in await storage.moves(game_id)] == [
            ({"n": 5}, {"turn": 1}),
            ({"n": 2}, {"turn": 2}),
        ]
        # The replay is given when the storage opens, and stays: it is no setting to change later.
        with pytest.raises(AttributeError):
            storage.replay = count_moves  # type: ignore[misc]
        await storage.close()
        storage = await open_database(database, replay=count_moves)
        assert storage.replay is count_moves
        record = await storage.get_game(game_id)
        assert record is not None and record.snapshot == {"total": 7, "turn": 2} and record.replayed == 2
        assert [r.snapshot for r in await storage.unfinished_games()] == [{"total": 7, "turn": 2}]
        # A save with a snapshot includes every move before it: nothing is replayed after it, and
        # its own move needs no state.
        await storage.save_game(
            Save(game_id, {"total": 10}, "playing", move=MoveEntry(0, 3, {"n": 3}, {"turn": 3}))
        )
        record = await storage.get_game(game_id)
        assert record is not None and record.snapshot == {"total": 10} and record.replayed == 0
        assert (await storage.moves(game_id, after=2))[0].state is None
        # No snapshot and no move: nothing to keep; refused before it reaches the storage.
        with pytest.raises(ValueError, match="a save without a snapshot needs its move"):
            Save(game_id, None, "playing", expected_version=4)
        with pytest.raises(ValueError, match="status must be one of"):
            Save(game_id, {"total": 11}, "paused")  # type: ignore[arg-type]
        record = await storage.get_game(game_id)
        assert record is not None and record.version == 4
    finally:
        await storage.close()


async def test_a_replay_that_fails_is_said_on_the_record(database: str | Path) -> None:
    storage = await open_database(database)
    try:
        bad = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"total": 0})
        good = await storage.create_game(guild_id=1, channel_id=4, host_id=3, snapshot={"total": 1})
        await storage.save_game(Save(bad, None, "playing", move=MoveEntry(0, 3, {"no n": 1}, {})))
        await storage.save_game(Save(good, None, "playing", move=MoveEntry(0, 3, {"n": 1}, {})))
        await storage.close()
        storage = await open_database(database, replay=count_moves)
        records = {r.id: r for r in await storage.unfinished_games()}
        assert records[good].snapshot == {"total": 2} and records[good].replay_error is None
        assert records[bad].snapshot == {"total": 0} and records[bad].replayed == 0
        problem = records[bad].replay_error
        assert problem is not None and "KeyError" in problem
    finally:
        await storage.close()


async def test_ready_comes_before_the_commit_and_with_a_failure_too(database: str | Path) -> None:
    storage = await open_database(database)
    try:
        game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"total": 0})
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        pending = storage.start_save(
            Save(game_id, None, "playing", move=MoveEntry(0, 3, {"n": 1}, {})), now=True, ready=ready
        )
        await ready
        # The statements have run, the COMMIT is under way: the save's outcome has not come yet.
        saved = await pending
        assert saved.version == 2 and saved.seq == 1
        # A refused save (an old version) sets ready all the same, and raises where it is awaited.
        refused = loop.create_future()
        stale = storage.start_save(
            Save(game_id, None, "playing", expected_version=1, move=MoveEntry(0, 3, {"n": 1}, {})),
            ready=refused,
        )
        await refused
        with pytest.raises(VersionConflict):
            await stale
        assert [m.seq for m in await storage.moves(game_id)] == [1]
    finally:
        await storage.close()
