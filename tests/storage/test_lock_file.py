"""One database file, one bot process (issue 11, point 5): the lock on ``<database>.lock``.

Real processes on a real file: a second process is refused with one line naming the file and the
holder's pid; a killed holder (SIGKILL: nothing of it runs) leaves no stale lock; inside one process
the file may be opened again while it is open (a restart in place).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Storage, StorageError
from bot.storage.sqlite.lock import DatabaseInUse, lock_path

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import asyncio, sys
from bot.storage import Storage
async def main():
    storage = await Storage.open(sys.argv[1])
    print("READY", flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
"""


def holder(database: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(database)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "READY"
    return child


async def test_a_second_process_is_refused_and_a_killed_one_blocks_nothing(tmp_path: Path) -> None:
    database = tmp_path / "romme.db"
    child = holder(database)
    try:
        with pytest.raises(DatabaseInUse) as refused:
            await Storage.open(database)
        message = str(refused.value)
        assert "\n" not in message and str(database) in message and f"pid {child.pid}" in message
        assert isinstance(refused.value, StorageError)  # the command line's one line and exit 2
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    assert lock_path(database).exists()  # left behind by the killed process, and harmless:
    storage = await Storage.open(database)
    await storage.close()


async def test_one_process_may_open_the_file_twice_and_the_last_close_unlocks(tmp_path: Path) -> None:
    database = tmp_path / "romme.db"
    first = await Storage.open(database)
    second = await Storage.open(database)
    await first.close()
    await first.close()  # closing twice gives up one share only
    # Still held by `second`: another process is refused.
    probe = subprocess.run(
        [sys.executable, "-c", HOLDER.replace("3600", "0"), str(database)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert probe.returncode != 0 and "in use by another romme-bot process" in probe.stderr
    await second.close()
    child = holder(database)  # now free
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
