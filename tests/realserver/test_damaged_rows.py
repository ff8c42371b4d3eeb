"""Issue 11, point 4: one damaged game row does not take the bot down.

A game whose snapshot cannot be read (a missing key, a newer snapshot format, an emptied round) is
set aside at start-up: marked damaged in the file, logged once with its id, its channel freed for a
new ``/romme start``; every other game comes back. The rows are damaged in the real SQLite file,
between two runs of the real bot under SimCord.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.discord.play_helpers import Room, begin, game_in, table_message, texts
from tests.realserver.hold_up import bot_on


def _drop_seats(snapshot: dict[str, Any]) -> None:
    del snapshot["seats"]


def _newer_format(snapshot: dict[str, Any]) -> None:
    snapshot["version"] = 99


def _empty_round(snapshot: dict[str, Any]) -> None:
    snapshot["match"]["round"] = {}


def damage(database: Path, game_id: int, how: Callable[[dict[str, Any]], None]) -> None:
    """Change the game's stored snapshot behind the bot's back (as a bad upgrade or a disk might)."""
    with sqlite3.connect(database) as db:
        (text,) = db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
        snapshot = json.loads(text)
        how(snapshot)
        db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), game_id))


async def test_damaged_games_are_set_aside_and_the_others_come_back(
    room: Room, database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = room.env
    guild = room.guild
    channels = [room.channel, *(guild.create_text_channel(f"romme-{n}") for n in range(2, 5))]
    ids = []
    for index, channel in enumerate(channels):
        # Ada opens four tables; three are started (they have a round), the last stays a lobby.
        result = await room.ada.slash(channel, "romme start", computers=1)
        assert result.response is not None
        if index < 3:
            await room.ada.click(result.response, label="Start")
        ids.append(game_in(env, channel).id)
    good = ids[3]
    old_bot = env.bot
    await old_bot.close()
    damage(database_path, ids[0], _drop_seats)
    damage(database_path, ids[1], _newer_format)
    damage(database_path, ids[2], _empty_round)

    new_bot = bot_on(database_path)
    try:
        with caplog.at_level(logging.WARNING):
            await env.restart_bot(new_bot)
        # The good game is back; the damaged ones are not in memory.
        assert game_in(env, channels[3]).id == good
        for damaged in ids[:3]:
            assert new_bot.tables.changes.find(damaged) is None
            # Logged once each, with its id.
            lines = [r.getMessage() for r in caplog.records if f"game {damaged}" in r.getMessage()]
            assert len(lines) == 1, lines
            assert "damaged" in lines[0]
        # Marked in the file: not open any more, and flagged with what was wrong.
        with sqlite3.connect(database_path) as db:
            rows = dict(db.execute("SELECT id, damaged FROM games WHERE damaged IS NOT NULL"))
            statuses = dict(db.execute("SELECT id, status FROM games"))
        assert sorted(rows) == ids[:3]
        assert all(statuses[damaged] not in ("lobby", "playing") for damaged in ids[:3])
        assert statuses[good] == "lobby"
        # The channels are free: Bob opens a new table where a damaged one was.
        for channel in channels[:3]:
            result = await room.bob.slash(channel, "romme start")
            assert result.response is not None and not result.ephemeral, texts(result.response)
            assert game_in(env, channel).host_id == room.bob.id
    finally:
        await new_bot.close()


async def test_a_second_restart_does_not_log_the_damaged_game_again(
    room: Room, database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = room.env
    await begin(room, room.bob)
    game_id = game_in(env, room.channel).id
    await env.bot.close()
    damage(database_path, game_id, _newer_format)
    for _ in range(2):
        bot = bot_on(database_path)
        await env.restart_bot(bot)
        await bot.close()
    lines = [r for r in caplog.records if f"game {game_id}" in r.getMessage()]
    assert len(lines) == 1


async def test_play_again_on_an_ended_game_that_cannot_be_read_is_refused_plainly(
    room: Room, database_path: Path
) -> None:
    env = room.env
    await begin(room, room.bob)
    game = game_in(env, room.channel)
    confirm = await room.ada.slash(room.channel, "romme stop")
    assert confirm.response is not None
    await room.ada.click(confirm.response, label="Stop the game")
    ended = table_message(env, game_in(env, room.channel))
    await env.bot.close()
    damage(database_path, game.id, _drop_seats)
    bot = bot_on(database_path)
    try:
        await env.restart_bot(bot)
        # The ended game is read from the file for Play again: refused in plain words, no apology.
        result = await room.bob.click(ended, label="Play again")
        assert result.response is not None and result.ephemeral
        assert "went wrong" not in texts(result.response)
        again = await room.bob.slash(room.channel, "romme start")
        assert again.response is not None and not again.ephemeral
    finally:
        await bot.close()
