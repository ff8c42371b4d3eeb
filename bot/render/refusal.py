"""Short ephemeral answers: a refused move in plain words, a table refusal, a stop
confirmation."""

from __future__ import annotations

import logging

import discord

from bot.i18n import has, t
from bot.render.common import public_button

log = logging.getLogger(__name__)


def refusal(text: str) -> str:
    """An ephemeral refusal line around ``text``.

    >>> refusal("It is not your turn.")
    '⚠️ It is not your turn.'
    """
    return t("refusal", text=text)


def error_text(exc: BaseException) -> str:
    """The words for a refusal: an ``IllegalMove`` (its text says the rule in words; the rule's id,
    which a player could not look up, stays in the exception for the logs), a ``TableError`` (with its
    params), anything else as the short apology.

    Duck-typed on ``code`` / ``params`` so rendering needs no import of the service.

    >>> from bot.engine.errors import IllegalMove
    >>> error_text(IllegalMove("meld.mixed_suits", "R7"))
    'A run must be of one suit.'
    """
    code = getattr(exc, "code", None)
    if not isinstance(code, str):
        return t("error.unexpected")
    key = f"error.{code}"
    if not has(key):
        log.error("no message for refusal code %r", code)
        key = "error.unknown"
    params = getattr(exc, "params", None)
    return t(key, **params) if isinstance(params, dict) else t(key)


def refusal_for(exc: BaseException) -> str:
    """:func:`refusal` of :func:`error_text`: what the cog sends when a click is refused."""
    return refusal(error_text(exc))


def stop_confirm(game_id: int, rating: str | None = None) -> tuple[str, discord.ui.View]:
    """The ephemeral "stop this game?" question and its one button (``romme:<game>:stop_yes``);
    ``rating``: how a running match would be rated (``"leaver"``, ``"standings"``, ``"unrated"``,
    :func:`~bot.service.ratings.early_rating`), said below the question."""
    view = discord.ui.View(timeout=None)
    view.add_item(public_button(game_id, "stop_yes", "button.stop_yes", discord.ButtonStyle.danger))
    question = t("stop.confirm")
    consequence = STOP_CONSEQUENCES.get(rating or "")
    if consequence is not None:
        question += "\n" + t(consequence)
    return question, view


STOP_CONSEQUENCES = {
    "leaver": "stop.confirm.leaver",
    "standings": "stop.confirm.standings",
    "unrated": "stop.confirm.unrated",
}
"""What the stop's confirmation adds for each way a running match would be rated."""
