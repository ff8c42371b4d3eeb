"""The values the storage takes and gives back: plain frozen dataclasses, no database handles.

What one change writes is one :class:`Save`; :func:`game_status` and :func:`dumps` are how every
backend reads a status and writes a JSON column.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, fields
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal, Protocol


class GameStatus(StrEnum):
    """Where a game is in its life: in the lobby, being played, finished or cancelled.

    Each member is the plain string kept in the ``games.status`` column and in snapshots, so it
    equals that string, and a string from an old row or snapshot gives the member back. A game
    between two rounds of its match is still ``PLAYING``.

    >>> GameStatus("playing") is GameStatus.PLAYING
    True
    >>> GameStatus.FINISHED == "finished", str(GameStatus.LOBBY)
    (True, 'lobby')
    >>> [status.value for status in GameStatus if status in OPEN_STATUSES]
    ['lobby', 'playing']
    """

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


GameStatusName = Literal["lobby", "playing", "finished", "cancelled"]
"""A status as a plain string: what the storage accepts besides a :class:`GameStatus`."""

GAME_STATUSES: tuple[GameStatus, ...] = tuple(GameStatus)
"""Every status, in the order of the game's life."""
OPEN_STATUSES: tuple[GameStatus, ...] = (GameStatus.LOBBY, GameStatus.PLAYING)
"""A game in one of these is not over: it holds its channel and comes back after a restart."""


def game_status(status: str) -> GameStatus:
    """The member for ``status`` (a :class:`GameStatus` or its plain string); ValueError otherwise.

    >>> game_status("playing") is game_status(GameStatus.PLAYING) is GameStatus.PLAYING
    True
    >>> game_status("paused")
    Traceback (most recent call last):
    ValueError: status must be one of lobby, playing, finished, cancelled, not 'paused'
    """
    try:
        return GameStatus(status)
    except ValueError:
        raise ValueError(f"status must be one of {', '.join(GAME_STATUSES)}, not {status!r}") from None


def dumps(value: Any) -> str:
    """A JSON object as the storage writes it: compact, UTF-8 as it is, no NaN; TypeError for
    anything but a dict (a column of JSON always holds an object).

    >>> dumps({"kind": "draw", "n": 1})
    '{"kind":"draw","n":1}'
    >>> dumps([1])
    Traceback (most recent call last):
    TypeError: expected a JSON object (dict), not list
    """
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as saved: where it is played, its status and the snapshot to rebuild it from."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    table_message_id: int | None
    status: GameStatus
    """Always a :class:`GameStatus` (equal to its plain string)."""
    snapshot: dict[str, Any]
    version: int
    """Bumped by every save; pass it back as ``expected_version`` to refuse a stale save."""
    created_at: datetime
    updated_at: datetime
    damaged: str | None = None
    """What is wrong with a game set aside as unreadable (see
    :meth:`~bot.storage.interface.Database.set_aside`); ``None`` for a sound game."""
    replayed: int = 0
    """How many logged moves were replayed onto the stored snapshot to give :attr:`snapshot` (see
    :attr:`~bot.storage.interface.Database.replay`); without a replay they are left out and this is 0."""
    replay_error: str | None = None
    """Why the game cannot be read (one line): its row or a move logged after its snapshot cannot
    be decoded, its log does not continue its snapshot without a gap up to its last move, or the
    moves cannot be replayed. The :attr:`snapshot` is then the stored one (empty if it cannot be
    decoded); the owner sets the game aside."""


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """A move to append to a game's log: which seat, whose person (``None``: computer), what.

    >>> MoveEntry(seat=1, user_id=None, move={"kind": "draw", "source": "stock"}).seat
    1
    """

    seat: int
    user_id: int | None
    move: dict[str, Any]
    state: dict[str, Any] | None = None
    """What else the move changed at the table, for replaying it onto an older snapshot (a save
    without a snapshot needs it; see :meth:`~bot.storage.interface.Database.start_save`)."""


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A move from the log, numbered ``seq`` = 1, 2, … in the order the game accepted them."""

    game_id: int
    seq: int
    seat: int
    user_id: int | None
    move: dict[str, Any]
    created_at: datetime
    state: dict[str, Any] | None = None
    """The entry's :attr:`MoveEntry.state` (``None``: the move was saved with a snapshot)."""


class Replay(Protocol):
    """Folds logged moves into the snapshot saved before them: what the storage's owner teaches it
    (the storage knows no rules), so a game read back is the game as its last save left it."""

    def __call__(self, snapshot: dict[str, Any], moves: Sequence[MoveRecord]) -> dict[str, Any]:
        """The snapshot of the game once ``moves`` (in log order, each with its ``state``) are played."""
        ...


