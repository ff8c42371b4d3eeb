"""Persistent components: one ``DynamicItem`` class per kind of custom id (see :mod:`bot.render.ids`).

A click is matched by its custom id alone, so a button posted before a restart still works: the id
carries the game, the action and, on a hand panel, the game's version and the panel's state. Every
class hands the click to :class:`~cogs.clicks.Clicks`. The templates do not overlap (discord.py runs
every class whose template matches), and :class:`Malformed` answers any other ``romme:`` id.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.render import PANEL_BUTTON_TEMPLATE, PANEL_SELECT_TEMPLATE, parse_custom_id
from bot.render.ids import PREFIX, public_template
from cogs.boards import BoardButton
from cogs.clicks import Clicks, selected_values
from cogs.replays import REPLAY_ITEMS, REPLAY_TEMPLATES

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.render import CustomId

LOBBY_TEMPLATE = public_template(("join", "leave", "add_computer", "start", "cancel"))
TABLE_TEMPLATE = public_template(("hand", "draw", "take"))
ROUND_END_TEMPLATE = public_template(("next",))
MATCH_END_TEMPLATE = public_template(("again",))
STOP_TEMPLATE = public_template(("stop_yes",))
KNOWN_TEMPLATES = (
    LOBBY_TEMPLATE,
    TABLE_TEMPLATE,
    ROUND_END_TEMPLATE,
    MATCH_END_TEMPLATE,
    STOP_TEMPLATE,
    PANEL_BUTTON_TEMPLATE,
    PANEL_SELECT_TEMPLATE,
    *REPLAY_TEMPLATES,
)


def _unnamed(template: str) -> str:
    # Python refuses a group name twice in one pattern; the lookahead below only needs the shape.
    return re.sub(r"\(\?P<\w+>", "(?:", template)


MALFORMED_TEMPLATE = (
    r"(?s)^(?!" + "|".join(f"(?:{_unnamed(t)})" for t in KNOWN_TEMPLATES) + rf"){PREFIX}:.*\Z"
)
"""Any ``romme:`` id that none of the other templates matches (forged, or from an older bot)."""


def clicks_of(interaction: discord.Interaction[RommeBot]) -> Clicks:
    """The click handlers over the bot's table service and publisher."""
    return Clicks.of(interaction.client)


class _RommeItem:
    """What every component class shares: the parsed id, and handing the click over."""

    custom: CustomId | None

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # the DynamicItem after this mixin
        self.custom = parse_custom_id(item.custom_id)  # type: ignore[attr-defined]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await clicks_of(interaction).run(interaction, self.custom, selected_values(interaction))


class _Button(_RommeItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button matched by its custom id alone."""


class LobbyButton(_Button, template=LOBBY_TEMPLATE):
    """Join, Leave, Add computer, Start, Cancel."""


class TableButton(_Button, template=TABLE_TEMPLATE):
    """My hand, Draw, Take discard on the public table."""


class RoundEndButton(_Button, template=ROUND_END_TEMPLATE):
    """Next round."""


class MatchEndButton(_Button, template=MATCH_END_TEMPLATE):
    """Play again."""


class StopButton(_Button, template=STOP_TEMPLATE):
    """The confirmation of ``/romme stop``."""


class PanelButton(_Button, template=PANEL_BUTTON_TEMPLATE):
    """A hand-panel button: Draw, Take discard, Meld, Lay off, Swap joker, Discard, Take back, Hint, Sort."""


class PanelSelect(_RommeItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=PANEL_SELECT_TEMPLATE):
    """The hand panel's card multi-select and its target-meld select."""


class Malformed(_Button, template=MALFORMED_TEMPLATE):
    """A ``romme:`` id that is not ours any more: answered with a short refusal, nothing else."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)
        self.custom = None


ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TableButton,
    RoundEndButton,
    MatchEndButton,
    StopButton,
    PanelButton,
    PanelSelect,
    *REPLAY_ITEMS,
    Malformed,
    BoardButton,
)
"""Every persistent component class, registered by the cog with ``bot.add_dynamic_items``."""
