"""Cards where an inline emoji does not render, and cuts that never split one.

Discord draws ``<:name:id>`` in an embed's description and field values, but a select option's or a
button's label shows it as the raw text: there a card is its text (:func:`card_label`) and its face
goes in the component's own ``emoji`` field (:func:`card_emoji`, :func:`card_option`). An inline
emoji costs 36-39 characters of a limit instead of 2-3, and a cut in the middle of one leaves its
raw text: :func:`clip_markup` cuts before it.

>>> from bot.render.faces import Face, face_name, set_faces
>>> set_faces({"7H": Face("7H", face_name("7H", "abcdef"), 1234567890123456789)})
>>> card_option("7H", "7H", default=True).to_dict()["emoji"]
{'id': 1234567890123456789, 'name': 'hearts_7_abcdef'}
>>> card_option("7H", "7H").label, cards_label(["7H", "QS"])
('7♥', '7♥ Q♠\\ufe0e')
>>> set_faces(None); card_option("7H", "7H").emoji is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import discord

from bot.engine.cards import Card
from bot.i18n import t
from bot.render.cards import DARK_SUITS, TEXT_PRESENTATION
from bot.render.faces.style import face_of

MARKUP = re.compile(r"<a?:[A-Za-z0-9_]{2,32}:[0-9]{1,20}>")
"""A custom emoji in a message's text."""
MAX_OPTION_LABEL = 100
MAX_BUTTON_LABEL = 80


def card_label(card: Card | str) -> str:
    """``card`` as text whatever the style (``7♥``; ♠ ♣ as text): for labels and placeholders.

    >>> card_label("10S"), card_label("JK")
    ('10♠\\ufe0e', '🃏')
    """
    symbol = (card if isinstance(card, Card) else Card.parse(card)).symbol
    return symbol + TEXT_PRESENTATION if symbol.endswith(DARK_SUITS) else symbol


def cards_label(cards: Iterable[Card | str]) -> str:
    """Cards as text separated by spaces, whatever the style; a dash for none.

    >>> cards_label([]) == t("cards.none")
    True
    """
    return " ".join(map(card_label, cards)) or t("cards.none")


def card_emoji(card: Card | str) -> discord.PartialEmoji | None:
    """The face of ``card`` for a component's ``emoji`` field, ``None`` while cards are text."""
    face = face_of(card)
    return None if face is None else discord.PartialEmoji(name=face.name, id=face.id)


def card_option(card: Card | str, value: str, *, default: bool = False) -> discord.SelectOption:
    """A select option for one card: its text as the label and, with faces on, its face as the
    option's emoji (a label cannot show an inline emoji)."""
    return discord.SelectOption(label=card_label(card), value=value, default=default, emoji=card_emoji(card))


def clip_markup(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, like ``clip``, but never inside an
    inline emoji: a cut that would split one cuts before it.

    >>> clip_markup("ab <:romme_7h_abcdef:123>", 10)
    'ab …'
    >>> clip_markup("short", 10)
    'short'
    """
    if len(text) <= limit:
        return text
    cut = limit - 1
    for found in MARKUP.finditer(text, 0, len(text)):
        if found.start() >= cut:
            break
        if found.end() > cut:
            cut = found.start()
            break
    return text[:cut] + "…"


def split_markup(text: str) -> bool:
    """Whether ``text`` holds a piece of an inline emoji that will not draw (a cut one).

    >>> split_markup("<:romme_7h_abcdef:123> 8♥"), split_markup("<:romme_7h_abc…")
    (False, True)
    """
    return "<:" in MARKUP.sub("", text)
