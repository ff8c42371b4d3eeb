"""Issue 25, points 4 and 5: changing ``SHARD_COUNT`` with real processes on one PostgreSQL database.

Every lease records the shard count of its process, and a process is refused at start (one line
naming the other count and its process, exit status 2) while a live lease of another count exists:
two counts never run side by side, so no game is played by two processes. The change from 2 to 3
shards is the README's procedure: the processes of the old count stop, those of the new one start.
A start that fails once it took its leases (PostgreSQL reachable, Discord not) gives them back.

The processes are ``shard_child.py`` (the real bot under SimCord, an 8-second lease here) and, for the
failed start, ``python -m bot`` as an operator runs it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service import TableService
from bot.service.game import replay_snapshot
from bot.service.shards import shard_of
from bot.storage import StorageError, check_database
from bot.storage.postgres import PostgresStorage
from tests.robustness.robust_helpers import next_line
from tests.shards.test_processes import (
    TICKS,
    first_line,
    kill,
    rows,
    run_romme_bot,
    start,
    wait_for_no_live_lease,
)

LEASE = 8.0
"""Seconds of a lease here: a heartbeat (every third of it) late by a loaded machine must not let a
live process's lease lapse, which would let the other count start (fenced, but not refused)."""

SIMCORD_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

SERVERS = [k << 22 for k in range(1, 7)]
"""Six servers: shards 1, 0, 1, 0, 1, 0 of 2 and 1, 2, 0, 1, 2, 0 of 3."""


async def open_tables(url: str) -> dict[int, int]:
    """A match in play on each server (its host and two computers): the server of each game."""
    storage = await PostgresStorage.open(url, replay=replay_snapshot)
    # Deadlines on SimCord's clock, which every bot process starts at its epoch (2026-01-01).
    service = TableService(storage, computer_delay=0, clock=SIMCORD_EPOCH.timestamp, idle_timeout=0)
    try:
        servers = {}
        for k, guild in enumerate(SERVERS):
            game = await service.open_lobby(guild, 1000 + k, 7, "host", computers=2)
            await service.begin(game.id, 7)
            servers[game.id] = guild
        return servers
    finally:
        await service.close()
        await storage.close()


def loaded(child_line: str) -> set[int]:
    assert child_line.startswith("LOADED"), child_line
    return set(map(int, child_line.split()[1:]))


def refused(url: str, ids: str, count: int) -> str:
    """The one line of a process of ``count`` shards refused at start (and its exit status 2)."""
    child = start(url, ids, "resume", count=count, lease=LEASE)
    line = first_line(child)
    child.communicate(timeout=30)
    assert child.returncode == 2 and line.startswith("REFUSED "), (child.returncode, line)
    return line.removeprefix("REFUSED ")


def last_moves(url: str) -> dict[int, int]:
    return {row["id"]: row["last_seq"] for row in rows(url, "SELECT id, last_seq FROM games")}


def held(output: str) -> set[int]:
    """Every game a process held in memory at any of its ticks."""
    games: set[int] = set()
    for line in output.splitlines():
        if line.startswith("TICK"):
            games |= set(map(int, line.split()[1:]))
    return games


