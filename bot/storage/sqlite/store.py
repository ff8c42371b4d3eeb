"""The bot's database in an SQLite file: games, their move log, round scores and player statistics.

One :class:`Storage` owns two connections to the file. Writes go through a
:class:`~bot.storage.sqlite.writer.WriteQueue`: a plain :mod:`sqlite3` connection on a thread of its
own, with group commit (the writes that arrive together share one transaction, each in its own
savepoint, and each caller returns only once that transaction is committed). Migrations and reads
use an :mod:`aiosqlite` connection, one trip to its thread per query; in WAL mode a read sees the
last committed transaction, never half of one, and never waits for a commit's fsync.
SQLite's WAL keeps the file consistent if the process dies.

What each method guarantees is said once, in :class:`~bot.storage.interface.Database`; the docstrings
here say how SQLite keeps it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import records
from bot.storage.errors import ChannelBusy, GameNotFound, StorageError, VersionConflict
from bot.storage.interface import Clock, SettingsListener
from bot.storage.sql import OPEN, SqlStorage
from bot.storage.sqlite.lock import DatabaseLock
from bot.storage.sqlite.lock import hold as hold_lock
from bot.storage.sqlite.schema import migrate, schema_problem
from bot.storage.sqlite.writer import WriteQueue

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
"""The file's own clock: only for what is not a game's (a server setting, a member preference)."""


class Storage(SqlStorage):
    """The database of one bot in an SQLite file. Open it with :meth:`Storage.open`; close it with
    :meth:`close`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        writes: WriteQueue,
        path: Path,
        lock: DatabaseLock | None = None,
        *,
        replay: records.Replay | None = None,
        clock: Clock | None = None,
    ) -> None:
        """Wrap an open, migrated file (a reading connection and a writer, and this process's lock
        on the file, released by :meth:`close`); use :meth:`Storage.open`."""
        super().__init__(replay, clock)
        self._db: aiosqlite.Connection | None = db
        self._writes = writes
        self._lock = lock
        self.path = path

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls, path: str | Path, *, replay: records.Replay | None = None, clock: Clock | None = None
    ) -> Storage:
        """Open (or create) the database file and bring its schema up to date; ``replay``: see
        :attr:`~bot.storage.interface.Database.replay`; ``clock``: the time its writes are stamped
        with (see :class:`~bot.storage.interface.Database`, "Time").

        Raises :class:`StorageError` with one line naming the file when the file cannot be opened,
        is not an SQLite database, belongs to another program or is newer than this code, and
        :class:`~bot.storage.sqlite.lock.DatabaseInUse` when another process has it open (one bot
        per file: see :mod:`bot.storage.sqlite.lock`).
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise StorageError(f"{path}: cannot open the database (the folder {path.parent} does not exist)")
        lock = hold_lock(path)
        try:
            return await cls._open(path, lock, replay, clock)
        except BaseException:
            # A refused file keeps nothing of this open beside it, not even the lock file.
            lock.abandon()
            raise

    @classmethod
    async def _open(
        cls, path: Path, lock: DatabaseLock, replay: records.Replay | None, clock: Clock | None
    ) -> Storage:
        # Another program's database, or a newer one, is refused before the writer sets the journal
        # mode: switching it to WAL would rewrite the header of a file the bot must leave untouched.
        _refuse_foreign(path)
        # The writer next: its thread opens the file and sets the journal mode, so a file that
        # cannot be opened, or is no database, is refused before anything else is started.
        writes = await WriteQueue.open(functools.partial(_connect_writer, path))
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except BaseException as exc:
            await writes.close()
            if isinstance(exc, sqlite3.Error):
                raise StorageError(f"{path}: cannot open the database ({exc})") from None
            raise
        try:
            db.row_factory = sqlite3.Row
            for pragma in _PRAGMAS:
                await db.execute(pragma)
            await migrate(db, str(path))
        except BaseException as exc:
            await db.close()
            await writes.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise StorageError(f"{path} is not a readable SQLite database ({exc})") from None
            raise
        return cls(db, writes, path, lock, replay=replay, clock=clock)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._db is None

    @property
    def writer_alive(self) -> bool:
        """See :attr:`Database.writer_alive`: the file is open and its writer thread runs."""
        return self._db is not None and self._writes.alive

    @property
    def transactions(self) -> int:
        """See :attr:`Database.transactions`: the writer thread's transactions."""
        return self._writes.transactions

    async def close(self) -> None:
        """Close the file once the queued writes are committed, and release its lock."""
        if self._db is not None:
            db, self._db = self._db, None
            try:
                await self._writes.close()
            finally:
                try:
                    await db.close()
                finally:
                    if self._lock is not None:
                        self._lock.release()

    # ------------------------------------------------------------------ games

    async def _insert_game(
        self, guild_id: int, channel_id: int, host_id: int, status: records.GameStatus, snapshot: str
    ) -> int:
        # The check of the channel and the insert are one write on the one writer thread: no other
        # game slips in between.
        at = _iso(self.now())

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN}", (channel_id,)
            ).fetchone()
            if row is not None and status in records.OPEN_STATUSES:
                raise ChannelBusy(channel_id, game_id=row["id"])
            return db.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, host_id, status.value, snapshot, at, at),
            ).lastrowid

        game_id = await self._write(write)
        assert game_id is not None
        return game_id

    def start_save(
        self, save: records.Save, *, now: bool = False, ready: asyncio.Future[None] | None = None
    ) -> Awaitable[records.SaveResult]:
        """See :meth:`Database.start_save`. The save is queued on the writer thread and shares a
        transaction with the writes that arrive with it, each in its own savepoint; ``now`` hands it
        to the thread at once, and ``ready`` is set as the batch's COMMIT begins (see
        :meth:`~bot.storage.sqlite.writer.WriteQueue.submit`)."""
        game_id, expected_version, move = save.game_id, save.expected_version, save.move
        status = str(save.status)  # the member's plain string (Save made it a GameStatus)
        round_scores, match_results = save.round_scores, save.match_results
        # Serialised here, on the event loop: a value JSON cannot hold fails before anything is queued.
        snapshot_json, move_json, state_json = save.encoded()
        owed = [(a.round_no, a.kind, records.dumps(a.payload)) for a in save.announcements]
        # When the change was made, by the storage's clock (read here, not when the batch commits).
        at = _iso(self.now())

        def write(db: sqlite3.Connection) -> records.SaveResult:
            version, stored_status, last_seq = _game_state(db, game_id)
            if expected_version is not None and expected_version != version:
                raise VersionConflict(game_id, expected=expected_version, actual=version)
            seq = None
            if move is not None and move_json is not None:
                # Numbered from the game's own counter, never from the rows present (schema 6).
                seq = last_seq = last_seq + 1
                db.execute(
                    "INSERT INTO moves (game_id, seq, seat, user_id, move, state, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        seq,
                        move.seat,
                        move.user_id,
                        move_json,
                        None if snapshot_json else state_json,
                        at,
                    ),
                )
            if snapshot_json is not None:
                db.execute(
                    "UPDATE games SET snapshot = ?, status = ?, version = version + 1, updated_at = ?, "
                    "snapshot_seq = ?, last_seq = ? WHERE id = ?",
                    (snapshot_json, status, at, last_seq, last_seq, game_id),
                )
            elif stored_status == status:
                # The status is set only when it changes: setting it rewrites the game's index
                # entries (pages in the write-ahead log), which a move that leaves it alone need not.
                db.execute(
                    "UPDATE games SET version = version + 1, last_seq = ?, updated_at = ? WHERE id = ?",
                    (last_seq, at, game_id),
                )
            else:
                db.execute(
                    "UPDATE games SET status = ?, version = version + 1, last_seq = ?, updated_at = ? "
                    "WHERE id = ?",
                    (status, last_seq, at, game_id),
                )
            _insert_round_scores(db, game_id, round_scores)
            _record_match(db, game_id, match_results)
            if owed:
                db.executemany(
                    "INSERT INTO announcements (game_id, round_no, kind, payload, created_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, round_no) DO NOTHING",
                    [(game_id, *row, at) for row in owed],
                )
            return records.SaveResult(version=version + 1, seq=seq)

        self._connection()
        return self._writes.submit(write, now=now, ready=ready)

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """See :meth:`Database.set_table_message`."""
        at = _iso(self.now())

        def write(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                "UPDATE games SET table_message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, at, game_id),
            )
            if cursor.rowcount == 0:
                raise GameNotFound(game_id)

        await self._write(write)

    async def set_aside(self, game_id: int, problem: str) -> bool:
        """See :meth:`Database.set_aside`."""
        problem = " ".join(problem.split())[:500] or "unreadable"
        at = _iso(self.now())

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                f"UPDATE games SET status = ?, damaged = ?, updated_at = ? WHERE id = ? AND status IN {OPEN}",
                (records.GameStatus.CANCELLED.value, problem, at, game_id),
            )
            return cursor.rowcount > 0

        return await self._write(write)

    # ------------------------------------------------------------------ history (replays)

    async def compact_moves(self, before: datetime) -> int:
        """See :meth:`Database.compact_moves`. The file keeps times as ISO text in UTC (``Z``), so
        ``before`` is compared in the same spelling."""
        stamp = _iso(before)

        def write(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                f"DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE status NOT IN {OPEN} "
                "AND updated_at < ?)",
                (stamp,),
            )
            return cursor.rowcount

        return await self._write(write)

    # ------------------------------------------------------------------ announcements (the outbox)

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool:
        """See :meth:`Database.announcement_delivered`."""
        at = _iso(self.now())

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE announcements SET delivered_at = ?, message_id = ? "
                "WHERE game_id = ? AND round_no = ? AND delivered_at IS NULL",
                (at, message_id, game_id, round_no),
            )
            return cursor.rowcount > 0

        return await self._write(write)

    # ------------------------------------------------------------------ server settings, member preferences

    async def _put_settings(self, table: str, key: str, column: str, owner: int, value: str) -> None:
        """See :meth:`Database._put_settings`."""

        def write(db: sqlite3.Connection) -> None:
            db.execute(
                f"INSERT INTO {table} ({key}, {column}) VALUES (?, ?) "
                f"ON CONFLICT ({key}) DO UPDATE SET {column} = excluded.{column}, updated_at = {_NOW}",
                (owner, value),
            )

        await self._write(write)

    def on_settings_changed(self, listener: SettingsListener) -> None:
        """See :meth:`Database.on_settings_changed`: one bot process per file (its lock), which made
        every change itself, so there is nothing to hear and ``listener`` is never called."""

    # ------------------------------------------------------------------ ratings and seasons

    async def record_rating(
        self,
        match: records.RatedMatch,
        changes: Sequence[records.RatingChange],
        ratings: Sequence[records.Rating],
    ) -> bool:
        """See :meth:`Database.record_rating`: one transaction on the writer thread."""
        seats = json.dumps([seat.to_dict() for seat in match.seats], separators=(",", ":"))
        history = [_change_row(change) for change in changes]
        rows = [
            (r.guild_id, r.season, r.user_id, r.mu, r.sigma, r.ordinal, r.matches, r.wins) for r in ratings
        ]

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT OR IGNORE INTO rated_matches (game_id, guild_id, season, ended_at, seats) "
                "VALUES (?, ?, ?, ?, ?)",
                (match.game_id, match.guild_id, match.season, utc_text(match.ended_at), seats),
            )
            if cursor.rowcount == 0:
                return False
            db.executemany(_INSERT_CHANGE, history)
            db.executemany(
                "INSERT OR REPLACE INTO ratings (guild_id, season, user_id, mu, sigma, ordinal, matches, "
                "wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            return True

        return await self._write(write)

    async def forget_ratings(self, guild_id: int) -> None:
        """See :meth:`Database.forget_ratings`."""

        def write(db: sqlite3.Connection) -> None:
            for table in ("rated_matches", "rating_history", "ratings"):
                db.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))

        await self._write(write)

    async def start_season(self, season: records.Season) -> bool:
        """See :meth:`Database.start_season`."""

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT OR IGNORE INTO seasons (guild_id, number, started_at, started_by) "
                "VALUES (?, ?, ?, ?)",
                (season.guild_id, season.number, utc_text(season.started_at), season.started_by),
            )
            return cursor.rowcount > 0

        return await self._write(write)

    # ------------------------------------------------------------------ plumbing

    @staticmethod
    def _stamp(value: Any) -> datetime:
        return datetime.fromisoformat(value)

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError(f"{self.path}: the database is closed")
        return self._db

    async def _write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        self._connection()
        return await self._writes.write(write)

    async def _fetch(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        # Reads go to the reading connection (aiosqlite, one trip each): they see the last committed
        # transaction and never wait behind a batch that is being committed.
        return list(await self._connection().execute_fetchall(sql, params))


def _iso(when: datetime) -> str:
    """``when`` as the file spells a time (``strftime('%Y-%m-%dT%H:%M:%fZ')``): UTC, milliseconds.

    >>> from datetime import timezone, timedelta
    >>> _iso(datetime(2026, 1, 2, 4, 5, 6, 789000, tzinfo=timezone(timedelta(hours=1))))
    '2026-01-02T03:05:06.789Z'
    """
    if when.tzinfo is None:
        raise ValueError("a time with its zone, please")
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


_PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    # FULL: a move the bot has answered for must survive a power cut, not only a crash.
    "PRAGMA synchronous = FULL",
)
"""Settings of every connection to the file (SQLite keeps them per connection, not in the file)."""


