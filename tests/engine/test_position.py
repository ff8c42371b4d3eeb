"""Round.from_position takes cards in every form a test or puzzle writes them."""

from __future__ import annotations

from bot.engine import Round, parse_cards


def test_lists_of_codes_are_cards_like_a_string_of_codes() -> None:
    as_lists = Round.from_position(
        [["7S", "9H"], ["KC", "KD"]], ["4D", "5D"], ["2D"], table=[(1, ["QS", "QH", "QD"])]
    )
    as_text = Round.from_position(["7S 9H", "KC KD"], "4D 5D", "2D", table=[(1, "QS QH QD")])
    as_cards = Round.from_position(
        [parse_cards("7S 9H"), parse_cards("KC KD")],
        parse_cards("4D 5D"),
        parse_cards("2D"),
        table=[(1, parse_cards("QS QH QD"))],
    )
    assert as_lists.to_dict() == as_text.to_dict() == as_cards.to_dict()
    assert as_lists.hand(0) == parse_cards("7S 9H")


def test_a_move_on_a_position_given_as_codes_finds_its_cards() -> None:
    # R16: the swap takes 7S, 9H and 10H from a hand that was written as codes.
    rnd = Round.from_position(
        [["2C", "3C"], ["7S", "9H", "10H", "KC"]],
        ["4D"],
        ["2D"],
        table=[(0, "5S 6S JK")],
        to_play=1,
        opened=[True, True],
    )
    rnd.draw(1, "stock")
    meld = rnd.swap_joker(1, parse_cards("7S")[0], "m1", parse_cards("9H 10H"))
    assert [str(c) for c in meld.stands_for] == ["9H", "10H", "JH"]
    assert rnd.hand(1) == parse_cards("KC 4D")
