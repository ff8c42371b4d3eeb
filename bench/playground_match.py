"""A whole match played through the playground's page: Chromium, driven by Playwright, clicks as a
person does (Start, My hand, Draw, the discard menu, Next round), then a game in a thread.

It checks what a newcomer met on the page (issue 30): a click answered "Action was not completed",
a turn countdown that did not move, a thread game that could not be opened on the page. Prints JSON:
the turns and clicks played, every page action that was not completed, the countdown texts seen
during one turn, whether the thread game showed on the page, and the seconds it took; with
``--shots DIR``, pictures of the way.

    python bench/playground_match.py --chromium /usr/bin/chromium --shots /tmp/shots

Needs ``pip install '.[bench,playground]'`` and a Chromium (Playwright's own browsers are not used).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.async_api import Locator, Page, Response, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bot.playground.session import Playground, PlaygroundOptions

TABLE = "article.channel-message:has(.button-label:text-is('My hand'))"
"""The table message: the one with the My hand button."""
PANEL = "article.channel-message:has(.message-ephemeral-note):has-text('Your hand')"
"""A hand panel (ephemeral, "Your hand — 13 cards")."""


class Driver:
    """The person at the page: what it clicks, and every page action that was not completed."""

    def __init__(self, page: Page, name: str, shots: Path | None) -> None:
        self.page = page
        self.name = name
        self.shots = shots
        self.clicks = 0
        self.reopened = 0
        self.fallbacks = 0
        self.failed: list[dict[str, Any]] = []
        self.rng = random.Random(7)
        page.on("response", lambda response: asyncio.ensure_future(self._read(response)))

    async def _read(self, response: Response) -> None:
        if not response.url.endswith("/api/action"):
            return
        try:
            body = await response.json()
        except Exception:  # a body the page never got (the page closed): nothing to read
            return
        if isinstance(body, dict) and (
            body.get("rejected")
            or body.get("settlement") in ("rejected", "failed", "timeout", "cancelled")
            or body.get("acknowledgement") == "unacknowledged"
        ):
            codes = [item.get("code") for item in body.get("diagnostics", [])]
            asked = response.request.post_data_json
            self.failed.append({"settlement": body.get("settlement"), "codes": codes, "asked": asked})

    async def shot(self, name: str) -> None:
        if self.shots is not None:
            await self.page.wait_for_timeout(400)  # the faces' pictures load after the text
            await self.page.screenshot(path=str(self.shots / f"{name}.png"))

    async def text(self, selector: str = "body") -> str:
        found = self.page.locator(selector)
        return await found.last.inner_text() if await found.count() else ""

    async def click(self, where: Locator, label: str) -> None:
        self.clicks += 1
        await where.get_by_role("button", name=label, exact=True).first.click()

    async def discard_any(self) -> None:
        """Open the panel's discard menu and choose one card: the turn ends (R11)."""
        options = self.page.locator("[role=option]:visible")
        for _ in range(2):
            panel = self.page.locator(PANEL).last
            trigger = panel.get_by_role("combobox", name="Discard a card to end your turn")
            try:
                await trigger.wait_for(timeout=5000)
            except PlaywrightTimeout:
                return  # no discard now (the round ended on the draw: the stock ran out, R18)
            await trigger.evaluate("element => element.scrollIntoView({block: 'end'})", timeout=5000)
            await trigger.click(timeout=5000)
            try:
                await options.first.wait_for(timeout=2000)
                break
            except PlaywrightTimeout:
                # SimCord's page still counts the menu of the last turn as open (the same panel,
                # edited in place, has the same menu): its first click only closes that one.
                self.reopened += 1
        count = await options.count()
        if count:
            self.clicks += 1
            await options.nth(self.rng.randrange(count)).click()
            return
        # The menu would not open: one card chosen in the card menu, then the Discard button.
        self.fallbacks += 1
        await self.page.keyboard.press("Escape")
        panel = self.page.locator(PANEL).last
        cards = panel.get_by_role("combobox", name="Select cards from your hand")
        await cards.evaluate("element => element.scrollIntoView({block: 'end'})")
        await cards.click()
        await options.first.wait_for(timeout=5000)
        # The page may still hold a choice of an earlier turn in this menu: none but one card.
        chosen = self.page.locator("[role=option][aria-selected=true]:visible")
        while await chosen.count():
            await chosen.first.click()
        free = self.page.locator("[role=option][aria-selected=false]:visible")
        await free.nth(self.rng.randrange(await free.count())).click()
        await cards.click()  # a multiple choice is sent when its menu closes
        self.clicks += 2
        await self.wait_text(PANEL, "Selected:", 10)
        await self.click(self.page.locator(PANEL).last, "Discard")

    async def wait_text(self, selector: str, wanted: str, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if wanted in await self.text(selector):
                return True
            await self.page.wait_for_timeout(200)
        return False


async def countdown(driver: Driver, seconds: float) -> list[str]:
    """The panel's "Time runs out in …" texts seen over ``seconds`` of one turn, in order."""
    seen: list[str] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        text = await driver.text(PANEL)
        for line in text.splitlines():
            if "Time runs out" in line:
                part = line.split("Time runs out", 1)[1].strip(" .")
                if not seen or seen[-1] != part:
                    seen.append(part)
        if len(seen) >= 2:
            break
        await driver.page.wait_for_timeout(1000)
    return seen


async def play_match(playground: Playground, driver: Driver, *, watch_countdown: float) -> dict[str, Any]:
    page = driver.page
    me = driver.name
    await page.get_by_role("button", name="Start", exact=True).click()
    driver.clicks += 1
    # The moment the issue names: My hand at once after Start.
    await driver.click(page.locator(TABLE).last, "My hand")
    await driver.wait_text(PANEL, "Your hand", 10)
    await driver.shot("1-first-hand")
    turns = 0
    countdown_seen: list[str] = []
    started = time.monotonic()
    while time.monotonic() - started < 900:
        table = await driver.text(TABLE)
        if "The match is over" in table:
            break
        next_round = page.get_by_role("button", name="Next round", exact=True)
        if await next_round.count() and await next_round.last.is_enabled():
            await driver.shot(f"round-end-{turns}")
            driver.clicks += 1
            await next_round.last.click()
            await page.wait_for_timeout(500)
            continue
        if f"To play: {me} — meld, lay off or discard" in table:
            await driver.discard_any()  # the discard of a turn whose menu came late
            await page.wait_for_timeout(300)
            continue
        if f"To play: {me} — draw a card" in table:
            if not countdown_seen and watch_countdown > 0:
                await driver.click(page.locator(TABLE).last, "My hand")
                await driver.wait_text(PANEL, "Time runs out", 10)
                countdown_seen = await countdown(driver, watch_countdown)
                print(f"countdown: {countdown_seen}", file=sys.stderr)
            # The live panel's own Draw when it is open (a person's way), else the table's.
            panels = page.locator(PANEL)
            own = panels.last.get_by_role("button", name="Draw", exact=True)
            if await panels.count() and await own.count() and await own.first.is_enabled():
                await driver.click(panels.last, "Draw")
            else:
                await driver.click(page.locator(TABLE).last, "Draw")
            await driver.wait_text(PANEL, "Discard a card", 10)
            await driver.discard_any()
            turns += 1
            failed = len(driver.failed)
            print(f"turn {turns}: {driver.clicks} clicks, {failed} not completed", file=sys.stderr)
            await driver.wait_text(TABLE, "To play:", 5)
            await page.wait_for_timeout(300)
            if turns == 1:
                await driver.shot("2-after-first-turn")
            continue
        await page.wait_for_timeout(300)
    await driver.shot("3-match-over")
    return {"turns": turns, "countdown": countdown_seen, "match_over": "The match is over" in table}


async def play_thread_game(playground: Playground, driver: Driver) -> dict[str, Any]:
    """/romme start thread:True in #romme: the page moves to the thread, where Start and My hand work."""
    you = playground.people[0]
    await you.slash(playground.channel, "romme start", thread=True, computers=1)
    page = driver.page
    # The playground moves its page to the thread, at the same address; the page asks to be
    # reloaded ("Reload the active Preview URL").
    await driver.wait_text("body", "Reload the active Preview URL", 15)
    await page.reload()
    shown = await driver.wait_text("body", f"{driver.name}'s table", 15)
    start = page.get_by_role("button", name="Start", exact=True)
    await start.last.wait_for(timeout=15000)
    await start.last.click()
    driver.clicks += 1
    await driver.wait_text(TABLE, "round 1 of", 15)
    await driver.click(page.locator(TABLE).last, "My hand")
    panel = await driver.wait_text(PANEL, "Your hand", 10)
    await driver.shot("4-thread-game")
    return {"thread_shown": shown, "thread_panel": panel, "page_channel": playground.page_channel.name}


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    parser.add_argument("--shots", type=Path, help="save pictures of the way here")
    parser.add_argument("--seed", type=int, default=5, help="the deal's and the computers' seed")
    parser.add_argument("--computer-delay", type=float, default=0.4, help="seconds between computer moves")
    parser.add_argument("--countdown", type=float, default=40.0, help="seconds to watch one turn's countdown")
    args = parser.parse_args()
    if args.shots is not None:
        args.shots.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    options = PlaygroundOptions(computer_delay=args.computer_delay, seed=args.seed)
    async with Playground(options) as playground, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = await browser.new_page(viewport={"width": 1200, "height": 1600})
        await page.goto(playground.url)
        await page.get_by_role("button", name="Start", exact=True).wait_for()
        driver = Driver(page, options.names[0], args.shots)
        match = await play_match(playground, driver, watch_countdown=args.countdown)
        thread = await play_thread_game(playground, driver)
        not_completed = await page.get_by_text("Action was not completed").count()
        await browser.close()
    print(
        json.dumps(
            {
                **match,
                **thread,
                "clicks": driver.clicks,
                "discard_menu_clicked_twice": driver.reopened,
                "discarded_with_the_card_menu": driver.fallbacks,
                "actions_not_completed": driver.failed,
                "not_completed_shown_at_end": not_completed,
                "seconds": round(time.monotonic() - began, 1),
            },
            indent=1,
        )
    )
    return 0 if match["match_over"] and not driver.failed and thread["thread_panel"] else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
