"""The bot-wide budget of table edits: at most so many a second, tables with people first.

Discord lets a bot make about 50 REST calls a second in all (its global rate limit; interaction
answers do not count). A bot over it is answered 429 and discord.py then holds back *every* call,
the answers to people's clicks included. A few busy tables never come near it; hundreds do: 500
tables of computers moving every 1.5 s want 333 table edits a second. So every table edit is run
by one :class:`EditBudget`, which starts edits no closer than ``1 / rate`` seconds apart. A table
where a person plays goes before the tables where only computers play, so the people's tables stay
live and the others are redrawn as the budget allows. An edit that waits draws the table as it is
when its turn comes, so waiting merges edits instead of queueing them.

One task hands the turns out, sleeping between them; nothing waits on a bare future, so a test's
virtual clock (SimCord) sees every wait as a timer.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

EDITS_PER_SECOND = 40.0
"""Table edits a second for the whole bot: under Discord's 50, with room for announcements."""

Edit = Callable[[], Coroutine[Any, Any, None]]


class EditBudget:
    """Runs edits, at most ``rate`` a second (``rate`` 0: each at once), people's tables first.

    >>> async def demo():
    ...     budget, edited = EditBudget(rate=0), []
    ...     async def edit_table():
    ...         edited.append("table 1")
    ...     budget.request(1, people=True, edit=edit_table)
    ...     await asyncio.sleep(0)  # the edit runs in a task of its own
    ...     await budget.close()
    ...     return edited, budget.waiting
    >>> asyncio.run(demo())
    (['table 1'], 0)
    """

    def __init__(self, rate: float = EDITS_PER_SECOND) -> None:
        if rate < 0:
            raise ValueError(f"rate must be 0 (no limit) or more, not {rate}")
        self.gap = 1.0 / rate if rate else 0.0
        self._next = float("-inf")
        # Insertion-ordered: the first key waited longest. A key asked again keeps its place.
        self._people: dict[int, Edit] = {}
        self._computers: dict[int, Edit] = {}
        self._dispatcher: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """Edits waiting for their turn now."""
        return len(self._people) + len(self._computers)

    def request(self, key: int, *, people: bool, edit: Edit) -> None:
        """Run ``edit()`` in its turn; ``key`` (a channel) waits once however often it asks; ``people``:
        a person plays there, so it goes before the computers' tables."""
        now = time.monotonic()
        if not self.gap or (not self.waiting and now >= self._next):
            self._next = now + self.gap
            self._start(edit)
            return
        if people:
            self._computers.pop(key, None)
            self._people.setdefault(key, edit)
        elif key not in self._people:
            self._computers.setdefault(key, edit)
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.get_running_loop().create_task(
                self._hand_out(), name="romme-edit-budget"
            )

    def _start(self, edit: Edit) -> None:
        task = asyncio.get_running_loop().create_task(edit(), name="romme-table-edit")
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _hand_out(self) -> None:
        while self.waiting:
            delay = self._next - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
                continue  # a table with people may have asked meanwhile
            queue = self._people or self._computers
            key = next(iter(queue))
            self._next = time.monotonic() + self.gap
            self._start(queue.pop(key))

    async def close(self) -> None:
        """Drop the waiting edits, stop handing out turns, and cancel the edits under way."""
        self._people.clear()
        self._computers.clear()
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._dispatcher
        running = list(self._running)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
