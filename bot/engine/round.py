"""One round of Rommé: the deal, the turns, going out, and the score (R5, R11-R22).

Every move checks every rule before it changes anything: a refused move raises
:class:`~bot.engine.errors.IllegalMove` and leaves the round exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from bot.engine import snapshot, views
from bot.engine.cards import JOKER, Card, parse_cards, shuffled_deck
from bot.engine.errors import IllegalMove
from bot.engine.history import EventKind, PublicEvent
from bot.engine.meld import End, Meld, make_meld
from bot.engine.moves import DrawSource, Move, MoveKind, Phase
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult, score_round
from bot.engine.table import TableMeld

HAND_SIZE = 13
MAX_RESHUFFLES = 3
MIN_SEATS = 2
"""At least two seats at a table (R3): the one definition the lobby and the service read too."""
MAX_SEATS = 6
"""At most six seats at a table (R3)."""

_BOTH_PILES = (DrawSource.STOCK, DrawSource.DISCARD)
_STOCK_ONLY = (DrawSource.STOCK,)
_DRAW_ONLY: frozenset[MoveKind] = frozenset({"draw"})
_NO_KINDS: frozenset[MoveKind] = frozenset()
_ACTION_NAMES = {
    _BOTH_PILES: frozenset({"draw_stock", "draw_discard"}),
    _STOCK_ONLY: frozenset({"draw_stock"}),
}


def _without(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card] | None:
    """``hand`` minus the multiset ``cards``, in hand order; ``None`` if ``hand`` lacks one of them."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return rest


def _check_seats(n_seats: int) -> None:
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        raise IllegalMove(
            "seats.count", "R3", f"a round needs {MIN_SEATS} to {MAX_SEATS} seats, not {n_seats}"
        )


