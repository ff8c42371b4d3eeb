"""A bot process of the shard tests: the real bot under SimCord on a PostgreSQL database, running
shards ``<ids>`` of ``<count>`` (a fifth argument; 2 without it) with a short lease (a sixth
argument, in seconds; 2 without it).

``python shard_child.py <url> <seed> <ids> play``: two tables played without end (a person and two
computers each), one line ``ANSWERED <game> <seq> <version> <user>`` per move of the person whose
click was answered (as ``tests/robustness/crash_child.py``), after ``READY``.

``python shard_child.py <url> <seed> <ids> resume``: start (the games of its shards come back),
print ``LOADED <game ids>`` (those loaded, ended since or not), then move SimCord's clock on a minute
at a time, so that the turn timers and the computer turns of those games run, printing
``TICK <game ids in memory>`` after each minute.
A start the leases refuse prints ``REFUSED <one line>`` and exits with status 2.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from bot.storage import StorageError
from tests.robustness.crash_child import play
from tests.robustness.robust_helpers import make_bot, quick_settle

LEASE_SECONDS = 2.0


async def resume(env: simcord.Env) -> None:
    # The games it loaded: a match that ends at its first computer move leaves memory at once, but
    # stays among the games lately finished (known_games).
    loaded = sorted(game.id for game in env.bot.tables.known_games())  # type: ignore[attr-defined]
    print("LOADED " + " ".join(map(str, loaded)), flush=True)
    while True:
        await env.advance_time(60)
        held = sorted(game.id for game in env.bot.tables.changes.games())  # type: ignore[attr-defined]
        print("TICK " + " ".join(map(str, held)), flush=True)


async def main(url: str, seed: int, ids: str, mode: str, count: int = 2, lease: float = LEASE_SECONDS) -> int:
    simcord.Env._settle_internal = quick_settle(simcord.Env._settle_internal)  # type: ignore[method-assign]
    # No game closes as idle: the tests watch the games being played by the timers and computers.
    bot = make_bot(url, seed=seed, shard_count=count, shard_ids=ids, lease_seconds=lease, idle_game_timeout=0)
    try:
        async with simcord.run(bot) as env:
            await (play(env) if mode == "play" else resume(env))
    except StorageError as exc:
        print(f"REFUSED {exc}", flush=True)
        return 2
    finally:
        await bot.close()
    return 0


if __name__ == "__main__":
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    lease = float(sys.argv[6]) if len(sys.argv) > 6 else LEASE_SECONDS
    sys.exit(asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], count, lease)))
