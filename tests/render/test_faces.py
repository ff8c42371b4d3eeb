"""The card faces: 53 pictures, drawn the same way every time, small enough, named as Discord wants.

``bot/render/faces/hashes.json`` pins the SHA-256 of every face's PNG (the bot names the emojis
from it, so a start that finds them all draws nothing). A change of drawing (or of Pillow, which
``pyproject.toml`` pins) changes them: look at the new faces (``python -m bot.render.faces FOLDER``),
then write the new hashes with ``python -m tests.render.test_faces``. The bot uploads a changed face
again at its next start (the hash is in the emoji's name).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

from PIL import Image

import bot.render.faces
from bot.engine.cards import new_deck
from bot.publish.emojis import face_names, painted_faces
from bot.render.faces import face_name, parse_face_name
from bot.render.faces.__main__ import write_faces
from bot.render.faces.paint import FACE_CODES, RED, all_faces, face_png, paint_face

PINS = Path(bot.render.faces.__file__).with_name("hashes.json")
DISCORD_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")


def digests() -> dict[str, str]:
    return {code: hashlib.sha256(png).hexdigest() for code, png in all_faces().items()}


def test_there_is_one_face_per_card_of_the_deck_and_the_joker() -> None:
    # R1: two French decks and jokers; equal cards share a face.
    assert sorted(FACE_CODES) == sorted({str(card) for card in new_deck(4)}) and len(FACE_CODES) == 53


def test_the_faces_are_the_pinned_drawings() -> None:
    assert digests() == json.loads(PINS.read_text())


def test_a_face_is_painted_again_to_the_same_bytes() -> None:
    again = paint_face("QD")
    out = io.BytesIO()
    again.save(out, format="PNG", optimize=True)
    assert out.getvalue() == face_png("QD")


def test_every_face_is_a_small_128_pixel_png_without_metadata() -> None:
    for code, png in all_faces().items():
        assert len(png) < 256 * 1024, code  # Discord's limit for an emoji
        image = Image.open(io.BytesIO(png))
        assert (image.format, image.size, image.mode) == ("PNG", (128, 128), "RGBA")
        assert set(image.info) <= {"dpi", "gamma"} and b"tIME" not in png and b"tEXt" not in png, code


def rgb(code: str, xy: tuple[int, int]) -> tuple[int, ...]:
    """The red, green and blue of one pixel of the face of ``code``."""
    pixel = paint_face(code).getpixel(xy)
    assert isinstance(pixel, tuple), pixel
    return pixel[:3]


def test_red_suits_are_red_black_suits_black_and_the_joker_stands_out() -> None:
    def reddish(code: str) -> int:
        data = paint_face(code).convert("RGB").tobytes()
        pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
        return sum(1 for r, g, b in pixels if r > 150 and g < 90 and b < 90)

    assert all(reddish(f"{rank}H") > 200 and reddish(f"{rank}D") > 200 for rank in ("A", "7", "10", "K"))
    assert all(reddish(f"{rank}S") == 0 and reddish(f"{rank}C") == 0 for rank in ("A", "7", "10", "K"))
    assert rgb("7H", (64, 100)) == RED[:3]  # the heart's middle
    # The joker: a coloured card where every other face is white.
    assert rgb("JK", (20, 64)) != (255, 255, 255)
    assert rgb("7S", (20, 64)) == (255, 255, 255)


def test_faces_tell_ranks_and_suits_apart_at_22_pixels() -> None:
    # Two different cards never look the same at Discord's smallest inline size.
    small = {paint_face(code).resize((22, 22), Image.Resampling.LANCZOS).tobytes() for code in FACE_CODES}
    assert len(small) == len(FACE_CODES)


def test_emoji_names_are_valid_for_discord_and_name_their_face() -> None:
    names = face_names()
    assert names == {code: name for code, (name, _png) in painted_faces(FACE_CODES).items()}
    assert len(set(names.values())) == 53
    for code, name in names.items():
        assert DISCORD_NAME.match(name), name
        assert parse_face_name(name) == (code, hashlib.sha256(face_png(code)).hexdigest()[:6])
    assert names["10H"] == face_name("10H", digests()["10H"]) and names["10H"].startswith("hearts_10_")


def test_the_faces_can_be_written_to_a_folder_for_a_look(tmp_path: Path) -> None:
    written = write_faces(tmp_path / "faces")
    assert len(written) == 55  # 53 faces and two contact sheets
    assert (tmp_path / "faces" / "JK.png").read_bytes() == face_png("JK")
    assert Image.open(tmp_path / "faces" / "sheet-32.png").size == (14 * 36 * 3, 4 * 36 * 3)


if __name__ == "__main__":
    PINS.write_text(json.dumps(digests(), indent=1) + "\n")
    print(f"wrote {PINS}")
