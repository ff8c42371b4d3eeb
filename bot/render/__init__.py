"""Rendering: Discord embeds and components built from plain game state (no I/O, no service calls).

Every function is pure: it reads a :class:`~bot.service.game.Game` (and for a panel only the seat's own
``match.seat_view(seat)``) and returns ``discord.Embed`` / ``discord.ui.View`` objects whose components carry
the custom ids of :mod:`bot.render.ids`. Text comes from the catalog (:func:`bot.i18n.t`).
"""

from bot.render.actions import BadClick, click_move
from bot.render.hint import hint
from bot.render.ids import (
    PANEL_BUTTON_TEMPLATE,
    PANEL_SELECT_TEMPLATE,
    PANEL_TEMPLATE,
    PUBLIC_TEMPLATE,
    CustomId,
    PanelState,
    Target,
    cards_from_option_values,
    panel_id,
    parse_custom_id,
    parse_target_value,
    public_id,
)
from bot.render.lobby import lobby
from bot.render.panel import hand_panel
from bot.render.refusal import error_text, refusal, refusal_for, stop_confirm
from bot.render.results import match_end, round_end, round_end_past
from bot.render.scores import leaderboard, player_record, standings
from bot.render.summary import rules_summary
from bot.render.table import results_url, table, table_content

__all__ = [
    "PANEL_BUTTON_TEMPLATE",
    "PANEL_SELECT_TEMPLATE",
    "PANEL_TEMPLATE",
    "PUBLIC_TEMPLATE",
    "BadClick",
    "CustomId",
    "PanelState",
    "Target",
    "cards_from_option_values",
    "click_move",
    "error_text",
    "hand_panel",
    "hint",
    "leaderboard",
    "lobby",
    "match_end",
    "panel_id",
    "parse_custom_id",
    "parse_target_value",
    "player_record",
    "public_id",
    "refusal",
    "refusal_for",
    "results_url",
    "round_end",
    "round_end_past",
    "rules_summary",
    "standings",
    "stop_confirm",
    "table",
    "table_content",
]