@pytest.mark.slow
def test_a_rolling_change_from_2_to_3_shards_plays_every_game_in_exactly_one_process(
    postgres_url: str,
) -> None:
    url = postgres_url
    servers = asyncio.run(open_tables(url))
    of = {count: {s: {g for g, guild in servers.items() if shard_of(guild, count) == s} for s in range(count)}
          for count in (2, 3)}  # fmt: skip
    old = [start(url, str(shard), "resume", count=2, lease=LEASE) for shard in range(2)]
    new = []
    try:
        # Two processes of 2 shards play the six games, three each.
        first = [loaded(first_line(child)) for child in old]
        assert first == [of[2][0], of[2][1]], (first, of[2])
        # A process of 3 shards is refused while they run, naming the other count and a process.
        line = refused(url, "0", 3)
        assert "SHARD_COUNT is 3 here" in line and "runs SHARD_COUNT=2" in line, line
        assert any(f"pid {child.pid})" in line for child in old), line
        # The change, as the README says: the old processes stop (one after the other: while one
        # of them still runs, the new count is refused all the same) ...
        kill(old[0])
        assert "runs SHARD_COUNT=2" in refused(url, "0-2", 3)
        kill(old[1])
        wait_for_no_live_lease(url)  # killed, not stopped: their leases run out
        before = last_moves(url)
        unfinished = {
            row["id"] for row in rows(url, "SELECT id FROM games WHERE status IN ('lobby', 'playing')")
        }
        assert unfinished, "every game ended under the old processes"
        # ... and the processes of the new count start: each game in exactly one of them.
        new = [start(url, str(shard), "resume", count=3, lease=LEASE) for shard in range(3)]
        then = [loaded(first_line(child)) for child in new]
        assert then == [of[3][shard] & unfinished for shard in range(3)], (then, of[3], unfinished)
        # Now a process of the old count is refused, naming the new one.
        line = refused(url, "1", 2)
        assert "SHARD_COUNT is 2 here" in line and "runs SHARD_COUNT=3" in line, line
        # Every game goes on (its timers and computers), played by its one process, within TICKS
        # minutes of the processes' clock: each prints a TICK line a minute, read here as it comes.
        ticks: list[list[str]] = [[] for _ in new]
        for _minute in range(TICKS):
            for child, said in zip(new, ticks, strict=True):
                said.append(line := next_line(child))
                assert line.startswith("TICK"), f"a process of 3 shards stopped: {line!r}"
            if all(last_moves(url)[game] > before[game] for game in unfinished):
                break
        assert all(last_moves(url)[game] > before[game] for game in unfinished), (
            f"games not played: {before} -> {last_moves(url)}"
        )
    finally:
        outputs = [kill(child) for child in [*old, *new] if child.poll() is None]
    assert len(outputs) == 3
    outputs = ["".join(said) + rest for said, rest in zip(ticks, outputs, strict=True)]
    # At every tick, each process held only games of its shard (a game may leave memory once it is
    # over or closed as idle, its channel being unknown to this process's simulated Discord): no game
    # in two processes.
    kept = [held(output) for output in outputs]
    assert all(kept[shard] <= of[3][shard] for shard in range(3)), (kept, of[3])


@pytest.mark.slow
def test_a_start_that_cannot_reach_discord_gives_its_leases_back(postgres_url: str, tmp_path: Path) -> None:
    # Point 5: PostgreSQL answers, Discord does not (no network here; with one, the made-up token is
    # refused by Discord): the start fails after taking shards 0-1 of 2.
    result = run_romme_bot(postgres_url, "0-1", tmp_path)
    assert result.returncode in (1, 2) and "romme-bot:" in result.stderr, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert rows(postgres_url, "SELECT shard_id, owner FROM shard_leases") == []
    # So the next start takes the shards at once, instead of being refused for 30 s.
    child = start(postgres_url, "0-1", "resume")
    try:
        assert first_line(child).startswith("LOADED")
    finally:
        kill(child)


async def test_check_names_a_live_process_of_another_shard_count(postgres_url: str) -> None:
    # `romme-bot check` says beforehand what the start would refuse (the same line, the URL first).
    storage = await PostgresStorage.open(postgres_url)
    try:
        await storage.take_shards([0, 1], 2, owner="host-a pid 4242", ttl=30)
        with pytest.raises(StorageError) as refused_check:
            await check_database(postgres_url, shards=(0,), shard_count=3)
        line = str(refused_check.value)
        assert "SHARD_COUNT is 3 here" in line and "(host-a pid 4242) runs SHARD_COUNT=2" in line, line
        # The same count is fine for a shard nobody holds.
        assert "2 shards leased" in await check_database(postgres_url, shards=(2,), shard_count=2)
    finally:
        await storage.close()
