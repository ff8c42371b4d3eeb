"""A match: one round per seat with the deal moving on, totals, and tie-break rounds (R4, R6)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.engine.round import MAX_SEATS, MIN_SEATS, Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.engine.snapshot import (
    SNAPSHOT_VERSION,
    check_version,
    rng_from_state,
    rng_state,
    round_to_dict,
)
from bot.engine.views import MatchView


def _to_match_seats(result: RoundResult, round_seats: Sequence[int], n_seats: int) -> RoundResult:
    """``result`` with round seats mapped to match seats, 0 for the seats that sat out (R6)."""

    def spread(values: Sequence[int]) -> tuple[int, ...]:
        out = [0] * n_seats
        for round_seat, value in enumerate(values):
            out[round_seats[round_seat]] = value
        return tuple(out)

    return RoundResult(
        out=None if result.out is None else round_seats[result.out],
        melded=spread(result.melded),
        in_hand=spread(result.in_hand),
        scores=spread(result.scores),
        hand_romme=result.hand_romme,
    )


def _totals(history: Sequence[RoundResult], n_seats: int) -> list[int]:
    """Each match seat's total over ``history``."""
    totals = [0] * n_seats
    for result in history:
        for seat, score in enumerate(result.scores):
            totals[seat] += score
    return totals


def players_by_round(
    history: Sequence[RoundResult], rounds_planned: int, n_seats: int
) -> list[tuple[int, ...]]:
    """The seats that played each round of ``history``: every seat in the ``rounds_planned``
    rounds; in a tie-break round only the seats of the round before sharing its highest total (R6).

    >>> def ended(*scores):
    ...     return RoundResult(out=0, melded=scores, in_hand=(0, 0, 0), scores=scores, hand_romme=False)
    >>> players_by_round([ended(10, 10, 5), ended(-5, -5, 0), ended(3, 0, 0)], 1, 3)
    [(0, 1, 2), (0, 1), (0, 1)]
    """
    everyone = tuple(range(n_seats))
    players: list[tuple[int, ...]] = []
    totals = [0] * n_seats
    before = everyone
    for number, result in enumerate(history, start=1):
        if number > rounds_planned:
            best = max(totals[seat] for seat in before)
            before = tuple(seat for seat in before if totals[seat] == best)
        players.append(before)
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
    return players


