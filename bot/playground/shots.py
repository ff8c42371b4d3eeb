"""``romme-bot playground --screenshot DIR``: a short scripted game, pictured with headless Chromium.

The script plays the real bot in the playground (:class:`~bot.playground.session.Playground`) like a
person would, through SimCord's actors (the same calls the page makes): ``/romme start`` with two
computers, **Start**, **My hand**, **Draw**, a meld, a discard with the discard select, then the round
to its end (the turn timer plays "your" later turns). After each step the page is photographed by
Chromium (:mod:`bot.playground.chromium`), as the person "you" sees it:

``1-lobby.png``, ``2-table.png``, ``3-hand.png``, ``4-meld.png``, ``5-round-end.png``,
``6-hand-live.png`` (your hand panel at the round's end, edited by the bot without a click).

The deal comes from a seed, so the pictures are the same on every run. The first seed (from
:data:`FIRST_SEED` on) whose deal lets "you" open on the first turn is used.

With ``--language de`` or ``id`` the same game is played at a German or an Indonesian table, the
server's and both people's Discord locale that language too, and the people carry names of that
language (:data:`SCRIPT_NAMES`: a German screen shows no English "you"). The script finds every
button and select by its custom id, never by its label, so it plays the same in every language.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.playground.chromium import Chromium, find_chromium
from bot.playground.session import Playground, PlaygroundOptions

if TYPE_CHECKING:
    import discord
    from simcord.results import InteractionResult

    from bot.service import TableService
    from bot.service.game import Game

FIRST_SEED = 1
"""The first seed tried for the scripted game's deal."""

SEED_ATTEMPTS = 40
"""How many seeds from :data:`FIRST_SEED` on are tried before giving up."""

ROUND_END_ATTEMPTS = 3
"""How many times the game is played for pictures of the round's end taken in time."""


SCRIPT_NAMES: dict[str, tuple[str, str]] = {
    "en": ("Sam", "Alex"),
    "de": ("Lena", "Jonas"),
    "id": ("Sari", "Budi"),
}
"""The scripted game's two people by language: the one playing, then the one watching."""


@dataclass
class Step:
    """One picture: its file name and what it shows."""

    name: str
    caption: str


STEPS: tuple[Step, ...] = (
    Step("1-lobby.png", "the lobby that /romme start posts"),
    Step("2-table.png", "the table, after Start"),
    Step("3-hand.png", "your hand, private, after My hand"),
    Step("4-meld.png", "your hand after drawing and melding"),
    Step("5-round-end.png", "the end of the round"),
    Step("6-hand-live.png", "your hand panel at the round's end, kept up to date by the bot"),
)
"""The pictures, in the order the script takes them."""


def components(message: discord.Message) -> list[Any]:
    """Every button and select of ``message``, in order."""
    items: list[Any] = []
    for row in message.components:
        items.extend(getattr(row, "children", [row]))
    return items


def component_id(message: discord.Message, action: str) -> str | None:
    """The custom id of the component for ``action`` (``romme:<game>:<action>…``), if shown and enabled."""
    for item in components(message):
        custom_id = getattr(item, "custom_id", None) or ""
        parts = custom_id.split(":")
        if (
            len(parts) >= 3
            and parts[0] == "romme"
            and parts[2] == action
            and not getattr(item, "disabled", False)
        ):
            return custom_id
    return None


