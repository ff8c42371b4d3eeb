"""Issue 25, points 1-3: whatever is damaged in one game's rows, the bot starts, the other games come
back exactly, and the damaged game is set aside (marked, logged once with its id, its channel
freed); move numbers come from the game's own counter, not from the rows present.

The real bot under SimCord on a real database (an SQLite file, then PostgreSQL): three tables are
played until each has moves logged after its snapshot (its tail), the bot is closed, one game's rows
are damaged behind its back (as an operator's tool, a partial restore or a downgrade might), and a
new bot starts on the same database.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import simcord

from bot.client import RommeBot
from bot.storage.postgres.store import numbered
from tests.robustness.robust_helpers import Hall, make_bot, tables

Damage = Callable[["Db", int], Awaitable[None]]


class Db:
    """Plain SQL on the test's database, beside the bot (``?`` placeholders on both backends)."""

    def __init__(self, database: str | Path) -> None:
        self.database = database

    @property
    def sqlite(self) -> bool:
        return not isinstance(self.database, str)

    async def run(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        if isinstance(self.database, str):
            connection = await asyncpg.connect(self.database)
            try:
                return [dict(row) for row in await connection.fetch(numbered(sql), *params)]
            finally:
                await connection.close()
        return await asyncio.to_thread(self._sqlite, sql, params)

    def _sqlite(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        db = sqlite3.connect(self.database)
        db.row_factory = sqlite3.Row
        try:
            # What the schema's CHECKs would refuse: as a tool writing the file behind SQLite's back.
            db.execute("PRAGMA ignore_check_constraints = ON")
            found = [dict(row) for row in db.execute(sql, params).fetchall()]
            db.commit()
            return found
        finally:
            db.close()

    async def marks(self, game_id: int) -> tuple[int, int]:
        """The game's snapshot mark and move counter (``snapshot_seq``, ``last_seq``)."""
        (row,) = await self.run("SELECT snapshot_seq, last_seq FROM games WHERE id = ?", game_id)
        return int(row["snapshot_seq"]), int(row["last_seq"])

    async def replace_move(self, game_id: int, seq: int, **columns: Any) -> None:
        """Write a logged move again with some columns changed (the log refuses an UPDATE)."""
        (row,) = await self.run("SELECT * FROM moves WHERE game_id = ? AND seq = ?", game_id, seq)
        await self.run("DELETE FROM moves WHERE game_id = ? AND seq = ?", game_id, seq)
        row.update(columns)
        names = ", ".join(row)
        await self.run(f"INSERT INTO moves ({names}) VALUES ({', '.join('?' * len(row))})", *row.values())


CHANNELS: dict[int, list[simcord.ChannelHandle]] = {}
"""The channels of the test's tables, by server (set by :func:`played_tables`)."""


@pytest.fixture
def simcord_bot(database: str | Path, bots: list[RommeBot]) -> RommeBot:
    bot = make_bot(database)
    bots.append(bot)
    return bot


async def played_tables(hall: Hall, db: Db, count: int = 3, *, tail: int = 2) -> list[int]:
    """``count`` tables (Ada and two computers each), played by the timers until every one has at
    least ``tail`` moves logged after its snapshot, and five moves in all."""
    env = hall.env
    channels = [*hall.channels, *(hall.guild.create_text_channel(f"romme-{n}") for n in range(count))][:count]
    ada = hall.person("ada")
    CHANNELS[hall.guild.id] = []
    ids = []
    for channel in channels:
        result = await ada.slash(channel, "romme start", computers=2)
        assert result.response is not None
        await ada.click(result.response, label="Start")
        CHANNELS.setdefault(hall.guild.id, []).append(channel)
        (game,) = [g for g in tables(env).changes.games() if g.channel_id == channel.id]
        ids.append(game.id)
    for _ in range(60):
        marks = [await db.marks(game_id) for game_id in ids]
        if all(last - covered >= tail and last >= 5 for covered, last in marks):
            return ids
        await env.advance_time(125)  # Ada's turn timer plays for her; the computers play theirs
    raise AssertionError(f"no tail after an hour of play: {marks}")


def memory(env: simcord.Env, ids: list[int]) -> dict[int, dict[str, Any]]:
    """The games' full state in the running bot (what a restart must bring back exactly)."""
    return {game_id: tables(env).get(game_id).to_snapshot() for game_id in ids}


async def restart(env: simcord.Env, database: str | Path, bots: list[RommeBot]) -> RommeBot:
    old = env.bot
    bot = make_bot(database)
    bots.append(bot)
    await env.restart_bot(bot)
    assert isinstance(old, RommeBot)
    await old.close()
    return bot


async def assert_set_aside(
    hall: Hall, db: Db, game_id: int, caplog: pytest.LogCaptureFixture, *words: str
) -> None:
    """The game is not in memory, marked damaged (naming ``words``) and closed in the database,
    logged once with its id, and its channel takes a new game."""
    env = hall.env
    assert tables(env).changes.find(game_id) is None
    (row,) = await db.run("SELECT status, damaged, channel_id FROM games WHERE id = ?", game_id)
    assert row["status"] == "cancelled" and row["damaged"], row
    for word in words:
        assert word in row["damaged"], row["damaged"]
    said = [r.getMessage() for r in caplog.records]
    lines = [line for line in said if f"game {game_id} " in line and "damaged" in line]
    assert len(lines) == 1 and "set aside" in lines[0], lines
    channel = next(c for c in CHANNELS[hall.guild.id] if c.id == row["channel_id"])
    result = await hall.person("bob").slash(channel, "romme start")
    assert result.response is not None and not result.ephemeral


async def _tail_created_at(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    await db.replace_move(game_id, last, created_at="last Tuesday, about noon")


async def _game_created_at(db: Db, game_id: int) -> None:
    await db.run("UPDATE games SET created_at = '1 Dec 2026 10:00' WHERE id = ?", game_id)


async def _move_cut_short(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    (row,) = await db.run("SELECT move FROM moves WHERE game_id = ? AND seq = ?", game_id, last)
    await db.replace_move(game_id, last, move=row["move"][: len(row["move"]) // 2])


async def _state_cut_short(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    await db.replace_move(game_id, last, state='{"game_version": 1')


async def _snapshot_cut_short(db: Db, game_id: int) -> None:
    await db.run("UPDATE games SET snapshot = substr(snapshot, 1, 200) WHERE id = ?", game_id)


async def _move_not_an_object(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    await db.replace_move(game_id, last, move="[]")


async def _tail_row_missing(db: Db, game_id: int) -> None:
    covered, _ = await db.marks(game_id)
    await db.run("DELETE FROM moves WHERE game_id = ? AND seq = ?", game_id, covered + 1)


async def _last_row_missing(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    await db.run("DELETE FROM moves WHERE game_id = ? AND seq = ?", game_id, last)


async def _unknown_snapshot_key(db: Db, game_id: int) -> None:
    (row,) = await db.run("SELECT snapshot FROM games WHERE id = ?", game_id)
    snapshot = json.loads(row["snapshot"])
    snapshot["table_colour"] = "green"  # a newer version's setting, after a downgrade
    await db.run("UPDATE games SET snapshot = ? WHERE id = ?", json.dumps(snapshot), game_id)


async def _unknown_state_key(db: Db, game_id: int) -> None:
    _, last = await db.marks(game_id)
    (row,) = await db.run("SELECT state FROM moves WHERE game_id = ? AND seq = ?", game_id, last)
    state = json.loads(row["state"])
    state["table_colour"] = "green"
    await db.replace_move(game_id, last, state=json.dumps(state))


DAMAGES: dict[str, tuple[Damage, bool, tuple[str, ...]]] = {
    # name: (damage, SQLite only (PostgreSQL's column types refuse it), words of the mark)
    "a logged move's time in another format": (_tail_created_at, True, ("cannot be read",)),
    "the game's time in another format": (_game_created_at, True, ("cannot be read",)),
    "a move's JSON cut short": (_move_cut_short, True, ("cannot be read",)),
    "a table state's JSON cut short": (_state_cut_short, True, ("cannot be read",)),
    "the snapshot's JSON cut short": (_snapshot_cut_short, True, ("cannot be read",)),
    "a move that is no JSON object": (_move_not_an_object, False, ("cannot be read",)),
    "a logged move missing after the snapshot": (_tail_row_missing, False, ("missing",)),
    "the last logged move missing": (_last_row_missing, False, ("missing",)),
    "an unknown key in the snapshot": (_unknown_snapshot_key, False, ("unknown game snapshot keys",)),
    "an unknown key in a logged table state": (_unknown_state_key, False, ("unknown game snapshot keys",)),
}


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGES))
async def test_one_damaged_game_is_set_aside_and_the_others_come_back_exactly(
    hall: Hall,
    database: str | Path,
    bots: list[RommeBot],
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:  # R13: a game read back is the game as its last save left it
    how, sqlite_only, words = DAMAGES[damage]
    db = Db(database)
    if sqlite_only and not db.sqlite:
        pytest.skip("PostgreSQL's column types refuse this damage")
    env = hall.env
    ids = await played_tables(hall, db)
    damaged, good = ids[1], [ids[0], ids[2]]
    before = memory(env, good)
    await env.bot.close()
    await how(db, damaged)

    with caplog.at_level(logging.WARNING):
        await restart(env, database, bots)
    assert memory(env, good) == before
    await assert_set_aside(hall, db, damaged, caplog, *words)


async def test_moves_pruned_under_the_snapshot_change_nothing_and_no_answered_move_vanishes(
    hall: Hall, database: str | Path, bots: list[RommeBot], caplog: pytest.LogCaptureFixture
) -> None:  # R13
    db = Db(database)
    env = hall.env
    # Every save with a snapshot, so that the snapshot covers every logged move when the bot stops.
    tables(env).changes.snapshot_every = 1
    ids = await played_tables(hall, db, count=2, tail=0)
    game_id = ids[0]
    await env.bot.close()
    covered, last = await db.marks(game_id)
    assert covered == last >= 5
    # An operator prunes the "old" rows: every move the snapshot already covers (here, all of them).
    await db.run("DELETE FROM moves WHERE game_id = ? AND seq <= ?", game_id, covered)
    with caplog.at_level(logging.WARNING):
        await restart(env, database, bots)
        assert tables(env).changes.find(game_id) is not None
        # The game goes on, moves logged after its snapshot again: numbered after its last move
        # (from its own counter), not after the rows left in the log.
        for _ in range(60):
            covered, now = await db.marks(game_id)
            if now >= last + 3 and now - covered >= 2:
                break
            await env.advance_time(125)
        logged = sorted(
            int(row["seq"]) for row in await db.run("SELECT seq FROM moves WHERE game_id = ?", game_id)
        )
        assert now - covered >= 2 and logged == list(range(last + 1, now + 1)), (last, covered, now, logged)
        # Every answered move is still there after another restart: the game comes back as it was.
        before = memory(env, ids)
        await restart(env, database, bots)
        assert memory(env, ids) == before
    assert not [r for r in caplog.records if "damaged" in r.getMessage()]


async def test_an_owed_announcement_of_a_damaged_game_is_left_and_the_bot_starts(
    hall: Hall, database: str | Path, bots: list[RommeBot], caplog: pytest.LogCaptureFixture
) -> None:  # R13: the other games come back exactly
    db = Db(database)
    env = hall.env
    ids = await played_tables(hall, db, count=2, tail=0)
    before = memory(env, ids)
    await env.bot.close()
    # A round-end announcement still owed whose game reads as JSON but not as a game this version
    # knows (a newer version's key, after a downgrade).
    payload = json.dumps({**before[ids[0]], "table_colour": "green"})
    await db.run(
        "INSERT INTO announcements (game_id, round_no, kind, payload) VALUES (?, ?, ?, ?)",
        ids[0],
        7,
        "round_end",
        payload,
    )
    with caplog.at_level(logging.WARNING):
        await restart(env, database, bots)
    assert memory(env, ids) == before
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    lines = [line for line in said if f"game {ids[0]}" in line and "round 7" in line]
    assert len(lines) == 1 and "cannot be shown" in lines[0], said
    # Left owed, never marked delivered: a later version that reads it still posts it.
    (row,) = await db.run("SELECT delivered_at FROM announcements WHERE game_id = ? AND round_no = 7", ids[0])
    assert row["delivered_at"] is None
