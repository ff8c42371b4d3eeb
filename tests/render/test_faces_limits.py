"""The largest tables and hands within every Discord limit, with cards as text and as faces.

An inline face costs 35-44 characters (``<:diamonds_queen_1a2b3c:1456074443980800082>``) where its text
costs 2-3: the table and the panel must stay within Discord's limits (a field 1,024, a description
4,096, an embed 6,000 in all, a select option's label 100, a button's label 80) and never cut a face
in half, which would show its raw text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.engine.cards import parse_cards
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.publish.announcements import announcement
from bot.publish.emojis import face_names
from bot.render.common import (
    MAX_DESCRIPTION,
    MAX_FIELD_NAME,
    MAX_FIELD_VALUE,
    MAX_FIELDS,
    MAX_FOOTER,
    MAX_TITLE,
    MAX_TOTAL,
)
from bot.render.faces import Face, set_faces
from bot.render.faces.fit import (
    MARKUP,
    MAX_BUTTON_LABEL,
    MAX_OPTION_LABEL,
    card_option,
    cards_label,
    clip_markup,
    split_markup,
)
from bot.render.panel import hand_panel
from bot.render.table import table
from bot.service.game import Seat, TurnEvent
from tests.render.render_helpers import GameFactory, components, present

SUITS = "SHDC"
FULL_RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
LONG_NAMES = [Seat(100 + n, f"{'W' * 31}{n}") for n in range(6)]
BIG_ID = 1456074443980800082  # a snowflake of today's length: 19 digits


@pytest.fixture(params=["text", "emoji"])
def style(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test twice: cards as text, then as faces with the real emoji names and 19-digit ids."""
    if request.param == "emoji":
        set_faces({code: Face(code, name, BIG_ID + n) for n, (code, name) in enumerate(face_names().items())})
    yield request.param
    set_faces(None)


def check_limits(embed: discord.Embed, style: str) -> None:
    """Every Discord limit of an embed, and no face cut in half."""
    data = embed.to_dict()
    assert len(data.get("title", "")) <= MAX_TITLE
    assert len(data.get("description", "")) <= MAX_DESCRIPTION
    assert len(data.get("footer", {}).get("text", "")) <= MAX_FOOTER
    fields = data.get("fields", [])
    assert len(fields) <= MAX_FIELDS
    for field in fields:
        assert 0 < len(field["name"]) <= MAX_FIELD_NAME and 0 < len(field["value"]) <= MAX_FIELD_VALUE
    assert len(embed) <= MAX_TOTAL
    texts = [data.get("description", ""), *(field["value"] for field in fields)]
    assert not any(split_markup(text) for text in texts), "a face cut in half"
    # Titles, field names and footers show no faces: a card there would be raw text.
    for text in [data.get("title", ""), data.get("footer", {}).get("text", ""), *(f["name"] for f in fields)]:
        assert "<:" not in text
    if style == "emoji":
        assert any(MARKUP.search(text) for text in texts)
    else:
        assert not any("<:" in text for text in texts)


def check_components(view: discord.ui.View) -> list[dict[str, Any]]:
    items = components(view)
    for item in items:
        if item["type"] == 2:
            assert len(item.get("label", "")) <= MAX_BUTTON_LABEL
        if item["type"] == 3:
            assert len(item["options"]) <= 25
            for option in item["options"]:
                assert 0 < len(option["label"]) <= MAX_OPTION_LABEL
            assert len(item.get("placeholder", "")) <= 150
    return items


def largest_table() -> Round:
    # Six seats with full hands and sixty melds of thirteen cards: more than any game can hold.
    melds = [(seat % 6, FULL_RUN.replace("S", SUITS[seat % 4])) for seat in range(60)]
    return Round.from_position([FULL_RUN] * 6, "10D", "3C", table=melds)


def test_the_largest_table_fits_every_limit(game_at: GameFactory, style: str) -> None:
    game = game_at(largest_table(), seats=LONG_NAMES)
    embed, view = table(game)
    check_limits(embed, style)
    check_components(view)
    assert "more melds" in embed.to_dict()["fields"][-1]["value"] or any(
        "more melds" in present(field.value) for field in embed.fields
    )


def test_a_table_of_real_size_shows_every_meld(game_at: GameFactory, style: str) -> None:
    # Two decks and four jokers: at most 108 cards, of which six hands and the piles hold some.
    melds = [(seat % 6, run) for seat, run in enumerate([FULL_RUN.replace("S", s) for s in SUITS] * 2)]
    melds.append((0, "5H 5D JK JK"))
    rnd = Round.from_position(["JK 2D"] * 6, "10D", "3C", table=melds)
    embed, _ = table(game_at(rnd, seats=LONG_NAMES))
    check_limits(embed, style)
    assert not any("more melds" in present(field.value) for field in embed.fields)


