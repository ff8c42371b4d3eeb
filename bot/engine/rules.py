"""House rules of one game (the house rules of ``docs/rules.md``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any, Literal

Scoring = Literal["melds", "penalty"]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The house rules a game is played with; the defaults are the rule book's (``docs/rules.md``).

    >>> RuleSet().opening
    40
    >>> RuleSet(jokers=3)
    Traceback (most recent call last):
    ...
    ValueError: jokers must be 2, 4 or 6, not 3
    """

    jokers: int = 4
    """Jokers in the deck: 2, 4 or 6 (R1)."""
    opening: int = 40
    """Points the first melds of a seat must reach together: 0 to 120 (R13)."""
    scoring: Scoring = "melds"
    """``"melds"``: melds minus hand (R20); ``"penalty"``: minus the hand only (R21)."""
    hand_romme: bool = False
    """Going out in the turn of one's opening doubles the others' hand points (R22)."""
    discard_to_go_out: bool = False
    """The last card must be discarded to go out (R17's house rule)."""
    rounds: int | None = None
    """Rounds in the match: ``None`` is one per seat (R4), else 1 to 12."""

    def __post_init__(self) -> None:
        if isinstance(self.jokers, bool) or self.jokers not in (2, 4, 6):
            raise ValueError(f"jokers must be 2, 4 or 6, not {self.jokers!r}")
        if not _whole(self.opening) or not 0 <= self.opening <= 120:
            raise ValueError(f"opening must be a whole number from 0 to 120, not {self.opening!r}")
        if self.scoring not in ("melds", "penalty"):
            raise ValueError(f"scoring must be 'melds' or 'penalty', not {self.scoring!r}")
        for name in ("hand_romme", "discard_to_go_out"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.rounds is not None and (not _whole(self.rounds) or not 1 <= self.rounds <= 12):
            raise ValueError(f"rounds must be a whole number from 1 to 12, or None, not {self.rounds!r}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy of the rules, the fields in their order; a new dict each time (the caller
        may change it).

        >>> RuleSet(opening=30).to_dict()["opening"]
        30
        """
        return dict(_fields(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild rules from :meth:`to_dict`; unknown keys are refused."""
        return cls(**data)


@lru_cache(maxsize=256)
def _fields(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    # Saving a game and every seat's view ask for the rules after each move: asdict's recursion is
    # worked out once per rule set. Safe to share: the rules are frozen and every value is a scalar.
    return tuple(asdict(rules).items())


def _whole(value: object) -> bool:
    """Whether ``value`` is an int and not a bool (``True`` is an ``int`` to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)
