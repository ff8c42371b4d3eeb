"""The playground (issue 6): the real bot behind SimCord's local page, played over loopback HTTP.

The tests talk to the page's server the way the page's own JavaScript does: ``POST /api/pages`` opens a
page (a viewer's context), ``GET /api/state`` reads what it shows, ``POST /api/action`` clicks. Nothing
of the bot, the preview or the playground is replaced.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.playground import INSTALL_HINT, Playground, PlaygroundOptions, main, take_screenshots
from bot.playground.chromium import MAX_PNG_BYTES, WINDOW, capture, find_chromium
from bot.playground.shots import SCRIPT_NAMES, Script, components, find_seed, script_options

ROOT = Path(__file__).resolve().parents[1]


class Page:
    """One browser page of the preview, driven over HTTP like the bundled JavaScript drives it."""

    def __init__(self, playground: Playground) -> None:
        self.origin = playground.origin
        self.capability = playground.capability
        self.context: str | None = None
        self.generation = 0
        self.sequence = 0
        self.state: dict[str, Any] = {}

    def _request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"X-Simcord-Capability": self.capability, "Content-Type": "application/json"}
        if self.context is not None:
            headers["X-Simcord-Context"] = self.context
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.origin + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            return error.code, None
        return status, json.loads(raw) if raw[:1] in (b"{", b"[") else raw

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        # In a thread: the page's server runs on this test's event loop and must answer meanwhile.
        return await asyncio.to_thread(self._request, method, path, body)

    async def open(self) -> dict[str, Any]:
        status, state = await self.request("POST", "/api/pages", {})
        assert status == 200 and isinstance(state, dict)
        self.context = state["context"]["id"]
        self.state = state
        return state

    async def read(self) -> dict[str, Any]:
        status, state = await self.request("GET", "/api/state")
        assert status == 200 and isinstance(state, dict)
        self.state = state
        return state

    def control(self, custom_id_action: str) -> tuple[str, str]:
        """(message id, control key) of the newest shown button whose custom id ends with the action."""
        for message_id in reversed(self.state["timeline"]):
            for row in self.state["messages"][message_id]["components"]:
                for item in row.get("components", []):
                    if item.get("custom_id", "").split(":")[2:3] == [custom_id_action]:
                        return message_id, item["control_key"]
        raise AssertionError(f"no {custom_id_action!r} button on the page")

    async def click(self, custom_id_action: str) -> dict[str, Any]:
        message_id, key = self.control(custom_id_action)
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.state["context"]["generation"],
            "bot_generation": self.state["botGeneration"],
            "published_revision": self.state["publishedRevision"],
            "kind": "click",
            "target_id": message_id,
            "control_key": key,
        }
        status, receipt = await self.request("POST", "/api/action", body)
        assert status == 200 and isinstance(receipt, dict)
        return receipt

    def text(self) -> str:
        """Everything the page shows, as one string (message contents and embeds)."""
        return json.dumps([self.state["messages"][m] for m in self.state["timeline"]], ensure_ascii=False)


@pytest.mark.slow
async def test_the_page_is_served_on_loopback_and_a_click_there_starts_the_game(tmp_path: Path) -> None:
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", computers=2, computer_delay=0.2)
    async with Playground(options) as playground:
        assert playground.url.startswith("http://127.0.0.1:")
        page = Page(playground)
        status, html = await page.request("GET", "/")
        assert status == 200 and b"<html" in html.lower()
        # Without the secret the page's data is refused.
        page.capability = "wrong"
        status, _ = await page.request("POST", "/api/pages", {})
        assert status == 401
        page.capability = playground.capability

        await page.open()
        assert "Seats (3/6)" in page.text()  # the lobby the playground opened, two computers seated
        receipt = await page.click("start")
        assert not receipt.get("rejected"), receipt
        await page.read()
        assert "round 1 of 3" in page.text()  # the lobby message became the table

        # The computers (seats 1 and 2) play first, in real time, with no click at all: the page
        # shows it becomes "your" turn. (R4: the seat after the dealer plays first.)
        you = playground.people[0]
        deadline = time.monotonic() + 30  # two moves 1.5 s apart; room for a busy CI machine
        while time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            await page.read()
            if "To play: **Sam**" in page.text() and f"<@{you.id}>, your turn" in page.text():
                break
        else:
            raise AssertionError("the computers' moves never reached the page")
    assert (tmp_path / "romme.db").exists()


def face_assets_shown(page: Page) -> list[dict[str, Any]]:
    """The page's pictures of custom emojis (the card faces) that it has the bytes of."""
    return [
        asset
        for asset in page.state["assets"].values()
        if asset["filename"].split(".")[0].isdigit() and asset.get("available")
    ]


