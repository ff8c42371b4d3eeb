"""A refused move leaves no garbage that only the cycle collector can free.

The computer player tries thousands of lay-offs a second; each refusal raises ``IllegalMove``. An
exception kept in a local of a frame its own traceback holds is a reference cycle: it lives, with
every frame it went through and their locals, until the garbage collector walks the young
generation, and at 1,000 tables those walks stopped the event loop for 100-300 ms (bench/load.py's
``gc_*`` figures, issue 17). Reference counting alone must free a refusal.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import pytest

from bot.engine.cards import parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.meld import make_meld


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector switched off, so that only reference counting frees what the test drops."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def cyclic_garbage_after(attempt: Callable[[], object]) -> int:
    """How many objects ``gc.collect`` finds unreachable after ``attempt`` raised IllegalMove."""
    gc.collect()
    with pytest.raises(IllegalMove):
        attempt()
    return gc.collect()


# R7, R15
@pytest.mark.usefixtures("collector_off")
@pytest.mark.parametrize(
    ("meld", "layoff"),
    [
        ("5H 6H 7H", "10H"),  # a gap: refused from both ends
        ("5S 6S 7S", "AS"),  # an ace that fits neither high nor low
        ("QD KD AD", "2D"),  # around the corner
    ],
)
def test_a_refused_lay_off_on_a_run_leaves_no_cycle(meld: str, layoff: str) -> None:
    run = make_meld(parse_cards(meld))
    found = cyclic_garbage_after(lambda: run.extend(parse_cards(layoff)))
    assert found == 0
