"""The computer player: a seat that plays a whole turn from its view alone (R11-R17, R19).

It never sees the Round, only its seat's view: ``Round.seat_view(seat)`` (typed) or the JSON-ready
``Round.view(seat)``, with its own hand and pending melds, the table, the top of the discard pile and
counts. Each call to :meth:`ComputerPlayer.next_move` returns one move; the caller applies it and asks
again until the turn ends with a discard (or the seat goes out).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Generic, TypeVar

from bot.engine.cards import JOKER, SUITS, Card, hand_points, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.history import PublicEvent
from bot.engine.meld import Meld, make_meld
from bot.engine.memory import Memory, recall
from bot.engine.moves import DrawSource, Move, Phase
from bot.engine.outs import live_copies, meld_outs, out_cards, pair_outs, rest_outs
from bot.engine.round import MAX_RESHUFFLES
from bot.engine.rules import RuleSet
from bot.engine.solver import best_melds
from bot.engine.table import TableMeld
from bot.engine.views import RoundView

# Below this many cards in hand the seat lays off its jokers too: that close to going out a joker
# is worth more on the table (its points, R20) than as a hope of a new meld that costs 20 if stuck.
_LAY_OFF_JOKERS_AT = 3
LEVELS = ("easy", "normal", "hard")
"""The levels of :class:`ComputerPlayer`, easiest first."""
DEFAULT_LEVEL = "normal"
_CACHE_SIZE = 4096
_ROUND_CACHE_SIZE = 1024
"""A player's memos of one round's hands and table melds hold at most this many (then start over)."""
K = TypeVar("K")
V = TypeVar("V")
_CARD_ORDER = attrgetter("rank", "suit")
"""Sorts cards as their own order does, without a Python call per comparison."""


@dataclass(frozen=True, slots=True)
class _Seat:
    """What one view says, parsed once per move."""

    rules: RuleSet
    phase: Phase
    hand: list[Card]
    pending: list[Meld]
    pending_points: int
    opened: bool
    table: list[TableMeld]
    discard_top: Card | None
    taken: Card | None
    last_stock: bool
    """No reshuffle is left: the round may end with every hand counted against its seat (R18)."""
    seat: int = 0
    hand_counts: tuple[int, ...] = ()
    opened_seats: tuple[bool, ...] = ()
    stock_count: int = 0
    turn_no: int = 1
    history: tuple[PublicEvent, ...] | list[Any] = ()
    """The view's public history: typed events, or a dict view's entries (read only by the hard level)."""

    @classmethod
    def from_view(cls, view: RoundView, table: list[TableMeld]) -> _Seat:
        assert view.seat is not None, "an onlooker has no move"
        return cls(
            rules=view.rules,
            phase=view.phase,
            hand=list(view.hand),
            pending=list(view.pending),
            pending_points=view.pending_points,
            opened=view.opened[view.seat],
            table=table,
            discard_top=view.discard_top,
            taken=view.taken_from_discard,
            last_stock=view.reshuffles >= MAX_RESHUFFLES,
            seat=view.seat,
            hand_counts=view.hand_counts,
            opened_seats=view.opened,
            stock_count=view.stock_count,
            turn_no=view.turn_no,
            history=view.history,
        )

    @classmethod
    def from_dict(cls, view: Mapping[str, Any], rules: RuleSet, table: list[TableMeld]) -> _Seat:
        """The seat of a JSON-ready view; only the fields the player needs are read (R19)."""
        seat = view["seat"]
        top = view.get("discard_top")
        taken = view.get("taken_from_discard")
        return cls(
            rules=rules,
            phase=Phase(view["phase"]),
            hand=parse_cards(view["hand"]),
            pending=[Meld.from_dict(entry) for entry in view.get("pending", [])],
            pending_points=int(view.get("pending_points", 0)),
            opened=bool(view["opened"][seat]),
            table=table,
            discard_top=Card.parse(top) if top else None,
            taken=Card.parse(taken) if taken else None,
            last_stock=view.get("reshuffles", 0) >= MAX_RESHUFFLES,
            seat=seat,
            hand_counts=tuple(view.get("hand_counts", ())),
            opened_seats=tuple(view["opened"]),
            stock_count=int(view.get("stock_count", 0)),
            turn_no=int(view.get("turn_no", 1)),
            history=view.get("history", []),
        )

    def can_end_with(self, rest: Sequence[Card]) -> bool:
        """Whether a hand of ``rest``, left after a meld, lay-off or swap, still lets the turn end: empty
        is going out (unless the last card must be discarded, R17), one card may always be discarded,
        more need one that is not equal to the card taken from the discard pile (R12)."""
        if not rest:
            return not self.rules.discard_to_go_out
        return len(rest) == 1 or any(card != self.taken for card in rest)


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


class _Memo(Generic[K, V]):
    """A dict of computed values that forgets everything once it holds ``size`` of them."""

    def __init__(self, size: int = _CACHE_SIZE) -> None:
        self.size = size
        self.values: dict[K, V] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value of ``key``, computed by ``compute`` the first time."""
        try:
            return self.values[key]
        except KeyError:
            if len(self.values) >= self.size:
                self.values.clear()
            value = self.values[key] = compute()
            return value

    def clear(self) -> None:
        """Forget every value."""
        self.values.clear()


