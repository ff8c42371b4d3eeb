"""Which table melds the selected cards can go to: the options of the Lay off / Swap joker select.

The engine answers (:func:`bot.engine.queries.lay_off_targets`, :func:`bot.engine.queries.joker_swaps`)
from the seat's own view, so the select offers only targets the move can succeed on (R10, R15, R16);
this module only turns each answer into the select's :class:`~bot.render.ids.Target`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import queries
from bot.engine.cards import JOKER
from bot.engine.moves import Move
from bot.engine.views import RoundView
from bot.render.cards import parse_codes
from bot.render.ids import Target


def _meld_id(move: Move) -> str:
    assert move.meld_id is not None, "a lay-off and a joker swap name their table meld"
    return move.meld_id


def lay_off_targets(view: RoundView, selected: Sequence[str]) -> list[Target]:
    """The melds of ``view.table`` the ``selected`` cards can be laid off on together (R15); a joker
    on a run names the end it goes to when the engine offers a choice or only one end (R10)."""
    moves = queries.lay_off_targets(view, parse_codes(selected))
    return [Target(_meld_id(move), end=None if move.end is None else str(move.end)) for move in moves]


def swap_targets(view: RoundView, selected: Sequence[str]) -> list[Target]:
    """Joker swaps the ``selected`` cards allow (R16): one selected natural card goes in a joker's
    place in a table meld, and the freed joker with the other selected cards makes a new meld."""
    moves = queries.joker_swaps(view, parse_codes(selected))
    return [Target(_meld_id(move), card=str(move.card)) for move in moves]


def joker_places(view: RoundView, card: str) -> list[str]:
    """The ids of the table melds whose joker ``card`` (one natural card) can take the place of
    (R16), before the cards of the new meld are chosen.

    >>> from bot.engine.round import Round
    >>> rnd = Round.from_position(["7S 9H 9D 2C", "3D"], "", "KH", table=[(0, "5S 6S JK")])
    >>> joker_places(rnd.seat_view(0), "7S"), joker_places(rnd.seat_view(0), "9H")
    (['m1'], [])
    """
    (parsed,) = parse_codes([card])
    if parsed.is_joker:
        return []
    places = []
    for tm in view.table:
        if JOKER not in tm.cards:
            continue
        try:
            tm.meld.swap_joker(parsed)
        except ValueError:  # this card does not free this joker
            continue
        places.append(tm.id)
    return places
