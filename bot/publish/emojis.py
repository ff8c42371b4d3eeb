"""The card faces as the application's own emojis: made sure of once, at start.

Discord lets an application own up to 2,000 emojis, usable in every server without a permission.
At start :func:`ensure_card_faces` lists the application's emojis and uploads only what is missing
or changed, drawing just those faces (:mod:`bot.render.faces.draw`, in a thread):

- a face's emoji is named by its card, in words a screen reader reads, and the first hex digits
  of its picture's SHA-256 (``clubs_8_1a2b3c``, ``joker_…``; earlier ``romme_8c_…``)
  (:func:`bot.render.faces.face_name`), so the application itself remembers which drawing each one
  shows, across restarts and databases: the same drawing finds every name and uploads nothing;
- an emoji of a face under another digest (an older drawing), or a second copy, is deleted, and the
  new drawing uploaded; emojis with any other name are left alone;
- if Discord refuses (no permission, the 2,000 reached, any HTTP error, no answer in
  :data:`SYNC_TIMEOUT`), it logs one line and the bot shows cards as text. What was uploaded stays:
  the next start carries on from there.

The faces are then handed to rendering (:func:`install_faces`), which draws every card with them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from importlib import resources

import discord

from bot.render.faces import Face, current_faces, face_name, parse_face_name, set_faces

log = logging.getLogger(__name__)

MAX_APPLICATION_EMOJIS = 2000
"""Emojis an application may own (Discord's limit)."""
SYNC_TIMEOUT = 120.0
"""Seconds the whole check and upload may take before the bot gives up and shows text."""


class FacesUnavailable(Exception):
    """The faces cannot be put on the application; ``str`` says why, in a few words."""


def face_names() -> dict[str, str]:
    """Every face's emoji name by card code, from the pinned hashes of the drawings
    (``bot/render/faces/hashes.json``, which a test keeps equal to the drawings): a start that
    finds every face on the application draws nothing.

    >>> names = face_names()
    >>> len(names), names["10H"].startswith("hearts_10_")
    (53, True)
    """
    pinned = json.loads(resources.files("bot.render.faces").joinpath("hashes.json").read_text())
    return {code: face_name(code, digest) for code, digest in pinned.items()}


def drawn_faces(codes: Iterable[str]) -> dict[str, tuple[str, bytes]]:
    """The emoji name and PNG bytes of the faces of ``codes``, drawn now (Pillow is loaded only
    here); the name follows the drawing's own hash.

    >>> name, png = drawn_faces(["10H"])["10H"]
    >>> name == face_names()["10H"], png[:4]
    (True, b'\x89PNG')
    """
    from bot.render.faces.draw import face_png

    drawn = {}
    for code in codes:
        png = face_png(code)
        drawn[code] = (face_name(code, hashlib.sha256(png).hexdigest()), png)
    return drawn


async def _sync(client: discord.Client, limit: int) -> dict[str, Face]:
    names = face_names()
    emojis = await client.fetch_application_emojis()
    keep: dict[str, discord.Emoji] = {}
    drop: list[discord.Emoji] = []
    for emoji in emojis:
        parsed = parse_face_name(emoji.name)
        if parsed is None or parsed[0] not in names:
            continue
        code = parsed[0]
        if emoji.name == names[code] and code not in keep:
            keep[code] = emoji
        else:
            drop.append(emoji)  # an older drawing of the face, or a second copy
    missing = [code for code in names if code not in keep]
    room = limit - (len(emojis) - len(drop))
    if len(missing) > room:
        raise FacesUnavailable(
            f"the application owns {len(emojis)} emojis and {len(missing)} more faces would pass "
            f"Discord's limit of {limit}"
        )
    for emoji in drop:
        await emoji.delete()
    drawn = await asyncio.to_thread(drawn_faces, missing) if missing else {}
    for code in missing:
        name, png = drawn[code]
        keep[code] = await client.create_application_emoji(name=name, image=png)
    log.info(
        "card faces: %d on the application (%d uploaded, %d old ones deleted)",
        len(names),
        len(missing),
        len(drop),
    )
    return {code: Face(code, keep[code].name, keep[code].id) for code in names}


async def ensure_card_faces(
    client: discord.Client, *, limit: int = MAX_APPLICATION_EMOJIS, timeout: float = SYNC_TIMEOUT
) -> dict[str, Face] | None:
    """The faces by card code, on the application of the logged-in ``client`` (uploaded if need
    be); ``None``, after one logged line, if Discord cannot have them: cards are then text."""
    try:
        async with asyncio.timeout(timeout):
            return await _sync(client, limit)
    except FacesUnavailable as why:
        problem = str(why)
    except TimeoutError:
        problem = f"Discord did not answer within {timeout:.0f} s"
    except (discord.HTTPException, discord.ClientException) as exc:
        problem = "Discord refused to list or upload the application's emojis: " + " ".join(str(exc).split())
    log.warning("card faces are off, cards are shown as text: %s", problem)
    return None


def install_faces(faces: Mapping[str, Face] | None) -> None:
    """Draw cards with ``faces`` from now on (``None``: as text)."""
    set_faces(faces)


def uninstall_faces(faces: Mapping[str, Face] | None) -> None:
    """Cards as text again, if ``faces`` are still the ones in use (a bot started after this one,
    on the same process, keeps its own).

    >>> faces = {"JK": Face("JK", "romme_jk_abcdef", 1)}
    >>> install_faces(faces); uninstall_faces({}); current_faces() is faces
    True
    >>> uninstall_faces(faces); current_faces() is None
    True
    """
    if faces is not None and current_faces() is faces:
        set_faces(None)
