"""People playing a game by clicks only, able to restart the bot between any two clicks.

Each person decides with the engine's computer player on their own seat's view, seeded by the game's
version, so the same game replays move for move whatever happens to the bot in between. They keep
their hand panel from turn to turn (and across restarts) and read it as Discord holds it now (the
bot keeps it live); they refresh it only as a person would: an out-of-date panel is redrawn by the
bot's refusal, a disabled button by clearing the card select, and a panel that moved below (another
My hand) is opened again.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from simcord.results import to_discord_message

from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from bot.render.ids import Target, lay_off_option, parse_custom_id
from bot.service.game import Game
from tests.discord.play_helpers import component, components, game_in, option_values, table_message
from tests.robustness.robust_helpers import is_refusal

Message = Any


@dataclass
class TableDriver:
    """Plays the game of ``channel`` for ``people`` until it ends; ``after_click`` runs after every
    click (the restart test closes the bot there)."""

    env: simcord.Env
    channel: simcord.ChannelHandle
    people: dict[int, simcord.MemberActor]
    after_click: Callable[[], Awaitable[None]] | None = None
    panels: dict[int, Message] = field(default_factory=dict)
    clicks: int = 0
    moves: int = 0

    def game(self) -> Game:
        return game_in(self.env, self.channel)

    async def _done(self, result: simcord.InteractionResult) -> simcord.InteractionResult:
        assert result.acknowledged, "every click is answered"
        self.clicks += 1
        if self.after_click is not None:
            await self.after_click()
        return result

    # ------------------------------------------------------------------ clicks on the panel

    async def open_hand(self, actor: simcord.MemberActor) -> None:
        result = await actor.click(table_message(self.env, self.game()), label="My hand")
        assert result.ephemeral and result.response is not None
        self.panels[actor.id] = result.response
        await self._done(result)

    async def current(self, actor: simcord.MemberActor) -> Message:
        """The person's panel as they see it now (the bot edits it without their clicks); one that
        moved below (no components) is opened again from the table."""
        kept = self.panels[actor.id]
        message = self.env.backend.messages.get(self.channel.id, {}).get(kept.id)
        if message is not None:
            self.panels[actor.id] = to_discord_message(self.env, message)
        if message is None or not components(self.panels[actor.id]):
            await self.open_hand(actor)
        return self.panels[actor.id]

    async def refresh(self, actor: simcord.MemberActor) -> None:
        """Clear the card select: the bot redraws the panel as the game is now. A panel that still
        shows an earlier round's end has no select (its edits were held back): opened again."""
        panel = await self.current(actor)
        if not has_action(panel, "select"):
            await self.open_hand(actor)
            return
        select = component(panel, action="select")
        result = await actor.select(panel, [], custom_id=select["custom_id"])
        assert result.response is not None and not is_refusal(result)
        self.panels[actor.id] = result.response
        await self._done(result)

    async def press(self, actor: simcord.MemberActor, label: str) -> simcord.InteractionResult:
        """Click ``label``; if the panel turns out to be out of date, click again on the redrawn one."""
        for _ in range(2):
            if component(await self.current(actor), label=label).get("disabled"):
                await self.refresh(actor)
            result = await actor.click(self.panels[actor.id], label=label)
            stale = is_refusal(result)
            if result.response is not None and result.response.ephemeral:
                self.panels[actor.id] = result.response
            await self._done(result)
            if not stale:
                return result
            assert result.response is not None
            assert "out of date" in (result.response.content or ""), result.response.content
        raise AssertionError(f"{label} refused twice")

    async def choose(self, actor: simcord.MemberActor, codes: list[str]) -> None:
        try:
            option_values(await self.current(actor), codes)
        except AssertionError:
            await self.refresh(actor)  # the panel shows an older hand (the fuzz moved in between)
        panel = self.panels[actor.id]
        select = component(panel, action="select")
        result = await actor.select(panel, option_values(panel, codes), custom_id=select["custom_id"])
        assert result.response is not None and not is_refusal(result), result.response
        self.panels[actor.id] = result.response
        await self._done(result)

    async def target(self, actor: simcord.MemberActor, value: str) -> None:
        panel = self.panels[actor.id]
        select = component(panel, action="target")
        result = await actor.select(panel, [value], custom_id=select["custom_id"])
        assert not is_refusal(result), result.response
        if result.response is not None and result.response.ephemeral:
            self.panels[actor.id] = result.response
        await self._done(result)

    # ------------------------------------------------------------------ a person's move

    def decide(self, game: Game, seat: int) -> Move:
        assert game.match is not None
        brain = ComputerPlayer(random.Random(f"person:{game.id}:{game.version}"))
        return brain.next_move(game.match.view(seat))

    async def play_move(self, actor: simcord.MemberActor, move: Move) -> None:
        cards = [str(card) for card in move.cards]
        if move.kind == "draw":
            await self.press(actor, "Draw" if move.source == "stock" else "Take discard")
        elif move.kind == "take_back":
            await self.press(actor, "Take back")
        elif move.kind == "discard":
            await self.choose(actor, [str(move.card)])
            await self.press(actor, "Discard")
        elif move.kind == "meld":
            await self.choose(actor, cards)
            await self.press(actor, "Meld")
        elif move.kind == "lay_off":
            await self.choose(actor, cards)
            await self.press(actor, "Lay off")
            select = component(self.panels[actor.id], action="target")
            offered = [option["value"] for option in select["options"]]
            value = lay_off_option(move.meld_id or "", move.end, offered)
            assert value is not None, f"no target for {move} among {offered}"
            await self.target(actor, value)
        else:
            assert move.kind == "swap_joker"
            await self.choose(actor, [str(move.card), *cards])
            await self.press(actor, "Swap joker")
            await self.target(actor, Target(move.meld_id or "", card=str(move.card)).value())
        self.moves += 1

    async def next_round(self) -> None:
        """Click Next round on the newest round-end message (the first person does)."""
        channel = self.env.bot.get_channel(self.channel.id)
        assert isinstance(channel, discord.abc.Messageable)
        async for message in channel.history(limit=10):
            for row in message.components:
                assert isinstance(row, discord.ActionRow)
                for item in row.children:
                    cid = parse_custom_id(getattr(item, "custom_id", None))
                    if (
                        cid is not None
                        and cid.action == "next"
                        and isinstance(item, discord.Button)
                        and not item.disabled
                    ):
                        actor = next(iter(self.people.values()))
                        await self._done(await actor.click(message, label="Next round"))
                        return
        raise AssertionError("no round-end message with Next round")

    async def step(self) -> None:
        """One thing a person does next: a move by whoever is on turn, or Next round."""
        game = self.game()
        if game.between_rounds:
            await self.next_round()
            return
        seat = game.to_play
        assert seat is not None
        owner = game.seats[seat].user_id
        assert owner in self.people, "computer turns happen without any click"
        actor = self.people[owner]
        if actor.id not in self.panels:
            await self.open_hand(actor)
        await self.play_move(actor, self.decide(game, seat))

    async def play_to_end(self, limit: int = 3000) -> Game:
        """Play until the match is over; computers move by themselves between the clicks."""
        for _ in range(limit):
            game = self.game()
            if not game.running:
                return game
            await self.step()
        raise AssertionError("the match did not end")


def has_action(message: Message, action: str) -> bool:
    """The message has a component whose custom id carries ``action``."""
    try:
        component(message, action=action)
    except AssertionError:
        return False
    return True
