"""Health and metrics (issue 26): the real bot with ``HEALTH_PORT`` serves ``/healthz`` and ``/metrics``.

The bot runs in SimCord with its server on a free loopback port; the test reads both over HTTP from
a thread (the server runs on the test's event loop and must answer meanwhile), as a probe and
Prometheus would, and parses the metrics with prometheus-client's own parser.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord
import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot import create_bot
from bot.client import RommeBot
from bot.config import ConfigError
from bot.service.meter import NoMeter
from tests.discord.play_helpers import SEED, Player, Room, game_in, romme_bot

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    """The bot of the gameplay tests (seeded, no edit merging), with its health server on."""
    bot = create_bot(
        database_path=database_path,
        computer_delay=0,
        game_seed=SEED,
        table_edit_interval=0,
        table_edits_per_second=0,
        health_port=free_port(),
    )
    yield bot
    await bot.close()


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


async def get(bot: RommeBot, path: str) -> tuple[int, str, str]:
    """GET ``path`` of the bot's health server: (status, content type, body)."""
    assert bot.ops is not None
    return await asyncio.to_thread(_get, f"http://127.0.0.1:{bot.ops.port}{path}")


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a metrics page by (name, labels)."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return found[name, frozenset(labels.items())]


def families(text: str) -> set[str]:
    return {family.name for family in text_string_to_metric_families(text)}


async def start_with_a_computer(room: Room) -> None:
    """Ada opens a lobby, Bob joins, Ada adds a computer and starts."""
    lobby = await room.ada.slash(room.channel, "romme start", opening=0)
    assert lobby.response is not None
    await room.bob.click(lobby.response, label="Join")
    await room.ada.click(lobby.response, label="Add computer")
    await room.ada.click(lobby.response, label="Start")


@pytest.mark.slow
async def test_a_running_game_is_healthy_and_its_moves_show_in_the_metrics(room: Room) -> None:
    bot = romme_bot(room.env)
    await start_with_a_computer(room)
    people = (Player(room.env, room.ada, room.channel), Player(room.env, room.bob, room.channel))

    def on_turn() -> Player:
        # The computer's turns are played before a click returns: a person is always on turn here.
        game = game_in(room.env, room.channel)
        assert game.running and game.to_play is not None
        return next(p for p in people if p.actor.id == game.seats[game.to_play or 0].user_id)

    for _ in range(4):
        await on_turn().play_turn()
    # One table edit refused by Discord (a 500): counted by its code, as a failed request too.
    room.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=1)
    await on_turn().play_turn()

    status, content_type, body = await get(bot, "/healthz")
    assert status == 200, body
    assert content_type.startswith("application/json")
    health = json.loads(body)
    assert health["status"] == "ok" and health["problems"] == {}
    assert health["gateway_connected"] is True and health["shards"] == [0]
    assert health["shard_leases"] is None  # one process on an SQLite file holds no lease
    assert health["database_answering"] is True and health["writer_alive"] is True
    assert isinstance(health["database_ms"], float)
    assert 0 <= health["last_save_age_seconds"] < 60

    status, content_type, text = await get(bot, "/metrics")
    assert status == 200 and content_type.startswith("text/plain")
    found = samples(text)
    game = game_in(room.env, room.channel)
    assert value(found, "romme_games", status="playing") == 1
    assert value(found, "romme_games", status="lobby") == 0
    moved = {kind: value(found, "romme_moves_total", kind=kind) for kind in ("draw", "discard")}
    assert moved["draw"] >= 5 and moved["discard"] >= 4  # the people's and the computer's
    saves = value(found, "romme_save_seconds_count")
    assert saves >= sum(moved.values())  # every move is a save; the lobby's changes are saves too
    assert value(found, "romme_save_seconds_bucket", le="+Inf") == saves
    assert value(found, "romme_click_seconds_count") >= 10  # My hand, Draw, the select, Discard…
    assert value(found, "romme_computer_decision_seconds_count") >= 2
    assert value(found, "romme_commits_total") >= 1
    assert value(found, "romme_table_edits_total", result="sent") >= 1
    assert ("romme_table_edits_total", frozenset({("result", "merged")})) in found
    assert value(found, "romme_table_edits_refused_total", code="500") == 1
    assert value(found, "romme_failed_requests_total", lane="table", code="500") == 1
    assert ("romme_panel_edits_total", frozenset({("result", "sent")})) in found
    assert value(found, "romme_edit_queue") == 0
    assert value(found, "romme_hand_panels_open") >= 1
    assert value(found, "romme_shard_leases_held") == 0
    assert value(found, "romme_gateway_connected", shard="0") == 1
    assert value(found, "romme_card_faces", status="emoji") == 1
    assert value(found, "romme_card_faces", status="text") == 0
    assert value(found, "romme_last_save_age_seconds") >= 0
    assert "romme_panel_edits_refused" in families(text)
    assert game.version >= 10