def _refuse_foreign(path: Path) -> None:
    """Raise :class:`StorageError` (one line) if the file at ``path`` is another program's SQLite
    database, or one of a newer schema, reading it only (a missing or empty file passes: the bot
    makes its tables; a file that is no database is refused by the writer's open as before)."""
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return  # the writer's open says why, in its own words
    try:
        current = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone()
    except sqlite3.DatabaseError:
        return  # no database at all: refused by the writer's open, which reads no further
    finally:
        db.close()
    problem = schema_problem(str(path), current, has_tables=tables is not None)
    if problem is not None:
        raise problem


def utc_text(moment: datetime) -> str:
    """A time as the ratings' columns keep it: UTC, ISO 8601 with microseconds, so that the text
    sorts as the time does.

    >>> from datetime import timezone, timedelta
    >>> utc_text(datetime(2026, 12, 1, 1, 0, tzinfo=timezone(timedelta(hours=1))))
    '2026-12-01T00:00:00.000000Z'
    """
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_CHANGE_FIELDS = tuple(field.name for field in dataclasses.fields(records.RatingChange))
_INSERT_CHANGE = (
    f"INSERT INTO rating_history ({', '.join(_CHANGE_FIELDS)}) "
    f"VALUES ({', '.join('?' for _ in _CHANGE_FIELDS)})"
)