class _MeldFacts:
    """A table meld's cards, and what the player learnt about them: which cards can be laid off on it
    and which can take a joker's place. Both depend on the meld alone, so every player shares them."""

    __slots__ = ("fits", "meld", "replaces")

    def __init__(self, meld: Meld) -> None:
        self.meld = meld
        self.fits: dict[Card, bool] = {}
        self.replaces: dict[Card, bool] = {}


def _learnt(known: dict[Card, bool], card: Card, attempt: Callable[[], object]) -> bool:
    """Whether ``attempt`` with ``card`` succeeds, tried the first time and then read from ``known``."""
    answer = known.get(card)
    if answer is None:
        try:
            attempt()
            answer = True
        except ValueError:
            answer = False
        known[card] = answer
    return answer


_MELD_FACTS: _Memo[tuple[str, tuple[str, ...], tuple[str, ...]], _MeldFacts] = _Memo(_CACHE_SIZE)
"""By a table entry's kind, cards and stands-for codes (views as dicts)."""
_TABLE_FACTS: dict[int, tuple[TableMeld, _MeldFacts]] = {}
"""By identity of a typed view's table meld, the meld held so that its id is not reused: a table meld
never changes (a lay-off or swap puts a new one in its place), so its facts are found without
hashing its cards."""
_FACTS_BY_MELD: _Memo[Meld, _MeldFacts] = _Memo(_CACHE_SIZE)
"""By the meld itself, for a table meld seen for the first time."""


def _facts_of(tm: TableMeld) -> _MeldFacts:
    """The facts of a typed view's table meld ``tm``."""
    known = _TABLE_FACTS.get(id(tm))
    if known is None:
        if len(_TABLE_FACTS) >= _CACHE_SIZE:
            _TABLE_FACTS.clear()
        facts = _FACTS_BY_MELD.get(tm.meld, lambda: _MeldFacts(tm.meld))
        known = _TABLE_FACTS[id(tm)] = (tm, facts)
    return known[1]


@dataclass(frozen=True, slots=True)
class _Style:
    """How a level plays: the knobs that tell easy, normal and hard apart."""

    patient: bool = False
    """Hold the opening back (R13) until the seat can go out, too much is at stake, or the end is near."""
    spare_jokers: bool = False
    """Keep jokers out of melds the seat does not need yet, where the next seat could swap them (R16)."""
    memory: bool = False
    """Read the public history: dead cards, and what the next seat collects (never feed it)."""
    swaps: bool = True
    """Swap jokers from the table (R16)."""
    blunder: float = 0.0
    """The chance of a careless discard: any card outside its melds, not the one a player would pick."""
    miss: float = 0.0
    """The chance of overlooking a lay-off, or a discard worth taking."""
    outs: bool = False
    """Discard the card whose loss leaves the most outs (:mod:`bot.engine.outs`), not card by card."""


_STYLES: dict[str, _Style] = {
    "easy": _Style(swaps=False, blunder=0.5, miss=0.5),
    "normal": _Style(),
    "hard": _Style(patient=True, spare_jokers=True, memory=True, outs=True),
}

