"""The hand panel: only the seat's own cards, only the moves that can be legal, state in the ids."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.cards import Card, parse_cards
from bot.engine.round import Round
from bot.render.ids import PanelState, parse_custom_id, parse_target_value
from bot.render.panel import hand_panel
from bot.service.game import Game
from tests.render.render_helpers import (
    GameFactory,
    by_label,
    components,
    embed_text,
    our_id,
    present,
    selects,
    visible,
)

MOVES = ("Draw", "Take discard", "Meld", "Lay off", "Swap joker", "Discard", "Take back")
LABELS = ["Draw", "Take discard", "Meld", "Discard", "Sort", "Lay off", "Swap joker", "Take back", "Hint"]


def enabled(view: discord.ui.View) -> set[str]:
    return {label for label, button in by_label(view).items() if not button["disabled"]}


def two_seats(**kwargs: Any) -> Round:
    return Round.from_position(["2S 3S 4S 5H 6H 7H 9C 7H", "KD KC QD QC 8D JD"], "10D 10C 2C", "3C", **kwargs)


def test_the_panel_shows_none_of_another_seats_cards(game_at: GameFactory) -> None:
    # R19: a seat sees its own hand only.
    game = game_at(two_seats())
    embed, view = hand_panel(game, 0, selected=["7H"])
    visible = embed_text(embed) + repr(components(view))
    for card in parse_cards("KD KC QD QC 8D JD"):
        assert card.symbol not in visible
        assert f"'{card}'" not in visible  # no option value either
    for card in parse_cards("2S 3S 4S 5H 6H 7H 9C"):
        assert card.symbol in present(embed.description)
    # The stock is secret too.
    assert "10♦" not in visible and "2♣" not in visible


def test_labels_are_exact_and_every_id_parses_back_with_the_state(game_at: GameFactory) -> None:
    game = game_at(two_seats())
    _, view = hand_panel(game, 0, sort="rank", selected=["7H", "9C"])
    assert list(by_label(view)) == LABELS
    for item in components(view):
        parsed = parse_custom_id(item["custom_id"])
        assert parsed is not None and parsed.game_id == 42 and parsed.version == game.seat_version(0)
        state = parsed.panel_state()
        if parsed.action == "sort":
            assert state == PanelState("suit", None, ("7H", "9C"))  # Sort carries the order it switches to
        elif parsed.action == "select":
            assert state == PanelState("rank")  # the select's values carry the selection
        else:
            assert state == PanelState("rank", None, ("7H", "9C"))
    assert all(item["type"] in (2, 3) for item in components(view))
    assert view.timeout is None


def test_in_the_draw_phase_only_drawing_is_on(game_at: GameFactory) -> None:
    # R11: draw first.
    game = game_at(two_seats())
    _, view = hand_panel(game, 0, selected=["5H", "6H", "7H"])
    assert enabled(view) == {"Draw", "Take discard", "Sort", "Hint"}


def test_take_discard_is_off_without_a_discard_pile(game_at: GameFactory) -> None:
    rnd = Round.from_position(["2S 3S 4S 9C", "KD KC QD QC"], "10D 10C", "")
    _, view = hand_panel(game_at(rnd), 0)
    assert "Draw" in enabled(view) and "Take discard" not in enabled(view)


def test_off_turn_no_move_is_on(game_at: GameFactory) -> None:
    game = game_at(two_seats())
    embed, view = hand_panel(game, 1, selected=["KD"])
    assert enabled(view) & set(MOVES) == set()
    # The panel is redrawn when the seat's turn comes, not at every other move: it names nobody.
    assert "Not your turn yet" in present(embed.description) and "Anna" not in present(embed.description)
    assert not [item for item in view.children if getattr(item, "custom_id", "").split(":")[2] == "drop"]


def test_meld_needs_three_selected_cards_and_discard_exactly_one(game_at: GameFactory) -> None:
    rnd = two_seats()
    rnd.draw(0, "stock")
    game = game_at(rnd)
    assert enabled(hand_panel(game, 0)[1]) & set(MOVES) == set()
    assert enabled(hand_panel(game, 0, selected=["9C"])[1]) & set(MOVES) == {"Discard"}
    assert enabled(hand_panel(game, 0, selected=["9C", "2S"])[1]) & set(MOVES) == set()
    assert enabled(hand_panel(game, 0, selected=["2S", "3S", "4S"])[1]) & set(MOVES) == {"Meld"}


def test_the_card_taken_from_the_discard_pile_cannot_be_discarded(game_at: GameFactory) -> None:
    # R12
    rnd = two_seats()
    rnd.draw(0, "discard")
    game = game_at(rnd)
    embed, view = hand_panel(game, 0, selected=["3C"])
    assert "Discard" not in enabled(view)
    text = embed_text(embed)
    assert "You took 3♣ from the discard pile: you may not discard it this turn." in text
    assert "R12" not in text  # the rule in words; its id only in /romme rules
    assert "Discard" in enabled(hand_panel(game, 0, selected=["9C"])[1])


def test_lay_off_needs_an_opened_seat_and_a_meld_that_takes_the_cards(game_at: GameFactory) -> None:
    # R14, R15
    def game(opened: bool) -> Game:
        rnd = Round.from_position(
            ["7S 9C KD 2H", "5D 6D 8D 9D"],
            "10D 10C",
            "3C",
            table=[(1, "4S 5S 6S")],
            opened=[opened, True],
        )
        rnd.draw(0, "stock")
        return game_at(rnd)

    assert "Lay off" not in enabled(hand_panel(game(False), 0, selected=["7S"])[1])
    assert "Lay off" in enabled(hand_panel(game(True), 0, selected=["7S"])[1])
    assert "Lay off" not in enabled(hand_panel(game(True), 0, selected=["9C"])[1])

    _, view = hand_panel(game(True), 0, selected=["7S"], target="lay_off")
    target = selects(view)[1]
    assert [o["value"] for o in target["options"]] == ["m1"]
    assert visible(target["options"][0]["label"]) == "m1 · Ben: 4♠ 5♠ 6♠"
    state = our_id(target["custom_id"]).panel_state()
    assert state == PanelState("suit", "lay_off", ("7S",))
    chosen = parse_target_value(target["options"][0]["value"])
    assert chosen is not None and chosen.meld_id == "m1"


def test_a_joker_laid_off_on_a_run_offers_both_ends(game_at: GameFactory) -> None:
    # R10: the player may say which end a laid-off joker goes to.
    rnd = Round.from_position(
        ["JK 9C KD 2H", "5D 6D 8D 9D"], "10D", "3C", table=[(1, "4S 5S 6S")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    _, view = hand_panel(game_at(rnd), 0, selected=["JK"], target="lay_off")
    target = selects(view)[1]
    assert sorted(o["value"] for o in target["options"]) == ["m1:high", "m1:low"]


def test_swap_joker_offers_the_card_that_frees_a_joker(game_at: GameFactory) -> None:
    # R16: 6♥ takes the joker's place in 5♥ 🃏 7♥; the joker and 9♣ 9♦ make a new meld.
    rnd = Round.from_position(
        ["6H 9C 9D KD 2S", "5D 6D 8D 9D"], "10D", "3C", table=[(1, "5H JK 7H")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    game = game_at(rnd)
    assert "Swap joker" in enabled(hand_panel(game, 0, selected=["6H", "9C", "9D"])[1])
    assert "Swap joker" not in enabled(hand_panel(game, 0, selected=["KD", "9C", "9D"])[1])
    _, view = hand_panel(game, 0, selected=["6H", "9C", "9D"], target="swap_joker")
    target = selects(view)[1]
    assert [o["value"] for o in target["options"]] == ["m1:6H"]
    assert our_id(target["custom_id"]).panel_state().mode == "swap_joker"
    # The mode's wire letter stays "w": panels already sent keep working.
    assert target["custom_id"].endswith(":sw.6H9C9D")


def test_proposed_melds_show_their_points_and_can_be_taken_back(game_at: GameFactory) -> None:
    # R13: below 40 a meld is only proposed.
    rnd = two_seats()
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    embed, view = hand_panel(game_at(rnd), 0)
    assert "Take back" in enabled(view)
    text = embed_text(embed)
    assert "Proposed melds: 18 of 40 points toward the opening" in text
    assert "5♥ 6♥ 7♥ (18)" in text


def test_identical_cards_are_separate_options_and_selection_marks_them(game_at: GameFactory) -> None:
    # R1: two 7♥.
    game = game_at(two_seats())
    options = selects(hand_panel(game, 0, selected=["7H"])[1])[0]["options"]
    sevens = [o for o in options if o["label"] == "7♥"]
    assert [o["value"] for o in sevens] == ["7H", "7H#2"]
    assert [o.get("default") for o in sevens] == [True, False]
    options = selects(hand_panel(game, 0, selected=["7H", "7H", "7H", "KD"])[1])[0]["options"]
    assert [o["value"] for o in options if o.get("default")] == ["7H", "7H#2"]  # no third 7♥, no K♦


def test_cards_not_in_the_hand_are_dropped_from_the_selection(game_at: GameFactory) -> None:
    _, view = hand_panel(game_at(two_seats()), 0, selected=[Card.parse("KD"), "2S"])
    meld_id = by_label(view)["Meld"]["custom_id"]
    assert our_id(meld_id).panel_state().cards == ("2S",)


def test_a_seat_sitting_out_a_tiebreak_has_no_hand(game_at: GameFactory) -> None:
    # R6: only the leaders play the tie-break.
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C")
    game = game_at(rnd, n_seats=3, round_seats=[0, 2], round_no=4)
    embed, view = hand_panel(game, 1)
    assert "sit out" in present(embed.description)
    assert enabled(view) & set(MOVES) == set()
    assert selects(view) == []


def test_every_panel_field_has_a_name_and_the_notes_follow_the_hand(game_at: GameFactory) -> None:
    # A field named "\u200b" shows as a blank line in clients: the notes live in the description.
    game = game_at(two_seats())
    for target in (None, "lay_off", "swap_joker"):
        embed, _ = hand_panel(game, 0, selected=["2S", "3S", "4S"], target=target)
        assert all((field.name or "").strip("\u200b ") for field in embed.fields)
    text = visible(embed.description or "")
    assert text.index("2♠ 3♠ 4♠") < text.index("Opening: your first melds must reach 40 points.")
    assert "No meld on the table fits" in text  # swap chosen with no joker on the table


def test_on_turn_the_panel_shows_the_table_and_offers_a_one_click_discard(game_at: GameFactory) -> None:
    rnd = two_seats()
    rnd.draw(0, "stock")
    embed, view = hand_panel(game_at(rnd), 0)
    table = next(field for field in embed.fields if field.name == "On the table")
    assert "Discard pile" in (table.value or "")
    drop = [item for item in view.children if getattr(item, "custom_id", "").split(":")[2] == "drop"]
    # R11: choosing the card discards it
    assert len(drop) == 1 and isinstance(drop[0], discord.ui.Select) and drop[0].max_values == 1
    assert len(drop[0].options) == 9  # the eight dealt and the one drawn


def test_swap_joker_with_one_card_that_fits_asks_for_the_rest_in_words(game_at: GameFactory) -> None:
    # R16: 6♥ alone can take the joker's place in m1; the panel says what else the swap needs.
    rnd = Round.from_position(
        ["6H 9C 9D KD 2S", "5D 6D 8D 9D"], "10D", "3C", table=[(1, "5H JK 7H")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    game = game_at(rnd)
    assert "Swap joker" in enabled(hand_panel(game, 0, selected=["6H"])[1])
    assert "Swap joker" not in enabled(hand_panel(game, 0, selected=["KD"])[1])
    embed, view = hand_panel(game, 0, selected=["6H"], target="swap_joker")
    assert "can take the joker's place in `m1`" in (embed.description or "")
    assert "No meld on the table fits" not in (embed.description or "")
    assert len(selects(view)) == 2  # the card select to pick the rest, and the discard select
