"""One pending wake-up per game: the next computer move, the turn timer, or the next round.

The table service decides what to wake up for; this module only keeps at most one sleeping task per
game and replaces it when the game changes. Sleeping uses ``asyncio.sleep``, so a virtual event-loop
clock (SimCord's) drives it in tests.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass
class _Wake:
    task: asyncio.Task[None]
    sleeping: bool = True


class GameTimers:
    """At most one scheduled wake-up per game id.

    A new :meth:`schedule` cancels the game's previous wake-up while it still sleeps; a wake-up that
    is already running is left to finish (it re-checks the game under the game's lock, and
    cancelling it halfway through a save or a listener call would help no one).

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

    def schedule(self, game_id: int, delay: float, fire: Callable[[], Awaitable[None]]) -> None:
        """Run ``fire()`` after ``delay`` seconds, replacing the game's previous wake-up."""
        if self._closed:
            return
        self.cancel(game_id)
        wake = _Wake(task=None)  # type: ignore[arg-type]  # set right below; the task reads it later

        async def run() -> None:
            await asyncio.sleep(max(0.0, delay))
            wake.sleeping = False
            try:
                await fire()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: a timed action failed", game_id)
            finally:
                if self._wakes.get(game_id) is wake:
                    del self._wakes[game_id]

        wake.task = asyncio.get_running_loop().create_task(run(), name=f"romme-game-{game_id}")
        self._wakes[game_id] = wake

    def cancel(self, game_id: int) -> None:
        """Cancel the game's wake-up if it is still sleeping; forget it either way."""
        wake = self._wakes.pop(game_id, None)
        if wake is not None and wake.sleeping and wake.task is not asyncio.current_task():
            wake.task.cancel()

    def pending(self, game_id: int) -> bool:
        """Whether the game has a wake-up scheduled or running."""
        return game_id in self._wakes

    async def close(self) -> None:
        """Cancel every wake-up and wait for them to end; no new ones are accepted."""
        self._closed = True
        tasks = [wake.task for wake in self._wakes.values() if wake.task is not asyncio.current_task()]
        self._wakes.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
