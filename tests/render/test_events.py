"""Every kind of turn event has words; secrets never appear in them."""

from __future__ import annotations

import pytest

from bot.render.events import event_phrase, last_move_text
from bot.service.game import TURN_EVENT_KINDS, Game, TurnEvent
from tests.render.render_helpers import make_seats


def game() -> Game:
    return Game(id=1, guild_id=1, channel_id=1, host_id=100, seats=make_seats(3))


@pytest.mark.parametrize("kind", sorted(TURN_EVENT_KINDS - {"round_over"}))
def test_every_event_kind_has_words(kind: str) -> None:
    # The catalog is strict under tests: a kind without a message fails here.
    text = event_phrase(TurnEvent(1, kind, cards=["5S"], source="discard", meld_id="m1", card="5S"))
    assert text and "event." not in text


def test_status_events_read_as_sentences() -> None:
    events = [TurnEvent(1, "away"), TurnEvent(2, "left"), TurnEvent(0, "back")]
    assert last_move_text(game(), events) == (
        "Ben is away: the computer plays for them. "
        "Cleo left the game: the computer plays for them. "
        "Anna is back."
    )


def test_an_auto_move_is_marked_and_no_events_is_no_text() -> None:
    events = [TurnEvent(2, "draw", source="stock", auto=True), TurnEvent(2, "discard", card="KD", auto=True)]
    assert (
        last_move_text(game(), events)
        == "Cleo drew from the stock and discarded K♦ (played by the computer)."
    )
    assert last_move_text(game(), []) is None


def test_a_round_with_nobody_out() -> None:
    # R18
    assert last_move_text(game(), [TurnEvent(None, "round_over")]) == (
        "The stock ran out: the round is over and nobody went out."
    )


def test_a_stock_draw_never_shows_a_card() -> None:
    # R19: even if a card slipped into the event, a stock draw is worded without it.
    assert event_phrase(TurnEvent(0, "draw", cards=["AS"], source="stock")) == "drew from the stock"
