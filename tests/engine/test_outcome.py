"""The one rule of a match's outcome (issue 36): places by R6's tie-break, leavers below those who
stayed, a leaver never wins, equal places tie; what each seat played, went out in and scored."""

from __future__ import annotations

import random

import pytest

from bot.engine.match import Match
from bot.engine.outcome import Outcome, outcome
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult

STAY = [False, False, False]
ALL = [True, True, True]


def ended(*scores: int, out: int | None = 0, hand_romme: bool = False) -> RoundResult:
    hand = (0,) * len(scores)
    return RoundResult(out=out, melded=scores, in_hand=hand, scores=scores, hand_romme=hand_romme)


def after(planned: int, *results: RoundResult, seats: list[int] | None = None) -> Match:
    """A match of ``len(scores)`` seats with ``results`` finished and the next round dealt to
    ``seats`` (default every seat): the standings after them."""
    n_seats = len(results[0].scores)
    rules = RuleSet(rounds=planned)
    rng = random.Random(1)
    playing = seats or list(range(n_seats))
    return Match(
        n_seats=n_seats,
        rules=rules,
        rng=rng,
        dealer=0,
        round_no=len(results) + 1,
        round_seats=playing,
        finished=list(results),
        current=Round.deal(len(playing), rules=rules, dealer=0, rng=rng),
    )


def test_the_issues_measure_a_leaver_ahead_on_points_ranks_last() -> None:
    # Issue 36: totals [50, 80, 120], seat 2 left. Before, the embed listed seat 2 first.
    result = outcome(after(3, ended(50, 80, 120)), left=[False, False, True], counts=ALL)
    assert result.places == (2, 1, 3)
    assert [row.seat for row in result.ranked] == [1, 0, 2]
    assert not result.over


def test_the_tie_break_decides_the_top_whatever_the_totals_of_those_out_of_it() -> None:
    # R6: seats 0 and 1 tied at 100 and played on; seat 2 (99) was out of the race, so it ranks
    # below both tie-breakers even when they lost points in the tie-break.
    match = after(1, ended(100, 100, 99), ended(-2, -30, 0, out=None), seats=[0, 1])
    result = outcome(match, left=STAY, counts=ALL)
    assert match.totals == [98, 70, 99]
    assert result.places == (1, 2, 3)
    assert [row.rounds for row in result.seats] == [2, 2, 1]


def test_a_leaver_who_wins_the_tie_break_forfeits_to_the_best_seat_that_stayed() -> None:
    # R6 with a leaver: seat 1 left and its computer won the tie-break (over: one total ahead).
    match = after(1, ended(100, 100, 99), ended(-2, 117, 0, out=1), seats=[0, 1])
    result = outcome(match, left=[False, True, False], counts=ALL)
    assert result.places == (1, 3, 2)
    assert result.winners == (0,) and [row.won for row in result.seats] == [True, False, False]


def test_a_second_tie_break_is_played_by_the_first_ones_seats_only() -> None:
    # R6: after the first tie-break seats 0 and 1 are tied again (5) below seat 2's 99, which sat
    # out: the second tie-break is theirs (as Match.next_round deals it), and seat 2 stays third.
    match = after(1, ended(100, 100, 99), ended(-95, -95, 0, out=None), ended(3, 1, 0), seats=[0, 1])
    assert match.players_by_round() == [(0, 1, 2), (0, 1), (0, 1)]
    result = outcome(match, left=STAY, counts=ALL)
    assert result.places == (1, 2, 3)
    assert [row.rounds for row in result.seats] == [3, 3, 1]
    assert [row.best_round for row in result.seats] == [100, 100, 99]


def test_equal_totals_share_a_place_and_each_counts_its_rounds() -> None:
    match = after(3, ended(10, 0, 10, out=0, hand_romme=True), ended(0, 5, 0, out=1))
    result = outcome(match, left=STAY, counts=[True, False, True])
    assert result.places == (1, 3, 1)
    assert result.winners == (0, 2)
    first = result.seats[0]
    assert (first.rounds, first.rounds_out, first.hand_rommes, first.best_round) == (2, 1, 1, 10)
    assert [row.counts for row in result.seats] == [True, False, True]


def test_the_outcome_round_trips_and_refuses_flags_of_another_table() -> None:
    match = after(3, ended(1, 2, 3))
    result = outcome(match, left=STAY, counts=ALL)
    assert Outcome.of(result.to_dict()) == result
    with pytest.raises(ValueError, match="3 seats"):
        outcome(match, left=[False, False], counts=ALL)


def test_the_round_table_of_a_second_tie_break_shows_who_played_it() -> None:
    # R6: the standings' round-by-round scores take the tie-break seats from the engine's rule; they
    # took them from the highest total of all seats before, so seat 2 (99) was shown playing the
    # second tie-break that seats 0 and 1 played.
    from bot.service.scores import scores_by_round

    match = after(1, ended(100, 100, 99), ended(-95, -95, 0, out=None), ended(3, 1, 0), seats=[0, 1])
    assert scores_by_round(match)[2] == [3, 1, None]
