"""The records of rows, for both backends: a row is read by column name (``sqlite3.Row`` and
``asyncpg.Record`` both are), JSON columns are decoded, and a timestamp goes through the backend's
own reader (SQLite keeps ISO text, PostgreSQL hands back a ``datetime``).

A game is read with the moves logged after its snapshot (its ``tail`` column, a JSON array that
each backend's SQL builds in the same statement), and :func:`game` replays them onto it.

>>> from datetime import datetime
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
from typing import Any, Protocol

from bot.storage.records import (
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    MoveRecord,
    PlayerStats,
    Replay,
    RoundScore,
)


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
    if tail_json is None:
        return record
    # The tail's times are JSON text on both backends (ISO 8601).
    tail = sorted(
        (
            MoveRecord(
                game_id=record.id,
                seq=entry["seq"],
                seat=entry["seat"],
                user_id=entry["user_id"],
                move=entry["move"],
                created_at=datetime.fromisoformat(entry["created_at"]),
                state=entry["state"],
            )
            for entry in json.loads(tail_json)
        ),
        key=lambda move: move.seq,
    )
    if not tail or replay is None:
        return record
    try:
        snapshot = replay(record.snapshot, tail)
    except Exception as exc:
        problem = f"its last {len(tail)} moves cannot be replayed ({type(exc).__name__}: {exc})"
        return dataclasses.replace(record, replay_error=" ".join(problem.split())[:500])
    return dataclasses.replace(record, snapshot=snapshot, replayed=len(tail))


def stored_game(row: Row, stamp: Stamp) -> GameRecord:
    """The game of a ``games`` row, its snapshot as stored (no moves replayed)."""
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        table_message_id=row["table_message_id"],
        status=GameStatus(row["status"]),
        snapshot=json.loads(row["snapshot"]),
        version=row["version"],
        created_at=stamp(row["created_at"]),
        updated_at=stamp(row["updated_at"]),
        damaged=row["damaged"],
    )


def announcement(row: Row, stamp: Stamp) -> AnnouncementRecord:
    """The announcement of an ``announcements`` row."""
    delivered = row["delivered_at"]
    return AnnouncementRecord(
        game_id=row["game_id"],
        round_no=row["round_no"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        created_at=stamp(row["created_at"]),
        delivered_at=stamp(delivered) if delivered is not None else None,
        message_id=row["message_id"],
    )


def move(row: Row, stamp: Stamp) -> MoveRecord:
    """A logged move, of a ``moves`` row."""
    state = row["state"]
    return MoveRecord(
        game_id=row["game_id"],
        seq=row["seq"],
        seat=row["seat"],
        user_id=row["user_id"],
        move=json.loads(row["move"]),
        created_at=stamp(row["created_at"]),
        state=json.loads(state) if state is not None else None,
    )


def round_score(row: Row) -> RoundScore:
    """One seat's score of one round, of a ``round_scores`` row."""
    return RoundScore(
        round_no=row["round_no"],
        seat=row["seat"],
        user_id=row["user_id"],
        melded=row["melded"],
        in_hand=row["in_hand"],
        score=row["score"],
    )


def stats(row: Row) -> PlayerStats:
    """A person's record on one server, of a ``player_stats`` row."""
    return PlayerStats(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        matches_played=row["matches_played"],
        matches_won=row["matches_won"],
        points=row["points"],
        best_round=row["best_round"],
    )
