"""How long a finished match's moves are kept (``HISTORY_DAYS``): :class:`Retention` compacts older
ones away now and then. Only the moves go (a busy bot's log grows by gigabytes a month otherwise);
a game's row, its round scores, match results and statistics stay, so nothing a player sees of
scores or standings changes, only the replay of those matches is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from datetime import UTC, datetime, timedelta

from bot.storage.interface import Database

log = logging.getLogger(__name__)

COMPACT_EVERY = 6 * 3600.0
"""Seconds between two compactions while the bot runs (the first one runs at start)."""


@dataclass(eq=False)
class Retention:
    """Compacts the moves of matches over for more than ``days`` days (0: never), at start and every
    :data:`COMPACT_EVERY` seconds after. ``clock`` gives epoch seconds: the bot's clock, the one the
    storage stamps a game's saves with (there is no default: a match's age is measured on the clock
    that timed it, never on another); ``compacted`` is called after moves were deleted.

    >>> july_1st = datetime(2026, 7, 1, tzinfo=UTC).timestamp()
    >>> Retention(None, 180, clock=lambda: july_1st).cutoff().isoformat()
    '2026-01-02T00:00:00+00:00'
    """

    storage: Database
    days: int
    _: KW_ONLY
    clock: Callable[[], float]
    every: float = COMPACT_EVERY
    compacted: Callable[[], None] = lambda: None
    """Told after moves were deleted (the replays built of them are forgotten)."""
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def cutoff(self) -> datetime:
        """The last save before which a match's moves go: ``days`` before now, on the clock."""
        return datetime.fromtimestamp(self.clock(), UTC) - timedelta(days=self.days)

    async def compact(self) -> int:
        """Compact once now; the moves deleted (0 when ``days`` is 0)."""
        if self.days <= 0:
            return 0
        deleted = await self.storage.compact_moves(self.cutoff())
        if deleted:
            self.compacted()
            log.info("compacted %d moves of matches over for more than %d days", deleted, self.days)
        return deleted

    def start(self) -> None:
        """Compact now and every :data:`COMPACT_EVERY` seconds, until :meth:`close`."""
        if self.days > 0 and self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self.compact()
            except Exception:
                log.exception("compacting old moves failed; trying again later")
            await asyncio.sleep(self.every)

    async def close(self) -> None:
        """Stop compacting (a compaction under way is one transaction: it commits or rolls back)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
