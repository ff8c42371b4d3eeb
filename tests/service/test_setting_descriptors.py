"""The server settings as descriptors: each house rule's bound stated once, on :class:`RuleSet`'s
field, and every place that says what a setting may be reads it from there (or from the setting's
descriptor): the rules' own checks, :meth:`ServerSettings.changed`, the settings panel's list, the
Numbers form, the options of ``/romme start`` and the player's guide.

The numbers are not restated here except where the test pins what a player sees (the modal's
labels, the command's ranges): the other assertions compare one place with another.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import CatalogTranslator
from bot.engine.computer import LEVELS
from bot.engine.rules import JOKERS, OPENING, ROUNDS, RULE_BOUNDS, SCORING, Flag, OneOf, RuleSet, Whole
from bot.i18n import has, speaking
from bot.render.settings import numbers_modal, preferences_panel, settings_panel
from bot.service import MAX_SEATS, TableError
from bot.service.seasons import SEASON_DAYS, check_length
from bot.service.settings import (
    LISTED_CHOICES,
    LOBBY_MINUTES,
    PREFERENCE_CHOICES,
    PREFERENCES_BY_NAME,
    RULE_SETTINGS,
    SERVER_SETTINGS,
    SETTINGS_BY_NAME,
    TURN_SECONDS,
    TYPED_SETTINGS,
    MemberPreferences,
    ServerSettings,
    Setting,
)
from cogs.romme import Romme

DOCS = Path(__file__).resolve().parents[2] / "docs"


def refused(setting: str, value: object) -> TableError:
    with pytest.raises(TableError) as caught:
        ServerSettings().changed(setting, value)
    return caught.value


def outside(bound: Whole) -> list[int]:
    return [bound.low - 1, bound.high + 1]


# ---------------------------------------------------------------------- one place


def test_every_house_rule_is_one_field_with_its_bound_and_one_setting() -> None:
    # R1 R4 R13 R17 R20 R21 R22: the house rules of docs/rules.md, one field each.
    names = tuple(f.name for f in fields(RuleSet))
    assert tuple(RULE_BOUNDS) == names
    assert names == RULE_SETTINGS
    for name in names:
        setting = SETTINGS_BY_NAME[name]
        assert setting.rule and setting.bound is RULE_BOUNDS[name]
        assert setting.default == getattr(RuleSet(), name)  # the rule book's default, not restated
    assert len({setting.name for setting in SERVER_SETTINGS}) == len(SERVER_SETTINGS)


def test_the_rules_check_themselves_against_their_bounds() -> None:
    for name, bound in RULE_BOUNDS.items():
        if isinstance(bound, Whole):
            allowed: list[Any] = [bound.low, bound.high] + ([None] if bound.optional else [])
            forbidden: list[Any] = [*outside(bound), True, "3"]
        elif isinstance(bound, OneOf):
            allowed, forbidden = list(bound.values), [None, True, "x", 3]
        else:
            allowed, forbidden = [True, False], [0, 1, "true", None]
        for value in allowed:
            assert getattr(RuleSet(**{name: value}), name) == value
        for value in forbidden:
            with pytest.raises(ValueError, match=re.escape(bound.refusal(name, value))):
                RuleSet(**{name: value})


def test_the_rules_refusals_read_as_before() -> None:
    # What a stored game with a rule out of its bound says in the log, unchanged by the bounds.
    cases: dict[str, tuple[Any, str]] = {
        "jokers": (3, "jokers must be 2, 4 or 6, not 3"),
        "opening": (121, "opening must be a whole number from 0 to 120, not 121"),
        "scoring": ("double", "scoring must be 'melds' or 'penalty', not 'double'"),
        "hand_romme": (1, "hand_romme must be true or false, not 1"),
        "rounds": (0, "rounds must be a whole number from 1 to 12, or None, not 0"),
    }
    for name, (value, message) in cases.items():
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            RuleSet(**{name: value})
    with pytest.raises(ValueError, match=r"^a season lasts 'monthly', 1 to 366 days, or until"):
        check_length(367)


def test_a_setting_is_refused_just_outside_its_bound_naming_it() -> None:
    for setting in SERVER_SETTINGS:
        bound = setting.bound
        if not setting.typed or not isinstance(bound, Whole):
            continue
        for edge in (bound.low, bound.high):
            assert ServerSettings().changed(setting.name, str(edge)).value(setting.name) == edge
        for value in outside(bound):
            error = refused(setting.name, str(value))
            assert (error.code, error.params) == (
                "settings.out_of_range",
                {"setting": setting.name, "value": value, "low": bound.low, "high": bound.high},
            )


def test_jokers_between_the_counts_are_refused_as_a_bad_value_and_past_them_as_out_of_range() -> None:
    # R1: as before, 3 and 5 are "not a value of jokers"; 1 and 7 are out of 2 to 6.
    for value in range(min(JOKERS.values), max(JOKERS.values) + 1):
        if value not in JOKERS.values:
            assert refused("jokers", str(value)).code == "settings.bad_value"
    for value in (min(JOKERS.values) - 1, max(JOKERS.values) + 1):
        error = refused("jokers", str(value))
        assert error.code == "settings.out_of_range"
        assert (error.params["low"], error.params["high"]) == (min(JOKERS.values), max(JOKERS.values))


def test_every_choice_the_list_offers_is_accepted_and_the_default_goes_back() -> None:
    for choice in LISTED_CHOICES:
        name, _, value = choice.partition("=")
        changed = ServerSettings().changed(name, value)
        assert changed.changed(name, "default") == ServerSettings()
    listed = {setting.name for setting in SERVER_SETTINGS if setting.choices()}
    assert listed == {"language", "jokers", "scoring", "hand_romme", "discard_to_go_out"} | {
        "computer_level",
        "threads",
        "season_length",
    }


def test_an_unknown_setting_is_refused_naming_it() -> None:
    for value in ("3", "default", None):
        error = refused("nope", value)
        assert (error.code, error.params) == ("settings.bad_value", {"setting": "nope"})


# ---------------------------------------------------------------------- the panel and the form


def test_the_panel_list_offers_each_bound_value_in_the_settings_order() -> None:
    _, view = settings_panel(ServerSettings(), guild_id=5, turn_timeout=120, lobby_timeout=900)
    pick = view.children[0]
    assert isinstance(pick, discord.ui.Select)
    values = [option.value for option in pick.options]
    assert values == [choice for setting in SERVER_SETTINGS for choice in setting.choices()]
    assert [v for v in values if v.startswith("jokers=")] == [f"jokers={n}" for n in JOKERS.values]
    assert [v for v in values if v.startswith("scoring=")] == [f"scoring={k}" for k in SCORING.values]
    assert [v for v in values if v.startswith("computer_level=")] == [f"computer_level={x}" for x in LEVELS]
    assert set(values) == LISTED_CHOICES
    channels = view.children[1]
    assert isinstance(channels, discord.ui.ChannelSelect)
    assert channels.max_values == SETTINGS_BY_NAME["channels"].span.high


@pytest.mark.parametrize(
    ("locale", "labels"),
    [
        (
            "en",
            [
                "Opening points (0-120)",
                "Rounds (1-12)",
                "Turn timer in seconds (30-600)",
                "Lobby closes after minutes (1-120)",
                "Season length in days (1-366)",
            ],
        ),
        (
            "de",
            [
                "Punkte für die Erstauslage (0-120)",
                "Runden (1-12)",
                "Zugzeit in Sekunden (30-600)",
                "Lobby schließt nach … Minuten (1-120)",
                "Saisonlänge in Tagen (1-366)",
            ],
        ),
    ],
)
def test_the_numbers_form_labels_name_the_bounds_as_before(locale: str, labels: list[str]) -> None:
    with speaking(locale):
        modal = numbers_modal(ServerSettings(), guild_id=5)
    sent = modal.to_components()
    assert [box["component"]["custom_id"] for box in sent] == list(TYPED_SETTINGS)
    assert [box["label"] for box in sent] == labels
    for setting, label in zip(TYPED_SETTINGS, labels, strict=True):
        span = SETTINGS_BY_NAME[setting].span
        assert label.endswith(f"({span.low}-{span.high})")


def test_the_numbers_form_applies_every_input_and_keeps_a_season_chosen_in_the_list() -> None:
    before = ServerSettings(season_length=None)
    typed = {"opening": "30", "rounds": "3", "turn_timeout": "90", "lobby_timeout": "5", "season_length": ""}
    changed = before.typed(typed)
    assert (changed.rules.opening, changed.rules.rounds, changed.turn_timeout, changed.lobby_timeout) == (
        30,
        3,
        90,
        5,
    )
    assert changed.season_length is None  # left empty: the by-hand season the list chose stays
    assert changed.typed({"opening": "", "season_length": "7"}) == ServerSettings(
        rules=RuleSet(rounds=3), turn_timeout=90, lobby_timeout=5, season_length=7
    )
    with pytest.raises(TableError):
        before.typed({"opening": "30", "rounds": str(ROUNDS.high + 1)})


# ---------------------------------------------------------------------- the command and the guide


def test_romme_start_offers_the_bounds() -> None:
    parameters = {parameter.name: parameter for parameter in Romme.start.parameters}
    for name, whole in (("opening", OPENING), ("rounds", ROUNDS), ("turn_timeout", TURN_SECONDS)):
        assert (parameters[name].min_value, parameters[name].max_value) == (whole.low, whole.high)
    assert (parameters["computers"].min_value, parameters["computers"].max_value) == (0, MAX_SEATS - 1)
    for name, values in (("jokers", JOKERS.values), ("scoring", SCORING.values), ("computer_level", LEVELS)):
        assert tuple(choice.value for choice in parameters[name].choices) == tuple(values)
    for name, bound in RULE_BOUNDS.items():  # every house rule is an option of its kind
        parameter = parameters[name]
        if isinstance(bound, Flag):
            assert parameter.type is discord.AppCommandOptionType.boolean
        elif isinstance(bound, OneOf):
            assert parameter.choices
        else:
            assert (parameter.min_value, parameter.max_value) == (bound.low, bound.high)


def test_the_guide_states_the_bounds() -> None:
    playing = (DOCS / "playing.md").read_text(encoding="utf-8")
    jokers = "/".join(str(n) for n in JOKERS.values)
    for stated in (
        f"`jokers` ({jokers})",
        f"`opening` ({OPENING.low}–{OPENING.high})",
        f"`rounds` ({ROUNDS.low}–{ROUNDS.high})",
        f"`computers` (0–{MAX_SEATS - 1})",
        f"`turn_timeout` ({TURN_SECONDS.low}–{TURN_SECONDS.high} s)",
    ):
        assert stated in playing
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert "*House rule* `jokers`: 2, 4 or 6 jokers" in rules and JOKERS.values == (2, 4, 6)
    assert f"from {ROUNDS.low} to {ROUNDS.high} instead of one per seat" in rules
    assert f"from {OPENING.low} to {OPENING.high} instead of 40" in rules
    assert RuleSet().opening == 40


def test_a_new_setting_needs_only_its_descriptor() -> None:
    # What the panel, the refusals and the reset read of a setting is its descriptor; one made up
    # here is read the same way (a house rule is one of these plus its field on RuleSet).
    made_up = Setting("lobby_timeout", Whole(2, 3), ("number",))
    assert made_up.parse(made_up, " 3 ") == 3
    with pytest.raises(TableError) as caught:
        made_up.parse(made_up, "4")
    assert caught.value.params == {"setting": "lobby_timeout", "value": 4, "low": 2, "high": 3}
    assert made_up.typed and made_up.choices() == () and made_up.key == "settings.name.lobby_timeout"
    assert all(has(setting.key) for setting in SERVER_SETTINGS)  # each named in words
    assert SETTINGS_BY_NAME["lobby_timeout"].bound is LOBBY_MINUTES
    assert SETTINGS_BY_NAME["season_length"].span is SEASON_DAYS


async def test_the_command_words_take_their_numbers_from_the_rules() -> None:
    # What Discord is sent in each language: the jokers' choices count the bound's values, the
    # descriptions of jokers and opening name the rule book's defaults (R1, R13).
    parameters = {parameter.name: parameter for parameter in Romme.start.parameters}
    translator = CatalogTranslator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    for code, joker, default in (("en-US", "jokers", "default"), ("de", "Joker", "Standard")):
        locale = discord.Locale(code)
        choices = parameters["jokers"].choices
        sent = [await choice.get_translated_payload_for_locale(translator, locale) for choice in choices]
        assert [payload["name"] for payload in sent] == [f"{count} {joker}" for count in JOKERS.values]
        for option in ("jokers", "opening"):
            describe = parameters[option].locale_description
            assert describe is not None
            said = await translator.translate(describe, locale, context) or describe.message
            assert said.endswith(f"({default} {getattr(RuleSet(), option)})")


def test_a_member_preference_is_read_by_its_descriptor_as_before() -> None:
    assert MemberPreferences().changed("language", "de").changed("language", "default").language is None
    assert MemberPreferences().changed("mention", "false").mention is False
    for name, value in (
        ("cards", "default"),
        ("sort", None),
        ("language", ""),
        ("mention", "maybe"),
        ("x", "1"),
    ):
        with pytest.raises(TableError) as caught:
            MemberPreferences().changed(name, value)
        assert (caught.value.code, caught.value.params) == ("settings.bad_value", {"setting": name})
    _, view = preferences_panel(MemberPreferences(), user_id=7)
    pick = view.children[0]
    assert isinstance(pick, discord.ui.Select)
    assert {option.value for option in pick.options} == PREFERENCE_CHOICES
    assert "tipped=true" not in PREFERENCE_CHOICES  # the bot's to set, never the member's
    for choice in PREFERENCE_CHOICES:
        name, _, value = choice.partition("=")
        assert MemberPreferences().changed(name, value).to_dict() in (
            {},
            {name: PREFERENCES_BY_NAME[name].read(value)},
        )
