"""Outs: the unseen cards that would grow a hand's melds, counted without the solver (R7-R9, R19).

A club player keeps the cards that many live cards would turn into melds and throws the dead ones.
:func:`outs` counts, for a hand already split into its melds and the cards left over, the cards
that would meld one more card if drawn: one that lengthens a run at an end or fills a set's missing
suit, and one that makes a new meld with two left-over cards (a pair of one rank, two cards of a
suit close enough for a run). Each counts as many times as copies of it may still come: the two of
each card (R1) less those the seat holds, sees dead, or knows in another hand (:func:`live_copies`).

>>> from bot.engine.cards import parse_cards
>>> from bot.engine.meld import make_meld
>>> melds = [make_meld(parse_cards("5H 6H 7H"))]
>>> rest = parse_cards("9C 9S KD")
>>> sorted(str(card) for card in out_cards(melds, rest))
['4H', '8H', '9D', '9H']
>>> outs(melds, rest, lambda card: 2)
8
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from bot.engine.cards import NATURALS, SUITS, Card
from bot.engine.meld import Meld

__all__ = ["live_copies", "meld_outs", "out_cards", "outs", "pair_outs", "rest_outs"]

_HIGH_ACE = 14
_COPIES = 2
"""Of each natural card (R1)."""


def _card(place: int, suit: str) -> Card:
    """The shared natural card of ``suit`` at a run's ``place`` (1-14, the ace at both ends)."""
    return NATURALS[suit][place]


def _run_ends(meld: Meld) -> Iterable[Card]:
    """The naturals that lengthen the run ``meld`` at one end (R7: ace low or high, 13 at most)."""
    low, high = meld.places
    if high - low + 1 >= 13:
        return
    suit = meld.stands_for[0].suit
    if low > 1:
        yield _card(low - 1, suit)
    if high < _HIGH_ACE:
        yield _card(high + 1, suit)


def _gap(a: int, b: int) -> int:
    """Distance between two ranks of a suit, the ace low or high (R7)."""
    gap = abs(a - b)
    if 1 in (a, b):
        gap = min(gap, abs((14 if a == 1 else a) - (14 if b == 1 else b)))
    return gap


def _run_fillers(a: Card, b: Card) -> Iterable[Card]:
    """The naturals that make a run of ``a``, ``b`` (one suit, ranks one or two apart) and themselves."""
    lo, hi = sorted((a.rank, b.rank))
    if _gap(a.rank, b.rank) != hi - lo:  # the ace counts high: A with Q or K
        lo, hi = hi, _HIGH_ACE
    places = [lo - 1, hi + 1] if hi - lo == 1 else [lo + 1]
    for place in places:
        if 1 <= place <= _HIGH_ACE:
            yield _card(place, a.suit)


def _other_suits(rank: int, *suits: str) -> Iterable[Card]:
    """The cards of ``rank`` in the suits other than ``suits``."""
    return (NATURALS[suit][rank] for suit in SUITS if suit not in suits)


def meld_outs(melds: Iterable[Meld]) -> set[Card]:
    """The natural cards that lengthen one of ``melds``: a run's end, a set's missing suit (R7, R8).

    >>> from bot.engine.cards import parse_cards
    >>> from bot.engine.meld import make_meld
    >>> sorted(str(card) for card in meld_outs([make_meld(parse_cards("7C 7D 7S"))]))
    ['7H']
    """
    found: set[Card] = set()
    for meld in melds:
        if meld.kind == "run":
            found.update(_run_ends(meld))
        elif len(meld.stands_for) < len(SUITS):
            found.update(_other_suits(meld.stands_for[0].rank, *(card.suit for card in meld.stands_for)))
    return found


def rest_outs(rest: Sequence[Card]) -> set[Card]:
    """The natural cards that make a new meld with two of the left-over cards ``rest`` (R7-R9).

    >>> from bot.engine.cards import parse_cards
    >>> sorted(str(card) for card in rest_outs(parse_cards("QS KS 3D 3C 3D")))
    ['3H', '3S', 'AS', 'JS']
    """
    found: set[Card] = set()
    naturals = sorted({card for card in rest if not card.is_joker})
    jokers = len(rest) - sum(not card.is_joker for card in rest)
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            if a.rank == b.rank:
                found.update(_other_suits(a.rank, a.suit, b.suit))
            elif a.suit == b.suit and _gap(a.rank, b.rank) <= 2:
                found.update(_run_fillers(a, b))
        if jokers:
            # A left-over joker melds with any card that pairs with ``a`` (R9: two naturals).
            found.update(_other_suits(a.rank, a.suit))
            found.update(NATURALS[a.suit][rank] for rank in range(1, 14) if 0 < _gap(rank, a.rank) <= 2)
    return found


def pair_outs(rest: Sequence[Card]) -> list[tuple[Card, Card, tuple[Card, ...]]]:
    """The pairs and near-runs among the natural cards of ``rest``, each with the cards that would
    make it a meld (R7, R8): :func:`rest_outs` of a hand without jokers is their union, and the hand
    without one of its cards keeps the pairs that do not need that card.

    >>> from bot.engine.cards import parse_cards
    >>> [(str(a), str(b), [str(c) for c in cs]) for a, b, cs in pair_outs(parse_cards("4C 4D 9S"))]
    [('4C', '4D', ['4S', '4H'])]
    """
    found: list[tuple[Card, Card, tuple[Card, ...]]] = []
    naturals = sorted({card for card in rest if not card.is_joker})
    for i, a in enumerate(naturals):
        for b in naturals[i + 1 :]:
            if a.rank == b.rank:
                found.append((a, b, tuple(_other_suits(a.rank, a.suit, b.suit))))
            elif a.suit == b.suit and _gap(a.rank, b.rank) <= 2:
                found.append((a, b, tuple(_run_fillers(a, b))))
    return found


def out_cards(melds: Sequence[Meld], rest: Sequence[Card]) -> set[Card]:
    """The natural cards that would meld one card more with ``melds`` and the left-over ``rest``:
    :func:`meld_outs` and :func:`rest_outs` together.

    >>> from bot.engine.cards import parse_cards
    >>> sorted(str(card) for card in out_cards([], parse_cards("QS KS 3D 3C 3D")))
    ['3H', '3S', 'AS', 'JS']
    """
    return meld_outs(melds) | rest_outs(rest)


def outs(melds: Sequence[Meld], rest: Sequence[Card], live: Callable[[Card], int]) -> int:
    """How many cards still to come would meld one card more: :func:`out_cards`, each weighed by
    ``live`` (the copies that may still be drawn)."""
    return sum(live(card) for card in out_cards(melds, rest))


def live_copies(card: Card, held: int, dead: int, known: int = 0) -> int:
    """The copies of the natural ``card`` that may still be drawn: two (R1) less the ``held`` ones,
    the ``dead`` ones and those ``known`` to be in another hand.

    >>> live_copies(Card.parse("7H"), held=1, dead=0), live_copies(Card.parse("7H"), 1, 1, 1)
    (1, 0)
    """
    return max(0, _COPIES - held - dead - known)
