"""Many bot processes on one PostgreSQL database: ``bench/load.py --processes N --database-url URL``.

Each process is ``bench/load.py``'s measurement (``load.measure``: the real bot under SimCord,
``--games`` tables of four computer seats, production delays), on the PostgreSQL database of the URL
instead of an SQLite file: N processes, each with its own tables (its own simulated Discord), all
saving into the same database on the same server (each in a schema of its own: the simulated
Discords make the same channel ids, which the database keeps unique among open games).
The processes open their tables, then wait; once every one is ready,
they measure the same ``--seconds`` together, and the database's commits in that time are read
from ``pg_stat_database`` (``xact_commit``) before and after. With ``--compare`` the runs are 1, 2,
…, N processes, and SQLite with one process, in one invocation, side by side.

Reported per process: tables, moves, moves/s, move p50/p99 (apply to commit), computer lag p99 and
peak RSS; in total: tables, moves/s, the database's commits/s, the worst p99. Each run uses a new
schema per process in the URL's database (dropped afterwards). ``ROMME_BENCH_POOL=N`` in the
environment sets each process's connection pool (default ``bot.storage.postgres.POOL_SIZE``).
The last line is one JSON object.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child_main(url: str, games: int, seconds: float, delay: float, seed: int, clicks: int) -> None:
    """One bot process: open the tables, print READY, wait for GO on stdin, measure, print JSON."""
    from bench import load
    from bench._common import quiet
    from bot import create_bot
    from bot.process import tune_gc
    from bot.storage.postgres import PostgresStorage

    quiet()
    tune_gc()
    if os.environ.get("ROMME_BENCH_POOL"):
        from bot.storage import postgres

        postgres.POOL_SIZE = int(os.environ["ROMME_BENCH_POOL"])  # connections per process
    # load.measure reads the SQLite writer's transaction count; here the storage counts its own.
    PostgresStorage._writes = property(lambda self: self)  # type: ignore[attr-defined]
    original = load.hosts_leave

    async def leave_then_wait(bot: Any, opened: Any, spread: float) -> None:
        # The tables are open and paused (their hosts still seated): ready. Once every process is,
        # the hosts leave and the computers play, in every process at once.
        print("READY", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await original(bot, opened, spread)

    load.hosts_leave = leave_then_wait  # type: ignore[assignment]

    async def run() -> dict[str, Any]:
        bot = create_bot(
            database_url=url, computer_delay=load.PAUSED, game_seed=seed, table_edit_interval=1.0
        )
        try:
            return await load.measure(bot, games, seconds, delay, clicks)
        finally:
            await bot.close()

    result = asyncio.run(run())
    print("RESULT " + json.dumps(result), flush=True)


async def _admin(url: str, *statements: str) -> list[Any]:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return [await connection.fetchval(statement) for statement in statements]
    finally:
        await connection.close()


async def _commits(url: str) -> int:
    (value,) = await _admin(
        url, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
    )
    return int(value)


def run_processes(
    url: str, processes: int, games: int, seconds: float, delay: float, seed: int
) -> dict[str, Any]:
    """N processes on a new schema of ``url``'s database, measured together."""
    # A schema per process in the one database: each process's simulated Discord makes the same
    # channel ids as the others' (SimCord's ids do not differ between processes), and the database
    # keeps one open game per channel, so the processes' tables must not meet. They share the
    # server, its write-ahead log, its fsyncs and its CPU: what the processes contend for.
    from bot.storage.postgres import PostgresStorage

    base = url.split("?", 1)[0]
    schemas = [f"bench_{os.getpid()}_{secrets.token_hex(3)}_{n}" for n in range(processes)]
    scoped = [f"{base}?search_path={schema}" for schema in schemas]

    async def prepare() -> None:
        await _admin(url, *(f"CREATE SCHEMA {schema}" for schema in schemas))
        for target in scoped:  # migrated before the processes start
            await (await PostgresStorage.open(target)).close()

    asyncio.run(prepare())
    # Started one after another (each opens its tables, then waits for GO), measured together.
    children: list[subprocess.Popen[str]] = []
    try:
        for n in range(processes):
            child = subprocess.Popen(
                [sys.executable, __file__, "--child", scoped[n], str(games), str(seconds), str(delay),
                 str(seed + n), "0"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )  # fmt: skip
            children.append(child)
            assert child.stdout is not None
            line = child.stdout.readline()
            if line.strip() != "READY":
                raise RuntimeError(f"a bot process did not get ready: {line!r}")
            time.sleep(0.01)
        before = asyncio.run(_commits(url))
        started = time.perf_counter()
        for child in children:
            assert child.stdin is not None
            child.stdin.write("GO\n")
            child.stdin.flush()
        results = []
        for child in children:
            assert child.stdout is not None
            for line in child.stdout:
                if line.startswith("RESULT "):
                    results.append(json.loads(line[len("RESULT ") :]))
                    break
        elapsed = time.perf_counter() - started
        after = asyncio.run(_commits(url))
    finally:
        for child in children:
            if child.poll() is None and child.stdin is not None and not child.stdin.closed:
                child.stdin.close()
            try:
                child.wait(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
        asyncio.run(_admin(url, *(f"DROP SCHEMA {schema} CASCADE" for schema in schemas)))
    # The commits were counted over the whole wait for the results, which is the measured seconds
    # and the few after them while the processes stop their tables.
    measured = max(r["seconds"] for r in results)
    return {
        "backend": "postgres",
        "processes": processes,
        "tables": sum(r["games"] for r in results),
        "moves_per_s": round(sum(r["moves_per_s"] for r in results), 1),
        "move_p99_ms": max(r["move_p99_ms"] for r in results),
        "db_commits_per_s": round((after - before) / elapsed, 1),
        "measured_s": measured,
        "per_process": [
            {
                "tables": r["games"],
                "moves_per_s": r["moves_per_s"],
                "move_p50_ms": r["move_p50_ms"],
                "move_p99_ms": r["move_p99_ms"],
                "lag_p99_ms": r["lag_p99_ms"],
                "rss_mb": r["rss_mb"],
            }
            for r in results
        ],
    }


def run_sqlite(games: int, seconds: float, delay: float, seed: int) -> dict[str, Any]:
    """One process on an SQLite file, as ``bench/load.py`` alone runs it (in a process of its own)."""
    with tempfile.TemporaryDirectory(prefix="romme-load-") as folder:
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "load.py"), "--games", str(games),
             "--seconds", str(seconds), "--computer-delay", str(delay), "--seed", str(seed), "--clicks", "0"],
            capture_output=True, text=True, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )  # fmt: skip
    r = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "backend": "sqlite",
        "processes": 1,
        "tables": r["games"],
        "moves_per_s": r["moves_per_s"],
        "move_p99_ms": r["move_p99_ms"],
        "db_commits_per_s": round(r["transactions"] / r["seconds"], 1) if r.get("transactions") else None,
        "measured_s": r["seconds"],
        "per_process": [
            {
                "tables": r["games"],
                "moves_per_s": r["moves_per_s"],
                "move_p50_ms": r["move_p50_ms"],
                "move_p99_ms": r["move_p99_ms"],
                "lag_p99_ms": r["lag_p99_ms"],
                "rss_mb": r["rss_mb"],
            }
        ],
    }


def main(
    processes: int, url: str, games: int, seconds: float, delay: float, seed: int, compare: bool
) -> dict[str, Any]:
    """Run and report (see the module's docstring)."""
    runs = []
    counts = range(1, processes + 1) if compare else [processes]
    for count in counts:
        runs.append(run_processes(url, count, games, seconds, delay, seed))
        print(json.dumps(runs[-1]), flush=True)
    if compare:
        runs.append(run_sqlite(games, seconds, delay, seed))
        print(json.dumps(runs[-1]), flush=True)
    result = {"games_per_process": games, "seconds": seconds, "computer_delay_s": delay, "runs": runs}
    print(json.dumps(result))
    return result


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--child":
    _, _, url, games, seconds, delay, seed, clicks = sys.argv
    child_main(url, int(games), float(seconds), float(delay), int(seed), int(clicks))
