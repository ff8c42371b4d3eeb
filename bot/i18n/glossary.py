"""One term per idea: what each catalog's ``GLOSSARY`` holds, and the check ``tests/i18n`` runs on it.

A catalog's glossary maps an idea (``"rating"``, ``"replay"``, ``"went_out"`` …) to a :class:`Term`:
the one word the language uses for it, the other words it must not use for it, and the few entries
where such a word rightly means something else. The English glossary says which entries speak of
an idea: those whose English text matches its English term. So a new screen whose English says
"rating" must say the German and the Indonesian term too, and "Keluar" (left the game) cannot stand
for going out again.

>>> english = {"replay": Term("replay")}
>>> german = {"replay": Term("Replay", forbidden=("Wiederholung",), always=True)}
>>> en_texts = {"history.button": "Replay {number}"}
>>> problems(german, {"history.button": "Wiederholung {number}"}, english, en_texts)
["history.button: 'Wiederholung' is not the word for replay", "history.button: replay is not called 'Replay'"]
>>> problems(german, {"history.button": "Replay {number}"}, english, en_texts)
[]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple


class Term(NamedTuple):
    """A language's one word for an idea, as regular expressions (matched case-insensitively)."""

    word: str
    """The term, with the forms it takes in a sentence (``Wertung|gewertet``)."""
    forbidden: tuple[str, ...] = ()
    """Other words for the idea: in no entry of the catalog, except the :attr:`allowed` ones."""
    allowed: Mapping[str, str] = {}
    """Entries where a forbidden word means something else, each with the reason."""
    not_for: tuple[str, ...] = ()
    """Words that are right elsewhere but not for this idea: in none of the idea's entries."""
    always: bool = False
    """Every entry whose English names the idea uses the term (unless :attr:`allowed`)."""
    only_here: bool = False
    """The term appears only in entries whose English names the idea (unless :attr:`allowed`)."""


NOT_PROSE = re.compile(r"`[^`]*`|/romme(?: \w+)?|\{[^{}]*\}")
"""What no glossary reads: code spans, command names and placeholders (``{rating}`` is no rating)."""


def _found(pattern: str, text: str) -> str | None:
    match = re.search(pattern, NOT_PROSE.sub("{}", text), re.IGNORECASE)
    return match.group(0) if match else None


def problems(
    glossary: Mapping[str, Term],
    catalog: Mapping[str, str],
    english: Mapping[str, Term],
    english_catalog: Mapping[str, str],
) -> list[str]:
    """What in ``catalog`` breaks its ``glossary``, one line per entry and rule (empty: none).

    ``english`` is the English glossary and ``english_catalog`` the English texts: an entry speaks of
    an idea when its English text matches the idea's English term.
    """
    found: list[str] = []
    for idea, term in glossary.items():
        signal = english[idea].word if idea in english else None
        speaks = {key for key, text in english_catalog.items() if signal and _found(signal, text)}
        for key, text in catalog.items():
            base = key if key in english_catalog else key.rpartition(".")[0]
            if key in term.allowed or base in term.allowed:
                continue
            for pattern in term.forbidden:
                if word := _found(pattern, text):
                    found.append(f"{key}: {word!r} is not the word for {idea}")
            if base in speaks:
                for pattern in term.not_for:
                    if word := _found(pattern, text):
                        found.append(f"{key}: {word!r} does not mean {idea} here")
                if term.always and not _found(term.word, text):
                    found.append(f"{key}: {idea} is not called {term.word!r}")
            elif term.only_here and (word := _found(term.word, text)):
                found.append(f"{key}: {word!r} is the word for {idea}, which its English does not name")
    return found
