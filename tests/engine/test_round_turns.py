"""Round: seats, the deal, the order of a turn and the discard pile's lock (R1, R3, R5, R11, R12)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine.cards import Card, new_deck, parse_cards, shuffled_deck
from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet

C = Card.parse
P = parse_cards


def all_cards(rnd: Round) -> Counter[str]:
    data = rnd.to_dict()
    codes = [c for hand in data["hands"] for c in hand] + data["stock"] + data["discard"]
    codes += [c for melds in data["pending"] for m in melds for c in m["cards"]]
    codes += [c for tm in data["table"] for c in tm["cards"]]
    return Counter(codes)


def refused(rnd: Round, seat: int, move: Move) -> IllegalMove:
    """Apply ``move``, expect a refusal, and check that nothing changed."""
    before = rnd.to_dict()
    with pytest.raises(IllegalMove) as info:
        rnd.apply(seat, move)
    assert rnd.to_dict() == before
    return info.value


# -- R3, R5 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_seats", [2, 6])
def test_two_to_six_seats_can_be_dealt(n_seats: int) -> None:
    # R3
    rnd = Round.deal(n_seats, rng=random.Random(1))
    assert rnd.n_seats == n_seats


@pytest.mark.parametrize("n_seats", [1, 7])
def test_other_seat_counts_are_refused(n_seats: int) -> None:
    # R3
    with pytest.raises(IllegalMove) as info:
        Round.deal(n_seats, rng=random.Random(1))
    assert (info.value.code, info.value.rule) == ("seats.count", "R3")


def test_deal_gives_thirteen_cards_one_at_a_time_from_the_seat_after_the_dealer() -> None:
    # R5
    rnd = Round.deal(4, dealer=2, rng=random.Random(9))
    deck = shuffled_deck(4, random.Random(9))
    for k, seat in enumerate([3, 0, 1, 2]):
        assert rnd.hand(seat) == deck[k:52:4]
    assert rnd.discard_top == deck[52] and rnd.discard_count == 1
    assert rnd.stock_count == 108 - 53
    assert (rnd.to_play, rnd.phase, rnd.dealer) == (3, "draw", 2)
    assert rnd.draw(3, "stock") == deck[53]


@pytest.mark.parametrize("jokers", [2, 4, 6])
def test_the_deal_holds_the_whole_deck(jokers: int) -> None:
    # R1, R5
    rnd = Round.deal(6, rules=RuleSet(jokers=jokers), rng=random.Random(jokers))
    assert all_cards(rnd) == Counter(str(c) for c in new_deck(jokers))
    assert sum(all_cards(rnd).values()) == 104 + jokers


def test_the_last_seat_deals_and_seat_zero_plays_first() -> None:
    # R4
    rnd = Round.deal(3, dealer=2, rng=random.Random(3))
    assert rnd.to_play == 0


# -- R11 ------------------------------------------------------------------------------------------

TWO = ["5H 6H 7H 9C 2D", "KS KD KC 3D 4S"]


def test_a_turn_is_draw_then_discard_and_the_turn_moves_on() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H 10S", "QC", to_play=1)
    assert rnd.draw(1, "stock") == C("8H")
    assert rnd.phase == "play"
    rnd.discard(1, C("3D"))
    assert (rnd.to_play, rnd.phase, rnd.discard_top) == (0, "draw", C("3D"))
    assert rnd.draw(0, "discard") == C("3D")
    assert rnd.discard_top == C("QC")
    assert rnd.taken_from_discard == C("3D")


def test_nothing_but_a_draw_opens_a_turn() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H", "QC")
    assert refused(rnd, 0, Move.discard(C("2D"))).code == "turn.must_draw"
    assert refused(rnd, 0, Move.meld(P("5H 6H 7H"))).code == "turn.must_draw"
    assert refused(rnd, 0, Move.take_back()).code == "turn.must_draw"


def test_one_draw_per_turn() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H 10S", "QC")
    rnd.draw(0, "stock")
    err = refused(rnd, 0, Move.draw("discard"))
    assert (err.code, err.rule) == ("turn.already_drawn", "R11")


def test_only_the_seat_on_turn_moves() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H", "QC")
    err = refused(rnd, 1, Move.draw("stock"))
    assert (err.code, err.rule) == ("turn.not_your_turn", "R11")
    assert refused(rnd, 5, Move.draw("stock")).code == "seat.unknown"


def test_a_card_not_in_the_hand_cannot_be_discarded() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H", "QC")
    rnd.draw(0, "stock")
    assert refused(rnd, 0, Move.discard(C("AS"))).code == "card.not_in_hand"


def test_several_melds_in_one_turn_then_the_discard() -> None:
    # R11: any number of melds, lay-offs and swaps before the discard
    rnd = Round.from_position(
        ["5H 6H 7H KS KD KC 8H 2C", "3D 4D 9S"], "9H", "QC", table=[(1, "10C JC QC")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    rnd.meld(0, P("KS KD KC"))
    rnd.meld(0, P("5H 6H 7H 8H"))
    rnd.lay_off(0, P("9H"), "m3")
    assert [tm.id for tm in rnd.table] == ["m1", "m2", "m3"]
    rnd.discard(0, C("2C"))
    assert rnd.over and rnd.out == 0


def test_the_round_ignores_moves_once_over() -> None:
    # R11, R17
    rnd = Round.from_position(["9C 9D 9S", "3D 4D 9S"], "9H", "QC", opened=[True, False])
    rnd.draw(0, "stock")
    rnd.meld(0, P("9C 9D 9S"))
    rnd.discard(0, C("9H"))
    assert refused(rnd, 0, Move.draw("stock")).code == "round.over"
    assert rnd.actions(0) == frozenset() and rnd.actions(1) == frozenset()


# -- R12 ------------------------------------------------------------------------------------------


def test_the_card_taken_from_the_discard_pile_cannot_go_back() -> None:
    # R12
    rnd = Round.from_position(TWO, "8H", "9D")
    rnd.draw(0, "discard")
    err = refused(rnd, 0, Move.discard(C("9D")))
    assert (err.code, err.rule) == ("discard.taken_card", "R12")
    rnd.discard(0, C("2D"))
    assert rnd.discard_top == C("2D")


def test_a_stock_card_may_be_discarded_at_once() -> None:
    # R12 applies to the discard pile only
    rnd = Round.from_position(TWO, "8S", "9D")
    rnd.draw(0, "stock")
    rnd.discard(0, C("8S"))
    assert rnd.discard_top == C("8S")


def test_an_equal_card_counts_as_the_taken_card() -> None:
    # R12 with R1: the two 9C cannot be told apart, so neither may go back
    rnd = Round.from_position(["5H 6H 7H 9C 2D", "KS KD KC 3D"], "8H", "9C")
    rnd.draw(0, "discard")
    assert refused(rnd, 0, Move.discard(C("9C"))).code == "discard.taken_card"


def test_the_taken_card_may_go_back_when_it_is_the_last_card() -> None:
    # R12's exception, and going out by discarding (R17)
    rnd = Round.from_position(
        ["5H 6H 7H", "KS KD KC 3D"], "8H", "9D", table=[(0, "2S 3S 4S")], opened=[True, False]
    )
    rnd.draw(0, "discard")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.discard(0, C("9D"))
    assert rnd.over and rnd.out == 0


def test_proposing_all_but_the_taken_card_below_the_opening_is_refused() -> None:
    # R12, R13: proposed cards still count as hand, so the taken card would be locked in
    rnd = Round.from_position(["5H 6H 7H", "KS KD KC 3D"], "8H", "9D")
    rnd.draw(0, "discard")
    err = refused(rnd, 0, Move.meld(P("5H 6H 7H")))
    assert (err.code, err.rule) == ("opening.no_card_left", "R13")


def test_two_cards_equal_to_the_taken_card_may_go_when_nothing_else_is_left() -> None:
    # R12, R1: nothing else to discard, so one of the two equal cards goes
    rnd = Round.from_position(
        ["5H 6H 7H 9D", "KS KD KC 3D"], "8H", "9D", table=[(0, "2S 3S 4S")], opened=[True, False]
    )
    rnd.draw(0, "discard")
    rnd.meld(0, P("5H 6H 7H"))
    rnd.discard(0, C("9D"))
    assert rnd.hand(0) == [C("9D")] and rnd.to_play == 1


def test_an_empty_discard_pile_cannot_be_drawn() -> None:
    # R11
    rnd = Round.from_position(TWO, "8H", "")
    assert refused(rnd, 0, Move.draw("discard")).code == "draw.discard_empty"
    assert rnd.actions(0) == frozenset({"draw_stock"})
