"""What reproduces a match's cards: each round's deal and each reshuffle of its stock (R5, R18).

A live game shuffles with ``random.SystemRandom`` (R19), whose state cannot be saved, so the cards
are logged instead of the generator: once a round, the :class:`Deal` (the dealt hands, the upcard
and the stock, in order), and with a draw that made the stock anew, the order of the new stock.
:class:`MatchReplay` plays a match again from them: the same engine code deals and reshuffles, fed
by :class:`LoggedShuffles` with the logged orders instead of a generator, so every step is the step
that was played.

>>> match = Match.new(2, rng=random.Random(4))
>>> deal = Deal.of(match)
>>> again = MatchReplay()
>>> again.deal(deal).round.hand(0) == match.round.hand(0)
True
>>> Deal.from_dict(deal.to_dict()) == deal
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, parse_cards
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import HAND_SIZE, Round
from bot.engine.rules import RuleSet

__all__ = ["Deal", "LogMismatch", "LoggedShuffles", "MatchReplay", "shuffled_stock"]


class LogMismatch(ValueError):
    """The log does not fit the match it is replayed onto (a shuffle of other cards, a deal of
    another round, a shuffle left over): the log is damaged or incomplete."""


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


@dataclass(frozen=True, slots=True)
class Deal:
    """One round's cards as dealt (R5): the hands by round seat, the upcard, the stock top first;
    with the match's part that says which round it is: its number, the dealer and the seats that
    play it (match seats; a tie-break round is played by fewer, R6), the seat count and the rules.

    >>> deal = Deal.of(Match.new(3, rng=random.Random(1)))
    >>> deal.round_no, deal.dealer, deal.seats, [len(hand) for hand in deal.hands], len(deal.stock)
    (1, 0, (0, 1, 2), [13, 13, 13], 68)
    """

    round_no: int
    dealer: int
    seats: tuple[int, ...]
    n_seats: int
    rules: RuleSet
    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]

    @classmethod
    def of(cls, match: Match) -> Deal:
        """The deal of ``match``'s current round; ``ValueError`` once a move of it was played."""
        rnd = match.round
        if rnd.move_no or rnd.discard_count != 1:
            raise ValueError("the round is under way: its deal is gone")
        return cls(
            round_no=match.round_no,
            dealer=match.dealer,
            seats=tuple(match.round_seats),
            n_seats=match.n_seats,
            rules=match.rules,
            hands=tuple(tuple(rnd._hands[seat]) for seat in range(rnd.n_seats)),
            upcard=rnd._discard[-1],
            stock=tuple(rnd._stock),
        )

    def deck(self) -> list[Card]:
        """The shuffled deck that :meth:`Round.deal` deals into these hands, upcard and stock: the
        seat after the dealer takes the first card, one card to each seat in turn (R5).

        >>> match = Match.new(2, rng=random.Random(9))
        >>> deal = Deal.of(match)
        >>> rnd = Round.deal(2, dealer=0, rng=LoggedShuffles([deal.deck()]))
        >>> rnd.hand(1) == match.round.hand(1)
        True
        """
        n = len(self.hands)
        dealer = self.seats.index(self.dealer)
        dealt = [self.hands[(dealer + 1 + i) % n][i // n] for i in range(HAND_SIZE * n)]
        return [*dealt, self.upcard, *self.stock]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and compact: cards as codes separated by spaces (see ``docs/match-format.md``).

        >>> sorted(Deal.of(Match.new(2, rng=random.Random(1))).to_dict())
        ['dealer', 'hands', 'n_seats', 'round', 'rules', 'seats', 'stock', 'upcard']
        """
        return {
            "round": self.round_no,
            "dealer": self.dealer,
            "seats": list(self.seats),
            "n_seats": self.n_seats,
            "rules": self.rules.to_dict(),
            "hands": [_codes(hand) for hand in self.hands],
            "upcard": str(self.upcard),
            "stock": _codes(self.stock),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Deal:
        """The deal of :meth:`to_dict` (extra keys, such as a log row's ``kind``, are ignored)."""
        return cls(
            round_no=int(data["round"]),
            dealer=int(data["dealer"]),
            seats=tuple(int(seat) for seat in data["seats"]),
            n_seats=int(data["n_seats"]),
            rules=RuleSet.from_dict(data["rules"]),
            hands=tuple(tuple(parse_cards(hand)) for hand in data["hands"]),
            upcard=Card.parse(data["upcard"]),
            stock=tuple(parse_cards(data["stock"])),
        )


def shuffled_stock(rnd: Round, round_seat: int) -> list[Card]:
    """The stock as a draw of round seat ``round_seat`` made it anew (R18), read just after that draw:
    the card it drew (the last of its hand), then the stock left.

    >>> rnd = Round.from_position(["5H", "6H"], "", "7C 8C 9C", to_play=0, rng=random.Random(2))
    >>> _ = rnd.draw(0, "stock")
    >>> sorted(map(str, shuffled_stock(rnd, 0)))
    ['7C', '8C']
    """
    return [rnd._hands[round_seat][-1], *rnd._stock]


class LoggedShuffles(random.Random):
    """A random source whose shuffles put the cards in logged orders, one order per shuffle, in turn;
    a shuffle of other cards than its order holds, or with no order left, raises
    :class:`LogMismatch`.

    >>> rng = LoggedShuffles([[Card.parse("7H"), Card.parse("2C")]])
    >>> cards = [Card.parse("2C"), Card.parse("7H")]
    >>> rng.shuffle(cards); [str(card) for card in cards], rng.pending
    (['7H', '2C'], 0)
    """

    def __init__(self, orders: Sequence[Sequence[Card]] = ()) -> None:
        super().__init__(0)
        self._orders = [list(order) for order in orders]

    @property
    def pending(self) -> int:
        """Orders given and not yet used."""
        return len(self._orders)

    def give(self, order: Sequence[Card]) -> None:
        """Queue ``order`` for the next shuffle."""
        self._orders.append(list(order))

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Put ``x`` in the next logged order."""
        if not self._orders:
            raise LogMismatch("a shuffle the log does not hold")
        order = self._orders.pop(0)
        if Counter(order) != Counter(x):
            raise LogMismatch("the logged order holds other cards than the ones shuffled")
        x[:] = order


class MatchReplay:
    """A match played again from its log: :meth:`deal` at each logged deal, :meth:`play` at each
    logged move (with the stock a reshuffle made, if it made one). The engine deals and plays as
    it did, so ``match`` is, after each step, the match as it was after that step.

    >>> played = Match.new(2, rng=random.Random(5))
    >>> replay = MatchReplay()
    >>> _ = replay.deal(Deal.of(played))
    >>> move = Move.draw("stock")
    >>> _ = played.play(1, move); _ = replay.play(1, move)
    >>> replay.match.to_dict()["round"] == played.to_dict()["round"]
    True
    """

    def __init__(self) -> None:
        self._rng = LoggedShuffles()
        self._match: Match | None = None

    @classmethod
    def resume(cls, data: dict[str, Any]) -> MatchReplay:
        """A replay going on from a match saved along the way (``Match.to_dict()`` of :attr:`match`):
        its next deals and reshuffles come from the log, as before.

        >>> played = Match.new(2, rng=random.Random(5))
        >>> replay = MatchReplay()
        >>> _ = replay.deal(Deal.of(played))
        >>> again = MatchReplay.resume(replay.match.to_dict())
        >>> again.match.round.hand(0) == played.round.hand(0)
        True
        """
        replay = cls()
        match = Match.from_dict(data)
        # The saved match carries no generator (a LoggedShuffles has no state to save): the new
        # replay's takes its place, in the match and in its round, which share it.
        match._rng = match.round._rng = replay._rng
        replay._match = match
        return replay

    @property
    def match(self) -> Match:
        """The match as the steps so far left it; ``LogMismatch`` before the first deal."""
        if self._match is None:
            raise LogMismatch("the log begins without a deal")
        return self._match

    @property
    def started(self) -> bool:
        """Whether the first deal was replayed."""
        return self._match is not None

    def deal(self, deal: Deal) -> Match:
        """Deal ``deal``'s round: the match's first one, or its next (the one before must be over)."""
        self._rng.give(deal.deck())
        if self._match is None:
            self._match = Match.new(deal.n_seats, rules=deal.rules, rng=self._rng, dealer=deal.dealer)
        else:
            self._match.next_round()
        match = self._match
        self._check_used()
        if (match.round_no, match.dealer, tuple(match.round_seats)) != (
            deal.round_no,
            deal.dealer,
            deal.seats,
        ):
            raise LogMismatch(
                f"the log deals round {deal.round_no} by seat {deal.dealer}, "
                f"the match round {match.round_no} by seat {match.dealer}"
            )
        return match

    def play(self, seat: int, move: Move, shuffled: Sequence[Card] | None = None) -> Any:
        """Play ``move`` for match seat ``seat``; ``shuffled``: the stock the move made anew (R18)."""
        if shuffled is not None:
            self._rng.give(shuffled)
        result = self.match.play(seat, move)
        self._check_used()
        return result

    def _check_used(self) -> None:
        if self._rng.pending:
            self._rng = LoggedShuffles()
            raise LogMismatch("the log holds a shuffle the match did not make")
