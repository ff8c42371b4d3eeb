"""Match: one round per seat with the deal moving on, totals, and tie-break rounds (R3, R4, R6)."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.cards import Card
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet

C = Card.parse


def with_round(match: Match, rnd: Round) -> Match:
    """The match with its current round replaced by the position ``rnd`` (through a snapshot)."""
    data = match.to_dict()
    data["round"] = rnd.to_dict()
    return Match.from_dict(json.loads(json.dumps(data)))


def going_out(n_seats: int, to_play: int, hands: dict[int, str], table: list[tuple[int, str]]) -> Round:
    """A position where ``to_play`` draws 5S, lays it off on its 6S 7S 8S and goes out with 9C."""
    all_hands = [hands.get(seat, "KD") for seat in range(n_seats)]
    all_hands[to_play] = "9C"
    melds = [*table, (to_play, "6S 7S 8S")]
    return Round.from_position(all_hands, "5S", "2C", table=melds, to_play=to_play, opened=[True] * n_seats)


def finish(match: Match, seat: int) -> None:
    """Play the position of :func:`going_out` for match seat ``seat``."""
    tm = next(tm for tm in match.round.table if tm.cards == tuple(map(C, ("6S", "7S", "8S"))))
    match.play(seat, Move.draw("stock"))
    match.play(seat, Move.lay_off([C("5S")], tm.id))
    match.play(seat, Move.discard(C("9C")))
    assert match.round.over


def test_a_new_match_deals_its_first_round() -> None:
    # R4, R5
    match = Match.new(3, rng=random.Random(5), dealer=2)
    assert (match.round_no, match.rounds_planned, match.dealer, match.round_seats) == (1, 3, 2, [0, 1, 2])
    assert match.round.dealer == 2 and match.round.to_play == 0
    assert not match.tiebreak and not match.over and match.winner is None
    assert match.totals == [0, 0, 0] and match.history == []


@pytest.mark.parametrize("n_seats", [1, 7])
def test_a_match_needs_two_to_six_seats(n_seats: int) -> None:
    # R3
    with pytest.raises(IllegalMove) as info:
        Match.new(n_seats)
    assert info.value.rule == "R3"


def test_the_rounds_can_be_a_fixed_number() -> None:
    # R4 house rule
    assert Match.new(3, rules=RuleSet(rounds=5), rng=random.Random(1)).rounds_planned == 5


def test_the_deal_moves_one_seat_each_round_and_every_seat_deals_once() -> None:
    # R4
    match = Match.new(3, rng=random.Random(2))
    with pytest.raises(IllegalMove) as info:
        match.next_round()
    assert info.value.code == "round.not_over"
    scores = {0: (26, -10, -10), 1: (-10, 26, -10), 2: (-10, -10, 26)}
    for round_no, dealer in enumerate([0, 1, 2], start=1):
        assert (match.round_no, match.dealer, match.round.dealer) == (round_no, dealer, dealer)
        first = (dealer + 1) % 3
        assert match.round.to_play == first
        match = with_round(match, going_out(3, first, {}, []))
        finish(match, first)
        assert match.history[-1].scores == scores[first]
        if round_no < 3:
            assert not match.over
            match.next_round()
    assert match.totals == [6, 6, 6]
    assert not match.over  # a three-way tie after the last round


def tied_after_one_round() -> Match:
    """Seat 1 goes out with 26 (6S 7S 8S and the 5S); seat 0 has 30 on the table and 4 in hand."""
    match = Match.new(3, rules=RuleSet(rounds=1), rng=random.Random(3))
    match = with_round(match, going_out(3, 1, {0: "4C", 2: "KD"}, [(0, "10S JS QS")]))
    finish(match, 1)
    return match


def test_a_tie_after_the_last_round_is_no_end() -> None:
    # R6
    match = tied_after_one_round()
    assert match.totals == [26, 26, -10]
    assert not match.over and match.winner is None


def test_tied_seats_play_on_alone() -> None:
    # R6
    match = tied_after_one_round()
    match.next_round()
    assert (match.round_no, match.tiebreak, match.round_seats) == (2, True, [0, 1])
    assert match.round.n_seats == 2
    assert match.dealer == 1 and match.round.to_play == 0  # the deal moved on to the next tied seat
    with pytest.raises(IllegalMove) as info:
        match.play(2, Move.draw("stock"))
    assert (info.value.code, info.value.rule) == ("turn.sitting_out", "R6")
    view = match.view(2)
    assert view["hand"] == [] and view["match"]["round_seats"] == [0, 1] and view["match"]["tiebreak"]
    assert len(match.view(0)["hand"]) == 13


def test_the_tie_break_ends_when_one_total_is_higher() -> None:
    # R6: round seat 0 is match seat 0
    match = tied_after_one_round()
    match.next_round()
    match = with_round(match, going_out(2, 0, {1: "KD"}, []))
    finish(match, 0)
    assert match.history[-1].scores == (26, -10, 0)  # seat 2 sat out
    assert match.totals == [52, 16, -10]
    assert match.over and match.winner == 0
    assert match.view(1)["match"]["winner"] == 0
    with pytest.raises(IllegalMove) as info:
        match.next_round()
    assert info.value.code == "match.over"


def test_a_tie_break_can_tie_again() -> None:
    # R6: 26 for the seat out, 30 - 4 for the other
    match = tied_after_one_round()
    match.next_round()
    match = with_round(match, going_out(2, 0, {1: "4C"}, [(1, "10S JS QS")]))
    finish(match, 0)
    assert match.totals == [52, 52, -10] and not match.over
    match.next_round()
    assert (match.round_no, match.round_seats, match.dealer) == (3, [0, 1], 0)


def test_round_seats_map_to_match_seats_in_a_tie_break() -> None:
    # R6: seats 0 and 2 tie; round seat 1 is match seat 2
    match = Match.new(3, rules=RuleSet(rounds=1), rng=random.Random(4))
    match = with_round(match, going_out(3, 2, {0: "4C", 1: "KD"}, [(0, "10S JS QS")]))
    finish(match, 2)
    match.next_round()
    assert match.round_seats == [0, 2]
    match = with_round(match, going_out(2, 1, {0: "KD"}, []))
    finish(match, 2)
    assert match.history[-1].out == 2 and match.history[-1].scores == (-10, 0, 26)
    assert match.winner == 2


def test_a_saved_match_restores_exactly_and_plays_on_alike() -> None:
    # R4, R19
    match = tied_after_one_round()
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict() and copy.totals == match.totals
    assert copy.next_round().to_dict() == match.next_round().to_dict()
    with pytest.raises(ValueError):
        Match.from_dict({**match.to_dict(), "version": 0})
