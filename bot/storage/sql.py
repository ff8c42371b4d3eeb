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
import dataclasses
import json
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage import records
from bot.storage import rows as read
from bot.storage.interface import Database

log = logging.getLogger(__name__)

OPEN = "(" + ", ".join(f"'{status.value}'" for status in records.OPEN_STATUSES) + ")"
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

    async def get_game(self, game_id: int) -> records.GameRecord | None:
        """See :meth:`Database.get_game`."""
        found = await self.read_games("games.id = ?", game_id)
        return found[0] if found else None

    async def unfinished_games(self) -> list[records.GameRecord]:
        """See :meth:`Database.unfinished_games`."""
        return await self.read_games(f"games.status IN {OPEN}")

    async def read_games(self, where: str, *params: Any) -> list[records.GameRecord]:
        """The games of the rows ``where`` picks (SQL of the ``games`` columns, ``?`` placeholders),
        by id, each with its tail replayed (:func:`bot.storage.rows.games`: a game whose rows cannot
        be read comes back with ``replay_error`` set, the others all the same)."""
        rows = await self._fetch(f"{read.SELECT_GAMES} WHERE {where} ORDER BY games.id, tail_seq", *params)
        return read.games(rows, self._stamp, self.replay)

    async def moves(self, game_id: int, *, after: int = 0) -> list[records.MoveRecord]:
        """See :meth:`Database.moves`."""
        rows = await self._fetch(
            "SELECT * FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq", game_id, after
        )
        return [read.move(row, self._stamp) for row in rows]

    async def finished_games(
        self, guild_id: int, *, user_id: int | None = None, limit: int = 10
    ) -> list[records.GameRecord]:
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

    async def owed_announcements(self, game_id: int | None = None) -> list[records.AnnouncementRecord]:
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

    async def round_scores(self, game_id: int) -> list[records.RoundScore]:
        """See :meth:`Database.round_scores`."""
        rows = await self._fetch(
            "SELECT * FROM round_scores WHERE game_id = ? ORDER BY round_no, seat", game_id
        )
        return [read.round_score(row) for row in rows]

    async def player_record(self, guild_id: int, user_id: int) -> records.PlayerStats | None:
        """See :meth:`Database.player_record`."""
        rows = await self._fetch(
            "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?", guild_id, user_id
        )
        return read.stats(rows[0]) if rows else None

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[records.PlayerStats]:
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

    # ------------------------------------------------------------------ ratings and seasons

    async def seasons(self, guild_id: int) -> list[records.Season]:
        """See :meth:`Database.seasons`."""
        rows = await self._fetch("SELECT * FROM seasons WHERE guild_id = ? ORDER BY number", guild_id)
        return [
            records.Season(row["guild_id"], row["number"], self._stamp(row["started_at"]), row["started_by"])
            for row in rows
        ]

    async def latest_ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, records.Rating]:
        """See :meth:`Database.latest_ratings`."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._fetch(
            f"SELECT * FROM ratings WHERE guild_id = ? AND user_id IN ({marks}) ORDER BY season",
            guild_id,
            *user_ids,
        )
        # Ordered by season: the latest season's row of each person is the one kept.
        return {row["user_id"]: _rating(row) for row in rows}

    async def season_board(
        self, guild_id: int, season: int, offset: int, limit: int
    ) -> list[records.Standing]:
        """See :meth:`Database.season_board`."""
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND season = ? "
            "ORDER BY ordinal DESC, user_id ASC LIMIT ? OFFSET ?",
            guild_id,
            season,
            limit,
            offset,
        )
        return [records.Standing(offset + index, _rating(row)) for index, row in enumerate(rows, start=1)]

    async def season_rank(
        self, guild_id: int, season: int, user_id: int
    ) -> tuple[int, records.Standing | None]:
        """See :meth:`Database.season_rank`."""
        rows = await self._fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND season = ? AND user_id = ?",
            guild_id,
            season,
            user_id,
        )
        if not rows:
            return await self.season_size(guild_id, season), None
        ordinal = rows[0]["ordinal"]
        # One pass over the season's part of the board's index (no OR in a WHERE, which would not
        # use it): how many are rated, and how many of them rank above.
        counted = await self._fetch(
            "SELECT COUNT(*) AS n, SUM(CASE WHEN ordinal > ? OR (ordinal = ? AND user_id < ?) "
            "THEN 1 ELSE 0 END) AS above FROM ratings WHERE guild_id = ? AND season = ?",
            ordinal,
            ordinal,
            user_id,
            guild_id,
            season,
        )
        return int(counted[0]["n"]), records.Standing(int(counted[0]["above"]) + 1, _rating(rows[0]))

    async def season_size(self, guild_id: int, season: int) -> int:
        """See :meth:`Database.season_size`."""
        rows = await self._fetch(
            "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND season = ?", guild_id, season
        )
        return int(rows[0]["n"])

    async def rating_history(self, guild_id: int, user_id: int, limit: int) -> list[records.RatingChange]:
        """See :meth:`Database.rating_history`."""
        rows = await self._fetch(
            "SELECT * FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "ORDER BY ended_at DESC, game_id DESC LIMIT ?",
            guild_id,
            user_id,
            limit,
        )
        return [self._change(row) for row in reversed(rows)]

    async def game_rating_changes(self, game_id: int) -> list[tuple[records.RatingChange, int]]:
        """See :meth:`Database.game_rating_changes`."""
        rows = await self._fetch(
            "SELECT h.*, (SELECT COUNT(*) FROM rating_history o WHERE o.guild_id = h.guild_id "
            "AND o.user_id = h.user_id AND o.season = h.season AND (o.ended_at < h.ended_at "
            "OR (o.ended_at = h.ended_at AND o.game_id <= h.game_id))) AS season_matches "
            "FROM rating_history h WHERE h.game_id = ? ORDER BY h.user_id",
            game_id,
        )
        return [(self._change(row), int(row["season_matches"])) for row in rows]

    async def profile_counts(self, guild_id: int, user_id: int) -> records.ProfileCounts:
        """See :meth:`Database.profile_counts`."""
        rows = await self._fetch(
            "SELECT COUNT(*) AS matches, COALESCE(SUM(won), 0) AS wins, AVG(place * 1.0) AS place, "
            "COALESCE(SUM(rounds), 0) AS rounds, COALESCE(SUM(rounds_out), 0) AS rounds_out, "
            "COALESCE(SUM(hand_rommes), 0) AS hand_rommes, MAX(best_round) AS best_round, "
            "MAX(points) AS best_match FROM rating_history WHERE guild_id = ? AND user_id = ?",
            guild_id,
            user_id,
        )
        beaten = await self._fetch(
            "SELECT DISTINCT beaten FROM rating_history WHERE guild_id = ? AND user_id = ? AND beaten <> ''",
            guild_id,
            user_id,
        )
        row = rows[0]
        return records.ProfileCounts(
            matches=int(row["matches"]),
            wins=int(row["wins"]),
            average_place=None if row["place"] is None else float(row["place"]),
            rounds=int(row["rounds"]),
            rounds_out=int(row["rounds_out"]),
            hand_rommes=int(row["hand_rommes"]),
            best_round=row["best_round"],
            best_match=row["best_match"],
            beaten=frozenset(level for line in beaten for level in line["beaten"].split(",")),
        )

    async def rated_matches(self, guild_id: int) -> list[records.RatedMatch]:
        """See :meth:`Database.rated_matches`."""
        rows = await self._fetch(
            "SELECT * FROM rated_matches WHERE guild_id = ? ORDER BY ended_at, game_id", guild_id
        )
        return [
            records.RatedMatch(
                row["game_id"],
                row["guild_id"],
                row["season"],
                self._stamp(row["ended_at"]),
                tuple(records.RatedSeat.of(seat) for seat in json.loads(row["seats"])),
            )
            for row in rows
        ]

    async def games_to_rate(self, guild_id: int | None = None) -> list[tuple[int, int, datetime]]:
        """See :meth:`Database.games_to_rate`."""
        where, params = ("AND guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
        rows = await self._fetch(
            f"SELECT id, guild_id, updated_at FROM games WHERE status = 'finished' {where} "
            "ORDER BY updated_at, id",
            *params,
        )
        return [(row["id"], row["guild_id"], self._stamp(row["updated_at"])) for row in rows]

    async def unrated_matches(self) -> list[tuple[int, int, datetime]]:
        """See :meth:`Database.unrated_matches`: one pass, each game's rated match looked up by
        its key."""
        rows = await self._fetch(
            "SELECT g.id, g.guild_id, g.updated_at FROM games g WHERE g.status = 'finished' "
            "AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.game_id = g.id) "
            "ORDER BY g.updated_at, g.id"
        )
        return [(row["id"], row["guild_id"], self._stamp(row["updated_at"])) for row in rows]

    def _change(self, row: read.Row) -> records.RatingChange:
        values = {name: row[name] for name in _CHANGE_COLUMNS}
        values["ended_at"] = self._stamp(row["ended_at"])
        values["won"], values["left_early"] = bool(row["won"]), bool(row["left_early"])
        return records.RatingChange(**values)


_CHANGE_COLUMNS = tuple(field.name for field in dataclasses.fields(records.RatingChange))


def _rating(row: read.Row) -> records.Rating:
    return records.Rating(
        row["guild_id"], row["season"], row["user_id"], row["mu"], row["sigma"], row["matches"], row["wins"]
    )
