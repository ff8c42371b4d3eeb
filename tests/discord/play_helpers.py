"""Playing through Discord as people do: slash commands, clicks on buttons, choices in selects.

A :class:`Player` reads only what its person sees (the table message, their own hand panel) to
click; to decide WHAT to play it asks the engine's computer player about its own seat's view, the
same information its panel shows. Nothing here touches discord objects by hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.results import InteractionResult, to_discord_message

from bot import create_bot
from bot.client import RommeBot
from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from bot.render.ids import Target, lay_off_option, parse_custom_id
from bot.service import TableService
from bot.service.game import Game

SEED = 11


def seeded_bot(database_path: Path, seed: int = SEED, *, edit_interval: float = 0.0) -> RommeBot:
    """A bot on ``database_path`` whose deals and computer moves follow ``seed``.

    ``edit_interval`` 0 turns off the merging of table edits (one a second per channel in
    production), which would otherwise cost a second of real time per click under SimCord; it
    also lifts the bot-wide edit budget, which only matters with many tables.
    """
    return create_bot(
        database_path=database_path,
        computer_delay=0,
        game_seed=seed,
        table_edit_interval=edit_interval,
        table_edits_per_second=40.0 if edit_interval else 0.0,
    )


@dataclass
class Room:
    """A server with a channel and four people: the host Ada, Bob, Cy (seated later) and Dee (never)."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    ada: simcord.MemberActor
    bob: simcord.MemberActor
    cy: simcord.MemberActor
    dee: simcord.MemberActor

    @classmethod
    def made(cls, env: simcord.Env) -> Room:
        """A new server "Cards" with a channel #romme and Ada, Bob, Cy and Dee in it."""
        guild = env.create_guild("Cards")
        channel = guild.create_text_channel("romme")
        people = [guild.add_member(env.create_user(name)) for name in ("ada", "bob", "cy", "dee")]
        return cls(env, guild, channel, *people)


Message = Any  # a discord.Message or simcord.ResponseMessage


def romme_bot(env: simcord.Env) -> RommeBot:
    """The bot under test: SimCord types it as any ``discord.Client``, the tests build a RommeBot."""
    assert isinstance(env.bot, RommeBot)
    return env.bot


def bot_channel(env: simcord.Env, channel: simcord.ChannelHandle) -> discord.abc.Messageable:
    """The bot's own object for ``channel`` (from its cache), to read the history as the bot sees it."""
    found = env.bot.get_channel(channel.id)
    assert isinstance(found, discord.abc.Messageable), f"the bot has no channel {channel.id}"
    return found


def first_button(message: discord.Message) -> discord.Button:
    """The first button of ``message``'s first row (a round or match end's Next round or Play again)."""
    row = message.components[0]
    assert isinstance(row, discord.ActionRow), row
    button = row.children[0]
    assert isinstance(button, discord.Button), button
    return button


def service(env: simcord.Env) -> TableService:
    """The bot's table service (to read the state a test checks, never to play)."""
    return romme_bot(env).tables


def game_in(env: simcord.Env, channel: simcord.ChannelHandle) -> Game:
    """The channel's game (in the lobby or in play)."""
    game = service(env).game_in_channel(channel.id, include_finished=True)
    assert game is not None, "no game in the channel"
    return game


def components(message: Message) -> list[dict[str, Any]]:
    """Every component of a message, flattened out of its rows."""
    found = []
    for row in message.components:
        raw = row if isinstance(row, dict) else row.to_dict()
        found.extend(raw.get("components", [raw]))
    return found


def component(message: Message, *, label: str | None = None, action: str | None = None) -> dict[str, Any]:
    """The one component with this label, or whose custom id has this action."""
    for item in components(message):
        cid = parse_custom_id(item.get("custom_id"))
        if (label is not None and item.get("label") == label) or (
            action is not None and cid is not None and cid.action == action
        ):
            return item
    raise AssertionError(
        f"no component {label or action!r} in {[c.get('label') for c in components(message)]}"
    )


def enabled(message: Message, label: str) -> bool:
    return not component(message, label=label).get("disabled", False)


def option_values(message: Message, codes: list[str]) -> list[str]:
    """The card select's values for ``codes`` (the second 7♥ is "7H#2"), as a person picks them."""
    select = component(message, action="select")
    available = [option["value"] for option in select["options"]]
    values: list[str] = []
    wanted = list(codes)
    for value in available:
        code = value.split("#")[0]
        if code in wanted:
            wanted.remove(code)
            values.append(value)
    assert not wanted, f"{wanted} not in the panel's select {available}"
    return values


def table_message(env: simcord.Env, game: Game) -> Message:
    """The public table message of ``game`` as stored by Discord."""
    assert game.table_message_id is not None
    return to_discord_message(env, env.backend.get_message(game.channel_id, game.table_message_id))


