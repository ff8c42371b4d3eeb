"""What a click on a table or panel component asks the engine to do, read from its custom id alone.

The cog parses the id (:func:`bot.render.ids.parse_custom_id`), then asks :func:`click_move` for the
move; ``None`` means the click only changes the panel (Sort, the card select, Lay off / Swap joker
asking for their target, Hint) or is not a move at all (lobby buttons).

>>> from bot.render.ids import parse_custom_id
>>> click_move(parse_custom_id("romme:4:discard:9:s.7H"))
Move.from_dict({'kind': 'discard', 'card': '7H'})
>>> click_move(parse_custom_id("romme:4:target:9:sw.6H9C9D"), ["m1:6H"])
Move.from_dict({'kind': 'swap_joker', 'cards': ['9C', '9D'], 'card': '6H', 'meld_id': 'm1'})
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, parse_cards
from bot.engine.moves import DrawSource, Move
from bot.render.ids import CustomId, PanelState, cards_from_option_values, parse_target_value


class BadClick(ValueError):
    """A click whose id or values cannot be a move (forged, or a selection that makes no sense)."""


_PILE_MOVES: dict[str, Move] = {
    "draw": Move.draw(DrawSource.STOCK),
    "p_draw": Move.draw(DrawSource.STOCK),
    "take": Move.draw(DrawSource.DISCARD),
    "p_take": Move.draw(DrawSource.DISCARD),
    "takeback": Move.take_back(),
}
"""The buttons whose move needs no selection: the table's and the panel's Draw and Take, Take back."""


def click_move(custom_id: CustomId, values: Sequence[str] = ()) -> Move | None:
    """The engine move a click asks for, or ``None`` for a click that is not a move.

    ``values`` are the chosen values of a select (the target select). Raises :class:`BadClick` when
    the id's selection does not fit the action: Discard needs exactly one card, Meld at least one,
    a target needs one valid value, a swap's card must be among the selected ones.
    """
    action = custom_id.action
    if action in _PILE_MOVES:
        return _PILE_MOVES[action]
    if not custom_id.is_panel or action not in ("meld", "discard", "target", "drop"):
        return None
    if action == "drop":
        # The discard select: its one chosen value is the card (the second copy is "7H#2").
        chosen = cards_from_option_values(values)
        if chosen is None or len(chosen) != 1:
            raise BadClick("choose one card to discard")
        return Move.discard(Card.parse(chosen[0]))
    state = custom_id.panel_state()
    cards = parse_cards(state.cards)
    if action == "meld":
        if not cards:
            raise BadClick("select the cards to meld")
        return Move.meld(cards)
    if action == "discard":
        if len(cards) != 1:
            raise BadClick("select exactly one card to discard")
        return Move.discard(cards[0])
    return _target_move(state, cards, values)


def _target_move(state: PanelState, cards: list[Card], values: Sequence[str]) -> Move:
    """The lay-off or joker swap of the selected ``cards`` to the meld chosen in the target select."""
    target = parse_target_value(values[0]) if len(values) == 1 else None
    if target is None or state.mode is None or not cards:
        raise BadClick("choose one meld")
    if state.mode == "lay_off":
        if target.card is not None:
            raise BadClick("a lay-off names no card")
        return Move.lay_off(cards, target.meld_id, end=target.end)
    if target.card is None or target.end is not None:
        raise BadClick("a joker swap names the card for the joker")
    card = Card.parse(target.card)
    if card not in cards:
        raise BadClick("the card for the joker must be selected")
    rest = list(cards)
    rest.remove(card)
    return Move.swap_joker(card, target.meld_id, rest)
