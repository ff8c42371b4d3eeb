"""``python -m bot.render.faces FOLDER``: write every card face and two contact sheets for a look.

The faces are written as ``<code>.png`` (``7H.png``, ``JK.png``, 128×128, the bytes the bot uploads);
``sheet-32.png`` and ``sheet-22.png`` show all 53 at the sizes Discord draws an inline emoji (on
Discord's dark grey), enlarged three times without smoothing so each pixel can be seen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

from bot.render.faces.paint import FACE_CODES, all_faces, paint_face

SHEET_SIZES = (32, 22)
BACKGROUND = (49, 51, 56, 255)


def contact_sheet(size: int, *, zoom: int = 3) -> Image.Image:
    """All faces at ``size`` pixels, a suit a row (the joker after the spades), enlarged ``zoom`` times."""
    cell = size + 4
    sheet = Image.new("RGBA", (14 * cell, 4 * cell), BACKGROUND)
    for index, code in enumerate(FACE_CODES):
        column, row = (index % 13, index // 13) if code != "JK" else (13, 0)
        face = paint_face(code).resize((size, size), Image.Resampling.LANCZOS)
        sheet.alpha_composite(face, (column * cell + 2, row * cell + 2))
    return sheet.resize((sheet.width * zoom, sheet.height * zoom), Image.Resampling.NEAREST)


def write_faces(folder: Path) -> list[Path]:
    """Write the faces and the contact sheets into ``folder`` (made if need be); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code, png in all_faces().items():
        path = folder / f"{code}.png"
        path.write_bytes(png)
        written.append(path)
    for size in SHEET_SIZES:
        path = folder / f"sheet-{size}.png"
        contact_sheet(size).save(path, format="PNG")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """The command line: one argument, the folder."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m bot.render.faces FOLDER", file=sys.stderr)
        return 2
    written = write_faces(Path(args[0]))
    print(f"wrote {len(written)} files to {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
