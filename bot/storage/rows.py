"""The records of rows, for both backends: a row is read by column name (``sqlite3.Row`` and
``asyncpg.Record`` both are), JSON columns are decoded, and a timestamp goes through the backend's
own reader (SQLite keeps ISO text, PostgreSQL hands back a ``datetime``).

A game is read with the moves logged after its snapshot, in one statement (:data:`SELECT_GAMES`: the
game's row joined with each move of its tail, its row alone when it has none), and :func:`game`
replays them onto it. No SQL function reads a row's content in that statement: whatever is damaged
in one game's rows is found here, in Python, for that game alone.

>>> row = {"guild_id": 1, "user_id": 2, "matches_played": 3, "matches_won": 1, "points": 40,
...        "best_round": 25}
>>> stats(row).matches_won
1
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
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

SELECT_GAMES = (
    "SELECT games.id, games.guild_id, games.channel_id, games.host_id, games.table_message_id, "
    "games.status, games.version, games.created_at, games.updated_at, games.damaged, "
    "games.snapshot_seq, games.last_seq, "
    "CASE WHEN row_number() OVER (PARTITION BY games.id ORDER BY m.seq) = 1 THEN games.snapshot END "
    "AS snapshot, m.seq AS tail_seq, m.seat AS tail_seat, m.user_id AS tail_user_id, "
    "m.move AS tail_move, m.state AS tail_state, m.created_at AS tail_created_at "
    "FROM games LEFT JOIN moves m ON m.game_id = games.id AND m.seq > games.snapshot_seq"
)
"""The games with their tails, in SQL both backends understand (a read adds its WHERE, and orders by
``games.id, tail_seq``): one row per move of a game's tail (its row alone, ``tail_*`` NULL, when it
has none), the snapshot only in the first (a game's 6-8 KB are sent once, not once per move). One
statement: the row and its tail are of one committed state."""


def games(rows: Iterable[Row], stamp: Stamp, replay: Replay | None = None) -> list[GameRecord]:
    """The games of the rows of :data:`SELECT_GAMES` (a game's row once per move of its tail, in
    order of id), each read by :func:`game`: a game whose rows cannot be read comes back with
    ``replay_error`` set, and the others all the same."""
    return [game(list(group), stamp, replay) for _, group in itertools.groupby(rows, key=lambda r: r["id"])]


def game(rows: Sequence[Row], stamp: Stamp, replay: Replay | None = None) -> GameRecord:
    """The game of its rows of :data:`SELECT_GAMES` (see the module's docstring): with ``replay``,
    its snapshot as of its last save (the tail replayed onto the stored one); without, the stored
    snapshot and ``replayed`` 0.

    Nothing in the rows stops the read: a game whose row cannot be decoded (its snapshot, a time in
    another format), whose tail cannot be decoded or replayed, or whose tail does not continue its
    snapshot without a gap up to its last move (``last_seq``, the game's own counter) comes back with
    ``replay_error`` saying why, in one line: that game cannot be read, the others still can.
    """
    first = rows[0]
    try:
        record = stored_game(first, stamp)
    except Exception as exc:
        return unreadable(first, f"its row cannot be read ({_why(exc)})")
    if replay is None:
        return record
    try:
        tail = sorted(
            (_tail_move(row, record.id, stamp) for row in rows if row["tail_seq"] is not None),
            key=lambda move: move.seq,
        )
    except Exception as exc:
        return _problem(record, f"a move logged after its snapshot cannot be read ({_why(exc)})")
    covered, last = int(first["snapshot_seq"]), int(first["last_seq"])
    seqs = [move.seq for move in tail]
    if seqs != list(range(covered + 1, last + 1)):
        missing = sorted(set(range(covered + 1, last + 1)) - set(seqs))
        extra = sorted(set(seqs) - set(range(covered + 1, last + 1)))
        problem = f"its move log does not continue its snapshot (move {covered}) up to its last move {last}"
        if missing:
            problem += f": moves {_span(missing)} are missing"
        if extra:
            problem += f"; moves {_span(extra)} are beyond its last move"
        return _problem(record, problem)
    if not tail:
        return record
    try:
        snapshot = replay(record.snapshot, tail)
    except Exception as exc:
        return _problem(record, f"its last {len(tail)} moves cannot be replayed ({_why(exc)})")
    return dataclasses.replace(record, snapshot=snapshot, replayed=len(tail))


def unreadable(row: Row, problem: str) -> GameRecord:
    """A game whose row cannot be decoded: what can be read of it (its id, where it is played),
    an empty snapshot and ``replay_error`` saying why (it is set aside, never played).

    >>> record = unreadable({"id": 4, "guild_id": 1, "channel_id": "x", "host_id": 3, "status": "?",
    ...                      "version": 2, "damaged": None}, "its row cannot be read")
    >>> record.id, record.channel_id, record.status.value, record.replay_error
    (4, 0, 'playing', 'its row cannot be read')
    """
    try:
        status = GameStatus(row["status"])
    except ValueError:
        status = GameStatus.PLAYING
    return GameRecord(
        id=int(row["id"]),
        guild_id=_int(row["guild_id"]),
        channel_id=_int(row["channel_id"]),
        host_id=_int(row["host_id"]),
        table_message_id=None,
        status=status,
        snapshot={},
        version=max(1, _int(row["version"])),
        created_at=_EPOCH,
        updated_at=_EPOCH,
        damaged=row["damaged"] if isinstance(row["damaged"], str) else None,
        replay_error=_line(problem),
    )


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


def _tail_move(row: Row, game_id: int, stamp: Stamp) -> MoveRecord:
    """A move of a game's tail, of its ``tail_*`` columns; raises on anything it cannot decode."""
    move, state = json.loads(row["tail_move"]), row["tail_state"]
    state = json.loads(state) if state is not None else None
    if not isinstance(move, dict) or not (state is None or isinstance(state, dict)):
        raise ValueError(f"move {row['tail_seq']} is not a JSON object")
    return MoveRecord(
        game_id=game_id,
        seq=int(row["tail_seq"]),
        seat=int(row["tail_seat"]),
        user_id=row["tail_user_id"],
        move=move,
        state=state,
        created_at=stamp(row["tail_created_at"]),
    )


def _problem(record: GameRecord, problem: str) -> GameRecord:
    return dataclasses.replace(record, replay_error=_line(problem))


def _line(text: str) -> str:
    return " ".join(text.split())[:500]


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _span(seqs: list[int]) -> str:
    """Log numbers as a short text.

    >>> _span([3]), _span([3, 4, 5]), _span([2, 7])
    ('3', '3-5', '2, 7')
    """
    if len(seqs) > 1 and seqs == list(range(seqs[0], seqs[-1] + 1)):
        return f"{seqs[0]}-{seqs[-1]}"
    return ", ".join(map(str, seqs[:10])) + (", …" if len(seqs) > 10 else "")


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