# When the hard level holds its opening back: another seat is this close to going out (cards in hand;
# fewer still count once that seat has opened), the seat has had this many turns, or the stock is low.
_NEAR_OUT = 4
_NEAR_OUT_OPENED = 7
_OPEN_BY_TURN = 9
_LOW_STOCK = 12
_CLOSE_TO_OUT = 1
"""Cards left over after the melds at which the hard level opens at once: it goes out this turn."""
_OUT_WEIGHT = 12.0
"""What one live out (a copy of a card that would meld one card more) is worth to the hard level's
discard, in hand points (R2)."""
_THREAT = 5
"""An opened seat with this many cards or fewer may go out any turn: the hard level sheds points."""
_POINTS_BEFORE_OPENING = -1.0
"""How the hard level weighs a left-over card's points before it has opened: negatively, it keeps
the high cards, which reach the opening (R13) with fewer cards and score more on the table (R20)."""


def _run_neighbours(a: int, b: int, gap: int) -> list[int]:
    """The ranks that turn the near-run ``a``, ``b`` (``gap`` apart, R7) into a run, ace as 1."""
    lo, hi = sorted((a, b))
    if _rank_gap(a, b) != hi - lo:  # the ace counts high: A with Q or K
        lo, hi = hi, 14
    wanted = [lo - 1, hi + 1] if gap == 1 else [lo + 1]
    return [1 if rank == 14 else rank for rank in wanted if 1 <= rank <= 14]


