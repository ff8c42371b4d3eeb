"""The rules in short, with this game's house rules (``/romme rules``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.rules import RuleSet
from bot.i18n import current_locale, t
from bot.render.common import check_embed, house_rule_lines, new_embed

if TYPE_CHECKING:
    from bot.service.game import Game


RULE_BOOKS = {"en": "rules.md", "de": "rules.de.md", "id": "rules.id.md"}
"""The rule book's page in each language, in ``docs/``."""


def rule_book_line(book_url: str | None) -> str:
    """Where every rule is written: a link to the book in the language spoken when the books'
    address is known (``RULES_URL``), else the file's name.

    >>> rule_book_line("https://example.org/docs")
    'Every rule with its id (R1-R22) is in [the rule book](https://example.org/docs/rules.md).'
    >>> from bot.i18n import speaking
    >>> with speaking("de"):
    ...     rule_book_line(None)
    'Alle Regeln mit ihrer Nummer (R1-R22) stehen im Regelbuch, docs/rules.de.md im Quelltext des Bots.'
    """
    if book_url is None:
        return t("rules.book")
    page = RULE_BOOKS.get(current_locale(), RULE_BOOKS["en"])
    return t("rules.book.link", url=f"{book_url}/{page}")


def rules_summary(game: Game | None, book_url: str | None = None) -> discord.Embed:
    """The short rules and the house rules of ``game`` (the defaults when there is no game), then
    the rule book: linked when ``book_url`` (the books' folder) is given. Not in the footer, where
    Discord draws neither a link nor code."""
    rules = game.rules if game is not None else RuleSet()
    summary = t("rules.summary", opening=rules.opening) + "\n\n" + rule_book_line(book_url)
    embed = new_embed(t("rules.title"), summary)
    lines = house_rule_lines(
        rules,
        turn_timeout=game.turn_timeout if game is not None else None,
        computers=game.computers if game is not None else None,
        ids=True,
    )
    name = t("rules.house_rules") if game is not None else t("rules.default_house_rules")
    embed.add_field(name=name, value="\n".join(lines), inline=False)
    return check_embed(embed)
