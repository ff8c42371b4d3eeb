"""The register of custom ids: every family of ids the bot draws, and the handler it goes to.

A family is declared once where it is drawn (its layout, fields, kind of component, builder and
parser: :class:`~bot.render.ids.Family`, in :mod:`bot.render.ids`, :mod:`bot.render.replay`,
:mod:`bot.render.ratings`, :mod:`bot.render.settings`); :data:`REGISTER` names the handler of each.
One generic persistent component, :class:`Component`, matches every id (discord.py registers it
alone), reads it with the first family whose grammar matches it whole, and hands the click over. A
click is matched by its custom id alone, so a button posted before a restart still works: the id
carries the game (or the server, the member), the action and, on a hand panel, the game's version and
the panel's state. An id that no family matches (forged, cut short, or from an older bot) is
answered with a short refusal (the *malformed* answer), so no click goes unanswered; an id that comes
on another kind of component than its family's is read as nothing (``None``), and refused by its
handler.

A new family (a tournament's, a spectator's) is one :class:`~bot.render.ids.Family` and one line
here; ``tests/robustness/test_forged_interactions.py`` forges it from then on, and
``tests/render/test_id_register.py`` checks that it is routed, and routed once.

>>> [route.family.name for route in REGISTER][:3]
['join', 'leave', 'add_computer']
>>> route_of("romme:7:rv:3:n").family.name, route_of("romme:7:rv:3") is None
('replay_step', True)
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

import discord

from bot.render import ids
from bot.render.ids import MAX_CUSTOM_ID, Family
from bot.render.ratings import BOARD_PAGE
from bot.render.replay import REPLAY_EXPORT, REPLAY_ROUND, REPLAY_STEP
from bot.render.settings import (
    PREFERENCES_PICK,
    SETTINGS_BUTTONS,
    SETTINGS_CHANNELS,
    SETTINGS_PICK,
    SETTINGS_ROLE,
)
from cogs.boards import board_page
from cogs.clicks import Clicks, Handler, selected_values
from cogs.replays import replay_export, replay_round, replay_step
from cogs.settings import panel_click

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.render import CustomId

T = TypeVar("T")
"""What a route's family reads of an id."""


@dataclass(frozen=True)
class Route(Generic[T]):
    """One family of ids and the handler its clicks go to: ``handler(interaction, read, values)``,
    ``read`` what the family read of the id (``None`` when the id came on another kind of
    component), ``values`` a select's chosen values (none for a button)."""

    family: Family[T]
    handler: Callable[[discord.Interaction[Any], T | None, Sequence[str]], Awaitable[None]]


def clicks_of(interaction: discord.Interaction[RommeBot]) -> Clicks:
    """The click handlers over the bot's table service and publisher."""
    return Clicks.of(interaction.client)


def game(
    method: Handler,
) -> Callable[[discord.Interaction[Any], CustomId | None, Sequence[str]], Awaitable[None]]:
    """The handler of a family of game ids: :meth:`Clicks.run` (the clicker's language, the place
    check, one answer whatever happens) with ``method`` (``Clicks.join``...)."""

    async def handle(
        interaction: discord.Interaction[Any], cid: CustomId | None, values: Sequence[str]
    ) -> None:
        await clicks_of(interaction).run(interaction, cid, values, method)

    handle.__name__ = handle.__qualname__ = method.__name__
    return handle


REGISTER: tuple[Route[Any], ...] = (
    Route(ids.JOIN, game(Clicks.join)),
    Route(ids.LEAVE, game(Clicks.leave)),
    Route(ids.ADD_COMPUTER, game(Clicks.add_computer)),
    Route(ids.START, game(Clicks.begin)),
    Route(ids.CANCEL, game(Clicks.cancel)),
    Route(ids.HAND, game(Clicks.my_hand)),
    Route(ids.TABLE_MOVE, game(Clicks.table_draw)),
    Route(ids.ROUND_END, game(Clicks.next_round)),
    Route(ids.MATCH_END, game(Clicks.play_again)),
    Route(ids.STOP, game(Clicks.stop)),
    Route(ids.PANEL_BUTTON, game(Clicks.on_panel)),
    Route(ids.PANEL_SELECT, game(Clicks.on_panel)),
    Route(REPLAY_STEP, replay_step),
    Route(REPLAY_ROUND, replay_round),
    Route(REPLAY_EXPORT, replay_export),
    Route(BOARD_PAGE, board_page),
    Route(SETTINGS_PICK, panel_click),
    Route(SETTINGS_CHANNELS, panel_click),
    Route(SETTINGS_ROLE, panel_click),
    Route(SETTINGS_BUTTONS, panel_click),
    Route(PREFERENCES_PICK, panel_click),
)
"""Every family of ids the bot draws, and where its clicks go (no two families match one id)."""


def route_of(custom_id: str) -> Route[Any] | None:
    """The route of the family that matches ``custom_id`` whole; ``None`` for any other id."""
    if len(custom_id) > MAX_CUSTOM_ID:
        return None
    return next((route for route in REGISTER if route.family.pattern.match(custom_id)), None)


async def malformed(interaction: discord.Interaction[Any], values: Sequence[str]) -> None:
    """An id that is not ours (any more): a short refusal in the clicker's language, nothing else."""
    await clicks_of(interaction).run(interaction, None, values)


class Component(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?s).*"):
    """Every persistent component: matched by any custom id, read through :data:`REGISTER`."""

    def __init__(self, item: discord.ui.Item[Any], route: Route[Any] | None, read: object) -> None:
        super().__init__(item)
        self.route = route
        """The family's route (``None``: no family's id)."""
        self.read = read
        """What the family read of the id (``None``: on another kind of component, forged)."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        custom_id = match.string
        route = route_of(custom_id)
        if route is None or item.type not in route.family.kinds:
            return cls(item, route, None)
        return cls(item, route, route.family.parse(custom_id))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = selected_values(interaction)
        if self.route is None:
            await malformed(interaction, values)
            return
        await self.route.handler(interaction, self.read, values)


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (Component,)
"""Every persistent component class, registered by the cog with ``bot.add_dynamic_items``."""
