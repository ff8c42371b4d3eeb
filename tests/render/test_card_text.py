"""Cards as text: ♠ and ♣ stay readable on a dark theme."""

from __future__ import annotations

from bot.engine.cards import Card
from bot.render.cards import card_text, cards_text, hand_text


def test_dark_suits_are_marked_as_text_and_red_suits_are_left_alone() -> None:
    # Bare ♠ ♣ are drawn as black emoji by many clients; U+FE0E asks for the text glyph.
    assert card_text("7S") == "7♠\ufe0e"
    assert card_text("QC") == "Q♣\ufe0e"
    assert card_text("10H") == "10♥"
    assert card_text("KD") == "K♦"
    assert card_text("JK") == "🃏"
    assert cards_text(["AS", "2S"]) == "A♠\ufe0e 2♠\ufe0e"
    assert hand_text(["5C", "7H"], "suit") == "7♥ · 5♣\ufe0e"


def test_the_engine_symbol_is_unchanged() -> None:
    assert Card.parse("7S").symbol == "7♠"
