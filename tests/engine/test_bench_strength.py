"""The strength bench's yardsticks: the reference opponents play legal whole matches from the view,
and the bench rotates the seats and counts every match (R3, R4, R11-R17)."""

from __future__ import annotations

import random

import pytest

from bench.opponents import GreedyPlayer, PatientPlayer
from bench.strength import strength, wilson
from bot.engine.match import Match
from bot.engine.rules import RuleSet
from bot.engine.simulate import play_match


@pytest.mark.parametrize("reference", [GreedyPlayer, PatientPlayer])
@pytest.mark.parametrize(("seats", "rules"), [(2, RuleSet()), (4, RuleSet(jokers=6, discard_to_go_out=True))])
def test_the_references_play_legal_matches(reference: type[GreedyPlayer], seats: int, rules: RuleSet) -> None:
    # play_match raises IllegalMove on the first refused move (R11-R17)
    for game in range(3):
        match = Match.new(seats, rules=rules, rng=random.Random(game))
        play_match(match, [reference(random.Random(game * 10 + s)) for s in range(seats)])
        assert match.over


def test_a_small_run_counts_every_match_with_its_interval() -> None:
    result = strength(4, 2, seed=3, workers=1, pairings=[("hard", "greedy")])
    (two,) = result["two_seats"]
    (four,) = result["four_seats_two_against_two"]
    assert (two["matches"], four["matches"]) == (4, 2)
    assert two["wins"] + two["ties"] <= 4 and two["wilson95"] == list(wilson(two["wins"], 4))
    assert {"hard", "greedy"} <= set(result["decision_ms"])
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_every_round_is_counted_with_who_went_out_and_the_margin() -> None:
    # R4: one round per seat at least (R6 may add tie-break rounds); R17/R18: a round ends with one
    # seat out or none, so the first player's side went out in at most every round
    result = strength(6, 0, seed=5, workers=1, pairings=[("normal", "greedy")])
    (two,) = result["two_seats"]
    assert two["rounds"] >= 2 * 6
    assert 0.0 < two["went_out"] < 1.0
    assert isinstance(two["margin_per_round"], float)
