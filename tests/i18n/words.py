"""English words, to find them where only German or Indonesian should be.

The list is every word of the English catalog (so a key that falls back to English is caught
whatever it says) and the commonest English words besides (so is a renderer's hard-coded English).
A few words are the other language's own as well, or the game's: those are allowed there.
"""

from __future__ import annotations

import re
import string

from bot.i18n.en import MESSAGES as EN

_COMMON = """the and you your with from this that for not are was has have card cards round rounds turn
    points point game games seat seats table stock discard discarded meld melds melded lay off swap
    took went out over total winner wins win standings opening pile score next play again join leave
    cancel hint sort take back stop host house rules jokers away left nobody empty proposed opened
    draw drew hand only here there yet none player players match matches best click see lobby closed
    of to is on it or by at up my"""
COMMON = frozenset(_COMMON.split())
"""Common English words (and two-letter ones, which the catalog scan below skips)."""

GAME = frozenset({"rommé", "romme", "rummy", "joker", "hand", "server", "bot", "bonus", "utc"})
"""The game's and Discord's words, the same in the three languages (``Hand-Rommé`` gives ``hand``)."""
SHARED: dict[str, frozenset[str]] = {
    # German words spelled as English ones: der Computer, die Lobby, der Rest, minus, des Jokers,
    # Standard, des Bots, was, Links (einbetten), der Thread (Discord's German says "Thread").
    "de": GAME
    | frozenset(
        {
            *("computer", "lobby", "lobbys", "minus", "rest", "jokers", "standard", "bots", "was"),
            *("links", "thread", "threads"),
            # Loanwords German players use (review 2026-12): das Replay, der Button; and der Text, die
            # Profile (plural of das Profil), German words spelled as English ones.
            *("replay", "replays", "button", "buttons", "text", "profile"),
        }
    ),
    # Indonesian takes these from English, as the source rules text does: run, set, dealer; panel, per;
    # minus (KBBI: "poin minus"); and the loanwords players use (review 2026-12): rating, replay, tips,
    # host; format and total (KBBI); JSON, a file format's name.
    "id": GAME
    | frozenset(
        {
            *("run", "set", "dealer", "panel", "per", "minus"),
            *("rating", "replay", "tips", "host", "format", "total", "json"),
        }
    ),
}
"""Words a language shares with English."""

WORD = re.compile(r"[^\W\d_]+")
CODE = re.compile(r"`[^`]*`|/romme(?: \w+)?|https?://\S+|<[@#&!t:][^>]*>|\b[\w/-]+/[\w.-]+\.md\b")
"""What is not prose: code spans, commands, links, mentions, timestamps and file paths (docs/rules.md)."""


def _catalog_words() -> frozenset[str]:
    words = set()
    for key, text in EN.items():
        if key.startswith("language."):
            continue  # "Deutsch", "Bahasa Indonesia": each language's own name
        prose = "".join(literal for literal, *_ in string.Formatter().parse(text))
        words |= {word.lower() for word in WORD.findall(CODE.sub(" ", prose)) if len(word) > 2}
    return frozenset(words)


ENGLISH = _catalog_words() | COMMON
"""Every word the English catalog uses (three letters or more), and the common ones."""


def english_words(text: str, locale: str) -> list[str]:
    """The English words of ``text`` that have no place in ``locale`` (in order, repeated).

    >>> english_words("Anna zog vom Stapel und warf 7♥ ab.", "de")
    []
    >>> english_words("Anna drew from the stock.", "de")
    ['drew', 'from', 'the', 'stock']
    """
    allowed = SHARED.get(locale, frozenset())
    found = []
    for word in WORD.findall(CODE.sub(" ", text)):
        lower = word.lower()
        if lower in ENGLISH and lower not in allowed:
            found.append(word)
    return found
