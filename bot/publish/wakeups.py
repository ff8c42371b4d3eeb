"""Many waits on one timer: a thousand tables held back by the failure budget cost one timer of the
event loop, not a thousand sleeping tasks.

When failures hold a table or a hand panel back (a game's pause after a failure, the bot-wide hold
of :class:`~bot.publish.faults.FailureBudget`), the publisher and the panel keeper wait here; the
second between two edits of one message is still a short task of its own. Each wait is a key and the
moment it ends; :class:`Wakeups` keeps them in a heap and arms a single ``loop.call_later`` for the
earliest, which calls back every key whose moment has come.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)

EARLY = 0.001
"""A wait that ends within this many seconds of a wake-up ends with it (a timer may fire a hair early)."""

__all__ = ["Wakeups"]


class Wakeups(Generic[K]):
    """Calls ``fire(key)`` once each key's wait is over; one timer of the running event loop for all.

    A key waits once: asking again moves its moment (sooner or later); :meth:`cancel` drops it.

    >>> async def demo() -> tuple[list[str], bool, int]:
    ...     fired: list[str] = []
    ...     wakeups = Wakeups(fired.append)
    ...     wakeups.after("b", 0.02); wakeups.after("a", 0.01); wakeups.after("c", 0.01)
    ...     wakeups.cancel("c")
    ...     await asyncio.sleep(0.05)
    ...     return fired, wakeups.waiting("c"), len(wakeups)
    >>> asyncio.run(demo())
    (['a', 'b'], False, 0)
    """

    def __init__(self, fire: Callable[[K], None]) -> None:
        self._fire = fire
        self._due: dict[K, float] = {}
        self._heap: list[tuple[float, int, K]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = math.inf

    def __len__(self) -> int:
        return len(self._due)

    def after(self, key: K, delay: float) -> None:
        """Call ``fire(key)`` in ``delay`` seconds (monotonic clock), instead of when it was due."""
        due = time.monotonic() + max(0.0, delay)
        self._due[key] = due
        heapq.heappush(self._heap, (due, next(self._order), key))
        if len(self._heap) > 2 * len(self._due) + 64:
            self._compact()
        self._arm()

    def within(self, key: K, delay: float) -> None:
        """Call ``fire(key)`` in ``delay`` seconds at the latest: sooner if it was due sooner.

        >>> async def demo() -> list[str]:
        ...     fired: list[str] = []
        ...     wakeups = Wakeups(fired.append)
        ...     wakeups.after("a", 0.01); wakeups.within("a", 10.0); wakeups.within("b", 0.02)
        ...     await asyncio.sleep(0.05)
        ...     return fired
        >>> asyncio.run(demo())
        ['a', 'b']
        """
        due = self._due.get(key)
        if due is None or due > time.monotonic() + max(0.0, delay):
            self.after(key, delay)

    def waiting(self, key: K) -> bool:
        """``key`` waits for its moment."""
        return key in self._due

    def cancel(self, key: K) -> None:
        """``key`` is not called back; the timer moves to the next wait (none is left armed for
        nothing: an armed timer is work still to come, for the event loop and for SimCord)."""
        if self._due.pop(key, None) is not None:
            self._arm()

    def close(self) -> None:
        """Drop every wait and the timer."""
        self._due.clear()
        self._heap.clear()
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_at = None, math.inf

    def _live_top(self) -> float | None:
        while self._heap:
            due, _, key = self._heap[0]
            if self._due.get(key) == due:
                return due
            heapq.heappop(self._heap)
        return None

    def _arm(self) -> None:
        """The timer is armed for the earliest wait, and only then."""
        due = self._live_top()
        if due is None:
            self.close()
            return
        if self._timer is not None and self._timer_at == due:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(max(0.0, due - time.monotonic()), self._wake)
        self._timer_at = due

    def _wake(self) -> None:
        self._timer, self._timer_at = None, math.inf
        now = time.monotonic()
        fired: list[K] = []
        while (due := self._live_top()) is not None and due <= now + EARLY:
            _, _, key = heapq.heappop(self._heap)
            del self._due[key]
            fired.append(key)
        for key in fired:
            try:
                self._fire(key)
            except Exception:
                log.exception("a delayed edit (%r) failed", key)
        self._arm()

    def _compact(self) -> None:
        self._heap = [entry for entry in self._heap if self._due.get(entry[2]) == entry[0]]
        heapq.heapify(self._heap)
