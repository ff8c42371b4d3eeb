"""Many bot processes on one PostgreSQL database: ``bench/load.py --processes N --database-url URL``.

Each process is ``bench/load.py``'s measurement (``load.measure``: the real bot under SimCord,
``--games`` tables of four computer seats, production delays), on the PostgreSQL database of the URL
instead of an SQLite file: N processes, each with its own tables (its own simulated Discord), all
saving into the same database on the same server (each in a schema of its own: the simulated
Discords make the same channel ids, which the database keeps unique among open games).

The processes are started one after another; each opens its tables (the computers paused) and
waits. Once every one is ready they are told to go together: the hosts leave their tables over
``--computer-delay`` seconds, each leave a task of its own (people leave independently: one
host's leave does not wait for the leaves before it, which behind the saves of the tables already
playing took minutes once 1,000 tables played), and then every process measures ``--seconds``.
The measured window is the time from the last process starting its measurement to the last one
ending it; in it are read the database's commits (``pg_stat_database.xact_commit``: read
transactions count too), the CPU seconds of the PostgreSQL server's processes and of the whole
machine (``/proc/stat``), and the load average. With ``--compare`` the runs are 1, 2, …, N
processes, and then one process on an SQLite file measured the same way, in one invocation.

Reported per process: tables, moves, moves/s, move p50/p99 (apply to commit), computer lag p99,
peak RSS and the process's CPU seconds in its measured time (``cpu_s``; all its threads); in total:
tables, moves/s (and the moves/s that keeping up would need: 2/3 a table), the worst p99, the
database's commits/s, the server's CPU seconds, the CPU milliseconds per move of the bots and of
the server, the cores the bench kept busy and those busy with other work. Each run uses a new schema
per process in the URL's database (dropped afterwards). The processes run no shards, so they
take no leases and their saves are not fenced. A ``pool_size`` in the URL
(``…/romme?pool_size=20``) sets each process's connection pool, as for the bot. The last line is
one JSON object.
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
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child_main(target: str, games: int, seconds: float, delay: float, seed: int, clicks: int) -> None:
    """One bot process on ``target`` (a PostgreSQL URL, or an SQLite file's path): open the tables,
    print READY, wait for GO on stdin, measure (printing MEASURING and MEASURED around the measured
    time, and waiting for a line on stdin after it), print RESULT and the figures as JSON."""
    from bench import load
    from bench._common import quiet
    from bot import create_bot
    from bot.process import tune_process

    quiet()
    tune_process()
    postgres = target.startswith(("postgresql://", "postgres://"))
    if postgres:
        from bot.storage.postgres import PostgresStorage

        # load.measure reads the SQLite writer's transaction count; here the storage counts its own.
        PostgresStorage._writes = property(lambda self: self)  # type: ignore[attr-defined]
    cpu: dict[str, float] = {}

    async def leave_then_wait(bot: Any, opened: Any, spread: float) -> None:
        # The tables are open and paused (their hosts still seated): ready. Once every process is,
        # the hosts leave and the computers play, in every process at once.
        print("READY", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        service, publisher = load.tables(bot), bot.publisher
        began = time.perf_counter()

        async def leave(n: int, game_id: int, host_id: int) -> None:
            await asyncio.sleep(max(0.0, began + spread * n / len(opened) - time.perf_counter()))
            publisher.update(await service.leave(game_id, host_id))

        await asyncio.gather(*(leave(n, game_id, host_id) for n, (game_id, host_id) in enumerate(opened)))

    class Window(load.GcPauses):
        """load.measure's collector timing spans exactly the measured time: so does the CPU count."""

        def __enter__(self) -> load.GcPauses:
            print("MEASURING", flush=True)
            cpu["start"] = time.process_time()
            return super().__enter__()

        def __exit__(self, *exc: object) -> None:
            cpu["cpu_s"] = time.process_time() - cpu["start"]
            print("MEASURED", flush=True)
            # Held until the parent has read the server's figures: its connections are still open.
            sys.stdin.readline()
            super().__exit__(*exc)

    load.hosts_leave = leave_then_wait
    load.GcPauses = Window  # type: ignore[misc]

    async def run(folder: str) -> dict[str, Any]:
        where: dict[str, Any] = (
            {"database_url": target} if postgres else {"database_path": Path(folder) / target}
        )
        bot = create_bot(**where, computer_delay=load.PAUSED, game_seed=seed, table_edit_interval=1.0)
        try:
            return await load.measure(bot, games, seconds, delay, clicks)
        finally:
            await bot.close()

    with tempfile.TemporaryDirectory(prefix="romme-load-") as folder:
        result = asyncio.run(run(folder))
    result["cpu_s"] = round(cpu["cpu_s"], 2)
    print("RESULT " + json.dumps(result), flush=True)


async def _connect(url: str) -> Any:
    import asyncpg

    return await asyncpg.connect(url)


async def _admin(url: str, *statements: str) -> list[Any]:
    connection = await _connect(url)
    try:
        return [await connection.fetchval(statement) for statement in statements]
    finally:
        await connection.close()


async def _commits(url: str) -> int:
    (value,) = await _admin(
        url, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
    )
    return int(value)


def _ticks(pids: list[int]) -> dict[int, float]:
    """The CPU seconds (user + system) each of these processes has used so far (one gone: left out)."""
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return used


async def _server_pids(url: str) -> list[int]:
    """The server processes that work for this database: its connections (the bots' pools and
    heartbeats) and the server's own (the WAL writer, the checkpointer, …); not the connections to
    other databases on the same server (other people's tests, on a shared machine)."""
    connection = await _connect(url)
    try:
        rows = await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "OR backend_type <> 'client backend'"
        )
    finally:
        await connection.close()
    return [int(row["pid"]) for row in rows]