class Script:
    """The scripted game in one running playground (see the module's docstring)."""

    def __init__(self, playground: Playground) -> None:
        """The script for ``playground`` (entered), played as its first person, "you"."""
        self.pg = playground
        self.you = playground.people[0]

    @property
    def service(self) -> TableService:
        """The bot's table service (to read the state the script waits for, never to play)."""
        bot = self.pg.bot
        if bot is None:
            raise RuntimeError("the playground is not running")
        return bot.tables

    @property
    def lobby_id(self) -> int:
        """The id of the lobby message that the playground's ``/romme start`` posted."""
        lobby = self.pg.lobby
        if lobby is None or lobby.response is None:
            raise RuntimeError("the playground opened no lobby")
        return lobby.response.id

    def game(self) -> Game:
        """The game in ``#romme``."""
        game = self.service.game_in_channel(self.pg.channel.id)
        if game is None:
            raise RuntimeError("no game in #romme")
        return game

    def message(self, message_id: int) -> discord.Message:
        """The message ``message_id`` of ``#romme`` as "you" sees it now."""
        for message in self.pg.channel.history(viewer=self.you):
            if message.id == message_id:
                return message
        raise RuntimeError(f"message {message_id} is not in #romme")

    def last_with(self, action: str) -> discord.Message:
        """The latest message of ``#romme`` with an enabled component for ``action``."""
        for message in reversed(self.pg.channel.history(viewer=self.you)):
            if component_id(message, action) is not None:
                return message
        raise RuntimeError(f"no message with {action!r} in #romme")

    async def click(self, message: discord.Message, action: str) -> InteractionResult:
        """Click the enabled component for ``action`` on ``message``, as "you"."""
        custom_id = component_id(message, action)
        if custom_id is None:
            raise RuntimeError(f"no enabled {action!r} on message {message.id}")
        return await self.you.click(message, custom_id=custom_id)

    async def select(self, message: discord.Message, action: str, values: Sequence[str]) -> InteractionResult:
        """Choose ``values`` in the select for ``action`` on ``message``, as "you"."""
        custom_id = component_id(message, action)
        if custom_id is None:
            raise RuntimeError(f"no {action!r} select on message {message.id}")
        return await self.you.select(message, list(values), custom_id=custom_id)

    def opening_meld(self) -> list[str] | None:
        """Codes of cards in your hand that open (R13) in one go, or ``None``."""
        from bot.engine.cards import parse_cards
        from bot.engine.solver import best_melds

        game = self.game()
        assert game.match is not None
        view = game.match.view(0)
        melds = best_melds(parse_cards(view["hand"]), game.rules)
        if sum(meld.points for meld in melds) < view["opening_needed"] or not melds:
            return None
        return [str(card) for meld in melds for card in meld.cards]

    async def start(self) -> None:
        """Click **Start** in the lobby (the computers play up to "your" turn)."""
        await self.click(self.message(self.lobby_id), "start")
        self.table_id = self.last_with("hand").id

    async def open_hand(self) -> None:
        """Click **My hand** on the table."""
        panel = await self.click(self.message(self.table_id), "hand")
        if panel.response is None:
            raise RuntimeError("My hand answered nothing")
        self.panel_id = panel.response.id

    async def draw(self) -> bool:
        """Click **Draw** on the hand panel; True if "you" can then open (R13)."""
        await self.click(self.message(self.panel_id), "p_draw")
        return self.opening_meld() is not None

    async def begin(self) -> bool:
        """Start, open the hand and draw; True if "you" can then open (the seed is good)."""
        await self.start()
        await self.open_hand()
        return await self.draw()

    async def meld(self) -> None:
        """Select the opening melds, one meld at a time, and lay them down; then discard."""
        from bot.engine.cards import parse_cards
        from bot.engine.solver import best_melds
        from bot.render.ids import card_option_values

        game = self.game()
        assert game.match is not None
        hand = parse_cards(game.match.view(0)["hand"])
        for meld in best_melds(hand, game.rules):
            values = card_option_values([str(card) for card in meld.cards])
            await self.select(self.message(self.panel_id), "select", values)
            await self.click(self.message(self.panel_id), "meld")

    async def discard(self) -> None:
        """Discard the first card offered by the hand panel's discard select (one choice, no button)."""
        panel = self.message(self.panel_id)
        for item in components(panel):
            custom_id = getattr(item, "custom_id", None) or ""
            if custom_id.split(":")[2:3] == ["drop"] and getattr(item, "options", None):
                await self.select(panel, "drop", [item.options[0].value])
                return
        raise RuntimeError("the hand panel offers no discard select")

    async def finish_round(self, *, max_turns: int = 400) -> None:
        """Let the round run to its end; the turn timer plays "your" turns.

        Each step moves the clock just past "your" turn timer (no further: the next round starts
        30 s after the round's end, and the pictures show the round's end): the computers (no
        delay) then play up to "your" next turn, or to the round's end, at that same instant.
        """
        env = self.pg.env
        quick, env.settle_timeout = env.settle_timeout, 30.0  # a whole round of moves per step, at worst
        try:
            for _ in range(max_turns):
                game = self.game()
                assert game.match is not None
                if game.match.round.phase == "over":
                    return
                now = env.now().timestamp()
                wait = game.turn_deadline - now if game.turn_deadline is not None else 0.0
                await env.advance_time(max(wait, 0.0) + 0.5)
        finally:
            env.settle_timeout = quick
        raise RuntimeError("the round did not end")


