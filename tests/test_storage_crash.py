"""A bot killed between (or during) saves loses no committed move and leaves a sound database
(an SQLite file, and a PostgreSQL database: the process dies with its transactions in flight)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import bot

# The child saves moves as fast as it can and prints each seq once save_game has returned, i.e.
# after COMMIT: whatever it printed must be on disk, whenever it is killed.
CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage import MoveEntry, Save
    from bot.storage.interface import open_database

    async def main(path):
        storage = await open_database(path)
        game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"moves": 0})
        n = 0
        while True:
            n += 1
            snapshot = {"moves": n, "padding": "x" * 2000}
            move = MoveEntry(seat=n % 4, user_id=3, move={"n": n})
            saved = await storage.save_game(Save(game_id, snapshot, "playing", expected_version=n, move=move))
            print(saved.seq, flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)
KILL_AFTER = 40  # committed moves seen before the kill
ROOT = Path(bot.__file__).resolve().parent.parent


def stored(database: str | Path) -> tuple[list[int], int, int]:
    """The logged seqs, the moves the snapshot counts and the version, read from the database."""
    if isinstance(database, str):
        return asyncio.run(_stored_postgres(database))
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        logged = [row[0] for row in db.execute("SELECT seq FROM moves ORDER BY seq")]
        moves_in_snapshot, version = db.execute(
            "SELECT json_extract(snapshot, '$.moves'), version FROM games"
        ).fetchone()
    return logged, moves_in_snapshot, version


async def _stored_postgres(url: str) -> tuple[list[int], int, int]:
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        logged = [row[0] for row in await db.fetch("SELECT seq FROM moves ORDER BY seq")]
        row = await db.fetchrow("SELECT (snapshot->>'moves')::int AS moves, version FROM games")
        assert row is not None
        return logged, row["moves"], row["version"]
    finally:
        await db.close()


def test_a_killed_process_loses_nothing_committed(database: str | Path) -> None:
    path = database
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    assert child.stdout is not None
    reported: list[int] = []
    deadline = time.monotonic() + 60
    try:
        while len(reported) < KILL_AFTER:
            line = child.stdout.readline()
            assert line, f"the child stopped early (status {child.poll()})"
            reported.append(int(line))
            assert time.monotonic() < deadline, "the child is too slow"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    # Lines it printed after the last one read were committed too.
    reported += [int(line) for line in child.stdout.read().split()]
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    logged, moves_in_snapshot, version = stored(path)
    assert set(reported) <= set(logged)
    # Snapshot and log were saved together: the log has no gap, and as many moves as the snapshot.
    assert logged == list(range(1, len(logged) + 1))
    assert moves_in_snapshot == len(logged) == version - 1
