"""Custom ids: built within Discord's 100 characters, parsed back exactly, malformed ones refused."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.cards import JOKER, new_deck
from bot.render.ids import (
    MAX_CUSTOM_ID,
    PANEL_ACTIONS,
    PANEL_BUTTON_TEMPLATE,
    PANEL_SELECT_TEMPLATE,
    PANEL_SELECTS,
    PANEL_TEMPLATE,
    PUBLIC_ACTIONS,
    PUBLIC_TEMPLATE,
    CustomId,
    Mode,
    PanelState,
    Sort,
    Target,
    card_option_values,
    cards_from_option_values,
    compact_code,
    expand_code,
    panel_id,
    parse_custom_id,
    parse_target_value,
    public_id,
)
from tests.render.render_helpers import our_id

ALL_CODES = sorted({str(card) for card in new_deck()} | {str(JOKER)})
BIG = 999_999_999_999  # the largest game id / version the scheme allows (12 digits)


@pytest.mark.parametrize("action", PUBLIC_ACTIONS)
def test_public_ids_parse_back(action: str) -> None:
    custom_id = public_id(123, action)
    assert custom_id == f"romme:123:{action}"
    assert parse_custom_id(custom_id) == CustomId(123, action)
    assert re.match(PUBLIC_TEMPLATE, custom_id)
    assert not re.match(PANEL_TEMPLATE, custom_id)


@pytest.mark.parametrize("action", PANEL_ACTIONS)
def test_panel_ids_parse_back_with_their_state(action: str) -> None:
    state = PanelState("rank", "swap_joker", ("10H", "JK", "10H", "AS"))
    custom_id = panel_id(5, action, 17, state)
    parsed = parse_custom_id(custom_id)
    assert parsed is not None and parsed.is_panel
    assert (parsed.game_id, parsed.action, parsed.version) == (5, action, 17)
    assert parsed.panel_state() == state
    assert str(parsed) == custom_id
    assert re.match(PANEL_TEMPLATE, custom_id)
    button_or_select = PANEL_SELECT_TEMPLATE if action in PANEL_SELECTS else PANEL_BUTTON_TEMPLATE
    other = PANEL_BUTTON_TEMPLATE if button_or_select == PANEL_SELECT_TEMPLATE else PANEL_SELECT_TEMPLATE
    assert re.match(button_or_select, custom_id)
    assert not re.match(other, custom_id)


def test_a_panel_id_without_state_is_the_default_state() -> None:
    parsed = parse_custom_id("romme:5:hint:3")
    assert parsed == CustomId(5, "hint", 3, None)
    assert parsed.panel_state() == PanelState()


def test_worst_case_panel_id_fits_discord() -> None:
    # 14 cards is the largest hand (13 dealt + 1 drawn); 25 is the select's limit. Ten-cards are the
    # longest codes; the largest ids and the longest action make the longest custom id.
    longest_action = max(PANEL_ACTIONS, key=len)
    for cards in (("10H", "10S", "10D", "10C") * 3 + ("10H", "10S"), ("10H",) * 25):
        state = PanelState("rank", "lay_off", cards)
        custom_id = panel_id(BIG, longest_action, BIG, state)
        assert len(custom_id) <= MAX_CUSTOM_ID
        assert our_id(custom_id).panel_state() == state


def test_too_many_selected_cards_cannot_be_built() -> None:
    with pytest.raises(ValueError):
        panel_id(1, "meld", 1, PanelState("suit", None, ("7H",) * 26))


@pytest.mark.parametrize("game_id", [0, 7, BIG, 10**12, -1, True])
@pytest.mark.parametrize("version", [0, BIG, 10**12, -3])
@pytest.mark.parametrize("cards", [(), ("10H", "JK"), ("10H",) * 25, ("7H",) * 26])
def test_a_panel_id_is_built_exactly_when_the_whole_id_parses_back(
    game_id: int, version: int, cards: tuple[str, ...]
) -> None:
    # panel_id checks the parts of an id (the state once); the whole id's parse must agree.
    state = PanelState("rank", "lay_off", cards)
    whole = f"romme:{game_id}:takeback:{version}:{state.encode()}"
    for _ in range(2):  # the second time, the state's check comes from the cache
        if parse_custom_id(whole) is None:
            with pytest.raises(ValueError):
                panel_id(game_id, "takeback", version, state)
        else:
            assert panel_id(game_id, "takeback", version, state) == whole


@pytest.mark.parametrize("game_id", [0, 7, BIG, 10**12, -1, True])
def test_a_public_id_is_built_exactly_when_it_parses_back(game_id: int) -> None:
    whole = f"romme:{game_id}:stop_yes"
    if parse_custom_id(whole) is None:
        with pytest.raises(ValueError):
            public_id(game_id, "stop_yes")
    else:
        assert public_id(game_id, "stop_yes") == whole


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "romme",
        "romme:1",
        "romme::join",
        "romme:-1:join",  # negative game id
        "romme:01:join",  # leading zero: one spelling per id
        "romme:1:JOIN",
        "romme:1:explode",
        "romme:1:join:3",  # a public action with a version
        "romme:1:meld",  # a panel action without one
        "romme:1:meld:-3:s.",  # negative version
        "romme:1:meld:3:s.1H",  # no such card
        "romme:1:meld:3:x.",  # no such sort
        "romme:1:meld:3:sz.",  # no such mode
        "romme:1:meld:3:s",  # no separator
        "romme:1:meld:3:s.7H:extra",
        "romme:1:meld:3:s.7H ",
        "romme:1:meld:3:s.7",  # half a card
        "Romme:1:join",
        "other:1:join",
        "romme:1:join\n",
        "romme:1234567890123:join",  # oversized game id
        "romme:1:meld:1234567890123:s.",  # oversized version
        "romme:1:meld:3:s." + "7H" * 26,  # more cards than a select holds
        "romme:1:meld:3:s." + "7H" * 60,  # over 100 characters
        "romme:1:join" + " " * 100,
    ],
)
def test_malformed_ids_are_refused(custom_id: str) -> None:
    assert parse_custom_id(custom_id) is None


def test_non_strings_are_refused() -> None:
    assert parse_custom_id(None) is None
    assert parse_custom_id(12) is None


@settings(max_examples=200)
@given(st.text(alphabet="romme:0123456789.-sSrlwHDCJKATQ_pabcdefghijk#", max_size=120))
def test_any_string_parses_to_none_or_to_itself(text: str) -> None:
    parsed = parse_custom_id(text)
    if parsed is not None:
        assert str(parsed) == text
        assert len(text) <= MAX_CUSTOM_ID
        parsed.panel_state()  # never raises on an id the parser accepted


@settings(max_examples=100)
@given(
    st.integers(0, BIG),
    st.sampled_from(PANEL_ACTIONS),
    st.integers(0, BIG),
    st.sampled_from(["suit", "rank"]),
    st.sampled_from([None, "lay_off", "swap_joker"]),
    st.lists(st.sampled_from(ALL_CODES), max_size=25),
)
def test_every_panel_state_round_trips(
    game_id: int, action: str, version: int, sort: Sort, mode: Mode | None, cards: list[str]
) -> None:
    state = PanelState(sort, mode, tuple(cards))
    parsed = parse_custom_id(panel_id(game_id, action, version, state))
    assert parsed == CustomId(game_id, action, version, state.encode())
    assert parsed.panel_state() == state


@pytest.mark.parametrize("code", ALL_CODES)
def test_compact_codes_are_two_characters_and_expand_back(code: str) -> None:
    assert len(compact_code(code)) == 2
    assert expand_code(compact_code(code)) == code


def test_identical_cards_are_separate_options_and_map_back() -> None:
    # R1: the two 7♥ of the two decks are alike, but each is its own option.
    values = card_option_values(["7H", "7H", "JK", "JK", "8S"])
    assert values == ["7H", "7H#2", "JK", "JK#2", "8S"]
    assert len(set(values)) == len(values)
    assert cards_from_option_values(values) == ["7H", "7H", "JK", "JK", "8S"]


@pytest.mark.parametrize("values", [["7H", "7H"], ["1H"], ["7H#0"], ["7H#x"], ["../"], ["7H"] + ["8H"] * 30])
def test_forged_option_values_are_refused(values: list[str]) -> None:
    assert cards_from_option_values(values) is None


def test_target_values_round_trip_and_refuse_forgeries() -> None:
    targets = (Target("m1"), Target("m12", end="low"), Target("m3", end="high"), Target("m2", card="10S"))
    for target in targets:
        assert parse_target_value(target.value()) == target
    for bad in ("", "m0", "x1", "m1:", "m1:middle", "m1:JK", "m1:5S:low", "m12345", None):
        assert parse_target_value(bad) is None
