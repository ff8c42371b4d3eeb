"""The computer's levels: easy, normal and hard all play legal moves from the view alone; hard holds
its opening back, keeps jokers out of melds it does not need and does not feed the next seat (R11-R19)."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import JOKER, Card, parse_cards
from bot.engine.computer import LEVELS, ComputerPlayer
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.simulate import play_match

C = Card.parse
P = parse_cards


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer level 'expert'"):
        ComputerPlayer(level="expert")
    assert ComputerPlayer().level == "normal"
    assert LEVELS == ("easy", "normal", "hard")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("seats", "rules"),
    [
        (2, RuleSet()),
        (4, RuleSet(jokers=6, discard_to_go_out=True)),
        (3, RuleSet(opening=0, hand_romme=True)),
    ],
)
def test_every_level_plays_whole_matches_legally(level: str, seats: int, rules: RuleSet) -> None:
    # R11-R17: play_match raises IllegalMove on the first refused move
    for game in range(3):
        match = Match.new(seats, rules=rules, rng=random.Random(f"{level}:{game}"))
        players = [ComputerPlayer(random.Random(game * 7 + s), level=level) for s in range(seats)]
        play_match(match, players)
        assert match.over


@pytest.mark.parametrize("level", LEVELS)
def test_the_typed_and_the_dict_view_give_the_same_moves(level: str) -> None:
    # R19: the dict view (with its history as entries) and the typed view decide alike
    match = Match.new(3, rng=random.Random(4))
    typed = [ComputerPlayer(random.Random(s), level=level) for s in range(3)]
    plain = [ComputerPlayer(random.Random(s), level=level) for s in range(3)]
    for _ in range(150):
        if match.round.over:
            break
        seat = match.round_seats[match.round.to_play]
        move = typed[seat].next_move(match.seat_view(seat).round)
        assert plain[seat].next_move(match.view(seat)) == move
        match.play(seat, move)


STOCK = "6C 7C 8C 2D 3S 4H 5S 6S 7H 8H 9D 10S JC QC KH AD 2C 3C 4S 5C 6H"
"""A stock long enough that the round is not near its end (R18)."""


def opening_position(turn_no: int, hand: str = "KS KD KC QS QD QH 2C 5D 9H 7S") -> Round:
    """Seat 0 holds 60 points of melds and four loose cards, in its draw phase on ``turn_no``."""
    rnd = Round.from_position([hand, "3D 4D 9S 9C 4C 6D 8D JH 2H 2S 10C 8S AH"], STOCK, "3H")
    rnd.turn_no = turn_no
    return rnd


def play_turn(rnd: Round, player: ComputerPlayer) -> list[Move]:
    moves = []
    while rnd.to_play == 0 and not rnd.over:
        move = player.next_move(rnd.seat_view(0))
        rnd.apply(0, move)
        moves.append(move)
    return moves


def test_hard_holds_its_opening_back_early_and_opens_later() -> None:
    # R13: normal opens at the first chance; hard waits while the end is far
    normal = play_turn(opening_position(1), ComputerPlayer(random.Random(1)))
    assert [m.kind for m in normal].count("meld") == 2
    early = play_turn(opening_position(1), ComputerPlayer(random.Random(1), level="hard"))
    assert [m.kind for m in early] == ["draw", "discard"]
    still = play_turn(opening_position(15), ComputerPlayer(random.Random(1), level="hard"))
    assert [m.kind for m in still] == ["draw", "discard"]
    # On its ninth turn another seat may go out any time, with its 60 points in the hand (R20).
    late = play_turn(opening_position(17), ComputerPlayer(random.Random(1), level="hard"))
    assert [m.kind for m in late].count("meld") == 2


def test_hard_opens_at_once_when_it_goes_out() -> None:
    # R13, R17: all but one card melds, so the hard level opens and goes out on turn 1
    rnd = opening_position(1, "KS KD KC QS QD QH 2C 3C 4C")
    moves = play_turn(rnd, ComputerPlayer(random.Random(1), level="hard"))
    assert rnd.over and rnd.out == 0 and moves[-1].kind == "discard"


def test_hard_keeps_a_joker_out_of_an_opening_that_does_not_need_it() -> None:
    # R13, R16: 60 points without the joker's meld; the joker stays in the hand
    rnd = opening_position(17, "KS KD KC QS QD QH 5H 6H JK 9C 2S")
    hard = play_turn(rnd, ComputerPlayer(random.Random(1), level="hard"))
    melded = [card for m in hard if m.kind == "meld" for card in m.cards]
    assert JOKER not in melded and len(melded) == 6 and JOKER in rnd.hand(0)
    rnd = opening_position(9, "KS KD KC QS QD QH 5H 6H JK 9C 2S")
    normal = play_turn(rnd, ComputerPlayer(random.Random(1)))
    assert JOKER in [card for m in normal if m.kind == "meld" for card in m.cards]


def test_hard_does_not_feed_the_next_seat_what_it_collects() -> None:
    # R19: from the public history: the next seat took 7S from the pile; 7D would make its set
    hand = "AC 8C 9C 10C 7D AH 3H 5H 8H 9H 2S 8S JS"
    rnd = Round.from_position([hand, "7C 7H 4D 4S 6C 10D JD QC KC 2D 3D 5S"], "QS 2H 6D", "7S", to_play=1)
    rnd.draw(1, "discard")
    rnd.discard(1, C("KC"))
    assert [e.kind for e in rnd.history] == ["take", "discard"]
    normal = play_turn(rnd, ComputerPlayer(random.Random(1)))
    assert normal[-1] == Move.discard(C("7D"))
    rnd = Round.from_position([hand, "7C 7H 4D 4S 6C 10D JD QC KC 2D 3D 5S"], "QS 2H 6D", "7S", to_play=1)
    rnd.draw(1, "discard")
    rnd.discard(1, C("KC"))
    hard = play_turn(rnd, ComputerPlayer(random.Random(1), level="hard"))
    assert hard[-1].kind == "discard" and hard[-1].card != C("7D")


def test_normal_wins_most_seeded_matches_against_easy() -> None:
    # Easy's beginner's mistakes cost it: seeded two-seat matches, seats swapped every other match.
    wins = 0
    for game in range(12):
        match = Match.new(2, rng=random.Random(f"easy:{game}"))
        levels = ["normal", "easy"] if game % 2 == 0 else ["easy", "normal"]
        play_match(match, [ComputerPlayer(random.Random(game + s), level=lv) for s, lv in enumerate(levels)])
        wins += levels[match.winner or 0] == "normal"
    assert wins >= 8