def script_options(seed: int, language: str | None = None) -> PlaygroundOptions:
    """The playground of the scripted game: two computers that move at once, the deal from ``seed``,
    at a table of ``language`` (``None``: English) with people named in it.

    >>> script_options(3, "de").names, script_options(3, "de").locale_of(1)
    (('Lena', 'Jonas'), 'de')
    """
    return PlaygroundOptions(
        people=2,
        seat_others=False,
        computers=2,
        computer_delay=0,
        seed=seed,
        settle_timeout=5.0,
        language=language,
        person_names=SCRIPT_NAMES[language or "en"],
    )


async def find_seed(
    first: int = FIRST_SEED, attempts: int = SEED_ATTEMPTS, *, language: str | None = None
) -> int | None:
    """The first seed from ``first`` whose deal lets "you" open on the first turn, or ``None``."""
    for seed in range(first, first + attempts):
        async with Playground(script_options(seed, language)) as pg:
            if await Script(pg).begin():
                return seed
    return None


async def take_screenshots(
    directory: Path, *, database_path: Path | None = None, language: str | None = None
) -> int:
    """Play the scripted game (at a table of ``language``; ``None``: English) and save its pictures
    in ``directory``; the exit status.

    Without Chromium nothing is played: one line says so and the status is 0 (nothing to do).
    ``database_path`` is not used: the script plays on fresh temporary databases.
    """
    browser = find_chromium()
    if browser is None:
        print(
            "romme-bot playground: no Chromium found (Debian: apt-get install chromium); no pictures taken",
            file=sys.stderr,
        )
        return 0
    seed = await find_seed(language=language)
    if seed is None:
        print(f"romme-bot playground: no seed from {FIRST_SEED} lets 'you' open at once", file=sys.stderr)
        return 1
    directory.mkdir(parents=True, exist_ok=True)
    async with Chromium(browser) as chromium:
        for attempt in range(1, ROUND_END_ATTEMPTS + 1):
            if await _play_and_picture(chromium, directory, seed, language):
                break
            # The pictures of the round's end race its 30 s next-round timer, which SimCord fires in
            # real time too: on a slow machine the game is played again (it replays exactly).
            tries = f"{attempt}/{ROUND_END_ATTEMPTS}"
            print(f"  (round 2 began before round 1's end was pictured: played again, {tries})")
        else:
            print("romme-bot playground: round 2 began before the last pictures were taken", file=sys.stderr)
            return 1
    table = f", at a table in {language}" if language else ""
    print(f"Pictures of a scripted game (seed {seed}{table}) are in {directory}")
    return 0


async def _play_and_picture(chromium: Chromium, directory: Path, seed: int, language: str | None) -> bool:
    """Play the scripted game once, picturing it; False if round 2 began before the last picture."""
    async with Playground(script_options(seed, language)) as pg:
        script = Script(pg)

        async def shot(name: str, message_id: int) -> None:
            await pg.preview.show(script.message(message_id))
            # Let the bot finish its follow-up work (a table edit) first, so the page's own requests
            # find nothing to wait for and it draws at once.
            await pg.refresh()
            await chromium.capture(pg.url, directory / name)
            print(f"  {directory / name}")

        await shot("1-lobby.png", script.lobby_id)
        await script.start()
        await shot("2-table.png", script.table_id)
        await script.open_hand()
        await shot("3-hand.png", script.panel_id)
        await script.draw()
        await script.meld()
        await shot("4-meld.png", script.panel_id)
        await script.discard()
        await script.finish_round()
        # Both pictures of the round's end are taken before the next round starts by itself (30 s).
        # "Your" panel followed the round by itself: it shows the round's end and what you scored.
        await shot("6-hand-live.png", script.panel_id)
        # A spectator's view: the table and the round's end, without "your" hand panel.
        await pg.view_as(pg.people[1])
        await shot("5-round-end.png", script.last_with("next").id)
        match = script.game().match
        return match is not None and match.round_no == 1
