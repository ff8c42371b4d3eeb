"""Whether cards are drawn as text or as their faces: one switch for the whole process.

Off (``None``, the default) the card texts of :mod:`bot.render.cards` are text, ``7♥``. The bot
turns it on at start with the emojis it has made sure its application owns
(:mod:`bot.publish.emojis`); from then on a card's text is its face, ``<:romme_7h_1a2b3c:123…>``,
which Discord draws inline in embeds. A process runs one bot, so one switch is enough; the bot
turns it off again when it closes.

An emoji's name carries the first hex digits of the SHA-256 of its picture, so the application
itself records which drawing each emoji shows: a start after the drawing changed finds the old
emoji under another name and replaces it, and a start with the same drawing finds every name and
uploads nothing.

>>> face = Face("7H", face_name("7H", "1a2b3c4d"), 1234567890123456789)
>>> face.name, face.markup
('romme_7h_1a2b3c', '<:romme_7h_1a2b3c:1234567890123456789>')
>>> set_faces({"7H": face}); face_markup("7H"), face_markup("8H")
('<:romme_7h_1a2b3c:1234567890123456789>', None)
>>> set_faces(None); face_markup("7H") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.engine.cards import Card

FACE_PREFIX = "romme_"
"""Every face emoji's name starts with this (an application may own other emojis too)."""
DIGEST_LENGTH = 6
"""Hex digits of the picture's SHA-256 kept in an emoji's name."""
_NAME = re.compile(rf"^{FACE_PREFIX}(?P<code>[0-9a-z]{{2,3}})_(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})$")


def face_name(code: str, digest: str) -> str:
    """The emoji name of the face of ``code`` whose picture has SHA-256 ``digest`` (hex).

    Discord wants 2-32 characters of ``A-Z a-z 0-9 _``; the longest is 16.

    >>> face_name("10H", "ABCDEF0123"), face_name("JK", "00ff00ff")
    ('romme_10h_abcdef', 'romme_jk_00ff00')
    """
    return f"{FACE_PREFIX}{code.lower()}_{digest[:DIGEST_LENGTH].lower()}"


def parse_face_name(name: str) -> tuple[str, str] | None:
    """``(card code, digest)`` of a face emoji's name; ``None`` for any other name.

    >>> parse_face_name("romme_10h_abcdef"), parse_face_name("romme_7h"), parse_face_name("party")
    (('10H', 'abcdef'), None, None)
    """
    found = _NAME.match(name)
    if found is None:
        return None
    return found["code"].upper(), found["digest"]


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
    if _faces is None:
        return None
    return _faces.get(str(card).upper())


def face_markup(card: Card | str) -> str | None:
    """The inline emoji of ``card`` while faces are on, else ``None``."""
    face = face_of(card)
    return None if face is None else face.markup
