"""The computer player's shortcuts give the answers of the long way round (R7-R9, R11, R12)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, Card, hand_points, new_deck
from bot.engine.computer.hand import _alone
from bot.engine.solver import best_melds

NATURALS = sorted({card for card in new_deck(4) if not card.is_joker})


def deadwood(hand: list[Card]) -> int:
    return hand_points(hand) - hand_points(card for meld in best_melds(hand) for card in meld.cards)


@settings(max_examples=150, deadline=None)
@given(
    hand=st.lists(st.sampled_from(NATURALS), min_size=1, max_size=13),
    jokers=st.integers(0, 3),
    top=st.sampled_from(NATURALS),
)
def test_a_card_alone_leaves_the_best_melds_as_they_were(hand: list[Card], jokers: int, top: Card) -> None:
    # R7-R9: a card that joins no meld only adds its own points to the deadwood, so the player may
    # draw from the stock (R11) without solving both hands.
    cards = hand + [JOKER] * jokers
    if _alone(top, cards):
        assert best_melds([*cards, top]) == best_melds(cards)
        assert deadwood([*cards, top]) == deadwood(cards) + top.hand_points


def test_alone_means_no_partner_of_rank_or_near_in_suit() -> None:
    # R8: another suit of the rank makes a set with a joker; R7: a neighbour of the suit a run
    c = Card.parse
    assert _alone(c("7S"), [c("7S"), c("9H"), c("KD")])
    assert not _alone(c("7S"), [c("7H"), c("KD"), JOKER])
    assert not _alone(c("7S"), [c("8S"), c("KD")])
    assert _alone(c("7S"), [c("9S"), c("KD")])  # a gap needs a joker
    assert not _alone(c("7S"), [c("9S"), JOKER])
    assert not _alone(c("AS"), [c("KS"), c("2D")])  # the ace sits above the king too


def test_many_random_hands_agree() -> None:
    rng = random.Random(4)
    checked = 0
    for _ in range(400):
        cards = rng.sample(NATURALS, rng.randint(3, 12)) + [JOKER] * rng.randint(0, 2)
        top = rng.choice(NATURALS)
        if _alone(top, cards):
            checked += 1
            assert deadwood([*cards, top]) == deadwood(cards) + top.hand_points
    assert checked > 20
