"""The process-wide settings of ``romme-bot`` (run in a child: they are process-wide)."""

from __future__ import annotations

import json
import subprocess
import sys

from bot.process import GC_THRESHOLDS, SWITCH_INTERVAL

CHILD = """
import gc, json
from bot.process import tune_gc
before = gc.get_threshold()
old = tune_gc()
print(json.dumps([list(old), list(before), list(gc.get_threshold()), gc.get_freeze_count()]))
"""


def test_tune_gc_freezes_what_is_alive_and_raises_the_thresholds() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True).stdout
    old, before, after, frozen = json.loads(out)
    assert old == before
    assert tuple(after) == GC_THRESHOLDS
    assert after[0] > before[0]
    # The imported modules' objects are in the permanent generation, no longer walked by collections.
    assert frozen > 1000


PROCESS_CHILD = """
import gc, json, sys
from bot.process import tune_process
before = sys.getswitchinterval()
tune_process()
print(json.dumps([before, sys.getswitchinterval(), list(gc.get_threshold())]))
"""


def test_tune_process_also_shortens_the_thread_switch_interval() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROCESS_CHILD], capture_output=True, text=True, check=True
    ).stdout
    before, after, thresholds = json.loads(out)
    assert after == SWITCH_INTERVAL < before
    assert tuple(thresholds) == GC_THRESHOLDS
