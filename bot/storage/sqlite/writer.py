"""Group commit: every write that arrives while a transaction is being committed joins the next one.

One SQLite transaction costs (with ``synchronous = FULL``) an fsync; a busy bot with hundreds of
tables would spend its time waiting for the disk. The :class:`WriteQueue` owns one plain
:mod:`sqlite3` connection and the one thread that uses it. The thread takes every write waiting in
its inbox (up to :data:`MAX_BATCH`), runs each as a plain function inside a SAVEPOINT of one shared
transaction (a write alone in it needs none), commits, and only then answers the callers
(``loop.call_soon_threadsafe`` onto their futures). So:

- a caller's write is committed before its ``await`` returns (nothing is answered before it is on
  disk), and fails as a whole or not at all: an error in one write rolls back its savepoint only
  (a lone write's, the transaction), and a failed COMMIT fails every write of the batch (nothing
  of it is stored);
- a lone write is one trip to the thread (no per-statement hops), and N writes that arrive while a
  transaction commits share the next one: one fsync instead of N;
- no other connection ever sees half a transaction (SQLite's isolation).

A caller cancelled while its write is still queued drops it (nothing is written); once the batch
holding it has begun, the caller waits for the outcome (the file is the truth) and receives it,
and the cancellation is delivered at its next ``await``.

Why a thread of its own rather than aiosqlite's: aiosqlite's public methods cost one trip to its
thread per statement (a save is six of them, plus BEGIN and COMMIT), and running a whole batch as
one function on its thread needs its private queue. Reads need no batch: they use aiosqlite
(see :mod:`bot.storage.sqlite.store`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from bot.storage.errors import StorageError

T = TypeVar("T")

MAX_BATCH = 256
"""Writes in one transaction at most, so one batch cannot hold the next callers back for long."""

_CLAIM = threading.Lock()


@dataclass(eq=False)
class _Job(Generic[T]):
    """One caller's write: the function to run on the thread, and the future that gets its outcome."""

    work: Callable[[sqlite3.Connection], T]
    future: asyncio.Future[T]
    state: Literal["queued", "running", "dropped"] = "queued"
    ok: bool = False
    value: Any = None
    ready: asyncio.Future[None] | None = None
    """Set once the write's statements have run, before its COMMIT (or with its outcome)."""

    def claim(self, state: Literal["running", "dropped"]) -> bool:
        """Leave ``queued`` for ``state``; False if the writer thread or the caller was first."""
        with _CLAIM:
            if self.state != "queued":
                return False
            self.state = state
            return True

    def fail(self, error: BaseException) -> None:
        self.ok, self.value = False, error


@dataclass(eq=False)
class _Stop:
    """Tells the writer thread to close the connection and end, once what is before it is done."""

    done: asyncio.Future[None] | None


@dataclass(eq=False)
class _Chunk:
    """The writes one event loop handed over at once (at most ``max_batch``)."""

    loop: asyncio.AbstractEventLoop
    jobs: list[_Job[Any]]


@dataclass(eq=False)
class _Lane:
    """What the writer thread and the :class:`WriteQueue` share (the thread holds no queue itself,
    so a queue that is dropped without :meth:`WriteQueue.close` can still stop it)."""

    max_batch: int
    inbox: queue.SimpleQueue[_Chunk | _Stop] = field(default_factory=queue.SimpleQueue)
    lock: threading.Lock = field(default_factory=threading.Lock)
    open: bool = True
    transactions: int = 0

    def put(self, item: _Chunk | _Stop) -> bool:
        """Queue ``item`` for the thread; False (nothing queued) once the lane is closed."""
        with self.lock:
            if not self.open:
                return False
            if isinstance(item, _Stop):
                self.open = False
            self.inbox.put(item)
            return True


