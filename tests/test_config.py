"""Settings from the environment and .env, and the command line's one-line refusals (exit 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot
import bot.config
from bot.config import EXAMPLE_TOKEN, ConfigError, Settings, load_settings

ROOT = Path(bot.__file__).resolve().parent.parent


def test_defaults_are_the_documented_ones() -> None:
    settings = load_settings({}, dotenv_path=None)
    assert settings == Settings()
    assert settings.token is None
    assert settings.database_path == Path("romme.db")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timeout == 120.0
    assert settings.computer_delay == 1.5
    assert settings.lobby_timeout == 900.0
    assert settings.idle_game_timeout == 86400.0
    assert settings.max_lobbies_per_host == 3


def test_every_setting_is_read_from_the_environment() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": " abc.def ",
            "DATABASE_PATH": "/data/romme.db",
            "DEV_GUILD_ID": "123456789012345678",
            "LOG_LEVEL": "debug",
            "TURN_TIMEOUT": "90",
            "COMPUTER_DELAY": "0",
            "LOBBY_TIMEOUT": "600",
            "IDLE_GAME_TIMEOUT": "0",
            "MAX_LOBBIES_PER_HOST": "5",
        },
        dotenv_path=None,
    )
    assert settings == Settings(
        token="abc.def",
        database_path=Path("/data/romme.db"),
        dev_guild_id=123456789012345678,
        log_level="DEBUG",
        turn_timeout=90.0,
        computer_delay=0.0,
        lobby_timeout=600.0,
        idle_game_timeout=0.0,
        max_lobbies_per_host=5,
    )


def test_the_environment_wins_over_the_env_file(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# a comment\nDISCORD_TOKEN=from-file\nTURN_TIMEOUT=60\nCOMPUTER_DELAY=\n")
    settings = load_settings({"TURN_TIMEOUT": "75"}, dotenv_path=dotenv)
    assert settings.token == "from-file"
    assert settings.turn_timeout == 75.0
    assert settings.computer_delay == 1.5  # empty means "not set"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_TIMEOUT", "soon"),
        ("TURN_TIMEOUT", "0"),
        ("TURN_TIMEOUT", "nan"),
        ("COMPUTER_DELAY", "-1"),
        ("COMPUTER_DELAY", "inf"),
        ("DEV_GUILD_ID", "my-server"),
        ("DEV_GUILD_ID", "-5"),
        ("LOG_LEVEL", "LOUD"),
        ("LOBBY_TIMEOUT", "15m"),
        ("LOBBY_TIMEOUT", "-60"),
        ("IDLE_GAME_TIMEOUT", "a day"),
        ("IDLE_GAME_TIMEOUT", "inf"),
        ("MAX_LOBBIES_PER_HOST", "many"),
        ("MAX_LOBBIES_PER_HOST", "-1"),
        ("MAX_LOBBIES_PER_HOST", "2.5"),
        ("LOG_FORMAT", "xml"),
        ("HEALTH_PORT", "0"),
        ("HEALTH_PORT", "65536"),
        ("HEALTH_PORT", "metrics"),
    ],
)
def test_a_bad_value_names_its_setting(name: str, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({name: value}, dotenv_path=None)
    assert caught.value.setting == name
    assert str(caught.value).startswith(name)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("rate", [-1, "40", True, float("nan"), float("inf")])
def test_a_bad_table_edit_budget_is_refused(rate: object) -> None:
    with pytest.raises(ConfigError, match="table_edits_per_second must be a number 0 or more"):
        Settings(table_edits_per_second=rate)  # type: ignore[arg-type]


def test_the_table_edit_budget_defaults_under_discords_global_limit() -> None:
    assert 0 < Settings().table_edits_per_second < 50
    assert Settings(table_edits_per_second=0).table_edits_per_second == 0.0  # no limit


def test_health_and_log_format_are_off_and_text_unless_set() -> None:
    default = load_settings({}, dotenv_path=None)
    assert (default.health_port, default.health_host, default.log_format) == (None, "127.0.0.1", "text")
    given = load_settings(
        {"HEALTH_PORT": "9100", "HEALTH_HOST": "0.0.0.0", "LOG_FORMAT": "JSON"}, dotenv_path=None
    )
    assert (given.health_port, given.health_host, given.log_format) == (9100, "0.0.0.0", "json")


def test_the_token_is_only_required_to_connect() -> None:
    settings = load_settings({}, dotenv_path=None)
    with pytest.raises(ConfigError, match=r"^DISCORD_TOKEN is not set"):
        settings.require_token()
    assert Settings(token=EXAMPLE_TOKEN).require_token() == EXAMPLE_TOKEN


def run_cli(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in bot.config.ENV_NAMES.values()}
    paths = [str(ROOT), *filter(None, clean.get("PYTHONPATH", "").split(os.pathsep))]
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**clean, **env, "PYTHONPATH": os.pathsep.join(paths)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_the_bot_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    result = run_cli(cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("romme-bot: DISCORD_TOKEN is not set")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "romme.db").exists()  # nothing is created before the settings are good


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("abc", "it is not three parts separated by dots"),
        ("abc def", "it has spaces in it"),
        (f"Bot {EXAMPLE_TOKEN}", "it starts with 'Bot ': give the token alone"),
        ("abc.def.ghi", "its first part is not a user id"),
    ],
)
def test_a_value_that_cannot_be_a_token_is_refused_at_start_in_one_line(
    tmp_path: Path, token: str, why: str
) -> None:
    # Issue 25, point 10: refused before anything is opened or tried against Discord (exit 2, not
    # the exit 1 of "cannot reach Discord"), without the value in the message.
    result = run_cli(cwd=tmp_path, DISCORD_TOKEN=token)
    assert result.returncode == 2, result.stderr
    assert (
        result.stderr == f"romme-bot: DISCORD_TOKEN is not a Discord bot token ({why}): copy it again "
        "from the Bot page of the Discord developer portal\n"
    )
    assert not (tmp_path / "romme.db").exists()


def test_a_bad_setting_in_the_env_file_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nCOMPUTER_DELAY=fast\n")
    result = run_cli("run", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("romme-bot: COMPUTER_DELAY must be")
    assert result.stderr.count("\n") == 1


def test_an_unreadable_database_exits_2_before_connecting(tmp_path: Path) -> None:
    (tmp_path / "bad.db").write_bytes(b"\x00garbage" * 512)
    result = run_cli(cwd=tmp_path, DISCORD_TOKEN=EXAMPLE_TOKEN, DATABASE_PATH="bad.db")
    assert result.returncode == 2
    assert result.stderr.startswith("romme-bot: bad.db is not a readable SQLite database")
    assert result.stderr.count("\n") == 1


def test_the_engine_imports_without_discord() -> None:
    code = "import bot.engine, bot.engine.cards, sys; assert 'discord' not in sys.modules, 'discord!'"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_from_bot_import_create_bot_works() -> None:
    from bot import create_bot

    assert create_bot is bot.client.create_bot