async def test_the_page_shows_the_card_faces_with_their_pictures(tmp_path: Path) -> None:
    # SimCord keeps an uploaded emoji's name and id, not its picture: the playground hands the
    # preview the drawings, so the faces on the table are pictures, not empty boxes.
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", computers=2, computer_delay=0, seed=2)
    async with Playground(options) as playground:
        assert playground.bot is not None and playground.bot.card_faces
        page = Page(playground)
        await page.open()
        await page.click("start")
        await page.read()
        # The table shows cards as faces (CARD_STYLE=emoji), named by their card.
        assert re.search(r"<:(clubs|diamonds|hearts|spades|joker)_[a-z0-9_]+:[0-9]+>", page.text())
        shown = face_assets_shown(page)
        assert shown and all(asset["contentType"] == "image/png" and asset["bytes"] > 0 for asset in shown)


async def test_a_restart_on_the_same_database_shows_the_running_game_with_its_true_time_left(
    tmp_path: Path,
) -> None:
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", computers=2, computer_delay=0, seed=2)
    async with Playground(options) as playground:
        script = Script(playground)
        await script.start()  # the computers play up to "your" first turn (R4)
        await playground.env.advance_time(50)  # 50 of "your" 120 seconds go by
        game = script.game()
        assert game.turn_deadline is not None
        deadline = game.turn_deadline
        stopped_at = playground.env.now().timestamp()
    assert deadline - stopped_at == pytest.approx(70, abs=2)

    async with Playground(options) as playground:
        # No new lobby: the game is back, in the same #romme, with the same people.
        assert playground.resumed is not None and playground.resumed.id == game.id
        assert playground.lobby is None
        page = Page(playground)
        await page.open()
        text = page.text()
        assert "round 1 of 3" in text and "To play: **Sam**" in text
        # The turn timer goes on where it stopped: 70 s left, not 70 s plus the new clock's lag.
        left = int(text.split("Time runs out <t:")[1].split(":")[0]) - playground.env.now().timestamp()
        assert 60 <= left <= 71
        # The table's buttons work: "your" seat is still "you".
        receipt = await page.click("hand")
        assert not receipt.get("rejected"), receipt
        await page.read()
        assert "Your hand" in page.text()


async def test_another_person_can_be_viewed_as_and_sits_at_the_table(tmp_path: Path) -> None:
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", people=2, computers=1)
    async with Playground(options) as playground:
        page = Page(playground)
        state = await page.open()
        assert [viewer["name"] for viewer in state["viewers"]] == ["Sam", "Alex"]
        assert "Seats (3/6)" in page.text()  # you, alex and one computer


def test_too_many_seats_are_refused_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--people", "4", "--computers", "3", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["romme-bot playground: 4 people and 3 computers make 7 seats; a table has at most 6"]


@pytest.mark.parametrize("module", ["simcord", "markdown_it", "PIL"])
def test_without_the_extra_one_line_says_what_to_install(module: str) -> None:
    # The module is made unimportable in a fresh interpreter, as when the extra is not installed.
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from bot.playground import main\n"
        "sys.exit(main(['--no-browser']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [INSTALL_HINT]
    assert "pip install '.[playground]'" in INSTALL_HINT
    assert done.stdout == ""


def playground_argv(database: Path) -> list[str]:
    """The command that runs ``romme-bot playground --no-browser --database DATABASE`` with this
    checkout's bot (the tests' interpreter; no installed script needed)."""
    return [
        sys.executable,
        "-c",
        "import sys; from bot.playground import main; sys.exit(main(sys.argv[1:]))",
        "--no-browser",
        "--database",
        str(database),
    ]


