"""The write queue on a real SQLite file: group commit, a savepoint per write, a COMMIT that fails,
callers cancelled while queued or while their group commits, closing, and opening that fails."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pytest

from bot.storage import StorageError
from bot.storage.sqlite.writer import WriteQueue
from tests.storage.conftest import TIMEOUT, CommitPause, Gate, committed, connect_to, insert, until

ROWS = "SELECT n FROM t ORDER BY n"


def numbers(path: Path) -> list[object]:
    return [row[0] for row in committed(path, ROWS)]


# ---------------------------------------------------------------- group commit


async def test_writes_that_arrive_while_a_transaction_commits_share_the_next_one(
    queue: WriteQueue, database_path: Path
) -> None:
    gate = Gate()
    held = await gate.hold(queue)
    before = queue.transactions
    writes = []
    for n in range(1, 7):  # over several turns of the loop, while the thread is busy
        writes.append(asyncio.create_task(queue.write(insert(n))))
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    assert not any(w.done() for w in writes)
    assert numbers(database_path) == []
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        assert await held == "gate"
        assert await asyncio.gather(*writes) == [1, 2, 3, 4, 5, 6]
    assert queue.transactions - before == 1  # all six in the one transaction after the gate's
    assert numbers(database_path) == [1, 2, 3, 4, 5, 6]


async def test_a_lone_write_is_committed_when_its_caller_returns(
    queue: WriteQueue, database_path: Path
) -> None:
    for n in range(1, 4):
        assert await queue.write(insert(n)) == n
        # Another connection sees it at once: it was committed before the await returned.
        assert numbers(database_path) == list(range(1, n + 1))


async def test_a_group_larger_than_max_batch_takes_several_transactions(database_path: Path) -> None:
    queue = await WriteQueue.open(connect_to(database_path), max_batch=4)
    await queue.write(lambda db: db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, note TEXT)"))

    async def group(turns: list[range]) -> int:
        """Queue the writes of each range in one turn of the loop, while the thread is held."""
        gate = Gate()
        held = await gate.hold(queue)
        before = queue.transactions
        writes = []
        for turn in turns:
            writes += [asyncio.create_task(queue.write(insert(n))) for n in turn]
            await asyncio.sleep(0.002)
        gate.release()
        async with asyncio.timeout(TIMEOUT):
            await held
            assert await asyncio.gather(*writes) == [n for turn in turns for n in turn]
        return queue.transactions - before

    assert queue.max_batch == 4
    assert await group([range(10)]) == 3  # 4 + 4 + 2
    assert await group([range(10, 13), range(13, 16), range(16, 17)]) == 2  # 3, then 3 + 1
    async with asyncio.timeout(TIMEOUT):
        await queue.close()
    assert numbers(database_path) == list(range(17))


def half_then_fail(taken: int) -> Callable[[sqlite3.Connection], int]:
    """A write that inserts row 20, then row ``taken`` (already there: refused), so it fails halfway."""

    def write(db: sqlite3.Connection) -> int:
        db.execute("INSERT INTO t (n) VALUES (20)")
        db.execute("INSERT INTO t (n) VALUES (?)", (taken,))
        return 20

    return write


async def test_a_failing_write_rolls_back_its_own_savepoint_only(
    queue: WriteQueue, database_path: Path
) -> None:
    gate = Gate()
    held = await gate.hold(queue)
    before = queue.transactions
    # Row 1 is written before it in the same transaction.
    writes = [asyncio.create_task(queue.write(w)) for w in (insert(1), half_then_fail(1), insert(3))]
    await asyncio.sleep(0.01)
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert outcomes[0] == 1 and outcomes[2] == 3
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert queue.transactions - before == 1
    assert numbers(database_path) == [1, 3]  # nothing of the failed write, not even row 20


async def test_a_lone_failing_write_leaves_nothing_and_the_next_one_works(
    queue: WriteQueue, database_path: Path
) -> None:
    # A write alone in its transaction has no savepoint of its own: its failure rolls back the
    # whole transaction, which holds nothing else (its own row 20 is what refuses the second one).
    before = queue.transactions
    async with asyncio.timeout(TIMEOUT):
        with pytest.raises(sqlite3.IntegrityError):
            await queue.write(half_then_fail(20))
        assert numbers(database_path) == []
        assert await queue.write(insert(3)) == 3
    assert queue.transactions - before == 2
    assert numbers(database_path) == [3]


# ---------------------------------------------------------------- a COMMIT that fails


async def orphan_table(queue: WriteQueue) -> None:
    """A child table whose foreign key is checked only at COMMIT (deferred): an orphan row passes
    every statement and its savepoint, and makes the COMMIT itself fail."""
    await queue.write(lambda db: db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)"))
    await queue.write(
        lambda db: db.execute(
            "CREATE TABLE child (parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)"
        )
    )


def orphan(db: sqlite3.Connection) -> str:
    db.execute("INSERT INTO child VALUES (99)")
    return "orphan"


async def test_a_failed_commit_fails_every_write_of_the_group_and_stores_none(
    queue: WriteQueue, database_path: Path
) -> None:
    await orphan_table(queue)
    gate = Gate()
    held = await gate.hold(queue)
    before = queue.transactions
    writes = [asyncio.create_task(queue.write(w)) for w in (insert(1), orphan, insert(3))]
    await asyncio.sleep(0.01)
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
    assert queue.transactions - before == 1
    for outcome in outcomes:
        assert isinstance(outcome, sqlite3.IntegrityError), outcome
        assert "FOREIGN KEY" in str(outcome)
    assert numbers(database_path) == []
    assert committed(database_path, "SELECT COUNT(*) FROM child") == [(0,)]
    # The transaction was rolled back: the connection takes the next write as usual.
    assert await queue.write(lambda db: db.in_transaction) is True  # inside the queue's own BEGIN
    assert await queue.write(insert(4)) == 4
    assert numbers(database_path) == [4]


async def test_a_write_that_failed_on_its_own_keeps_its_error_when_the_commit_fails(
    queue: WriteQueue,
) -> None:
    await orphan_table(queue)
    gate = Gate()
    held = await gate.hold(queue)

    def broken(db: sqlite3.Connection) -> None:
        raise KeyError("own error")

    writes = [asyncio.create_task(queue.write(w)) for w in (broken, orphan)]
    await asyncio.sleep(0.01)
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        own, commit = await asyncio.gather(*writes, return_exceptions=True)
    assert isinstance(own, KeyError)
    assert isinstance(commit, sqlite3.IntegrityError)


async def test_a_transaction_that_cannot_begin_fails_its_writes_and_the_next_one_works(
    database_path: Path,
) -> None:
    queue = await WriteQueue.open(connect_to(database_path, busy_timeout=0.05))
    await queue.write(lambda db: db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, note TEXT)"))
    other = sqlite3.connect(database_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        outcomes = await asyncio.gather(*(queue.write(insert(n)) for n in (1, 2)), return_exceptions=True)
        for outcome in outcomes:
            assert isinstance(outcome, sqlite3.OperationalError) and "locked" in str(outcome), outcome
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert await queue.write(insert(3)) == 3
    assert numbers(database_path) == [3]
    await queue.close()


# ---------------------------------------------------------------- cancelled callers


async def test_a_caller_cancelled_while_its_write_is_queued_writes_nothing(
    queue: WriteQueue, database_path: Path
) -> None:
    gate = Gate()
    held = await gate.hold(queue)
    writes = [asyncio.create_task(queue.write(insert(n))) for n in (1, 2, 3)]
    await asyncio.sleep(0.01)  # handed over to the thread, which is still in the gate
    writes[1].cancel()
    # One more, cancelled in the very turn it was queued (before it was handed over).
    late = asyncio.create_task(queue.write(insert(4)))
    await asyncio.sleep(0)
    late.cancel()
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await held
        outcomes = await asyncio.gather(*writes, late, return_exceptions=True)
    assert outcomes[0] == 1 and outcomes[2] == 3
    assert isinstance(outcomes[1], asyncio.CancelledError) and writes[1].cancelled()
    assert isinstance(outcomes[3], asyncio.CancelledError) and late.cancelled()
    assert numbers(database_path) == [1, 3]
    assert await queue.write(insert(5)) == 5


@pytest.mark.parametrize("commit_fails", [False, True], ids=["commit-ok", "commit-fails"])
async def test_a_caller_cancelled_while_its_group_commits_gets_the_files_outcome(
    queue: WriteQueue, database_path: Path, commit_fails: bool
) -> None:
    await orphan_table(queue)
    pause = CommitPause()
    await pause.install(queue)
    learned: list[object] = []
    went_on: list[object] = []

    async def caller() -> None:
        try:
            learned.append(await queue.write(insert(2)))
        except sqlite3.Error as exc:
            learned.append(exc)
        await asyncio.sleep(0)  # the cancellation is delivered here
        went_on.append(True)

    pause.arm()
    first = asyncio.create_task(queue.write(insert(1)))
    cancelled = asyncio.create_task(caller())
    last = asyncio.create_task(queue.write(orphan if commit_fails else insert(3)))
    await pause.wait()  # the whole group has run; its COMMIT has begun and not returned
    cancelled.cancel()
    await asyncio.sleep(0.005)
    cancelled.cancel()  # and again while it waits for the outcome
    await asyncio.sleep(0.005)
    assert not cancelled.done() and not first.done() and not last.done()
    assert numbers(database_path) == []  # not committed, so not answered
    pause.release()
    async with asyncio.timeout(TIMEOUT):
        outcomes = await asyncio.gather(first, last, return_exceptions=True)
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    assert went_on == []
    if commit_fails:
        assert all(isinstance(o, sqlite3.IntegrityError) for o in outcomes), outcomes
        assert len(learned) == 1 and isinstance(learned[0], sqlite3.IntegrityError)
        assert numbers(database_path) == []
    else:
        assert list(outcomes) == [1, 3] and learned == [2]
        assert numbers(database_path) == [1, 2, 3]  # the cancelled caller's write, whole
    assert await queue.write(insert(7)) == 7


async def test_many_cancelled_callers_leave_a_consistent_file(queue: WriteQueue, database_path: Path) -> None:
    """Writes of two rows each, a third of their callers cancelled at once or a little later:
    every write is there whole or not at all, every caller that got an answer got the truth."""
    import random

    shuffle = random.Random(7)

    def pair(n: int) -> Callable[[sqlite3.Connection], int]:
        def write(db: sqlite3.Connection) -> int:
            db.execute("INSERT INTO t (n, note) VALUES (?, 'a')", (n,))
            db.execute("INSERT INTO t (n, note) VALUES (?, 'b')", (n + 10_000,))
            return n

        return write

    loop = asyncio.get_running_loop()
    tasks = []
    for n in range(300):
        task = asyncio.create_task(queue.write(pair(n)))
        tasks.append(task)
        if shuffle.random() < 0.33:
            loop.call_later(shuffle.random() * 0.005, task.cancel)
        if n % 25 == 0:
            await asyncio.sleep(0.0005)
    async with asyncio.timeout(TIMEOUT):
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    rows = dict(cast("list[tuple[int, str]]", committed(database_path, "SELECT n, note FROM t")))
    answered = {n for n, o in enumerate(outcomes) if o == n}
    for n in range(300):
        assert (n in rows) == (n + 10_000 in rows), n  # both rows or neither
        if n in answered:
            assert n in rows
        else:
            assert isinstance(outcomes[n], asyncio.CancelledError)
    assert answered < set(range(300)) and answered <= {n for n in rows if n < 10_000}
    assert committed(database_path, "PRAGMA integrity_check") == [("ok",)]
    assert await queue.write(pair(500)) == 500


# ---------------------------------------------------------------- opening and closing


async def test_close_commits_what_is_queued_then_refuses_writes(database_path: Path) -> None:
    queue = await WriteQueue.open(connect_to(database_path))
    await queue.write(lambda db: db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY, note TEXT)"))
    writes = [asyncio.create_task(queue.write(insert(n))) for n in range(5)]
    await asyncio.sleep(0)  # queued, not yet handed over
    async with asyncio.timeout(TIMEOUT):
        await queue.close()
        assert await asyncio.gather(*writes) == list(range(5))
        await queue.close()  # twice is harmless
    assert queue.closed
    assert numbers(database_path) == list(range(5))
    with pytest.raises(StorageError, match="closed"):
        await queue.write(insert(9))
    # The connection is closed (the last one to close removes the WAL file), the thread ends.
    assert not database_path.with_name(database_path.name + "-wal").exists()
    queue._thread.join(TIMEOUT)
    assert not queue._thread.is_alive()


async def test_close_while_the_writer_is_busy_waits_for_every_queued_write(
    queue: WriteQueue, database_path: Path
) -> None:
    gate = Gate()
    held = await gate.hold(queue)
    writes = [asyncio.create_task(queue.write(insert(n))) for n in range(3)]
    await asyncio.sleep(0.01)
    closing = asyncio.create_task(queue.close())
    await asyncio.sleep(0.01)
    assert not closing.done()
    gate.release()
    async with asyncio.timeout(TIMEOUT):
        await closing
        assert await held == "gate"
        assert await asyncio.gather(*writes) == [0, 1, 2]
    assert numbers(database_path) == [0, 1, 2]


async def test_an_open_cancelled_while_connecting_ends_the_thread(database_path: Path) -> None:
    release = threading.Event()
    threads: list[threading.Thread] = []

    def slow_connect() -> sqlite3.Connection:
        threads.append(threading.current_thread())
        release.wait(TIMEOUT)
        return connect_to(database_path)()

    opening = asyncio.create_task(WriteQueue.open(slow_connect))
    await until(lambda: bool(threads))
    opening.cancel()
    with pytest.raises(asyncio.CancelledError):
        await opening
    release.set()
    await asyncio.to_thread(threads[0].join, TIMEOUT)
    assert not threads[0].is_alive()


async def test_a_failing_connect_is_raised_and_ends_the_thread(tmp_path: Path) -> None:
    before = threading.active_count()

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(tmp_path / "no" / "such" / "folder.db")

    with pytest.raises(sqlite3.OperationalError):
        await WriteQueue.open(connect)
    await until(lambda: threading.active_count() <= before)
    with pytest.raises(ValueError, match="max_batch"):
        await WriteQueue.open(connect, max_batch=0)


async def test_a_queue_dropped_without_close_stops_its_thread(database_path: Path) -> None:
    queue = await WriteQueue.open(connect_to(database_path))
    thread = queue._thread
    await queue.write(lambda db: db.execute("CREATE TABLE t (n INTEGER)"))
    del queue
    gc.collect()
    await asyncio.to_thread(thread.join, TIMEOUT)
    assert not thread.is_alive()
