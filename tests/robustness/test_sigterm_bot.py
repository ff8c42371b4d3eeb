"""A graceful stop: the bot process (``sigterm_child.py``: the command line's :func:`~bot.__main__.serve`
with SimCord as Discord, two tables being played, moves saved all the time) gets SIGTERM, as
``docker stop`` sends it. It exits with status 0 after saving what was under way: every move whose
click was answered is in the log, every game in its memory is in the file at the same version (no
change made but not saved), the database is sound and its lock is released before the process ends
(another open of the file succeeds while the stopped process still lives), and a new bot brings
every unfinished game back.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.client import RommeBot
from bot.storage import Storage
from tests.robustness.robust_helpers import Hall, answered_moves, next_line, unfinished_games_come_back

CHILD = Path(__file__).resolve().parent / "sigterm_child.py"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_sigterm_saves_what_is_under_way_releases_the_lock_and_exits_0(tmp_path: Path, seed: int) -> None:
    database = tmp_path / "romme.db"
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(database), str(seed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    answered: list[tuple[int, ...]] = []
    stopped = None
    try:
        answered += answered_moves(child, 30)  # as many as it says it answered
        time.sleep(random.Random(seed).uniform(0.0, 0.03))  # saves are going on
        child.send_signal(signal.SIGTERM)
        while line := next_line(child):  # until it says it stopped (or its output ends)
            if line.startswith("ANSWERED") and len(line.split()) == 5:
                answered.append(tuple(map(int, line.split()[1:])))
            if line.startswith("STOPPED"):
                stopped = line.split(maxsplit=2)
                break
        assert stopped is not None, "the bot did not stop on SIGTERM"
        assert stopped[1] == "0"
        # The stopped process still lives, and the file is free: another bot may open it now.
        assert child.poll() is None
        in_memory = {int(game): version for game, version in json.loads(stopped[2]).items()}
        asyncio.run(unfinished_games_come_back(database))
        child.stdin.write("\n")
        child.stdin.flush()
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate(timeout=10)
    assert child.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    assert len(answered) >= 30, "the bot process did not play"

    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        logged = {(g, s): u for g, s, u in db.execute("SELECT game_id, seq, user_id FROM moves")}
        versions = dict(db.execute("SELECT id, version FROM games"))
    for game, seq, version, user in answered:
        assert logged.get((game, seq)) == user, f"answered move {seq} of game {game} is not in the log"
        assert versions[game] >= version
    # Nothing in memory was left unsaved: the file has every game at the version the bot had.
    assert in_memory and {game: versions[game] for game in in_memory} == in_memory


async def test_close_waits_for_a_change_under_way_before_closing_the_database(
    hall: Hall, simcord_bot: RommeBot, database_path: Path
) -> None:
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(hall.channels[0], "romme start")
    assert lobby.response is not None
    tables = simcord_bot.tables
    [game] = tables.changes.games()
    # Another change of the game holds its lock: Bob's join waits behind it, as a click would.
    held = tables.changes.lock(game.id)
    await held.acquire()
    joining = asyncio.ensure_future(tables.join(game.id, bob.id, "bob"))
    closing = asyncio.ensure_future(simcord_bot.close())
    for _ in range(50):
        await asyncio.sleep(0)
    assert not closing.done() and not simcord_bot.storage.closed, "the database closed under a change"
    held.release()
    await closing
    joined = await joining
    storage = await Storage.open(database_path)
    try:
        stored = await storage.get_game(game.id)
    finally:
        await storage.close()
    assert stored is not None and stored.version == joined.version
    assert [seat["user_id"] for seat in stored.snapshot["seats"]] == [ada.id, bob.id]