@dataclass
class Player:
    """One person at the table, playing through clicks with the computer player's judgement."""

    env: simcord.Env
    actor: simcord.MemberActor
    channel: simcord.ChannelHandle
    brain: ComputerPlayer = field(default_factory=lambda: ComputerPlayer(random.Random(5)))
    panel: Message | None = None
    moves: list[str] = field(default_factory=list)

    def game(self) -> Game:
        return game_in(self.env, self.channel)

    def seat(self) -> int:
        seat = self.game().seat_of(self.actor.id)
        assert seat is not None
        return seat

    async def open_hand(self) -> Message:
        """Click My hand on the table message; the answer is the private panel."""
        result = await self.actor.click(table_message(self.env, self.game()), label="My hand")
        assert result.ephemeral and result.response is not None
        self.panel = result.response
        return self.panel

    async def click(self, label: str) -> simcord.InteractionResult:
        """Click a panel button; an edit in place keeps the panel, a new message replaces it."""
        assert self.panel is not None
        result = await self.actor.click(self.panel, label=label)
        if result.response is not None and result.response.ephemeral:
            self.panel = result.response
        return result

    async def choose(self, codes: list[str]) -> simcord.InteractionResult:
        """Select these cards in the panel's card select."""
        assert self.panel is not None
        select = component(self.panel, action="select")
        result = await self.actor.select(
            self.panel, option_values(self.panel, codes), custom_id=select["custom_id"]
        )
        assert result.response is not None
        self.panel = result.response
        return result

    async def target(self, value: str) -> simcord.InteractionResult:
        assert self.panel is not None
        select = component(self.panel, action="target")
        result = await self.actor.select(self.panel, [value], custom_id=select["custom_id"])
        if result.response is not None and result.response.ephemeral:
            self.panel = result.response
        return result

    def next_move(self) -> Move:
        game = self.game()
        assert game.match is not None
        return self.brain.next_move(game.match.view(self.seat()))

    async def play(self, move: Move) -> simcord.InteractionResult:
        """Make ``move`` with the panel's buttons, as a person would."""
        self.moves.append(move.kind)
        cards = [str(card) for card in move.cards]
        if move.kind == "draw":
            return await self.click("Draw" if move.source == "stock" else "Take discard")
        if move.kind == "take_back":
            return await self.click("Take back")
        if move.kind == "discard":
            await self.choose([str(move.card)])
            return await self.click("Discard")
        if move.kind == "meld":
            await self.choose(cards)
            return await self.click("Meld")
        if move.kind == "lay_off":
            await self.choose(cards)
            await self.click("Lay off")
            assert self.panel is not None
            offered = [option["value"] for option in component(self.panel, action="target")["options"]]
            value = lay_off_option(move.meld_id or "", move.end, offered)
            assert value is not None, f"no target for {move} among {offered}"
            return await self.target(value)
        assert move.kind == "swap_joker"
        await self.choose([str(move.card), *cards])
        await self.click("Swap joker")
        return await self.target(Target(move.meld_id or "", card=str(move.card)).value())

    async def play_turn(self) -> None:
        """A whole turn: open the hand, then move until the discard (or the round's end)."""
        await self.open_hand()
        seat = self.seat()
        while True:
            game = self.game()
            if game.to_play != seat:
                return
            move = self.next_move()
            result = await self.play(move)
            assert result.acknowledged
            if move.kind == "discard" or not self.game().running or self.game().between_rounds:
                return


async def begin(room: Any, *joiners: simcord.MemberActor, **options: Any) -> Message:
    """Ada opens a lobby, ``joiners`` click Join, Ada clicks Start; returns the table message."""
    result = await room.ada.slash(room.channel, "romme start", **options)
    assert result.response is not None
    for person in joiners:
        await person.click(result.response, label="Join")
    await room.ada.click(result.response, label="Start")
    return table_message(room.env, game_in(room.env, room.channel))


def texts(message: Message) -> str:
    """Everything an embed of ``message`` says, as one string."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def sent_select(
    actor: simcord.MemberActor,
    message: Any,
    custom_id: str,
    values: list[str],
    *,
    kind: int = 3,
    only_component: bool = False,
) -> InteractionResult:
    """A select's choice (component type ``kind``) as Discord would send it on ``message``, for
    values SimCord's ``select`` cannot hold (a channel of another server, a role deleted meanwhile, a
    value no option has: a forged one). ``only_component``: the select arrives as the message's only
    component, for a ``custom_id`` the message may not even carry (a forged or copied id)."""
    env = actor._env
    backend = env.backend
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = backend.get_message(channel_id, message.id)
    record, payload = sim_interactions.base_payload(
        backend,
        type=3,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data={"custom_id": custom_id, "component_type": kind, "values": values, "resolved": {}},
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    if only_component:
        options = [{"label": v, "value": v} for v in values]
        select = {"type": kind, "custom_id": custom_id, "options": options}
        payload["message"]["components"] = [{"type": 1, "components": [select]}]
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)