class Match:
    """Rounds of one table until a single highest total (R4, R6). Seats are ``0 .. n_seats - 1``; round
    seat ``i`` of the current round is match seat ``round_seats[i]``.

    >>> match = Match.new(3, rng=random.Random(5))
    >>> match.round_no, match.rounds_planned, match.dealer, match.round.to_play, match.round_seats
    (1, 3, 0, 1, [0, 1, 2])
    """

    def __init__(
        self,
        *,
        n_seats: int,
        rules: RuleSet,
        rng: random.Random,
        dealer: int,
        round_no: int,
        round_seats: Sequence[int],
        finished: Sequence[RoundResult],
        current: Round,
    ) -> None:
        """A match in progress; prefer :meth:`new` and :meth:`from_dict`."""
        self.n_seats = n_seats
        self.rules = rules
        self.dealer = dealer
        self.round_no = round_no
        self.round_seats = list(round_seats)
        self.round = current
        self._rng = rng
        self._finished = list(finished)

    @classmethod
    def new(
        cls,
        n_seats: int,
        *,
        rules: RuleSet | None = None,
        rng: random.Random | None = None,
        dealer: int = 0,
    ) -> Match:
        """A match with its first round dealt by ``dealer`` (R4, R5); ``rng`` ``None`` is secure (R19)."""
        if not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise IllegalMove(
                "seats.count", "R3", f"a match needs {MIN_SEATS} to {MAX_SEATS} seats, not {n_seats}"
            )
        rules = rules or RuleSet()
        rng = rng if rng is not None else random.SystemRandom()
        seats = list(range(n_seats))
        first = Round.deal(n_seats, rules=rules, dealer=dealer, rng=rng)
        return cls(
            n_seats=n_seats,
            rules=rules,
            rng=rng,
            dealer=dealer,
            round_no=1,
            round_seats=seats,
            finished=[],
            current=first,
        )

    @property
    def rounds_planned(self) -> int:
        """Rounds before any tie-break: ``rules.rounds``, or one per seat (R4)."""
        return self.rules.rounds or self.n_seats

    @property
    def tiebreak(self) -> bool:
        """Whether the current round is a tie-break round among the leading seats (R6)."""
        return self.round_no > self.rounds_planned

    @property
    def history(self) -> list[RoundResult]:
        """The result of every finished round, current one included, by match seat (0 for seats
        that sat out)."""
        results = list(self._finished)
        if self.round.over:
            results.append(_to_match_seats(self.round.result(), self.round_seats, self.n_seats))
        return results

    @property
    def totals(self) -> list[int]:
        """Each match seat's total over the finished rounds."""
        return _totals(self.history, self.n_seats)

    def players_by_round(self) -> list[tuple[int, ...]]:
        """The match seats that played each finished round (:attr:`history`): every seat in the
        planned rounds; in a tie-break round only the seats of the round before sharing its highest
        total (R6), as :meth:`next_round` deals them.

        >>> Match.new(3, rng=random.Random(5)).players_by_round()  # no round finished yet
        []
        """
        return players_by_round(self.history, self.rounds_planned, self.n_seats)

    def _leaders(self) -> list[int]:
        # In a tie-break only the tied seats are still in the race: a seat that sat out cannot win
        # because the tied seats lost points (R6). Before that, round_seats holds every seat.
        totals = self.totals
        best = max(totals[seat] for seat in self.round_seats)
        return [seat for seat in self.round_seats if totals[seat] == best]

    @property
    def over(self) -> bool:
        """Whether the planned rounds are played and one total is higher than those of the other seats
        still in the race (R6: after a tie, only the tied seats)."""
        return self.round.over and self.round_no >= self.rounds_planned and len(self._leaders()) == 1

    @property
    def winner(self) -> int | None:
        """The match seat with the highest total once the match is over (R6)."""
        return self._leaders()[0] if self.over else None

    def round_seat(self, seat: int) -> int:
        """The seat in the current round of match seat ``seat``; IllegalMove if it sits out (R6)."""
        if seat not in self.round_seats:
            raise IllegalMove("turn.sitting_out", "R6", f"seat {seat} does not play this tie-break round")
        return self.round_seats.index(seat)

    def play(self, seat: int, move: Move) -> Any:
        """Play ``move`` for match seat ``seat`` in the current round."""
        return self.round.apply(self.round_seat(seat), move)

    def seat_view(self, seat: int | None) -> MatchView:
        """What match seat ``seat`` may see (R19): the current round's view (an onlooker's when the
        seat sits out or is ``None``; its seats are round seats, see ``round_seats``) and the match's
        public part.

        >>> match = Match.new(3, rng=random.Random(5))
        >>> view = match.seat_view(2)
        >>> view.round.seat, view.round_no, view.totals, view.winner
        (2, 1, (0, 0, 0), None)
        """
        inside = seat is not None and seat in self.round_seats
        history, winner = self.history, self.winner
        return MatchView(
            round=self.round.seat_view(self.round_seats.index(seat) if seat is not None and inside else None),
            seat=seat,
            n_seats=self.n_seats,
            round_no=self.round_no,
            rounds_planned=self.rounds_planned,
            round_seats=tuple(self.round_seats),
            dealer=self.dealer,
            tiebreak=self.tiebreak,
            totals=tuple(_totals(history, self.n_seats)),
            history=tuple(history),
            over=winner is not None,
            winner=winner,
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """The round view of match seat ``seat`` (an onlooker's when it sits out or is ``None``), with a
        ``"match"`` part, JSON-ready: ``seat_view(seat).to_dict()``; seats inside the round part are
        round seats (see ``round_seats``)."""
        return self.seat_view(seat).to_dict()

    def next_round(self) -> Round:
        """Deal the next round: the deal moves one seat (R4); after the planned rounds only the seats
        sharing the highest total play (R6)."""
        if not self.round.over:
            raise IllegalMove("round.not_over", "R4", "the current round is not over")
        if self.over:
            raise IllegalMove("match.over", "R6", "the match is over")
        finished = self.history
        seats = self._leaders() if self.round_no >= self.rounds_planned else list(range(self.n_seats))
        # The deal moves on to the next seat that plays (in a tie-break, the next tied seat).
        after_dealer = [(self.dealer + k) % self.n_seats for k in range(1, self.n_seats + 1)]
        dealer = next(seat for seat in after_dealer if seat in seats)
        current = Round.deal(len(seats), rules=self.rules, dealer=seats.index(dealer), rng=self._rng)
        self._finished = finished
        self.round_no += 1
        self.round_seats = seats
        self.dealer = dealer
        self.round = current
        return current

    def to_dict(self) -> dict[str, Any]:
        """The whole match, JSON-ready and versioned (secrets included: for saving only). The generator
        is saved once, here: the round shares it, so its part holds none."""
        return {
            "version": SNAPSHOT_VERSION,
            "n_seats": self.n_seats,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "round_no": self.round_no,
            "round_seats": list(self.round_seats),
            "finished": [result.to_dict() for result in self._finished],
            "round": round_to_dict(self.round, with_rng=False),
            "rng": rng_state(self._rng),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        """The match of :meth:`to_dict`, exactly; the rounds still to come share its generator. Reads
        version 1 too, whose round held a second copy of the generator (not read: it was the same)."""
        check_version(data, "match")
        rng = rng_from_state(data["rng"])
        return cls(
            n_seats=data["n_seats"],
            rules=RuleSet.from_dict(data["rules"]),
            rng=rng,
            dealer=data["dealer"],
            round_no=data["round_no"],
            round_seats=data["round_seats"],
            finished=[RoundResult.from_dict(result) for result in data["finished"]],
            current=Round.from_dict(data["round"], rng=rng),
        )
