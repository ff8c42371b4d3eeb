"""compose.yaml: PostgreSQL and two bot processes splitting the shards, checked against the bot's
own settings (bot/config.py): every variable is one the bot reads and takes, the processes share
one database and one SHARD_COUNT, and their SHARD_IDS cover every shard once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot.config import ENV_NAMES, load_settings

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def services() -> dict[str, Any]:
    return dict(yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["services"])


def test_compose_runs_postgres_and_two_bots_that_split_the_shards() -> None:
    found = services()
    database = found["db"]
    assert str(database["image"]).startswith("postgres:15")
    assert database["environment"]["POSTGRES_DB"] == "romme"
    bots = {name: spec for name, spec in found.items() if name != "db"}
    assert len(bots) == 2
    shards: list[int] = []
    counts, urls = set(), set()
    for spec in bots.values():
        assert spec["depends_on"]["db"]["condition"] == "service_healthy"
        environment = {key: str(value) for key, value in spec["environment"].items()}
        assert set(environment) <= set(ENV_NAMES.values()), set(environment) - set(ENV_NAMES.values())
        # The settings as the bot reads them (the password is .env's; any will do here).
        filled = {key: value.replace("${POSTGRES_PASSWORD}", "secret") for key, value in environment.items()}
        settings = load_settings(filled, dotenv_path=None)
        assert settings.database_url is not None and "@db:5432/romme" in settings.database_url
        assert settings.shards is not None
        shards += settings.shards
        counts.add(settings.shard_count)
        urls.add(settings.database_url)
    (count,) = counts
    assert count is not None
    assert len(urls) == 1, "the processes share one database"
    assert sorted(shards) == list(range(count)), "every shard is run by exactly one process"
    assert "POSTGRES_PASSWORD" in database["environment"]["POSTGRES_PASSWORD"]
    assert "romme-postgres" in yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))["volumes"]
