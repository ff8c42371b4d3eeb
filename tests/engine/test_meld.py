"""Melds: runs, sets, jokers, points, lay-offs and joker swaps (R2, R7-R10, R15, R16)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, SUITS, Card, card_codes, parse_cards
from bot.engine.errors import IllegalMove
from bot.engine.meld import Meld, make_meld


def meld(text: str) -> Meld:
    return make_meld(parse_cards(text))


def table(m: Meld) -> str:
    """The meld as it lies, each joker with the card it stands for."""
    return str(m)


def refused(text: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        meld(text)
    return caught.value


# --- R7 runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "laid", "points"),
    [
        ("2H 3H 4H 5H", "2H 3H 4H 5H", 14),  # R7
        ("5H 2H 4H 3H", "2H 3H 4H 5H", 14),  # R7: any order
        ("3S AS 2S", "AS 2S 3S", 6),  # R7, R2: ace low counts 1
        ("AS KS QS", "QS KS AS", 31),  # R7, R2: ace high counts 11
        ("9D JD 10D QD KD", "9D 10D JD QD KD", 49),  # R2: faces count 10
        ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", 95),  # R10
    ],
)
def test_legal_runs(cards: str, laid: str, points: int) -> None:
    m = meld(cards)
    assert (m.kind, table(m), m.points, m.suit, m.rank) == ("run", laid, points, m.cards[0].suit, None)


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("2H 3H", "meld.too_short"),  # R7: three or more
        ("2H 3S 4H", "meld.mixed_suits"),  # R7: one suit
        ("7S 7H 8S", "meld.mixed_suits"),  # R7/R8: neither one suit nor one rank
        ("2H 3H 5H", "meld.not_consecutive"),  # R7: consecutive
        ("2H 3H 3H 4H", "meld.repeated_rank"),  # R7: no rank twice
        ("KS AS 2S", "meld.around_corner"),  # R7: never around the corner
        ("QS KS AS 2S", "meld.around_corner"),  # R7
        ("KS JK 2S", "meld.around_corner"),  # R7: not even with a joker as the ace
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", "meld.too_long"),  # R7: at most 13 cards
    ],
)
def test_illegal_runs(cards: str, code: str) -> None:
    error = refused(cards)
    assert (error.code, error.rule) == (code, "R7")


def test_a_run_never_holds_the_ace_at_both_ends() -> None:
    # R7: the ace is low or high, never both: A-2-…-K-A is 14 cards and never a run.
    error = refused("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS")
    assert error.rule == "R7"


# --- R8 sets -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "laid", "points"),
    [
        ("QS QH QD", "QS QH QD", 30),  # R8
        ("QC QD QS QH", "QS QH QD QC", 40),  # R8: four suits, shown S H D C
        ("AH AS AD", "AS AH AD", 33),  # R2: an ace in a set counts 11
        ("2D 2C 2H", "2H 2D 2C", 6),
    ],
)
def test_legal_sets(cards: str, laid: str, points: int) -> None:
    m = meld(cards)
    assert (m.kind, table(m), m.points, m.rank, m.suit) == ("set", laid, points, m.cards[0].rank, None)


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("QH QH QS", "meld.repeated_suit"),  # R8: each suit once
        ("7H 7H JK", "meld.repeated_suit"),  # R8: not a set, and (rank twice) not a run
        ("QS QH QD QC QS", "meld.repeated_suit"),  # R8
        ("QS QH QD QC JK", "meld.too_long"),  # R8: at most four cards
    ],
)
def test_illegal_sets(cards: str, code: str) -> None:
    error = refused(cards)
    assert (error.code, error.rule) == (code, "R8")


# --- R9 jokers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ("3S JK JK", "meld.too_many_jokers"),  # R9: two jokers need two naturals
        ("7S JK JK", "meld.too_many_jokers"),  # R9
        ("5S JK JK JK", "meld.too_many_jokers"),  # R9
        ("JK JK JK", "meld.jokers_only"),  # R9
        ("JK JK JK JK", "meld.jokers_only"),  # R9
    ],
)
def test_joker_limits(cards: str, code: str) -> None:
    error = refused(cards)
    assert (error.code, error.rule) == (code, "R9")


@pytest.mark.parametrize(
    ("cards", "laid"),
    [
        ("3S 3H JK JK", "3S 3H JK=3D JK=3C"),  # R9: two naturals carry two jokers
        ("7S JK JK 7H", "7S 7H JK=7D JK=7C"),  # R9, R10
        ("5S 6S JK JK", "5S 6S JK=7S JK=8S"),  # R9
        ("5S JK 7S JK JK", "5S JK=6S 7S JK=8S JK=9S"),  # R9: three jokers, two naturals
    ],
)
def test_two_naturals_carry_several_jokers(cards: str, laid: str) -> None:
    assert table(meld(cards)) == laid


# --- R10 joker places and points -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "laid", "points"),
    [
        ("5S 6S JK", "5S 6S JK=7S", 18),  # R10: upward first
        ("JK 6S 5S", "5S 6S JK=7S", 18),  # R10: order does not matter
        ("QS KS JK", "QS KS JK=AS", 31),  # R10: upward up to the ace, which counts 11
        ("AS KS JK", "JK=QS KS AS", 31),  # R10: a natural ace goes high when it can
        ("AS 2S JK", "AS 2S JK=3S", 6),  # R10: otherwise low
        ("2S 3S JK", "2S 3S JK=4S", 9),  # R10: upward, not down to the ace
        ("5S 7S JK", "5S JK=6S 7S", 18),  # R10: gaps first
        ("5S 7S JK JK", "5S JK=6S 7S JK=8S", 26),  # R10: gaps, then upward
        ("QS KS JK JK", "JK=JS QS KS JK=AS", 41),  # R10: upward to the ace, then downward
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK", "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS JK=KS AS", 95),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK=AH", 95),
        ("7S 8S JK", "7S 8S JK=9S", 24),  # R10: two naturals of two ranks make a run
        ("7S 7H JK", "7S 7H JK=7D", 21),  # R10: two naturals of one rank make a set
        ("7H 7C JK JK", "7H 7C JK=7S JK=7D", 28),  # R10: the first lacking suits, S H D C
    ],
)
def test_joker_places_and_points(cards: str, laid: str, points: int) -> None:
    m = meld(cards)
    assert (table(m), m.points, m.jokers) == (laid, points, cards.split().count("JK"))


def test_thirteen_card_run_counts_its_ace_high_even_when_laid_low() -> None:
    # R10: a run of all thirteen ranks is worth 95, however the ace got there.
    low = meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS").extend([Card.parse("KS")])
    assert (table(low).split()[0], low.points) == ("AS", 95)
    assert meld("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS").points == 1 + 54 + 20


# --- the Meld value ------------------------------------------------------------------------------


def test_meld_round_trips_through_a_dict() -> None:
    m = meld("JK QS KS")
    data = m.to_dict()
    assert data == {
        "kind": "run",
        "cards": ["QS", "KS", "JK"],
        "stands_for": ["QS", "KS", "AS"],
        "points": 31,
    }
    assert Meld.from_dict(data) == m


@pytest.mark.parametrize(
    ("kind", "cards", "stands_for", "code"),
    [
        ("run", "5S 6S 8S", "5S 6S 8S", "meld.not_consecutive"),  # R7
        ("run", "5S 6S JK", "5S 6S 7H", "meld.mixed_suits"),  # R7
        ("set", "5S 5S 5H", "5S 5S 5H", "meld.repeated_suit"),  # R8
        ("set", "5S 6S JK", "5S 6S 5H", "meld.mixed_ranks"),  # R8
        ("run", "5S JK JK", "5S 6S 7S", "meld.too_many_jokers"),  # R9
        ("run", "5S 6S 7S", "5S 6S 8S", "meld.invalid"),  # a natural stands for itself
    ],
)
def test_a_meld_that_breaks_the_rules_cannot_be_built(
    kind: str, cards: str, stands_for: str, code: str
) -> None:
    with pytest.raises(IllegalMove) as caught:
        Meld.from_dict({"kind": kind, "cards": cards.split(), "stands_for": stands_for.split()})
    assert caught.value.code == code


# --- R15 lay-off ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "laid", "end", "result"),
    [
        ("5S 6S JK", "8S", None, "5S 6S JK=7S 8S"),  # R15
        ("5S 6S JK", "9S 8S", None, "5S 6S JK=7S 8S 9S"),  # R15: several cards at once
        ("5S 6S JK", "4S 3S", None, "3S 4S 5S 6S JK=7S"),  # R15: at the low end
        ("5S 6S JK", "4S 8S", None, "4S 5S 6S JK=7S 8S"),  # R15: at both ends
        ("5S 6S JK", "9S JK", None, "5S 6S JK=7S JK=8S 9S"),  # R10: a laid joker fills a gap first
        ("5S 6S JK", "JK", None, "5S 6S JK=7S JK=8S"),  # R10: then goes upward
        ("5S 6S JK", "JK", "low", "JK=4S 5S 6S JK=7S"),  # R10: unless the player says low
        ("5S 6S JK", "JK", "high", "5S 6S JK=7S JK=8S"),
        ("QS KS AS", "JK", None, "JK=JS QS KS AS"),  # R10: downward when it cannot go up
        ("JS QS KS", "AS", None, "JS QS KS AS"),  # R7: the ace goes high after the king
        ("2S 3S 4S", "AS", None, "AS 2S 3S 4S"),  # R7: and low before the 2
        ("7S 7H 7D", "7C", None, "7S 7H 7D 7C"),  # R15: sets take a missing suit
        ("7S 7H 7D", "JK", None, "7S 7H 7D JK=7C"),  # R15: or a joker
        ("7S 7H JK", "7D", None, "7S 7H JK=7C 7D"),  # R15: the set's joker moves to the suit still lacking
    ],
)
def test_lay_off(start: str, laid: str, end: str | None, result: str) -> None:
    before = meld(start)
    after = before.extend(parse_cards(laid), end=end)
    assert table(after) == result
    # Contract: old cards keep their places, a contiguous slice of a run, a prefix of a set.
    codes, old = card_codes(after.cards), card_codes(before.cards)
    if after.kind == "set":
        assert codes[: len(old)] == old
    else:
        assert any(codes[i : i + len(old)] == old for i in range(len(codes)))
        offset = next(i for i in range(len(codes)) if codes[i : i + len(old)] == old)
        assert after.stands_for[offset : offset + len(old)] == before.stands_for


@pytest.mark.parametrize(
    ("start", "laid", "end", "code", "rule"),
    [
        ("5S 6S JK", "7S", None, "layoff.joker_holds_place", "R15"),  # R15: that would be a swap (R16)
        ("5S 6S JK", "6S", None, "meld.repeated_rank", "R7"),
        ("5S 6S JK", "9S", None, "meld.not_consecutive", "R7"),  # R15: the run must stay consecutive
        ("5S 6S JK", "8H", None, "meld.mixed_suits", "R7"),
        ("5S 6S JK", "8S 8S", None, "meld.repeated_rank", "R7"),
        ("QS KS AS", "2S", None, "meld.not_consecutive", "R7"),  # R7: not around the corner
        ("QS KS AS", "JK", "high", "layoff.no_room", "R15"),  # R10: nothing above the high ace
        ("AS 2S 3S", "JK", "low", "layoff.no_room", "R15"),
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "JK", None, "meld.too_long", "R7"),
        ("7S 7H 7D", "7S", None, "meld.repeated_suit", "R8"),  # R8: each suit once
        ("7S 7H 7D", "8C", None, "meld.mixed_ranks", "R8"),
        ("7S 7H 7D 7C", "JK", None, "meld.too_long", "R8"),  # R8: four cards at most
        ("7S 7H JK", "7C JK", None, "meld.too_long", "R8"),
    ],
)
def test_illegal_lay_off(start: str, laid: str, end: str | None, code: str, rule: str) -> None:
    with pytest.raises(IllegalMove) as caught:
        meld(start).extend(parse_cards(laid), end=end)
    assert (caught.value.code, caught.value.rule) == (code, rule)


def test_lay_off_needs_a_card() -> None:
    with pytest.raises(IllegalMove) as caught:
        meld("5S 6S 7S").extend([])
    assert (caught.value.code, caught.value.rule) == ("layoff.no_cards", "R15")


# --- R16 joker swap ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "card", "result"),
    [
        ("3S 4S JK 6S", "5S", "3S 4S 5S 6S"),  # R16: the card the joker stands for
        ("5S 6S JK", "7S", "5S 6S 7S"),  # R16
        ("5S 6S JK JK", "8S", "5S 6S JK=7S 8S"),  # R16: the other joker keeps its place
        ("7S 7H JK", "7D", "7S 7H 7D"),  # R16: in a set, a lacking suit
        ("7S 7H JK", "7C", "7S 7H 7C"),  # R16: any lacking suit
        ("7S 7H JK JK", "7C", "7S 7H JK=7D 7C"),  # R16: the joker that stood for 7C
    ],
)
def test_joker_swap(start: str, card: str, result: str) -> None:
    before = meld(start)
    after = before.swap_joker(Card.parse(card))
    assert table(after) == result
    assert after.jokers == before.jokers - 1
    assert len(after.cards) == len(before.cards)


@pytest.mark.parametrize(
    ("start", "card"),
    [
        ("3S 4S JK 6S", "7S"),  # R16: no joker stands for it
        ("3S 4S JK 6S", "5H"),  # R16: wrong suit
        ("3S 4S JK 6S", "JK"),  # R16: a joker does not free a joker
        ("5S 6S 7S", "7S"),  # R16: no joker at all
        ("7S 7H JK", "7S"),  # R16: the set already has that suit
        ("7S 7H JK", "8D"),  # R16: wrong rank
    ],
)
def test_illegal_joker_swap(start: str, card: str) -> None:
    with pytest.raises(IllegalMove) as caught:
        meld(start).swap_joker(Card.parse(card))
    assert (caught.value.code, caught.value.rule) == ("swap.not_replaceable", "R16")


# --- properties ----------------------------------------------------------------------------------


@st.composite
def legal_melds(draw: st.DrawFn) -> list[Card]:
    """The cards of a legal meld (R7-R9), in table order."""
    if draw(st.booleans()):
        rank = draw(st.integers(1, 13))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
        cards = [Card(rank, suit) for suit in suits]
    else:
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(3, 13))
        low = draw(st.integers(1, 15 - length))
        cards = [Card(1 if place == 14 else place, suit) for place in range(low, low + length)]
    jokers = draw(st.sets(st.integers(0, len(cards) - 1), max_size=len(cards) - 2))
    return [JOKER if i in jokers else card for i, card in enumerate(cards)]


@settings(max_examples=150, deadline=None)
@given(cards=legal_melds(), data=st.data())
def test_make_meld_is_the_same_for_every_order(cards: list[Card], data: st.DataObject) -> None:
    # R10: the cards decide the meld, not the order they are given in.
    first = make_meld(cards)
    shuffled = data.draw(st.permutations(cards))
    again = make_meld(shuffled)
    assert again == first
    assert sorted(first.cards) == sorted(cards)
    assert Meld.from_dict(first.to_dict()) == first


@settings(max_examples=150, deadline=None)
@given(cards=st.lists(st.sampled_from(parse_cards("AS 2S 3S QS KS 7S 7H 7D 8S JK")), min_size=3, max_size=6))
def test_make_meld_either_refuses_or_uses_exactly_the_cards(cards: list[Card]) -> None:
    try:
        m = make_meld(cards)
    except IllegalMove as error:
        assert error.rule in ("R7", "R8", "R9")
        return
    assert sorted(m.cards) == sorted(cards)
    assert m.points == expected_points(m)


def expected_points(m: Meld) -> int:
    """R2 spelled out: the ace counts 1 only at the low end of a run shorter than thirteen."""
    total = 0
    for i, stand in enumerate(m.stands_for):
        if stand.rank == 1:
            total += 1 if m.kind == "run" and i == 0 and len(m.cards) < 13 else 11
        else:
            total += min(stand.rank, 10)
    return total
