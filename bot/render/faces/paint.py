"""The 53 card faces (52 cards and the joker) painted with Pillow, as PNG bytes.

Each face is a 128×128 picture of a card: a white card with the rank large at the top and the suit
large below it, red for ♥ ♦ and black for ♠ ♣; the joker is a purple card with a gold star, so it
stands out in a row of cards. Discord shows an inline emoji at 22-48 pixels, so the rank and suit
fill the card and nothing small is drawn.

Nothing comes from a file: the rank is drawn in the font Pillow carries (``ImageFont.load_default``),
the suits and the star are drawn as shapes. Everything is drawn four times larger and scaled down
(smooth edges), and saved with no metadata, so the same Pillow gives the same bytes every time.

>>> png = face_png("7H")
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", len(png) < 256 * 1024
(True, True)
>>> face_png("7h") == png
True
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.engine.cards import JOKER, RANK_NAMES, SUITS, Card

SIZE = 128
"""The side of a face in pixels (Discord scales an emoji down to the size it shows)."""
SCALE = 4
"""Faces are drawn this many times larger, then scaled down to :data:`SIZE`."""
RED = (200, 24, 32, 255)
BLACK = (20, 20, 24, 255)
PAPER = (255, 255, 255, 255)
EDGE = (96, 96, 104, 255)
JOKER_PAPER = (106, 27, 154, 255)
JOKER_EDGE = (60, 10, 90, 255)
GOLD = (255, 196, 24, 255)

FACE_CODES: tuple[str, ...] = (
    *(f"{RANK_NAMES[rank]}{suit}" for suit in SUITS for rank in range(1, 14)),
    str(JOKER),
)
"""The code of every face: ``AS`` … ``KS``, ``AH`` … ``KC``, then ``JK``."""

Box = tuple[int, int, int, int]

# In face pixels (×SCALE when drawn): the card, the rank's box and the suit's box.
_CARD: Box = (8, 1, 120, 127)
_RANK: Box = (16, 8, 112, 62)
_SUIT: Box = (20, 68, 108, 121)


def _scaled(box: Box) -> Box:
    left, top, right, bottom = box
    return left * SCALE, top * SCALE, right * SCALE, bottom * SCALE


def _paint(canvas: Image.Image, mask: Image.Image, colour: tuple[int, int, int, int]) -> None:
    canvas.paste(Image.new("RGBA", canvas.size, colour), (0, 0), mask)


def _fit(mask: Image.Image, box: Box) -> Image.Image:
    """``mask`` cropped to its ink and scaled into ``box`` (kept in proportion; squeezed sideways
    only if it is too wide), centred; a mask of the canvas's size."""
    ink = mask.crop(mask.getbbox())
    left, top, right, bottom = _scaled(box)
    width, height = right - left, bottom - top
    scale = height / ink.height
    new_width = min(width, round(ink.width * scale))
    ink = ink.resize((new_width, height), Image.Resampling.LANCZOS)
    placed = Image.new("L", (SIZE * SCALE, SIZE * SCALE), 0)
    placed.paste(ink, (left + (width - new_width) // 2, top))
    return placed


def _text_mask(text: str) -> Image.Image:
    font = ImageFont.load_default(size=100 * SCALE)
    mask = Image.new("L", (120 * SCALE * len(text), 160 * SCALE), 0)
    # A stroke in the ink's own colour makes the regular font bold enough for small sizes.
    ImageDraw.Draw(mask).text((10 * SCALE, 10 * SCALE), text, fill=255, font=font, stroke_width=7 * SCALE)
    return mask


def _heart(draw: ImageDraw.ImageDraw, size: int) -> None:
    # Two lobes and a point, on a square of side ``size``.
    r = size * 0.27
    for cx in (size * 0.27, size * 0.73):
        draw.ellipse((cx - r, size * 0.30 - r, cx + r, size * 0.30 + r), fill=255)
    draw.polygon(
        [(size * 0.015, size * 0.36), (size * 0.5, size * 0.98), (size * 0.985, size * 0.36)], fill=255
    )
    draw.polygon([(size * 0.3, size * 0.2), (size * 0.7, size * 0.2), (size * 0.5, size * 0.6)], fill=255)


def _suit_mask(suit: str) -> Image.Image:
    size = 100 * SCALE
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    if suit == "H":
        _heart(draw, size)
    elif suit == "D":
        corners = [(0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)]
        draw.polygon([(size * x, size * y) for x, y in corners], fill=255)
    elif suit == "S":
        # An upside-down heart on a short flared stem.
        top = Image.new("L", (size, size), 0)
        _heart(ImageDraw.Draw(top), size)
        top = top.transpose(Image.Transpose.FLIP_TOP_BOTTOM).resize((size, round(size * 0.8)))
        mask.paste(top, (0, 0))
        draw.polygon([(size * 0.5, size * 0.55), (size * 0.72, size), (size * 0.28, size)], fill=255)
    else:  # clubs: three leaves and a stem
        r = size * 0.215
        for cx, cy in ((0.5, 0.24), (0.245, 0.56), (0.755, 0.56)):
            draw.ellipse((size * cx - r, size * cy - r, size * cx + r, size * cy + r), fill=255)
        draw.rectangle((size * 0.4, size * 0.3, size * 0.6, size * 0.62), fill=255)
        draw.polygon([(size * 0.5, size * 0.5), (size * 0.72, size), (size * 0.28, size)], fill=255)
    return mask


def _star_mask() -> Image.Image:
    size = 100 * SCALE
    mask = Image.new("L", (size, size), 0)
    outer, inner = size * 0.5, size * 0.2
    points = []
    for index in range(10):
        angle = -math.pi / 2 + index * math.pi / 5
        radius = outer if index % 2 == 0 else inner
        points.append((size * 0.5 + radius * math.cos(angle), size * 0.52 + radius * math.sin(angle)))
    ImageDraw.Draw(mask).polygon(points, fill=255)
    return mask


def paint_face(code: str) -> Image.Image:
    """The face of the card ``code`` (``"7H"``, ``"10S"``, ``"JK"``) as a 128×128 RGBA picture.

    >>> paint_face("JK").size, paint_face("QS").mode
    ((128, 128), 'RGBA')
    """
    card = Card.parse(code)
    canvas = Image.new("RGBA", (SIZE * SCALE, SIZE * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    paper, edge = (JOKER_PAPER, JOKER_EDGE) if card.is_joker else (PAPER, EDGE)
    draw.rounded_rectangle(_scaled(_CARD), radius=14 * SCALE, fill=edge)
    left, top, right, bottom = _scaled(_CARD)
    rim = 3 * SCALE
    draw.rounded_rectangle((left + rim, top + rim, right - rim, bottom - rim), radius=11 * SCALE, fill=paper)
    if card.is_joker:
        _paint(canvas, _fit(_text_mask("JK"), _RANK), GOLD)
        _paint(canvas, _fit(_star_mask(), (22, 70, 106, 122)), GOLD)
    else:
        colour = RED if card.suit in ("H", "D") else BLACK
        _paint(canvas, _fit(_text_mask(RANK_NAMES[card.rank]), _RANK), colour)
        _paint(canvas, _fit(_suit_mask(card.suit), _SUIT), colour)
    return canvas.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


@lru_cache(maxsize=len(FACE_CODES))
def _png(code: str) -> bytes:
    out = io.BytesIO()
    # No PngInfo, no timestamps: the bytes depend on the drawing alone.
    paint_face(code).save(out, format="PNG", optimize=True)
    return out.getvalue()


def face_png(code: str) -> bytes:
    """The PNG bytes of the face of ``code`` (painted once per process)."""
    return _png(str(Card.parse(code)))


def all_faces() -> dict[str, bytes]:
    """Every face's PNG bytes by card code, in :data:`FACE_CODES` order.

    >>> faces = all_faces()
    >>> len(faces), list(faces)[:2], list(faces)[-1]
    (53, ['AS', '2S'], 'JK')
    """
    return {code: face_png(code) for code in FACE_CODES}
