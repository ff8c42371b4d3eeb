"""Card faces: pictures of the cards, uploaded once as the application's emojis and shown inline.

- :mod:`bot.render.faces.paint`: the 53 faces painted with Pillow (imported only where they are painted,
  so rendering a table never loads Pillow);
- :mod:`bot.render.faces.style`: the switch the card texts of :mod:`bot.render.cards` consult: off
  (text, ``7♥``) until :func:`set_faces` hands it the uploaded emojis, then ``<:hearts_7_…:id>``;
- :mod:`bot.render.faces.fit`: what a component label needs instead (text and a separate emoji),
  and cutting text without splitting an emoji;
- ``python -m bot.render.faces FOLDER``: writes every face and contact sheets for a look.

The upload itself is :mod:`bot.publish.emojis`.
"""

from bot.render.faces.style import (
    FACE_PREFIX,
    Face,
    current_faces,
    face_markup,
    face_name,
    parse_face_name,
    set_faces,
    text_cards,
)

__all__ = [
    "FACE_PREFIX",
    "Face",
    "current_faces",
    "face_markup",
    "face_name",
    "parse_face_name",
    "set_faces",
    "text_cards",
]
