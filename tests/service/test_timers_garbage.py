"""Replacing a game's wake-up leaves nothing for the cycle collector (issue 17).

Every move replaces its game's wake-up (the next computer move, the turn timer). A sleeping task,
cancelled, keeps its ``CancelledError``, traceback and frames in a reference cycle that only the
garbage collector frees: at 1,000 tables that was a few thousand objects a second for every young
collection to walk, and a stop of the event loop for every table. A replaced wake-up must be freed
by reference counting alone.
"""

from __future__ import annotations

import asyncio
import gc

from bot.service.timers import GameTimers

from .conftest import wait_for


async def test_replaced_wake_ups_leave_no_cyclic_garbage() -> None:
    timers = GameTimers()
    fired: list[int] = []

    async def fire() -> None:
        fired.append(1)

    timers.schedule(1, 60.0, fire)
    await asyncio.sleep(0)
    gc.collect()
    gc.disable()
    try:
        for _ in range(200):
            timers.schedule(1, 60.0, fire)  # each replaces the one before, still sleeping
            await asyncio.sleep(0)
        found = gc.collect()
    finally:
        gc.enable()
        await timers.close()
    assert found == 0
    assert fired == []


async def test_a_wake_up_still_fires_after_its_delay() -> None:
    timers = GameTimers()
    fired = asyncio.Event()

    async def fire() -> None:
        fired.set()

    timers.schedule(7, 0.01, fire)
    assert timers.pending(7)
    await asyncio.wait_for(fired.wait(), 2.0)
    await asyncio.sleep(0)
    assert not timers.pending(7)
    await timers.close()


async def test_a_wake_up_scheduled_again_with_its_key_is_kept() -> None:
    # A move within a turn schedules the turn's timer again for the same deadline: the sleeping one
    # is kept (no timer cancelled and made anew, none left cancelled in the loop's heap).
    loop = asyncio.get_running_loop()
    timers = GameTimers()
    fired: list[int] = []

    async def fire(n: int) -> None:
        fired.append(n)

    timers.schedule(1, 0.05, lambda: fire(1), key=("turn", 5.0))
    handles = len(loop._scheduled)  # type: ignore[attr-defined]  # CPython's timer heap
    for n in range(2, 40):
        timers.schedule(1, 0.0, lambda n=n: fire(n), key=("turn", 5.0))  # type: ignore[misc]
    assert len(loop._scheduled) == handles  # type: ignore[attr-defined]
    assert timers.sleeping(1) == ("turn", 5.0)
    # The first wake-up to fire is the kept one (the later ones, due at once, would have come first).
    await wait_for(lambda: bool(fired))
    assert fired == [1]
    # Another key (the next turn's deadline) or none replaces it.
    timers.schedule(1, 0.05, lambda: fire(2), key=("turn", 6.0))
    timers.schedule(1, 0.0, lambda: fire(3), key=("turn", 7.0))
    await wait_for(lambda: len(fired) > 1)
    assert fired == [1, 3] and timers.sleeping(1) is None
    await timers.close()
