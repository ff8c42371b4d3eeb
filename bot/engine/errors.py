"""Typed errors of the rules engine."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules refuse. The state it was tried on is left exactly as it was.

    ``code`` is a stable id (``"meld.mixed_suits"``) that messages and translations key on;
    ``rule`` names the rule of the rule book (``docs/rules.md``) it breaks (``"R8"``).

    >>> err = IllegalMove("meld.too_short", "R7", "a meld needs at least three cards")
    >>> (err.code, err.rule, str(err))
    ('meld.too_short', 'R7', 'a meld needs at least three cards')
    """

    def __init__(self, code: str, rule: str, message: str | None = None) -> None:
        super().__init__(message or code)
        self.code = code
        self.rule = rule

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.rule!r}, {str(self)!r})"
