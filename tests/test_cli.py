"""The operator's commands, run as an operator runs them (``python -m bot …`` in a child process):
``--version``, ``run --help``, ``check`` and ``backup``; and the log as ``LOG_FORMAT=json`` makes it.

``check`` and ``backup`` answer in one line and exit 0, or name the problem in one line and exit 2;
neither changes the database. A backup taken while a bot plays is restored and every game comes back.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from bot.config import ENV_NAMES, EXAMPLE_TOKEN
from bot.storage import Storage
from bot.storage.postgres import PostgresStorage
from tests.robustness.robust_helpers import unfinished_games_come_back

ROOT = Path(__file__).resolve().parents[1]
PLAYING_CHILD = ROOT / "tests" / "robustness" / "crash_child.py"
TOKEN = {"DISCORD_TOKEN": EXAMPLE_TOKEN}
"""A value of a bot token's shape: ``check`` refuses what ``run`` refuses, a missing token too."""


def romme_bot(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``cwd`` with the settings ``env`` (and none from this environment)."""
    clean = {k: v for k, v in os.environ.items() if k not in ENV_NAMES.values()}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        timeout=120,
    )


def one_line(result: subprocess.CompletedProcess[str], status: int) -> str:
    """The one line the command printed (stdout when it exits 0, stderr otherwise)."""
    assert result.returncode == status, (result.stdout, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    lines = (result.stdout if status == 0 else result.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


async def make_database(path: Path | str, games: int = 2) -> None:
    storage = await Storage.open(path) if isinstance(path, Path) else await PostgresStorage.open(path)
    try:
        for channel in range(games):
            await storage.create_game(guild_id=1, channel_id=channel, host_id=3, snapshot={"n": channel})
    finally:
        await storage.close()


# ---------------------------------------------------------------------- --version, run --help


def test_version_prints_the_package_version_and_exits_0(tmp_path: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert one_line(romme_bot("--version", cwd=tmp_path), 0) == f"romme-bot {project['version']}"


def test_run_help_lists_every_setting_with_its_default_and_what_it_does(tmp_path: Path) -> None:
    result = romme_bot("run", "--help", cwd=tmp_path)
    assert result.returncode == 0
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.startswith("  ")}
    for env in ENV_NAMES.values():
        assert env in rows, f"{env} is missing from run --help"
        assert len(rows[env].split()) >= 4, rows[env]  # the name, the default, what it does
    assert rows["TURN_TIMEOUT"].split()[1] == "120"
    assert rows["LOG_FORMAT"].split()[1] == "text" and "JSON" in rows["LOG_FORMAT"]
    assert rows["DATABASE_URL"].split()[1] == "(not"  # "(not set)"


# ---------------------------------------------------------------------- check


def test_check_a_folder_without_a_database_creates_nothing(tmp_path: Path) -> None:
    line = one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 0)
    assert "romme.db does not exist yet" in line
    assert list(tmp_path.iterdir()) == []


def test_check_a_bad_setting_is_one_line_and_2(tmp_path: Path) -> None:
    line = one_line(romme_bot("check", cwd=tmp_path, LOG_FORMAT="xml", **TOKEN), 2)
    assert line.startswith("romme-bot: LOG_FORMAT must be text or json")


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        (None, "DISCORD_TOKEN is not set"),
        ("abc", "DISCORD_TOKEN is not a Discord bot token (it is not three parts"),
        (f"Bot {EXAMPLE_TOKEN}", "DISCORD_TOKEN is not a Discord bot token (it starts with 'Bot '"),
    ],
)
@pytest.mark.slow
def test_check_refuses_a_token_run_refuses_with_the_same_line(
    tmp_path: Path, token: str | None, problem: str
) -> None:
    # docs/operating.md: check refuses "a setting the bot would refuse (the same line run prints)".
    env = {} if token is None else {"DISCORD_TOKEN": token}
    refused = one_line(romme_bot("run", cwd=tmp_path, **env), 2)
    assert refused.startswith(f"romme-bot: {problem}"), refused
    assert one_line(romme_bot("check", cwd=tmp_path, **env), 2) == refused
    # A .env file is read the same way by both (an environment variable wins over it).
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={token or ''}\n")
    assert one_line(romme_bot("check", cwd=tmp_path), 2) == refused
    assert "romme.db does not exist yet" in one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 0)
    assert [path.name for path in tmp_path.iterdir()] == [".env"]


def test_check_a_current_database_is_fine_and_left_as_it_was(tmp_path: Path) -> None:
    asyncio.run(make_database(tmp_path / "romme.db"))
    before = files(tmp_path)
    line = one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 0)
    assert "2 games (2 unfinished)" in line and "not in use" in line
    assert files(tmp_path) == before


def test_check_an_older_schema_says_the_bot_migrates_it_and_changes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "romme.db"
    with sqlite3.connect(database) as db:
        db.executescript((ROOT / "bot/storage/sqlite/migrations/0001_initial.sql").read_text())
        db.execute("PRAGMA user_version = 1")
    before = files(tmp_path)
    line = one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 0)
    assert "schema version 1 of" in line and "brings it up to date when it starts" in line
    assert files(tmp_path) == before


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        ("CREATE TABLE t (x); PRAGMA user_version = 99", "newer than this bot understands"),
        ("CREATE TABLE accounts (x)", "another program"),
    ],
)
def test_check_a_newer_or_foreign_database_is_2(tmp_path: Path, make: str, problem: str) -> None:
    with sqlite3.connect(tmp_path / "romme.db") as db:
        db.executescript(make)
    assert problem in one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 2)


def test_check_a_file_that_is_no_database_is_2(tmp_path: Path) -> None:
    (tmp_path / "romme.db").write_text("not a database, " * 100)
    assert "not a readable SQLite database" in one_line(romme_bot("check", cwd=tmp_path, **TOKEN), 2)


@pytest.mark.slow
def test_check_a_database_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    assert "is empty" in one_line(romme_bot("check", cwd=tmp_path, DATABASE_URL=postgres_url, **TOKEN), 0)
    asyncio.run(make_database(postgres_url, games=3))
    line = one_line(romme_bot("check", cwd=tmp_path, DATABASE_URL=postgres_url, **TOKEN), 0)
    assert "3 games (3 unfinished)" in line and "0 shards leased" in line
    gone = postgres_url.rsplit("/", 1)[0] + "/romme_no_such_database"
    assert "createdb" in one_line(romme_bot("check", cwd=tmp_path, DATABASE_URL=gone, **TOKEN), 2)


# ---------------------------------------------------------------------- a bot at play: check, backup


def start_playing(database: Path) -> tuple[subprocess.Popen[str], list[tuple[int, ...]]]:
    """The robustness tests' bot process playing two tables on ``database``, once 20 moves are in."""
    child = subprocess.Popen(
        [sys.executable, str(PLAYING_CHILD), str(database), "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert child.stdout is not None
    answered = []
    deadline = time.monotonic() + 60
    for line in child.stdout:
        if line.startswith("ANSWERED"):
            answered.append(tuple(map(int, line.split()[1:])))
        if len(answered) >= 20 or time.monotonic() > deadline:
            break
    assert len(answered) >= 20, "the bot process did not play"
    return child, answered


@pytest.mark.slow
def test_a_backup_taken_while_the_bot_plays_restores_every_game(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    database = live / "romme.db"
    child, answered = start_playing(database)
    try:
        # The bot holds the file: check says so, and the backup reads beside it.
        busy = one_line(romme_bot("check", cwd=live, **TOKEN), 2)
        assert "in use by another romme-bot process" in busy and f"pid {child.pid}" in busy
        line = one_line(romme_bot("backup", "--to", str(tmp_path / "copy.db"), cwd=live), 0)
        assert "copied to" in line
        assert child.poll() is None, "the bot stopped during the backup"
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=10)
    assert "exists already" in one_line(romme_bot("backup", "--to", str(tmp_path / "copy.db"), cwd=live), 2)

    # Restore as docs/operating.md says: the bot stopped, its -wal and -shm gone, the copy in place.
    original = logged_moves(database)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(tmp_path / "copy.db", database)
    assert "not in use" in one_line(romme_bot("check", cwd=live, **TOKEN), 0)

    asyncio.run(unfinished_games_come_back(database))
    copied = logged_moves(database)
    # The copy is the bot's file as it was at one moment: each game's log, the start of the original's.
    for game, moves in copied.items():
        assert moves == original[game][: len(moves)]
    # Every move answered before the backup began is in it.
    assert {(game, seq) for game, seq, *_ in answered} <= {(g, m[0]) for g, ms in copied.items() for m in ms}


def test_backup_refuses_postgresql_in_one_line(tmp_path: Path) -> None:
    result = romme_bot("backup", "--to", "x.db", cwd=tmp_path, DATABASE_URL="postgresql://bot@db/romme")
    assert "pg_dump" in one_line(result, 2)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- logs


JSON_LOG = """
import logging
from bot.__main__ import configure_bot_logging
from bot.config import load_settings
from bot.logs import about_game
configure_bot_logging(load_settings(dotenv_path=None))
with about_game(7, guild_id=1 << 22):
    logging.getLogger("bot.service.timers").warning("game %s: a timed action failed", 7)
logging.getLogger("bot").info("stopped")
"""


@pytest.mark.slow
def test_log_format_json_writes_one_object_a_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", JSON_LOG],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LOG_FORMAT": "json", "SHARD_COUNT": "2"},
        cwd=tmp_path,
        check=True,
    )
    first, second = (json.loads(line) for line in result.stderr.splitlines())
    assert first["message"] == "game 7: a timed action failed" and first["level"] == "WARNING"
    assert (first["game"], first["guild"], first["shard"], first["logger"]) == (
        7,
        1 << 22,
        1,
        "bot.service.timers",
    )
    assert second["message"] == "stopped" and "game" not in second and second["time"].endswith("Z")
    text = subprocess.run(
        [sys.executable, "-c", JSON_LOG],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        check=True,
    )
    assert "WARNING  bot.service.timers: game 7: a timed action failed" in text.stderr.splitlines()[0]


def logged_moves(database: Path) -> dict[int, list[tuple[object, ...]]]:
    """Each game's move log in the SQLite file ``database``: (seq, user_id, move) rows, by game."""
    db = sqlite3.connect(database)
    try:
        return {
            game: [
                tuple(row)
                for row in db.execute("SELECT seq, user_id, move FROM moves WHERE game_id = ?", (game,))
            ]
            for (game,) in db.execute("SELECT id FROM games")
        }
    finally:
        db.close()


@pytest.mark.slow
def test_ratings_recompute_says_how_many_matches_it_rated(tmp_path: Path) -> None:
    # The command opens the database as the bot does (an empty file: nothing to rate).
    assert (
        one_line(romme_bot("ratings", "--recompute", cwd=tmp_path), 0) == "romme-bot: 0 matches rated again"
    )
    assert romme_bot("ratings", cwd=tmp_path).returncode == 2  # --recompute is what it does: asked for
