"""Which table melds the selected cards can go to: the options of the Lay off / Swap joker select.

Asked of the engine's own meld rules (``Meld.extend``, ``Meld.swap_joker``, ``make_meld``) on the public
table of a seat's view, so the select offers only targets the move can succeed on (R10, R15, R16).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.cards import JOKER, Card
from bot.engine.meld import Meld, make_meld
from bot.engine.rules import RuleSet
from bot.render.ids import Target


def _meld_of(table_meld: dict[str, Any]) -> Meld:
    return Meld.from_dict({key: table_meld[key] for key in ("kind", "cards", "stands_for", "points")})


def lay_off_targets(view: dict[str, Any], selected: Sequence[str]) -> list[Target]:
    """The melds of ``view["table"]`` the ``selected`` cards can be laid off on together (R15).

    A joker laid off on a run may go to either end (R10): when both ends work and give different
    runs, both are offered.
    """
    if not selected:
        return []
    cards = [Card.parse(code) for code in selected]
    targets = []
    for table_meld in view["table"]:
        meld = _meld_of(table_meld)
        ends: tuple[str | None, ...] = ("high", "low") if JOKER in cards and meld.kind == "run" else (None,)
        results: dict[str | None, Meld] = {}
        for end in ends:
            try:
                results[end] = meld.extend(cards, end=end)  # type: ignore[arg-type]
            except ValueError:  # IllegalMove is a ValueError: this end does not take the cards
                continue
        if len(results) == 2 and results["high"] == results["low"]:
            results = {None: results["high"]}
        targets += [Target(table_meld["id"], end=end) for end in results]
    return targets


def swap_targets(view: dict[str, Any], selected: Sequence[str]) -> list[Target]:
    """Joker swaps the ``selected`` cards allow (R16): one selected natural card goes in a joker's
    place in a table meld, and the freed joker with the other selected cards makes a new meld."""
    if len(selected) < 3:
        return []
    rules = RuleSet.from_dict(view["rules"])
    targets = []
    for table_meld in view["table"]:
        if "JK" not in table_meld["cards"]:
            continue
        meld = _meld_of(table_meld)
        for code in dict.fromkeys(selected):
            if code == "JK":
                continue
            rest = list(selected)
            rest.remove(code)
            try:
                meld.swap_joker(Card.parse(code))
                make_meld([*(Card.parse(c) for c in rest), JOKER], rules)
            except ValueError:  # IllegalMove: this card does not free this joker, or no new meld
                continue
            targets.append(Target(table_meld["id"], card=code))
    return targets
