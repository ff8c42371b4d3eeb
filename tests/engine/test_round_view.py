"""Round: what a seat sees, the move kinds it may try, and exact save and restore (R19)."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from bot.engine.cards import Card, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet

C = Card.parse
P = parse_cards

VIEW_KEYS = {
    "version", "seat", "n_seats", "dealer", "to_play", "phase", "rules", "hand", "pending",
    "pending_points", "hand_counts", "opened", "table", "stock_count", "discard_top", "discard_count",
    "reshuffles", "taken_from_discard", "opening_needed", "actions", "turn_no", "move_no", "out", "result",
    "history",
}  # fmt: skip


def test_a_view_holds_the_own_hand_and_only_counts_of_the_rest() -> None:
    # R19
    rnd = Round.deal(3, rng=random.Random(8))
    view = rnd.view(2)
    assert set(view) == VIEW_KEYS
    assert view["hand"] == [str(c) for c in rnd.hand(2)]
    assert view["hand_counts"] == [13, 13, 13] and view["stock_count"] == 68
    text = json.dumps(view)
    assert 'stock"' not in text.replace("stock_count", "")
    others = {str(c) for s in (0, 1) for c in rnd.hand(s)} - {str(c) for c in rnd.hand(2)}
    others -= {view["discard_top"]}
    assert not others & set(view["hand"])


def test_an_onlooker_sees_no_hand() -> None:
    # R19
    rnd = Round.deal(2, rng=random.Random(8))
    view = rnd.view(None)
    assert view["hand"] == [] and view["pending"] == [] and view["actions"] == []
    with pytest.raises(ValueError):
        rnd.view(2)


def test_proposed_melds_and_the_taken_card_show_only_to_their_seat() -> None:
    # R13, R19
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D 9S"], "QH", "KH")
    rnd.draw(0, "discard")
    rnd.meld(0, P("5H 6H 7H"))
    own, other = rnd.view(0), rnd.view(1)
    assert own["pending"][0]["cards"] == ["5H", "6H", "7H"] and own["pending_points"] == 18
    assert own["taken_from_discard"] == "KH" and own["opening_needed"] == 40
    assert other["pending"] == [] and other["pending_points"] == 0 and other["taken_from_discard"] is None
    assert other["hand_counts"] == [5, 3] and other["table"] == []


def test_the_view_shows_the_result_once_over() -> None:
    # R19, R20
    rnd = Round.from_position(["5H 6H", "3D KD"], "7H", "QC", opened=[True, False])
    assert rnd.view(1)["result"] is None
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    view = rnd.view(1)
    assert view["out"] == 0 and view["result"]["scores"] == [18, -13]
    assert view["table"][0] == {
        "id": "m1", "owner": 0, "kind": "run", "cards": ["5H", "6H", "7H"],
        "stands_for": ["5H", "6H", "7H"], "points": 18, "placed_by": [0, 0, 0],
    }  # fmt: skip


def test_actions_follow_the_phase_and_the_opening() -> None:
    # R11, R13, R14
    rnd = Round.from_position(["5H 6H 7H 8S", "3D"], "QH", "KH", table=[(1, "3S 4S JK")])
    assert rnd.actions(0) == {"draw_stock", "draw_discard"} and rnd.actions(1) == frozenset()
    rnd.draw(0, "stock")
    assert rnd.actions(0) == {"meld", "discard"}
    rnd.meld(0, P("5H 6H 7H"))
    assert rnd.actions(0) == {"discard", "take_back"}
    rnd.take_back(0)
    rnd.discard(0, C("QH"))
    assert rnd.actions(0) == frozenset() and rnd.actions(1) == {"draw_stock", "draw_discard"}


def test_actions_after_the_opening_offer_lay_offs_and_swaps() -> None:
    # R14-R16
    rnd = Round.from_position(["5S 9H 9D 2C", "3D"], "QH", "KH", table=[(1, "3S 4S JK")], opened=[True, True])
    rnd.draw(0, "stock")
    assert rnd.actions(0) == {"meld", "discard", "lay_off", "swap_joker"}


def test_to_dict_and_from_dict_restore_everything() -> None:
    # R13, R18, R19: pending melds, the stock order and the random state survive
    rnd = Round.from_position(
        ["5H 6H 7H 2C", "3D 4D 9S"], "", "AS 2S 3S QH KH", table=[(1, "3C 4C JK")], rng=random.Random(3)
    )
    rnd.draw(0, "stock")  # a reshuffle
    rnd.meld(0, P("5H 6H 7H"))
    data = rnd.to_dict()
    assert json.loads(json.dumps(data)) == data and data["version"] == 2
    again = Round.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    for r in (rnd, again):
        r.take_back(0)
        r.discard(0, C("2C"))
        r.draw(1, "stock")
    assert again.to_dict() == rnd.to_dict()
    assert again._rng.random() == rnd._rng.random()


def test_a_secure_round_restores_without_a_random_state() -> None:
    # R19: SystemRandom has no state to save
    rnd = Round.deal(2)
    data = rnd.to_dict()
    assert data["rng"] is None
    assert Round.from_dict(data).to_dict() == data


def test_a_snapshot_of_another_version_is_refused() -> None:
    data = Round.deal(2, rng=random.Random(1)).to_dict()
    with pytest.raises(ValueError):
        Round.from_dict({**data, "version": 3})


def test_apply_dispatches_every_kind_and_refuses_a_bare_discard() -> None:
    # R11
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D 9S"], "QH", "KH", rules=RuleSet(opening=0))
    assert rnd.apply(0, Move.draw("stock")) == C("QH")
    assert rnd.apply(0, Move.meld(P("5H 6H 7H"))).points == 18
    with pytest.raises(IllegalMove):
        rnd.apply(0, Move("discard"))
    rnd.apply(0, Move.from_dict({"kind": "discard", "card": "2C"}))
    assert rnd.to_play == 1


def test_moves_travel_as_json() -> None:
    # R11
    moves = [
        Move.draw("discard"),
        Move.meld(P("5H 6H JK")),
        Move.take_back(),
        Move.lay_off(P("JK"), "m2", end="low"),
        Move.swap_joker(C("7S"), "m1", P("9H 9D")),
        Move.discard(C("10C")),
    ]
    for move in moves:
        assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move
    for bad in ({"kind": "pass"}, {"kind": "draw", "source": "table"}, {"kind": "discard", "x": 1}):
        with pytest.raises(ValueError):
            Move.from_dict(bad)


def test_a_round_needs_its_dealer_and_seat_on_turn_among_its_seats() -> None:
    with pytest.raises(ValueError):
        Round.deal(3, dealer=3)
    with pytest.raises(ValueError):
        Round.from_position(["5H", "6H"], "", "", to_play=2)


def test_views_show_the_table_as_it_is_and_are_each_their_own_copy() -> None:
    # R19: every view shows the current table; changing one view changes no other view
    rnd = Round.from_position(
        ["5H 6H 7H 8H 6C", "3D 4D 9S"], "", "QH KH", table=[(0, "3C 4C JK")], rules=RuleSet(opening=0)
    )
    first = rnd.view(0)
    assert first["table"] == [tm.to_dict() for tm in rnd.table]
    first["table"][0]["cards"].append("KD")
    first["table"][0]["placed_by"][0] = 9
    first["rules"]["opening"] = 120
    again = rnd.view(1)
    assert again["table"] == [tm.to_dict() for tm in rnd.table] and again["rules"]["opening"] == 0
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("6C"), rnd.table[0].id)
    assert rnd.view(1)["table"] == [tm.to_dict() for tm in rnd.table]
    assert rnd.view(1)["table"][0]["cards"] == ["3C", "4C", "JK", "6C"]


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(jokers=6, opening=0, scoring="penalty", rounds=3)])
def test_the_rules_dict_is_the_asdict_one_and_each_call_its_own(rules: RuleSet) -> None:
    # R19: views and saves show the rules as they are; the dict is worked out once per rule set, so a
    # caller that changes its copy must not change the next one
    first = rules.to_dict()
    assert json.dumps(first) == json.dumps(asdict(rules))  # key order included
    first["opening"] = 120
    first["jokers"] = 2
    assert rules.to_dict() == asdict(rules) and rules.to_dict() is not rules.to_dict()
    assert RuleSet.from_dict(rules.to_dict()) == rules
