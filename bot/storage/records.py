"""The values the storage takes and gives back: plain frozen dataclasses, no database handles."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

GameStatus = Literal["lobby", "playing", "finished", "cancelled"]
GAME_STATUSES: tuple[GameStatus, ...] = ("lobby", "playing", "finished", "cancelled")
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "playing")
"""A game in one of these is not over: it holds its channel and comes back after a restart."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as saved: where it is played, its status and the snapshot to rebuild it from."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    table_message_id: int | None
    status: GameStatus
    snapshot: dict[str, Any]
    version: int
    """Bumped by every save; pass it back as ``expected_version`` to refuse a stale save."""
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """A move to append to a game's log: which seat, whose person (``None``: computer), what.

    >>> MoveEntry(seat=1, user_id=None, move={"kind": "draw", "source": "stock"}).seat
    1
    """

    seat: int
    user_id: int | None
    move: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A move from the log, numbered ``seq`` = 1, 2, … in the order the game accepted them."""

    game_id: int
    seq: int
    seat: int
    user_id: int | None
    move: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SaveResult:
    """What a save wrote: the game's new version, and the log number of its move (if any)."""

    version: int
    seq: int | None


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One seat's score in one finished round (R20/R21): melded points, hand points, the score.

    >>> RoundScore(round_no=1, seat=0, user_id=42, melded=35, in_hand=0, score=35).score
    35
    """

    round_no: int
    seat: int
    user_id: int | None
    melded: int
    in_hand: int
    score: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What one person takes from a finished match into the server's statistics.

    ``best_round`` is the person's highest round score in this match (``None`` if no round ended).
    """

    user_id: int
    points: int
    won: bool
    best_round: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A person's record on one server: matches played and won, points, best round score."""

    guild_id: int
    user_id: int
    matches_played: int
    matches_won: int
    points: int
    best_round: int | None
