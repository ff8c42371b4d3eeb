"""Property tests: random seeded rounds and matches played with random moves, legal and not, to the end.

The driver tries moves in a random order; every refusal must leave the state as it was, and after
every accepted move all cards are still there exactly once and no view holds a secret (R1, R19).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, Card, new_deck
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet

RULES = st.builds(
    RuleSet,
    jokers=st.sampled_from([2, 4, 6]),
    opening=st.sampled_from([0, 20, 40]),
    scoring=st.sampled_from(["melds", "penalty"]),
    hand_romme=st.booleans(),
    discard_to_go_out=st.booleans(),
    rounds=st.sampled_from([None, 1, 2]),
)


def _meld_candidates(hand: list[Card]) -> list[tuple[Card, ...]]:
    """Groups of hand cards that might make a meld: one rank in several suits, or one suit with
    close ranks, with or without a joker. Cheap, and often wrong on purpose."""
    naturals = sorted(set(c for c in hand if not c.is_joker))
    joker = (JOKER,) if JOKER in hand else ()
    groups: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    for cards in by_rank.values():
        if len(cards) >= 2:
            groups += [tuple(cards), tuple(cards[:2]) + joker, tuple(cards[:3])]
    for cards in by_suit.values():
        for i in range(len(cards) - 1):
            if cards[i + 1].rank - cards[i].rank <= 2:
                groups.append(tuple(cards[i : i + 2]) + joker)
                groups.append(tuple(cards[i : i + 3]))
    return [group for group in groups if len(group) >= 3]


def candidate_moves(rnd: Round, seat: int, rng: random.Random) -> list[Move]:
    """Moves worth trying for ``seat``, many of them legal, some not, in a random order with the
    discards last (so the round makes progress before the turn ends)."""
    if rnd.phase == "draw":
        moves = [Move.draw("stock"), Move.draw("discard")]
        rng.shuffle(moves)
        return moves
    hand = rnd.hand(seat)
    building: list[Move] = [Move.meld(group) for group in _meld_candidates(hand)]
    table = rnd.table
    if table and hand:
        for _ in range(6):
            end = rng.choice([None, "low", "high"])
            building.append(Move.lay_off([rng.choice(hand)], rng.choice(table).id, end=end))
        with_joker = [tm for tm in table if JOKER in tm.cards]
        for _ in range(4 if with_joker and len(hand) >= 3 else 0):
            card, *pair = rng.sample(hand, 3)
            building.append(Move.swap_joker(card, rng.choice(with_joker).id, pair))
            groups = [g for g in _meld_candidates(hand) if len(g) == 3 and JOKER not in g]
            if groups:
                group = rng.choice(groups)
                building.append(Move.swap_joker(group[0], rng.choice(with_joker).id, group[1:]))
                building.append(Move.swap_joker(rng.choice(hand), rng.choice(with_joker).id, group[:2]))
    if rnd.pending(seat) and rng.random() < 0.05:
        building.append(Move.take_back())
    rng.shuffle(building)
    if rng.random() < 0.25:
        building = []  # end the turn now and then, or proposals and take-backs could go on
    discards = [Move.discard(card) for card in hand]
    rng.shuffle(discards)
    # A few moves that can never be legal, to check that refusals change nothing.
    junk = [Move.draw("stock"), Move.discard(Card(1, "S")) if Card(1, "S") not in hand else Move.take_back()]
    return building[:12] + junk + discards + [Move.take_back()]


def all_cards(data: dict[str, Any]) -> Counter[str]:
    codes = [c for hand in data["hands"] for c in hand] + data["stock"] + data["discard"]
    codes += [c for melds in data["pending"] for m in melds for c in m["cards"]]
    codes += [c for tm in data["table"] for c in tm["cards"]]
    return Counter(codes)


def check_views(rnd: Round) -> None:
    """R19: a seat's view holds its own hand and pending melds, and no other cards but public ones."""
    data = rnd.to_dict()
    for seat in [*range(rnd.n_seats), None]:
        view = rnd.view(seat)
        assert "stock" not in view and "hands" not in view and "rng" not in view
        own_hand = data["hands"][seat] if seat is not None else []
        own_pending = data["pending"][seat] if seat is not None else []
        assert view["hand"] == own_hand and view["pending"] == own_pending
        assert [tm for tm in view["table"]] == data["table"]
        assert view["stock_count"] == len(data["stock"])
        assert view["hand_counts"] == [
            len(h) + sum(len(m["cards"]) for m in p)
            for h, p in zip(data["hands"], data["pending"], strict=True)
        ]
        if view["taken_from_discard"] is not None:
            assert seat == rnd.to_play


