"""The best melds a hand can make (R2, R7-R10): candidate melds, then an exact memoised search.

As in OpenSpiel's gin rummy, the search picks non-overlapping melds from a list of candidates. A
candidate is a sub-multiset of the hand; where its jokers sit follows from its cards alone (R10), so
the candidates are exactly the melds :func:`~bot.engine.meld.make_meld` would make of them.

Long runs are mostly left out: a run of six or more cards splits into two legal runs of the same
cards worth at least as much (a joker that moves when the run is cut only moves up), so only the
few long runs whose every cut leaves a part with fewer than two naturals (R9) are candidates.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from typing import NamedTuple

from bot.engine.cards import JOKER, SUITS, Card
from bot.engine.meld import MAX_RUN, MAX_SET, Meld, make_meld, run_window
from bot.engine.rules import RuleSet

__all__ = ["Candidate", "best_melds", "meld_candidates", "melds_score"]

_DEFAULT_RULES = RuleSet()
_SHORT_RUN = 5
"""Runs up to this length are all candidates; longer ones only when they cannot be cut (R9)."""


class Candidate(NamedTuple):
    """A meld the hand can make, before it is built: its natural cards, its jokers, its points."""

    naturals: tuple[Card, ...]
    jokers: int
    points: int

    def meld(self) -> Meld:
        """The meld itself (R10 places the jokers)."""
        return make_meld((*self.naturals, *([JOKER] * self.jokers)))


def _points(rank: int) -> int:
    return 11 if rank == 1 else min(rank, 10)


def _run_points(low: int, high: int) -> int:
    length = high - low + 1
    total = sum(min(place, 10) for place in range(max(low, 2), min(high, 13) + 1))
    if high == 14:
        total += 11
    if low == 1:
        total += 11 if length >= MAX_RUN else 1
    return total


def _can_be_cut(low: int, high: int, natural_places: set[int]) -> bool:
    """Whether the run splits into two runs of three or more, each with two naturals (R9)."""
    layout = [place in natural_places for place in range(low, high + 1)]
    total = sum(layout)
    left = sum(layout[:2])
    for cut in range(3, len(layout) - 2):
        left += layout[cut - 1]
        if left >= 2 and total - left >= 2:
            return True
    return False


def _run_candidates(suit: str, ranks: list[int], max_jokers: int) -> Iterator[Candidate]:
    places = sorted(ranks) + ([14] if 1 in ranks else [])
    seen: set[tuple[tuple[int, ...], int]] = set()
    for i, low in enumerate(places):
        for high in places[i + 1 :]:
            if low == 1 and high == 14:
                continue
            inside = [place for place in places if low < place < high and place != 14]
            gaps = (high - low - 1) - len(inside)
            if gaps > max_jokers:
                break
            # A run longer than _SHORT_RUN that cannot be cut holds at most four naturals.
            most_inside = len(inside) if high - low + 1 <= _SHORT_RUN else min(len(inside), 2)
            for size in range(most_inside + 1):
                for chosen in combinations(inside, size):
                    yield from _runs_of(
                        suit, (low, *chosen, high), gaps + len(inside) - size, max_jokers, seen
                    )


def _runs_of(
    suit: str,
    places: tuple[int, ...],
    needed: int,
    max_jokers: int,
    seen: set[tuple[tuple[int, ...], int]],
) -> Iterator[Candidate]:
    ranks = tuple(sorted(1 if place == 14 else place for place in places))
    for jokers in range(max(needed, 3 - len(places)), max_jokers + 1):
        length = len(places) + jokers
        if length > MAX_RUN:
            return
        if (ranks, jokers) in seen:
            continue
        seen.add((ranks, jokers))
        window = run_window(ranks, jokers)
        if window is None:
            continue
        low, high = window
        if length > _SHORT_RUN:
            ace = 14 if high == 14 else 1
            natural_places = {ace if rank == 1 else rank for rank in ranks}
            if len(places) > 4 or _can_be_cut(low, high, natural_places):
                continue
        yield Candidate(tuple(Card(rank, suit) for rank in ranks), jokers, _run_points(low, high))


def _set_candidates(rank: int, suits: list[str], max_jokers: int) -> Iterator[Candidate]:
    for size in range(2, len(suits) + 1):
        for chosen in combinations(suits, size):
            for jokers in range(max(0, 3 - size), min(max_jokers, MAX_SET - size) + 1):
                yield Candidate(
                    tuple(Card(rank, suit) for suit in chosen), jokers, _points(rank) * (size + jokers)
                )


def _candidates(naturals: Iterable[Card], jokers: int) -> list[Candidate]:
    distinct = set(naturals)
    found: list[Candidate] = []
    for suit in SUITS:
        ranks = sorted(card.rank for card in distinct if card.suit == suit)
        found.extend(_run_candidates(suit, ranks, jokers))
    for rank in range(1, 14):
        suits = [suit for suit in SUITS if Card(rank, suit) in distinct]
        found.extend(_set_candidates(rank, suits, jokers))
    return found


def meld_candidates(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> list[Candidate]:
    """The melds :func:`best_melds` chooses from: every distinct legal meld that a sub-multiset of
    ``cards`` makes, except runs of six or more cards that split into two melds worth as much.

    >>> from bot.engine.cards import parse_cards
    >>> [str(c.meld()) for c in meld_candidates(parse_cards("5S 6S 7S 7H JK"))]
    ['5S 6S JK=7S', '5S JK=6S 7S', '5S 6S 7S', '5S 6S 7S JK=8S', '6S 7S JK=8S', '7S 7H JK=7D']
    """
    hand = list(cards)
    naturals = [card for card in hand if not card.is_joker]
    return _candidates(naturals, len(hand) - len(naturals))


def _score(points: int, jokers: int, cards: int) -> int:
    """More points first, then fewer jokers, then more cards: one integer so scores add up."""
    return (points << 20) - (jokers << 10) + cards


def melds_score(melds: Iterable[Meld]) -> tuple[int, int, int]:
    """What :func:`best_melds` maximises, in order: points, minus the jokers used, cards used."""
    chosen = list(melds)
    return (
        sum(meld.points for meld in chosen),
        -sum(meld.jokers for meld in chosen),
        sum(len(meld.cards) for meld in chosen),
    )


def best_melds(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> list[Meld]:
    """Disjoint melds from ``cards`` (a multiset) worth the most points together (R2, R7-R10).

    Ties go to fewer jokers, then more cards; the answer is deterministic for a given multiset.

    >>> from bot.engine.cards import parse_cards
    >>> [str(m) for m in best_melds(parse_cards("QS KS AS AH AD 2S 3S JK 9C"))]
    ['AH AD JK=AS', 'QS KS AS']
    """
    hand = list(cards)
    naturals = sorted(card for card in hand if not card.is_joker)
    jokers = len(hand) - len(naturals)
    if len(hand) < 3:
        return []
    distinct = sorted(set(naturals))
    index = {card: i for i, card in enumerate(distinct)}
    width = max(4, max(naturals.count(card) for card in distinct).bit_length() + 1 if distinct else 4)
    width = max(width, jokers.bit_length() + 1)
    joker_shift = width * len(distinct)
    guard = sum(1 << (width * i + width - 1) for i in range(len(distinct) + 1))
    natural_mask = (1 << joker_shift) - 1
    by_first: list[list[tuple[int, int, Candidate]]] = [[] for _ in distinct]
    for candidate in _candidates(naturals, jokers):
        slots = [index[card] for card in candidate.naturals]
        vector = sum(1 << (width * slot) for slot in slots) + (candidate.jokers << joker_shift)
        size = len(candidate.naturals) + candidate.jokers
        by_first[min(slots)].append((vector, _score(candidate.points, candidate.jokers, size), candidate))
    start = sum(naturals.count(card) << (width * i) for i, card in enumerate(distinct))
    start += jokers << joker_shift
    memo: dict[int, tuple[int, Candidate | None]] = {}

    def solve(state: int) -> int:
        naturals_left = state & natural_mask
        if not naturals_left:
            return 0
        known = memo.get(state)
        if known is not None:
            return known[0]
        first = ((naturals_left & -naturals_left).bit_length() - 1) // width
        best = solve(state - (1 << (width * first)))
        choice: Candidate | None = None
        guarded = state | guard
        for vector, score, candidate in by_first[first]:
            if (guarded - vector) & guard == guard:
                value = score + solve(state - vector)
                if value > best:
                    best, choice = value, candidate
        memo[state] = (best, choice)
        return best

    solve(start)
    melds: list[Meld] = []
    state = start
    while state & natural_mask:
        _, choice = memo[state]
        if choice is None:
            low = state & natural_mask
            state -= 1 << (width * (((low & -low).bit_length() - 1) // width))
            continue
        melds.append(choice.meld())
        state -= sum(1 << (width * index[card]) for card in choice.naturals) + (choice.jokers << joker_shift)
    return melds
