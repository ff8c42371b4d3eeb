"""One database file, one bot process (issue 11, point 5): the lock on ``<database>.lock``.

Real processes on a real file: a second process is refused with one line naming the file and the
holder's pid; a killed holder (SIGKILL: nothing of it runs) leaves no stale lock; inside one process
the file may be opened again while it is open (a restart in place). A refused file gets no lock file
beside it (issue 26), and removing one never lets two processes hold the same database.
"""

from __future__ import annotations

import fcntl
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import SCHEMA_VERSION, Storage, StorageError
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
    assert_refused_elsewhere(database)
    await second.close()
    child = holder(database)  # now free
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)


@pytest.mark.parametrize("content", ["garbage", "another program", "newer"])
async def test_a_refused_file_leaves_no_lock_file_beside_it(tmp_path: Path, content: str) -> None:
    database = tmp_path / "notes.db"
    if content == "garbage":
        database.write_bytes(b"not a database, a shopping list\n" * 100)
    else:
        with sqlite3.connect(database) as db:
            if content == "another program":
                db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
            else:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = database.read_bytes()
    with pytest.raises(StorageError):
        await Storage.open(database)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.db"]  # no notes.db.lock
    # Left untouched, as the README says: not even switched to WAL mode (a change of its header).
    assert database.read_bytes() == before


async def test_a_refusal_keeps_a_lock_file_it_did_not_create(tmp_path: Path) -> None:
    database = tmp_path / "notes.db"
    database.write_bytes(b"not a database\n" * 100)
    lock_path(database).write_text("")  # left by an earlier bot: not this open's to remove
    with pytest.raises(StorageError, match="not a readable SQLite database"):
        await Storage.open(database)
    assert lock_path(database).exists()
    # A lock another process holds is never touched: the open is refused before reading the file.
    child = holder(tmp_path / "romme.db")
    try:
        with pytest.raises(DatabaseInUse):
            await Storage.open(tmp_path / "romme.db")
        assert lock_path(tmp_path / "romme.db").read_text().strip() == str(child.pid)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)


async def test_a_lock_file_removed_between_opening_and_locking_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process held the lock file, refused its database and removed the file after this one
    # opened it but before this one locked it: locking that orphaned file would let a third process
    # create a new lock file and run on the same database. The lock taken must be the one at the path.
    database = tmp_path / "romme.db"
    lock_path(database).write_text("")
    real_flock = fcntl.flock
    removed: list[Path] = []

    def flock_after_a_removal(fd: int, operation: int) -> None:
        if not removed:
            lock_path(database).unlink()
            removed.append(lock_path(database))
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", flock_after_a_removal)
    storage = await Storage.open(database)
    monkeypatch.undo()
    try:
        assert removed and lock_path(database).read_text().strip() == str(os.getpid())
        assert_refused_elsewhere(database)
    finally:
        await storage.close()


def assert_refused_elsewhere(database: Path) -> None:
    """Another process opening ``database`` is refused: this one still holds its lock."""
    probe = subprocess.run(
        [sys.executable, "-c", HOLDER.replace("3600", "0"), str(database)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert probe.returncode != 0 and "in use by another romme-bot process" in probe.stderr
