"""Hand analysis: cards as multisets, rank distances, and what a card could still grow into (R7-R9).

>>> from bot.engine.cards import parse_cards
>>> _without(parse_cards("5H 5H 6H"), parse_cards("5H"))
[Card.parse('5H'), Card.parse('6H')]
>>> _rank_gap(1, 13), _rank_gap(1, 3)
(1, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import attrgetter

from bot.engine.cards import SUITS, Card

_CARD_ORDER = attrgetter("rank", "suit")
"""Sorts cards as their own order does, without a Python call per comparison."""


def _without(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    """``hand`` minus ``cards`` as multisets (one copy removed per card)."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _rank_gap(a: int, b: int) -> int:
    """Distance between two ranks of one suit, the ace counted low or high (R7)."""
    gap = abs(a - b)
    if 1 in (a, b):
        gap = min(gap, abs((14 if a == 1 else a) - (14 if b == 1 else b)))
    return gap


def _alone(card: Card, hand: Sequence[Card]) -> bool:
    """Whether the natural ``card`` could join no meld with ``hand`` (R7-R9): no other suit of its rank,
    and no card of its suit close enough for the jokers to bridge (a meld needs two naturals). Then
    the best melds of ``hand`` plus ``card`` are those of ``hand``, the card left over."""
    jokers = sum(other.is_joker for other in hand)
    for other in hand:
        if other.is_joker:
            continue
        if other.rank == card.rank:
            if other.suit != card.suit:
                return False
        elif other.suit == card.suit and _rank_gap(other.rank, card.rank) <= jokers + 1:
            return False
    return True


def _run_neighbours(a: int, b: int, gap: int) -> list[int]:
    """The ranks that turn the near-run ``a``, ``b`` (``gap`` apart, R7) into a run, ace as 1."""
    lo, hi = sorted((a, b))
    if _rank_gap(a, b) != hi - lo:  # the ace counts high: A with Q or K
        lo, hi = hi, 14
    wanted = [lo - 1, hi + 1] if gap == 1 else [lo + 1]
    return [1 if rank == 14 else rank for rank in wanted if 1 <= rank <= 14]


def _partner_value(card: Card, hand: list[Card]) -> float:
    """How much ``card`` is worth keeping for a set or run it could grow into."""
    set_suits = {other.suit for other in hand if other.rank == card.rank and other.suit != card.suit}
    run_ranks = {other.rank for other in hand if other.suit == card.suit and other.rank != card.rank}
    gaps = [_rank_gap(card.rank, rank) for rank in run_ranks]
    return 30.0 * len(set_suits) + sum(30 if gap == 1 else 15 for gap in gaps if gap <= 2)


def _live_partner_value(card: Card, hand: list[Card], dead: Counter[Card]) -> float:
    """:func:`_partner_value`, counting only the cards that could still come (not dead, R1: two
    of each card)."""
    held = Counter(hand)

    def live(cards: Iterable[Card]) -> int:
        return sum(max(0, 2 - dead[other] - held[other]) for other in cards)

    set_suits = {other.suit for other in hand if other.rank == card.rank and other.suit != card.suit}
    value = 0.0
    if set_suits:
        missing = [Card(card.rank, suit) for suit in SUITS if suit != card.suit and suit not in set_suits]
        value += 30.0 * len(set_suits) * min(1.0, live(missing) / 2)
    run_ranks = {other.rank for other in hand if other.suit == card.suit and other.rank != card.rank}
    for rank in run_ranks:
        gap = _rank_gap(card.rank, rank)
        if gap > 2:
            continue
        wanted = [Card(r, card.suit) for r in _run_neighbours(card.rank, rank, gap)]
        value += (30 if gap == 1 else 15) * min(1.0, live(wanted) / 2)
    return value
