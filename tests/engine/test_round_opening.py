"""Round: the opening, lay-offs and joker swaps (R13, R14, R15, R16)."""

from __future__ import annotations

import pytest

from bot.engine.cards import JOKER, Card, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet

C = Card.parse
P = parse_cards


def refused(rnd: Round, seat: int, move: Move) -> IllegalMove:
    """Apply ``move``, expect a refusal, and check that nothing changed."""
    before = rnd.to_dict()
    with pytest.raises(IllegalMove) as info:
        rnd.apply(seat, move)
    assert rnd.to_dict() == before
    return info.value


# -- R13 ------------------------------------------------------------------------------------------

OPENER = ["5H 6H 7H KS KD KC 2C 9D", "3D 4D 9S 8C"]


def test_a_meld_under_the_opening_is_only_proposed() -> None:
    # R13: 5-6-7 is 18 points, under 40
    rnd = Round.from_position(OPENER, "QH", "10C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    assert rnd.table == [] and not rnd.opened(0)
    assert [m.cards for m in rnd.pending(0)] == [tuple(P("5H 6H 7H"))]
    assert rnd.pending_points(0) == 18
    assert C("5H") not in rnd.hand(0) and rnd.hand_count(0) == 9
    assert rnd.view(1)["hand_counts"][0] == 9 and rnd.view(1)["pending"] == []
    assert rnd.view(0)["pending_points"] == 18


def test_melds_reaching_the_opening_go_to_the_table_together() -> None:
    # R13: 18 + 30 = 48 >= 40
    rnd = Round.from_position(OPENER, "QH", "10C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.meld(0, P("KS KD KC"))
    assert rnd.opened(0) and rnd.pending(0) == []
    assert [(tm.id, tm.owner, tm.points) for tm in rnd.table] == [("m1", 0, 18), ("m2", 0, 30)]
    assert rnd.hand(0) == P("2C 9D QH")


def test_exactly_the_opening_is_enough() -> None:
    # R13: 10 + 10 + 10 + 10 = 40
    rnd = Round.from_position(["10S 10H 10D 10C 2C", "3D 4D 9S"], "QH", "8C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("10S 10H 10D 10C"))
    assert rnd.opened(0)


def test_one_point_short_stays_proposed() -> None:
    # R13: 9 + 9 + 9 + 9 = 36 < 40
    rnd = Round.from_position(["9S 9H 9D 9C 2C", "3D 4D 9S"], "QH", "8C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("9S 9H 9D 9C"))
    assert not rnd.opened(0) and len(rnd.pending(0)) == 1


@pytest.mark.parametrize(("opening", "opened"), [(0, True), (9, True), (10, False), (120, False)])
def test_the_opening_is_a_house_rule(opening: int, opened: bool) -> None:
    # R13: 2-3-4 is 9 points
    rnd = Round.from_position(["2S 3S 4S 8C", "3D 4D 9S"], "QH", "8D", rules=RuleSet(opening=opening))
    rnd.draw(0, "stock")
    rnd.meld(0, P("2S 3S 4S"))
    assert rnd.opened(0) is opened


def test_take_back_returns_every_proposed_meld() -> None:
    # R13
    rnd = Round.from_position(OPENER, "QH", "10C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.take_back(0)
    assert rnd.pending(0) == [] and sorted(rnd.hand(0)) == sorted(P("5H 6H 7H KS KD KC 2C 9D QH"))
    err = refused(rnd, 0, Move.take_back())
    assert (err.code, err.rule) == ("take_back.nothing_pending", "R13")


def test_proposed_melds_come_back_when_the_turn_ends() -> None:
    # R13
    rnd = Round.from_position(OPENER, "QH", "10C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.discard(0, C("QH"))
    assert rnd.pending(0) == [] and rnd.table == []
    assert sorted(rnd.hand(0)) == sorted(P("5H 6H 7H KS KD KC 2C 9D"))


def test_the_card_taken_from_the_discard_pile_may_open() -> None:
    # R13: KH completes K K K K = 40
    rnd = Round.from_position(["KS KD KC 2C 9D", "3D 4D 9S"], "QH", "KH")
    rnd.draw(0, "discard")
    rnd.meld(0, P("KS KD KC KH"))
    assert rnd.opened(0)


def test_proposing_the_last_cards_below_the_opening_is_refused() -> None:
    # R13: nothing would be left to discard, and the proposal could not reach the table
    rnd = Round.from_position(["5H 6H", "3D 4D 9S"], "7H", "10C")
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.meld(P("5H 6H 7H")))
    assert (err.code, err.rule) == ("opening.no_card_left", "R13")


def test_an_illegal_meld_is_refused_with_its_rule() -> None:
    # R7, R8 through the round
    rnd = Round.from_position(OPENER, "QH", "10C")
    rnd.draw(0, "stock")
    assert refused(rnd, 0, Move.meld(P("5H 6H 9D"))).rule in {"R7", "R8"}
    assert refused(rnd, 0, Move.meld(P("5H 6H 7H 7H"))).code == "card.not_in_hand"


# -- R14, R15 -------------------------------------------------------------------------------------

LAY = ["8S 9H 9D 5S 2C 7S", "3D 4D 9S"]


def test_no_lay_off_before_the_opening() -> None:
    # R14
    rnd = Round.from_position(LAY, "QH", "10C", table=[(1, "5S 6S JK")])
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.lay_off(P("8S"), "m1"))
    assert (err.code, err.rule) == ("opening.not_opened", "R14")
    assert "lay_off" not in rnd.actions(0)


def test_no_joker_swap_before_the_opening() -> None:
    # R14
    rnd = Round.from_position(["7S 9H 9D 2C", "3D"], "QH", "10C", table=[(1, "5S 6S JK")])
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.swap_joker(C("7S"), "m1", P("9H 9D")))
    assert (err.code, err.rule) == ("opening.not_opened", "R14")


def test_lay_off_in_the_turn_of_the_opening() -> None:
    # R14: as soon as the opening melds reach 40
    rnd = Round.from_position(["KS KD KC KH 8S 2C", "3D"], "QH", "10C", table=[(1, "5S 6S JK")])
    rnd.draw(0, "stock")
    refused(rnd, 0, Move.lay_off(P("8S"), "m1"))
    rnd.meld(0, P("KS KD KC KH"))
    tm = rnd.lay_off(0, P("8S"), "m1")
    assert tm.cards == (C("5S"), C("6S"), JOKER, C("8S")) and tm.placed_by == (1, 1, 1, 0)


def test_lay_off_on_another_seats_meld_keeps_the_joker_in_place() -> None:
    # R15: 8S fits after 5-6-JK(7); the 7S does not (it would be a swap)
    rnd = Round.from_position(LAY, "QH", "10C", table=[(1, "5S 6S JK")], opened=[True, True])
    rnd.draw(0, "stock")
    refused(rnd, 0, Move.lay_off(P("7S"), "m1"))
    rnd.lay_off(0, P("8S"), "m1")
    assert rnd.table_meld("m1").owner == 1


def test_lay_off_at_the_low_end_keeps_the_seats_of_the_old_places() -> None:
    # R15, R20
    rnd = Round.from_position(["4S 3S 2C", "3D"], "QH", "10C", table=[(1, "5S 6S 7S")], opened=[True, True])
    rnd.draw(0, "stock")
    tm = rnd.lay_off(0, P("4S 3S"), "m1")
    assert tm.cards == tuple(P("3S 4S 5S 6S 7S")) and tm.placed_by == (0, 0, 1, 1, 1)


def test_lay_off_on_a_set_and_no_fifth_card() -> None:
    # R8, R15
    rnd = Round.from_position(
        ["QC QH 2C 3C", "3D"], "9H", "10C", table=[(1, "QS QD JK")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("QC"), "m1")
    refused(rnd, 0, Move.lay_off(P("QH"), "m1"))
    assert len(rnd.table_meld("m1").cards) == 4


def test_lay_off_on_a_missing_meld() -> None:
    # R15
    rnd = Round.from_position(LAY, "QH", "10C", table=[(1, "5S 6S JK")], opened=[True, True])
    rnd.draw(0, "stock")
    assert refused(rnd, 0, Move.lay_off(P("8S"), "m9")).code == "table.no_such_meld"
    assert refused(rnd, 0, Move.lay_off([], "m1")).code == "lay_off.no_cards"


# -- R16 ------------------------------------------------------------------------------------------

SWAP = ["5S 9H 9D 2C 7S", "3D"]


def test_joker_swap_frees_the_joker_into_a_new_meld() -> None:
    # R16
    rnd = Round.from_position(SWAP, "QH", "10C", table=[(1, "3S 4S JK 6S")], opened=[True, True])
    rnd.draw(0, "stock")
    meld = rnd.swap_joker(0, C("5S"), "m1", P("9H 9D"))
    assert sorted(meld.cards) == sorted([C("9H"), C("9D"), JOKER])
    old = rnd.table_meld("m1")
    assert old.cards == tuple(P("3S 4S 5S 6S")) and old.placed_by == (1, 1, 0, 1)
    new = rnd.table[-1]
    assert (new.id, new.owner, new.placed_by) == ("m2", 0, (0, 0, 0))
    assert sorted(rnd.hand(0)) == sorted(P("2C 7S QH"))


def test_joker_swap_needs_the_card_the_joker_stands_for() -> None:
    # R16
    rnd = Round.from_position(SWAP, "QH", "10C", table=[(1, "3S 4S JK 6S")], opened=[True, True])
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.swap_joker(C("7S"), "m1", P("9H 9D")))
    assert err.rule == "R16"


def test_joker_swap_needs_a_legal_new_meld() -> None:
    # R16: the joker is never kept in the hand
    rnd = Round.from_position(SWAP, "QH", "10C", table=[(1, "3S 4S JK 6S")], opened=[True, True])
    rnd.draw(0, "stock")
    refused(rnd, 0, Move.swap_joker(C("5S"), "m1", P("9H 2C")))
    refused(rnd, 0, Move.swap_joker(C("5S"), "m1", P("9H")))
    refused(rnd, 0, Move.swap_joker(C("5S"), "m1", []))
    assert refused(rnd, 0, Move.swap_joker(C("5S"), "m1", P("9H 9S"))).code == "card.not_in_hand"


def test_joker_swap_in_a_set_takes_a_lacking_suit() -> None:
    # R16: QS QH JK lacks D and C; either may free the joker
    table = [(1, "QS QH JK")]
    for card in ("QD", "QC"):
        rnd = Round.from_position([f"{card} 9H 9D 2C", "3D"], "8H", "10C", table=table, opened=[True, True])
        rnd.draw(0, "stock")
        rnd.swap_joker(0, C(card), "m1", P("9H 9D"))
        assert JOKER not in rnd.table_meld("m1").cards
    rnd = Round.from_position(["QS 9H 9D 2C", "3D"], "8H", "10C", table=table, opened=[True, True])
    rnd.draw(0, "stock")
    refused(rnd, 0, Move.swap_joker(C("QS"), "m1", P("9H 9D")))


def test_a_meld_without_a_joker_has_nothing_to_swap() -> None:
    # R16
    rnd = Round.from_position(SWAP, "QH", "10C", table=[(1, "3S 4S 5S")], opened=[True, True])
    rnd.draw(0, "stock")
    refused(rnd, 0, Move.swap_joker(C("5S"), "m1", P("9H 9D")))
    assert "swap_joker" not in rnd.actions(0)
