"""One term per idea in each language: the glossary at the top of each catalog, and every entry
keeping to it (issue 41: "Wertung" was both the scoring house rule and the rating on one screen,
"Keluar" (left the game) stood for going out, "nilai" (a card's rank) for the rating)."""

from __future__ import annotations

import importlib

import pytest

from bot.i18n import CATALOGS, LOCALES, en
from bot.i18n.glossary import Term, problems

GLOSSARIES: dict[str, dict[str, Term]] = {
    locale: importlib.import_module(f"bot.i18n.{locale}").GLOSSARY for locale in LOCALES
}
"""Each catalog's glossary, from its module: a new language's catalog needs one too."""
IDEAS = ("opening", "meld", "lay_off", "went_out", "rating", "replay", "match", "settings", "preferences")
"""The ideas issue 41 names; every glossary has a term for each (and a few more)."""


@pytest.mark.parametrize("locale", LOCALES)
def test_every_glossary_names_the_issues_ideas_and_only_ideas_english_has(locale: str) -> None:
    glossary = GLOSSARIES[locale]
    assert set(IDEAS) <= set(glossary)
    assert set(glossary) <= set(en.GLOSSARY), "an idea needs its English term, which finds its entries"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalog_uses_the_glossarys_terms_and_no_other(locale: str) -> None:
    assert problems(GLOSSARIES[locale], CATALOGS[locale], en.GLOSSARY, en.MESSAGES) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_every_allowed_entry_exists_and_needs_its_exception(locale: str) -> None:
    # An exception for an entry that is gone, or that no longer has the word, is a stale loophole.
    catalog = CATALOGS[locale]
    for idea, term in GLOSSARIES[locale].items():
        for key in term.allowed:
            assert key in catalog, (idea, key)
            without = term._replace(allowed={})
            assert problems({idea: without}, {key: catalog[key]}, en.GLOSSARY, en.MESSAGES), (idea, key)


@pytest.mark.parametrize(
    ("locale", "key", "text", "expected"),
    [
        # The faults issue 41 names, put back into a catalog: each is found.
        ("de", "settings.name.scoring", "Wertung", "'Wertung' is the word for rating"),
        ("de", "history.button", "Wiederholung {number}", "'Wiederholung' is not the word for replay"),
        ("de", "preferences.title", "Deine Vorlieben", "'Vorliebe' is not the word for preferences"),
        ("de", "lobby.footer", "Spiel {game_id}", "'Spiel {}' is not the word for match"),
        ("id", "history.line", "Keluar: {outs}", "'Keluar' does not mean went_out here"),
        ("id", "profile.rating", "Nilai (musim {season})", "'Nilai' does not mean rating here"),
        ("id", "history.button", "Tayangan {number}", "'Tayangan' is not the word for replay"),
        ("id", "settings.name.game_master_role", "peran pemandu permainan", "'pemandu' is not the word"),
    ],
)
def test_a_wrong_word_brought_back_is_found(locale: str, key: str, text: str, expected: str) -> None:
    catalog = {**CATALOGS[locale], key: text}
    found = problems(GLOSSARIES[locale], catalog, en.GLOSSARY, en.MESSAGES)
    assert any(line.startswith(f"{key}: ") and expected in line for line in found), found


def test_the_scoring_rule_may_say_wertung_nowhere_but_the_rating_may() -> None:
    # The exact part: German "Wertung" is the rating, so it is right where the English says rating
    # and wrong where it says scoring; Indonesian "nilai" is a card's rank and right there.
    glossary = GLOSSARIES["de"]
    assert problems(glossary, {"profile.rating": "Wertung (Saison {season})"}, en.GLOSSARY, en.MESSAGES) == []
    assert problems(glossary, {"rules.scoring.melds": "Wertung: Ausgelegtes"}, en.GLOSSARY, en.MESSAGES)
    rank = {"panel.sorted.rank": "Diurutkan menurut nilai"}
    assert problems(GLOSSARIES["id"], rank, en.GLOSSARY, en.MESSAGES) == []
