"""Whom the table service tells about the changes it makes without a click."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from bot.service.game import Game

Reason = Literal["computer", "timeout", "next_round", "lobby_timeout", "idle"]
"""Why the service changed a game by itself: a computer move, a turn timer, the next round's deal, a
lobby nobody started in time (closed), a game in which no person acted for too long (ended)."""


class TableListener(Protocol):
    """Told about every change made without a user's interaction (implemented by the cog layer).

    ``reason`` is ``"computer"`` (a computer move), ``"timeout"`` (a turn timer fired; the computer
    plays the turn next), ``"next_round"`` (the next round started by itself), ``"lobby_timeout"``
    (the lobby closed itself: ``status`` cancelled) or ``"idle"`` (the game ended itself with the
    standings so far: ``status`` finished). The game shows the rest: ``last_turn``,
    ``between_rounds``, ``status``, ``closed_by``.
    """

    async def game_changed(self, game: Game, *, reason: Reason) -> None:
        """React to the change (edit the table message…); must not raise into the service."""
        ...


class NoListener:
    """A listener that ignores every change (the default)."""

    async def game_changed(self, game: Game, *, reason: Reason) -> None:
        return None
