"""The card faces as the application's own emojis: made sure of once, at start.

Discord lets an application own up to 2,000 emojis, usable in every server without a permission.
At start :func:`ensure_card_faces` lists the application's emojis and uploads only what is missing
or changed, painting just those faces (:mod:`bot.render.faces.paint`, in a thread):

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

A face deleted while the bot runs (someone tidied the application's emojis) makes Discord refuse
any component that names it (400, code 50035, "Invalid emoji"): :func:`names_an_emoji` tells such a
refusal, and :class:`FaceKeeper` checks the faces again (uploads what is missing, deletes nothing;
text if Discord refuses) and gives the components of the refused answer the faces in use now
(:func:`refaced`), so the click is still answered.

Several processes on one application (``SHARD_COUNT``) may run different drawings during a rolling
update: a process started with ``keep_other_drawings`` deletes no face of another drawing, which a
process still running may show.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources

import discord

from bot.render.cards import card_text
from bot.render.faces import Face, current_faces, face_markup, face_name, parse_face_name, set_faces

INVALID_FORM = 50035
"""Discord's code for a request whose body it refuses, a component naming an unknown emoji among
them."""

log = logging.getLogger(__name__)

INLINE_FACE = re.compile(r"<:([A-Za-z0-9_]{2,32}):[0-9]{1,20}>")
"""A custom emoji inline in an embed's text."""
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


def painted_faces(codes: Iterable[str]) -> dict[str, tuple[str, bytes]]:
    """The emoji name and PNG bytes of the faces of ``codes``, painted now (Pillow is loaded only
    here); the name follows the picture's own hash.

    >>> name, png = painted_faces(["10H"])["10H"]
    >>> name == face_names()["10H"], png[:4]
    (True, b'\x89PNG')
    """
    from bot.render.faces.paint import face_png

    painted = {}
    for code in codes:
        png = face_png(code)
        painted[code] = (face_name(code, hashlib.sha256(png).hexdigest()), png)
    return painted


async def _sync(client: discord.Client, limit: int, *, prune: bool = True) -> dict[str, Face]:
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
        elif prune:
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
    painted = await asyncio.to_thread(painted_faces, missing) if missing else {}
    for code in missing:
        name, png = painted[code]
        keep[code] = await client.create_application_emoji(name=name, image=png)
    log.info(
        "card faces: %d on the application (%d uploaded, %d old ones deleted)",
        len(names),
        len(missing),
        len(drop),
    )
    return {code: Face(code, keep[code].name, keep[code].id) for code in names}


async def ensure_card_faces(
    client: discord.Client,
    *,
    limit: int = MAX_APPLICATION_EMOJIS,
    timeout: float = SYNC_TIMEOUT,
    prune: bool = True,
) -> dict[str, Face] | None:
    """The faces by card code, on the application of the logged-in ``client`` (uploaded if need
    be); ``None``, after one logged line, if Discord cannot have them: cards are then text.
    ``prune`` False: faces of other drawings stay (another process may show them)."""
    try:
        async with asyncio.timeout(timeout):
            return await _sync(client, limit, prune=prune)
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


def names_an_emoji(exc: BaseException) -> bool:
    """``exc`` is Discord refusing a request for naming an emoji it does not know (50035).

    >>> from types import SimpleNamespace
    >>> bad = {"code": 50035, "message": "Invalid Form Body", "errors": {"components": {"0": {
    ...     "emoji": {"id": {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI",
    ...     "message": "Invalid emoji"}]}}}}}}
    >>> names_an_emoji(discord.HTTPException(SimpleNamespace(status=400, reason=""), bad))
    True
    >>> names_an_emoji(discord.HTTPException(SimpleNamespace(status=400, reason=""), {"code": 50035}))
    False
    """
    return isinstance(exc, discord.HTTPException) and exc.code == INVALID_FORM and "emoji" in str(exc).lower()


def _markup_now(found: re.Match[str]) -> str:
    parsed = parse_face_name(found.group(1))
    if parsed is None:
        return found.group(0)
    return face_markup(parsed[0]) or card_text(parsed[0])


def refaced_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """``embeds`` with every inline card face the one in use now (or the card's text).

    >>> embed = discord.Embed(description="<:romme_7h_abcdef:1> and <:party:2>")
    >>> refaced_embeds([embed])[0].description
    '7♥ and <:party:2>'
    """
    for embed in embeds:
        if embed.description:
            embed.description = INLINE_FACE.sub(_markup_now, embed.description)
        for index, field in enumerate(embed.fields):
            if field.value and INLINE_FACE.search(field.value):
                value = INLINE_FACE.sub(_markup_now, field.value)
                embed.set_field_at(index, name=field.name, value=value, inline=field.inline)
    return list(embeds)


def refaced(view: discord.ui.View) -> discord.ui.View:
    """``view`` with every card face in its components (buttons, select options) the one in use now,
    or none while cards are text; other emojis are left alone. Returns ``view``."""
    faces = current_faces()

    def now(emoji: discord.PartialEmoji | None) -> discord.PartialEmoji | None:
        parsed = None if emoji is None or emoji.id is None else parse_face_name(emoji.name or "")
        if parsed is None:
            return emoji
        face = None if faces is None else faces.get(parsed[0])
        return None if face is None else discord.PartialEmoji(name=face.name, id=face.id)

    for item in view.children:
        if isinstance(item, discord.ui.Button):
            item.emoji = now(item.emoji)
        elif isinstance(item, discord.ui.Select):
            for option in item.options:
                option.emoji = now(option.emoji)
    return view


class FaceKeeper:
    """The card faces in use, checked again when Discord says one of them is gone (see the module).

    ``faces``: the ones installed at start (``None``: text, and no check: the faces are off).
    """

    def __init__(self, client: discord.Client, faces: Mapping[str, Face] | None) -> None:
        self.client = client
        self.on = faces is not None
        self._lock = asyncio.Lock()
        self.checks = 0
        """Checks made since start (for the log and the tests)."""

    async def recheck(self, seen: int | None = None) -> None:
        """Check the faces on the application again: upload what is missing (nothing is deleted),
        install them, or text if Discord refuses. ``seen``: the :attr:`checks` the caller saw
        before its refusal; a check made since answers it (many refusals, one check)."""
        if not self.on:
            return
        async with self._lock:
            if seen is not None and self.checks > seen:
                return
            self.checks += 1
            old = current_faces()
            faces = await ensure_card_faces(self.client, prune=False)
            log.warning(
                "card faces: one was gone from the application; checked again (%s)",
                "cards are text now" if faces is None else "uploaded what was missing",
            )
            if current_faces() is old:
                install_faces(faces)