async def test_a_closed_database_makes_the_health_503_naming_it(room: Room) -> None:
    bot = romme_bot(room.env)
    await room.ada.slash(room.channel, "romme start")
    assert (await get(bot, "/healthz"))[0] == 200
    await bot.storage.close()
    status, _, body = await get(bot, "/healthz")
    assert status == 503
    health = json.loads(body)
    assert health["status"] == "failing"
    assert set(health["problems"]) == {"database", "writer"}
    assert "not open" in health["problems"]["database"]
    assert health["database_answering"] is False and health["writer_alive"] is False
    assert health["gateway_connected"] is True  # what is well is still said
    # The metrics still answer, without the database's series.
    status, _, text = await get(bot, "/metrics")
    assert status == 200 and "romme_commits_total" not in text and "romme_games" in text


async def test_a_stopped_writer_thread_makes_the_health_503_naming_the_writer(room: Room) -> None:
    bot = romme_bot(room.env)
    table = await room.ada.slash(room.channel, "romme start")
    assert table.response is not None
    writes = bot.storage._writes  # type: ignore[attr-defined]  # the SQLite backend's writer
    await writes.close()  # the thread ends, as it would after a fatal error; the file stays open
    status, _, body = await get(bot, "/healthz")
    assert status == 503
    assert set(json.loads(body)["problems"]) == {"writer"}


async def test_the_health_server_stops_with_the_bot(database_path: Path) -> None:
    bot = create_bot(database_path=database_path, computer_delay=0, health_port=free_port())
    async with simcord.run(bot):
        assert bot.ops is not None
        port = bot.ops.port
        status, _, _ = await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/metrics")
        assert status == 200
        await bot.close()
        with pytest.raises(urllib.error.URLError):
            await asyncio.to_thread(_get, f"http://127.0.0.1:{port}/healthz")


async def test_without_health_port_nothing_listens_and_nothing_is_measured(database_path: Path) -> None:
    bot = create_bot(database_path=database_path, computer_delay=0)
    try:
        async with simcord.run(bot):
            assert bot.metrics is None and bot.ops is None
            assert isinstance(bot.tables.changes.meter, NoMeter)
    finally:
        await bot.close()


async def test_a_busy_health_port_is_one_line_naming_the_setting(database_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        bot = create_bot(database_path=database_path, health_port=port)
        try:
            with pytest.raises(ConfigError, match=rf"^HEALTH_PORT {port} on 127.0.0.1 cannot be listened on"):
                await bot.setup_hook()
            assert bot._storage is None  # refused before the database was opened
        finally:
            await bot.close()


def dockerfile_healthcheck() -> list[str]:
    """The command of the Dockerfile's HEALTHCHECK (its exec form, continuation lines joined)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    (line,) = [line for line in text.splitlines() if line.startswith("HEALTHCHECK ")]
    command: list[str] = json.loads(line.split(" CMD ", 1)[1])
    return command


def compose_healthchecks() -> dict[str, list[str]]:
    """The healthcheck command of each bot service of compose.yaml."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))["services"]
    return {name: spec["healthcheck"]["test"] for name, spec in services.items() if name != "db"}


def run_check(command: list[str], port: str) -> int:
    """Run a container's health check here, as the container would, with ``HEALTH_PORT=port``."""
    assert command[0] == "python"
    env = {**os.environ, "HEALTH_PORT": port}
    return subprocess.run([sys.executable, *command[1:]], env=env, capture_output=True, timeout=30).returncode


async def test_the_image_and_compose_health_checks_ask_healthz(room: Room) -> None:
    command = dockerfile_healthcheck()
    checks = compose_healthchecks()
    assert set(checks) == {"bot-a", "bot-b"}
    for test in checks.values():
        assert test == ["CMD", *command]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "\nENV HEALTH_PORT=8080 HEALTH_HOST=0.0.0.0\nHEALTHCHECK " in dockerfile

    bot = romme_bot(room.env)
    await room.ada.slash(room.channel, "romme start")
    assert bot.ops is not None
    port = str(bot.ops.port)
    assert await asyncio.to_thread(run_check, command, port) == 0
    assert await asyncio.to_thread(run_check, command, "") == 0  # HEALTH_PORT set empty: off, passes
    assert await asyncio.to_thread(run_check, command, str(free_port())) != 0  # nothing answers
    await bot.storage.close()
    assert await asyncio.to_thread(run_check, command, port) != 0  # 503
