"""Melds: runs and sets, the place of each joker in them, and what they score (R2, R7-R10, R15, R16).

The places of a run are numbered by *extended rank*: 1 is the ace below the 2, 2 to 13 the plain
ranks, 14 the ace above the king. A run takes a window of consecutive places that never holds both
1 and 14 (R7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from bot.engine.cards import JOKER, JOKER_RANK, NATURALS, SUITS, Card, card_codes, hand_points, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.rules import RuleSet

__all__ = ["MAX_RUN", "MAX_SET", "End", "Meld", "MeldKind", "hand_points", "make_meld", "run_window"]

MeldKind = Literal["run", "set"]


class End(StrEnum):
    """The end of a run a laid-off joker goes to (R10): below its lowest card or above its highest."""

    LOW = "low"
    HIGH = "high"


MAX_RUN = 13
"""The longest run: every rank once (R7)."""
MAX_SET = 4
"""The biggest set: one card of each suit (R8)."""

_LOW_ACE = 1
_HIGH_ACE = 14
_DEFAULT_RULES = RuleSet()


def _rank_at(place: int) -> int:
    """The card rank of an extended-rank place."""
    return 1 if place == _HIGH_ACE else place


def _place_points(place: int, length: int) -> int:
    """R2/R10: the points of the card at ``place`` of a run of ``length`` cards."""
    if place == _LOW_ACE:
        # A run of all thirteen ranks counts its ace high, wherever it lies (R10).
        return 11 if length >= MAX_RUN else 1
    if place == _HIGH_ACE:
        return 11
    return min(place, 10)


def _set_points(rank: int) -> int:
    return 11 if rank == 1 else min(rank, 10)


def run_window(ranks: Iterable[int], jokers: int) -> tuple[int, int] | None:
    """R10: the places ``(low, high)`` that naturals of ``ranks`` (distinct, 1-13) and ``jokers`` take.

    Jokers fill the gaps first, then extend the run upward toward the ace, then downward. A natural
    ace goes high when the run can reach it that way, else low. ``None`` if no run fits.

    >>> run_window([5, 6], 1), run_window([12, 13], 1), run_window([1, 13], 1), run_window([1, 2], 1)
    ((5, 7), (12, 14), (12, 14), (1, 3))
    """
    ordered = sorted(ranks)
    length = len(ordered) + jokers
    if not ordered or length > MAX_RUN:
        return None
    options = [[*ordered[1:], _HIGH_ACE], ordered] if ordered[0] == _LOW_ACE else [ordered]
    for places in options:
        low_natural = places[0]
        if places[-1] - low_natural + 1 > length:
            continue
        top = MAX_RUN if low_natural == _LOW_ACE else _HIGH_ACE
        high = min(top, low_natural + length - 1)
        return high - length + 1, high
    return None


def _wraps_around(ranks: Sequence[int], length: int) -> bool:
    """Whether ``ranks`` would fit ``length`` places if the king were followed by the ace and the 2."""
    ordered = sorted(set(ranks))
    if len(ordered) < 2:
        return False
    widest_gap = max((ordered[(i + 1) % len(ordered)] - ordered[i]) % 13 for i in range(len(ordered)))
    return 13 - widest_gap + 1 <= length


def _check_jokers(length: int, naturals: int, jokers: int) -> None:
    if length < 3:
        raise IllegalMove("meld.too_short", "R7", "a meld needs at least three cards")
    if naturals == 0:
        raise IllegalMove("meld.jokers_only", "R9", "a meld of jokers alone is not allowed")
    if jokers >= 2 and naturals < 2:
        raise IllegalMove(
            "meld.too_many_jokers", "R9", "a meld with two or more jokers needs two natural cards"
        )


def _set_stands_for(cards: Sequence[Card]) -> tuple[Card, ...]:
    """R10: each joker of a set stands for the first suit the set lacks that no earlier joker took."""
    naturals = [card for card in cards if not card.is_joker]
    rank = naturals[0].rank
    taken = {card.suit for card in naturals}
    lacking = iter([suit for suit in SUITS if suit not in taken])
    return tuple(NATURALS[next(lacking)][rank] if card.is_joker else card for card in cards)


def _suit_order(card: Card) -> int:
    return SUITS.index(card.suit)


def _run_cards(suit: str, low: int, high: int, placed: dict[int, Card]) -> Meld:
    cards = tuple(placed.get(place, JOKER) for place in range(low, high + 1))
    return Meld("run", cards, NATURALS[suit][low : high + 1])


def _built(kind: MeldKind, cards: tuple[Card, ...], stands_for: tuple[Card, ...]) -> Meld:
    """The meld :func:`make_meld` has just built legal by construction, without checking it again.

    ``Meld(...)`` checks its places (R7-R10) because anyone may call it; make_meld has already made
    every one of those checks on the way in. tests/engine/test_card_codes.py holds each of its melds
    against the checking constructor.
    """
    meld = object.__new__(Meld)
    object.__setattr__(meld, "kind", kind)
    object.__setattr__(meld, "cards", cards)
    object.__setattr__(meld, "stands_for", stands_for)
    return meld


def _make_set(naturals: list[Card], jokers: int) -> Meld:
    by_suit = {card.suit: card for card in naturals}
    if len(by_suit) < len(naturals):
        raise IllegalMove("meld.repeated_suit", "R8", "a set needs each card in a different suit")
    if len(naturals) + jokers > MAX_SET:
        raise IllegalMove("meld.too_long", "R8", "a set has at most four cards")
    # The naturals in suit order, then the jokers, each standing for the first suit still lacking (R10).
    rank = naturals[0].rank
    ordered = tuple(by_suit[suit] for suit in SUITS if suit in by_suit)
    lacking = tuple(NATURALS[suit][rank] for suit in SUITS if suit not in by_suit)
    return _built("set", (*ordered, *(JOKER,) * jokers), (*ordered, *lacking[:jokers]))


def _make_run(naturals: list[Card], jokers: int) -> Meld:
    suit = naturals[0].suit
    if any(card.suit != suit for card in naturals):
        raise IllegalMove("meld.mixed_suits", "R7", "a run needs cards of one suit, a set cards of one rank")
    ranks = [card.rank for card in naturals]
    if len(set(ranks)) < len(ranks):
        raise IllegalMove("meld.repeated_rank", "R7", "a run has each rank only once")
    length = len(naturals) + jokers
    if length > MAX_RUN:
        raise IllegalMove("meld.too_long", "R7", "a run has at most thirteen cards")
    window = run_window(ranks, jokers)
    if window is None:
        if _wraps_around(ranks, length):
            raise IllegalMove("meld.around_corner", "R7", "a run never goes around the corner (K-A-2)")
        raise IllegalMove("meld.not_consecutive", "R7", "a run needs consecutive ranks")
    low, high = window
    ace_place = _HIGH_ACE if high == _HIGH_ACE else _LOW_ACE
    cards = [JOKER] * length
    for card in naturals:
        cards[(ace_place if card.rank == 1 else card.rank) - low] = card
    return _built("run", tuple(cards), NATURALS[suit][low : high + 1])


def make_meld(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> Meld:
    """The meld that ``cards``, in any order, make (R7-R10), or :class:`IllegalMove`.

    The naturals decide: one rank makes a set, several ranks a run. ``rules`` is taken for symmetry
    with the rest of the engine; no house rule changes what a meld is. From card codes, the usual
    way is ``make_meld(parse_cards(codes))`` (canonical codes are looked up, not parsed).

    >>> meld = make_meld(parse_cards("JK 6S 5S"))
    >>> str(meld), meld.points
    ('5S 6S JK=7S', 18)
    >>> str(make_meld(parse_cards("AS KS JK"))), make_meld(parse_cards("QS KS JK")).points
    ('JK=QS KS AS', 31)
    >>> make_meld(parse_cards("KS AS 2S"))
    Traceback (most recent call last):
    ...
    bot.engine.errors.IllegalMove: a run never goes around the corner (K-A-2)
    """
    laid = cards if isinstance(cards, list | tuple) else tuple(cards)
    naturals = [card for card in laid if card.rank != JOKER_RANK]
    jokers = len(laid) - len(naturals)
    _check_jokers(len(laid), len(naturals), jokers)
    if len({card.rank for card in naturals}) == 1:
        return _make_set(naturals, jokers)
    return _make_run(naturals, jokers)


def _validate(kind: str, cards: tuple[Card, ...], stands_for: tuple[Card, ...]) -> None:
    """Refuse a meld whose places do not make a legal run or set (R7-R9)."""
    if kind not in ("run", "set"):
        raise ValueError(f"a meld is a 'run' or a 'set', not {kind!r}")
    if len(cards) != len(stands_for) or any(card.is_joker for card in stands_for):
        raise IllegalMove("meld.invalid", "R10", "each card of a meld stands for one natural card")
    if any(not card.is_joker and card != stand for card, stand in zip(cards, stands_for, strict=True)):
        raise IllegalMove("meld.invalid", "R10", "a natural card stands for itself")
    jokers = sum(card.is_joker for card in cards)
    _check_jokers(len(cards), len(cards) - jokers, jokers)
    if kind == "set":
        if len({card.rank for card in stands_for}) != 1:
            raise IllegalMove("meld.mixed_ranks", "R8", "a set needs cards of one rank")
        if len({card.suit for card in stands_for}) != len(stands_for):
            raise IllegalMove("meld.repeated_suit", "R8", "a set needs each card in a different suit")
        return
    if len({card.suit for card in stands_for}) != 1:
        raise IllegalMove("meld.mixed_suits", "R7", "a run needs cards of one suit")
    if len(cards) > MAX_RUN:
        raise IllegalMove("meld.too_long", "R7", "a run has at most thirteen cards")
    low = stands_for[0].rank
    if any(stand.rank != _rank_at(low + i) for i, stand in enumerate(stands_for)):
        raise IllegalMove("meld.not_consecutive", "R7", "a run needs consecutive ranks")


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal run or set, in table order (R7-R10).

    ``cards`` are the cards as they lie: a run from low to high with each joker in its place, a set in
    the order laid. ``stands_for`` holds, place by place, the natural card each one stands for.
    Building a ``Meld`` that breaks R7-R9 raises :class:`IllegalMove`; :func:`make_meld` is the usual
    way in.

    >>> run = make_meld(parse_cards("5S 6S JK"))
    >>> [str(c) for c in run.stands_for], run.suit, run.points
    (['5S', '6S', '7S'], 'S', 18)
    >>> str(run.extend(parse_cards("8S 9S"))), str(run.swap_joker(Card.parse("7S")))
    ('5S 6S JK=7S 8S 9S', '5S 6S 7S')
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))
        object.__setattr__(self, "stands_for", tuple(self.stands_for))
        _validate(self.kind, self.cards, self.stands_for)

    @property
    def points(self) -> int:
        """The meld's value on the table (R2, R10): jokers count as the card they stand for."""
        if self.kind == "set":
            return _set_points(self.stands_for[0].rank) * len(self.stands_for)
        low, length = self.stands_for[0].rank, len(self.stands_for)
        return sum(_place_points(low + i, length) for i in range(length))

    @property
    def suit(self) -> str | None:
        """The suit of a run; ``None`` for a set."""
        return self.stands_for[0].suit if self.kind == "run" else None

    @property
    def rank(self) -> int | None:
        """The rank of a set; ``None`` for a run."""
        return self.stands_for[0].rank if self.kind == "set" else None

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds."""
        return sum(card.is_joker for card in self.cards)

    @property
    def places(self) -> tuple[int, int]:
        """A run's lowest and highest place in extended ranks (1 = low ace, 14 = high ace)."""
        if self.kind != "run":
            raise ValueError("only a run has places")
        low = self.stands_for[0].rank
        return low, low + len(self.cards) - 1

    def extend(self, cards: Iterable[Card], end: End | str | None = None) -> Meld:
        """R15: the meld with ``cards`` laid off on it; the cards already there keep their places.

        A run grows at its ends (the old cards are a slice of the new ones); a set takes them at the
        end. A laid-off joker on a run goes to ``end`` ("low" or "high"); by default upward where it
        can, else downward (R10). A natural whose place a joker holds cannot be laid off: that is a
        joker swap (R16).

        >>> run = make_meld(parse_cards("5S 6S JK"))
        >>> str(run.extend([Card.parse("8S")])), str(run.extend([JOKER], end=End.LOW))
        ('5S 6S JK=7S 8S', 'JK=4S 5S 6S JK=7S')
        >>> run.extend([Card.parse("7S")])
        Traceback (most recent call last):
        ...
        bot.engine.errors.IllegalMove: a joker holds the place of 7♠: swap it in instead (R16)
        """
        laid = tuple(cards)
        if end not in (None, End.LOW, End.HIGH):
            raise IllegalMove(
                "layoff.bad_end", "R10", f"a joker goes to the low or the high end, not {end!r}"
            )
        if not laid:
            raise IllegalMove("layoff.no_cards", "R15", "lay off at least one card")
        naturals = [card for card in laid if not card.is_joker]
        jokers = len(laid) - len(naturals)
        if self.kind == "set":
            return self._extend_set(naturals, jokers)
        return self._extend_run(naturals, jokers, None if end is None else End(end))

    def _extend_set(self, naturals: list[Card], jokers: int) -> Meld:
        if any(card.rank != self.rank for card in naturals):
            raise IllegalMove("meld.mixed_ranks", "R8", "a set needs cards of one rank")
        suits = [card.suit for card in self.cards if not card.is_joker] + [card.suit for card in naturals]
        if len(set(suits)) < len(suits):
            raise IllegalMove("meld.repeated_suit", "R8", "a set needs each card in a different suit")
        if len(self.cards) + len(naturals) + jokers > MAX_SET:
            raise IllegalMove("meld.too_long", "R8", "a set has at most four cards")
        cards = (*self.cards, *sorted(naturals, key=_suit_order), *([JOKER] * jokers))
        return Meld("set", cards, _set_stands_for(cards))

    def _extend_run(self, naturals: list[Card], jokers: int, end: End | None) -> Meld:
        if any(card.suit != self.suit for card in naturals):
            raise IllegalMove("meld.mixed_suits", "R7", "a run needs cards of one suit")
        ranks = [card.rank for card in naturals]
        if len(set(ranks)) < len(ranks):
            raise IllegalMove("meld.repeated_rank", "R7", "a run has each rank only once")
        if len(self.cards) + len(naturals) + jokers > MAX_RUN:
            raise IllegalMove("meld.too_long", "R7", "a run has at most thirteen cards")
        low, high = self.places
        for card in naturals:
            for place in (_LOW_ACE, _HIGH_ACE) if card.rank == 1 else (card.rank,):
                if low <= place <= high:
                    self._refuse_taken_place(place - low, card)
        # A laid-off ace goes high where it fits, else low, as in make_meld.
        ace_places = (_HIGH_ACE, _LOW_ACE) if 1 in ranks else (_HIGH_ACE,)
        first_error: IllegalMove | None = None
        for ace_place in ace_places:
            placed = {(ace_place if card.rank == 1 else card.rank): card for card in naturals}
            try:
                new_low, new_high = _grow(low, high, sorted(placed), jokers, end)
            except IllegalMove as error:
                first_error = first_error or error
                continue
            placed.update({low + i: card for i, card in enumerate(self.cards)})
            return _run_cards(self.stands_for[0].suit, new_low, new_high, placed)
        assert first_error is not None
        try:
            raise first_error
        finally:
            # The exception must not stay in a local of the frame its traceback holds: that is a
            # reference cycle, which only the garbage collector frees (with every frame of the
            # stack it went through), and the computer player refuses thousands of lay-offs a second.
            first_error = None

    def _refuse_taken_place(self, index: int, card: Card) -> None:
        if self.cards[index].is_joker:
            raise IllegalMove(
                "layoff.joker_holds_place",
                "R15",
                f"a joker holds the place of {card.symbol}: swap it in instead (R16)",
            )
        raise IllegalMove("meld.repeated_rank", "R7", "a run has each rank only once")

    def swap_joker(self, card: Card) -> Meld:
        """R16: the meld with ``card`` in the place of a joker that stands for it.

        In a run the joker must stand for exactly ``card``; in a set ``card`` may be of any suit the
        set lacks (it takes the place of the joker standing for that suit, else of the first joker).

        >>> str(make_meld(parse_cards("7S 7H JK JK")).swap_joker(Card.parse("7C")))
        '7S 7H JK=7D 7C'
        """
        index = self._joker_index_for(card)
        if index is None:
            raise IllegalMove("swap.not_replaceable", "R16", f"no joker here stands for {card.symbol}")
        cards = (*self.cards[:index], card, *self.cards[index + 1 :])
        if self.kind == "run":
            return Meld("run", cards, self.stands_for)
        return Meld("set", cards, _set_stands_for(cards))

    def _joker_index_for(self, card: Card) -> int | None:
        if card.is_joker:
            return None
        jokers = [i for i, placed in enumerate(self.cards) if placed.is_joker]
        exact = [i for i in jokers if self.stands_for[i] == card]
        if self.kind == "run" or exact:
            return exact[0] if exact else None
        natural_suits = {placed.suit for placed in self.cards if not placed.is_joker}
        if card.rank == self.rank and card.suit not in natural_suits and jokers:
            return jokers[0]
        return None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy: ``{"kind", "cards", "stands_for", "points"}`` with card codes."""
        return {
            "kind": self.kind,
            "cards": card_codes(self.cards),
            "stands_for": card_codes(self.stands_for),
            "points": self.points,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Meld:
        """Rebuild a meld from :meth:`to_dict` (``points`` is recomputed, not trusted)."""
        return cls(data["kind"], tuple(parse_cards(data["cards"])), tuple(parse_cards(data["stands_for"])))

    def __str__(self) -> str:
        return " ".join(
            f"JK={stand}" if card.is_joker else str(card)
            for card, stand in zip(self.cards, self.stands_for, strict=True)
        )


def _grow(low: int, high: int, new_places: list[int], jokers: int, end: End | None) -> tuple[int, int]:
    """R10/R15: the window of a run on ``low..high`` once naturals at ``new_places`` and jokers join."""
    new_low, new_high = min([low, *new_places]), max([high, *new_places])
    if new_low == _LOW_ACE and new_high == _HIGH_ACE:
        raise IllegalMove("meld.around_corner", "R7", "the ace is low or high in a run, never both")
    gaps = (new_high - new_low) - (high - low) - len(new_places)
    if gaps > jokers:
        raise IllegalMove("meld.not_consecutive", "R7", "the cards must continue the run at its ends")
    for _ in range(jokers - gaps):
        up = end != End.LOW and new_high < _HIGH_ACE and not (new_low == _LOW_ACE and new_high == MAX_RUN)
        down = end != End.HIGH and new_low > _LOW_ACE and not (new_high == _HIGH_ACE and new_low == 2)
        if up:
            new_high += 1
        elif down:
            new_low -= 1
        elif end is None:
            raise IllegalMove("meld.too_long", "R7", "a run has at most thirteen cards")
        else:
            raise IllegalMove("layoff.no_room", "R15", f"there is no room for a joker at the {end} end")
    return new_low, new_high
