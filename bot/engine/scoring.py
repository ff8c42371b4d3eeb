"""The score of a finished round (R20, R21, R22)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, hand_points
from bot.engine.rules import RuleSet
from bot.engine.table import TableMeld


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each seat scored, as lists by seat.

    ``out`` is the seat that went out, or ``None`` when the stock ran out (R18). ``melded`` is the value
    of the cards each seat put on the table (R20), ``in_hand`` the value of its hand at the end (R2,
    before any R22 doubling), ``scores`` the round score of the rule set. ``hand_romme`` says the
    seat that went out did so in the turn of its opening (R22; only set when that house rule is on).

    >>> RoundResult(out=0, melded=(40, 12), in_hand=(0, 9), scores=(40, 3), hand_romme=False).to_dict()
    {'out': 0, 'melded': [40, 12], 'in_hand': [0, 9], 'scores': [40, 3], 'hand_romme': False}
    """

    out: int | None
    melded: tuple[int, ...]
    in_hand: tuple[int, ...]
    scores: tuple[int, ...]
    hand_romme: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy."""
        return {
            "out": self.out,
            "melded": list(self.melded),
            "in_hand": list(self.in_hand),
            "scores": list(self.scores),
            "hand_romme": self.hand_romme,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        """The result of :meth:`to_dict`."""
        return cls(
            out=data["out"],
            melded=tuple(data["melded"]),
            in_hand=tuple(data["in_hand"]),
            scores=tuple(data["scores"]),
            hand_romme=bool(data["hand_romme"]),
        )


def score_round(
    rules: RuleSet,
    table: Sequence[TableMeld],
    hands: Sequence[Sequence[Card]],
    out: int | None,
    hand_romme: bool,
) -> RoundResult:
    """Score a finished round: ``hands`` are what each seat holds (pending cards included).

    R20 (``rules.scoring == "melds"``): melds, minus the hand for a seat that did not go out.
    R21 (``"penalty"``): minus the hand, 0 for the seat that went out. R22: when ``hand_romme``
    the hands of the others count twice.
    """
    n_seats = len(hands)
    melded = tuple(sum(tm.points_of(seat) for tm in table) for seat in range(n_seats))
    in_hand = tuple(hand_points(hand) for hand in hands)
    factor = 2 if hand_romme else 1
    scores = []
    for seat in range(n_seats):
        base = melded[seat] if rules.scoring == "melds" else 0
        scores.append(base if seat == out else base - factor * in_hand[seat])
    return RoundResult(out, melded, in_hand, tuple(scores), hand_romme)
