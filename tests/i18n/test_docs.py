"""The short rules in three languages: ``docs/rules.md`` (the rule book), ``docs/rules.de.md`` and
``docs/rules.id.md`` (summaries under the same ids), and ``/romme rules`` pointing to them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import CATALOGS, LOCALES, t
from tests.i18n.words import english_words

DOCS = Path(__file__).resolve().parents[2] / "docs"
BOOK = {"en": DOCS / "rules.md", "de": DOCS / "rules.de.md", "id": DOCS / "rules.id.md"}
RULE_IDS = [f"R{n}" for n in range(1, 23)]
HEADING = re.compile(r"^### (R\d{1,2}) — ", re.MULTILINE)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_rule_has_its_section_in_order(locale: str) -> None:
    assert HEADING.findall(BOOK[locale].read_text(encoding="utf-8")) == RULE_IDS


@pytest.mark.parametrize("locale", LOCALES)
def test_each_page_links_the_other_two(locale: str) -> None:
    text = BOOK[locale].read_text(encoding="utf-8")
    for other, path in BOOK.items():
        if other != locale:
            assert f"]({path.name})" in text, (locale, path.name)


@pytest.mark.parametrize("locale", LOCALES)
def test_romme_rules_names_the_page_of_its_language_and_only_rules_it_has(locale: str) -> None:
    book = t("rules.book", locale)
    assert f"docs/{BOOK[locale].name}" in book
    text = BOOK[locale].read_text(encoding="utf-8")
    summary = t("rules.summary", locale, opening=40)
    for rule in sorted(set(re.findall(r"\bR\d{1,2}\b", summary))):
        assert f"### {rule} " in text, (locale, rule)


@pytest.mark.parametrize("locale", ["de", "id"])
def test_a_summary_page_is_written_in_its_language(locale: str) -> None:
    # Option names and values in backticks are the commands' own; the prose has no English word.
    prose = BOOK[locale].read_text(encoding="utf-8")
    prose = re.sub(r"\[`[^`]*`\]\([^)]*\)", " ", prose)  # links to the other pages
    prose = "\n".join(line for line in prose.splitlines() if not line.startswith("|"))  # option table
    assert english_words(prose, locale) == []


def test_the_indonesian_page_uses_the_source_texts_words() -> None:
    # The project's rules were first written in Indonesian: its terms, not new ones.
    text = BOOK["id"].read_text(encoding="utf-8")
    for word in (
        "kombinasi",
        "run (urutan)",
        "set (kelompok)",
        "menambahkan kartu",
        "tumpukan undian",
        "tumpukan buangan",
        "menukar Joker",
        "mengosongkan tangan",
        "kombinasi pertama",
    ):
        assert word.lower() in text.lower(), word


QUOTED = re.compile(r"\*[\"„]([^\"“]+)[\"“]\*")
"""A message of the bot quoted in a book: in italics and quotes, *"…"* (German *„…“*)."""


def _shown(text: str, locale: str) -> bool:
    """Whether ``text`` is a text the bot shows in ``locale``: a catalog entry, its fields filled."""
    for template in CATALOGS[locale].values():
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{[a-z_]+\\\}", ".+", pattern)
        if re.fullmatch(pattern, text):
            return True
    return False


@pytest.mark.parametrize("locale", LOCALES)
def test_no_rule_book_claims_what_the_screens_do_not_show(locale: str) -> None:
    # The books once said a refusal ends with "(rule R12)": none does. Every message a book quotes
    # must be one the bot shows in that language, and a refusal never names a rule id.
    text = BOOK[locale].read_text(encoding="utf-8")
    quotes = QUOTED.findall(text)
    assert quotes, "each book quotes a refusal"
    for quote in quotes:
        quote = " ".join(quote.split())  # a quote may run over a line break
        assert _shown(quote, locale), (locale, quote)
    assert not re.search(r"\((?:rule|Regel|aturan)\s+R\d", text)
    for key, message in CATALOGS[locale].items():
        if key.startswith("error."):
            assert not re.search(r"\bR\d{1,2}\b", message), key
    # The buttons a summary names in bold are the buttons of its language.
    if locale != "en":
        labels = {message for key, message in CATALOGS[locale].items() if key.startswith("button.")}
        for bold in re.findall(r"\*\*([^*]+)\*\*", text):
            if not bold.endswith(":"):
                assert bold in labels, (locale, bold)


def test_the_rule_book_names_the_standings_rows_as_the_screens_do() -> None:
    text = BOOK["en"].read_text(encoding="utf-8")
    for locale in LOCALES:
        assert f"`{t('scores.row.tiebreak', locale, number=1)}`" in text, locale
        assert f"`{t('scores.row.round', locale, number=1)}`" in text, locale