class ComputerPlayer:
    """A computer seat: plays from its seat's view alone and always returns a legal move.

    Strategy: take the discard when it completes a meld or a lay-off, else draw from the stock;
    open as soon as the best melds reach the opening (R13); once opened meld all it can, lay off,
    and swap a joker when that leaves less in the hand (R16); discard the highest dead card, keeping
    pairs and near-runs, never the card just taken (R12). Toward a high opening it keeps high cards;
    on the last stock (R18) it sheds points. Every meld, lay-off and swap leaves a card it may
    discard (R12, R17). Deterministic given ``rng``.

    ``level`` is one of :data:`LEVELS`; the above is ``"normal"``. ``"easy"`` makes a beginner's
    mistakes: a careless discard half the time, overlooked lay-offs and discards, no joker swaps.
    ``"hard"`` plays like a club player from the same view: it holds its opening back until it can go
    out at once or the end may be near (R13), keeps jokers out of melds it does not need yet (R16),
    takes a discard that brings its opening closer or lengthens its melds, and reads the view's public
    history (R19) for the dead cards and for what the next seat collects, which it does not feed. It
    discards by outs (:mod:`bot.engine.outs`): it keeps the cards that the most live unseen cards
    would meld, and before opening keeps high cards rather than low ones.

    >>> from bot.engine.round import Round
    >>> rnd = Round.deal(2, rng=random.Random(7))
    >>> player = ComputerPlayer(random.Random(1))
    >>> player.next_move(rnd.seat_view(rnd.to_play)) == player.next_move(rnd.view(rnd.to_play))
    True
    >>> player.next_move(rnd.seat_view(rnd.to_play)).kind
    'draw'
    >>> ComputerPlayer(level="hard").level
    'hard'
    >>> ComputerPlayer(level="expert")
    Traceback (most recent call last):
    ...
    ValueError: unknown computer level 'expert': choose easy, normal or hard
    """

    def __init__(self, rng: random.Random | None = None, *, level: str = DEFAULT_LEVEL) -> None:
        if level not in _STYLES:
            raise ValueError(
                f"unknown computer level {level!r}: choose {', '.join(LEVELS[:-1])} or {LEVELS[-1]}"
            )
        self.level = level
        self._style = _STYLES[level]
        self.rng = rng if rng is not None else random.Random()
        # Views repeat a lot from move to move (the same rules, table melds, hands), so parsing and
        # solving are memoised; that keeps a move at about a millisecond. What a round's hands and
        # table hold never comes back in the next deal: those memos are emptied when a round
        # begins (a bot keeps one player per table, and at 1,000 tables full memos of finished
        # rounds were gigabytes in the making).
        self._rules: _Memo[tuple[tuple[str, Any], ...], RuleSet] = _Memo()
        self._table: _Memo[tuple[Any, ...], tuple[TableMeld, _MeldFacts]] = _Memo(_ROUND_CACHE_SIZE)
        self._best_melds: _Memo[tuple[tuple[Card, ...], RuleSet], tuple[Meld, ...]] = _Memo(_ROUND_CACHE_SIZE)
        self._facts_now: dict[str, _MeldFacts] = {}  # by table meld id, for the current view
        self._turn_no = 0  # of the last view: a smaller one is a new round

    # -- the public move ------------------------------------------------------------------------

    def next_move(self, view: RoundView | Mapping[str, Any]) -> Move:
        """The next move for the seat of ``view``, which must be on turn (``view.to_play``).

        ``view`` is the seat's :class:`~bot.engine.views.RoundView`, or the JSON-ready view
        (``Round.view``) of which only the fields the player needs are read; both give the same move.
        """
        turn_no = view.turn_no if isinstance(view, RoundView) else view.get("turn_no", 0)
        if turn_no < self._turn_no:
            self._table.clear()
            self._best_melds.clear()
        self._turn_no = turn_no
        if isinstance(view, RoundView):
            table = list(view.table)
            self._facts_now = {tm.id: _facts_of(tm) for tm in table}
            seat = _Seat.from_view(view, table)
        else:
            seat = self._seat_of_dict(view)
        if seat.phase == Phase.DRAW:
            return Move.draw(self._draw_source(seat))
        if seat.opened:
            swap = self._swap_move(seat) if self._style.swaps else None
            move = swap or self._meld_move(seat) or self._lay_off_move(seat)
        else:
            move = self._opening_move(seat)
        return move or Move.discard(self._discard_choice(seat))

    def _chance(self, p: float) -> bool:
        """True with probability ``p`` (no draw from ``rng`` when ``p`` is 0: normal stays as it was)."""
        return p > 0 and self.rng.random() < p

    def _seat_of_dict(self, view: Mapping[str, Any]) -> _Seat:
        rules = self._rules.get(
            tuple(sorted(view["rules"].items())), lambda: RuleSet.from_dict(view["rules"])
        )
        known = [self._table_meld(entry) for entry in view.get("table", [])]
        self._facts_now = {tm.id: facts for tm, facts in known}
        return _Seat.from_dict(view, rules, [tm for tm, _ in known])

    # -- drawing (R11, R12) -----------------------------------------------------------------------

    def _draw_source(self, seat: _Seat) -> DrawSource:
        top = seat.discard_top
        if top is None:
            return DrawSource.STOCK
        if all(card == top for card in seat.hand):
            return DrawSource.STOCK  # R12 would leave no card to discard
        if self._chance(self._style.miss):
            return DrawSource.STOCK  # a beginner does not see what the top card would do
        if self._style.patient and not top.is_joker and self._serves(seat, top):
            return DrawSource.DISCARD
        if top.is_joker and not seat.last_stock:
            return DrawSource.DISCARD
        if seat.opened and any(self._fits(tm, top) for tm in seat.table):
            return DrawSource.DISCARD
        # The top card is worth its R12 lock only if it lowers what would be stuck in the hand.
        if not top.is_joker and _alone(top, seat.hand):
            return DrawSource.STOCK  # it would only add its own points to what is stuck
        if self._deadwood([*seat.hand, top], seat.rules) < self._deadwood(seat.hand, seat.rules):
            return DrawSource.DISCARD
        return DrawSource.STOCK

    def _serves(self, seat: _Seat, top: Card) -> bool:
        """Whether ``top`` is all used in the best melds with the hand: it lengthens or makes a meld
        without leaving more in the hand, or it brings an unopened seat to its opening (R13)."""
        if _alone(top, seat.hand):
            return False
        with_top = self._best([*seat.hand, top], seat.rules)
        points = sum(meld.points for meld in with_top)
        if not seat.opened:
            before = sum(meld.points for meld in self._best(seat.hand, seat.rules))
            if points >= seat.rules.opening > before:
                return True
        melded = Counter(card for meld in with_top for card in meld.cards)
        return melded[top] > 0 and self._deadwood([*seat.hand, top], seat.rules) <= self._deadwood(
            seat.hand, seat.rules
        )

    # -- opening (R13) ----------------------------------------------------------------------------

    def _near_end(self, seat: _Seat) -> bool:
        """Whether the round may end soon: another seat is close to going out, the seat has had many
        turns, or the stock runs low (R18)."""
        if seat.last_stock or seat.stock_count <= _LOW_STOCK:
            return True
        n_seats = len(seat.hand_counts) or 1
        if (seat.turn_no - 1) // n_seats + 1 >= _OPEN_BY_TURN:
            return True
        for other, count in enumerate(seat.hand_counts):
            if other == seat.seat:
                continue
            opened = other < len(seat.opened_seats) and seat.opened_seats[other]
            if count <= _NEAR_OUT or (opened and count <= _NEAR_OUT_OPENED):
                return True
        return False

    def _spared(self, melds: list[Meld], seat: _Seat, needed: int) -> list[Meld]:
        """``melds`` without those holding a joker, if the rest still make ``needed`` points."""
        plain = [meld for meld in melds if JOKER not in meld.cards]
        if plain and len(plain) < len(melds) and sum(meld.points for meld in plain) >= needed:
            rest = _without(seat.hand, (card for meld in plain for card in meld.cards))
            if seat.can_end_with(rest):
                return plain
        return melds

    def _opening_move(self, seat: _Seat) -> Move | None:
        melds = self._plan(seat.hand, seat)
        total = seat.pending_points + sum(meld.points for meld in melds)
        if melds and total >= seat.rules.opening:
            if self._style.patient and not seat.pending:
                left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
                if left > _CLOSE_TO_OUT and not self._near_end(seat):
                    return None  # wait: opened melds only give the other seats places to lay off
            if self._style.spare_jokers:
                left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
                if left > 1:
                    melds = self._spared(melds, seat, seat.rules.opening - seat.pending_points)
            return Move.meld(melds[0].cards)
        if seat.pending:
            # Proposed melds that cannot reach the opening only lock cards away from the discard.
            return Move.take_back()
        return None

    # -- after opening (R14-R16) ------------------------------------------------------------------

    def _meld_move(self, seat: _Seat) -> Move | None:
        melds = self._plan(seat.hand, seat)
        if melds and self._style.spare_jokers:
            left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
            if left > 1 and not self._end_in_sight(seat):
                melds = [meld for meld in melds if JOKER not in meld.cards]
        return Move.meld(melds[0].cards) if melds else None

    def _lay_off_move(self, seat: _Seat) -> Move | None:
        if self._chance(self._style.miss):
            return None
        lay_jokers = len(seat.hand) <= _LAY_OFF_JOKERS_AT or seat.last_stock
        for card in sorted(set(seat.hand), key=lambda c: (-c.hand_points, c)):
            if (card.is_joker and not lay_jokers) or not seat.can_end_with(_without(seat.hand, [card])):
                continue
            for tm in seat.table:
                if self._fits(tm, card):
                    return Move.lay_off((card,), tm.id)
        return None

    def _swap_move(self, seat: _Seat) -> Move | None:
        if not any(JOKER in tm.cards for tm in seat.table):
            return None
        best_left = self._deadwood(seat.hand, seat.rules)
        best_move: Move | None = None
        for tm in seat.table:
            if JOKER not in tm.cards:
                continue
            for card in sorted(set(seat.hand)):
                if card.is_joker or not self._replaces(tm, card):
                    continue
                rest = _without(seat.hand, [card])
                for partners in self._joker_partners(rest, seat.rules):
                    left = _without(rest, partners)
                    if not seat.can_end_with(left):
                        continue
                    dead = self._deadwood(left, seat.rules)
                    if dead < best_left:
                        best_left, best_move = dead, Move.swap_joker(card, tm.id, partners)
        return best_move

    def _joker_partners(self, cards: list[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
        """Groups of ``cards`` that make a legal meld with one more joker (R16's new meld)."""
        found: set[tuple[Card, ...]] = set()
        naturals = sorted({card for card in cards if not card.is_joker})
        for a, b in itertools.combinations(naturals, 2):
            near_run = a.suit == b.suit and _rank_gap(a.rank, b.rank) <= 2
            if (a.rank == b.rank or near_run) and self._is_meld((a, b, JOKER), rules):
                found.add((a, b))
        for meld in self._best([*cards, JOKER], rules):
            if JOKER in meld.cards:
                found.add(tuple(sorted(_without(meld.cards, [JOKER]))))
        return sorted(found, key=lambda group: (-len(group), group))

    # -- planning helpers -------------------------------------------------------------------------

    def _plan(self, hand: list[Card], seat: _Seat) -> list[Meld]:
        """The best melds of ``hand`` that still let the turn end (R12, R17's house rule)."""
        melds = list(self._best(hand, seat.rules))
        if not seat.can_end_with(_without(hand, (card for meld in melds for card in meld.cards))):
            melds = self._loosen(melds, hand, seat)
        return sorted(melds, key=lambda meld: (-meld.points, meld.cards))

    def _loosen(self, melds: list[Meld], hand: list[Card], seat: _Seat) -> list[Meld]:
        """``melds`` with the cheapest card, or failing that meld, left out so the turn can end."""
        options: list[tuple[int, bool, list[Meld]]] = []
        for index, meld in enumerate(melds):
            others = melds[:index] + melds[index + 1 :]
            for card in set(meld.cards):
                smaller = self._meld_or_none(_without(meld.cards, [card]), seat.rules)
                if smaller is not None:
                    options.append((meld.points - smaller.points, card.is_joker, [*others, smaller]))
            options.append((meld.points, True, others))
        fine = [
            option
            for option in options
            if seat.can_end_with(_without(hand, (card for meld in option[2] for card in meld.cards)))
        ]
        return min(fine, key=lambda option: option[:2])[2] if fine else []

    def _discard_choice(self, seat: _Seat) -> Card:
        hand = seat.hand
        allowed = [card for card in hand if card != seat.taken] or hand  # R12: unless it is the last
        melded = Counter(card for meld in self._best(hand, seat.rules) for card in meld.cards)
        counts = Counter(hand)

        # On the last stock the round may soon end with the hand counted against the seat (R18):
        # what a card might become weighs less than what it costs.
        hope = 0.1 if seat.last_stock else 1.0

        # Low cards cost less in the hand, but a high opening (R13) is only reached with high melds:
        # from 80 up an unopened seat stops preferring to keep low cards, at 120 it keeps high ones.
        weight = 1.0 if seat.opened else max(-1.0, min(1.0, 1 - (seat.rules.opening - 40) / 40))

        if self._style.blunder and self._chance(self._style.blunder):
            # A beginner's discard: any card outside its melds, or any card at all.
            loose = [card for card in allowed if melded[card] < counts[card] and not card.is_joker]
            return self.rng.choice(sorted(loose or allowed))
        memory = self._recall(seat) if self._style.memory else None
        if memory is not None and self._style.outs:
            return self._outs_discard(seat, allowed, memory, hope)
        partner_value = self._partner_value
        if memory is not None:

            def partner_value(card: Card, hand: list[Card]) -> float:
                return self._live_partner_value(card, hand, memory.dead)

        def keep_value(card: Card) -> float:
            if card.is_joker:
                # With two cards left a joker rarely finds two naturals to meld with; it only blocks
                # going out.
                return 1000 * hope if len(hand) > 2 else -card.hand_points
            value = 500.0 if melded[card] >= counts[card] else partner_value(card, hand)
            if any(self._fits(tm, card) for tm in seat.table):
                value += 10
            if memory is not None:
                value += self._feeds(card, seat, memory)
            return value * hope - card.hand_points * weight

        return min(allowed, key=lambda card: (keep_value(card), self.rng.random()))

    def _outs_discard(self, seat: _Seat, allowed: list[Card], memory: Memory, hope: float) -> Card:
        """The hard level's discard: the card whose loss leaves the hand the most live outs
        (:func:`~bot.engine.outs.outs`: the unseen copies that would meld one card more), then the
        best points left over (high ones kept before the opening, R13; low ones after), and the next
        seat least fed. Only cards outside the best melds are weighed, a joker last of all."""
        hand = seat.hand
        held = Counter(hand)
        dead = memory.dead
        top = seat.discard_top  # it goes under the discard
        known = self._known_elsewhere(seat, memory)

        copies: dict[Card, int] = {}

        def live(card: Card) -> int:
            count = copies.get(card)
            if count is None:
                gone = dead[card] + (card == top)
                count = copies[card] = live_copies(card, held[card], gone, known[card])
            return count

        weight = 1.0 if seat.opened or self._threatened(seat) else _POINTS_BEFORE_OPENING
        melds = self._best(hand, seat.rules)
        melded = Counter(card for meld in melds for card in meld.cards)
        lengthen = meld_outs(melds)
        left_all = _without(hand, melded.elements())
        spare = Counter(left_all)
        pairs = None if spare[JOKER] else pair_outs(left_all)

        def value(card: Card) -> float:
            if card.is_joker:
                return -1000.0 * hope if len(hand) > 2 else card.hand_points
            if melded[card] < held[card]:
                # The best melds of the hand do without a card they leave over, so they are the
                # best melds of the hand without it too: no solve per card.
                left = _without(left_all, [card])
                if pairs is None:
                    found = lengthen | rest_outs(left)
                else:
                    # A second copy of ``card`` keeps its pairs (two equal cards are no pair, R8).
                    found = set(lengthen)
                    for a, b, cards in pairs:
                        if spare[card] > 1 or card not in (a, b):
                            found.update(cards)
            else:
                rest = _without(hand, [card])
                fewer = self._best(rest, seat.rules)
                left = _without(rest, (c for meld in fewer for c in meld.cards))
                found = out_cards(fewer, left)
            score = _OUT_WEIGHT * sum(live(out) for out in found) * hope - hand_points(left) * weight
            return score - self._feeds(card, seat, memory)

        loose = sorted({card for card in allowed if melded[card] < held[card]} or set(allowed))
        return max(loose, key=lambda card: (value(card), self.rng.random()))

    def _end_in_sight(self, seat: _Seat) -> bool:
        """Whether the round may end any turn: an opened seat holds few cards, or the stock runs low
        (R18); then a joker held back risks its 20 points in the hand (R20)."""
        return self._threatened(seat) or seat.last_stock or seat.stock_count <= _LOW_STOCK

    @staticmethod
    def _threatened(seat: _Seat) -> bool:
        """Whether another seat that has opened holds so few cards that it may go out any turn: then
        the points left in the hand count against the seat (R20)."""
        return any(
            other != seat.seat and opened and count <= _THREAT
            for other, (opened, count) in enumerate(zip(seat.opened_seats, seat.hand_counts, strict=False))
        )

    @staticmethod
    def _known_elsewhere(seat: _Seat, memory: Memory) -> Counter[Card]:
        """Cards another seat took from the pile and neither discarded nor put on the table since."""
        known: Counter[Card] = Counter()
        for other, cards in memory.taken.items():
            if other != seat.seat:
                known.update(cards)
        if not known:
            return known
        for other, cards in memory.discarded.items():
            if other != seat.seat:
                known.subtract(cards)
        for tm in seat.table:
            known.subtract(tm.meld.cards)
        return +known

    def _recall(self, seat: _Seat) -> Memory:
        """The memory of the view's public history (a dict view's entries are read here)."""
        events = [
            event if isinstance(event, PublicEvent) else PublicEvent.from_dict(event)
            for event in seat.history
        ]
        return recall(events, seat.table)

    def _feeds(self, card: Card, seat: _Seat, memory: Memory) -> float:
        """How much discarding ``card`` would help the next seat, from what it took from the pile and
        what it let go: a card it collects (a set's rank, a run's neighbour) or can lay off."""
        n_seats = len(seat.hand_counts) or 2
        after = (seat.seat + 1) % n_seats
        risk = 0.0
        for got in memory.of(memory.taken, after):
            if got.is_joker:
                continue
            if got.rank == card.rank and got.suit != card.suit:
                risk += 25
            elif got.suit == card.suit and _rank_gap(got.rank, card.rank) <= 2:
                risk += 20
        for gone in (*memory.of(memory.discarded, after), *memory.of(memory.passed, after)):
            if gone == card:
                risk -= 15
            elif gone.rank == card.rank:
                risk -= 6
        opened = after < len(seat.opened_seats) and seat.opened_seats[after]
        if opened and any(self._fits(tm, card) for tm in seat.table):
            risk += 20
        return risk

    @staticmethod
    def _live_partner_value(card: Card, hand: list[Card], dead: Counter[Card]) -> float:
        """:meth:`_partner_value`, counting only the cards that could still come (not dead, R1: two
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

    @staticmethod
    def _partner_value(card: Card, hand: list[Card]) -> float:
        """How much ``card`` is worth keeping for a set or run it could grow into."""
        set_suits = {other.suit for other in hand if other.rank == card.rank and other.suit != card.suit}
        run_ranks = {other.rank for other in hand if other.suit == card.suit and other.rank != card.rank}
        gaps = [_rank_gap(card.rank, rank) for rank in run_ranks]
        return 30.0 * len(set_suits) + sum(30 if gap == 1 else 15 for gap in gaps if gap <= 2)

    def _deadwood(self, hand: list[Card], rules: RuleSet) -> int:
        """Hand points left after the best melds of ``hand`` (R2's hand column)."""
        melded = [card for meld in self._best(hand, rules) for card in meld.cards]
        return hand_points(hand) - hand_points(melded)

    def _best(self, hand: Iterable[Card], rules: RuleSet) -> tuple[Meld, ...]:
        cards = tuple(sorted(hand, key=_CARD_ORDER))
        return self._best_melds.get((cards, rules), lambda: tuple(best_melds(cards, rules)))

    def _table_meld(self, entry: Mapping[str, Any]) -> tuple[TableMeld, _MeldFacts]:
        """The table meld of a view entry, with what is known of the cards that fit it."""
        kind, cards, stands_for = entry["kind"], tuple(entry["cards"]), tuple(entry["stands_for"])
        placed_by = tuple(entry["placed_by"])

        def build() -> tuple[TableMeld, _MeldFacts]:
            facts = _MELD_FACTS.get(
                (kind, cards, stands_for),
                lambda: _MeldFacts(Meld.from_dict({"kind": kind, "cards": cards, "stands_for": stands_for})),
            )
            return TableMeld(entry["id"], entry["owner"], facts.meld, placed_by), facts

        key = (entry["id"], entry["owner"], kind, cards, stands_for, entry["points"], placed_by)
        return self._table.get(key, build)

    # The table's own checks (TableMeld.extended / swapped) run too, so the player refuses exactly
    # what Round.lay_off and Round.swap_joker refuse; they raise ValueError, IllegalMove is one.
    def _fits(self, tm: TableMeld, card: Card) -> bool:
        """Whether ``card`` can be laid off on ``tm`` (R15)."""
        return _learnt(
            self._facts_now[tm.id].fits, card, lambda: tm.extended(tm.meld.extend([card]), tm.owner)
        )

    def _replaces(self, tm: TableMeld, card: Card) -> bool:
        """Whether ``card`` can take the place of a joker of ``tm`` (R16)."""
        return _learnt(
            self._facts_now[tm.id].replaces, card, lambda: tm.swapped(tm.meld.swap_joker(card), tm.owner)
        )

    @staticmethod
    def _meld_or_none(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
        try:
            return make_meld(list(cards), rules)
        except IllegalMove:
            return None

    def _is_meld(self, cards: Sequence[Card], rules: RuleSet) -> bool:
        return self._meld_or_none(cards, rules) is not None


class RandomPlayer:
    """The baseline opponent: draws from the stock or the discard at random, discards a random legal
    card (never the card it just took, R12), and never melds.

    >>> from bot.engine.round import Round
    >>> rnd = Round.deal(2, rng=random.Random(7))
    >>> RandomPlayer(random.Random(1)).next_move(rnd.seat_view(rnd.to_play)).kind
    'draw'
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def next_move(self, view: RoundView | Mapping[str, Any]) -> Move:
        """A random draw in the draw phase, else a random legal discard; ``view`` as for
        :meth:`ComputerPlayer.next_move`."""
        if isinstance(view, RoundView):
            phase, has_top = view.phase, view.discard_top is not None
        else:
            phase, has_top = Phase(view["phase"]), bool(view.get("discard_top"))
        if phase == Phase.DRAW:
            sources = [DrawSource.STOCK, DrawSource.DISCARD] if has_top else [DrawSource.STOCK]
            return Move.draw(self.rng.choice(sources))
        if isinstance(view, RoundView):
            hand, taken = list(view.hand), view.taken_from_discard
        else:
            hand = parse_cards(view["hand"])
            code = view.get("taken_from_discard")
            taken = Card.parse(code) if code else None
        allowed = [card for card in hand if card != taken] or hand
        return Move.discard(self.rng.choice(sorted(allowed)))
