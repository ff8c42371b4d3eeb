"""One pending wake-up per game: the next computer move, the turn timer, or the next round.

The table service decides what to wake up for; this module only keeps at most one wake-up per game
and replaces it when the game changes (or keeps it, when it is scheduled again under the same key).
Sleeping is a timer of the event loop (``loop.call_later``), so a virtual event-loop clock
(SimCord's) drives it in tests.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass

from bot.logs import about_game

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Wake:
    """A game's wake-up: a timer handle while it sleeps, the task of ``fire()`` once it runs."""

    handle: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None
    key: Hashable = None


class GameTimers:
    """At most one scheduled wake-up per game id.

    A new :meth:`schedule` cancels the game's previous wake-up while it still sleeps; a wake-up that
    is already running is left to finish (it re-checks the game under the game's lock, and
    cancelling it halfway through a save or a listener call would help no one).

    A sleeping wake-up is a timer handle of the event loop (``loop.call_later``), not a task
    sleeping in ``asyncio.sleep``: every move replaces one, and a cancelled task leaves its
    ``CancelledError``, traceback and frames in a reference cycle for the garbage collector, where
    a cancelled handle leaves nothing. The task is made when the wake-up fires.

    A wake-up scheduled with a ``key`` (say, the deadline it is for) is kept, not replaced, by a
    :meth:`schedule` with the same key while it still sleeps: a move within one turn leaves the
    turn's timer as it is instead of cancelling one timer and making another.

    >>> async def demo():
    ...     timers, fired = GameTimers(), []
    ...     async def fire():
    ...         fired.append("second")
    ...     timers.schedule(1, 10.0, fire)
    ...     timers.schedule(1, 0.0, fire)  # replaces the first
    ...     await asyncio.sleep(0.01)
    ...     await timers.close()
    ...     return fired
    >>> asyncio.run(demo())
    ['second']
    """

    def __init__(self) -> None:
        self._wakes: dict[int, _Wake] = {}
        self._closed = False

    def schedule(
        self, game_id: int, delay: float, fire: Callable[[], Awaitable[None]], *, key: Hashable = None
    ) -> None:
        """Run ``fire()`` after ``delay`` seconds, replacing the game's previous wake-up; but if that
        one still sleeps and was scheduled with the same ``key`` (not ``None``), keep it instead.

        >>> async def demo():
        ...     timers, fired = GameTimers(), []
        ...     async def fire(what):
        ...         fired.append(what)
        ...     timers.schedule(1, 0.01, lambda: fire("first"), key="turn 1")
        ...     timers.schedule(1, 0.0, lambda: fire("second"), key="turn 1")  # kept: the first
        ...     await asyncio.sleep(0.02)
        ...     return fired
        >>> asyncio.run(demo())
        ['first']
        """
        if self._closed:
            return
        kept = self._wakes.get(game_id)
        if key is not None and kept is not None and kept.handle is not None and kept.key == key:
            return
        self.cancel(game_id)
        wake = _Wake(key=key)
        loop = asyncio.get_running_loop()
        wake.handle = loop.call_later(max(0.0, delay), self._start, loop, game_id, wake, fire)
        self._wakes[game_id] = wake

    def _start(
        self,
        loop: asyncio.AbstractEventLoop,
        game_id: int,
        wake: _Wake,
        fire: Callable[[], Awaitable[None]],
    ) -> None:
        wake.handle = None
        wake.task = loop.create_task(self._run(game_id, wake, fire), name=f"romme-game-{game_id}")

    async def _run(self, game_id: int, wake: _Wake, fire: Callable[[], Awaitable[None]]) -> None:
        try:
            with about_game(game_id):
                await fire()
        except asyncio.CancelledError:
            raise
        except Exception:
            with about_game(game_id):
                log.exception("game %s: a timed action failed", game_id)
        finally:
            if self._wakes.get(game_id) is wake:
                del self._wakes[game_id]

    def cancel(self, game_id: int) -> None:
        """Cancel the game's wake-up if it is still sleeping; forget it either way."""
        wake = self._wakes.pop(game_id, None)
        if wake is not None and wake.handle is not None:
            wake.handle.cancel()
            wake.handle = None

    def pending(self, game_id: int) -> bool:
        """Whether the game has a wake-up scheduled or running."""
        return game_id in self._wakes

    def sleeping(self, game_id: int) -> Hashable:
        """The key of the game's wake-up while it still sleeps (``None``: no key, or none sleeping).

        >>> async def demo():
        ...     timers = GameTimers()
        ...     async def fire():
        ...         pass
        ...     timers.schedule(1, 60.0, fire, key=("turn", 1060.0))
        ...     asleep = timers.sleeping(1), timers.sleeping(2)
        ...     await timers.close()
        ...     return asleep
        >>> asyncio.run(demo())
        (('turn', 1060.0), None)
        """
        wake = self._wakes.get(game_id)
        return None if wake is None or wake.handle is None else wake.key

    async def close(self) -> None:
        """Cancel every wake-up and wait for them to end; no new ones are accepted."""
        self._closed = True
        wakes = list(self._wakes.values())
        self._wakes.clear()
        tasks: list[asyncio.Task[None]] = []
        for wake in wakes:
            if wake.handle is not None:
                wake.handle.cancel()
            elif wake.task is not None and wake.task is not asyncio.current_task():
                wake.task.cancel()
                tasks.append(wake.task)
        await asyncio.gather(*tasks, return_exceptions=True)
