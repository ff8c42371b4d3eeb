"""Audit: a tie-break decides among the tied seats only (R6)."""

from __future__ import annotations

import json
import random

from bot.engine.match import Match
from bot.engine.round import Round
from bot.engine.rules import RuleSet


def with_round(match: Match, rnd: Round) -> Match:
    """The match with its current round replaced by the position ``rnd`` (through a snapshot)."""
    data = match.to_dict()
    data["round"] = rnd.to_dict()
    return Match.from_dict(json.loads(json.dumps(data)))


def ended_by_the_stock(match: Match, hands: list[str]) -> Match:
    """The match after a round that ends at its first draw with ``hands`` left (R18: nothing to draw)."""
    match = with_round(match, Round.from_position(hands, "", "9S"))
    assert match.round.draw(match.round.to_play, "stock") is None
    return match


def tied_seats_0_and_1() -> Match:
    """Penalty scoring, one planned round: seats 0 and 1 tie at -2, seat 2 trails at -3."""
    match = Match.new(3, rules=RuleSet(rounds=1, scoring="penalty"), rng=random.Random(1))
    match = ended_by_the_stock(match, ["2C", "2D", "3D"])
    assert match.totals == [-2, -2, -3] and not match.over
    match.next_round()
    assert match.round_seats == [0, 1]
    return match


def test_a_seat_that_sat_out_the_tie_break_cannot_win_it() -> None:
    # R6: only the tied seats play on "until one total is higher"; seat 2 lost the match already,
    # even if both tied seats lose points in the tie-break and fall below it.
    match = ended_by_the_stock(tied_seats_0_and_1(), ["2C", "2H"])
    assert match.totals == [-4, -4, -3]
    assert not match.over and match.winner is None
    match.next_round()
    assert match.round_seats == [0, 1]


def test_the_tie_break_winner_is_the_higher_tied_seat_even_below_a_seat_that_sat_out() -> None:
    # R6
    match = ended_by_the_stock(tied_seats_0_and_1(), ["2C", "5H"])
    assert match.totals == [-4, -7, -3]
    assert match.over and match.winner == 0
