"""The computer player: legal over whole matches, and the strategy moves it promises."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from bot.engine.cards import Card, parse_cards
from bot.engine.computer import ComputerPlayer, RandomPlayer
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.simulate import play_match
from bot.engine.views import RoundView

C = Card.parse
FILLER = parse_cards("2C 4D 6S 8C 10D QS 3H 5C 7D 9S JC KD AH 2D 4S 6C 8D 10S QC")
"""Cards that make no meld together, to pad stocks and the hands of the seat not under test."""
VIEW_KEYS = [
    "version",
    "seat",
    "n_seats",
    "dealer",
    "to_play",
    "phase",
    "rules",
    "hand",
    "pending",
    "pending_points",
    "hand_counts",
    "opened",
    "table",
    "stock_count",
    "discard_top",
    "discard_count",
    "reshuffles",
    "taken_from_discard",
    "opening_needed",
]
"""The view fields of the engine contract: the player must need nothing more (R19)."""


class JsonViewPlayer:
    """A seat that gets a JSON copy of the contract's fields of its view and nothing else (R19), and
    checks each move kind against ``Round.actions``."""

    def __init__(self, player: Any, match: Match) -> None:
        self.player = player
        self.match = match
        self.moves: list[Move] = []

    def next_move(self, view: RoundView) -> Move:
        data = view.to_dict()
        own = json.loads(json.dumps({key: data[key] for key in VIEW_KEYS}))
        before = copy.deepcopy(own)
        move: Move = self.player.next_move(own)
        assert own == before, "the player must not change the view it is given"
        rnd = self.match.round
        assert move.kind in rnd.move_kinds(rnd.to_play), (move, data)
        assert move.kind != "draw" or move.source in rnd.draw_sources(rnd.to_play), (move, data)
        if move.kind == "discard" and view.taken_from_discard is not None and len(view.hand) > 1:
            assert move.card != view.taken_from_discard  # R12
        self.moves.append(move)
        return move


def play_turn(rnd: Round, seat: int, player: ComputerPlayer) -> list[Move]:
    """Let ``player`` play the whole turn of ``seat``; the moves it made."""
    moves = []
    while rnd.to_play == seat and rnd.phase != "over":
        move = player.next_move(rnd.view(seat))
        rnd.apply(seat, move)
        moves.append(move)
        assert len(moves) < 40, moves
    return moves


def position(hand: str, *, stock: str = "", discard: str = "KC", rules: RuleSet | None = None) -> Round:
    """Seat 0 to play with ``hand``; seat 1 holds filler; ``stock`` lists the next draws first."""
    stock_cards = parse_cards(stock) + FILLER[13:] * 2
    return Round.from_position([parse_cards(hand), FILLER[:13]], stock_cards, discard, rules=rules)


# -- legal over whole matches ---------------------------------------------------------------------

RULE_CASES = [
    (2, RuleSet()),
    (3, RuleSet(opening=0)),
    (4, RuleSet(opening=120)),
    (5, RuleSet(jokers=2, scoring="penalty")),
    (6, RuleSet(jokers=6, discard_to_go_out=True)),
    (2, RuleSet(discard_to_go_out=True, opening=0, hand_romme=True)),
    (3, RuleSet(scoring="penalty", hand_romme=True, rounds=2)),
]


@pytest.mark.parametrize(("seats", "rules"), RULE_CASES)
def test_only_legal_moves_over_seeded_matches(seats: int, rules: RuleSet) -> None:
    # R11-R18: every move of a whole match is accepted by the engine, from JSON views only (R19)
    match = Match.new(seats, rules=rules, rng=random.Random(seats * 100 + rules.opening))
    players = [JsonViewPlayer(ComputerPlayer(random.Random(seat)), match) for seat in range(seats)]
    stats = play_match(match, players)
    assert match.over and match.winner is not None
    assert stats.rounds >= (rules.rounds or seats)
    kinds = {move.kind for player in players for move in player.moves}
    assert {"draw", "meld", "discard"} <= kinds


@pytest.mark.slow
def test_random_player_only_legal_moves() -> None:
    # R12: the baseline never discards the card it took either
    match = Match.new(2, rng=random.Random(5))
    players = [JsonViewPlayer(RandomPlayer(random.Random(seat)), match) for seat in range(2)]
    play_match(match, players)
    assert match.over
    assert all(move.kind in ("draw", "discard") for p in players for move in p.moves)


def test_same_rng_same_moves() -> None:
    def moves(seed: int) -> list[Move]:
        match = Match.new(3, rng=random.Random(seed))
        players = [JsonViewPlayer(ComputerPlayer(random.Random(s)), match) for s in range(3)]
        play_match(match, players)
        return [move for p in players for move in p.moves]

    assert moves(11) == moves(11)


# -- strategy ---------------------------------------------------------------------------------------


def test_opens_when_melds_reach_the_opening() -> None:
    # R13: 10-J-Q♥ (30) and K♠ K♥ K♦ (30) reach 40 together
    rnd = position("10H JH QH KS KH KD 2C 5D 9S 3C 8D 4S 6C", stock="7S")
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert rnd.opened(0)
    assert sorted(len(m.cards) for m in moves if m.kind == "meld") == [3, 3]
    assert len(rnd.table) == 2


def test_proposes_nothing_below_the_opening() -> None:
    # R13: 7-8-9♥ is only 24 points: no meld, no proposal left behind, 13 cards after the discard
    rnd = position("7H 8H 9H KS 2C 5D 9S 3C 8D 4S 6C QD 10C", stock="7S")
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert [m.kind for m in moves] == ["draw", "discard"]
    assert not rnd.opened(0) and len(rnd.hand(0)) == 13 and not rnd.pending(0)


def test_opening_zero_opens_with_any_meld() -> None:
    # R13 house rule: opening 0
    rnd = position("2H 3H 4H KS 9C 5D 9S 3C 8D 4S 6C QD 10C", stock="7S", rules=RuleSet(opening=0))
    play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert rnd.opened(0)


def test_takes_back_proposals_below_the_opening() -> None:
    # R13: a proposed 7-8-9♥ (24) cannot reach 40 this turn, so it goes back before the discard
    rnd = position("7H 8H 9H KS 2C 5D 9S 3C 8D 4S 6C QD 10C", stock="7S")
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("7H 8H 9H"))
    assert ComputerPlayer(random.Random(0)).next_move(rnd.view(0)) == Move.take_back()


def test_takes_the_discard_that_completes_a_meld() -> None:
    # R11: the top of the discard pile completes 7-8-9♥
    rnd = position("7H 8H KS 2C 5D 9S 3C 8D 4S 6C QD 10C JS", stock="7S", discard="9H")
    move = ComputerPlayer(random.Random(0)).next_move(rnd.view(0))
    assert move == Move.draw("discard")


def test_leaves_a_dead_discard() -> None:
    rnd = position("7H 8H KS 2C 5D 9S 3C 8D 4S 6C QD 10C JS", stock="7S", discard="KC")
    assert ComputerPlayer(random.Random(0)).next_move(rnd.view(0)) == Move.draw("stock")


def test_takes_the_discard_that_opens() -> None:
    # R13: the card taken from the discard pile may be used in the opening
    rnd = position("10H JH KS KH KD 2C 5D 9S 3C 8D 4S 6C 7D", stock="7S", discard="QH")
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert moves[0] == Move.draw("discard")
    assert rnd.opened(0)


def test_never_discards_the_card_taken_from_the_discard() -> None:
    # R12: KC is the highest dead card, but it was just taken
    rnd = position("7H 8H KS 2C 5D 9S 3C 8D 4S 6C QD 10C JS", stock="7S", discard="KC")
    rnd.draw(0, "discard")
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert moves[-1].kind == "discard" and moves[-1].card != C("KC")


def test_leaves_a_discard_equal_to_its_only_card() -> None:
    # R12: with JK in hand, a taken JK could never be discarded and nothing fits the full sets
    rnd = Round.from_position(
        ["JK", FILLER[:13]], FILLER[13:], "2H JK", table=[(0, "7S 7H 7D 7C"), (0, "JS JH JD JC")]
    )
    assert ComputerPlayer(random.Random(0)).next_move(rnd.view(0)) == Move.draw("stock")


def test_discards_the_highest_dead_card_and_keeps_pairs() -> None:
    # K♣ is dead; the pair of 5s, the 8-9♥ and the jokers are kept
    rnd = position("5S 5H 8H 9H JK 2D KC 4S 6C", stock="3D")
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert moves[-1] == Move.discard(C("KC"))


def test_lays_off_after_opening() -> None:
    # R14, R15: opened in turn one; in turn two the drawn 9♥ goes onto 10-J-Q♥
    rnd = position("10H JH QH KS KH KD 2C 5D 9S 3C 8D 4S 6C", stock="7S 3D 9H")
    player = ComputerPlayer(random.Random(0))
    play_turn(rnd, 0, player)
    rnd.draw(1, "stock")
    rnd.discard(1, rnd.hand(1)[0])
    moves = play_turn(rnd, 0, player)
    assert any(m.kind == "lay_off" and m.cards == (C("9H"),) for m in moves)
    assert any(C("9H") in t.cards for t in rnd.table)


def test_swaps_a_joker_when_it_gains() -> None:
    # R16: 7♠ takes the joker's place in 5-6-JK♠; the joker and 9♦ 9♣ make a new meld
    rules = RuleSet(opening=0)
    rnd = Round.from_position(
        ["2H 3H 4H 7S 9D 9C KD 5C 3S 10H QC JS 2D", "5S 6S JK 2C 4D 6C 8D 10C QD JS KH AH JD"],
        "JH 4S 7C 2S 9H",
        "KC",
        rules=rules,
        to_play=1,
    )
    rnd.draw(1, "stock")
    rnd.meld(1, parse_cards("5S 6S JK"))
    rnd.discard(1, rnd.hand(1)[0])
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    swaps = [m for m in moves if m.kind == "swap_joker"]
    assert swaps and swaps[0].card == C("7S") and sorted(swaps[0].cards) == sorted(parse_cards("9D 9C"))
    assert any(t.kind == "set" and t.cards.count(C("JK")) == 1 for t in rnd.table)


def test_keeps_a_card_to_discard_when_the_last_must_be_discarded() -> None:
    # R17 house rule: every card melds, yet one is kept back and discarded to go out
    rules = RuleSet(discard_to_go_out=True)
    rnd = position("10H JH QH KH KS KD KC 2C 3C 4C 5C 6C 7C", stock="8C", rules=rules)
    moves = play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert moves[-1].kind == "discard" and rnd.phase == "over" and rnd.result().out == 0


def test_goes_out_by_melding() -> None:
    # R17: without the house rule the seat melds its last cards and goes out
    rnd = position("10H JH QH KH KS KD KC 2C 3C 4C 5C 6C 7C", stock="8C")
    play_turn(rnd, 0, ComputerPlayer(random.Random(0)))
    assert rnd.phase == "over" and rnd.result().out == 0


# -- strength -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(opening=120)], ids=["opening40", "opening120"])
def test_beats_the_random_player_nine_times_in_ten(rules: RuleSet) -> None:
    # R13: at 120 most rounds end with the stock (R18), so the hand it keeps has to be worth less too
    wins = 0
    matches = 30
    for game in range(matches):
        seat = game % 2
        players: list[Any] = [RandomPlayer(random.Random(game)), RandomPlayer(random.Random(game))]
        players[seat] = ComputerPlayer(random.Random(game))
        match = Match.new(2, rules=rules, rng=random.Random(1000 + game))
        play_match(match, players)
        wins += match.winner == seat
    assert wins >= 0.9 * matches


# R4, R5: a new deal; the player's memos of the last round's hands and table are not kept.
def test_a_player_forgets_the_last_rounds_hands_when_a_round_begins() -> None:
    player = ComputerPlayer(random.Random(3))
    match = Match.new(2, rng=random.Random(5))
    remembered = 0
    while not match.round.over:
        seat = match.round_seats[match.round.to_play]
        match.play(seat, player.next_move(match.view(seat)))
        remembered = max(remembered, len(player._best_melds.values))
    assert remembered > 0
    match.next_round()
    seat = match.round_seats[match.round.to_play]
    player.next_move(match.view(seat))
    assert len(player._best_melds.values) < remembered
