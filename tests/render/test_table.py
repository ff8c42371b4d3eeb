"""The public table: what it says, its buttons per phase, Discord's limits, nothing secret."""

from __future__ import annotations

import discord

from bot.engine.cards import parse_cards
from bot.engine.round import Round
from bot.render.common import check_embed
from bot.render.table import table, table_content
from bot.service.game import GameStatus, Seat, TurnEvent
from tests.render.render_helpers import GameFactory, by_label, embed_text, make_seats, our_id, present

SUITS = "SHDC"
FULL_RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"


def three_seats() -> Round:
    return Round.from_position(
        ["2S 3S 4S 9C", "KD KC QD 8D 5C", "7C 7D 2H 3H"],
        "10D 10C 2C",
        "AH 3C",
        table=[(1, "QS QH QD"), (2, "5H 6H 7H")],
        dealer=0,
        to_play=1,
    )


def test_the_table_shows_round_dealer_turn_seats_piles_melds(game_at: GameFactory) -> None:
    game = game_at(three_seats(), seats=make_seats(3, computers=[2]))
    embed, _ = table(game)
    text = embed_text(embed)
    assert embed.title == "Rommé — round 1 of 3"  # R4: one round per seat
    assert "Dealer: Anna" in text
    assert "To play: **Ben** — draw a card" in text  # a name: a mention in an embed may show raw
    assert "<@" not in text
    assert table_content(game) == "<@101>, your turn."  # the ping is in the message content
    assert "▶ **Ben** — 5 cards · opened · 0 points" in text
    assert "**Anna** — 4 cards · not opened · 0 points" in text
    assert "**Computer 2** — 4 cards · opened · 0 points\n" in text  # its name says computer
    assert "Stock: 3 cards" in text
    assert "Discard pile: 3♣ on top (2 cards)" in text
    assert "`m1` Ben: Q♠ Q♥ Q♦ (30)" in text
    assert "`m2` Computer 2: 5♥ 6♥ 7♥ (18)" in text


def test_no_hand_is_ever_on_the_table(game_at: GameFactory) -> None:
    # R19: only counts of the hands, and only the top of the discard pile.
    embed, view = table(game_at(three_seats()))
    visible = embed_text(embed) + repr(view.to_components())
    for card in parse_cards("2S 4S 9C KD KC 8D 5C 7C 7D 2H 3H 10D 10C 2C AH"):
        assert card.symbol not in visible


def test_a_computer_on_turn_is_named_and_an_away_person_noted(game_at: GameFactory) -> None:
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C", to_play=1)
    seats = [Seat(100, "Anna"), Seat(None, "Computer 1", computer=True)]
    assert "To play: **Computer 1** — draw a card" in embed_text(table(game_at(rnd, seats=seats))[0])
    assert table_content(game_at(rnd, seats=seats)) is None
    seats = [Seat(100, "Anna"), Seat(101, "Ben", away=True)]
    assert "To play: **Ben** (away) — draw a card" in embed_text(table(game_at(rnd, seats=seats))[0])
    assert table_content(game_at(rnd, seats=seats)) is None  # the computer plays an away seat
    seats = [Seat(100, "Anna"), Seat(101, "Ben", computer=True)]
    assert "**Ben** — 3 cards · not opened · 0 points (left)" in embed_text(
        table(game_at(rnd, seats=seats))[0]
    )


def test_the_turn_deadline_is_a_discord_timestamp(game_at: GameFactory) -> None:
    game = game_at(three_seats())
    game.turn_deadline = 1_700_000_123.6
    embed, _ = table(game)
    assert "Time runs out <t:1700000123:R>" in present(embed.description)


def test_the_last_move_in_words(game_at: GameFactory) -> None:
    game = game_at(three_seats())
    game.last_turn = [
        TurnEvent(0, "draw", cards=["7H"], source="discard"),
        TurnEvent(0, "meld", cards=["QS", "QH", "QD"], meld_id="m1"),
        TurnEvent(0, "lay_off", cards=["8H"], meld_id="m2"),
        TurnEvent(0, "discard", card="3C"),
    ]
    last = embed_text(table(game)[0])
    assert "Anna took 7♥, melded Q♠ Q♥ Q♦, laid off 8♥ on m2 and discarded 3♣." in last


def test_secret_moves_are_worded_without_cards(game_at: GameFactory) -> None:
    # R13, R19: a stock draw shows no card; proposing melds and taking them back are not told at all.
    game = game_at(three_seats())
    game.last_turn = [TurnEvent(1, "draw", source="stock"), TurnEvent(1, "meld"), TurnEvent(1, "take_back")]
    text = embed_text(table(game)[0])
    assert text.endswith("Last move\nBen drew from the stock.")
    assert "propose" not in text and "took back" not in text


def opening_round() -> Round:
    return Round.from_position(
        ["2S 3S", "KD 3D", "7C 7D 2H"],
        "10D 10C 2C",
        "AH 3C",
        table=[(1, "5C 6C 7C"), (1, "JD QD KD"), (1, "9S 9H 9D"), (2, "5H 6H 7H")],
        opened=[False, True, True],
        dealer=0,
        to_play=1,
    )


