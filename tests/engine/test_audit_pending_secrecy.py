"""Audit: proposed opening melds leave no trace in what the other seats see (R13, R19)."""

from __future__ import annotations

import json

from bot.engine.cards import Card, parse_cards
from bot.engine.round import Round

C = Card.parse
P = parse_cards


def test_proposing_and_taking_back_changes_nothing_the_others_see() -> None:
    # R13: "the other seats do not see them" — not the cards, and not that a proposal was made
    rnd = Round.from_position(["10S JS QS 2H 3H 9C", "KD 4C", "5D 6D"], "2C", "8C")
    rnd.draw(0, "stock")
    before = [rnd.view(1), rnd.view(2), rnd.view(None)]
    rnd.meld(0, P("10S JS QS"))
    assert [rnd.view(1), rnd.view(2), rnd.view(None)] == before
    rnd.take_back(0)
    assert [rnd.view(1), rnd.view(2), rnd.view(None)] == before


def test_the_seat_itself_still_sees_each_of_its_moves() -> None:
    # R13: the proposing seat sees its proposal; its own move count goes on
    rnd = Round.from_position(["10S JS QS 2H 3H 9C", "KD 4C"], "2C", "8C")
    rnd.draw(0, "stock")
    own = rnd.view(0)
    rnd.meld(0, P("10S JS QS"))
    after = rnd.view(0)
    assert after["pending_points"] == 30 and after["move_no"] == own["move_no"] + 1


def test_the_move_count_the_others_see_goes_on_with_public_moves_and_survives_a_snapshot() -> None:
    # R13, R19: after a hidden proposal and a discard the others see one more move than before it
    rnd = Round.from_position(["10S JS QS 2H 3H 9C", "KD 4C"], "2C", "8C")
    rnd.draw(0, "stock")
    seen = rnd.view(1)["move_no"]
    rnd.meld(0, P("10S JS QS"))
    rnd.discard(0, C("9C"))
    assert rnd.view(1)["move_no"] == seen + 1
    again = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert again.view(1) == rnd.view(1) and again.view(0) == rnd.view(0)


def test_a_lay_off_to_no_end_is_a_refused_move_that_changes_nothing() -> None:
    # R10: a laid-off joker goes to the low or the high end; anything else is refused like any move.
    from bot.engine import IllegalMove, Round, parse_cards

    rnd = Round.from_position(["JK 2C 3C", "KC KD"], "4D", "2D", table=[(0, "5S 6S 7S")], to_play=0)
    rnd.draw(0, "stock")
    before = rnd.to_dict()
    try:
        rnd.lay_off(0, parse_cards("JK"), "m1", end="middle")
    except IllegalMove as exc:
        assert (exc.code, exc.rule) == ("layoff.bad_end", "R10")
    else:
        raise AssertionError("a joker was laid off to the middle")
    assert rnd.to_dict() == before
