"""Clicks read back into engine moves from their ids alone (no memory between clicks)."""

from __future__ import annotations

import pytest

from bot.engine.cards import Card, parse_cards
from bot.engine.moves import Move
from bot.render.actions import BadClick, click_move
from bot.render.ids import CustomId, Mode, PanelState, panel_id, parse_custom_id, public_id
from tests.render.render_helpers import our_id


def click(action: str, cards: str = "", mode: Mode | None = None) -> CustomId:
    parsed = parse_custom_id(panel_id(3, action, 8, PanelState("suit", mode, tuple(cards.split()))))
    assert parsed is not None
    return parsed


def test_draws_and_take_back() -> None:
    # R11, R13
    assert click_move(click("p_draw")) == Move.draw("stock")
    assert click_move(click("p_take")) == Move.draw("discard")
    assert click_move(our_id(public_id(3, "draw"))) == Move.draw("stock")
    assert click_move(our_id(public_id(3, "take"))) == Move.draw("discard")
    assert click_move(click("takeback", "7H")) == Move.take_back()


def test_meld_and_discard_use_the_selection() -> None:
    assert click_move(click("meld", "QS QH QD")) == Move.meld(parse_cards("QS QH QD"))
    assert click_move(click("discard", "10H")) == Move.discard(Card.parse("10H"))
    with pytest.raises(BadClick):
        click_move(click("discard", "10H 9H"))
    with pytest.raises(BadClick):
        click_move(click("meld"))


def test_targets_become_lay_offs_and_swaps() -> None:
    # R15, R10: a joker's end is chosen; R16: the swap card leaves the new meld's cards.
    assert click_move(click("target", "JK", "lay_off"), ["m2:low"]) == Move.lay_off(
        [Card.parse("JK")], "m2", "low"
    )
    assert click_move(click("target", "6H 9C 9D", "swap_joker"), ["m1:6H"]) == Move.swap_joker(
        Card.parse("6H"), "m1", parse_cards("9C 9D")
    )
    lay_off: Mode = "lay_off"
    swap: Mode = "swap_joker"
    for values, mode in ((["m1:6H"], lay_off), (["m1"], swap), (["m1:5S"], swap), ([], swap)):
        with pytest.raises(BadClick):
            click_move(click("target", "6H 9C 9D", mode), values)
    with pytest.raises(BadClick):
        click_move(click("target", "6H"), ["m1"])  # a target select always has a mode


@pytest.mark.parametrize("action", ["sort", "select", "hint", "layoff", "swap"])
def test_panel_only_clicks_are_no_move(action: str) -> None:
    assert click_move(click(action, "7H")) is None


@pytest.mark.parametrize(
    "action", ["join", "leave", "add_computer", "start", "cancel", "hand", "next", "again"]
)
def test_public_buttons_other_than_draw_are_no_move(action: str) -> None:
    assert click_move(our_id(public_id(3, action))) is None
