"""Issue 11, point 5: one database file, one bot.

A second bot process started on a file another bot process uses is refused at start with one line
and exit status 2; a killed bot does not block the next start. And a bot whose game was changed
in the file by someone else (a version conflict on save) reads the game again: the click gets a
clear "the game changed" answer and the next click works; the timers do not fail every 5 s.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.client import wall_clock
from bot.config import EXAMPLE_TOKEN
from bot.engine.moves import Move
from bot.service import TableService
from bot.service.game import replay_snapshot
from bot.storage import Storage
from tests.discord.play_helpers import Player, Room, begin, game_in, table_message, texts

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).resolve().parent / "second_process_child.py"


def start_child(database: Path) -> subprocess.Popen[str]:
    """A bot process on ``database`` that holds a lobby; returns once it printed READY."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(database)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if line.strip() != "READY":
        child.kill()
        _, err = child.communicate(timeout=10)
        raise AssertionError(f"the bot process did not start: {line!r} {err[-2000:]}")
    return child


def kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=10)


def run_romme_bot(database: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` as an admin starts it, with a token and DATABASE_PATH (no network needed:
    it must stop before connecting)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH")}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": EXAMPLE_TOKEN, "DATABASE_PATH": str(database)})
    return subprocess.run(
        [sys.executable, "-m", "bot"], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


@pytest.mark.slow
def test_a_second_process_on_the_same_file_is_refused_with_one_line(tmp_path: Path) -> None:
    database = tmp_path / "romme.db"
    first = start_child(database)
    try:
        second = run_romme_bot(database, tmp_path)
        assert second.returncode == 2, second.stderr[-2000:]
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert str(database) in lines[0] and "another" in lines[0]
        assert "Traceback" not in second.stderr
        # The first one still holds its lobby: the file was not touched by the refused start.
        assert first.poll() is None
    finally:
        kill(first)


@pytest.mark.slow
def test_a_killed_bot_does_not_block_the_next_start(tmp_path: Path) -> None:
    database = tmp_path / "romme.db"
    kill(start_child(database))
    # No stale lock: the next bot on the file starts and brings the lobby back.
    again = start_child(database)
    kill(again)


# ---------------------------------------------------------------------- overtaken in the file


async def other_process(database: Path) -> tuple[Storage, TableService]:
    """What another bot on the same file would hold: its own storage and table service."""
    storage = await Storage.open(database, replay=replay_snapshot)
    # Its clock is the bot's (SimCord's virtual one), so the deadlines in the file mean the same.
    service = TableService(storage, computer_delay=0, clock=wall_clock)
    await service.load()
    return storage, service


async def test_a_click_on_a_game_changed_in_the_file_is_answered_and_the_next_one_works(
    room: Room, database_path: Path
) -> None:
    env = room.env
    lobby = await room.ada.slash(room.channel, "romme start")
    assert lobby.response is not None
    game_id = game_in(env, room.channel).id
    storage, other = await other_process(database_path)
    try:
        # The other bot seats Bob: the file is one version ahead of this bot's memory.
        await other.join(game_id, room.bob.id, "bob")
    finally:
        await other.close()
        await storage.close()
    result = await room.ada.click(lobby.response, label="Add computer")
    assert result.response is not None
    answer = texts(result.response)
    assert "went wrong" not in answer
    assert "changed" in answer
    # This bot read the game again: Bob is seated, and the next click works.
    game = game_in(env, room.channel)
    assert [seat.name for seat in game.seats] == ["ada", "bob"]
    again = await room.ada.click(table_message(env, game), label="Add computer")
    assert again.acknowledged
    assert [seat.name for seat in game_in(env, room.channel).seats] == ["ada", "bob", "Computer 1"]


async def test_start_points_to_a_lobby_the_other_bot_holds(room: Room, database_path: Path) -> None:
    storage, other = await other_process(database_path)
    try:
        game = await other.open_lobby(room.guild.id, room.channel.id, room.bob.id, "bob")
        await other.set_table_message(game.id, 4242)  # the other bot posted its lobby
    finally:
        await other.close()
        await storage.close()
    result = await room.ada.slash(room.channel, "romme start")
    assert result.response is not None
    answer = texts(result.response)
    assert "already has a game" in answer and "/4242" in answer, answer


async def test_timers_of_a_game_changed_in_the_file_do_not_fail_every_5_seconds(
    room: Room, database_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    env = room.env
    await begin(room, room.bob, turn_timeout=30)
    ada, bob = Player(env, room.ada, room.channel), Player(env, room.bob, room.channel)
    game = game_in(env, room.channel)
    person = {0: ada, 1: bob}[game.to_play or 0]
    storage, other = await other_process(database_path)
    try:
        # The other bot plays the draw of the person on turn.
        seat = game.to_play
        assert seat is not None
        await other.play(game.id, person.actor.id, Move.draw("stock"))
    finally:
        await other.close()
        await storage.close()
    with caplog.at_level(logging.INFO):
        await env.advance_time(31)  # the turn timer of this bot fires on its old copy
        await env.advance_time(60)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    after = game_in(env, room.channel)
    # The game went on from what the file says: the draw stands and the timer played the turn.
    assert after.version > game.version + 1 or after.to_play != seat
