"""Persistent components: one ``DynamicItem`` class per kind of custom id (see :mod:`bot.render.ids`).

A click is matched by its custom id alone, so a button posted before a restart still works: the id
carries the game, the action and, on a hand panel, the game's version and the panel's state. Every
class hands the click to :class:`~cogs.clicks.Clicks`. The templates do not overlap (discord.py runs
every class whose template matches), and :class:`Malformed` answers any other id (forged, cut short,
or from an older bot), so no click goes unanswered.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.render import PANEL_BUTTON_TEMPLATE, PANEL_SELECT_TEMPLATE, parse_custom_id
from bot.render.ids import public_template
from cogs.boards import BoardButton
from cogs.clicks import Clicks, selected_values
from cogs.replays import REPLAY_ITEMS
from cogs.settings import PANEL_ITEMS

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.render import CustomId

LOBBY_TEMPLATE = public_template(("join", "leave", "add_computer", "start", "cancel"))
TABLE_TEMPLATE = public_template(("hand", "draw", "take"))
ROUND_END_TEMPLATE = public_template(("next",))
MATCH_END_TEMPLATE = public_template(("again",))
STOP_TEMPLATE = public_template(("stop_yes",))


def _unnamed(template: str) -> str:
    # Python refuses a group name twice in one pattern; the lookahead below only needs the shape.
    return re.sub(r"\(\?P<\w+>", "(?:", template)


def malformed_template(templates: tuple[str, ...]) -> str:
    """The template of every id that none of ``templates`` matches whole (as discord.py matches
    them: ``fullmatch``).

    >>> pattern = re.compile(malformed_template((r"a:(?P<n>[0-9]+)",)))
    >>> [bool(pattern.fullmatch(text)) for text in ("a:1", "a:1x", "a:", "romme-set:²:pick", "")]
    [False, True, True, True, True]
    """
    return r"(?s)^(?!" + "|".join(f"(?:{_unnamed(t)})\\Z" for t in templates) + r").*\Z"


def clicks_of(interaction: discord.Interaction[RommeBot]) -> Clicks:
    """The click handlers over the bot's table service and publisher."""
    return Clicks.of(interaction.client)


class _RommeItem:
    """What every component class shares: the parsed id, and handing the click over."""

    custom: CustomId | None
    kind: ClassVar[discord.ComponentType] = discord.ComponentType.button
    """The component type the class's ids are drawn on; the same id on another type is forged."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)  # type: ignore[call-arg]  # the DynamicItem after this mixin
        drawn = item.type is self.kind
        self.custom = parse_custom_id(item.custom_id) if drawn else None  # type: ignore[attr-defined]

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

    kind = discord.ComponentType.string_select


ANSWERED: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    TableButton,
    RoundEndButton,
    MatchEndButton,
    StopButton,
    PanelButton,
    PanelSelect,
    *REPLAY_ITEMS,
    BoardButton,
    *PANEL_ITEMS,
)
"""Every component class with an id of its own (registered with :data:`ITEMS` and the panels')."""
MALFORMED_TEMPLATE = malformed_template(
    tuple(item.__discord_ui_compiled_template__.pattern for item in ANSWERED)
)
"""Any id that none of the other templates matches (forged, cut short, or from an older bot)."""


class Malformed(_Button, template=MALFORMED_TEMPLATE):
    """An id that is not ours (any more): answered with a short refusal, nothing else."""

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
