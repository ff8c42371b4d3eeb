"""What a club player remembers of a round, read from the public history of a seat's view (R19).

:func:`recall` turns the history (:mod:`bot.engine.history`) and the table into a :class:`Memory`:
which cards are dead (buried in the discard pile or on the table, so no meld can get them), and what
each seat took from the pile, threw away and let pass (the top card it left when it drew from the
stock). The hard computer decides its discards with it; the history holds only what every seat saw,
so the memory is the same a person at the table could keep.

>>> from bot.engine.round import Round
>>> import random
>>> rnd = Round.deal(2, rng=random.Random(3))
>>> top = rnd.discard_top
>>> _ = rnd.draw(1, "stock")
>>> memory = recall(rnd.seat_view(0).history, rnd.table)
>>> memory.passed[1] == [top], memory.dead[top]
(True, 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.engine.cards import Card
from bot.engine.history import PublicEvent
from bot.engine.table import TableMeld

__all__ = ["Memory", "recall"]


@dataclass(slots=True)
class Memory:
    """What the history tells: ``dead`` counts the copies of each natural card no seat can draw any
    more (under the top of the discard pile, or standing on the table, jokers' places included);
    ``taken``, ``discarded`` and ``passed`` list by seat the cards it took from the pile, discarded,
    and left on top of the pile when it drew from the stock."""

    dead: Counter[Card] = field(default_factory=Counter)
    taken: dict[int, list[Card]] = field(default_factory=dict)
    discarded: dict[int, list[Card]] = field(default_factory=dict)
    passed: dict[int, list[Card]] = field(default_factory=dict)

    def of(self, book: dict[int, list[Card]], seat: int) -> list[Card]:
        """``book[seat]``, empty for a seat it does not name."""
        return book.get(seat, [])


def recall(history: Sequence[PublicEvent], table: Iterable[TableMeld]) -> Memory:
    """The :class:`Memory` of ``history`` with the melds now on ``table``."""
    memory = Memory()
    pile: list[Card] = []
    for event in history:
        kind = event.kind
        if kind in ("upcard", "discard"):
            pile.append(event.cards[0])
            if kind == "discard":
                memory.discarded.setdefault(event.seat, []).append(event.cards[0])
        elif kind == "take":
            if pile:
                pile.pop()
            memory.taken.setdefault(event.seat, []).append(event.cards[0])
        elif kind == "draw_stock":
            if pile:
                memory.passed.setdefault(event.seat, []).append(pile[-1])
        elif kind == "reshuffle":
            pile = pile[-1:]
    dead = memory.dead
    dead.update(card for card in pile[:-1] if not card.is_joker)
    for tm in table:
        dead.update(card for card in tm.meld.stands_for if not card.is_joker)
    return memory
