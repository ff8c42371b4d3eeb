"""The bot's SQLite database: games, their move log, round scores and player statistics.

One :class:`Storage` owns two connections to the file. Writes go through a
:class:`~bot.storage.writer.WriteQueue`: a plain :mod:`sqlite3` connection on a thread of its own,
with group commit (the writes that arrive together share one transaction, each in its own
savepoint, and each caller returns only once that transaction is committed). Migrations and reads
use an :mod:`aiosqlite` connection, one trip to its thread per query; in WAL mode a read sees the
last committed transaction, never half of one, and never waits for a commit's fsync.
SQLite's WAL keeps the file consistent if the process dies.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import rows as read
from bot.storage.errors import ChannelBusy, GameNotFound, StorageError, VersionConflict
from bot.storage.lock import DatabaseLock
from bot.storage.lock import hold as hold_lock
from bot.storage.records import (
    GAME_STATUSES,
    OPEN_STATUSES,
    Announcement,
    AnnouncementRecord,
    GameRecord,
    GameStatus,
    GameStatusName,
    MatchResult,
    MoveEntry,
    MoveRecord,
    PlayerStats,
    Replay,
    RoundScore,
    SaveResult,
)
from bot.storage.schema import migrate
from bot.storage.writer import WriteQueue

log = logging.getLogger(__name__)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
# SQL text for "status IN (...)": the statuses of a game that is not over.
_OPEN = "(" + ", ".join(f"'{status.value}'" for status in OPEN_STATUSES) + ")"


class Storage:
    """The database of one bot. Open it with :meth:`Storage.open`; close it with :meth:`close`.

    All methods are coroutines; each write is one transaction, and a write either happens whole or
    not at all.
    """

    def __init__(
        self, db: aiosqlite.Connection, writes: WriteQueue, path: Path, lock: DatabaseLock | None = None
    ) -> None:
        """Wrap an open, migrated file (a reading connection and a writer, and this process's lock
        on the file, released by :meth:`close`); use :meth:`Storage.open`."""
        self._db: aiosqlite.Connection | None = db
        self._writes = writes
        self._lock = lock
        self.path = path
        self.replay: Replay | None = None
        """How to fold the moves logged after a game's snapshot into it (set by the storage's owner,
        which knows the rules: the table service). With it, a game read back
        (:meth:`get_game`, :meth:`unfinished_games`, …) carries the snapshot as of its last save;
        without it, the stored snapshot as it was written (the moves after it are in :meth:`moves`)."""

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (or create) the database file and bring its schema up to date.

        Raises :class:`StorageError` with one line naming the file when the file cannot be opened,
        is not an SQLite database, belongs to another program or is newer than this code, and
        :class:`~bot.storage.lock.DatabaseInUse` when another process has it open (one bot per file:
        see :mod:`bot.storage.lock`).
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise StorageError(f"{path}: cannot open the database (the folder {path.parent} does not exist)")
        lock = hold_lock(path)
        try:
            return await cls._open(path, lock)
        except BaseException:
            lock.release()
            raise

    @classmethod
    async def _open(cls, path: Path, lock: DatabaseLock) -> Storage:
        # The writer first: its thread opens the file and sets the journal mode, so a file that
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
        return cls(db, writes, path, lock)

    async def close(self) -> None:
        """Close the file once the queued writes are committed; closing twice is harmless."""
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

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._db is None

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        snapshot: dict[str, Any],
        status: GameStatus | GameStatusName = GameStatus.LOBBY,
    ) -> int:
        """Save a new game at version 1 and return its id.

        ``status`` is a :class:`GameStatus` or its plain string. Raises :class:`ChannelBusy` if the
        channel already has a game in the lobby or in play.
        """
        status = _status(status)
        snapshot_json = _dumps(snapshot)

        def write(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {_OPEN}", (channel_id,)
            ).fetchone()
            if row is not None and status in OPEN_STATUSES:
                raise ChannelBusy(channel_id, game_id=row["id"])
            return db.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, snapshot) VALUES (?, ?, ?, ?, ?)",
                (guild_id, channel_id, host_id, status.value, snapshot_json),
            ).lastrowid

        game_id = await self._write(write)
        assert game_id is not None
        return game_id

    async def save_game(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
    ) -> SaveResult:
        """Save the game (see :meth:`start_save`, which this awaits)."""
        return await self.start_save(
            game_id,
            snapshot,
            status,
            expected_version=expected_version,
            move=move,
            round_scores=round_scores,
            match_results=match_results,
            announcements=announcements,
        )

    def start_save(
        self,
        game_id: int,
        snapshot: dict[str, Any] | None,
        status: GameStatus | GameStatusName,
        *,
        expected_version: int | None = None,
        move: MoveEntry | None = None,
        round_scores: Sequence[RoundScore] = (),
        match_results: Sequence[MatchResult] = (),
        announcements: Sequence[Announcement] = (),
        now: bool = False,
        ready: asyncio.Future[None] | None = None,
    ) -> Awaitable[SaveResult]:
        """Replace the game's snapshot and status, and with them, in the SAME transaction, append
        ``move`` to the log, record ``round_scores`` and ``match_results`` (see :meth:`record_match`)
        and owe ``announcements`` to the game's channel (see :meth:`owed_announcements`; one per
        round: a round already owed or announced keeps its row).

        ``snapshot`` ``None`` saves the move as what it is: the status and the version change, the
        move is logged with its :attr:`~MoveEntry.state`, and the stored snapshot stays; the game
        read back is that snapshot with the moves logged since replayed onto it (:attr:`replay`).
        Such a save needs a ``move``.

        ``status`` is a :class:`GameStatus` or its plain string. With ``expected_version`` the save
        is refused (:class:`VersionConflict`, nothing written) unless the game is still at that
        version. Raises :class:`GameNotFound`.

        The save is queued when this is called, not when the result is awaited (which it must be):
        the caller may work on the loop while it commits; ``now`` hands it to the database thread at
        once, and ``ready`` is set as its COMMIT begins (see
        :meth:`~bot.storage.writer.WriteQueue.submit`). Await the result before answering for the
        save: it comes only once the save is committed.
        """
        status = _status(status)
        if snapshot is None and move is None:
            raise ValueError("a save without a snapshot needs its move")
        snapshot_json = _dumps(snapshot) if snapshot is not None else None
        # Serialised here, on the event loop: a value JSON cannot hold fails before anything is queued.
        move_json = _dumps(move.move) if move is not None else None
        state_json = _dumps(move.state) if move is not None and move.state is not None else None
        owed = [(a.round_no, a.kind, _dumps(a.payload)) for a in announcements]

        def write(db: sqlite3.Connection) -> SaveResult:
            version, stored_status = _version_and_status(db, game_id)
            if expected_version is not None and expected_version != version:
                raise VersionConflict(game_id, expected=expected_version, actual=version)
            seq = None
            if move is not None and move_json is not None:
                seq = _append_move(db, game_id, move, move_json, None if snapshot_json else state_json)
            if snapshot_json is not None:
                db.execute(
                    f"UPDATE games SET snapshot = ?, status = ?, version = version + 1, updated_at = {_NOW}, "
                    "snapshot_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE game_id = ?) WHERE id = ?",
                    (snapshot_json, status.value, game_id, game_id),
                )
            elif stored_status == status.value:
                # The status is set only when it changes: setting it rewrites the game's index
                # entries (pages in the write-ahead log), which a move that leaves it alone need not.
                db.execute(
                    f"UPDATE games SET version = version + 1, updated_at = {_NOW} WHERE id = ?", (game_id,)
                )
            else:
                db.execute(
                    f"UPDATE games SET status = ?, version = version + 1, updated_at = {_NOW} WHERE id = ?",
                    (status.value, game_id),
                )
            _insert_round_scores(db, game_id, round_scores)
            _record_match(db, game_id, match_results)
            if owed:
                db.executemany(
                    "INSERT INTO announcements (game_id, round_no, kind, payload) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, round_no) DO NOTHING",
                    [(game_id, *row) for row in owed],
                )
            return SaveResult(version=version + 1, seq=seq)

        self._connection()
        return self._writes.submit(write, now=now, ready=ready)

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the id of the game's public table message (``None``: it must be posted again).

        This is not a game move: the version stays. Raises :class:`GameNotFound`.
        """

        def write(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                f"UPDATE games SET table_message_id = ?, updated_at = {_NOW} WHERE id = ?",
                (message_id, game_id),
            )
            if cursor.rowcount == 0:
                raise GameNotFound(game_id)

        await self._write(write)

    async def set_aside(self, game_id: int, problem: str) -> bool:
        """Set aside a game whose snapshot cannot be read: its status becomes ``cancelled`` (so it
        frees its channel and is not brought back again) and ``problem`` (one line) is kept with it;
        the snapshot stays as it was. Returns False if the game was not open (nothing changed).
        """
        problem = " ".join(problem.split())[:500] or "unreadable"

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                f"UPDATE games SET status = ?, damaged = ?, updated_at = {_NOW} "
                f"WHERE id = ? AND status IN {_OPEN}",
                (GameStatus.CANCELLED.value, problem, game_id),
            )
            return cursor.rowcount > 0

        return await self._write(write)

    async def damaged_games(self) -> list[GameRecord]:
        """Every game set aside as unreadable (:meth:`set_aside`), oldest first."""
        rows = await self._fetch(f"SELECT {_GAME} FROM games WHERE damaged IS NOT NULL ORDER BY id")
        return [self._game(row) for row in rows]

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or ``None``."""
        rows = await self._fetch(f"SELECT {_GAME} FROM games WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game in the lobby or in play in this channel, or ``None`` (one per channel)."""
        rows = await self._fetch(
            f"SELECT {_GAME} FROM games WHERE channel_id = ? AND status IN {_OPEN}", (channel_id,)
        )
        return self._game(rows[0]) if rows else None

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game in the lobby or in play, oldest first: what to bring back after a restart."""
        rows = await self._fetch(f"SELECT {_GAME} FROM games WHERE status IN {_OPEN} ORDER BY id")
        return [self._game(row) for row in rows]

    async def moves(self, game_id: int, *, after: int = 0) -> list[MoveRecord]:
        """The game's logged moves with ``seq`` above ``after``, in order."""
        rows = await self._fetch(
            "SELECT * FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, after)
        )
        return [
            MoveRecord(
                game_id=row["game_id"],
                seq=row["seq"],
                seat=row["seat"],
                user_id=row["user_id"],
                move=json.loads(row["move"]),
                created_at=_time(row["created_at"]),
                state=json.loads(row["state"]) if row["state"] is not None else None,
            )
            for row in rows
        ]

    # ------------------------------------------------------------------ announcements (the outbox)

    async def owed_announcements(self, game_id: int | None = None) -> list[AnnouncementRecord]:
        """The announcements not delivered yet (of one game, or of all), by game, then round."""
        where, params = ("AND game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = await self._fetch(
            f"SELECT * FROM announcements WHERE delivered_at IS NULL {where} ORDER BY game_id, round_no",
            params,
        )
        return [read.announcement(row, _time) for row in rows]

    async def announcement(self, game_id: int, round_no: int) -> AnnouncementRecord | None:
        """The announcement of this game's round, delivered or not, or ``None``."""
        rows = await self._fetch(
            "SELECT * FROM announcements WHERE game_id = ? AND round_no = ?", (game_id, round_no)
        )
        return read.announcement(rows[0], _time) if rows else None

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> bool:
        """Note that the announcement of this round is in the channel, as message ``message_id``.

        Returns False if it was noted already (the first delivery's message id stays) or is not owed.
        """

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                f"UPDATE announcements SET delivered_at = {_NOW}, message_id = ? "
                "WHERE game_id = ? AND round_no = ? AND delivered_at IS NULL",
                (message_id, game_id, round_no),
            )
            return cursor.rowcount > 0

        return await self._write(write)

    # ------------------------------------------------------------------ scores and statistics

    async def record_round(self, game_id: int, scores: Sequence[RoundScore]) -> None:
        """Record the scores of one finished round (one row per seat).

        Prefer passing ``round_scores`` to :meth:`save_game` with the round's last move, so both are
        one transaction. Raises :class:`GameNotFound`, or ``sqlite3.IntegrityError`` for a seat's
        round that is already recorded (nothing is written then).
        """

        def write(db: sqlite3.Connection) -> None:
            _version(db, game_id)
            _insert_round_scores(db, game_id, scores)

        await self._write(write)

    async def round_scores(self, game_id: int) -> list[RoundScore]:
        """Every recorded round score of the game, by round then seat."""
        rows = await self._fetch(
            "SELECT * FROM round_scores WHERE game_id = ? ORDER BY round_no, seat", (game_id,)
        )
        return [read.round_score(row) for row in rows]

    async def record_match(self, game_id: int, results: Iterable[MatchResult]) -> int:
        """Add a finished match's results to the players' statistics on the game's server.

        A person already recorded for this game is skipped, so recording again after a crash or a
        retry counts nothing twice. Returns how many results were new. Raises :class:`GameNotFound`.
        """
        rows = list(results)
        return await self._write(lambda db: _record_match(db, game_id, rows))

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A person's statistics on one server, or ``None`` if they never finished a match there."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return read.stats(rows[0]) if rows else None

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's best players: most matches won, then most points, then fewest matches."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = ? "
            "ORDER BY matches_won DESC, points DESC, matches_played ASC, user_id ASC LIMIT ?",
            (guild_id, limit),
        )
        return [read.stats(row) for row in rows]

    # ------------------------------------------------------------------ plumbing

    def _game(self, row: sqlite3.Row) -> GameRecord:
        """The record of a row read with :data:`_GAME`: its snapshot with the moves logged after it
        replayed onto it when :attr:`replay` is set (one statement read both: they agree)."""
        record = read.game(row, _time)
        if self.replay is None or row["tail"] is None:
            return record
        tail = sorted(
            (
                MoveRecord(
                    game_id=record.id,
                    seq=entry["seq"],
                    seat=entry["seat"],
                    user_id=entry["user_id"],
                    move=entry["move"],
                    created_at=_time(entry["created_at"]),
                    state=entry["state"],
                )
                for entry in json.loads(row["tail"])
            ),
            key=lambda move: move.seq,
        )
        if not tail:
            return record
        try:
            snapshot = self.replay(record.snapshot, tail)
        except Exception as exc:
            # The game cannot be read (the owner sets it aside); the other games still can.
            problem = f"its last {len(tail)} moves cannot be replayed ({type(exc).__name__}: {exc})"
            return dataclasses.replace(record, replay_error=" ".join(problem.split())[:500])
        return dataclasses.replace(record, snapshot=snapshot, replayed=len(tail))

    def _connection(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StorageError(f"{self.path}: the database is closed")
        return self._db

    async def _write(self, write: Callable[[sqlite3.Connection], T]) -> T:
        self._connection()
        return await self._writes.write(write)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # Reads go to the reading connection (aiosqlite, one trip each): they see the last committed
        # transaction and never wait behind a batch that is being committed.
        return list(await self._connection().execute_fetchall(sql, params))


_GAME = (
    "games.*, (SELECT json_group_array(json(entry)) FROM (SELECT json_object("
    "'seq', seq, 'seat', seat, 'user_id', user_id, 'move', json(move), 'state', json(state), "
    "'created_at', created_at) AS entry FROM moves "
    "WHERE moves.game_id = games.id AND moves.seq > games.snapshot_seq ORDER BY seq)) AS tail"
)
"""The columns of a game read back: the row, and the moves logged after its snapshot (a JSON array,
in the same statement, so the two are of one committed state)."""

_PRAGMAS = (
    "PRAGMA foreign_keys = ON",
    f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
    # FULL: a move the bot has answered for must survive a power cut, not only a crash.
    "PRAGMA synchronous = FULL",
)
"""Settings of every connection to the file (SQLite keeps them per connection, not in the file)."""


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


def _version(db: sqlite3.Connection, game_id: int) -> int:
    return _version_and_status(db, game_id)[0]


def _version_and_status(db: sqlite3.Connection, game_id: int) -> tuple[int, str]:
    row = db.execute("SELECT version, status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(game_id)
    return int(row[0]), str(row[1])


def _append_move(
    db: sqlite3.Connection, game_id: int, move: MoveEntry, move_json: str, state_json: str | None
) -> int:
    row = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?", (game_id,)).fetchone()
    seq = int(row[0])
    db.execute(
        "INSERT INTO moves (game_id, seq, seat, user_id, move, state) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, seq, move.seat, move.user_id, move_json, state_json),
    )
    return seq


def _insert_round_scores(db: sqlite3.Connection, game_id: int, scores: Sequence[RoundScore]) -> None:
    if scores:
        db.executemany(
            "INSERT INTO round_scores (game_id, round_no, seat, user_id, melded, in_hand, score) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.round_no, s.seat, s.user_id, s.melded, s.in_hand, s.score) for s in scores],
        )


def _record_match(db: sqlite3.Connection, game_id: int, results: Sequence[MatchResult]) -> int:
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


def _status(status: str) -> GameStatus:
    """The member for ``status`` (a :class:`GameStatus` or its plain string); ValueError otherwise.

    >>> _status("playing") is _status(GameStatus.PLAYING) is GameStatus.PLAYING
    True
    """
    try:
        return GameStatus(status)
    except ValueError:
        raise ValueError(f"status must be one of {', '.join(GAME_STATUSES)}, not {status!r}") from None


def _dumps(value: dict[str, Any]) -> str:
    if not isinstance(value, dict):
        raise TypeError(f"expected a JSON object (dict), not {type(value).__name__}")
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)
