"""What the table service refuses with: a :class:`TableError` with a stable code."""

from __future__ import annotations

from typing import Any

TABLE_ERROR_CODES = (
    "game.none_here",
    "game.exists",
    "game.not_running",
    "game.not_finished",
    "game.changed",
    "lobby.closed",
    "lobby.full",
    "lobby.not_host",
    "lobby.host_limit",
    "lobby.too_few",
    "seat.not_seated",
    "seat.already_seated",
    "turn.not_yours",
    "panel.stale",
    "round.not_over",
    "stop.not_allowed",
    "replay.not_found",
    "replay.running",
    "replay.none",
    "settings.not_allowed",
    "settings.not_a_number",
    "settings.out_of_range",
    "settings.bad_value",
    "settings.other_server",
    "settings.not_yours",
    "settings.channel_elsewhere",
    "settings.role_gone",
    "start.channel_not_allowed",
    "game.moved",
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
