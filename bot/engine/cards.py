"""Cards: the immutable value every other engine module is built on (R1, R2).

Each card has one shared value: :data:`CARDS` by canonical code, :data:`NATURALS` by suit and place.

>>> len(CARDS), CARDS["10H"] == Card(10, "H"), CARDS["JK"] is JOKER
(53, True, True)
>>> NATURALS["H"][10], NATURALS["S"][14] is NATURALS["S"][1] is CARDS["AS"]
(Card.parse('10H'), True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Suit = Literal["S", "H", "D", "C"]

SUITS: tuple[Suit, ...] = ("S", "H", "D", "C")
"""The four suits in display order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()}
JOKER_RANK = 0
JOKER_HAND_POINTS = 20


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Equal cards are equal values: the two 7♥ of the two decks cannot be told apart (R1).

    ``rank`` is 1 (ace) to 13 (king), or 0 for a joker; ``suit`` is ``S H D C``, or ``""`` for a joker.

    >>> card = Card.parse("10H")
    >>> str(card), card.symbol, card.rank, card.suit
    ('10H', '10♥', 10, 'H')
    >>> str(JOKER), JOKER.symbol, JOKER.is_joker
    ('JK', '🃏', True)
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit != "":
                raise ValueError("a joker has no suit")
        elif not (1 <= self.rank <= 13 and self.suit in SUITS):
            raise ValueError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card of a short code: ``"10H"``, ``"QS"``, ``"AC"``, ``"JK"`` (case-insensitive).

        A canonical code (as :func:`str` writes it) is looked up in :data:`CARDS`; any other spelling
        (``" 10h"``) goes through :func:`_parse_spelling`.

        >>> Card.parse("QS") is Card.parse(" qs "), Card.parse("JK") is JOKER
        (True, True)
        """
        card = CARDS.get(code)
        return _parse_spelling(code) if card is None else card

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.rank == JOKER_RANK

    @property
    def symbol(self) -> str:
        """The card for display: ``"10♥"``, ``"🃏"``."""
        if self.is_joker:
            return "🃏"
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def hand_points(self) -> int:
        """What this card costs when it is left in the hand at the end of a round (R2)."""
        if self.is_joker:
            return JOKER_HAND_POINTS
        if self.rank == 1:
            return 11
        return min(self.rank, 10)

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return RANK_NAMES[self.rank] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(JOKER_RANK, "")
"""The joker. All jokers are equal values."""

NATURALS: Mapping[str, tuple[Card, ...]] = {
    suit: (JOKER, *row, row[0]) for suit in SUITS for row in [[Card(rank, suit) for rank in range(1, 14)]]
}
"""One shared :class:`Card` per natural card, by suit and then by *place* 1-14 (both ends hold the
ace, so the cards a run stands for are a slice of its suit's row; index 0, the joker, is a
placeholder no run reaches)."""

CARDS: Mapping[str, Card] = {"JK": JOKER} | {
    str(card): card for row in NATURALS.values() for card in row[1:14]
}
"""The 53 canonical card codes (52 naturals and ``"JK"``), each to its one shared :class:`Card`: the
engine's and the rendering's fast path from a code to a card (:meth:`Card.parse`, :func:`parse_cards`).
"""


def _parse_spelling(code: str) -> Card:
    """The card of a code in any spelling :meth:`Card.parse` takes: spaces around it, any case."""
    text = code.strip().upper()
    if text == "JK":
        return JOKER
    rank = _RANK_BY_NAME.get(text[:-1])
    suit = text[-1:]
    if rank is None or suit not in SUITS:
        raise ValueError(f"not a card code: {code!r}")
    return NATURALS[suit][rank]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards from codes separated by spaces or commas, or from an iterable of codes.

    >>> [str(c) for c in parse_cards("7H 8H JK")]
    ['7H', '8H', 'JK']
    >>> parse_cards("7H 1H")
    Traceback (most recent call last):
    ...
    ValueError: not a card code: '1H'
    """
    if isinstance(text, str):
        codes: Sequence[str] = text.replace(",", " ").split()
    else:
        codes = text if isinstance(text, list | tuple) else list(text)
    try:
        return [CARDS[code] for code in codes]
    except KeyError:
        # Some code is not canonical: card by card, so that other spellings work and a bad one is named.
        return [Card.parse(code) for code in codes]


def card_codes(cards: Iterable[Card]) -> list[str]:
    """The short codes of ``cards``, in order (the inverse of :func:`parse_cards`)."""
    return [str(card) for card in cards]


def hand_points(cards: Iterable[Card]) -> int:
    """The "left in the hand" column of R2, summed: ace 11, faces 10, joker 20.

    >>> hand_points(parse_cards("AS KH 7D JK"))
    48
    """
    return sum(card.hand_points for card in cards)


def new_deck(jokers: int = 4) -> list[Card]:
    """Two French decks and ``jokers`` jokers, in a fixed order (R1): 108 cards with 4 jokers."""
    naturals = [NATURALS[suit][rank] for _ in range(2) for suit in SUITS for rank in range(1, 14)]
    return naturals + [JOKER] * jokers


def shuffled_deck(jokers: int, rng: random.Random) -> list[Card]:
    """A new deck shuffled by ``rng`` (live games pass ``random.SystemRandom()``, R19)."""
    deck = new_deck(jokers)
    rng.shuffle(deck)
    return deck


def sort_by_suit(cards: Iterable[Card]) -> list[Card]:
    """Cards grouped by suit (♠ ♥ ♦ ♣), each suit by rank, jokers last."""
    return sorted(cards, key=lambda c: (c.is_joker, SUITS.index(c.suit) if c.suit else 0, c.rank))


def sort_by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards by rank (A … K), each rank by suit, jokers last."""
    return sorted(cards, key=lambda c: (c.is_joker, c.rank, SUITS.index(c.suit) if c.suit else 0))
