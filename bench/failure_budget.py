"""Failed requests of broken tables: ``--tables`` tables (default 1,000) in channels that took the
bot's permissions away, their people clicking for ``--minutes`` minutes (default 10) of SimCord's
clock.

The real bot (``create_bot`` on an SQLite file in a temporary folder, computers without delay, table
edits not merged) plays; each table is one person and one computer, opened by the calls
``/romme start computers:1`` and **Start** make, then its channel denies the bot View Channel and
Send Messages, and each simulated minute every person makes a move by clicks (the scenario of
``tests/robustness/broken_tables.py``). Discord bans a bot's address after 10,000 failed requests
(401, 403, 429) in ten minutes, counted for the whole bot. Measured:

- failed_requests: the bot's requests SimCord refused with 401, 403 or 429 in those minutes (and
  failed_requests_with_last_advance, with the moment the last minute's clock reaches their end, when
  the first failures leave the window and held tables try again), failed_max_in_ten_minutes (the
  most in any ten minutes, as Discord counts them), failed_by_status, failed_max_per_channel (the
  worst table);
- clicks, clicks_answered (every click is answered: the budget never holds an answer back), moves;
- bot_budget_limit: the bot-wide budget's limit (``--per-game-only`` lifts it, leaving each game's
  own budget of 10 failures a lane, as before issue 25).

Prints one JSON object as its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bench._common import quiet, report
from bot.client import RommeBot, create_bot
from bot.publish.faults import FAILURE_WINDOW
from tests.robustness.broken_tables import (
    counted_refusals,
    keep_clicking,
    open_tables,
    take_permissions_away,
    virtual_only,
)
from tests.robustness.robust_helpers import quick_settle


def most_in_window(times: list[float], window: float) -> int:
    """The most of ``times`` in any ``window`` seconds (as Discord counts: those after ``end - window``
    up to ``end``).

    >>> most_in_window([0.0, 1.0, 600.0, 601.0, 602.0], 600.0)
    3
    """
    ordered = sorted(times)
    return max(
        (i + 1 - bisect.bisect_right(ordered, end - window) for i, end in enumerate(ordered)), default=0
    )


async def run(tables: int, minutes: int, folder: Path, *, per_game_only: bool) -> dict[str, Any]:
    bot: RommeBot = create_bot(
        database_path=folder / "broken.db",
        computer_delay=0,
        game_seed=1,
        table_edit_interval=0,
        table_edits_per_second=0,
        idle_game_timeout=0,
    )
    settle, schedule = simcord.Env._settle_internal, simcord.Env._schedule_timer
    simcord.Env._settle_internal = quick_settle(settle)  # type: ignore[method-assign]
    simcord.Env._schedule_timer = virtual_only(schedule)  # type: ignore[method-assign]
    try:
        async with simcord.run(bot) as env:
            env.backend.transcript = collections.deque(maxlen=0)  # type: ignore[assignment]
            env.settle_timeout = 600.0  # a minute of a thousand tables takes SimCord minutes
            advance_time = env.advance_time
            counting: list[Any] = []

            async def advance_telling(seconds: float) -> None:
                await advance_time(seconds)
                simulated = env.now().timestamp() - counting[0] if counting else 0.0
                if counting and int(simulated + 0.5) // 60 > int(simulated + 0.5 - seconds) // 60:
                    print(f"{simulated:.0f} simulated s, {time.perf_counter() - began:.0f} real s,"
                          f" {counting[1].total} failed", file=sys.stderr)  # fmt: skip

            env.advance_time = advance_telling  # type: ignore[method-assign]
            budget = bot.publisher.guard.budget
            if per_game_only:
                budget.limit = 10**9
            began = time.perf_counter()
            drivers = await open_tables(env, tables)
            take_permissions_away(env, drivers)
            start = env.now().timestamp()
            with counted_refusals(env) as refusals:
                counting[:] = [start, refusals]
                clicks = await keep_clicking(env, drivers, minutes)
            elapsed = time.perf_counter() - began
            simulated = env.now().timestamp() - start
            moves = sum(driver.moves for driver in drivers)
            await bot.tables.close()
            await bot.publisher.close()
    finally:
        simcord.Env._settle_internal = settle  # type: ignore[method-assign]
        simcord.Env._schedule_timer = schedule  # type: ignore[method-assign]
        await bot.close()
    return {
        "tables": tables,
        "simulated_minutes": minutes,
        "simulated_seconds": round(simulated, 1),
        "failed_requests": sum(1 for at in refusals.times if at < start + minutes * 60),
        "failed_requests_with_last_advance": refusals.total,
        "failed_max_in_ten_minutes": most_in_window(refusals.times, FAILURE_WINDOW),
        "failed_by_status": {str(status): n for status, n in sorted(refusals.by_status.items())},
        "failed_max_per_channel": max(refusals.by_channel.values(), default=0),
        "clicks": clicks,
        "clicks_answered": clicks,  # TableDriver asserts that every click was answered
        "moves": moves,
        "bot_budget_limit": budget.limit,
        "hold_failed_from": budget.hold_failed_at,
        "hold_all_from": budget.hold_all_at,
        "real_seconds": round(elapsed, 1),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000, help="broken tables (default 1000)")
    parser.add_argument("--minutes", type=int, default=10, help="simulated minutes of clicking (default 10)")
    parser.add_argument(
        "--per-game-only", action="store_true", help="lift the bot-wide budget (each game's own only)"
    )
    args = parser.parse_args(argv)
    quiet()
    with tempfile.TemporaryDirectory(prefix="romme-broken-") as folder:
        result = asyncio.run(run(args.tables, args.minutes, Path(folder), per_game_only=args.per_game_only))
    return report(result)


if __name__ == "__main__":
    main()