def _machine() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far (``/proc/stat``, every core)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values) - idle) / os.sysconf("SC_CLK_TCK"), sum(values) / os.sysconf("SC_CLK_TCK")


class Window:
    """What the machine and the server did between :meth:`start` and :meth:`stop`: the busy cores
    of the whole machine (the bench's processes, the server and anything else running), the load
    average, and on PostgreSQL the database's commits and the CPU seconds of the server processes
    that work for it (this machine's server only: ``/proc``)."""

    def __init__(self, url: str | None) -> None:
        self.url = url

    def _sample(self) -> dict[str, Any]:
        sample: dict[str, Any] = {}
        if self.url is not None:
            sample["commits"] = asyncio.run(_commits(self.url))
            sample["server_cpu"] = _ticks(asyncio.run(_server_pids(self.url)))
        busy, every = _machine()
        sample.update(t=time.perf_counter(), busy=busy, all=every, load=os.getloadavg()[0])
        return sample

    def start(self) -> None:
        self.before = self._sample()

    def stop(self) -> dict[str, Any]:
        after = self._sample()
        before = self.before
        seconds = after["t"] - before["t"]
        cores = os.cpu_count() or 1
        figures: dict[str, Any] = {
            "window_s": round(seconds, 2),
            "machine_busy_cores": round((after["busy"] - before["busy"]) / seconds, 2),
            "machine_cores": cores,
            "load_average_1m": [round(before["load"], 2), round(after["load"], 2)],
        }
        if self.url is not None:
            figures["db_commits_per_s"] = round((after["commits"] - before["commits"]) / seconds, 1)
            # A server process born in the window (a new connection) counts from its start.
            used = after["server_cpu"]
            since = {pid: used[pid] - before["server_cpu"].get(pid, 0.0) for pid in used}
            figures["server_cpu_s"] = round(sum(since.values()), 2)
        return figures


def _scoped(url: str, schema: str) -> str:
    """``url`` with ``search_path=schema`` (its other parameters, ``pool_size`` among them, kept)."""
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "search_path"]
    return urllib.parse.urlunsplit(
        parts._replace(query=urllib.parse.urlencode([*query, ("search_path", schema)]))
    )


def _server_url(url: str) -> str:
    """``url`` as asyncpg takes it for the bench's own statements (no bot parameters)."""
    return url.split("?", 1)[0]


