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
from functools import cache, lru_cache
from itertools import combinations
from typing import Final, NamedTuple

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


@cache
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


# A natural card's position is its place in card order (rank, then suit C D H S), so the lowest bit of
# a hand vector is its lowest card; a run of one suit moves to another suit by a shift.
_SUITS_BY_BIT = "CDHS"
_SUIT_BIT = {suit: bit for bit, suit in enumerate(_SUITS_BY_BIT)}
_POSITIONS = 52
_CARD_AT = tuple(Card(position // 4 + 1, _SUITS_BY_BIT[position % 4]) for position in range(_POSITIONS))
_TABLES_KEPT = 2048
"""How many hand shapes of one suit keep their runs (a few hundred bytes to a few KB each), and of
one rank their sets; the built melds are kept as many."""


# The tables are plain tuples of numbers, not named tuples: the garbage collector stops tracking
# such tuples, so a full collection does not walk every cached candidate.
_Run = tuple[int, int, int, int, tuple[int, ...], int, int]
"""A candidate run of suit C (bit 0): its naturals' vector (another suit shifts it by its bit), its
jokers' vector, score, bound, natural ranks in place order, jokers and points."""
_Option = tuple[int, int, int, tuple[tuple[int, ...], int]]
"""A candidate meld as the search uses it: vector, score, bound, and the key of :func:`_meld`."""
# Final: the type checker reads each index as its number, so it knows which field it picks.
_SCORE: Final = 1
_KEY: Final = 3
_RANKS: Final = 4


@lru_cache(maxsize=_TABLES_KEPT)
def _run_table(ranks: int, jokers: int, width: int) -> tuple[tuple[_Run, ...], dict[int, list[_Run]]]:
    """The candidate runs of one suit holding the ``ranks`` (bit r = rank r), with at most ``jokers``
    jokers: all of them in the order found, and by lowest rank (ace 1), best score first."""
    available = ranks | (ranks >> 1 & 1) << _HIGH_ACE
    jokers = min(jokers, MAX_RUN - 2)  # no run holds more
    joker_shift = width * _POSITIONS
    runs: list[_Run] = []
    for low, high, mask in _run_layouts(available, jokers):
        length = high - low + 1
        places = [low + i for i in range(length) if mask >> i & 1]
        in_order = tuple(1 if place == _HIGH_ACE else place for place in places)
        used = length - len(in_order)
        points = _run_points(low, high)
        runs.append(
            (
                sum(1 << (width * 4 * (rank - 1)) for rank in in_order),
                used << joker_shift,
                _score(points, used, length),
                sum(_UNIT_BOUND[rank] for rank in in_order) + used * _JOKER_BOUND,
                in_order,
                used,
                points,
            )
        )
    by_first: dict[int, list[_Run]] = {}
    for run in runs:
        by_first.setdefault(min(run[_RANKS]), []).append(run)
    for options in by_first.values():
        options.sort(key=_best_first)
    return tuple(runs), by_first


@lru_cache(maxsize=_TABLES_KEPT)
def _set_table(
    rank: int, suits: int, jokers: int, width: int
) -> tuple[tuple[_Option, ...], dict[int, list[_Option]]]:
    """The candidate sets of ``rank`` from the ``suits`` held (bit = :data:`_SUIT_BIT`), with at most
    ``jokers`` jokers: all of them in the order found, and by lowest suit bit, best score first."""
    jokers = min(jokers, MAX_SET - 2)  # no set holds more
    joker_shift = width * _POSITIONS
    held = [suit for suit in SUITS if suits >> _SUIT_BIT[suit] & 1]
    found: list[_Option] = []
    for size in range(2, len(held) + 1):
        for chosen in combinations(held, size):
            positions = tuple(4 * (rank - 1) + _SUIT_BIT[suit] for suit in chosen)
            naturals = sum(1 << (width * position) for position in positions)
            for used in range(max(0, 3 - size), min(jokers, MAX_SET - size) + 1):
                found.append(
                    (
                        naturals + (used << joker_shift),
                        _score(_card_points(rank) * (size + used), used, size + used),
                        size * _UNIT_BOUND[rank] + used * _JOKER_BOUND,
                        (positions, used),
                    )
                )
    by_first: dict[int, list[_Option]] = {}
    for option in found:
        by_first.setdefault(min(option[_KEY][0]) % 4, []).append(option)
    for options in by_first.values():
        options.sort(key=_best_first)
    return tuple(found), by_first


def _best_first(option: _Run | _Option) -> int:
    return -option[_SCORE]


@lru_cache(maxsize=_TABLES_KEPT)
def _meld(key: tuple[tuple[int, ...], int]) -> Meld:
    """The meld of the natural cards at ``key[0]`` (in the order found) and ``key[1]`` jokers."""
    positions, jokers = key
    return make_meld((*(_CARD_AT[position] for position in positions), *([JOKER] * jokers)))


class _Hand:
    """A hand as the search reads it: its vector (``width`` bits per position, the jokers on top), how
    many cards of each suit and rank it holds, and the most its cards could score."""

    def __init__(self, cards: Iterable[Card]) -> None:
        counts: dict[int, int] = {}
        jokers = 0
        for card in cards:
            if card.rank:
                position = 4 * (card.rank - 1) + _SUIT_BIT[card.suit]
                counts[position] = counts.get(position, 0) + 1
            else:
                jokers += 1
        self.counts = counts
        self.jokers = jokers
        most = max(max(counts.values(), default=0), jokers)
        self.width = width = max(4, most.bit_length() + 1)
        self.suit_ranks = [0, 0, 0, 0]
        self.rank_suits = [0] * 14
        vector = jokers << (width * _POSITIONS)
        bound = jokers * _JOKER_BOUND
        for position, count in counts.items():
            rank, suit = (position >> 2) + 1, position & 3
            self.suit_ranks[suit] |= 1 << rank
            self.rank_suits[rank] |= 1 << suit
            vector += count << (width * position)
            bound += count * _UNIT_BOUND[rank]
        self.vector = vector
        self.bound = bound

    def runs(self, suit: int) -> tuple[_Run, ...]:
        """This hand's candidate runs of ``suit`` (bit), in the order found."""
        ranks = self.suit_ranks[suit]
        return _run_table(ranks, self.jokers, self.width)[0] if ranks & (ranks - 1) else ()

    def sets(self, rank: int) -> tuple[_Option, ...]:
        """This hand's candidate sets of ``rank``, in the order found."""
        suits = self.rank_suits[rank]
        return _set_table(rank, suits, self.jokers, self.width)[0] if suits & (suits - 1) else ()

    def options(self, first: int) -> tuple[_Option, ...]:
        """The candidates whose lowest card sits at position ``first`` (see :func:`_options`)."""
        rank, suit = (first >> 2) + 1, first & 3
        # Only the suits from ``first``'s up can join it in a set. (Runs keep every rank: one table
        # per suit is built for all its cards, which is what a new hand costs.)
        suits = self.rank_suits[rank] & -(1 << suit)
        return _options(first, self.suit_ranks[suit], suits, self.jokers, self.width)


@lru_cache(maxsize=2 * _TABLES_KEPT)
def _options(first: int, ranks: int, suits: int, jokers: int, width: int) -> tuple[_Option, ...]:
    """The candidates whose lowest card sits at position ``first`` when its suit holds ``ranks`` and
    its rank ``suits``: best score first, runs before sets among equal scores (the order in which the
    search tries them, which decides between equally good answers)."""
    rank, suit = (first >> 2) + 1, first & 3
    shift = width * suit
    found = [
        ((naturals << shift) + jokers_vector, score, bound, (tuple(4 * (r - 1) + suit for r in ranks), used))
        for naturals, jokers_vector, score, bound, ranks, used, _ in (
            _run_table(ranks, jokers, width)[1].get(rank, ()) if ranks & (ranks - 1) else ()
        )
    ]
    if suits & (suits - 1):
        found += _set_table(rank, suits, jokers, width)[1].get(suit, ())
    found.sort(key=_best_first)
    return tuple(found)


def _candidates(hand: _Hand) -> list[Candidate]:
    found: list[Candidate] = []
    for suit in SUITS:
        bit = _SUIT_BIT[suit]
        for *_, ranks, used, points in hand.runs(bit):
            cards = tuple(_CARD_AT[4 * (rank - 1) + bit] for rank in ranks)
            found.append(Candidate(cards, used, points))
    for rank in range(1, 14):
        for option in hand.sets(rank):
            positions, used = option[_KEY]
            points = _card_points(rank) * (len(positions) + used)
            found.append(Candidate(tuple(_CARD_AT[position] for position in positions), used, points))
    return found


def meld_candidates(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> list[Candidate]:
    """The melds :func:`best_melds` chooses from: every distinct legal meld that a sub-multiset of
    ``cards`` makes, except runs of six or more cards that split into two melds worth as much.

    >>> from bot.engine.cards import parse_cards
    >>> sorted(str(c.meld()) for c in meld_candidates(parse_cards("5S 6S 7S 7H JK")))
    ['5S 6S 7S', '5S 6S 7S JK=8S', '5S 6S JK=7S', '5S JK=6S 7S', '6S 7S JK=8S', '7S 7H JK=7D']
    """
    return _candidates(_Hand(cards))


def _score(points: int, jokers: int, cards: int) -> int:
    """More points first, then fewer jokers, then more cards: one integer so scores add up."""
    return (points << 20) - (jokers << 10) + cards


_JOKER_BOUND = _score(_BEST_POINTS, 0, 1)
"""The most a joker can add to a score: it may stand for an ace (R2)."""
_UNIT_BOUND = (0, *(_score(_card_points(rank), 0, 1) for rank in range(1, 14)))
"""By rank: the most one card can add to a score (R2)."""


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
    hand = _Hand(cards)
    if sum(hand.counts.values()) + hand.jokers < 3 or not hand.counts:
        return []
    return _Search(hand).run()


@cache
def _guard(width: int) -> int:
    """The top bit of every ``width``-bit field: a field that lends it has gone below zero."""
    return sum(1 << (width * i + width - 1) for i in range(_POSITIONS + 1))


class _Search:
    """The hand as one integer (:class:`_Hand`), searched depth-first from its lowest card: that card
    stays in the hand, or goes into a candidate that holds it. Results are memoised per remaining
    hand; a candidate that cannot beat the best answer found so far, even if every card left counted
    11 (R2), is skipped, which keeps every result exact. The candidates of a card are gathered the
    first time the search reaches it, from tables shared by every hand of the same shape."""

    def __init__(self, hand: _Hand) -> None:
        self.hand = hand
        self.width = width = hand.width
        self.natural_mask = (1 << (width * _POSITIONS)) - 1
        self.guard = _guard(width)
        self.options: dict[int, tuple[_Option, ...]] = {}
        self.memo: dict[int, tuple[int, _Option | None]] = {}

    def _first(self, state: int) -> int:
        naturals_left = state & self.natural_mask
        return ((naturals_left & -naturals_left).bit_length() - 1) // self.width

    def solve(self, state: int, bound: int) -> int:
        """The best score of the hand ``state``; ``bound`` is at least that score."""
        naturals_left = state & self.natural_mask
        if not naturals_left:
            return 0
        known = self.memo.get(state)
        if known is not None:
            return known[0]
        first = ((naturals_left & -naturals_left).bit_length() - 1) // self.width
        options = self.options.get(first)
        if options is None:
            options = self.options[first] = self.hand.options(first)
        # Melds first, best-looking first, so that the bound prunes early; keeping the card last.
        best = -1
        choice: _Option | None = None
        guarded = state | self.guard
        guard = self.guard
        for option in options:
            vector, score, cost, _ = option
            if score + bound - cost <= best or (guarded - vector) & guard != guard:
                continue
            value = score + self.solve(state - vector, bound - cost)
            if value > best:
                best, choice = value, option
        kept_bound = bound - _UNIT_BOUND[(first >> 2) + 1]
        if kept_bound > best:
            value = self.solve(state - (1 << (self.width * first)), kept_bound)
            if value > best:
                best, choice = value, None
        self.memo[state] = (best, choice)
        return best

    def run(self) -> list[Meld]:
        """The melds of the best answer, in the order the search took them."""
        self.solve(self.hand.vector, self.hand.bound)
        melds: list[Meld] = []
        state = self.hand.vector
        while state & self.natural_mask:
            _, choice = self.memo[state]
            if choice is None:
                state -= 1 << (self.width * self._first(state))
                continue
            melds.append(_meld(choice[_KEY]))
            state -= choice[0]
        return melds
