"""The outbox of round and match ends on a real SQLite file: written with the move that ends the
round (one transaction), one per round, owed until marked delivered (on both backends), brought to
a schema-1 SQLite file by the migration ``0002_announcements.sql``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SCHEMA_VERSION, Announcement, GameStatus, MoveEntry, Save, Storage, VersionConflict
from bot.storage.interface import Database, open_database
from bot.storage.sqlite.schema import migrations
from tests.conftest import integrity_errors
from tests.storage import peek

GAME: dict[str, Any] = {"guild_id": 10, "channel_id": 20, "host_id": 30}
OUT = MoveEntry(seat=0, user_id=30, move={"kind": "discard", "card": "7H"})


async def new_game(storage: Database) -> int:
    """A game in play at version 1."""
    return await storage.create_game(**GAME, snapshot={"version": 1}, status=GameStatus.PLAYING)


def round_end(round_no: int, kind: str = "round_end") -> Announcement:
    """The announcement of a round's end, showing a snapshot that names the round."""
    return Announcement(kind=kind, round_no=round_no, payload={"round": round_no})  # type: ignore[arg-type]


async def test_the_announcement_is_saved_with_the_move_that_ends_the_round(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.save_game(
        Save(game, {"version": 1}, "playing", expected_version=1, move=OUT, announcements=[round_end(1)])
    )
    (owed,) = await storage.owed_announcements()
    assert (owed.game_id, owed.round_no, owed.kind, owed.payload) == (game, 1, "round_end", {"round": 1})
    assert not owed.delivered and owed.message_id is None
    assert [m.seq for m in await storage.moves(game)] == [1]


async def test_a_refused_save_owes_nothing(storage: Storage) -> None:
    game = await new_game(storage)
    with pytest.raises(VersionConflict):
        await storage.save_game(
            Save(game, {"version": 1}, "playing", expected_version=7, move=OUT, announcements=[round_end(1)])
        )
    assert await storage.owed_announcements() == []
    assert await storage.moves(game) == []


async def test_a_failing_transaction_owes_nothing(storage: Storage) -> None:
    """The announcement, the move and the snapshot are one transaction: an announcement the schema
    refuses (round 0 breaks its CHECK) takes the move and the new version with it."""
    game = await new_game(storage)
    with pytest.raises(integrity_errors()):
        await storage.save_game(
            Save(game, {"version": 1}, "playing", expected_version=1, move=OUT, announcements=[round_end(0)])
        )
    assert await storage.owed_announcements() == []
    assert await storage.moves(game) == []
    assert (await storage.get_game(game)).version == 1  # type: ignore[union-attr]


async def test_one_announcement_per_round_and_the_first_one_stays(storage: Storage) -> None:
    game = await new_game(storage)
    await storage.save_game(Save(game, {"version": 1}, "playing", announcements=[round_end(1)]))
    await storage.save_game(
        Save(game, {"version": 1}, "finished", announcements=[Announcement("match_end", 1, {"again": True})])
    )
    (owed,) = await storage.owed_announcements(game)
    assert (owed.kind, owed.payload) == ("round_end", {"round": 1})


async def test_a_delivered_announcement_is_owed_no_more_and_keeps_its_first_message(storage: Storage) -> None:
    game = await new_game(storage)
    other = await storage.create_game(**{**GAME, "channel_id": 21}, snapshot={"version": 1})
    await storage.save_game(Save(game, {"version": 1}, "playing", announcements=[round_end(1)]))
    await storage.save_game(Save(other, {"version": 1}, "playing", announcements=[round_end(1)]))
    await storage.save_game(Save(game, {"version": 1}, "finished", announcements=[round_end(2, "match_end")]))
    assert [(a.game_id, a.round_no) for a in await storage.owed_announcements()] == [
        (game, 1), (game, 2), (other, 1),
    ]  # fmt: skip
    assert await storage.announcement_delivered(game, 1, 555) is True
    assert await storage.announcement_delivered(game, 1, 666) is False  # a second delivery changes nothing
    record = await peek.announcement(storage, game, 1)
    assert record is not None and record.delivered and record.message_id == 555
    assert [(a.game_id, a.round_no) for a in await storage.owed_announcements()] == [(game, 2), (other, 1)]
    assert [a.round_no for a in await storage.owed_announcements(game)] == [2]
    assert await storage.announcement_delivered(game, 9, 1) is False  # nothing owed there


async def test_the_outbox_survives_closing_and_opening_the_file(database: str | Path) -> None:
    storage = await open_database(database)
    game = await new_game(storage)
    await storage.save_game(Save(game, {"version": 1}, "finished", announcements=[round_end(3, "match_end")]))
    await storage.close()
    storage = await open_database(database)
    try:
        (owed,) = await storage.owed_announcements()
        assert (owed.game_id, owed.round_no, owed.kind) == (game, 3, "match_end")
    finally:
        await storage.close()


async def test_a_schema_1_file_gets_the_outbox_and_keeps_its_games(database_path: Path) -> None:
    first = migrations()[0]
    assert first.version == 1 and SCHEMA_VERSION >= 2
    db = sqlite3.connect(database_path)
    db.executescript(f"BEGIN;\n{first.sql}\nPRAGMA user_version = 1;\nCOMMIT;")
    db.execute(
        "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot) "
        "VALUES (1, 2, 3, 'playing', '{}')"
    )
    db.commit()
    db.close()
    storage = await Storage.open(database_path)
    try:
        (record,) = await storage.unfinished_games()
        assert await storage.owed_announcements() == []
        await storage.save_game(Save(record.id, {}, "playing", announcements=[round_end(1)]))
        assert [a.round_no for a in await storage.owed_announcements()] == [1]
    finally:
        await storage.close()
    with sqlite3.connect(database_path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_deleting_a_game_deletes_what_it_owed(database_path: Path) -> None:
    storage = await Storage.open(database_path)
    game = await new_game(storage)
    await storage.save_game(Save(game, {"version": 1}, "playing", announcements=[round_end(1)]))
    await storage.close()
    with sqlite3.connect(database_path) as db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM games WHERE id = ?", (game,))
        assert db.execute("SELECT COUNT(*) FROM announcements").fetchone()[0] == 0