def measure_together(
    targets: list[str], games: int, seconds: float, delay: float, seed: int, window: Window
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """One process per target, started one after another, measured together."""
    children: list[subprocess.Popen[str]] = []

    def read_until(child: subprocess.Popen[str], mark: str) -> str:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith(mark):
                return line
        raise RuntimeError(f"a bot process ended before {mark} (exit status {child.wait()})")

    try:
        for n, target in enumerate(targets):
            child = subprocess.Popen(
                [sys.executable, __file__, "--child", target, str(games), str(seconds), str(delay),
                 str(seed + n), "0"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )  # fmt: skip
            children.append(child)
            read_until(child, "READY")
        for child in children:
            assert child.stdin is not None
            child.stdin.write("GO\n")
            child.stdin.flush()
        for child in children:
            read_until(child, "MEASURING")
        window.start()
        for child in children:
            read_until(child, "MEASURED")
        figures = window.stop()
        for child in children:  # the processes wait for this to stop their tables
            assert child.stdin is not None
            child.stdin.write("ON\n")
            child.stdin.flush()
        results = [json.loads(read_until(child, "RESULT ")[len("RESULT ") :]) for child in children]
    finally:
        for child in children:
            if child.poll() is None and child.stdin is not None and not child.stdin.closed:
                child.stdin.close()
            try:
                child.wait(timeout=120)
            except subprocess.TimeoutExpired:
                child.kill()
    return results, figures


def summary(backend: str, results: list[dict[str, Any]], figures: dict[str, Any]) -> dict[str, Any]:
    """One run's figures, per process and in total."""
    tables = sum(r["games"] for r in results)
    moves = sum(r["moves"] for r in results)
    bot_cpu = sum(r["cpu_s"] for r in results)
    server_cpu = figures.get("server_cpu_s", 0.0)
    ours = (bot_cpu + server_cpu) / figures["window_s"]
    return {
        "backend": backend,
        "processes": len(results),
        "tables": tables,
        "moves_per_s": round(sum(r["moves_per_s"] for r in results), 1),
        "moves_per_s_to_keep_up": round(sum(r["games"] / r["computer_delay_s"] for r in results), 1),
        "move_p99_ms": max(r["move_p99_ms"] for r in results),
        "bot_cpu_s": round(bot_cpu, 2),
        **figures,
        # CPU per move committed, of the bot processes and of the server; the cores they kept busy,
        # and the rest of the machine's busy cores (other work on a shared machine).
        "bot_cpu_ms_per_move": round(1000 * bot_cpu / moves, 2) if moves else None,
        "server_cpu_ms_per_move": (
            round(1000 * server_cpu / moves, 2) if moves and "server_cpu_s" in figures else None
        ),
        "bench_cores": round(ours, 2),
        "other_cores": round(max(0.0, figures["machine_busy_cores"] - ours), 2),
        "measured_s": max(r["seconds"] for r in results),
        "per_process": [
            {
                "tables": r["games"],
                "running": r["games_running"],
                "moves_per_s": r["moves_per_s"],
                "move_p50_ms": r["move_p50_ms"],
                "move_p99_ms": r["move_p99_ms"],
                "lag_p99_ms": r["lag_p99_ms"],
                "rss_mb": r["rss_mb"],
                "cpu_s": r["cpu_s"],
                "setup_s": r["setup_s"],
            }
            for r in results
        ],
    }


def run_processes(
    url: str, processes: int, games: int, seconds: float, delay: float, seed: int
) -> dict[str, Any]:
    """N processes on a new schema each of ``url``'s database, measured together."""
    # A schema per process in the one database: each process's simulated Discord makes the same
    # channel ids as the others' (SimCord's ids do not differ between processes), and the database
    # keeps one open game per channel, so the processes' tables must not meet. They share the
    # server, its write-ahead log, its fsyncs and its CPU: what the processes contend for.
    from bot.storage.postgres import PostgresStorage

    server = _server_url(url)
    schemas = [f"bench_{os.getpid()}_{secrets.token_hex(3)}_{n}" for n in range(processes)]
    scoped = [_scoped(url, schema) for schema in schemas]

    async def prepare() -> None:
        await _admin(server, *(f"CREATE SCHEMA {schema}" for schema in schemas))
        for target in scoped:  # migrated before the processes start
            await (await PostgresStorage.open(target)).close()

    asyncio.run(prepare())
    try:
        results, figures = measure_together(scoped, games, seconds, delay, seed, Window(server))
    finally:
        asyncio.run(_admin(server, *(f"DROP SCHEMA {schema} CASCADE" for schema in schemas)))
    return summary("postgres", results, figures)


def run_sqlite(games: int, seconds: float, delay: float, seed: int) -> dict[str, Any]:
    """One process on an SQLite file (in a temporary folder of its own), measured the same way."""
    results, figures = measure_together(["load.db"], games, seconds, delay, seed, Window(None))
    result = summary("sqlite", results, figures)
    transactions = results[0].get("transactions")
    result["db_commits_per_s"] = round(transactions / results[0]["seconds"], 1) if transactions else None
    return result


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
    _, _, target, games, seconds, delay, seed, clicks = sys.argv
    child_main(target, int(games), float(seconds), float(delay), int(seed), int(clicks))
