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
from functools import cache
from itertools import combinations
from typing import NamedTuple

from bot.engine.cards import JOKER, SUITS, Card
from bot.engine.meld import MAX_RUN, MAX_SET, Meld, make_meld
from bot.engine.rules import RuleSet

__all__ = ["Candidate", "best_melds", "meld_candidates", "melds_score"]

_DEFAULT_RULES = RuleSet()
_SHORT_RUN = 5
"""Runs up to this length are all candidates; longer ones only when they cannot be cut (R9)."""
_MOST_NATURALS_UNCUT = 4
"""A longer run that no cut splits into two legal runs holds at most this many naturals."""
_HIGH_ACE = 14
_BEST_POINTS = 11
"""No card is worth more on the table (R2): the bound of the search."""


class Candidate(NamedTuple):
    """A meld the hand can make, before it is built: its natural cards, its jokers, its points."""

    naturals: tuple[Card, ...]
    jokers: int
    points: int

    def meld(self) -> Meld:
        """The meld itself (R10 places the jokers)."""
        return make_meld((*self.naturals, *([JOKER] * self.jokers)))


def _card_points(rank: int) -> int:
    """R2: a card's most points on the table (an ace counts 11 unless it is low in a run)."""
    return 11 if rank == 1 else min(rank, 10)


def _run_points(low: int, high: int) -> int:
    """R2/R10: the points of a run on places ``low..high``."""
    total = sum(min(place, 10) for place in range(max(low, 2), min(high, 13) + 1))
    if high == _HIGH_ACE:
        total += 11
    if low == 1:
        total += 11 if high - low + 1 >= MAX_RUN else 1
    return total


def _can_be_cut(mask: int, length: int) -> bool:
    """Whether a run whose naturals sit at the bits of ``mask`` splits into two runs of three or
    more cards with two naturals each (so both keep R9)."""
    total = mask.bit_count()
    return any(
        (mask & ((1 << cut) - 1)).bit_count() >= 2 and total - (mask & ((1 << cut) - 1)).bit_count() >= 2
        for cut in range(3, length - 2)
    )


@cache
def _uncuttable(length: int, jokers: int) -> tuple[int, ...]:
    """The layouts (bit = natural) of a ``length``-card run with ``jokers`` jokers that no cut splits."""
    naturals = length - jokers
    if not 2 <= naturals <= _MOST_NATURALS_UNCUT:
        return ()
    return tuple(
        sum(1 << place for place in places)
        for places in combinations(range(length), naturals)
        if not _can_be_cut(sum(1 << place for place in places), length)
    )


def _is_canonical(mask: int, low: int, high: int) -> bool:
    """Whether make_meld would lay naturals at ``mask`` (bit 0 = place ``low``) on ``low..high`` (R10).

    Extra jokers go upward first, so they sit below the lowest natural only when the run reaches
    the high ace; and a natural ace goes high whenever the other cards let it.
    """
    if not (mask & 1 or high == _HIGH_ACE):
        return False
    if low == 1 and mask & 1:
        others = mask >> 1
        lowest_other = 2 + ((others & -others).bit_length() - 1)
        return lowest_other < _HIGH_ACE + 1 - (high - low + 1)
    return True


def _run_layouts(available: int, max_jokers: int) -> Iterator[tuple[int, int, int]]:
    """``(low, high, mask)`` of every candidate run whose naturals are among the ``available``
    places (bit p = place p), with at most ``max_jokers`` jokers."""
    for low in range(1, 13):
        for high in range(low + 2, min(low + MAX_RUN - 1, _HIGH_ACE) + 1):
            length = high - low + 1
            window = (available >> low) & ((1 << length) - 1)
            have = window.bit_count()
            least = max(2, length - max_jokers)
            if have < least:
                continue
            if length <= _SHORT_RUN:
                mask = window
                while mask:
                    if mask.bit_count() >= least and _is_canonical(mask, low, high):
                        yield low, high, mask
                    mask = (mask - 1) & window
                continue
            for jokers in range(
                max(length - _MOST_NATURALS_UNCUT, length - have), min(max_jokers, length - 2) + 1
            ):
                for mask in _uncuttable(length, jokers):
                    if not mask & ~window and _is_canonical(mask, low, high):
                        yield low, high, mask


def _candidates(naturals: Iterable[Card], jokers: int) -> list[Candidate]:
    distinct = set(naturals)
    found: list[Candidate] = []
    for suit in SUITS:
        by_place = {card.rank: card for card in distinct if card.suit == suit}
        if len(by_place) < 2:
            continue
        if 1 in by_place:
            by_place[_HIGH_ACE] = by_place[1]
        available = sum(1 << place for place in by_place)
        for low, high, mask in _run_layouts(available, jokers):
            cards = tuple(by_place[low + i] for i in range(high - low + 1) if mask >> i & 1)
            found.append(Candidate(cards, high - low + 1 - len(cards), _run_points(low, high)))
    for rank in range(1, 14):
        cards_of_rank = sorted(
            (card for card in distinct if card.rank == rank), key=lambda c: SUITS.index(c.suit)
        )
        for size in range(2, len(cards_of_rank) + 1):
            for chosen in combinations(cards_of_rank, size):
                for used in range(max(0, 3 - size), min(jokers, MAX_SET - size) + 1):
                    found.append(Candidate(chosen, used, _card_points(rank) * (size + used)))
    return found


