"""Card codes: the one parser of the engine and the rendering, and make_meld's melds built without a
second check (R1, R7-R10)."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from bot.engine.cards import CARDS, JOKER, NATURALS, SUITS, Card, new_deck, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.meld import MAX_RUN, Meld, make_meld

DISTINCT = sorted(set(new_deck(4)))
"""The 53 different cards: 52 naturals and the joker (R1)."""


# --- one table of canonical codes ----------------------------------------------------------------


def test_the_table_holds_each_card_once_under_the_code_it_writes() -> None:
    # R1: 52 naturals and the joker, each under its own code.
    assert len(CARDS) == 53
    assert sorted(CARDS.values()) == DISTINCT
    assert all(str(card) == code for code, card in CARDS.items())


def test_a_row_of_naturals_holds_each_place_of_a_run() -> None:
    # R7: places 1-14, the ace at both ends.
    for suit in SUITS:
        row = NATURALS[suit]
        assert [(card.rank, card.suit) for card in row[1:]] == [
            (1 if place == 14 else place, suit) for place in range(1, 15)
        ]


@pytest.mark.parametrize("code", sorted(CARDS))
def test_every_spelling_of_a_code_is_the_same_card(code: str) -> None:
    card = CARDS[code]
    assert Card.parse(code) is card
    for spelling in (code.lower(), f" {code} ", code.capitalize(), f"\t{code.lower()}\n"):
        assert Card.parse(spelling) == card
    assert parse_cards([code, code.lower()]) == [card, card]


@pytest.mark.parametrize("code", ["1H", "11S", "0S", "AX", "J", "", " ", "JK!", "10", "H10", "7♥", "JOKER"])
def test_a_bad_code_is_refused_by_name(code: str) -> None:
    with pytest.raises(ValueError, match="not a card code") as caught:
        Card.parse(code)
    assert repr(code) in str(caught.value)
    with pytest.raises(ValueError, match="not a card code"):
        parse_cards(["7H", code.strip() or "?", "8H"])


def test_parse_cards_takes_text_lists_tuples_and_one_pass_iterables() -> None:
    expected = [Card(7, "H"), Card(10, "S"), JOKER]
    assert parse_cards("7H 10S JK") == expected
    assert parse_cards("7h, 10S,JK") == expected
    assert parse_cards(["7H", "10S", "JK"]) == expected
    assert parse_cards(("7H", "10s", "JK")) == expected
    assert parse_cards(code for code in ["7H", " 10S", "JK"]) == expected
    assert parse_cards("") == []


def test_a_bad_code_among_good_ones_is_named() -> None:
    with pytest.raises(ValueError, match="'KX'"):
        parse_cards("7H KX 8H")


# --- make_meld's melds are legal without the constructor's check ---------------------------------


@functools.cache
def shapes(length: int) -> dict[tuple[str, int | str], list[tuple[frozenset[Card], tuple[Card, ...]]]]:
    """Every run and set of ``length`` places R7 and R8 allow, by ``("run", suit)`` and ``("set",
    rank)``: the natural cards the places stand for, as a set and in table order (a run low to high,
    a set in suit order)."""
    found: dict[tuple[str, int | str], list[tuple[frozenset[Card], tuple[Card, ...]]]] = {}
    for suit in SUITS:
        for low in range(1, 16 - length) if length <= MAX_RUN else ():
            if not (low == 1 and low + length - 1 == 14):  # R7: never round the corner
                places = tuple(Card(1 if p == 14 else p, suit) for p in range(low, low + length))
                found.setdefault(("run", suit), []).append((frozenset(places), places))
    for rank in range(1, 14):
        for suits in itertools.combinations(SUITS, length) if length <= 4 else ():
            places = tuple(Card(rank, suit) for suit in suits)
            found.setdefault(("set", rank), []).append((frozenset(places), places))
    return found


def expected_meld(cards: list[Card]) -> tuple[str, tuple[Card, ...], tuple[Card, ...]] | None:
    """What the rules make of exactly ``cards``, found by trying every run and set, independently of
    make_meld: ``(kind, cards as they lie, what each stands for)``, or ``None`` when no meld is legal.

    R7-R9 say which melds are legal. Of a run's legal windows R10 takes the highest (jokers fill
    the gaps, then go upward, then downward). In a set, where R10 lets a joker stand for any suit the
    set lacks, the engine lays the naturals in suit order, then the jokers for the first suits lacking.
    """
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals or (jokers >= 2 and len(naturals) < 2):
        return None  # R7 three cards at least; R9 no jokers alone, two naturals to carry two jokers
    distinct = frozenset(naturals)
    if len(distinct) < len(naturals):
        return None  # R7, R8: no card twice in a run or a set
    found = []
    for kind, key in (("run", naturals[0].suit), ("set", naturals[0].rank)):
        for places_set, places in shapes(len(cards)).get((kind, key), []):
            if distinct <= places_set:
                found.append((kind, places))
    if not found:
        return None
    assert len({kind for kind, _ in found}) == 1  # R9 leaves no group both a run and a set
    if found[0][0] == "run":
        places = max(found, key=lambda way: way[1][0].rank)[1]  # the lowest place: 1 for a low ace
        return "run", tuple(place if place in distinct else JOKER for place in places), places
    lacking = [Card(naturals[0].rank, suit) for suit in SUITS if Card(naturals[0].rank, suit) not in distinct]
    laid = tuple(sorted(naturals, key=lambda card: SUITS.index(card.suit)))
    return "set", (*laid, *[JOKER] * jokers), (*laid, *lacking[:jokers])


def check_against_the_rules(cards: list[Card]) -> None:
    """make_meld takes ``cards`` exactly when the rules make a meld of them, lays it as they say, and
    what it builds passes the checking constructor unchanged."""
    expected = expected_meld(cards)
    try:
        meld = make_meld(cards)
    except IllegalMove as error:
        assert expected is None, (cards, expected, error)
        assert error.rule in ("R7", "R8", "R9")
        return
    assert (meld.kind, meld.cards, meld.stands_for) == expected, cards
    assert Meld(meld.kind, meld.cards, meld.stands_for) == meld


def test_every_three_cards_make_a_meld_exactly_when_the_rules_allow_one() -> None:
    # R7-R9: every multiset of three of the 53 different cards (26,235 of them).
    for cards in itertools.combinations_with_replacement(DISTINCT, 3):
        check_against_the_rules(list(cards))


def test_random_longer_groups_make_a_meld_exactly_when_the_rules_allow_one() -> None:
    # R7-R10: groups of 4 to 13 cards from two decks and four jokers, many of them legal by design.
    rng = random.Random(17)
    deck = new_deck(4)
    for _ in range(3000):
        length = rng.randint(4, 13)
        if rng.random() < 0.5:
            cards = rng.sample(deck, length)
        else:
            suit, low = rng.choice(SUITS), rng.randint(1, 15 - length)
            cards = [Card(1 if p == 14 else p, suit) for p in range(low, low + length)]
            for i in rng.sample(range(length), rng.randint(0, 3)):
                cards[i] = JOKER
            if rng.random() < 0.3:
                cards[rng.randrange(length)] = rng.choice(deck)
        check_against_the_rules(cards)
