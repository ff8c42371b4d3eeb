"""Crash: the bot process (``crash_child.py``: the real bot under SimCord, two tables being played,
moves saved all the time) is killed with SIGKILL at a random moment. Afterwards the database passes
``PRAGMA integrity_check``, every move whose click was answered is in the log, the logs have no
holes, and a new bot brings every unfinished game back from the file.

(``tests/test_storage_crash.py`` kills a process that only saves; this one kills the whole bot.)
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.service.game import Game
from bot.storage import Storage
from tests.robustness.robust_helpers import answered_moves

CHILD = Path(__file__).resolve().parent / "crash_child.py"
ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(database: Path, seed: int, answered_before_kill: int) -> list[tuple[int, int, int, int]]:
    """Start the bot process, let ``answered_before_kill`` moves be answered, wait a random moment
    (saves are going on), SIGKILL it; return every answered move it printed, even after that count."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(database), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    answered = []
    try:
        answered = answered_moves(child, answered_before_kill)  # as many as it says it answered
        time.sleep(random.Random(seed).uniform(0.0, 0.03))
    finally:
        child.send_signal(signal.SIGKILL)
        rest, _ = child.communicate(timeout=10)
    assert child.returncode == -signal.SIGKILL
    for line in rest.splitlines():
        # Printed before the kill, so answered: those count too.
        if line.startswith("ANSWERED") and len(line.split()) == 5:
            game, seq, version, user = map(int, line.split()[1:])
            answered.append((game, seq, version, user))
    assert len(answered) >= answered_before_kill, "the bot process did not play"
    return answered


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_killed_bot_keeps_every_answered_move_and_a_sound_database(tmp_path: Path, seed: int) -> None:
    database = tmp_path / "romme.db"
    answered = run_and_kill(database, seed, random.Random(seed).randint(20, 60))

    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        logged = {(g, s): u for g, s, u in db.execute("SELECT game_id, seq, user_id FROM moves")}
        versions = dict(db.execute("SELECT id, version FROM games"))
        for game in versions:
            seqs = sorted(s for g, s in logged if g == game)
            assert seqs == list(range(1, len(seqs) + 1)), f"a hole in the log of game {game}"
    for game, seq, version, user in answered:
        assert logged.get((game, seq)) == user, f"answered move {seq} of game {game} is not in the log"
        assert versions[game] >= version

    async def reload() -> None:
        storage = await Storage.open(database)
        try:
            for record in await storage.unfinished_games():
                game = Game.from_snapshot(record.snapshot)
                assert game.match is not None
                assert sum(len(h) for h in game.match.round.to_dict()["hands"]) > 0
        finally:
            await storage.close()

    asyncio.run(reload())
