"""Whether cards are drawn as text or as their faces: one switch for the whole process.

Off (``None``, the default) the card texts of :mod:`bot.render.cards` are text, ``7♥``. The bot
turns it on at start with the emojis it has made sure its application owns
(:mod:`bot.publish.emojis`); from then on a card's text is its face, ``<:hearts_7_1a2b3c:123…>``,
which Discord draws inline in embeds. A process runs one bot, so one switch is enough; the bot
turns it off again when it closes.

An emoji's name carries the first hex digits of the SHA-256 of its picture, so the application
itself records which drawing each emoji shows: a start after the drawing changed finds the old
emoji under another name and replaces it, and a start with the same drawing finds every name and
uploads nothing.

>>> face = Face("7H", face_name("7H", "1a2b3c4d"), 1234567890123456789)
>>> face.name, face.markup
('hearts_7_1a2b3c', '<:hearts_7_1a2b3c:1234567890123456789>')
>>> set_faces({"7H": face}); face_markup("7H"), face_markup("8H")
('<:hearts_7_1a2b3c:1234567890123456789>', None)
>>> set_faces(None); face_markup("7H") is None
True
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.engine.cards import Card

FACE_PREFIX = "romme_"
"""How earlier versions named a face (``romme_7h_1a2b3c``): still recognised, so that a start
replaces such an emoji by the face under its readable name."""
DIGEST_LENGTH = 6
"""Hex digits of the picture's SHA-256 kept in an emoji's name."""
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_DIGEST = rf"(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})"
_NAME = re.compile(
    rf"^(?:(?P<suit>{'|'.join(SUITS.values())})_(?P<rank>{'|'.join(RANKS.values())}|[2-9]|10)|(?P<joker>joker))_{_DIGEST}$"
)
_OLD_NAME = re.compile(rf"^{FACE_PREFIX}(?P<code>[0-9a-z]{{2,3}})_{_DIGEST}$")


def face_name(code: str, digest: str) -> str:
    """The emoji name of the face of ``code`` whose picture has SHA-256 ``digest`` (hex): the card
    in words a screen reader reads ("clubs 8", "joker"), then the digest's first digits.

    Discord wants 2-32 characters of ``A-Z a-z 0-9 _``; the longest is 21.

    >>> face_name("8C", "ABCDEF0123"), face_name("QD", "00ff00ff"), face_name("JK", "123456")
    ('clubs_8_abcdef', 'diamonds_queen_00ff00', 'joker_123456')
    """
    code = code.upper()
    digest = digest[:DIGEST_LENGTH].lower()
    if code == "JK":
        return f"joker_{digest}"
    rank = code[:-1]
    return f"{SUITS[code[-1]]}_{RANKS.get(rank, rank)}_{digest}"


def parse_face_name(name: str) -> tuple[str, str] | None:
    """``(card code, digest)`` of a face emoji's name (also of an earlier version's name); ``None``
    for any other name.

    >>> parse_face_name("hearts_10_abcdef"), parse_face_name("joker_000000"), parse_face_name("party")
    (('10H', 'abcdef'), ('JK', '000000'), None)
    >>> parse_face_name("romme_10h_abcdef"), parse_face_name("spades_ace")
    (('10H', 'abcdef'), None)
    """
    old = _OLD_NAME.match(name)
    if old is not None:
        return old["code"].upper(), old["digest"]
    found = _NAME.match(name)
    if found is None:
        return None
    if found["joker"]:
        return "JK", found["digest"]
    rank = {word: letter for letter, word in RANKS.items()}.get(found["rank"], found["rank"])
    suit = {word: letter for letter, word in SUITS.items()}[found["suit"]]
    return rank + suit, found["digest"]


@dataclass(frozen=True, slots=True)
class Face:
    """A card's face as an emoji of the application: its card code, emoji name and id."""

    code: str
    name: str
    id: int

    @property
    def markup(self) -> str:
        """How a message shows the emoji: ``<:name:id>`` (about 30-40 characters of a limit)."""
        return f"<:{self.name}:{self.id}>"


_faces: Mapping[str, Face] | None = None
_listeners: list[Callable[[], None]] = []
_text_only: ContextVar[bool] = ContextVar("romme_text_cards", default=False)


@contextlib.contextmanager
def text_cards(on: bool = True) -> Iterator[None]:
    """Within the block, cards are text whatever the switch (a member who chose text cards in
    ``/romme preferences``: what a screen reader reads as "8♣", not an emoji's name).

    >>> set_faces({"7H": Face("7H", "hearts_7_abcdef", 1)})
    >>> with text_cards():
    ...     face_markup("7H") is None
    True
    >>> face_markup("7H"); set_faces(None)
    '<:hearts_7_abcdef:1>'
    """
    token = _text_only.set(on)
    try:
        yield
    finally:
        _text_only.reset(token)


def cards_are_text() -> bool:
    """Whether cards are drawn as text here and now (no faces, or :func:`text_cards`).

    >>> set_faces(None); cards_are_text()
    True
    """
    return _faces is None or _text_only.get()


def set_faces(faces: Mapping[str, Face] | None) -> None:
    """Draw cards as these faces (by card code) from now on; ``None``: as text again.

    A card without a face in ``faces`` stays text. Caches of card texts are emptied.
    """
    global _faces
    _faces = faces
    for listener in _listeners:
        listener()


def current_faces() -> Mapping[str, Face] | None:
    """The faces cards are drawn as, or ``None`` while they are text."""
    return _faces


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` (a cache's ``cache_clear``) whenever :func:`set_faces` switches."""
    _listeners.append(listener)


def face_of(card: Card | str) -> Face | None:
    """The face ``card`` is drawn as, ``None`` while cards are text (or this one has none)."""
    if _faces is None or _text_only.get():
        return None
    return _faces.get(str(card).upper())


def face_markup(card: Card | str) -> str | None:
    """The inline emoji of ``card`` while faces are on, else ``None``."""
    face = face_of(card)
    return None if face is None else face.markup
