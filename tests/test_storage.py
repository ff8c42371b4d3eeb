"""Storage on a real database: schema versions (SQLite), games, the move log, scores and statistics
(on both backends: the ``storage`` fixture is an SQLite file, then a PostgreSQL database)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    SCHEMA_VERSION,
    ChannelBusy,
    GameNotFound,
    MatchResult,
    MoveEntry,
    RoundScore,
    Save,
    Storage,
    StorageError,
    VersionConflict,
)
from tests.conftest import integrity_errors, raw_sql
from tests.storage import peek

GAME: dict[str, Any] = {"guild_id": 10, "channel_id": 20, "host_id": 30}
DRAW = {"kind": "draw", "source": "stock"}


def pragma(path: Path, name: str) -> object:
    with sqlite3.connect(path) as db:
        return db.execute(f"PRAGMA {name}").fetchone()[0]


# ---------------------------------------------------------------- opening the file


async def test_a_new_file_gets_every_migration(database_path: Path) -> None:
    storage = await Storage.open(database_path)
    await storage.close()
    assert pragma(database_path, "user_version") == SCHEMA_VERSION
    assert pragma(database_path, "journal_mode") == "wal"
    with sqlite3.connect(database_path) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "moves", "round_scores", "match_results", "player_stats"} <= tables


async def test_saving_an_unknown_game_writes_nothing(storage: Storage) -> None:
    with pytest.raises(GameNotFound):
        await storage.save_game(Save(999, {}, "playing", move=MoveEntry(0, 1, DRAW)))
    assert await storage.moves(999) == []


async def test_reopening_keeps_the_data_and_migrates_nothing_twice(database_path: Path) -> None:
    storage = await Storage.open(database_path)
    game_id = await storage.create_game(**GAME, snapshot={"turn": 0})
    await storage.save_game(Save(game_id, {"turn": 1}, "playing", move=MoveEntry(0, 30, DRAW)))
    await storage.close()

    storage = await Storage.open(database_path)
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.status, game.snapshot, game.version) == ("playing", {"turn": 1}, 2)
    assert [m.move for m in await storage.moves(game_id)] == [DRAW]
    await storage.close()
    assert pragma(database_path, "user_version") == SCHEMA_VERSION


async def test_a_newer_database_is_refused_with_one_clear_line(database_path: Path) -> None:
    with sqlite3.connect(database_path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StorageError) as caught:
        await Storage.open(database_path)
    message = str(caught.value)
    assert "\n" not in message
    assert str(database_path) in message
    assert "newer than this bot" in message


async def test_a_garbage_file_is_refused_with_one_clear_line(database_path: Path) -> None:
    database_path.write_bytes(b"this is not a database, it is a shopping list\n" * 100)
    with pytest.raises(StorageError) as caught:
        await Storage.open(database_path)
    assert "\n" not in str(caught.value)
    assert "not a readable SQLite database" in str(caught.value)


async def test_another_programs_database_is_refused(database_path: Path) -> None:
    with sqlite3.connect(database_path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StorageError, match="another program"):
        await Storage.open(database_path)


async def test_a_missing_folder_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open the database"):
        await Storage.open(tmp_path / "no" / "such" / "folder" / "romme.db")


async def test_a_closed_storage_says_so(database_path: Path) -> None:
    storage = await Storage.open(database_path)
    await storage.close()
    await storage.close()  # twice is harmless
    with pytest.raises(StorageError, match="closed"):
        await storage.unfinished_games()


# ---------------------------------------------------------------- games and the move log


async def test_one_open_game_per_channel(storage: Storage) -> None:
    first = await storage.create_game(**GAME, snapshot={})
    with pytest.raises(ChannelBusy) as caught:
        await storage.create_game(**GAME, snapshot={})
    assert caught.value.game_id == first
    # Once the first game is over the channel is free again.
    await storage.save_game(Save(first, {}, "finished"))
    second = await storage.create_game(**GAME, snapshot={})
    found = await peek.game_in_channel(storage, GAME["channel_id"])
    assert found is not None and found.id == second
    assert [g.id for g in await storage.unfinished_games()] == [second]


async def test_every_save_bumps_the_version_and_numbers_the_moves(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={"n": 0})
    results = [
        await storage.save_game(Save(game_id, {"n": n}, "playing", move=MoveEntry(n % 2, None, {"n": n})))
        for n in range(1, 4)
    ]
    assert [(r.version, r.seq) for r in results] == [(2, 1), (3, 2), (4, 3)]
    # A save without a move (a lobby change) bumps the version but logs nothing.
    assert (await storage.save_game(Save(game_id, {"n": 3}, "playing"))).seq is None
    moves = await storage.moves(game_id)
    assert [(m.seq, m.seat, m.user_id, m.move) for m in moves] == [
        (1, 1, None, {"n": 1}),
        (2, 0, None, {"n": 2}),
        (3, 1, None, {"n": 3}),
    ]
    assert [m.seq for m in await storage.moves(game_id, after=2)] == [3]


async def test_a_stale_save_is_refused_and_writes_nothing(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={"n": 0})
    await storage.save_game(
        Save(game_id, {"n": 1}, "playing", expected_version=1, move=MoveEntry(0, 30, DRAW))
    )
    with pytest.raises(VersionConflict) as caught:
        await storage.save_game(
            Save(game_id, {"n": 99}, "playing", expected_version=1, move=MoveEntry(1, 31, DRAW))
        )
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    game = await storage.get_game(game_id)
    assert game is not None and (game.snapshot, game.version) == ({"n": 1}, 2)
    assert len(await storage.moves(game_id)) == 1


async def test_a_move_the_log_refuses_leaves_the_snapshot_unchanged(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={"n": 0})
    await storage.save_game(Save(game_id, {"n": 1}, "playing", move=MoveEntry(0, 30, DRAW)))
    # The snapshot UPDATE runs first; the log row then breaks the seat >= 0 check.
    with pytest.raises(integrity_errors()):
        await storage.save_game(Save(game_id, {"n": 2}, "finished", move=MoveEntry(-1, 30, DRAW)))
    game = await storage.get_game(game_id)
    assert game is not None
    assert (game.snapshot, game.status, game.version) == ({"n": 1}, "playing", 2)
    assert [m.seq for m in await storage.moves(game_id)] == [1]


async def test_an_error_inside_the_transaction_rolls_everything_back(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={"n": 0})
    # The move is serialised after the snapshot is written; a value JSON cannot hold fails there.
    with pytest.raises(TypeError):
        await storage.save_game(Save(game_id, {"n": 1}, "playing", move=MoveEntry(0, 30, {"cards": {1, 2}})))
    game = await storage.get_game(game_id)
    assert game is not None and (game.snapshot, game.version) == ({"n": 0}, 1)
    assert await storage.moves(game_id) == []
    # The connection is usable afterwards: the rollback ended the transaction.
    assert (await storage.save_game(Save(game_id, {"n": 1}, "playing", move=MoveEntry(0, 30, DRAW)))).seq == 1


async def test_a_duplicate_round_score_rolls_back_the_whole_save(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={"n": 0})
    score = RoundScore(round_no=1, seat=0, user_id=30, melded=40, in_hand=0, score=40)
    with pytest.raises(integrity_errors()):
        await storage.save_game(
            Save(game_id, {"n": 1}, "playing", move=MoveEntry(0, 30, DRAW), round_scores=[score, score])
        )
    game = await storage.get_game(game_id)
    assert game is not None and game.version == 1
    assert await storage.moves(game_id) == [] and await storage.round_scores(game_id) == []


async def test_the_move_log_is_append_only(database: str | Path, storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={})
    await storage.save_game(Save(game_id, {}, "playing", move=MoveEntry(0, 30, DRAW)))
    with pytest.raises(integrity_errors(), match="append-only"):
        await raw_sql(database, "UPDATE moves SET seat = 1")
    assert [m.seat for m in await storage.moves(game_id)] == [0]


async def test_table_message_is_kept_without_a_version_bump(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={})
    await storage.set_table_message(game_id, 555)
    game = await storage.get_game(game_id)
    assert game is not None and (game.table_message_id, game.version) == (555, 1)
    with pytest.raises(GameNotFound):
        await storage.set_table_message(12345, 1)


async def test_bad_status_and_non_object_snapshot_are_refused(storage: Storage) -> None:
    with pytest.raises(ValueError, match="status"):
        await storage.create_game(**GAME, snapshot={}, status="paused")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="JSON object"):
        await storage.create_game(**GAME, snapshot=[1, 2])  # type: ignore[arg-type]
    assert await storage.unfinished_games() == []


# ---------------------------------------------------------------- scores and statistics


async def test_round_scores_come_back_in_order(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={})
    round_two = [RoundScore(2, 1, None, 10, 5, 5), RoundScore(2, 0, 30, 0, 20, -20)]
    await storage.save_game(Save(game_id, {}, "playing", round_scores=round_two))
    await storage.save_game(Save(game_id, {}, "playing", round_scores=[RoundScore(1, 0, 30, 35, 0, 35)]))
    assert [(s.round_no, s.seat, s.score) for s in await storage.round_scores(game_id)] == [
        (1, 0, 35),
        (2, 0, -20),
        (2, 1, 5),
    ]


async def test_match_results_add_up_per_server_and_count_once(storage: Storage) -> None:
    first = await storage.create_game(**GAME, snapshot={})
    results = [MatchResult(1, points=120, won=True, best_round=70), MatchResult(2, points=-15, won=False)]
    await storage.save_game(Save(first, {}, "playing", match_results=results))
    # Recording the same game again (a retry after a crash) changes nothing.
    await storage.save_game(Save(first, {}, "finished", match_results=results))

    second = await storage.create_game(**GAME, snapshot={})
    await storage.save_game(
        Save(
            second,
            {},
            "finished",
            match_results=[MatchResult(2, points=90, won=True, best_round=50), MatchResult(1, 10, False, 80)],
        )
    )
    one = await storage.player_record(GAME["guild_id"], 1)
    two = await storage.player_record(GAME["guild_id"], 2)
    assert one is not None and two is not None
    assert (one.matches_played, one.matches_won, one.points, one.best_round) == (2, 1, 130, 80)
    assert (two.matches_played, two.matches_won, two.points, two.best_round) == (2, 1, 75, 50)
    assert [s.user_id for s in await storage.leaderboard(GAME["guild_id"])] == [1, 2]
    assert await storage.player_record(GAME["guild_id"] + 1, 1) is None
    assert await storage.leaderboard(GAME["guild_id"] + 1) == []


async def test_the_leaderboard_ranks_wins_then_points_and_respects_the_limit(storage: Storage) -> None:
    game_id = await storage.create_game(**GAME, snapshot={})
    results = [
        MatchResult(1, 50, False),
        MatchResult(2, 10, True),
        MatchResult(3, 80, False),
        MatchResult(4, 5, True),
    ]
    await storage.save_game(Save(game_id, {}, "finished", match_results=results))
    assert [s.user_id for s in await storage.leaderboard(GAME["guild_id"])] == [2, 4, 3, 1]
    assert [s.user_id for s in await storage.leaderboard(GAME["guild_id"], limit=2)] == [2, 4]
