"""Process-wide settings of a long-running bot: the garbage collector and the thread switch interval.

A bot with hundreds of tables keeps hundreds of thousands of small objects alive (cards, melds, seat
views). CPython's default collector thresholds make it walk all of them in a full collection every
few seconds, and each walk stops the event loop for as long as it takes — measured with
``bench/load.py`` at 500 tables: pauses up to 240 ms, which were the whole of the move p99.

:func:`tune_gc` does what long-running CPython services do about it: everything alive once the code
is imported goes to the permanent generation (:func:`gc.freeze`, never walked again); the young
generation is collected after 2,000 allocations instead of 700 (a walk of a few thousand objects,
about a millisecond, that frees one move's cyclic garbage), and the middle one only after 1,000 of
those instead of 10: what a table keeps (its round, melds, history) is walked again every two
minutes or so at 1,000 tables instead of every few seconds, and full collections become rare.
A larger young threshold is worse, not better: at 50,000 one young collection walked some 110,000
objects, 100-150 ms of a stopped event loop at 1,000 tables (``bench/load.py``'s ``gc_*`` figures).
Reference cycles are still collected; the bot avoids making them on its busy paths (a refused
lay-off, a replaced wake-up), so that the young collections stay small.

The storage's writer thread (:mod:`bot.storage.sqlite.writer`) needs the interpreter's lock between its
statements. A busy event loop gives it up only every ``sys.getswitchinterval()`` seconds, 5 ms by
default, so each save of a busy bot waited up to 5 ms several times over; :data:`SWITCH_INTERVAL`
makes that 1 ms (``bench/load.py --switch-interval`` tries others).

:func:`tune_process` applies both. It is called once by the command line (``romme-bot``, the
playground) and by the benchmarks, never by :func:`bot.client.create_bot`: tests build many bots in
one process and keep the defaults.
"""

from __future__ import annotations

import gc
import sys

GC_THRESHOLDS = (2_000, 1_000, 100)
"""Collector thresholds for generations 0, 1 and 2 (CPython's defaults are 700, 10, 10)."""

SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the interpreter's lock while another waits (CPython's default: 0.005)."""


def tune_gc() -> tuple[int, int, int]:
    """Freeze what is alive now and raise the collector's thresholds; returns the old thresholds.

    Call it once, after the imports and before the event loop starts serving.
    """
    old = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return old


def tune_process() -> None:
    """:func:`tune_gc`, and the thread switch interval set to :data:`SWITCH_INTERVAL`.

    Call it once, after the imports and before the event loop starts serving.
    """
    tune_gc()
    sys.setswitchinterval(SWITCH_INTERVAL)