class WriteQueue:
    """The writes of one SQLite connection, committed in groups (see the module's docstring).

    Open it with :meth:`WriteQueue.open`, which starts the thread and makes the connection there.
    The writes of one turn of the event loop go to the thread together, and so do the ones that
    arrive while a transaction is being committed.

    >>> async def demo():
    ...     queue = await WriteQueue.open(lambda: sqlite3.connect(":memory:", isolation_level=None))
    ...     await queue.write(lambda c: c.execute("CREATE TABLE t (n INTEGER)"))
    ...     await asyncio.gather(*(queue.write(lambda c, n=n: c.execute("INSERT INTO t VALUES (?)", (n,)))
    ...                            for n in range(5)))
    ...     rows = await queue.write(lambda c: c.execute("SELECT COUNT(*) FROM t").fetchone()[0])
    ...     await queue.close()
    ...     return rows, queue.transactions
    >>> asyncio.run(demo())
    (5, 3)
    """

    def __init__(self, lane: _Lane, thread: threading.Thread) -> None:
        """Wrap a started writer thread; use :meth:`WriteQueue.open` instead."""
        self._lane = lane
        self._thread = thread
        self._pending: list[_Job[Any]] = []
        self._closing = False
        self._stopped: asyncio.Future[None] | None = None
        # Dropped without close(): the thread still closes its connection and ends.
        weakref.finalize(self, lane.put, _Stop(None))

    @classmethod
    async def open(
        cls, connect: Callable[[], sqlite3.Connection], *, max_batch: int = MAX_BATCH
    ) -> WriteQueue:
        """Start the writer thread and run ``connect()`` there; raise what it raises.

        The connection must be in autocommit mode (``isolation_level=None``): the queue says BEGIN
        and COMMIT itself.
        """
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, not {max_batch}")
        lane = _Lane(max_batch)
        opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        thread = threading.Thread(
            target=_serve, args=(lane, connect, opened), name="storage-writer", daemon=True
        )
        thread.start()
        try:
            await opened
        except asyncio.CancelledError:
            lane.put(_Stop(None))  # connected or not, the thread ends on its own
            raise
        return cls(lane, thread)

    @property
    def max_batch(self) -> int:
        """Writes in one transaction at most."""
        return self._lane.max_batch

    @property
    def transactions(self) -> int:
        """Transactions committed or tried so far (each holds one or more writes)."""
        return self._lane.transactions

    @property
    def closed(self) -> bool:
        """Whether the queue takes no more writes (:meth:`close` ran, or the thread ended)."""
        return self._closing or not self._lane.open

    @property
    def alive(self) -> bool:
        """Whether the writer thread runs and takes writes."""
        return not self.closed and self._thread.is_alive()

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work(connection)`` inside a transaction; return its value once that is committed.

        ``work`` runs on the writer thread: it must not touch the event loop, and must not end the
        transaction (no ``commit()``, ``rollback()`` or ``executescript()``, which commits first).
        Its exception (after its changes are rolled back) or the COMMIT's is raised here.
        """
        return await self.submit(work)

    def submit(
        self,
        work: Callable[[sqlite3.Connection], T],
        *,
        now: bool = False,
        ready: asyncio.Future[None] | None = None,
    ) -> Awaitable[T]:
        """Queue ``work`` as :meth:`write` does, at once (not when awaited), and return what to await
        for its value: so the caller can do other work on the loop while the thread commits.

        ``now``: hand it to the thread at once (with whatever this turn of the loop queued before
        it) rather than at the end of this turn of the loop; the thread still groups it with every
        write waiting when its transaction begins. ``ready`` (a future of the caller's loop) is set
        once the statements of the write's transaction have run, as its COMMIT (and its fsync)
        begins, or else with the outcome: work done on the loop from then on overlaps the fsync
        instead of holding up the statements (which need the interpreter's lock). Raises
        :class:`StorageError` once closed.
        """
        if self.closed:
            raise StorageError("the database is closed")
        loop = asyncio.get_running_loop()
        job: _Job[T] = _Job(work, loop.create_future(), ready=ready)
        self._pending.append(job)
        if now:
            self._hand_over(loop)
        elif len(self._pending) == 1:
            # Handed over at the end of this turn of the loop, with every write queued beside it.
            loop.call_soon(self._hand_over, loop)
        return self._outcome(job)

    async def _outcome(self, job: _Job[T]) -> T:
        """Wait for ``job``'s outcome (see :meth:`write` for what a cancellation does)."""
        try:
            return await asyncio.shield(job.future)
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
        return job.future.result()

    async def close(self) -> None:
        """Refuse new writes, wait until the queued ones are committed, and close the connection."""
        loop = asyncio.get_running_loop()
        self._closing = True
        if self._stopped is None:
            self._hand_over(loop)
            self._stopped = loop.create_future()
            if not self._lane.put(_Stop(self._stopped)):
                self._stopped.set_result(None)  # the thread had ended already
        await asyncio.shield(self._stopped)

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        jobs, self._pending = self._pending, []
        if not jobs:
            return  # handed over already (a write given ``now``)
        size = self._lane.max_batch
        for start in range(0, len(jobs), size):
            chunk = _Chunk(loop, jobs[start : start + size])
            if not self._lane.put(chunk):
                # The thread has ended (close() hands the pending writes over before it stops it).
                for job in chunk.jobs:
                    if job.claim("running"):
                        job.fail(StorageError("the database writer stopped"))
                _resolve(chunk.jobs)


def _serve(lane: _Lane, connect: Callable[[], sqlite3.Connection], opened: asyncio.Future[None]) -> None:
    """The writer thread: connect, then commit batches until told to stop."""
    try:
        conn = connect()
    except BaseException as exc:
        with lane.lock:
            lane.open = False
        _call_soon(opened.get_loop(), _settle, opened, exc)
        return
    _call_soon(opened.get_loop(), _settle, opened, None)
    stop: _Stop | None = None
    held: _Chunk | None = None  # taken from the inbox, but too big for the batch it came after
    try:
        while stop is None:
            if held is not None:
                item: _Chunk | _Stop = held
                held = None
            else:
                item = lane.inbox.get()
            if isinstance(item, _Stop):
                stop = item
                break
            # Everything that waits in the inbox joins this transaction, up to max_batch writes.
            chunks = [item]
            size = len(item.jobs)
            while size < lane.max_batch:
                try:
                    item = lane.inbox.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, _Stop):
                    stop = item
                    break
                if size + len(item.jobs) > lane.max_batch:
                    held = item
                    break
                chunks.append(item)
                size += len(item.jobs)
            lane.transactions += 1
            _run_batch(conn, [job for chunk in chunks for job in chunk.jobs])
            _tell(chunks)
    finally:
        with lane.lock:
            lane.open = False
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        # Only if this thread failed: nothing is queued after a stop (the lane refuses it).
        stranded = [held] if held is not None else []
        with contextlib.suppress(queue.Empty):
            while True:
                item = lane.inbox.get_nowait()
                if isinstance(item, _Chunk):
                    stranded.append(item)
                elif stop is None:
                    stop = item
        for chunk in stranded:
            for job in chunk.jobs:
                if job.claim("running"):
                    job.fail(StorageError("the database writer stopped"))
        _tell(stranded)
        if stop is not None and stop.done is not None:
            _call_soon(stop.done.get_loop(), _settle, stop.done, None)


def _run_batch(conn: sqlite3.Connection, batch: list[_Job[Any]]) -> None:
    """On the writer thread: one transaction, a savepoint per write (a lone write needs none: its
    failure rolls the whole transaction back), each job's outcome noted."""
    ran: list[_Job[Any]] = []
    alone = len(batch) == 1
    try:
        conn.execute("BEGIN IMMEDIATE")
        for job in batch:
            if not job.claim("running"):
                continue  # its caller gave up before it began: skipped, nothing written
            ran.append(job)
            if not alone:
                conn.execute("SAVEPOINT write")
            try:
                job.ok, job.value = True, job.work(conn)
            except Exception as exc:
                job.fail(exc)
                conn.execute("ROLLBACK" if alone else "ROLLBACK TO write")
            if not alone:
                conn.execute("RELEASE write")
        _signal_ready(batch)
        if conn.in_transaction:
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


def _tell(chunks: list[_Chunk]) -> None:
    """From the writer thread: hand the outcomes to the callers' event loops, one call for each."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Job[Any]]] = {}
    for chunk in chunks:
        by_loop.setdefault(chunk.loop, []).extend(chunk.jobs)
    for loop, jobs in by_loop.items():
        _call_soon(loop, _resolve, jobs)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    # A loop that is closed has no one left waiting.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _signal_ready(batch: list[_Job[Any]]) -> None:
    """From the writer thread: tell the callers who asked that the COMMIT begins."""
    for job in batch:
        if job.ready is not None:
            _call_soon(job.ready.get_loop(), _settle, job.ready, None)


def _resolve(batch: list[_Job[Any]]) -> None:
    for job in batch:
        if job.ready is not None and not job.ready.done():
            job.ready.set_result(None)
        if job.state == "dropped" or job.future.done():
            continue
        if job.ok:
            job.future.set_result(job.value)
        else:
            job.future.set_exception(job.value)