def meld_candidates(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> list[Candidate]:
    """The melds :func:`best_melds` chooses from: every distinct legal meld that a sub-multiset of
    ``cards`` makes, except runs of six or more cards that split into two melds worth as much.

    >>> from bot.engine.cards import parse_cards
    >>> sorted(str(c.meld()) for c in meld_candidates(parse_cards("5S 6S 7S 7H JK")))
    ['5S 6S 7S', '5S 6S 7S JK=8S', '5S 6S JK=7S', '5S JK=6S 7S', '6S 7S JK=8S', '7S 7H JK=7D']
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
    ['AS AH AD', 'QS KS JK=AS']
    """
    hand = list(cards)
    naturals = sorted(card for card in hand if not card.is_joker)
    jokers = len(hand) - len(naturals)
    if len(hand) < 3 or not naturals:
        return []
    return _Search(naturals, jokers).run()


class _Search:
    """The hand as one integer (a few bits per distinct card, then the jokers), searched depth-first
    from its first card: that card stays in the hand, or goes into a candidate that holds it.
    Results are memoised per remaining hand; a candidate that cannot beat the best answer found so
    far, even if every card left counted 11 (R2), is skipped, which keeps every result exact."""

    def __init__(self, naturals: list[Card], jokers: int) -> None:
        distinct = sorted(set(naturals))
        most = max(max(naturals.count(card) for card in distinct), jokers)
        self.width = width = max(4, most.bit_length() + 1)
        self.index = {card: i for i, card in enumerate(distinct)}
        self.joker_shift = width * len(distinct)
        self.natural_mask = (1 << self.joker_shift) - 1
        self.guard = sum(1 << (width * i + width - 1) for i in range(len(distinct) + 1))
        self.unit_bound = [_score(_card_points(card.rank), 0, 1) for card in distinct]
        self.by_first: list[list[tuple[int, int, int, Candidate]]] = [[] for _ in distinct]
        for candidate in _candidates(naturals, jokers):
            slots = [self.index[card] for card in candidate.naturals]
            size = len(slots) + candidate.jokers
            score = _score(candidate.points, candidate.jokers, size)
            bound = sum(self.unit_bound[slot] for slot in slots) + candidate.jokers * _score(
                _BEST_POINTS, 0, 1
            )
            self.by_first[min(slots)].append((self._vector(candidate), score, bound, candidate))
        for options in self.by_first:
            options.sort(key=lambda option: -option[1])
        self.start = self._vector(Candidate(tuple(naturals), jokers, 0))
        self.start_bound = sum(self.unit_bound[self.index[card]] for card in naturals)
        self.start_bound += jokers * _score(_BEST_POINTS, 0, 1)
        self.memo: dict[int, tuple[int, Candidate | None]] = {}

    def _vector(self, candidate: Candidate) -> int:
        slots = sum(1 << (self.width * self.index[card]) for card in candidate.naturals)
        return slots + (candidate.jokers << self.joker_shift)

    def _first(self, state: int) -> int:
        naturals_left = state & self.natural_mask
        return ((naturals_left & -naturals_left).bit_length() - 1) // self.width

    def solve(self, state: int, bound: int) -> int:
        """The best score of the hand ``state``; ``bound`` is at least that score."""
        if not state & self.natural_mask:
            return 0
        known = self.memo.get(state)
        if known is not None:
            return known[0]
        first = self._first(state)
        # Melds first, best-looking first, so that the bound prunes early; keeping the card last.
        best = -1
        choice: Candidate | None = None
        guarded = state | self.guard
        for vector, score, cost, candidate in self.by_first[first]:
            if score + bound - cost <= best or (guarded - vector) & self.guard != self.guard:
                continue
            value = score + self.solve(state - vector, bound - cost)
            if value > best:
                best, choice = value, candidate
        kept_bound = bound - self.unit_bound[first]
        if kept_bound > best:
            value = self.solve(state - (1 << (self.width * first)), kept_bound)
            if value > best:
                best, choice = value, None
        self.memo[state] = (best, choice)
        return best

    def run(self) -> list[Meld]:
        """The melds of the best answer, in the order the search took them."""
        self.solve(self.start, self.start_bound)
        melds: list[Meld] = []
        state = self.start
        while state & self.natural_mask:
            _, choice = self.memo[state]
            if choice is None:
                state -= 1 << (self.width * self._first(state))
                continue
            melds.append(choice.meld())
            state -= self._vector(choice)
        return melds
