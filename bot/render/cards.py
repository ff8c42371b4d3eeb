"""Cards and melds as text: ``7♥``, ``🃏``; a hand sorted by suit or by rank.

♠ and ♣ carry U+FE0E (text presentation): many clients draw the bare symbols as black emoji, which
are nearly invisible on a dark theme; as text they take the text colour. ♥ and ♦ stay as they are
(red where the client draws them as emoji), so the two colours of a deck still show.

>>> cards_text(["QS", "QH", "JK"])
'Q♠\ufe0e Q♥ 🃏'
>>> sorted_codes(["JK", "7H", "AS", "7H", "2S"], "suit")
['AS', '2S', '7H', '7H', 'JK']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.engine.cards import Card, card_codes, parse_cards, sort_by_rank, sort_by_suit
from bot.i18n import t
from bot.render.faces import style as faces

if TYPE_CHECKING:
    from bot.engine.meld import Meld
    from bot.engine.table import TableMeld

TEXT_PRESENTATION = "\ufe0e"
DARK_SUITS = ("♠", "♣")
CACHED = 512
"""Entries kept by each cache below: the 53 cards, each as a Card and as a code, fit."""

# Every table and panel drawing formats dozens of cards: each card's text is worked out once. Codes
# are parsed by the engine's parser (a canonical code is a table look-up there, giving a shared Card).
# A bad code raises and is not kept.


@lru_cache(maxsize=CACHED)
def _face_or_text(card: Card | str) -> str:
    parsed = card if isinstance(card, Card) else Card.parse(card)
    face = faces.face_markup(parsed)  # the card's picture once the bot has its faces (bot.render.faces)
    if face is not None:
        return face
    return _plain_text(parsed)


@lru_cache(maxsize=CACHED)
def _plain_text(card: Card | str) -> str:
    symbol = (card if isinstance(card, Card) else Card.parse(card)).symbol
    return symbol + TEXT_PRESENTATION if symbol.endswith(DARK_SUITS) else symbol


def _card_text(card: Card | str) -> str:
    # Text for a member who chose text cards (faces.text_cards), whatever the bot's switch.
    return _plain_text(card) if faces.cards_are_text() else _face_or_text(card)


faces.on_change(_face_or_text.cache_clear)


def card_text(card: Card | str) -> str:
    """One card for display (``Card.symbol``, ♠ ♣ as text): ``"10H"`` → ``10♥``.

    >>> card_text("10H"), card_text("AS")
    ('10♥', 'A♠\ufe0e')
    """
    return _card_text(card)


def cards_text(cards: Iterable[Card | str]) -> str:
    """Cards separated by spaces; a dash for none."""
    text = " ".join(map(_card_text, cards))
    return text or t("cards.none")


@lru_cache(maxsize=CACHED)
def _sorted(codes: tuple[str, ...], sort: str) -> tuple[str, ...]:
    cards = parse_cards(codes)
    return tuple(card_codes(sort_by_rank(cards) if sort == "rank" else sort_by_suit(cards)))


def sorted_codes(codes: Iterable[str], sort: str) -> list[str]:
    """Card codes sorted ``"suit"`` (♠ ♥ ♦ ♣, jokers last) or ``"rank"`` (A … K, jokers last)."""
    # A panel sorts the same hand for its text and its select, and again on the next click.
    return list(_sorted(tuple(codes), sort))


def hand_text(codes: Sequence[str], sort: str) -> str:
    """A sorted hand; sorted by suit, a wider gap between suits so the groups read at a glance.

    >>> hand_text(["7H", "AS", "2S", "JK"], "suit").replace(TEXT_PRESENTATION, "")
    'A♠ 2♠ · 7♥ · 🃏'
    """
    ordered = sorted_codes(codes, sort)
    if not ordered:
        return t("cards.none")
    if sort == "rank":
        return cards_text(ordered)
    groups: list[list[str]] = []
    for code in ordered:
        suit = Card.parse(code).suit or "JK"
        if groups and (Card.parse(groups[-1][0]).suit or "JK") == suit:
            groups[-1].append(code)
        else:
            groups.append([code])
    return " · ".join(cards_text(group) for group in groups)


def meld_cards_text(meld: Meld | TableMeld) -> str:
    """A meld's cards in table order (jokers where they lie)."""
    return cards_text(meld.cards)


def parse_codes(codes: Iterable[str]) -> list[Card]:
    """The cards of card codes (the engine's :func:`~bot.engine.cards.parse_cards`); ``ValueError`` for
    a bad code.

    >>> [card.symbol for card in parse_codes(["10H", "JK"])]
    ['10♥', '🃏']
    """
    return parse_cards(codes)


def take_cards(hand: Sequence[str], wanted: Iterable[str]) -> list[str]:
    """The codes of ``wanted`` that ``hand`` holds, as a multiset: two 7♥ only if the hand has two.

    >>> take_cards(["7H", "8H", "7H"], ["7H", "7H", "7H", "9S"])
    ['7H', '7H']
    """
    left = list(hand)
    taken = []
    for code in wanted:
        if code in left:
            left.remove(code)
            taken.append(code)
    return taken
