"""Rule questions asked of a seat's view: lay-off targets, joker swaps, the hint, a meld's points."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.engine.cards import Card, parse_cards
from bot.engine.computer import ComputerPlayer
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.meld import End
from bot.engine.moves import Move
from bot.engine.queries import hint, joker_swaps, lay_off_targets, meld_points
from bot.engine.round import Round
from bot.engine.rules import RuleSet

C = Card.parse
P = parse_cards


def played(hand: str, table: list[tuple[int, str]], *, rules: RuleSet | None = None) -> Round:
    """Seat 0, opened, in its play phase with ``hand`` plus the drawn 2C; seat 1 holds one card."""
    rnd = Round.from_position([hand, "3D"], "2C", "KH", table=table, opened=[True, True], rules=rules)
    rnd.draw(0, "stock")
    return rnd


def targets(rnd: Round, cards: str) -> list[tuple[str | None, End | None]]:
    return [(move.meld_id, move.end) for move in lay_off_targets(rnd.seat_view(0), P(cards))]


def test_a_card_is_offered_the_melds_it_continues() -> None:
    # R15: any meld, one's own or another seat's; a run at either end, a set its lacking suit
    rnd = played("8S 4S 9H", [(0, "5S 6S 7S"), (1, "9S 9D 9C"), (1, "QH KH AH")])
    assert targets(rnd, "8S") == [("m1", None)]
    assert targets(rnd, "4S") == [("m1", None)]
    assert targets(rnd, "9H") == [("m2", None)]
    assert targets(rnd, "8S 4S") == [("m1", None)]  # together: both ends at once
    assert targets(rnd, "2C") == [] and targets(rnd, "") == []


def test_the_place_a_joker_holds_is_no_lay_off() -> None:
    # R15: on 5♠ 6♠ JK the 8♠ fits, the 7♠ does not (that is a joker swap, R16)
    rnd = played("8S 7S", [(1, "5S 6S JK")])
    assert targets(rnd, "8S") == [("m1", None)]
    assert targets(rnd, "7S") == []


def test_a_joker_on_a_run_names_its_end() -> None:
    # R10: both ends when both work and differ, the one end when only one works, none on a set
    rnd = played("JK 9S", [(0, "5S 6S 7S"), (0, "QH KH AH"), (1, "7C 7D 7H")])
    assert targets(rnd, "JK") == [("m1", End.HIGH), ("m1", End.LOW), ("m2", End.LOW), ("m3", None)]
    # The joker fills the gap below the 9♠ whichever end is asked: one target, no end named.
    assert targets(rnd, "JK 9S") == [("m1", None)]


def test_every_lay_off_target_is_a_move_the_round_accepts() -> None:
    # R15, R10: the panel offers only lay-offs that succeed (the seat has opened, keeps a card)
    rnd = played("8S 4S JK 9H 9C", [(0, "5S 6S 7S"), (1, "9S 9D JK"), (1, "QH KH AH")])
    hand = rnd.hand(0)
    offered = 0
    for size in (1, 2, 3):
        for cards in combinations(hand, size):
            for move in lay_off_targets(rnd.seat_view(0), cards):
                Round.from_dict(rnd.to_dict()).apply(0, move)
                offered += 1
    assert offered > 10


def test_a_joker_swap_needs_the_card_it_stands_for_and_a_new_meld() -> None:
    # R16: 6♥ frees the joker of 5♥ JK 7♥; the joker and 9♣ 9♦ make a set
    rnd = played("6H 9C 9D KD", [(1, "5H JK 7H"), (1, "4S 5S 6S")])
    view = rnd.seat_view(0)
    assert joker_swaps(view, P("6H 9C 9D")) == [Move.swap_joker(C("6H"), "m1", P("9C 9D"))]
    assert joker_swaps(view, P("KD 9C 9D")) == []  # K♦ frees no joker
    assert joker_swaps(view, P("6H 9C KD")) == []  # 9♣ K♦ and the joker make no meld
    assert joker_swaps(view, P("6H 9C")) == []  # the joker must go into a new meld at once
    Round.from_dict(rnd.to_dict()).apply(0, joker_swaps(view, P("6H 9C 9D"))[0])


def test_a_sets_joker_is_freed_by_any_lacking_suit() -> None:
    # R16: in a set, a card of the set's rank in a suit the set lacks
    rnd = played("7C 7D 4H 5H", [(1, "7S 7H JK")])
    view = rnd.seat_view(0)
    assert [str(move.card) for move in joker_swaps(view, P("7C 4H 5H"))] == ["7C"]
    assert [str(move.card) for move in joker_swaps(view, P("7D 4H 5H"))] == ["7D"]
    assert [str(m.card) for m in joker_swaps(view, P("7C 7D 4H 5H"))] == []  # 7♦ 4♥ 5♥ JK is no meld


def test_joker_swaps_are_tried_once_per_card() -> None:
    # R1: equal cards cannot be told apart, so two 6♥ offer one swap per meld
    rnd = played("6H 6H 9C 9D", [(1, "5H JK 7H")])
    assert joker_swaps(rnd.seat_view(0), P("6H 6H 9C 9D")) == []  # 6♥ 9♣ 9♦ JK is no meld
    assert len(joker_swaps(rnd.seat_view(0), P("6H 6H 8H"))) == 1


def test_the_hint_gives_the_best_melds_and_the_opening_in_reach() -> None:
    # R13: the best melds, and whether with the proposed ones they reach the opening
    rnd = Round.from_position(["5H 6H 7H KS KD KC 2C", "3D"], "QH", "AH")
    answer = hint(rnd.seat_view(0))
    assert sorted(str(meld) for meld in answer.melds) == ["5H 6H 7H", "KS KD KC"]
    assert (answer.points, answer.opening_needed, answer.opening_in_reach) == (48, 40, True)
    rnd.draw(0, "stock")
    rnd.meld(0, P("5H 6H 7H"))  # proposed: 18 points, still below 40
    answer = hint(rnd.seat_view(0))
    assert (answer.points, answer.pending_points, answer.toward_opening) == (30, 18, 48)
    assert answer.opening_in_reach


def test_the_hint_after_the_opening_needs_nothing() -> None:
    # R13, R14: once opened every meld counts; an empty hand has no melds
    rnd = Round.from_position(["5H 6H 2C", "3D"], "QH", "AH", opened=[True, False])
    answer = hint(rnd.seat_view(0))
    assert answer.melds == () and answer.opening_needed == 0 and answer.opening_in_reach
    short = hint(Round.from_position(["5H 6H 7H 2C", "3D"], "QH", "AH").seat_view(0))
    assert short.toward_opening == 18 and not short.opening_in_reach


@pytest.mark.parametrize(
    ("cards", "points"),
    [("QS KS JK", 31), ("JK 6S 5S", 18), ("AS 2S JK", 6), ("7S 7H JK", 21), ("KS AS 2S", None), ("5S", None)],
)
def test_meld_points(cards: str, points: int | None) -> None:
    # R2, R10: where the jokers go decides the points; no meld, no points
    assert meld_points(P(cards)) == points


def test_the_queries_read_the_view_only_and_change_nothing() -> None:
    # R19: the answers come from the seat's view; asking changes neither the view nor the round
    match = Match.new(3, rng=random.Random(4))
    players = [ComputerPlayer(random.Random(seat)) for seat in range(3)]
    for _ in range(120):
        if match.round.over:
            break
        seat = match.round_seats[match.round.to_play]
        view = match.seat_view(seat).round
        before = match.to_dict()
        for cards in combinations(view.hand[:6], 3):
            lay_off_targets(view, cards)
            joker_swaps(view, cards)
        hint(view)
        assert match.to_dict() == before and match.seat_view(seat).round == view
        match.play(seat, players[seat].next_move(view))


def test_an_illegal_selection_is_no_error() -> None:
    # The queries answer "nowhere", never raise, for cards that fit nothing (R7-R9)
    rnd = played("2C", [(1, "7S 7H 7D JK")])
    assert lay_off_targets(rnd.seat_view(0), P("JK")) == []  # a set holds four cards at most (R8)
    assert joker_swaps(rnd.seat_view(0), P("JK JK JK")) == []  # a joker cannot free a joker (R16)
    assert lay_off_targets(rnd.seat_view(0), P("2C")) == []
    with pytest.raises(IllegalMove):
        rnd.apply(0, Move.lay_off(P("2C"), "m1"))
