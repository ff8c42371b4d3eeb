"""The records of rows, for both backends: a row is read by column name (``sqlite3.Row`` and
``asyncpg.Record`` both are), JSON columns are decoded, and a timestamp goes through the backend's
own reader (SQLite keeps ISO text, PostgreSQL hands back a ``datetime``).

A game is read with the moves logged after its snapshot (its ``tail`` column, a JSON array that
each backend's SQL builds in the same statement), and :func:`game` replays them onto it.

>>> row = {"guild_id": 1, "user_id": 2, "matches_played": 3, "matches_won": 1, "points": 40,
...        "best_round": 25}
>>> stats(row).matches_won
1
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from bot.storage.records import (
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    MoveRecord,
    PlayerStats,
    Replay,
    RoundScore,
)

R = TypeVar("R")


class Row(Protocol):
    """A row whose columns are read by name."""

    def __getitem__(self, key: str, /) -> Any: ...


Stamp = Callable[[Any], datetime]
"""How a backend reads a timestamp column."""


def game(row: Row, stamp: Stamp, replay: Replay | None = None) -> GameRecord:
    """The game of a ``games`` row read with its ``tail`` (see the module's docstring): with
    ``replay``, its snapshot as of its last save (the tail replayed onto the stored one); without,
    the stored snapshot and ``replayed`` 0. A tail that cannot be replayed gives the stored snapshot
    and says why in ``replay_error``: that game cannot be read, the others still can."""
    record = stored_game(row, stamp)
    tail_json = row["tail"] if replay is not None else None
    if replay is None or tail_json is None:
        return record
    # The tail's entries are JSON objects, their times ISO 8601 text (on both backends).
    tail = sorted(
        (
            _record(
                MoveRecord,
                entry,
                _TAIL,
                game_id=record.id,
                created_at=datetime.fromisoformat(entry["created_at"]),
            )
            for entry in json.loads(tail_json)
        ),
        key=lambda move: move.seq,
    )
    if not tail:
        return record
    try:
        snapshot = replay(record.snapshot, tail)
    except Exception as exc:
        problem = f"its last {len(tail)} moves cannot be replayed ({type(exc).__name__}: {exc})"
        return dataclasses.replace(record, replay_error=" ".join(problem.split())[:500])
    return dataclasses.replace(record, snapshot=snapshot, replayed=len(tail))


def stored_game(row: Row, stamp: Stamp) -> GameRecord:
    """The game of a ``games`` row, its snapshot as stored (no moves replayed)."""
    return _read(GameRecord, row, stamp, _GAME, status=GameStatus(row["status"]))


def announcement(row: Row, stamp: Stamp) -> AnnouncementRecord:
    """The announcement of an ``announcements`` row."""
    return _read(AnnouncementRecord, row, stamp, _ANNOUNCEMENT)


def move(row: Row, stamp: Stamp) -> MoveRecord:
    """A logged move, of a ``moves`` row."""
    return _read(MoveRecord, row, stamp, _MOVE)


def round_score(row: Row) -> RoundScore:
    """One seat's score of one round, of a ``round_scores`` row."""
    return _read(RoundScore, row, None, _ROUND_SCORE)


def stats(row: Row) -> PlayerStats:
    """A person's record on one server, of a ``player_stats`` row."""
    return _read(PlayerStats, row, None, _STATS)


Columns = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
"""The columns a record is read from: taken as they are, JSON to decode, timestamps."""

_GAME: Columns = (
    ("id", "guild_id", "channel_id", "host_id", "table_message_id", "version", "damaged"),
    ("snapshot",),
    ("created_at", "updated_at"),
)
_ANNOUNCEMENT: Columns = (
    ("game_id", "round_no", "kind", "message_id"),
    ("payload",),
    ("created_at", "delivered_at"),
)
_MOVE: Columns = (("game_id", "seq", "seat", "user_id"), ("move", "state"), ("created_at",))
_TAIL = ("seq", "seat", "user_id", "move", "state")
_ROUND_SCORE: Columns = (tuple(field.name for field in dataclasses.fields(RoundScore)), (), ())
_STATS: Columns = (tuple(field.name for field in dataclasses.fields(PlayerStats)), (), ())


def _read(kind: Callable[..., R], row: Row, stamp: Stamp | None, columns: Columns, **values: Any) -> R:
    """A ``kind`` of ``row``'s ``columns`` (a NULL stays ``None``) and of ``values``."""
    plain, encoded, times = columns
    values.update({name: row[name] for name in plain})
    for name in encoded:
        value = row[name]
        values[name] = json.loads(value) if value is not None else None
    for name in times:
        value = row[name]
        values[name] = stamp(value) if stamp is not None and value is not None else None
    return kind(**values)


def _record(kind: Callable[..., R], row: Row, plain: tuple[str, ...], **decoded: Any) -> R:
    """A ``kind`` of the columns named ``plain`` as they are, and of the ``decoded`` values."""
    return kind(**{name: row[name] for name in plain}, **decoded)


def json_object(value: Any) -> dict[str, Any]:
    """A settings column's JSON text as a dict (anything but an object reads as none: ``{}``).

    >>> json_object('{"jokers":4}'), json_object("[1]")
    ({'jokers': 4}, {})
    """
    loaded = json.loads(value)
    return loaded if isinstance(loaded, dict) else {}
