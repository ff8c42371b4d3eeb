"""The Hint answer: the best melds the seat's hand can make, and whether the opening is in reach.

The engine answers (:func:`bot.engine.queries.hint`, from the seat's own view, R19); this module words it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine import queries
from bot.i18n import t
from bot.render.cards import cards_text
from bot.render.common import check_embed, new_embed

if TYPE_CHECKING:
    from bot.service.game import Game


def hint(game: Game, seat: int) -> discord.Embed:
    """For match seat ``seat`` only: the best melds of its hand and, before its opening, whether those
    melds with the proposed ones reach the opening (R13)."""
    if game.match is None:
        raise ValueError("no hand before the match begins")
    answer = queries.hint(game.match.seat_view(seat).round)
    needed = answer.opening_needed
    if needed == 0:
        note = t("hint.opened")
    elif answer.opening_in_reach:
        # What the melds make, beside what the opening needs: "74 points: enough for 40".
        points = answer.toward_opening
        note = t("hint.opening_reached", points=points, needed=needed, count=points)
    else:
        note = t("hint.opening_short", points=answer.toward_opening, needed=needed, count=needed)
    # The note is the description (a field without a name would draw as an empty line).
    embed = new_embed(t("hint.title"), note if answer.melds else t("hint.none") + "\n" + note)
    if answer.melds:
        lines = [f"{cards_text(meld.cards)} ({meld.points})" for meld in answer.melds]
        embed.add_field(name=t("hint.best", points=answer.points), value="\n".join(lines), inline=False)
    return check_embed(embed)
