"""The Hint answer: the best melds the seat's hand can make, and whether the opening is in reach."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.cards import parse_cards
from bot.engine.rules import RuleSet
from bot.engine.solver import best_melds
from bot.i18n import t
from bot.render.cards import cards_text
from bot.render.common import check_embed, new_embed

if TYPE_CHECKING:
    from bot.service.game import Game


def hint(game: Game, seat: int) -> discord.Embed:
    """For match seat ``seat`` only: ``best_melds`` of its hand (from its own view, R19) and, before
    its opening, whether those melds with the proposed ones reach the opening (R13)."""
    if game.match is None:
        raise ValueError("no hand before the match begins")
    view = game.match.view(seat)
    melds = best_melds(parse_cards(view["hand"]), RuleSet.from_dict(view["rules"]))
    points = sum(meld.points for meld in melds)
    embed = new_embed(t("hint.title"))
    if melds:
        lines = [f"{cards_text(meld.cards)} ({meld.points})" for meld in melds]
        embed.add_field(name=t("hint.best", points=points), value="\n".join(lines), inline=False)
    else:
        embed.description = t("hint.none")
    needed = view["opening_needed"]
    if needed == 0:
        note = t("hint.opened")
    elif points + view["pending_points"] >= needed:
        note = t("hint.opening_reached", needed=needed)
    else:
        note = t("hint.opening_short", points=points + view["pending_points"], needed=needed)
    embed.add_field(name="\u200b", value=note, inline=False)
    return check_embed(embed)
