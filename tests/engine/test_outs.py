"""Outs: the unseen cards that would meld one card more, and the hard computer's discard by them
(R1, R7-R9, R13, R19)."""

from __future__ import annotations

import random

from bot.engine.cards import Card, parse_cards
from bot.engine.computer import ComputerPlayer
from bot.engine.meld import make_meld
from bot.engine.outs import live_copies, out_cards, outs
from bot.engine.round import Round

from .test_computer_levels import opening_position, play_turn

C = Card.parse
P = parse_cards


def codes(cards: set[Card]) -> list[str]:
    return sorted(str(card) for card in cards)


def test_a_run_grows_at_both_ends_and_a_set_by_its_missing_suits() -> None:
    # R7, R8: 5-6-7 of hearts takes 4H or 8H; a set of three takes the fourth suit
    assert codes(out_cards([make_meld(P("5H 6H 7H"))], [])) == ["4H", "8H"]
    assert codes(out_cards([make_meld(P("9S 9H 9D"))], [])) == ["9C"]
    assert out_cards([make_meld(P("9S 9H 9D 9C"))], []) == set()


def test_the_ace_ends_a_run_at_either_end_and_never_turns_the_corner() -> None:
    # R7: Q-K-A takes only the J; A-2-3 only the 4; a run of all thirteen ranks takes nothing
    assert codes(out_cards([make_meld(P("QS KS AS"))], [])) == ["JS"]
    assert codes(out_cards([make_meld(P("AS 2S 3S"))], [])) == ["4S"]
    everything = make_meld(P("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"))
    assert out_cards([everything], []) == set()


def test_left_over_pairs_and_near_runs_wait_for_their_third_card() -> None:
    # R7, R8: a pair of one rank waits for the other two suits, 7-8 for 6 or 9, 7-9 for the 8
    assert codes(out_cards([], P("4C 4D"))) == ["4H", "4S"]
    assert codes(out_cards([], P("7H 8H"))) == ["6H", "9H"]
    assert codes(out_cards([], P("7H 9H"))) == ["8H"]
    assert codes(out_cards([], P("KD AD"))) == ["QD"]
    # Two equal cards make no set (R8), cards three apart no run (R7).
    assert out_cards([], P("4C 4C 8C")) == set()


def test_a_left_over_joker_melds_with_any_card_that_pairs_with_a_natural() -> None:
    # R9: 5H JK melds with another 5 or a heart one or two ranks away
    assert codes(out_cards([], P("5H JK"))) == ["3H", "4H", "5C", "5D", "5S", "6H", "7H"]


def test_outs_count_only_the_copies_that_can_still_come() -> None:
    # R1: two of each card; held, dead and known copies cannot be drawn
    assert live_copies(C("7H"), held=0, dead=0) == 2
    assert live_copies(C("7H"), held=1, dead=1) == 0
    assert live_copies(C("7H"), held=0, dead=1, known=1) == 0
    rest = P("4C 4D")
    assert outs([], rest, lambda card: 2) == 4
    assert outs([], rest, lambda card: 0 if card == C("4H") else 2) == 2


def test_hard_gives_up_a_pair_whose_third_cards_are_dead() -> None:
    # R1, R19: both 5H and both 5D stand on the table, so 5S 5C can never be a set; the opened hard
    # seat throws a five (more points, no outs), normal keeps its "pair" and throws the 2S
    def position() -> Round:
        return Round.from_position(
            ["5S 5C 2S", "9S 9C 10S 10C JC KC KD KH KS AC AD 2C 3C"],
            "8H 6S 6C",
            "JS",
            table=[
                (0, "QS QD QC"),
                (1, "3H 4H 5H"),
                (1, "5H 6H 7H"),
                (1, "3D 4D 5D"),
                (1, "5D 6D 7D"),
            ],
        )

    hard = play_turn(position(), ComputerPlayer(random.Random(1), level="hard"))
    assert [m.kind for m in hard] == ["draw", "lay_off", "discard"]
    assert hard[-1].card in P("5S 5C")
    normal = play_turn(position(), ComputerPlayer(random.Random(1)))
    assert normal[-1].card == C("2S")


def test_hard_keeps_high_cards_before_it_opens() -> None:
    # R13: before the opening the hard level throws its lowest loose card, normal its highest
    hand = "KS KD KC QS QD QH 2C 9H 5S"
    hard = play_turn(opening_position(1, hand), ComputerPlayer(random.Random(1), level="hard"))
    assert [m.kind for m in hard] == ["draw", "discard"] and hard[-1].card == C("2C")
    normal = play_turn(opening_position(1, hand), ComputerPlayer(random.Random(1)))
    assert "meld" in [m.kind for m in normal] and normal[-1].card == C("9H")