def serve_until_ctrl_c(database: Path) -> tuple[int, str, str, str]:
    """Run ``romme-bot playground --no-browser --database DATABASE`` until its address is printed
    and served, then Ctrl-C: (exit status, stdout, stderr, the address)."""
    process = subprocess.Popen(
        playground_argv(database),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "Ctrl-C stops" in line:
                break
        url = next(line.strip() for line in lines if "127.0.0.1" in line)
        assert url.startswith("http://127.0.0.1:") and "/#" in url
        with urllib.request.urlopen(url.split("#")[0], timeout=10) as response:
            assert response.status == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, "".join(lines) + out, err, url


@pytest.mark.slow
def test_the_command_serves_until_ctrl_c_then_says_where_the_games_are(tmp_path: Path) -> None:
    database = tmp_path / "kept.db"
    status, out, err, url = serve_until_ctrl_c(database)
    assert status == 0, err
    assert f"The games are saved in {database}" in out
    assert out.count(url) == 1  # the secret address is printed once
    assert "Click Start in the lobby" in out
    assert database.exists()

    # Started again on the same database, the console says what is running there.
    status, out, err, _ = serve_until_ctrl_c(database)
    assert status == 0, err
    assert "Back to game 1 in #romme: its lobby is open (Sam, Computer 1 and Computer 2)." in out


async def test_screenshots_are_skipped_with_a_message_without_chromium(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no browser on this PATH
    assert find_chromium() is None
    assert await take_screenshots(tmp_path / "shots") == 0
    assert "no Chromium found" in capsys.readouterr().err
    assert not (tmp_path / "shots").exists()


@pytest.mark.slow
@pytest.mark.parametrize("language", [None, "de", "id"])
async def test_the_scripted_game_of_the_screenshots_plays_to_the_round_end(language: str | None) -> None:
    # What --screenshot plays, without a browser: the seed is found and every step gets through, in
    # every language (the script finds the buttons by custom id, never by their English labels).
    seed = await find_seed(language=language)
    assert seed is not None
    async with Playground(script_options(seed, language)) as playground:
        script = Script(playground)
        assert await script.begin()
        await script.meld()
        await script.discard()
        await script.finish_round()
        match = script.game().match
        assert match is not None and match.round.phase == "over"
        assert script.last_with("next").id != script.lobby_id
        # "Your" hand panel followed the round without a click: it shows the round's end.
        panel = script.message(script.panel_id)
        scored = t("panel.round_score", language, score=7, total=7).split("7")[0]
        assert scored and scored in (panel.embeds[0].description or "")
        # The table speaks the game's language, and its people carry names of it.
        table = script.message(script.table_id)
        assert t("button.hand", language) in [getattr(item, "label", None) for item in components(table)]
        assert [person.name for person in playground.people] == list(SCRIPT_NAMES[language or "en"])


@pytest.mark.slow
@pytest.mark.skipif(find_chromium() is None, reason="needs Chromium (Debian: apt-get install chromium)")
async def test_chromium_photographs_the_page_once_it_is_drawn(tmp_path: Path) -> None:
    from PIL import Image

    browser = find_chromium()
    assert browser is not None
    async with Playground(PlaygroundOptions(database_path=tmp_path / "romme.db")) as playground:
        await capture(browser, playground.url, tmp_path / "lobby.png")
    png = (tmp_path / "lobby.png").read_bytes()
    assert len(png) <= MAX_PNG_BYTES
    with Image.open(tmp_path / "lobby.png") as picture:
        assert picture.mode == "P" and picture.width == WINDOW[0]


def test_a_busy_port_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"port {port} on 127.0.0.1 is not free" in err


@pytest.mark.slow
def test_the_command_with_health_port_serves_health_and_metrics_while_a_game_runs(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from prometheus_client.parser import text_string_to_metric_families

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        playground_argv(tmp_path / "romme.db"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HEALTH_PORT": str(port)},
    )

    def get(path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def series(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        return {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }

    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "Ctrl-C stops" in line:
                break
        assert f"Health and metrics: http://127.0.0.1:{port}/healthz and /metrics\n" in lines
        url = next(line.strip() for line in lines if line.strip().startswith("http://127.0.0.1:"))
        page = Page(SimpleNamespace(origin=url.split("/#")[0], capability=url.split("#")[1]))  # type: ignore[arg-type]
        status, state = page._request("POST", "/api/pages", {})
        assert status == 200 and isinstance(state, dict)
        page.context, page.state = state["context"]["id"], state
        message_id, key = page.control("start")
        status, receipt = page._request(
            "POST",
            "/api/action",
            {
                "protocol_version": 3,
                "sequence": 1,
                "request_id": uuid.uuid4().hex,
                "generation": state["context"]["generation"],
                "bot_generation": state["botGeneration"],
                "published_revision": state["publishedRevision"],
                "kind": "click",
                "target_id": message_id,
                "control_key": key,
            },
        )
        assert status == 200 and not receipt.get("rejected"), receipt

        # The computers play in real time (1.5 s apart): their moves reach the metrics.
        deadline = time.monotonic() + 30
        while True:
            status, text = get("/metrics")
            assert status == 200
            found = series(text)
            if found.get(("romme_moves_total", (("kind", "draw"),)), 0) >= 1 or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert found[("romme_games", (("status", "playing"),))] == 1
        assert found[("romme_moves_total", (("kind", "draw"),))] >= 1
        assert found[("romme_computer_decision_seconds_count", ())] >= 1
        assert found[("romme_click_seconds_count", ())] >= 1  # the click on Start
        assert found[("romme_save_seconds_count", ())] >= 2
        assert found[("romme_gateway_connected", (("shard", "0"),))] == 1
        names = {name for name, _ in found}
        for name in (
            "romme_commits_total",
            "romme_table_edits_total",
            "romme_edit_queue",
            "romme_shard_leases_held",
            "romme_card_faces",
            "romme_panel_edits_total",
        ):
            assert name in names, name
        status, body = get("/healthz")
        assert status == 200, body
        health = json.loads(body)
        assert health["status"] == "ok" and health["gateway_connected"] and health["database_answering"]
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
    finally:
        if process.poll() is None:
            process.kill()


def test_a_busy_or_bad_health_port_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEALTH_PORT", "http")
    assert main(["--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err == "romme-bot playground: HEALTH_PORT must be a port number from 1 to 65535, not 'http'\n"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        monkeypatch.setenv("HEALTH_PORT", str(port))
        assert main(["--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"HEALTH_PORT {port} on 127.0.0.1 cannot be listened on" in err
