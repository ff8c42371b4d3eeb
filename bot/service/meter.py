"""Whom the table service tells how long its saves and its computer players take, and what it saved.

The service knows no metrics library: the bot's metrics (:mod:`bot.ops`) are a :class:`Meter` it
is given when it is built (``TableService(meter=...)``); without one, :class:`NoMeter` hears
nothing. Each call is made once per change or computer move, after the fact, and must be cheap
and never raise.
"""

from __future__ import annotations

from typing import Literal, Protocol

SaveFailure = Literal["conflict", "error"]
"""Why a save did not commit: another process saved the game first, or anything else."""


class Meter(Protocol):
    """What the change path and the autopilot report (implemented by :class:`bot.ops.Metrics`)."""

    def saved(self, seconds: float, kinds: list[str]) -> None:
        """A change was committed: its save took ``seconds``; ``kinds`` are the kinds of the moves it
        logged (``"draw"``, ``"discard"``…; empty for a change that is not a move)."""
        ...

    def save_failed(self, why: SaveFailure) -> None:
        """A save did not commit (the change was put back)."""
        ...

    def decided(self, seconds: float) -> None:
        """A computer player chose (and applied) a move in ``seconds``."""
        ...


class NoMeter:
    """A meter that hears nothing (the default: no metrics).

    >>> NoMeter().saved(0.002, ["draw"]) is None
    True
    """

    def saved(self, seconds: float, kinds: list[str]) -> None:
        return None

    def save_failed(self, why: SaveFailure) -> None:
        return None

    def decided(self, seconds: float) -> None:
        return None
