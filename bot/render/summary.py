"""The rules in short, with this game's house rules (``/romme rules``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.rules import RuleSet
from bot.i18n import t
from bot.render.common import check_embed, house_rule_lines, new_embed

if TYPE_CHECKING:
    from bot.service.game import Game


def rules_summary(game: Game | None) -> discord.Embed:
    """The short rules and the house rules of ``game`` (the defaults when there is no game)."""
    rules = game.rules if game is not None else RuleSet()
    embed = new_embed(t("rules.title"), t("rules.summary", opening=rules.opening))
    lines = house_rule_lines(
        rules,
        turn_timeout=game.turn_timeout if game is not None else None,
        computers=game.computers if game is not None else None,
        ids=True,
    )
    name = t("rules.house_rules") if game is not None else t("rules.default_house_rules")
    embed.add_field(name=name, value="\n".join(lines), inline=False)
    embed.set_footer(text=t("rules.book"))
    return check_embed(embed)
