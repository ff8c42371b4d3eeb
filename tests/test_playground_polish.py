"""The playground as a newcomer met it (issue 30): a name, not "you"; a click right after another
not refused as stale; a countdown that moves; a thread game on the page; ``--locales fr`` refused."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.playground import Playground, PlaygroundOptions, main
from tests.test_playground import Page


def test_the_person_has_a_name_of_the_tables_language() -> None:
    assert PlaygroundOptions().names == ("Sam",)
    assert PlaygroundOptions(language="de").names == ("Lena",)
    assert PlaygroundOptions(people=2, computers=0, language="id").names == ("Sari", "Budi")


def test_a_locale_the_bot_does_not_speak_is_refused_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--locales", "fr", "--no-browser"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["romme-bot playground: locale fr is not one the bot speaks: en, en-US, en-GB, de or id"]


@pytest.mark.slow
async def test_a_click_right_after_start_is_not_refused_and_nothing_is_republished_for_nothing(
    tmp_path: Path,
) -> None:
    # The computers wait 5 s: nothing changes after Start but what the click itself showed.
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", computers=2, computer_delay=5)
    async with Playground(options) as playground:
        page = Page(playground)
        await page.open()
        receipt = await page.click("start")
        assert not receipt.get("rejected"), receipt
        await page.read()
        revision = page.state["publishedRevision"]
        await asyncio.sleep(0.8)  # three turns of the watcher
        await page.read()
        assert page.state["publishedRevision"] == revision  # no republish of what the click showed
        # My hand with what the page drew before a later publication: delivered (Discord delivers
        # a click on any message a person sees), not "Action was not completed".
        playground.republish()
        receipt = await page.click("hand")
        assert not receipt.get("rejected"), receipt
        assert receipt.get("settlement") == "settled" and receipt.get("acknowledgement") == "acknowledged"
        await page.read()
        assert "Your hand" in page.text()


@pytest.mark.slow
async def test_the_turn_countdown_moves_with_the_clock(tmp_path: Path) -> None:
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", computers=1, computer_delay=0.2)
    async with Playground(options) as playground:
        began, clock = time.monotonic(), playground.env.now()
        page = Page(playground)
        await page.open()
        await page.click("start")
        deadline = time.monotonic() + 20
        while "Time runs out <t:" not in page.text() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            await page.read()
        assert "Time runs out <t:" in page.text(), "the person's turn never came"
        # SimCord's clock follows the wall clock (it stood still between two timers).
        await asyncio.sleep(1.0)
        moved = (playground.env.now() - clock).total_seconds()
        assert moved >= 0.8 * (time.monotonic() - began) - 0.5
        # A minute later the page draws the table again, its countdown one minute on.
        ticks = [m.get("countdownTick") for m in page.state["messages"].values() if ":R>" in str(m)]
        assert ticks and None not in ticks
        playground.env.backend.advance_clock(61)
        await asyncio.sleep(0.6)
        await page.read()
        later = [m.get("countdownTick") for m in page.state["messages"].values() if ":R>" in str(m)]
        assert later and later[0] != ticks[0]


async def test_a_game_in_a_thread_is_shown_on_the_page_at_the_same_address(tmp_path: Path) -> None:
    options = PlaygroundOptions(database_path=tmp_path / "romme.db", open_lobby=False)
    async with Playground(options) as playground:
        url = playground.url
        you = playground.people[0]
        result = await you.slash(playground.channel, "romme start", thread=True, computers=1)
        assert result.response is not None and "opened a Rommé table" in (result.response.content or "")
        deadline = time.monotonic() + 10
        while playground.page_channel.id == playground.channel.id and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert playground.page_channel.id != playground.channel.id
        assert playground.url == url  # the open page reloads at the same address
        page = Page(playground)
        await page.open()
        assert "Host: **Sam**" in page.text() and "Seats (2/6)" in page.text()
        receipt = await page.click("start")
        assert not receipt.get("rejected"), receipt
        await page.read()
        assert "round 1 of 2" in page.text()
