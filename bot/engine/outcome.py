"""What happened in a match, decided once: each seat's place, whether it won, what it scored (R6).

:func:`outcome` is the one rule. The statistics, ``/romme score``, the profile, the history, the
match-end message and the ratings all read its :class:`Outcome`; nothing else decides a place or a
win. Its places:

1. A seat whose person left before the end (``left``) ranks below every seat that stayed.
2. Among the seats that stayed (and among those that left), a seat that played further into the
   tie-break rounds ranks above one that was out of the race for the top by then (R6: only the
   seats sharing the highest total play on, and only they can win), whatever the totals.
3. Then the higher total ranks above; equal totals share a place.

A seat wins when it has place 1 and did not leave: a leaver forfeits, so the seat that stayed
ranked highest wins even when a leaver's seat (the computer played it on) had more points.

>>> import random
>>> from bot.engine.match import Match
>>> match = Match.new(2, rng=random.Random(5))
>>> outcome(match, left=[False, False], counts=[True, True]).places
(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from bot.engine.match import players_by_round

if TYPE_CHECKING:
    from bot.engine.match import Match


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat of a match's outcome: its ``place`` (1 best; equal places tie), whether the match
    counts for its person (``counts``: a person who played at least one move of their own), whether
    its person ``left`` before the end, whether it ``won``, its total ``points``, the ``rounds`` it
    played (tie-break rounds it sat out are not counted), the rounds it went out in
    (``rounds_out``), its Hand-Rommé rounds (R22) and its best round score.

    >>> row = SeatOutcome(seat=0, place=1, counts=True, left=False, won=True, points=40)
    >>> SeatOutcome.of(row.to_dict()) == row
    True
    """

    seat: int
    place: int
    counts: bool
    left: bool
    won: bool
    points: int
    rounds: int = 0
    rounds_out: int = 0
    hand_rommes: int = 0
    best_round: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready data."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def of(cls, data: dict[str, Any]) -> SeatOutcome:
        """The row of :meth:`to_dict`."""
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A match's outcome: a row per seat, in seat order; ``over`` when the match was played to its
    end (R6: one seat ahead), else the standings so far (a match that ended early).

    >>> rows = (
    ...     SeatOutcome(0, place=2, counts=True, left=False, won=False, points=50),
    ...     SeatOutcome(1, place=1, counts=True, left=False, won=True, points=80),
    ... )
    >>> result = Outcome(rows, over=True)
    >>> result.winners, [row.seat for row in result.ranked]
    ((1,), [1, 0])
    """

    seats: tuple[SeatOutcome, ...]
    over: bool

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place, in seat order."""
        return tuple(row.place for row in self.seats)

    @property
    def ranked(self) -> tuple[SeatOutcome, ...]:
        """The rows by place, best first (equal places in seat order)."""
        return tuple(sorted(self.seats, key=lambda row: (row.place, row.seat)))

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won (one, but for a tie at the top among the seats that stayed)."""
        return tuple(row.seat for row in self.ranked if row.won)

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data.

        >>> again = Outcome((SeatOutcome(0, 1, True, False, True, 5),), over=True)
        >>> Outcome.of(again.to_dict()) == again
        True
        """
        return {"over": self.over, "seats": [row.to_dict() for row in self.seats]}

    @classmethod
    def of(cls, data: dict[str, Any]) -> Outcome:
        """The outcome of :meth:`to_dict`."""
        return cls(tuple(SeatOutcome.of(row) for row in data["seats"]), over=bool(data["over"]))


def outcome(match: Match, *, left: Sequence[bool], counts: Sequence[bool]) -> Outcome:
    """The outcome of ``match`` (played to its end, or its standings so far): ``left[seat]`` says
    whether the seat's person left before the end (a seated member who stopped the match counts as
    one), ``counts[seat]`` whether the match counts for the seat's person. The places and the win
    follow the module's rule.

    >>> import random
    >>> from bot.engine.match import Match
    >>> from bot.engine.round import Round
    >>> from bot.engine.rules import RuleSet
    >>> from bot.engine.scoring import RoundResult
    >>> rng = random.Random(1)
    >>> first = RoundResult(
    ...     out=2, melded=(50, 80, 120), in_hand=(0, 0, 0), scores=(50, 80, 120),
    ...     hand_romme=False)
    >>> match = Match(n_seats=3, rules=RuleSet(), rng=rng, dealer=1, round_no=2, round_seats=[0, 1, 2],
    ...     finished=[first], current=Round.deal(3, dealer=1, rng=rng))
    >>> outcome(match, left=[False, False, True], counts=[True] * 3).places  # seat 2 left
    (2, 1, 3)
    """
    n_seats = match.n_seats
    if len(left) != n_seats or len(counts) != n_seats:
        raise ValueError(f"a match of {n_seats} seats needs {n_seats} flags each")
    history = match.history
    players = players_by_round(history, match.rounds_planned, n_seats)
    totals = match.totals
    # How far into the tie-break rounds each seat played: once out of the race, never back in (R6).
    tiebreaks = players[match.rounds_planned :]
    stage = [sum(1 for seats in tiebreaks if seat in seats) for seat in range(n_seats)]
    key = [(left[seat], -stage[seat], -totals[seat]) for seat in range(n_seats)]
    rows = []
    for seat in range(n_seats):
        place = 1 + sum(1 for other in range(n_seats) if key[other] < key[seat])
        played = [
            result.scores[seat] for result, seats in zip(history, players, strict=True) if seat in seats
        ]
        rows.append(
            SeatOutcome(
                seat=seat,
                place=place,
                counts=bool(counts[seat]),
                left=bool(left[seat]),
                won=place == 1 and not left[seat],
                points=totals[seat],
                rounds=len(played),
                rounds_out=sum(1 for result in history if result.out == seat),
                hand_rommes=sum(1 for result in history if result.out == seat and result.hand_romme),
                best_round=max(played) if played else None,
            )
        )
    return Outcome(tuple(rows), over=match.over)