def test_an_opening_reads_as_one_move_with_its_points(game_at: GameFactory) -> None:
    # R13: the proposed melds go down with the one that reaches the opening; nobody saw them before.
    game = game_at(opening_round())
    game.last_turn = [
        TurnEvent(1, "draw", source="stock"),
        TurnEvent(1, "meld"),
        TurnEvent(1, "meld", cards=["5C", "6C", "7C"], meld_id="m1"),
        TurnEvent(1, "meld", cards=["JD", "QD", "KD"], meld_id="m2"),
        TurnEvent(1, "meld", cards=["9S", "9H", "9D"], meld_id="m3"),
        TurnEvent(1, "discard", card="3D"),
    ]
    assert embed_text(table(game)[0]).endswith(
        "Ben drew from the stock, opened with 5♣ 6♣ 7♣ and J♦ Q♦ K♦ (48 points), melded 9♠ 9♥ 9♦ "
        "and discarded 3♦."
    )


def test_melds_after_the_opening_read_as_one_list(game_at: GameFactory) -> None:
    # R14: Ben opened in an earlier turn (m1 is not this turn's), so these are plain melds.
    game = game_at(opening_round())
    game.last_turn = [
        TurnEvent(1, "draw", cards=["AH"], source="discard"),
        TurnEvent(1, "meld", cards=["JD", "QD", "KD"], meld_id="m2"),
        TurnEvent(1, "meld", cards=["9S", "9H", "9D"], meld_id="m3"),
    ]
    assert "Ben took A♥ and melded J♦ Q♦ K♦ and 9♠ 9♥ 9♦." in embed_text(table(game)[0])


def test_a_timeout_and_the_end_of_the_round_are_told(game_at: GameFactory) -> None:
    game = game_at(three_seats())
    game.last_turn = [
        TurnEvent(1, "timeout"),
        TurnEvent(1, "draw", source="stock", auto=True),
        TurnEvent(1, "discard", card="5C", auto=True),
        TurnEvent(2, "swap_joker", cards=["JK", "9C", "9D"], meld_id="m1", card="6H"),
        TurnEvent(1, "round_over"),
    ]
    text = embed_text(table(game)[0])
    assert (
        "Ben ran out of time, so the computer played for them, drew from the stock and discarded 5♣." in text
    )
    assert "Cleo swapped 6♥ for the joker in m1 and melded 🃏 9♣ 9♦." in text
    assert text.endswith(
        "Cleo swapped 6♥ for the joker in m1 and melded 🃏 9♣ 9♦. Ben went out: the round is over."
    )


def test_buttons_follow_the_phase(game_at: GameFactory) -> None:
    rnd = three_seats()
    game = game_at(rnd)
    buttons = by_label(table(game)[1])
    assert list(buttons) == ["My hand", "Draw", "Take discard"]
    assert [b["disabled"] for b in buttons.values()] == [False, False, False]
    assert [our_id(b["custom_id"]).action for b in buttons.values()] == ["hand", "draw", "take"]
    rnd.draw(1, "stock")  # R11: after the draw only My hand stays useful
    assert [b["disabled"] for b in by_label(table(game)[1]).values()] == [False, True, True]
    game.status = GameStatus.FINISHED
    assert all(b["disabled"] for b in by_label(table(game)[1]).values())


def test_a_tiebreak_round_is_titled_and_seats_sitting_out_are_noted(game_at: GameFactory) -> None:
    # R6
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C")
    game = game_at(rnd, n_seats=3, round_seats=[0, 2], round_no=4)
    embed, _ = table(game)
    assert embed.title == "Rommé — tie-break round 1 (after 3 rounds)"  # the first, not the 4th
    assert "**Ben** — — · — · 0 points (sits out the tie-break)" in embed_text(embed)
    assert "To play: **Anna**" in present(embed.description)
    assert table_content(game) == "<@100>, your turn."  # round seat 0 is match seat 0


def test_six_seats_and_many_long_melds_stay_within_discord_limits(game_at: GameFactory) -> None:
    melds = [(seat % 6, FULL_RUN.replace("S", SUITS[seat % 4])) for seat in range(60)]
    rnd = Round.from_position([FULL_RUN] * 6, "10D", "3C", table=melds)
    seats = [Seat(100 + n, f"{'W' * 31}{n}") for n in range(6)]
    game = game_at(rnd, seats=seats)
    game.last_turn = [TurnEvent(0, "lay_off", cards=["JK"] * 10, meld_id=f"m{n}") for n in range(1, 40)]
    embed, view = table(game)
    check_embed(embed)
    assert len(embed.fields) <= 25
    assert all(len(present(field.value)) <= 1024 for field in embed.fields)
    assert len(embed) <= 6000
    assert "more melds" in embed_text(embed)
    assert isinstance(view, discord.ui.View) and view.timeout is None


def test_nobody_is_called_once_the_game_is_not_running(game_at: GameFactory) -> None:
    game = game_at(three_seats())
    assert table_content(game) is not None
    game.status = GameStatus.FINISHED
    assert table_content(game) is None