def test_the_longest_last_move_is_cut_between_faces(game_at: GameFactory, style: str) -> None:
    game = game_at(largest_table(), seats=LONG_NAMES)
    game.last_turn = [TurnEvent(0, "lay_off", cards=["JK"] * 10, meld_id=f"m{n}") for n in range(1, 40)]
    embed, _ = table(game)
    check_limits(embed, style)


def test_the_largest_hand_fits_every_limit(game_at: GameFactory, style: str) -> None:
    # A hand of 30 cards (more than a round deals) with proposed melds, a selection and targets.
    hand = FULL_RUN + " " + FULL_RUN.replace("S", "H") + " JK JK 7D 7C"
    rnd = Round.from_position([hand, *[FULL_RUN] * 5], "10D 9D", "3C", table=[(1, "4C 5C 6C 7C 8C")])
    rnd.draw(0, "stock")
    for pending in ("AS 2S 3S", "4H 5H 6H"):
        rnd.meld(0, parse_cards(pending))
    game = game_at(rnd, seats=LONG_NAMES)
    for target in (None, "lay_off"):
        embed, view = hand_panel(game, 0, selected=["9C", "7D"], target=target)
        check_limits(embed, style)
        check_components(view)


def test_the_card_menu_shows_faces_as_option_emojis_not_as_label_text(
    game_at: GameFactory, style: str
) -> None:
    rnd = Round.from_position([FULL_RUN, FULL_RUN], "10D", "3C")
    _, view = hand_panel(game_at(rnd), 0)
    options = next(item for item in components(view) if item["type"] == 3)["options"]
    assert all("<:" not in option["label"] for option in options)
    assert all(("emoji" in option) == (style == "emoji") for option in options)


def test_card_options_and_labels_are_text_with_the_face_beside_them(style: str) -> None:
    option = card_option("10H", "10H#2", default=True).to_dict()
    assert option["label"] == "10♥" and option["value"] == "10H#2" and option["default"]
    assert ("emoji" in option) == (style == "emoji")
    assert cards_label(["QS", "JK"]) == "Q♠\ufe0e 🃏"


def test_clip_markup_never_cuts_a_face(style: str) -> None:
    from bot.render.cards import cards_text

    line = cards_text(parse_cards(FULL_RUN) * 4)
    for limit in range(5, 400, 7):
        cut = clip_markup(line, limit)
        assert len(cut) <= limit and not split_markup(cut)
        assert cut == line or cut.endswith("…")


def test_the_target_menu_names_melds_in_text(game_at: GameFactory, style: str) -> None:
    rnd = Round.from_position(
        ["7S 8S 5C", "KD KC QD"], "10D", "3C", table=[(0, "4S 5S 6S")], opened=[True, True]
    )
    rnd.draw(0, "stock")
    _, view = hand_panel(game_at(rnd), 0, selected=["7S"], target="lay_off")
    [target] = [item for item in components(view) if item["type"] == 3 and "target" in item["custom_id"]]
    assert target["options"] and all("<:" not in option["label"] for option in target["options"])


def test_the_largest_round_end_fits_every_limit_with_the_match_end(game_at: GameFactory, style: str) -> None:
    # Six seats with long names; the five who did not go out hold 30 cards each (more than a round
    # leaves anyone): the round end with every seat's cards, sent with the match end in one message.
    hand = FULL_RUN + " " + FULL_RUN.replace("S", "H") + " JK JK 7D 7C"
    rnd = Round.from_position(["5H 6H 7H", *[hand] * 5], "10D 9D", "3C", rules=RuleSet(opening=0, rounds=1))
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    rnd.discard(0, parse_cards("10D")[0])
    game = game_at(rnd, seats=LONG_NAMES)
    assert game.match is not None and game.match.over
    embeds, view = announcement(game)
    assert len(embeds) == 2
    check_limits(embeds[0], style)
    assert sum(len(embed) for embed in embeds) <= MAX_TOTAL  # Discord counts every embed of a message
    check_components(view)
    hands = [field for field in embeds[0].fields if present(field.name).endswith("cards left in hand")]
    assert len(hands) >= 3  # the room is shared; a seat that does not fit is left out, none cut in a face
