"""``romme-bot migrate-db --from FILE --to URL`` (the real command line): an SQLite file's games,
move logs, scores, statistics and outbox come out of PostgreSQL exactly as the file had them; a
database that holds games already is refused in one line; the copied games go on there."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.storage import (
    Announcement,
    MatchResult,
    MoveEntry,
    RatedMatch,
    RatedSeat,
    Rating,
    RatingChange,
    RoundScore,
    Save,
    Season,
    Storage,
)
from bot.storage.postgres import PostgresStorage
from tests.storage import peek

ROOT = Path(__file__).resolve().parents[2]


def migrate(source: Path, url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--from", str(source), "--to", url],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


async def everything(storage: Storage | PostgresStorage, ids: list[int]) -> list[object]:
    seen: list[object] = []
    for game_id in ids:
        seen += [
            await storage.get_game(game_id),
            await storage.moves(game_id),
            await storage.round_scores(game_id),
            await storage.owed_announcements(game_id),
            await peek.announcement(storage, game_id, 1),
        ]
    seen += [
        await storage.leaderboard(1),
        await storage.player_record(1, 30),
        await peek.damaged_games(storage),
        # The ratings: seasons, rated matches, history and ratings (floats and times exactly).
        await storage.seasons(1),
        await storage.rated_matches(1),
        await storage.rating_history(1, 31, 10),
        await storage.season_board(1, 1, 0, 10),
    ]
    return seen


@pytest.mark.slow
async def test_a_files_games_come_out_of_postgres_as_they_were(
    database_path: Path, postgres_url: str
) -> None:
    file = await Storage.open(database_path)
    playing = await file.create_game(guild_id=1, channel_id=2, host_id=30, snapshot={"n": 0})
    for n in range(1, 4):
        await file.save_game(Save(playing, {"n": n}, "playing", move=MoveEntry(n % 2, 30, {"n": n})))
    await file.save_game(Save(playing, None, "playing", move=MoveEntry(0, None, {"n": 4}, state={"turn": 4})))
    over = await file.create_game(guild_id=1, channel_id=3, host_id=31, snapshot={"n": 0})
    await file.save_game(
        Save(
            over,
            {"n": 9},
            "finished",
            move=MoveEntry(0, 31, {"n": 9}),
            round_scores=[RoundScore(1, 0, 31, 40, 0, 40), RoundScore(1, 1, 30, 0, 25, -25)],
            match_results=[MatchResult(31, 40, True, 40), MatchResult(30, -25, False, -25)],
            announcements=[Announcement("match_end", 1, {"n": 9})],
        )
    )
    await file.announcement_delivered(over, 1, 777)
    await file.start_season(Season(1, 1, datetime(2026, 12, 1, tzinfo=UTC)))
    seats = (RatedSeat(0, 31, None, 1, points=40), RatedSeat(1, 30, None, 2, points=-25))
    change = RatingChange(
        over, 31, 1, 1, datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=UTC), 1, 2, True, False,
        25.0, 25 / 3, 27.635, 7.9, 40, 1, 1, 0, 40, "",
    )  # fmt: skip
    rated = RatedMatch(over, 1, 1, change.ended_at, seats)
    assert await file.record_rating(rated, [change], [Rating(1, 1, 31, 27.635, 7.9, 1, 1)])
    damaged = await file.create_game(guild_id=1, channel_id=4, host_id=30, snapshot={"version": 99})
    await file.set_aside(damaged, "unknown snapshot format 99")
    ids = [playing, over, damaged]
    before = await everything(file, ids)
    await file.close()

    done = migrate(database_path, postgres_url)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "copied 3 games, 5 moves, 2 round_scores, 2 match_results, 2 player_stats, 1 announcements" in (
        done.stdout
    )
    target = await PostgresStorage.open(postgres_url)
    try:
        assert await everything(target, ids) == before
        # The games go on there: a new game gets the next id, a save the next version and seq.
        assert await target.create_game(guild_id=1, channel_id=5, host_id=30, snapshot={}) == damaged + 1
        saved = await target.save_game(Save(playing, {"n": 5}, "playing", move=MoveEntry(1, 30, {"n": 5})))
        assert (saved.version, saved.seq) == (6, 5)
    finally:
        await target.close()

    again = migrate(database_path, postgres_url)
    assert again.returncode == 2
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "already holds games" in lines[0], lines
