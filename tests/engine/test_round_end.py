"""Round: going out, the empty stock, and the three ways to score (R17, R18, R20, R21, R22)."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import Card, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.meld import make_meld
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet, Scoring
from bot.engine.table import place_points

C = Card.parse
P = parse_cards
HOUSE_DISCARD = RuleSet(discard_to_go_out=True)


def refused(rnd: Round, seat: int, move: Move) -> IllegalMove:
    """Apply ``move``, expect a refusal, and check that nothing changed."""
    before = rnd.to_dict()
    with pytest.raises(IllegalMove) as info:
        rnd.apply(seat, move)
    assert rnd.to_dict() == before
    return info.value


# -- R17 ------------------------------------------------------------------------------------------


def test_going_out_by_melding_the_last_cards() -> None:
    # R17
    rnd = Round.from_position(["5H 6H", "3D 4D"], "7H", "QC", opened=[True, False])
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    assert (rnd.over, rnd.out, rnd.phase) == (True, 0, "over")


def test_going_out_by_laying_off_the_last_card() -> None:
    # R17
    rnd = Round.from_position(["8S", "3D 4D"], "KD", "KH", table=[(1, "5S 6S 7S")], opened=[True, True])
    rnd.draw(0, "discard")
    rnd.lay_off(0, P("8S"), "m1")
    refused(rnd, 0, Move.lay_off(P("KH"), "m1"))
    rnd.discard(0, C("KH"))  # R12's exception: the last card
    assert rnd.out == 0


def test_going_out_by_opening_with_the_whole_hand() -> None:
    # R13, R17: the proposed melds reach the opening and the hand is empty
    rnd = Round.from_position(["KS KD KC QS QD", "3D 4D"], "QC", "2C")
    rnd.draw(0, "stock")
    rnd.meld(0, P("KS KD KC"))
    rnd.meld(0, P("QS QD QC"))
    assert rnd.out == 0 and rnd.opened(0)


def test_going_out_by_a_joker_swap() -> None:
    # R16, R17
    rnd = Round.from_position(["5S 9H", "3D"], "9D", "QC", table=[(1, "3S 4S JK 6S")], opened=[True, True])
    rnd.draw(0, "stock")
    rnd.swap_joker(0, C("5S"), "m1", P("9H 9D"))
    assert rnd.out == 0


def test_house_rule_last_card_must_be_discarded_refuses_melding_out() -> None:
    # R17 house rule
    rnd = Round.from_position(
        ["5H 6H", "3D 4D"], "7H", "QC", rules=HOUSE_DISCARD, opened=[True, False], table=[(0, "2S 3S 4S")]
    )
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.meld(P("5H 6H 7H")))
    assert (err.code, err.rule) == ("discard.must_keep_last", "R17")


def test_house_rule_refuses_laying_off_or_swapping_the_last_card() -> None:
    # R17 house rule
    table = [(1, "5S 6S 7S"), (1, "3C 4C JK 6C")]
    rnd = Round.from_position(["8S", "3D"], "KD", "KH", rules=HOUSE_DISCARD, table=table, opened=[True, True])
    rnd.draw(0, "discard")
    assert refused(rnd, 0, Move.lay_off(P("8S KH"), "m1")).rule in {"R7", "R15"}
    rnd.lay_off(0, P("8S"), "m1")  # keeps the KH to discard
    rnd.discard(0, C("KH"))
    assert rnd.out == 0
    rnd = Round.from_position(
        ["5C 9H", "3D"], "9D", "QC", rules=HOUSE_DISCARD, table=table, opened=[True, True]
    )
    rnd.draw(0, "stock")
    assert refused(rnd, 0, Move.swap_joker(C("5C"), "m2", P("9H 9D"))).code == "discard.must_keep_last"


def test_house_rule_refuses_opening_with_the_whole_hand() -> None:
    # R13, R17 house rule
    rnd = Round.from_position(["KS KD KC QS QD", "3D 4D"], "QC", "2C", rules=HOUSE_DISCARD)
    rnd.draw(0, "stock")
    rnd.meld(0, P("KS KD KC"))
    assert refused(rnd, 0, Move.meld(P("QS QD QC"))).code == "discard.must_keep_last"


def test_house_rule_still_lets_the_last_discard_go_out() -> None:
    # R17 house rule
    rnd = Round.from_position(["5H 6H 7H", "3D 4D"], "9C", "QC", rules=HOUSE_DISCARD, opened=[True, False])
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.discard(0, C("9C"))
    assert rnd.out == 0


def test_a_discard_that_leaves_cards_does_not_end_the_round() -> None:
    # R17
    rnd = Round.from_position(["5H 6H", "3D 4D"], "9C", "QC")
    rnd.draw(0, "stock")
    rnd.discard(0, C("9C"))
    assert not rnd.over and rnd.out is None
    with pytest.raises(IllegalMove) as info:
        rnd.result()
    assert info.value.code == "round.not_over"


# -- R18 ------------------------------------------------------------------------------------------


def test_an_empty_stock_is_made_anew_from_the_discard_pile_but_its_top() -> None:
    # R18
    rnd = Round.from_position(["5H 6H", "3D 4D"], "", "AC 2C 3C 4C 9D", rng=random.Random(4))
    expected = P("AC 2C 3C 4C")
    random.Random(4).shuffle(expected)
    card = rnd.draw(0, "stock")
    assert card == expected[0] and rnd.reshuffles == 1
    assert (rnd.discard_top, rnd.discard_count, rnd.stock_count) == (C("9D"), 1, 3)


def test_the_discard_pile_may_still_be_drawn_when_the_stock_is_empty() -> None:
    # R18 only binds a seat that draws from the stock
    rnd = Round.from_position(["5H 6H", "3D 4D"], "", "AC 9D")
    assert rnd.draw(0, "discard") == C("9D") and rnd.reshuffles == 0


def test_no_card_to_reshuffle_ends_the_round_with_no_seat_out() -> None:
    # R18
    rnd = Round.from_position(["5H 6H", "3D KD"], "", "9D")
    assert rnd.draw(0, "stock") is None
    assert rnd.over and rnd.out is None
    result = rnd.result()
    assert result.out is None and result.scores == (-11, -13) and not result.hand_romme


def test_the_fourth_reshuffle_ends_the_round() -> None:
    # R18: three reshuffles, then the round ends
    rnd = Round.from_position(["5H 6H 7H 8H", "3D 4D 5D 6D"], "", "AC 2C 9D", rng=random.Random(1))
    while not (rnd.reshuffles == 3 and rnd.stock_count == 0):
        seat = rnd.to_play
        assert rnd.draw(seat, "stock") is not None
        rnd.discard(seat, rnd.hand(seat)[0])
    assert not rnd.over
    seat = rnd.to_play
    assert rnd.draw(seat, "stock") is None
    assert rnd.over and rnd.out is None and rnd.reshuffles == 3


# -- R20 ------------------------------------------------------------------------------------------


def test_place_points_sum_to_the_meld_points() -> None:
    # R2, R10, R20: ace low 1, ace high 11
    for codes, points in [
        ("AS 2S 3S", [1, 2, 3]),
        ("QS KS AS", [10, 10, 11]),
        ("AS AH JK", [11, 11, 11]),
        ("5S 6S JK", [5, 6, 7]),
    ]:
        meld = make_meld(P(codes))
        assert place_points(meld) == points and sum(points) == meld.points


def test_a_full_run_counts_its_ace_high_at_each_place() -> None:
    # R10, R20: 95 points, the ace 11 wherever it lies
    meld = make_meld(P("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))
    points = dict(zip(meld.stands_for, place_points(meld), strict=True))
    assert points[C("AS")] == 11 and points[C("2S")] == 2 and sum(points.values()) == 95 == meld.points


def test_melds_minus_hand_counts_each_card_for_the_seat_that_put_it_down() -> None:
    # R20: seat 1 lays off 4D on seat 0's run; seat 0 lays off 9S and goes out by discarding
    table = [(0, "10S JS QS KS"), (1, "AH 2H 3H"), (0, "5D 6D 7D")]
    rnd = Round.from_position(["9S", "4D 9D KD JK"], "2C 8H", "QC", table=table, to_play=1)
    rnd.draw(1, "stock")
    rnd.lay_off(1, P("4D"), "m3")
    rnd.discard(1, C("2C"))
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("9S"), "m1")
    rnd.discard(0, C("8H"))
    result = rnd.result()
    assert result.out == 0
    assert result.melded == (9 + 40 + 18, 6 + 4)
    assert result.in_hand == (0, 9 + 10 + 20)
    assert result.scores == (67, 10 - 39)  # R20: it can be negative
    assert not result.hand_romme


def test_a_swapped_joker_counts_for_the_seat_that_last_put_it_down() -> None:
    # R20: seat 1's joker stood for 5S (5 points); seat 0 takes it into 9H 9D JK (9 points)
    rnd = Round.from_position(["5S 9H 9D", "3D"], "2C", "QC", table=[(1, "3S 4S JK 6S")], opened=[True, True])
    rnd.draw(0, "stock")
    rnd.swap_joker(0, C("5S"), "m1", P("9H 9D"))
    rnd.discard(0, C("2C"))
    result = rnd.result()
    assert result.melded == (5 + 27, 3 + 4 + 6)
    assert result.scores == (32, 13 - 3)


def test_an_ace_laid_off_below_the_two_counts_one() -> None:
    # R2, R20
    rnd = Round.from_position(["AS QD", "3D"], "2C", "QC", table=[(1, "2S 3S 4S")], opened=[True, True])
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("AS"), "m1")
    assert rnd.table_meld("m1").points_of(0) == 1
    assert rnd.table_meld("m1").points_of(1) == 9


# -- R21, R22 -------------------------------------------------------------------------------------


def test_penalty_scoring_counts_only_the_hands() -> None:
    # R21
    table = [(0, "10S JS QS KS"), (1, "AH 2H 3H")]
    rnd = Round.from_position(
        ["9S", "9D KD JK"], "8H", "QC", table=table, rules=RuleSet(scoring="penalty"), opened=[True, True]
    )
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("9S"), "m1")
    rnd.discard(0, C("8H"))
    result = rnd.result()
    assert result.scores == (0, -39) and result.melded == (49, 6)


def open_and_go_out(rules: RuleSet) -> Round:
    rnd = Round.from_position(["KS KD KC QS QD QC", "9S 4D"], "9C", "2C", rules=rules)
    rnd.draw(0, "stock")
    rnd.meld(0, P("KS KD KC"))
    rnd.meld(0, P("QS QD QC"))
    rnd.discard(0, C("9C"))
    return rnd


@pytest.mark.parametrize(("scoring", "loser"), [("melds", -26), ("penalty", -26)])
def test_hand_romme_doubles_what_the_others_lose(scoring: Scoring, loser: int) -> None:
    # R22: seat 0 opens and goes out in one turn
    result = open_and_go_out(RuleSet(hand_romme=True, scoring=scoring)).result()
    assert result.hand_romme and result.in_hand == (0, 13)
    assert result.scores == (60 if scoring == "melds" else 0, loser)


def test_without_the_house_rule_nothing_is_doubled() -> None:
    # R22 off
    result = open_and_go_out(RuleSet()).result()
    assert not result.hand_romme and result.scores == (60, -13)


def test_going_out_after_an_earlier_opening_is_no_hand_romme() -> None:
    # R22: the opening was in an earlier turn
    rnd = Round.from_position(
        ["KS KD KC QS QD QC 5H 6H", "9S 4D 2D"], "9C 3S 7H", "2C", rules=RuleSet(hand_romme=True)
    )
    rnd.draw(0, "stock")
    rnd.meld(0, P("KS KD KC"))
    rnd.meld(0, P("QS QD QC"))
    rnd.discard(0, C("9C"))
    rnd.draw(1, "stock")
    rnd.discard(1, C("3S"))
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))
    result = rnd.result()
    assert result.out == 0 and not result.hand_romme
    assert result.scores == (78, -15)
