"""Shards across real processes on one PostgreSQL database (``shard_child.py``: the real bot under
SimCord, shards 0-1 of 2, a 2-second lease).

- Two processes never play the same game: a second process started on a shard a live process holds
  is refused at start, with one line naming the shard, exit status 2 (it does not wait).
- A process killed with SIGKILL while it saves keeps every move whose click it answered; once its
  leases have expired, another process takes its shards over and brings their games back, timers
  and computer turns included: they go on from where the dead process left them.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from bot.config import EXAMPLE_TOKEN
from tests.robustness.robust_helpers import answered_moves, next_line

CHILD = Path(__file__).resolve().parent / "shard_child.py"
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0
"""Seconds a lease may take to run out after its process was killed (it is 2 s, or 8 s in the
rolling change): a guard, the tests wait for the lease's own expiry."""
TICKS = 30
"""Minutes of a resumed process's own (simulated) clock within which each of its games must have
moved on: a turn times out after 2 minutes and a computer plays at once, so one or two are enough."""


def start(
    url: str, ids: str, mode: str, seed: int = 1, count: int = 2, lease: float = 2.0
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(CHILD), url, str(seed), ids, mode, str(count), str(lease)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )


def first_line(child: subprocess.Popen[str]) -> str:
    """The line a process prints once it is ready (or refused): waited for, not timed."""
    line = next_line(child).strip()
    if not line:
        child.kill()
        _, err = child.communicate(timeout=10)
        raise AssertionError(f"the bot process said nothing: {err[-3000:]}")
    return line


def wait_for_no_live_lease(url: str) -> None:
    """Wait until no lease is live: for as long as the latest one has left, read from its row (the
    leases of killed processes run out on PostgreSQL's clock; :data:`TIMEOUT` guards a lease that
    some live process keeps renewing)."""
    latest = (
        "SELECT EXTRACT(EPOCH FROM MAX(expires_at) - now()) AS left FROM shard_leases "
        "WHERE expires_at > now()"
    )
    deadline = time.monotonic() + TIMEOUT
    while (left := rows(url, latest)[0]["left"]) is not None:
        assert time.monotonic() < deadline, "the leases never expired"
        time.sleep(float(left) + 0.01)  # until the latest lease has run out, as its row says


def kill(child: subprocess.Popen[str]) -> str:
    child.send_signal(signal.SIGKILL)
    rest, _ = child.communicate(timeout=10)
    return rest


async def query(url: str, sql: str) -> list[asyncpg.Record]:
    db = await asyncpg.connect(url)
    try:
        return list(await db.fetch(sql))
    finally:
        await db.close()


def rows(url: str, sql: str) -> list[asyncpg.Record]:
    return asyncio.run(query(url, sql))


def run_romme_bot(url: str, shard_ids: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` as an operator starts it on the database with some shards."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "DATABASE_URL")}
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": EXAMPLE_TOKEN,
            "DATABASE_URL": url,
            "SHARD_COUNT": "2",
            "SHARD_IDS": shard_ids,
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "bot"], capture_output=True, text=True, env=env, cwd=cwd, timeout=120
    )


@pytest.mark.slow
def test_a_second_process_on_a_held_shard_is_refused_with_one_line(postgres_url: str, tmp_path: Path) -> None:
    first = start(postgres_url, "0-1", "play")
    try:
        assert first_line(first) == "READY"
        second = run_romme_bot(postgres_url, "1", tmp_path)
        assert second.returncode == 2, second.stderr[-2000:]
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert "shard 1 is held by another romme-bot process" in lines[0] and "Traceback" not in second.stderr
        assert first.poll() is None  # the first one plays on
        owners = {row["owner"] for row in rows(postgres_url, "SELECT owner FROM shard_leases")}
        assert owners == {f"{os.uname().nodename} pid {first.pid}"}
    finally:
        kill(first)


@pytest.mark.slow
def test_a_killed_process_loses_no_answered_move_and_another_takes_its_shards_over(
    postgres_url: str,
) -> None:
    seed = 2
    first = start(postgres_url, "0-1", "play", seed)
    answered: list[tuple[int, int, int, int]] = []
    try:
        assert first_line(first) == "READY"
        answered = answered_moves(first, 30)
        time.sleep(random.Random(seed).uniform(0.0, 0.03))  # saves are going on
    finally:
        rest = kill(first)
    answered += [
        tuple(map(int, line.split()[1:]))  # type: ignore[misc]
        for line in rest.splitlines()
        if line.startswith("ANSWERED") and len(line.split()) == 5
    ]
    assert len(answered) >= 30, "the first process did not play"

    logged = {(r["game_id"], r["seq"]): r["user_id"] for r in rows(postgres_url, "SELECT * FROM moves")}
    for game, seq, _version, user in answered:
        assert logged.get((game, seq)) == user, f"answered move {seq} of game {game} is lost"
    for game in {g for g, _ in logged}:
        seqs = sorted(s for g, s in logged if g == game)
        assert seqs == list(range(1, len(seqs) + 1)), f"a hole in the log of game {game}"

    # The dead process's leases stay until they expire (2 s); then its shards are free to take.
    wait_for_no_live_lease(postgres_url)
    before = {
        r["id"]: (r["version"], r["last"])
        for r in rows(
            postgres_url,
            "SELECT id, version, (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = games.id) AS last "
            "FROM games WHERE status IN ('lobby', 'playing')",
        )
    }
    assert before, "no unfinished game was left to take over"

    second = start(postgres_url, "0-1", "resume", seed)
    try:
        line = first_line(second)
        assert line.startswith("LOADED"), line
        assert sorted(map(int, line.split()[1:])) == sorted(before)
        # While it holds the shards, a third process is refused, naming the shard.
        third = start(postgres_url, "1", "resume", seed)
        refused = first_line(third)
        third.communicate(timeout=30)
        assert refused.startswith("REFUSED shard 1 is held by another romme-bot process"), refused
        assert third.returncode == 2
        # The taken-over games go on by themselves: timers fire, computers play, all saved; each
        # within TICKS minutes of the process's clock (it prints a line at each).
        progressed: dict[int, bool] = {}
        for _tick in range(TICKS):
            assert next_line(second).startswith("TICK"), "the second process stopped"
            now = {
                r["id"]: (r["version"], r["last"])
                for r in rows(
                    postgres_url,
                    "SELECT id, version, (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = games.id) "
                    "AS last FROM games",
                )
            }
            progressed = {game: now[game][1] > before[game][1] for game in before}
            if all(progressed.values()):
                break
        assert all(progressed.values()), f"games not taken over: {progressed}"
    finally:
        kill(second)
