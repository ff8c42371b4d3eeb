"""What the two backends' SQL has in common, written once: the reads.

The reads are plain SQL both SQLite and PostgreSQL understand, written with ``?`` placeholders (a
backend whose driver numbers them, as asyncpg's ``$1``, renumbers them in its :meth:`_fetch`). A
backend gives what differs: how it runs a read (:meth:`SqlStorage._fetch`), how it reads a timestamp
column (:meth:`SqlStorage._stamp`), and its writes, which run differently on each (a writer thread
with group commit, one round trip per statement on a pool). A game is read with its tail in SQL
that decodes nothing (:data:`bot.storage.rows.SELECT_GAMES`): a damaged row stops only its game.
"""

from __future__ import annotations

import abc
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage import rows as read
from bot.storage.interface import Database
from bot.storage.records import (
    OPEN_STATUSES,
    AnnouncementRecord,
    GameRecord,
    MoveRecord,
    PlayerStats,
    RoundScore,
)

log = logging.getLogger(__name__)

OPEN = "(" + ", ".join(f"'{status.value}'" for status in OPEN_STATUSES) + ")"
"""SQL for ``status IN …``: the statuses of a game that is not over."""


class SqlStorage(Database):
    """A backend over SQL: the reads of :class:`~bot.storage.interface.Database`; what a backend
    adds is said in the module's docstring."""

    @staticmethod
    @abc.abstractmethod
    def _stamp(value: Any) -> datetime:
        """A timestamp column's value as a ``datetime``."""

    @abc.abstractmethod
    async def _fetch(self, sql: str, *params: Any) -> Sequence[read.Row]:
        """The rows of one read (``?`` placeholders), on the reading connection: the last committed
        state. Raises StorageError once the storage is closed."""

    async def ping(self) -> None:
        """See :meth:`Database.ping`."""
        await self._fetch("SELECT 1")

    async def get_game(self, game_id: int) -> GameRecord | None:
        """See :meth:`Database.get_game`."""
        found = await self.read_games("games.id = ?", game_id)
        return found[0] if found else None

    async def unfinished_games(self) -> list[GameRecord]:
        """See :meth:`Database.unfinished_games`."""
        return await self.read_games(f"games.status IN {OPEN}")

    async def read_games(self, where: str, *params: Any) -> list[GameRecord]:
        """The games of the rows ``where`` picks (SQL of the ``games`` columns, ``?`` placeholders),
        by id, each with its tail replayed (:func:`bot.storage.rows.games`: a game whose rows cannot
        be read comes back with ``replay_error`` set, the others all the same)."""
        rows = await self._fetch(f"{read.SELECT_GAMES} WHERE {where} ORDER BY games.id, tail_seq", *params)
        return read.games(rows, self._stamp, self.replay)

    async def moves(self, game_id: int, *, after: int = 0) -> list[MoveRecord]:
        """See :meth:`Database.moves`."""
        rows = await self._fetch(
            "SELECT * FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", game_id, after
        )
        return [read.move(row, self._stamp) for row in rows]

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """See :meth:`Database.finished_games`."""
        where = ""
        params: tuple[int, ...] = ()
        if user_id is not None:
            where = (
                "AND (host_id = ? OR EXISTS (SELECT 1 FROM round_scores r WHERE r.game_id = games.id "
                "AND r.user_id = ?) OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = games.id "
                "AND m.user_id = ?))"
            )
            params = (user_id, user_id, user_id)
        rows = await self._fetch(
            f"SELECT * FROM games WHERE guild_id = ? AND status = 'finished' {where} "
            "ORDER BY updated_at DESC, id DESC LIMIT ?",
            guild_id,
            *params,
            limit,
        )
        return [read.stored_game(row, self._stamp) for row in rows]

    async def owed_announcements(self, game_id: int | None = None) -> list[AnnouncementRecord]:
        """See :meth:`Database.owed_announcements`."""
        where, params = ("AND game_id = ?", (game_id,)) if game_id is not None else ("", ())
        rows = await self._fetch(
            f"SELECT * FROM announcements WHERE delivered_at IS NULL {where} ORDER BY game_id, round_no",
            *params,
        )
        owed = []
        for row in rows:
            try:
                owed.append(read.announcement(row, self._stamp))
            except Exception as exc:  # one damaged row: that announcement is left, never the others
                log.warning(
                    "game %s: the announcement of round %s cannot be read (%s: %s); left as it is",
                    row["game_id"],
                    row["round_no"],
                    type(exc).__name__,
                    " ".join(str(exc).split())[:200],
                )
        return owed

    async def round_scores(self, game_id: int) -> list[RoundScore]:
        """See :meth:`Database.round_scores`."""
        rows = await self._fetch(
            "SELECT * FROM round_scores WHERE game_id = ? ORDER BY round_no, seat", game_id
        )
        return [read.round_score(row) for row in rows]

    async def player_record(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """See :meth:`Database.player_record`."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?", guild_id, user_id
        )
        return read.stats(rows[0]) if rows else None

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """See :meth:`Database.leaderboard`."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = ? "
            "ORDER BY matches_won DESC, points DESC, matches_played ASC, user_id ASC LIMIT ?",
            guild_id,
            limit,
        )
        return [read.stats(row) for row in rows]

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """See :meth:`Database.guild_settings`."""
        rows = await self._fetch("SELECT settings FROM guild_settings WHERE guild_id = ?", guild_id)
        return read.json_object(rows[0]["settings"]) if rows else {}

    async def member_preferences(self, user_id: int) -> dict[str, Any]:
        """See :meth:`Database.member_preferences`."""
        rows = await self._fetch("SELECT preferences FROM member_preferences WHERE user_id = ?", user_id)
        return read.json_object(rows[0]["preferences"]) if rows else {}