class Round:
    """The state of one round, changed only by moves of the seat on turn.

    Build one with :meth:`deal`, :meth:`from_position` or :meth:`from_dict`.

    >>> rnd = Round.deal(2, rng=random.Random(1))
    >>> rnd.to_play, str(rnd.phase), len(rnd.hand(0)), rnd.stock_count, rnd.discard_count
    (1, 'draw', 13, 81, 1)
    >>> rnd.discard(0, rnd.hand(0)[0])
    Traceback (most recent call last):
    ...
    bot.engine.errors.IllegalMove: seat 0 cannot play: it is seat 1's turn
    """

    def __init__(
        self,
        *,
        rules: RuleSet,
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        discard: Sequence[Card],
        dealer: int,
        to_play: int,
        rng: random.Random,
    ) -> None:
        """A round in its draw phase; prefer the named constructors."""
        _check_seats(len(hands))
        if not (0 <= dealer < len(hands) and 0 <= to_play < len(hands)):
            raise ValueError(f"dealer {dealer} and seat on turn {to_play} must be seats of the round")
        self.rules = rules
        self.n_seats = len(hands)
        self.dealer = dealer
        self.to_play = to_play
        self.phase = Phase.DRAW
        self._rng = rng
        self._hands = [list(hand) for hand in hands]
        self._pending: list[list[Meld]] = [[] for _ in hands]
        self._table: list[TableMeld] = []
        self._stock = list(stock)  # the top card is the first
        self._discard = list(discard)  # the top card is the last
        self._opened = [False] * self.n_seats
        self._opened_turn: list[int | None] = [None] * self.n_seats
        self.reshuffles = 0
        self.taken_from_discard: Card | None = None
        self.turn_no = 1
        self.move_no = 0
        # Proposals and take-backs of each seat: the other seats must not learn of them (R13), so
        # the move number they see leaves them out.
        self._hidden_moves = [0] * self.n_seats
        self._next_id = 1
        self.out: int | None = None
        self._hand_romme = False
        # What every seat saw, in order (R19): never a hand card, a proposal or the stock.
        self._history: list[PublicEvent] = []

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        n_seats: int,
        *,
        rules: RuleSet | None = None,
        dealer: int = 0,
        rng: random.Random | None = None,
    ) -> Round:
        """Shuffle and deal 13 cards to each seat, one at a time from the seat after the dealer; the
        next card starts the discard pile, the rest is the stock (R5); the seat after the dealer plays (R4).

        ``rng`` ``None`` shuffles with ``random.SystemRandom()`` (R19).
        """
        _check_seats(n_seats)
        rules = rules or RuleSet()
        rng = rng if rng is not None else random.SystemRandom()
        deck = shuffled_deck(rules.jokers, rng)
        hands: list[list[Card]] = [[] for _ in range(n_seats)]
        for i in range(HAND_SIZE * n_seats):
            hands[(dealer + 1 + i) % n_seats].append(deck[i])
        dealt = HAND_SIZE * n_seats
        rnd = cls(
            rules=rules,
            hands=hands,
            stock=deck[dealt + 1 :],
            discard=[deck[dealt]],
            dealer=dealer,
            to_play=(dealer + 1) % n_seats,
            rng=rng,
        )
        rnd._note(dealer, "upcard", (deck[dealt],))
        return rnd

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[Card | str] | str],
        stock: Sequence[Card | str] | str,
        discard: Sequence[Card | str] | str,
        *,
        rules: RuleSet | None = None,
        to_play: int = 0,
        dealer: int | None = None,
        table: Sequence[tuple[int, Meld | Sequence[Card | str] | str]] = (),
        opened: Sequence[bool] | None = None,
        rng: random.Random | None = None,
    ) -> Round:
        """A round at a chosen position, in the draw phase of ``to_play`` (for tests and puzzles).

        Cards may be given as codes (``"5H 6H"``). ``stock[0]`` is drawn first; ``discard[-1]`` is the
        top of the discard pile. ``table`` holds ``(owner, meld)`` pairs put down by their owners;
        ``opened`` defaults to "owns a table meld". ``dealer`` defaults to the seat before ``to_play``.

        >>> rnd = Round.from_position(["5H 6H 7H 9C", "KS KD KC 2D"], "8H", "3C", table=[(1, "4S 5S 6S")])
        >>> [tm.id for tm in rnd.table], rnd.opened(0), rnd.opened(1)
        (['m1'], False, True)
        """

        def cards_of(value: Sequence[Card | str] | str) -> list[Card]:
            # "5H 6H", ["5H", "6H"] and [Card, …] all mean the same cards.
            if isinstance(value, str):
                return parse_cards(value)
            return [Card.parse(card) if isinstance(card, str) else card for card in value]

        rules = rules or RuleSet()
        n_seats = len(hands)
        rnd = cls(
            rules=rules,
            hands=[cards_of(hand) for hand in hands],
            stock=cards_of(stock),
            discard=cards_of(discard),
            dealer=(to_play - 1) % n_seats if dealer is None else dealer,
            to_play=to_play,
            rng=rng if rng is not None else random.SystemRandom(),
        )
        for owner, meld in table:
            if not isinstance(meld, Meld):
                meld = make_meld(cards_of(meld), rules)
            rnd._put_on_table(owner, meld)
        rnd._opened = (
            list(opened) if opened is not None else [s in {o for o, _ in table} for s in range(n_seats)]
        )
        return rnd

    # -- state ----------------------------------------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """A copy of the hand of ``seat``, without its proposed (pending) melds."""
        return list(self._hands[seat])

    def pending(self, seat: int) -> list[Meld]:
        """The melds ``seat`` proposed for its opening this turn, not yet on the table (R13)."""
        return list(self._pending[seat])

    def pending_points(self, seat: int) -> int:
        """The points of the pending melds of ``seat`` (R13)."""
        return sum(meld.points for meld in self._pending[seat])

    def hand_count(self, seat: int) -> int:
        """How many cards ``seat`` holds, pending cards included (R13: they count as hand)."""
        return len(self._hands[seat]) + sum(len(meld.cards) for meld in self._pending[seat])

    @property
    def table(self) -> list[TableMeld]:
        """The melds on the table, in the order laid."""
        return list(self._table)

    def table_meld(self, meld_id: str) -> TableMeld:
        """The table meld of ``meld_id``; IllegalMove ``table.no_such_meld`` if there is none."""
        for tm in self._table:
            if tm.id == meld_id:
                return tm
        raise IllegalMove("table.no_such_meld", "R15", f"no meld {meld_id!r} on the table")

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return len(self._stock)

    @property
    def discard_top(self) -> Card | None:
        """The visible top card of the discard pile (R5), if any."""
        return self._discard[-1] if self._discard else None

    @property
    def discard_count(self) -> int:
        """Cards in the discard pile."""
        return len(self._discard)

    def opened(self, seat: int) -> bool:
        """Whether ``seat`` has its opening melds on the table (R13, R14)."""
        return self._opened[seat]

    @property
    def over(self) -> bool:
        """Whether the round has ended (R17, R18)."""
        return self.phase == Phase.OVER

    @property
    def history(self) -> list[PublicEvent]:
        """What the seats did that every seat saw, in order (:mod:`bot.engine.history`, R19).

        >>> rnd = Round.deal(2, rng=random.Random(1))
        >>> _ = rnd.draw(1, "stock")
        >>> [event.kind for event in rnd.history]
        ['upcard', 'draw_stock']
        """
        return list(self._history)

    def _note(
        self,
        seat: int,
        kind: EventKind,
        cards: Sequence[Card] = (),
        meld: str | None = None,
        card: Card | None = None,
    ) -> None:
        self._history.append(PublicEvent(self.turn_no, seat, kind, tuple(cards), meld, card))

    # -- moves ----------------------------------------------------------------------------------

    def _check_turn(self, seat: int, phase: Phase) -> None:
        if self.phase == Phase.OVER:
            raise IllegalMove("round.over", "R17", "the round is over")
        if not (isinstance(seat, int) and 0 <= seat < self.n_seats):
            raise IllegalMove("seat.unknown", "R3", f"there is no seat {seat!r}")
        if seat != self.to_play:
            raise IllegalMove(
                "turn.not_your_turn", "R11", f"seat {seat} cannot play: it is seat {self.to_play}'s turn"
            )
        if phase == Phase.DRAW and self.phase == Phase.PLAY:
            raise IllegalMove("turn.already_drawn", "R11", "the card of this turn is already drawn")
        if phase == Phase.PLAY and self.phase == Phase.DRAW:
            raise IllegalMove("turn.must_draw", "R11", "draw a card first")

    def _check_opened(self, seat: int) -> None:
        if not self._opened[seat]:
            raise IllegalMove("opening.not_opened", "R14", "lay-offs and joker swaps come after the opening")

    def _take_from_hand(self, seat: int, cards: Iterable[Card]) -> list[Card]:
        rest = _without(self._hands[seat], cards)
        if rest is None:
            raise IllegalMove("card.not_in_hand", "R11", "those cards are not all in the hand")
        return rest

    def _check_keeps_card(self, rest: Sequence[Card]) -> None:
        """R17's house rule: with ``discard_to_go_out`` only a discard may empty the hand."""
        if not rest and self.rules.discard_to_go_out:
            raise IllegalMove("discard.must_keep_last", "R17", "keep a card: the last card must be discarded")

    def _put_on_table(self, seat: int, meld: Meld) -> TableMeld:
        tm = TableMeld(f"m{self._next_id}", seat, meld, (seat,) * len(meld.cards))
        self._next_id += 1
        self._table.append(tm)
        return tm

    def _end(self, out: int | None) -> None:
        self.phase = Phase.OVER
        self.out = out
        self._hand_romme = bool(
            self.rules.hand_romme and out is not None and self._opened_turn[out] == self.turn_no
        )

    def draw(self, seat: int, source: DrawSource | str) -> Card | None:
        """Draw the top of the ``"stock"`` or the ``"discard"`` pile (R11) and return it.

        An empty stock is first made anew from the discard pile but its top card (R18); when that
        would leave no card or be the fourth reshuffle, the round ends with no seat out and this
        returns ``None``.
        """
        self._check_turn(seat, Phase.DRAW)
        if source == DrawSource.DISCARD:
            if not self._discard:
                raise IllegalMove("draw.discard_empty", "R11", "the discard pile is empty")
            card = self._discard.pop()
            self.taken_from_discard = card
            self._note(seat, "take", (card,))
        elif source == DrawSource.STOCK:
            if not self._stock:
                if self.reshuffles >= MAX_RESHUFFLES or len(self._discard) <= 1:
                    self.move_no += 1
                    self._end(None)
                    return None
                fresh = self._discard[:-1]
                self._rng.shuffle(fresh)
                self._stock, self._discard = fresh, self._discard[-1:]
                self.reshuffles += 1
                self._note(seat, "reshuffle")
            card = self._stock.pop(0)
            self._note(seat, "draw_stock")
        else:
            raise IllegalMove("draw.no_such_pile", "R11", f"draw from 'stock' or 'discard', not {source!r}")
        self._hands[seat].append(card)
        self.phase = Phase.PLAY
        self.move_no += 1
        return card

    def meld(self, seat: int, cards: Iterable[Card]) -> Meld:
        """Lay a new meld from the hand (R7-R9). Before the opening it is only proposed (R13): the
        proposed melds go to the table together once their points reach ``rules.opening``.
        """
        self._check_turn(seat, Phase.PLAY)
        cards = list(cards)
        rest = self._take_from_hand(seat, cards)
        meld = make_meld(cards, self.rules)
        if self._opened[seat]:
            to_table = [meld]
        else:
            proposed = [*self._pending[seat], meld]
            if sum(m.points for m in proposed) >= self.rules.opening:
                to_table = proposed
            elif all(card == self.taken_from_discard for card in rest):
                # Below the opening nothing could end the turn but a take-back: no card left to
                # discard, or only the card taken from the discard pile (R12).
                raise IllegalMove(
                    "opening.no_card_left", "R13", "this would leave no card to discard below the opening"
                )
            else:
                to_table = []
        if to_table:
            self._check_keeps_card(rest)
        self._hands[seat] = rest
        self.move_no += 1
        if not to_table:
            self._pending[seat].append(meld)
            self._hidden_moves[seat] += 1
            return meld
        if not self._opened[seat]:
            self._opened[seat] = True
            self._opened_turn[seat] = self.turn_no
            self._pending[seat] = []
        for m in to_table:
            self._note(seat, "meld", m.cards, self._put_on_table(seat, m).id)
        if not rest:
            self._end(seat)
        return meld

    def take_back(self, seat: int) -> None:
        """Take every proposed opening meld back into the hand (R13)."""
        self._check_turn(seat, Phase.PLAY)
        if not self._pending[seat]:
            raise IllegalMove("take_back.nothing_pending", "R13", "no proposed meld to take back")
        self._return_pending(seat)
        self.move_no += 1
        self._hidden_moves[seat] += 1

    def _return_pending(self, seat: int) -> None:
        for meld in self._pending[seat]:
            self._hands[seat].extend(meld.cards)
        self._pending[seat] = []

    def lay_off(
        self, seat: int, cards: Iterable[Card], meld_id: str, end: End | str | None = None
    ) -> TableMeld:
        """Add hand cards to any meld on the table (R14, R15); ``end`` places a joker on a run (R10)."""
        self._check_turn(seat, Phase.PLAY)
        self._check_opened(seat)
        cards = list(cards)
        if not cards:
            raise IllegalMove("lay_off.no_cards", "R15", "lay off at least one card")
        old = self.table_meld(meld_id)
        rest = self._take_from_hand(seat, cards)
        new = old.extended(old.meld.extend(cards, end=end), seat)
        self._check_keeps_card(rest)
        self._hands[seat] = rest
        self._table[self._table.index(old)] = new
        self._note(seat, "lay_off", cards, meld_id)
        self.move_no += 1
        if not rest:
            self._end(seat)
        return new

    def swap_joker(self, seat: int, card: Card, meld_id: str, new_meld_cards: Iterable[Card]) -> Meld:
        """Put ``card`` in the place of a joker of a table meld; the joker and ``new_meld_cards`` from
        the hand go to the table as a new meld, in the same move (R14, R16). Returns the new meld.
        """
        self._check_turn(seat, Phase.PLAY)
        self._check_opened(seat)
        new_meld_cards = list(new_meld_cards)
        old = self.table_meld(meld_id)
        rest = self._take_from_hand(seat, [card, *new_meld_cards])
        if card.is_joker:
            raise IllegalMove("swap.not_replaceable", "R16", "a joker cannot free a joker")
        swapped, _ = old.swapped(old.meld.swap_joker(card), seat)
        meld = make_meld([*new_meld_cards, JOKER], self.rules)
        self._check_keeps_card(rest)
        self._hands[seat] = rest
        self._table[self._table.index(old)] = swapped
        self._put_on_table(seat, meld)
        self._note(seat, "swap", meld.cards, meld_id, card)
        self.move_no += 1
        if not rest:
            self._end(seat)
        return meld

    def discard(self, seat: int, card: Card) -> None:
        """Discard ``card``, which ends the turn (R11); proposed melds go back into the hand (R13).

        The card taken from the discard pile this turn cannot go back (R12) while the hand holds another
        card to discard; since equal cards cannot be told apart (R1), that bars every card equal to it.
        """
        self._check_turn(seat, Phase.PLAY)
        rest = self._take_from_hand(seat, [card])
        if card == self.taken_from_discard and any(other != card for other in rest):
            raise IllegalMove("discard.taken_card", "R12", "the card taken from the discard pile must stay")
        self._hands[seat] = rest
        self._discard.append(card)
        self._note(seat, "discard", (card,))
        self._return_pending(seat)
        self.move_no += 1
        if not self._hands[seat]:
            self._end(seat)
            return
        self.to_play = (seat + 1) % self.n_seats
        self.phase = Phase.DRAW
        self.taken_from_discard = None
        self.turn_no += 1

    def apply(self, seat: int, move: Move) -> Any:
        """Play ``move`` for ``seat``; returns what the matching method returns."""
        if move.kind == "draw":
            return self.draw(seat, move.source or "")
        if move.kind == "meld":
            return self.meld(seat, move.cards)
        if move.kind == "take_back":
            return self.take_back(seat)
        if move.kind == "lay_off":
            return self.lay_off(seat, move.cards, move.meld_id or "", move.end)
        if move.kind == "swap_joker":
            if move.card is None:
                raise IllegalMove("swap.no_card", "R16", "say which card goes in the joker's place")
            return self.swap_joker(seat, move.card, move.meld_id or "", move.cards)
        if move.card is None:
            raise IllegalMove("discard.no_card", "R11", "say which card to discard")
        return self.discard(seat, move.card)

    # -- what a seat may do, sees, and scores ---------------------------------------------------

    def draw_sources(self, seat: int) -> tuple[DrawSource, ...]:
        """The piles ``seat`` may draw from now (R11): none outside its draw phase, the stock alone
        while the discard pile is empty.

        >>> rnd = Round.deal(3, rng=random.Random(2))
        >>> [str(pile) for pile in rnd.draw_sources(1)], rnd.draw_sources(0)
        (['stock', 'discard'], ())
        """
        if self.phase != Phase.DRAW or seat != self.to_play:
            return ()
        return _BOTH_PILES if self._discard else _STOCK_ONLY

    def move_kinds(self, seat: int) -> frozenset[MoveKind]:
        """The kinds of move (``Move.kind``) that can be legal for ``seat`` now: a cheap hint for
        buttons, like python-chess's ``legal_moves`` but by kind; a move of a listed kind may still be
        refused for its cards.

        >>> rnd = Round.deal(3, rng=random.Random(2))
        >>> sorted(rnd.move_kinds(1)), rnd.move_kinds(0)
        (['draw'], frozenset())
        """
        if self.phase == Phase.OVER or seat != self.to_play:
            return _NO_KINDS
        if self.phase == Phase.DRAW:
            return _DRAW_ONLY
        hand = self._hands[seat]
        kinds: set[MoveKind] = set()
        if hand:
            kinds.add("discard")
        if len(hand) >= 3:
            kinds.add("meld")
        if self._pending[seat]:
            kinds.add("take_back")
        if self._opened[seat] and hand and self._table:
            kinds.add("lay_off")
            if len(hand) >= 3 and any(card.is_joker for tm in self._table for card in tm.cards):
                kinds.add("swap_joker")
        return frozenset(kinds)

    def actions(self, seat: int) -> frozenset[str]:
        """:meth:`move_kinds` as the view's ``"actions"`` spell them: a draw is ``draw_stock`` or
        ``draw_discard``, one per pile of :meth:`draw_sources`.

        >>> rnd = Round.deal(3, rng=random.Random(2))
        >>> sorted(rnd.actions(1)), rnd.actions(0)
        (['draw_discard', 'draw_stock'], frozenset())
        """
        if self.phase == Phase.DRAW and seat == self.to_play:
            return _ACTION_NAMES[self.draw_sources(seat)]
        return self.move_kinds(seat)

    def result(self) -> RoundResult:
        """The score of the finished round (R20-R22); IllegalMove ``round.not_over`` before its end."""
        if self.phase != Phase.OVER:
            raise IllegalMove("round.not_over", "R17", "the round is not over")
        holdings = [
            self._hands[s] + [c for m in self._pending[s] for c in m.cards] for s in range(self.n_seats)
        ]
        return score_round(self.rules, self._table, holdings, self.out, self._hand_romme)

    def seat_view(self, seat: int | None) -> views.RoundView:
        """What ``seat`` may see (R19), as a typed value; ``None`` is an onlooker who holds no hand.

        >>> rnd = Round.deal(2, rng=random.Random(1))
        >>> view = rnd.seat_view(1)
        >>> view.phase == "draw", len(view.hand), view.hand_counts, view.draw_sources == rnd.draw_sources(1)
        (True, 13, (13, 13), True)
        """
        return views.round_seat_view(self, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (R19), JSON-ready: ``seat_view(seat).to_dict()``; ``None`` is an
        onlooker who holds no hand."""
        return views.round_seat_view(self, seat).to_dict()

    def to_dict(self) -> dict[str, Any]:
        """The whole state, JSON-ready and versioned, secrets included (for saving, never for showing)."""
        return snapshot.round_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, rng: random.Random | None = None) -> Round:
        """The round of :meth:`to_dict`, exactly; ``rng`` (shared with a match) replaces the saved one."""
        return snapshot.round_from_dict(cls, data, rng)
