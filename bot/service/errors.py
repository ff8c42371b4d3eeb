"""What the table service refuses with, and whom it tells about changes made without a click."""

from __future__ import annotations

from typing import Any, Protocol

from bot.service.game import Game

TABLE_ERROR_CODES = (
    "game.none_here",
    "game.exists",
    "game.not_running",
    "game.not_finished",
    "lobby.closed",
    "lobby.full",
    "lobby.not_host",
    "lobby.too_few",
    "seat.not_seated",
    "seat.already_seated",
    "turn.not_yours",
    "panel.stale",
    "round.not_over",
    "stop.not_allowed",
)
"""Every code a :class:`TableError` can carry (the message catalog has an entry for each)."""


class TableError(Exception):
    """A table action refused for a reason that is not a rule of the game; nothing changed.

    ``code`` is one of :data:`TABLE_ERROR_CODES`; ``params`` fill the message (``game_id``, ``seat``…).

    >>> err = TableError("lobby.full", seats=6)
    >>> err.code, err.params
    ('lobby.full', {'seats': 6})
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code if not params else f"{code} {params}")
        self.code = code
        self.params = params


class TableListener(Protocol):
    """Told about every change made without a user's interaction (implemented by the cog layer).

    ``reason`` is ``"computer"`` (a computer move), ``"timeout"`` (a turn timer fired; the computer
    plays the turn next), or ``"next_round"`` (the next round started by itself). The game shows the
    rest: ``last_turn``, ``between_rounds``, ``status``.
    """

    async def game_changed(self, game: Game, *, reason: str) -> None:
        """React to the change (edit the table message…); must not raise into the service."""
        ...


class NoListener:
    """A listener that ignores every change (the default)."""

    async def game_changed(self, game: Game, *, reason: str) -> None:
        return None
