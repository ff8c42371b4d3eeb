"""best_melds: the most points a hand can lay (R2, R7-R10), checked against a brute-force search."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, Card, new_deck, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.meld import Meld, make_meld
from bot.engine.solver import best_melds, meld_candidates, melds_score


@cache
def meld_or_none(group: tuple[Card, ...]) -> Meld | None:
    try:
        return make_meld(group)
    except IllegalMove:
        return None


@cache
def brute_force(hand: tuple[Card, ...]) -> tuple[int, int, int]:
    """The best (points, -jokers, cards) over every way to split the sorted ``hand`` into melds."""
    if not hand:
        return (0, 0, 0)
    first, others = hand[0], hand[1:]
    best = brute_force(others)  # the first card stays in the hand
    seen: set[tuple[Card, ...]] = set()
    for size in range(2, len(others) + 1):
        for chosen in combinations(range(len(others)), size):
            group = (first, *(others[i] for i in chosen))
            if group in seen:
                continue
            seen.add(group)
            m = meld_or_none(group)
            if m is None:
                continue
            rest = tuple(card for i, card in enumerate(others) if i not in chosen)
            points, jokers, cards = brute_force(rest)
            best = max(best, (points + m.points, jokers - m.jokers, cards + len(m.cards)))
    return best


def check_answer(hand: list[Card], melds: list[Meld]) -> None:
    """The melds are legal, as make_meld lays their cards (R10), and a sub-multiset of the hand."""
    used = Counter(card for m in melds for card in m.cards)
    assert not used - Counter(hand)
    for m in melds:
        assert make_meld(m.cards) == m


# Dense on purpose: two suits around the middle, the aces and kings, and jokers make many melds.
POOL = [
    card
    for card in new_deck(4)
    if card.is_joker or (card.suit in "SH" and 4 <= card.rank <= 9) or card.rank in (1, 2, 12, 13)
]


@settings(max_examples=120, deadline=None)
@given(hand=st.lists(st.sampled_from(POOL), min_size=0, max_size=9))
def test_best_melds_matches_brute_force(hand: list[Card]) -> None:
    # R2, R7-R10: no split of the hand into melds scores more.
    melds = best_melds(hand)
    check_answer(hand, melds)
    assert melds_score(melds) == brute_force(tuple(sorted(hand)))


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(st.sampled_from(POOL), min_size=10, max_size=14))
def test_best_melds_is_legal_and_deterministic_on_big_hands(hand: list[Card]) -> None:
    melds = best_melds(hand)
    check_answer(hand, melds)
    assert best_melds(reversed(hand)) == melds


@pytest.mark.parametrize(
    ("hand", "points"),
    [
        ("", 0),
        ("5S 6S", 0),
        ("JK JK JK JK", 0),  # R9: jokers alone make nothing
        ("5S 9H KD JK", 0),
        ("5S 6S 7S", 18),
        ("5S 6S JK", 18),  # R10: the joker is the 7
        ("QS KS AS AH AD JK", 31 + 33),  # R2: the aces count 11 in Q-K-A and in the set
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", 95),  # R10
        ("7S 7H 7D 8S 9S", 24),  # the 7S goes to 7-8-9 (24), not to the set (21)
        ("7S 7H 7D 7C 8S 9S JK", 21 + 34),  # the joker is worth more as the 10S than as a fourth 7
    ],
)
def test_best_melds_examples(hand: str, points: int) -> None:
    cards = parse_cards(hand)
    melds = best_melds(cards)
    check_answer(cards, melds)
    assert melds_score(melds)[0] == points


def test_ties_go_to_fewer_jokers_then_more_cards() -> None:
    # 5-6-7 with the natural 7S beats 5-6-JK: same points, one joker fewer.
    assert [str(m) for m in best_melds(parse_cards("5S 6S 7S JK 2D"))] == ["5S 6S 7S JK=8S"]
    assert [str(m) for m in best_melds(parse_cards("QS KS AS JK"))] == ["JK=JS QS KS AS"]


def test_two_identical_cards_can_serve_two_melds() -> None:
    # R1: the hand is a multiset.
    melds = best_melds(parse_cards("5S 5S 6S 6S 7S 7S"))
    assert sorted(str(m) for m in melds) == ["5S 6S 7S", "5S 6S 7S"]


@settings(max_examples=80, deadline=None)
@given(hand=st.lists(st.sampled_from(POOL), min_size=3, max_size=8))
def test_candidates_are_the_legal_melds_of_the_hand(hand: list[Card]) -> None:
    candidates = meld_candidates(hand)
    melds = [candidate.meld() for candidate in candidates]
    assert len({tuple(sorted(m.cards)) for m in melds}) == len(melds)  # no meld twice
    for candidate, m in zip(candidates, melds, strict=True):
        assert m.points == candidate.points
        assert not Counter(m.cards) - Counter(hand)
    # Every legal meld of three to five cards of the hand is a candidate.
    found = {tuple(sorted(m.cards)) for m in melds}
    for size in range(3, 6):
        for group in set(combinations(sorted(hand), size)):
            assert (meld_or_none(group) is not None) == (group in found)


def random_hands(count: int, seed: int) -> list[list[Card]]:
    rng = random.Random(seed)
    naturals = [card for card in new_deck(4) if not card.is_joker]
    hands = []
    for _ in range(count):
        jokers = rng.randint(0, 4)
        hands.append(rng.sample(naturals, 14 - jokers) + [JOKER] * jokers)
    return hands


HARD_HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS JK JK JK JK",
    "5S 6S 7S 8S 9S 5H 6H 7H 8H 9H JK JK JK JK",
    "9S 10S JS QS KS AS 9H 10H JH QH KH AH JK JK",
    "5S 5S 6S 6S 7S 7S 8S 8S 9S 9S JK JK JK JK",
]


def test_best_melds_of_hard_and_random_hands_use_only_the_hand() -> None:
    # R7-R10: whatever the search returns is legal melds made of the hand's own cards, one copy each;
    # bench/engine.py times these same hands (speed is measured there, not here).
    for hand in [parse_cards(text) for text in HARD_HANDS] + random_hands(100, seed=5):
        melds = best_melds(hand)
        used = Counter(card for meld in melds for card in meld.cards)
        assert not used - Counter(hand)
        for meld in melds:
            assert make_meld(meld.cards).points == meld.points
