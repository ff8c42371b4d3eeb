"""The finished matches of a server, and their replays: what ``/romme history`` and ``/romme replay``
ask for. A match is shown only in the server where it was played, and only once it is over
(finished, or stopped): a replay never shows anything of a game still in play (R19).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service.errors import TableError
from bot.service.game import Game
from bot.service.matchlog import LogCache, MatchLog, NoReplay, export
from bot.storage import GameStatus, MoveRecord
from bot.storage.interface import Database

HISTORY_SIZE = 10
"""Matches ``/romme history`` lists (a button each: a message holds at most 25 components)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished match ready to be watched again: the game as it ended, its log, the replay."""

    game: Game
    records: list[MoveRecord]
    log: MatchLog

    def export(self) -> dict[str, Any]:
        """The match as its export document (``docs/match-format.md``)."""
        return export(self.game, self.records, self.log)


def _game(record: Any) -> Game:
    game = Game.from_snapshot(record.snapshot)
    game.id, game.version = record.id, record.version
    return game


class Replays:
    """Reads finished matches from ``storage``; keeps the last replays built (:class:`LogCache`), so a
    viewer's next step does not replay the match again.

    >>> Replays.__name__
    'Replays'
    """

    def __init__(self, storage: Database, cache: LogCache | None = None) -> None:
        self.storage = storage
        self.cache = cache if cache is not None else LogCache()

    async def history(
        self, guild_id: int, user_id: int | None = None, limit: int = HISTORY_SIZE
    ) -> list[tuple[Game, Any]]:
        """The server's last finished matches (of ``user_id``, if given), newest first: each game as
        it ended, with when it ended (a ``datetime``). A game that cannot be read is left out."""
        games = []
        for record in await self.storage.finished_games(guild_id, user_id=user_id, limit=limit):
            try:
                game = _game(record)
            except (ValueError, KeyError, TypeError):
                continue
            if game.match is not None:
                games.append((game, record.updated_at))
        return games

    async def open(self, game_id: int, guild_id: int) -> Replay:
        """The replay of game ``game_id``, asked for in server ``guild_id``. Refused
        (:class:`TableError`): no such game in this server (``replay.not_found``), a game not over
        (``replay.running``), a match with no replay (``replay.none``: logged before replays were,
        or its moves compacted away after ``HISTORY_DAYS``)."""
        record = await self.storage.get_game(game_id)
        if record is None or record.guild_id != guild_id:
            raise TableError("replay.not_found", game_id=game_id)
        if record.status is not GameStatus.FINISHED:
            raise TableError("replay.running", game_id=game_id)
        try:
            game = _game(record)
        except (ValueError, KeyError, TypeError):
            raise TableError("replay.none", game_id=game_id) from None
        records = await self.storage.moves(game_id)
        log = self.cache.get(game_id, len(records))
        if log is None:
            try:
                log = MatchLog.build(game, records)
            except NoReplay:
                raise TableError("replay.none", game_id=game_id) from None
            self.cache.put(game_id, len(records), log)
        return Replay(game, records, log)


__all__ = ["HISTORY_SIZE", "Replay", "Replays"]
