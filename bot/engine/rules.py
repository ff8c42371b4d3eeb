"""House rules of one game (the house rules of ``docs/rules.md``), and what each may be.

Every house rule's bound is stated once, on its field of :class:`RuleSet` (:func:`rule_bound`):
:class:`RuleSet` checks itself against it, and the server's settings, their panel, the Numbers form
and ``/romme start``'s options read it from there, so a bound is changed in one place.

>>> rule_bound("jokers").values, rule_bound("opening")
((2, 4, 6), Whole(low=0, high=120, optional=False))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal

Scoring = Literal["melds", "penalty"]


def _whole(value: object) -> bool:
    """Whether ``value`` is an int and not a bool (``True`` is an ``int`` to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole number from ``low`` to ``high``; ``optional``: or ``None``.

    >>> Whole(1, 12).allows(12), Whole(1, 12).allows(13), Whole(1, 12).allows(True)
    (True, False, False)
    >>> Whole(1, 12, optional=True).refusal("rounds", 0)
    'rounds must be a whole number from 1 to 12, or None, not 0'
    """

    low: int
    high: int
    optional: bool = False

    def allows(self, value: object) -> bool:
        """Whether ``value`` is within the bound."""
        if value is None:
            return self.optional
        return _whole(value) and self.low <= value <= self.high  # type: ignore[operator]

    def refusal(self, name: str, value: object) -> str:
        """What ``name`` must be, for a :class:`ValueError` about ``value``."""
        none = ", or None" if self.optional else ""
        return f"{name} must be a whole number from {self.low} to {self.high}{none}, not {value!r}"


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of ``values`` (a bool is none of them, though ``True == 1``).

    >>> OneOf((2, 4, 6)).allows(4), OneOf((2, 4, 6)).refusal("jokers", 3)
    (True, 'jokers must be 2, 4 or 6, not 3')
    """

    values: tuple[Any, ...]

    def allows(self, value: object) -> bool:
        """Whether ``value`` is one of the values."""
        return not isinstance(value, bool) and value in self.values

    def refusal(self, name: str, value: object) -> str:
        """What ``name`` must be, for a :class:`ValueError` about ``value``."""
        shown = [repr(allowed) for allowed in self.values]
        return f"{name} must be {', '.join(shown[:-1])} or {shown[-1]}, not {value!r}"


@dataclass(frozen=True, slots=True)
class Flag:
    """True or false.

    >>> Flag().allows(False), Flag().allows(0), Flag().refusal("hand_romme", 0)
    (True, False, 'hand_romme must be true or false, not 0')
    """

    def allows(self, value: object) -> bool:
        """Whether ``value`` is a bool."""
        return isinstance(value, bool)

    def refusal(self, name: str, value: object) -> str:
        """What ``name`` must be, for a :class:`ValueError` about ``value``."""
        return f"{name} must be true or false, not {value!r}"


Bound = Whole | OneOf | Flag
"""What one house rule (or any setting) may be."""

JOKERS = OneOf((2, 4, 6))
"""Jokers in the deck (R1)."""
OPENING = Whole(0, 120)
"""Points of a seat's first melds (R13)."""
SCORING = OneOf(("melds", "penalty"))
"""How a round is scored (R20, R21)."""
ROUNDS = Whole(1, 12, optional=True)
"""Rounds in a match; ``None``: one per seat (R4)."""


def _bounded(bound: Bound) -> Mapping[str, Bound]:
    """The metadata of a field of :class:`RuleSet`: its bound."""
    return {"bound": bound}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The house rules a game is played with; the defaults are the rule book's (``docs/rules.md``),
    the bounds each field's (:func:`rule_bound`).

    >>> RuleSet().opening
    40
    >>> RuleSet(jokers=3)
    Traceback (most recent call last):
    ...
    ValueError: jokers must be 2, 4 or 6, not 3
    """

    jokers: int = field(default=4, metadata=_bounded(JOKERS))
    """Jokers in the deck (R1)."""
    opening: int = field(default=40, metadata=_bounded(OPENING))
    """Points the first melds of a seat must reach together (R13)."""
    scoring: Scoring = field(default="melds", metadata=_bounded(SCORING))
    """``"melds"``: melds minus hand (R20); ``"penalty"``: minus the hand only (R21)."""
    hand_romme: bool = field(default=False, metadata=_bounded(Flag()))
    """Going out in the turn of one's opening doubles the others' hand points (R22)."""
    discard_to_go_out: bool = field(default=False, metadata=_bounded(Flag()))
    """The last card must be discarded to go out (R17's house rule)."""
    rounds: int | None = field(default=None, metadata=_bounded(ROUNDS))
    """Rounds in the match: ``None`` is one per seat (R4), else a fixed number."""

    def __post_init__(self) -> None:
        for name, bound in RULE_BOUNDS.items():
            value = getattr(self, name)
            if not bound.allows(value):
                raise ValueError(bound.refusal(name, value))

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


RULE_BOUNDS: Mapping[str, Bound] = MappingProxyType({f.name: f.metadata["bound"] for f in fields(RuleSet)})
"""Each house rule's bound, the fields of :class:`RuleSet` in their order."""


def rule_bound(name: str) -> Bound:
    """The bound of house rule ``name`` (KeyError for a name that is none).

    >>> rule_bound("hand_romme")
    Flag()
    """
    return RULE_BOUNDS[name]


@lru_cache(maxsize=256)
def _fields(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    # Saving a game and every seat's view ask for the rules after each move: asdict's recursion is
    # worked out once per rule set. Safe to share: the rules are frozen and every value is a scalar.
    return tuple(asdict(rules).items())