@dataclass(frozen=True, slots=True)
class Save:
    """What one change writes, in one transaction (see :meth:`bot.storage.interface.Database.start_save`):
    the game's new snapshot (``None``: the move alone, replayed onto the stored snapshot when the
    game is read back) and status, the version it must still be at, its move, the round's scores,
    the match's results and the announcements it owes to the channel.

    Checked when it is made: ``status`` becomes a :class:`GameStatus` (its plain string is
    accepted), and a save without a snapshot needs its move (it would change nothing but the
    version otherwise).

    >>> Save(1, {"turn": 2}, "playing").status is GameStatus.PLAYING
    True
    >>> Save(1, None, GameStatus.PLAYING)
    Traceback (most recent call last):
    ValueError: a save without a snapshot needs its move
    """

    game_id: int
    snapshot: dict[str, Any] | None
    status: GameStatus | GameStatusName
    """A :class:`GameStatus` once made (its plain string is accepted, and turned into the member)."""
    _: KW_ONLY
    expected_version: int | None = None
    """Refuse the save (:class:`~bot.storage.VersionConflict`) unless the game is at this version."""
    move: MoveEntry | None = None
    round_scores: Sequence[RoundScore] = ()
    match_results: Sequence[MatchResult] = ()
    announcements: Sequence[Announcement] = ()

    def __post_init__(self) -> None:
        if type(self.status) is not GameStatus:
            object.__setattr__(self, "status", game_status(self.status))
        if self.snapshot is None and self.move is None:
            raise ValueError("a save without a snapshot needs its move")

    def encoded(self) -> tuple[str | None, str | None, str | None]:
        """The snapshot, the move and the move's state as JSON text (``None`` where there is none).

        Called by a backend's ``start_save`` on the event loop: a value JSON cannot hold fails
        there, before anything is queued.

        >>> Save(1, None, "playing", move=MoveEntry(0, 7, {"kind": "draw"}, {"turn": 3})).encoded()
        (None, '{"kind":"draw"}', '{"turn":3}')
        """
        move = self.move
        return (
            dumps(self.snapshot) if self.snapshot is not None else None,
            dumps(move.move) if move is not None else None,
            dumps(move.state) if move is not None and move.state is not None else None,
        )


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


AnnouncementKind = Literal["round_end", "match_end"]
"""What an announcement says: a round's end, or the last round's end with the match's results."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """A message owed to a game's channel, written with the move that causes it (see
    :meth:`~bot.storage.interface.Database.start_save`): one per game and round; ``payload`` is what it shows.

    >>> Announcement(kind="round_end", round_no=2, payload={"id": 5}).round_no
    2
    """

    kind: AnnouncementKind
    round_no: int
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AnnouncementRecord:
    """An announcement as stored: owed until ``delivered_at`` is set (with the message's id)."""

    game_id: int
    round_no: int
    kind: AnnouncementKind
    payload: dict[str, Any]
    created_at: datetime
    delivered_at: datetime | None
    message_id: int | None

    @property
    def delivered(self) -> bool:
        """The message is in the channel."""
        return self.delivered_at is not None


# ---------------------------------------------------------------------- ratings and seasons


SEAT_COUNTS = ("points", "rounds", "rounds_out", "hand_rommes", "best_round")
"""What the profile counts of one seat of a rated match: the fields of that name in
:class:`RatedSeat`, :class:`RatingChange` and the engine's outcome row, copied by :func:`seat_counts`
(a new count is one name here and one field in each)."""


def seat_counts(row: object) -> dict[str, Any]:
    """The :data:`SEAT_COUNTS` of ``row`` (a rated seat, or an outcome row), by name.

    >>> seat_counts(RatedSeat(0, 7, None, place=1, points=40))
    {'points': 40, 'rounds': 0, 'rounds_out': 0, 'hand_rommes': 0, 'best_round': None}
    """
    return {name: getattr(row, name) for name in SEAT_COUNTS}


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished match as it was rated: who sat there (``user_id`` ``None``: a
    computer seat, playing at ``level``), its ``place`` (1 best; equal places tie), whether its person
    left before the end (``left``), whether the match counts for its person (``counts``: false for a
    person the computer played for from start to end, whose seat is rated as a computer at
    ``level``), and what the profile counts.

    >>> RatedSeat(seat=0, user_id=7, level=None, place=1).counts
    True
    """

    seat: int
    user_id: int | None
    level: str | None
    place: int
    left: bool = False
    counts: bool = True
    points: int = 0
    rounds: int = 0
    rounds_out: int = 0
    hand_rommes: int = 0
    best_round: int | None = None

    @property
    def rated_person(self) -> bool:
        """A person whose rating the match moves."""
        return self.user_id is not None and self.counts

    def to_dict(self) -> dict[str, Any]:
        """The seat as the ``rated_matches.seats`` JSON keeps it.

        >>> seat = RatedSeat(1, None, "easy", 2)
        >>> RatedSeat.of(seat.to_dict()) == seat, seat.to_dict()["level"]
        (True, 'easy')
        """
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def of(cls, value: dict[str, Any]) -> RatedSeat:
        """The seat of its JSON object."""
        return cls(**value)


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match as rated: its game, server, season, end and seats (the stored result every
    rating is recomputed from)."""

    game_id: int
    guild_id: int
    season: int
    ended_at: datetime
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating on one server in one season: openskill's ``mu`` and ``sigma``, the matches
    rated and won in the season. ``ordinal`` (``mu - 3 sigma``) orders the leaderboard."""

    guild_id: int
    season: int
    user_id: int
    mu: float
    sigma: float
    matches: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The conservative estimate, ``mu - 3 sigma``.

        >>> Rating(1, 1, 7, mu=25.0, sigma=5.0, matches=3, wins=1).ordinal
        10.0
        """
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One person's rating before and after one rated match, and what the profile counts of it."""

    game_id: int
    user_id: int
    guild_id: int
    season: int
    ended_at: datetime
    place: int
    seats: int
    won: bool
    left_early: bool
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    points: int
    rounds: int
    rounds_out: int
    hand_rommes: int
    best_round: int | None
    beaten: str
    """The computer levels the person placed above in this match, comma-separated (may be empty)."""


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season ``number`` (1, 2, …), from ``started_at`` until the next one starts;
    ``started_by`` is the member who started it (``None``: the calendar did)."""

    guild_id: int
    number: int
    started_at: datetime
    started_by: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of a season's leaderboard: the rating and its rank (1 best) among ``of`` rated."""

    rank: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class ProfileCounts:
    """What a person's rated matches on one server add up to (all seasons)."""

    matches: int
    wins: int
    average_place: float | None
    rounds: int
    rounds_out: int
    hand_rommes: int
    best_round: int | None
    best_match: int | None
    beaten: frozenset[str]
