"""Group commit: every write that arrives while a transaction is being committed joins the next one.

One SQLite transaction costs a trip to the connection's thread and (with ``synchronous = FULL``) an
fsync; a busy bot with hundreds of tables would spend its time waiting for the disk. The
:class:`WriteQueue` runs each write as a plain function on the connection's thread, inside a
SAVEPOINT of a transaction shared with the writes queued beside it, and answers every caller only
after that transaction's COMMIT has returned. So:

- a caller's write is committed before its ``await`` returns (nothing is answered before it is on
  disk), and fails as a whole or not at all: an error in one write rolls back its savepoint only,
  and a failed COMMIT fails every write of the batch;
- a lone write is one trip to the thread (no per-statement hops), and N concurrent writes cost one
  fsync instead of N;
- a reader on the same connection never sees half a transaction: the whole batch is one function
  on the connection's single thread.

A caller cancelled while its write is still queued drops it (nothing is written); once the batch
holding it has begun, the caller waits for the outcome (the file is the truth) and receives it,
and the cancellation is delivered at its next ``await``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.storage.errors import StorageError

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], Any]

MAX_BATCH = 256
"""Writes in one transaction at most, so one batch cannot hold the next callers back for long."""

_CLAIM = threading.Lock()


@dataclass(eq=False)
class _Job:
    work: Work
    future: asyncio.Future[Any]
    state: Literal["queued", "running", "dropped"] = "queued"
    ok: bool = False
    value: Any = None

    def claim(self, state: Literal["running", "dropped"]) -> bool:
        """Leave ``queued`` for ``state``; False if the batch thread or the caller was first."""
        with _CLAIM:
            if self.state != "queued":
                return False
            self.state = state
            return True

    def fail(self, error: BaseException) -> None:
        self.ok, self.value = False, error


def in_worker(db: aiosqlite.Connection, work: Callable[[sqlite3.Connection], T]) -> asyncio.Future[T]:
    """Run ``work(connection)`` on the aiosqlite connection's own thread, in one trip.

    aiosqlite (pinned at 0.22.1) offers no public way to run several statements in one trip: its
    public methods each queue one call with ``_execute``, the same queue used here.
    """
    return db._execute(lambda: work(db._conn))  # type: ignore[no-any-return]


class WriteQueue:
    """The writes of one connection, committed in groups (see the module's docstring).

    >>> async def demo():
    ...     db = await aiosqlite.connect(":memory:", isolation_level=None)
    ...     queue = WriteQueue(db)
    ...     await queue.write(lambda c: c.execute("CREATE TABLE t (n INTEGER)"))
    ...     await asyncio.gather(*(queue.write(lambda c, n=n: c.execute("INSERT INTO t VALUES (?)", (n,)))
    ...                            for n in range(5)))
    ...     rows = await queue.read(lambda c: c.execute("SELECT COUNT(*) FROM t").fetchone())
    ...     await queue.close()
    ...     await db.close()
    ...     return rows[0], queue.transactions
    >>> asyncio.run(demo())
    (5, 2)
    """

    def __init__(self, db: aiosqlite.Connection, *, max_batch: int = MAX_BATCH) -> None:
        self._db = db
        self.max_batch = max_batch
        self._queue: list[_Job] = []
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        self.transactions = 0
        """Transactions committed or tried so far (each holds one or more writes)."""

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(connection)`` inside a transaction; return its value once that is committed.

        ``work`` runs on the connection's thread: it must not touch the event loop. Its exception
        (after its changes are rolled back) or the COMMIT's is raised here.
        """
        if self._closed:
            raise StorageError("the database is closed")
        loop = asyncio.get_running_loop()
        job = _Job(work, loop.create_future())
        self._queue.append(job)
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_batches(loop), name="storage-group-commit")
        try:
            return await asyncio.shield(job.future)  # type: ignore[no-any-return]
        except asyncio.CancelledError:
            if job.claim("dropped"):
                raise
        # The batch holding this write has begun: wait for what the file says, then report it.
        while not job.future.done():
            try:
                await asyncio.shield(job.future)
            except asyncio.CancelledError:
                continue
            except Exception:
                break
        task = asyncio.current_task()
        if task is not None:
            task.cancel()
        return job.future.result()  # type: ignore[no-any-return]

    async def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(connection)`` on the connection's thread, between transactions, in one trip."""
        if self._closed:
            raise StorageError("the database is closed")
        return await in_worker(self._db, work)

    async def close(self) -> None:
        """Refuse new writes and wait until the queued ones are committed."""
        self._closed = True
        writer = self._writer
        if writer is not None and not writer.done():
            await asyncio.shield(writer)

    async def _write_batches(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            while self._queue:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
                self.transactions += 1
                try:
                    await in_worker(self._db, lambda conn, batch=batch: _run_batch(conn, batch, loop))
                except Exception as exc:
                    # The trip never ran (the connection is closed): nothing of the batch was written.
                    for job in batch:
                        if job.claim("running"):
                            job.fail(StorageError(f"the database is closed ({exc})"))
                    _resolve(batch)
        finally:
            stranded, self._queue = self._queue, []
            for job in stranded:
                if job.claim("running"):
                    job.fail(StorageError("the database writer stopped"))
            _resolve(stranded)


def _run_batch(conn: sqlite3.Connection, batch: list[_Job], loop: asyncio.AbstractEventLoop) -> None:
    """On the connection's thread: one transaction, a savepoint per write, then tell the callers.

    The callers are told from here, not by the task that queued the batch, so an outcome is never
    lost even if that task is cancelled while it waits.
    """
    ran: list[_Job] = []
    try:
        conn.execute("BEGIN IMMEDIATE")
        for job in batch:
            if not job.claim("running"):
                continue  # its caller gave up before it began: skipped, nothing written
            ran.append(job)
            conn.execute("SAVEPOINT write")
            try:
                job.ok, job.value = True, job.work(conn)
            except Exception as exc:
                conn.execute("ROLLBACK TO write")
                job.fail(exc)
            conn.execute("RELEASE write")
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        for job in batch:
            if job.claim("running"):
                ran.append(job)
        for job in ran:
            if job.ok or job.value is None:
                job.fail(exc)
    finally:
        loop.call_soon_threadsafe(_resolve, batch)


def _resolve(batch: list[_Job]) -> None:
    for job in batch:
        if job.state == "dropped" or job.future.done():
            continue
        if job.ok:
            job.future.set_result(job.value)
        else:
            job.future.set_exception(job.value)
