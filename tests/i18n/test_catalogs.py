"""The three catalogs: the same keys and placeholders, each language's plural rules, the language
spoken per task, Discord's locales, and no English left in the German and Indonesian texts."""

from __future__ import annotations

import asyncio
import string

import discord
import pytest
from babel import Locale

from bot.i18n import (
    CATALOGS,
    LOCALES,
    PLURAL_FORMS,
    current_locale,
    locale_of,
    plural_category,
    seat_display_name,
    speaking,
    t,
)
from bot.i18n.en import MESSAGES as EN
from bot.service.game import Game, Seat
from tests.i18n.words import english_words

OTHERS = [locale for locale in LOCALES if locale != "en"]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def plural_base(key: str) -> tuple[str, str] | None:
    """``("meld.more", "one")`` for ``"meld.more.one"``; ``None`` for a key that is no plural form."""
    base, _, form = key.rpartition(".")
    return (base, form) if form in PLURAL_FORMS and base in EN else None


def test_there_are_three_catalogs() -> None:
    assert LOCALES == ("en", "de", "id") and set(CATALOGS) == set(LOCALES)
    assert len(EN) > 250


@pytest.mark.parametrize("locale", OTHERS)
def test_every_catalog_has_every_english_key_and_only_plural_forms_beyond(locale: str) -> None:
    catalog = CATALOGS[locale]
    assert sorted(set(EN) - set(catalog)) == []
    extra = set(catalog) - set(EN)
    # A key English lacks may only be a plural form the language has (German "meld.more.one").
    categories = {"other", *Locale.parse(locale).plural_form.tags}
    for key in sorted(extra):
        found = plural_base(key)
        assert found is not None and found[1] in categories, key


@pytest.mark.parametrize("locale", OTHERS)
def test_every_catalog_lists_the_english_keys_in_the_english_order(locale: str) -> None:
    # The catalogs are ordered by screen (the lobby, the table, the hand panel, ...), one order in
    # all three, so that a text and its translations are found in the same place.
    shared = [key for key in CATALOGS[locale] if key in EN]
    assert shared == list(EN)


@pytest.mark.parametrize("locale", OTHERS)
def test_every_text_has_the_english_placeholders(locale: str) -> None:
    catalog = CATALOGS[locale]
    for key, text in catalog.items():
        if key in EN:
            assert fields(text) == fields(EN[key]), key
        else:
            # A plural form English lacks may spell its number out ("eine offene Lobby").
            base = plural_base(key)
            assert base is not None and fields(text) <= fields(EN[base[0]]), key
        assert all(name.isidentifier() for name in fields(text)), key


def test_a_german_plural_key_has_both_forms_and_an_indonesian_needs_none() -> None:
    assert Locale.parse("de").plural_form.tags == {"one"} and Locale.parse("id").plural_form.tags == set()
    plural = {found[0] for key in CATALOGS["de"] if (found := plural_base(key))}
    assert {"meld.more", "table.stock", "seat.points", "match_end.winner", "error.lobby.host_limit"} <= plural
    for base in plural:
        assert base in CATALOGS["de"] and f"{base}.one" in CATALOGS["de"], base


@pytest.mark.parametrize(
    ("locale", "count", "text"),
    [
        ("en", 1, "… and 1 more meld"),
        ("en", 3, "… and 3 more melds"),
        ("de", 1, "… und 1 weitere Kombination"),
        ("de", 3, "… und 3 weitere Kombinationen"),
        ("de", 0, "… und 0 weitere Kombinationen"),
        ("id", 1, "… dan 1 kombinasi lagi"),
        ("id", 3, "… dan 3 kombinasi lagi"),
    ],
)
def test_the_plural_form_follows_the_count(locale: str, count: int, text: str) -> None:
    assert t("meld.more", locale, count=count) == text


def test_a_message_with_one_number_takes_its_form_from_it() -> None:
    # No "count" here: the only whole number of the message chooses the form.
    assert t("seat.points", "de", points=1) == "1 Punkt"
    assert t("seat.points", "de", points=-1) == "-1 Punkt"
    assert t("seat.points", "de", points=12) == "12 Punkte"
    assert t("error.lobby.host_limit", "de", seats=1).startswith("Du leitest auf diesem Server schon eine")
    assert plural_category("de", 21) == "other" and plural_category("en", 1) == "one"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "de"),
        ("id", "id"),
        ("fr", "en"),
        ("pt-BR", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_the_bots_languages(value: str | None, expected: str) -> None:
    assert locale_of(value) == expected
    if value is not None:
        assert locale_of(discord.Locale(value)) == expected


def test_every_other_discord_locale_falls_back_to_english() -> None:
    others = [loc for loc in discord.Locale if loc.value not in ("en-US", "en-GB", "de", "id")]
    assert len(others) > 25
    assert {locale_of(loc) for loc in others} == {"en"}


async def test_each_task_speaks_its_own_language() -> None:
    # Two clicks handled at once, one German, one Indonesian: neither leaks into the other.
    seen: dict[str, list[str]] = {"de": [], "id": []}

    async def click(locale: str) -> None:
        with speaking(locale):
            for _ in range(5):
                seen[locale].append(t("button.draw"))
                await asyncio.sleep(0)

    await asyncio.gather(click("de"), click("id"))
    assert seen == {"de": ["Ziehen"] * 5, "id": ["Ambil kartu"] * 5}
    assert current_locale() == "en"


def test_speaking_an_unknown_language_is_english_and_nests() -> None:
    with speaking("de"):
        with speaking("ja"):
            assert t("button.draw") == "Draw"
        assert t("button.draw") == "Ziehen"
    assert t("button.draw", "xx") == "Draw"


def test_a_computer_seat_is_named_in_the_readers_language() -> None:
    seat = Seat(user_id=None, name="Computer 2", computer=True)
    names = {}
    for locale in LOCALES:
        with speaking(locale):
            names[locale] = seat_display_name(seat.name, computer=seat.computer, user_id=seat.user_id)
    assert names == {"en": "Computer 2", "de": "Computer 2", "id": "Komputer 2"}
    # A person who left keeps their own name (the computer plays the seat).
    with speaking("id"):
        assert seat_display_name("Ada", computer=True, user_id=7) == "Ada"


def test_the_language_is_saved_with_the_game_and_old_snapshots_are_english() -> None:
    game = Game(id=1, guild_id=10, channel_id=20, host_id=7, language="id")
    assert Game.from_snapshot(game.to_snapshot()).language == "id"
    old = game.to_snapshot()
    del old["language"]  # a game saved before the bot spoke other languages
    assert Game.from_snapshot(old).language == "en"


def sample(text: str) -> dict[str, object]:
    return {name: 7 for name in fields(text)}


@pytest.mark.parametrize("locale", OTHERS)
def test_no_german_or_indonesian_text_has_an_english_word(locale: str) -> None:
    leaks = {}
    for key, text in CATALOGS[locale].items():
        if key.startswith("language."):
            continue  # "English" is the name of a language
        words = english_words(text.format(**sample(text)), locale)
        if words:
            leaks[key] = words
    assert leaks == {}


def test_the_check_finds_english_in_the_english_catalog() -> None:
    # The word list is not empty: the English texts themselves are full of it.
    hits = [key for key, text in EN.items() if english_words(text.format(**sample(text)), "de")]
    assert len(hits) > 0.8 * len(EN)