def step(rnd: Round, rng: random.Random, deck: Counter[str], *, strict: bool) -> Move:
    """Play one accepted move for the seat on turn; with ``strict``, check every refusal and the
    invariants after the move."""
    seat = rnd.to_play
    before = rnd.to_dict() if strict else None
    for move in candidate_moves(rnd, seat, rng):
        try:
            rnd.apply(seat, move)
        except IllegalMove as err:
            assert err.code and err.rule.startswith("R")
            if strict:
                assert rnd.to_dict() == before, f"{move} changed the round although refused"
            continue
        if strict:
            assert all_cards(rnd.to_dict()) == deck
            check_views(rnd)
        return move
    raise AssertionError("no legal move found: a discard or a take-back is always legal")


def play_out(rnd: Round, rng: random.Random, *, strict: bool, limit: int = 3000) -> int:
    deck = Counter(str(c) for c in new_deck(rnd.rules.jokers))
    moves = 0
    while not rnd.over:
        step(rnd, rng, deck, strict=strict)
        moves += 1
        assert moves < limit, "a round must end"
    return moves


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_seats=st.integers(2, 6), rules=RULES)
def test_random_rounds_keep_every_card_once_and_refusals_change_nothing(
    seed: int, n_seats: int, rules: RuleSet
) -> None:
    # R1, R11-R19
    rnd = Round.deal(n_seats, rules=rules, dealer=seed % n_seats, rng=random.Random(seed))
    play_out(rnd, random.Random(seed + 1), strict=True)
    result = rnd.result()
    assert len(result.scores) == n_seats
    if rules.scoring == "penalty":
        assert all(score <= 0 for score in result.scores)
    if result.out is not None:
        assert result.in_hand[result.out] == 0


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_seats=st.integers(2, 6), rules=RULES, cut=st.integers(0, 400))
def test_a_restored_round_plays_on_exactly_like_the_original(
    seed: int, n_seats: int, rules: RuleSet, cut: int
) -> None:
    # R19: from_dict(to_dict()) is the same round, random state included
    rnd = Round.deal(n_seats, rules=rules, rng=random.Random(seed))
    deck = Counter(str(c) for c in new_deck(rules.jokers))
    driver = random.Random(seed + 7)
    for _ in range(cut):
        if rnd.over:
            break
        step(rnd, driver, deck, strict=False)
    copy = Round.from_dict(rnd.to_dict())
    assert copy.to_dict() == rnd.to_dict()
    state = driver.getstate()
    play_out(rnd, driver, strict=False)
    driver.setstate(state)
    play_out(copy, driver, strict=False)
    assert copy.to_dict() == rnd.to_dict()
    assert copy.result() == rnd.result()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_seats=st.integers(2, 4), rules=RULES)
def test_random_matches_end_with_one_highest_total(seed: int, n_seats: int, rules: RuleSet) -> None:
    # R4, R6
    match = Match.new(n_seats, rules=rules, rng=random.Random(seed))
    driver = random.Random(seed + 3)
    dealers = []
    while True:
        dealers.append(match.dealer)
        rnd = match.round
        assert match.round.dealer == match.round_seats.index(match.dealer)
        play_out(rnd, driver, strict=False)
        if match.over:
            break
        restored = Match.from_dict(match.to_dict())
        assert restored.to_dict() == match.to_dict()
        match.next_round()
        assert restored.next_round().to_dict() == match.round.to_dict()
    totals = match.totals
    assert totals == [sum(r.scores[s] for r in match.history) for s in range(n_seats)]
    assert match.winner is not None and totals.count(max(totals)) == 1 and totals[match.winner] == max(totals)
    planned = match.rounds_planned
    assert dealers[:planned] == [s % n_seats for s in range(planned)]
    assert len(match.history) == match.round_no >= planned
