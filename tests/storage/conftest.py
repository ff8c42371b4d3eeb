"""Tools for the storage's tests: a real SQLite file, a way to hold the writer thread, and a way to
stop it at the very start of a COMMIT. Nothing of the part under test is replaced."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.storage.sqlite.writer import WriteQueue

TIMEOUT = 20.0
"""No test waits longer than this for anything: a hang fails the test instead of the run."""


def connect_to(path: Path, *, busy_timeout: float = 5.0) -> Callable[[], sqlite3.Connection]:
    """How the queue opens ``path``: autocommit, WAL, foreign keys on, FULL sync (as the bot does)."""

    def connect() -> sqlite3.Connection:
        db = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = FULL")
        return db

    return connect


def committed(path: Path, sql: str) -> list[tuple[object, ...]]:
    """What another connection to the file sees: only committed transactions."""
    db = sqlite3.connect(path)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


class Gate:
    """A write that holds the writer thread until :meth:`release`: what is queued meanwhile waits.

    ``await queue.write(gate)`` is not awaited by the tests directly; :meth:`hold` starts it.
    """

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()

    def __call__(self, db: sqlite3.Connection) -> str:
        self.entered.set()
        if not self.opened.wait(TIMEOUT):
            raise TimeoutError("the gate was never released")
        return "gate"

    async def hold(self, queue: WriteQueue) -> asyncio.Task[str]:
        """Start a write through the gate; return once the writer thread is inside it."""
        task = asyncio.create_task(queue.write(self))
        assert await asyncio.to_thread(self.entered.wait, TIMEOUT), "the writer never ran the gate"
        return task

    def release(self) -> None:
        self.opened.set()


class CommitPause:
    """Stops the writer thread at the start of its next COMMIT (SQLite's trace callback, which
    runs as a statement begins) until :meth:`release`: the batch has run, and is not committed."""

    def __init__(self) -> None:
        self.armed = threading.Event()
        self.reached = threading.Event()
        self.go = threading.Event()

    def trace(self, statement: str) -> None:
        if statement == "COMMIT" and self.armed.is_set():
            self.armed.clear()
            self.reached.set()
            self.go.wait(TIMEOUT)

    async def install(self, queue: WriteQueue) -> None:
        """Set the trace callback on the queue's own connection (it is armed by :meth:`arm`)."""
        await queue.write(lambda db: db.set_trace_callback(self.trace))

    def arm(self) -> None:
        self.reached.clear()
        self.go.clear()
        self.armed.set()

    async def wait(self) -> None:
        assert await asyncio.to_thread(self.reached.wait, TIMEOUT), "the writer never reached COMMIT"

    def release(self) -> None:
        self.go.set()


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition()`` holds (or fail after :data:`TIMEOUT`)."""
    async with asyncio.timeout(TIMEOUT):
        while not condition():
            await asyncio.sleep(0.001)


@pytest.fixture
async def queue(database_path: Path) -> AsyncIterator[WriteQueue]:
    """A write queue on a real file with a table ``t (n INTEGER PRIMARY KEY, note TEXT)``."""
    queue = await WriteQueue.open(connect_to(database_path))
    await queue.write(lambda db: db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, note TEXT)"))
    yield queue
    async with asyncio.timeout(TIMEOUT):
        await queue.close()


def insert(n: int, note: str = "") -> Callable[[sqlite3.Connection], int]:
    """A write that inserts row ``n`` and returns ``n``."""

    def write(db: sqlite3.Connection) -> int:
        db.execute("INSERT INTO t (n, note) VALUES (?, ?)", (n, note))
        return n

    return write
