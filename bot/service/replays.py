"""The finished matches of a server, and their replays: what ``/romme history`` and ``/romme replay``
ask for. A match is shown only to a member who may see it now (:func:`~bot.service.visibility.may_view`:
its server, and a channel the member can view), asked at every read, and only once it is over
(finished, or stopped): a replay never shows anything of a game still in play (R19).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.service.errors import TableError
from bot.service.game import Game
from bot.service.matchlog import MatchLog, NoReplay, export
from bot.service.visibility import Viewer, may_view, visible
from bot.storage import GameStatus, MoveRecord
from bot.storage.interface import Database

HISTORY_SIZE = 10
"""Matches ``/romme history`` lists (a button each: a message holds at most 25 components)."""
HISTORY_SCAN = 160
"""Finished matches read at most to fill one list with matches the member may see: past it, a
member who can view few of a busy server's channels gets a shorter list rather than a slow one."""


@dataclass(frozen=True, slots=True)
class WatchedMatch:
    """A finished match opened to be watched again: the game as it ended, its log, the replay (what
    :meth:`MatchArchive.open` gives; not the storage's :class:`~bot.storage.records.Replay`, the function
    that folds logged moves into a snapshot)."""

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


class RecentReplays:
    """The last few replays built, by game and version: a finished game's log changes no more (its
    version neither), so stepping through a replay neither reads the log nor replays the match
    again. Compacting old moves away (``HISTORY_DAYS``) :meth:`clear` s it.

    >>> cache = RecentReplays(2)
    >>> cache.get(1, 10) is None
    True
    """

    def __init__(self, size: int = 8) -> None:
        self._size = size
        self._replays: OrderedDict[tuple[int, int], WatchedMatch] = OrderedDict()

    def get(self, game_id: int, version: int) -> WatchedMatch | None:
        """The replay of game ``game_id`` at ``version``, if kept."""
        replay = self._replays.get((game_id, version))
        if replay is not None:
            self._replays.move_to_end((game_id, version))
        return replay

    def put(self, game_id: int, version: int, replay: WatchedMatch) -> None:
        """Keep ``replay``; the least recently used goes beyond the size."""
        self._replays[(game_id, version)] = replay
        self._replays.move_to_end((game_id, version))
        while len(self._replays) > self._size:
            self._replays.popitem(last=False)

    def clear(self) -> None:
        """Forget every replay (their moves may be gone)."""
        self._replays.clear()


class MatchArchive:
    """Reads finished matches from ``storage``; keeps the last replays built (:class:`RecentReplays`), so a
    viewer's next step does not replay the match again.

    >>> MatchArchive.__name__
    'MatchArchive'
    """

    def __init__(self, storage: Database, size: int = 8) -> None:
        self.storage = storage
        self.cache: RecentReplays = RecentReplays(size)

    async def history(
        self, viewer: Viewer, user_id: int | None = None, limit: int = HISTORY_SIZE
    ) -> list[tuple[Game, Any]]:
        """The last finished matches of the viewer's server (of ``user_id``, if given) that the
        viewer may see (:func:`~bot.service.visibility.may_view`), newest first: each game as it
        ended, with when it ended (a ``datetime``). A game that cannot be read is left out. Matches
        the viewer may not see are skipped, reading further back (at most :data:`HISTORY_SCAN`)."""
        known: dict[int, bool] = {}
        asked = limit
        while True:
            records = await self.storage.finished_games(viewer.guild_id, user_id=user_id, limit=asked)
            seen = await visible(viewer, records, known)
            if len(seen) >= limit or len(records) < asked or asked >= HISTORY_SCAN:
                break
            asked = min(asked * 4, HISTORY_SCAN)
        games = []
        for record in seen[:limit]:
            try:
                game = _game(record)
            except (ValueError, KeyError, TypeError):
                continue
            if game.match is not None:
                games.append((game, record.updated_at))
        return games

    async def open(self, game_id: int, viewer: Viewer) -> WatchedMatch:
        """The replay of game ``game_id``, for ``viewer``; asked again at every step of a viewer.
        Refused (:class:`TableError`): a game the viewer may not see, of another server or none at
        all (``replay.not_found``, one answer for the three: an id cannot be probed), a game not
        over (``replay.running``), a match with no replay (``replay.none``: logged before replays
        were, or its moves compacted away after ``HISTORY_DAYS``)."""
        record = await self.storage.get_game(game_id)
        if record is None or not await may_view(viewer, record):
            raise TableError("replay.not_found", game_id=game_id)
        if record.status is not GameStatus.FINISHED:
            raise TableError("replay.running", game_id=game_id)
        try:
            game = _game(record)
        except (ValueError, KeyError, TypeError):
            raise TableError("replay.none", game_id=game_id) from None
        known = self.cache.get(game_id, record.version)
        if known is not None:
            return known
        records = await self.storage.moves(game_id)
        try:
            log = MatchLog.build(game, records)
        except NoReplay:
            raise TableError("replay.none", game_id=game_id) from None
        replay = WatchedMatch(game, records, log)
        self.cache.put(game_id, record.version, replay)
        return replay


__all__ = ["HISTORY_SCAN", "HISTORY_SIZE", "MatchArchive", "RecentReplays", "WatchedMatch"]
