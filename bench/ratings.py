"""The ratings' costs on a server with many rated members, on SQLite and PostgreSQL, and farming.

    python bench/ratings.py [--members 100000] [--samples 200] [--postgres URL | --no-postgres]

For each backend, a server gets ``--members`` rated members in its running season (written in bulk,
as if they had played), then two things are timed ``--samples`` times each:

- **the rating at a match end**: what :meth:`~bot.service.ratings.Ratings.rate` does after the save
  of a match's end (the season read, the persons' latest ratings read, openskill's ``rate`` over the
  seats, the one transaction that stores the rated match, the history and the ratings): two members
  and a hard computer, a new game each time (target: under 2 ms);
- **the season leaderboard**: :meth:`~bot.service.ratings.Ratings.board`, the first page with the
  caller's own line (a member far down): the season read, the number rated, the caller's rank, the
  page (target: under 50 ms).

And the farming figures (openskill alone, no database): a new person's shown rating after 200
matches won against two easy computers, 20 won against two hard ones, and 20 won against a new
person (the same one each time).

The last line printed is one JSON object. PostgreSQL: a database of its own is made on the server
of ``--postgres`` (default ``$ROMME_TEST_POSTGRES_URL`` or the local one) and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service.ratings import DEFAULT_MU, DEFAULT_SIGMA, Ratings, rate_seats, shown
from bot.service.seasons import month_start
from bot.storage import Database, RatedSeat, Season, open_database

GUILD = 42
SERVER = os.environ.get("ROMME_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def ms(samples: list[float]) -> dict[str, float]:
    """Median, 95th percentile and worst of ``samples`` (seconds), in milliseconds."""
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def member_rows(members: int, season: int) -> list[tuple[Any, ...]]:
    """``members`` ratings of the season, spread as a server's would be (ids 1…members)."""
    rows = []
    for user_id in range(1, members + 1):
        mu = DEFAULT_MU + ((user_id * 7919) % 2000 - 1000) / 100
        sigma = 2.0 + (user_id % 60) / 10
        rows.append((GUILD, season, user_id, mu, sigma, mu - 3 * sigma, 10 + user_id % 50, user_id % 20))
    return rows


async def fill(storage: Database, members: int) -> Season:
    """The server's running season with ``members`` rated members, written in bulk."""
    season = Season(GUILD, 1, month_start(datetime.now(UTC)))
    await storage.start_season(season)
    rows = member_rows(members, season.number)
    insert = "INSERT INTO ratings (guild_id, season, user_id, mu, sigma, ordinal, matches, wins) VALUES "
    if hasattr(storage, "_live_pool"):
        async with storage._live_pool().acquire() as db:
            await db.executemany(insert + "($1, $2, $3, $4, $5, $6, $7, $8)", rows)
            await db.execute("VACUUM ANALYZE ratings")  # the steady state autovacuum keeps
    else:
        await storage._write(lambda db: db.executemany(insert + "(?, ?, ?, ?, ?, ?, ?, ?)", rows))  # type: ignore[attr-defined]
        await storage._write(lambda db: db.execute("ANALYZE"))  # type: ignore[attr-defined]
    return season


async def measure(target: str | Path, members: int, samples: int) -> dict[str, Any]:
    """Fill ``target`` and time the rating at a match end and the leaderboard."""
    storage = await open_database(target)
    try:
        season = await fill(storage, members)
        ratings = Ratings(storage)
        updates = []
        for n in range(samples):
            a, b = 1 + (n * 2) % members, 2 + (n * 2) % members
            seats = (RatedSeat(0, a, None, 1), RatedSeat(1, None, "hard", 2), RatedSeat(2, b, None, 3))
            began = time.perf_counter()
            current = await ratings.current_season(GUILD)
            await ratings._record(1_000_000 + n, GUILD, current.number, datetime.now(UTC), seats)
            updates.append(time.perf_counter() - began)
        boards = []
        for n in range(samples):
            caller = members - 1 - n % 100
            began = time.perf_counter()
            board = await ratings.board(GUILD, user_id=caller)
            boards.append(time.perf_counter() - began)
            assert board is not None and len(board.lines) == 10 and board.own is not None
        size = await storage.season_size(GUILD, season.number)
    finally:
        await storage.close()
    return {
        "rated_members": size,
        "rating_update_at_match_end": ms(updates),
        "season_leaderboard": ms(boards),
    }


def farming() -> dict[str, int]:
    """A new person's shown rating after winning over and over (openskill alone)."""

    def won(matches: int, opponents: tuple[RatedSeat, ...], person_opponent: bool = False) -> int:
        ratings: dict[int, tuple[float, float]] = {}
        for _ in range(matches):
            seats = (RatedSeat(0, 1, None, 1), *opponents)
            after = rate_seats(seats, ratings)
            ratings = after if person_opponent else {1: after[1]}
        return shown(*ratings[1])

    easy = (RatedSeat(1, None, "easy", 2), RatedSeat(2, None, "easy", 2))
    hard = (RatedSeat(1, None, "hard", 2), RatedSeat(2, None, "hard", 2))
    return {
        "new_player": shown(DEFAULT_MU, DEFAULT_SIGMA),
        "after_20_won_against_easy": won(20, easy),
        "after_200_won_against_easy": won(200, easy),
        "after_2000_won_against_easy": won(2000, easy),
        "after_20_won_against_hard": won(20, hard),
        "after_20_won_against_a_person": won(20, (RatedSeat(1, 2, None, 2),), person_opponent=True),
    }


async def on_postgres(server: str, members: int, samples: int) -> dict[str, Any]:
    """:func:`measure` on a new database of ``server``, dropped at the end."""
    import asyncpg

    name = f"romme_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        url = server.split("?", 1)[0].rsplit("/", 1)[0] + f"/{name}"
        return await measure(url, members, samples)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--members", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--postgres", default=SERVER, metavar="URL")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    result: dict[str, Any] = {"members": args.members, "samples": args.samples}
    with tempfile.TemporaryDirectory() as folder:
        result["sqlite"] = asyncio.run(measure(Path(folder) / "romme.db", args.members, args.samples))
    if not args.no_postgres:
        result["postgres"] = asyncio.run(on_postgres(args.postgres, args.members, args.samples))
    result["farming"] = farming()
    result["targets_ms"] = {"rating_update_at_match_end": 2, "season_leaderboard": 50}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