def _change_row(change: records.RatingChange) -> tuple[Any, ...]:
    return tuple(
        utc_text(change.ended_at) if name == "ended_at" else int(value) if isinstance(value, bool) else value
        for name in _CHANGE_FIELDS
        for value in (getattr(change, name),)
    )


def _connect_writer(path: Path) -> sqlite3.Connection:
    """On the writer's thread: open the file, switch it to WAL and set :data:`_PRAGMAS`.

    Autocommit (``isolation_level=None``): the write queue says BEGIN and COMMIT itself.
    """
    try:
        db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the database ({exc})") from None
    try:
        db.row_factory = sqlite3.Row
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode is not None and str(mode[0]).lower() != "wal":
            log.warning("%s: journal mode is %s, not WAL", path, mode[0])
        for pragma in _PRAGMAS:
            db.execute(pragma)
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StorageError(f"{path} is not a readable SQLite database ({exc})") from None
    except BaseException:
        db.close()
        raise
    return db


def _game_state(db: sqlite3.Connection, game_id: int) -> tuple[int, str, int]:
    """The game's version, status and move counter (``last_seq``)."""
    row = db.execute("SELECT version, status, last_seq FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return int(row[0]), str(row[1]), int(row[2])


def _insert_round_scores(db: sqlite3.Connection, game_id: int, scores: Sequence[records.RoundScore]) -> None:
    if scores:
        db.executemany(
            "INSERT INTO round_scores (game_id, round_no, seat, user_id, melded, in_hand, score) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.round_no, s.seat, s.user_id, s.melded, s.in_hand, s.score) for s in scores],
        )


def _record_match(db: sqlite3.Connection, game_id: int, results: Sequence[records.MatchResult]) -> int:
    if not results:
        return 0
    row = db.execute("SELECT guild_id FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    guild_id = row[0]
    new = 0
    for result in results:
        cursor = db.execute(
            "INSERT INTO match_results (game_id, user_id, points, won, best_round) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, user_id) DO NOTHING",
            (game_id, result.user_id, result.points, int(result.won), result.best_round),
        )
        if cursor.rowcount == 0:
            continue
        new += 1
        db.execute(
            "INSERT INTO player_stats (guild_id, user_id, matches_played, matches_won, points, best_round) "
            "VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "matches_played = matches_played + 1, "
            "matches_won = matches_won + excluded.matches_won, "
            "points = points + excluded.points, "
            "best_round = CASE WHEN best_round IS NULL THEN excluded.best_round "
            "WHEN excluded.best_round IS NULL THEN best_round "
            "ELSE MAX(best_round, excluded.best_round) END",
            (guild_id, result.user_id, int(result.won), result.points, result.best_round),
        )
    return new
