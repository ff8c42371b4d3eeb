"""The card faces as the application's emojis, through Discord: uploaded once at the first start,
nothing on a restart, a changed drawing replaced, and text (after one log line) when Discord refuses.

The bot is the real one (``CARD_STYLE=emoji``, the default); SimCord serves the application's emoji
routes. A refusal is injected, then the bot is started again on the same application.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import RommeBot
from bot.publish.emojis import MAX_APPLICATION_EMOJIS
from bot.render.faces import current_faces, parse_face_name
from bot.render.faces.paint import FACE_CODES, face_png
from tests.discord.play_helpers import (
    Player,
    Room,
    begin,
    game_in,
    romme_bot,
    seeded_bot,
    table_message,
    texts,
)

EMOJIS = "/applications/*/emojis*"
FACE = re.compile(r"<:([a-z0-9_]+_[0-9a-f]{6}):([0-9]+)>")


def emoji_calls(env: simcord.Env, since: int = 0) -> list[tuple[str, str]]:
    """The bot's REST calls on the application's emojis, from the ``since``-th request on."""
    return [
        (entry.method, entry.path)
        for entry in env.http_requests[since:]
        if entry.path.startswith("/applications/") and "/emojis" in entry.path
    ]


def faces_on_the_application(env: simcord.Env) -> dict[str, list[int]]:
    """The application's face emojis' ids by card code."""
    found: dict[str, list[int]] = {}
    for emoji in env.backend.application_emojis.values():
        parsed = parse_face_name(emoji.name)
        if parsed is not None:
            found.setdefault(parsed[0], []).append(emoji.id)
    return found


Restart = Callable[..., Awaitable[RommeBot]]


@pytest.fixture
async def restart(room: Room, database_path: Path) -> AsyncIterator[Restart]:
    """``await restart(card_style=...)``: a new bot process on the same database and the same
    application (the old bot closed); every bot started so is closed after the test."""
    started: list[RommeBot] = []

    async def again(**overrides: Any) -> RommeBot:
        old = room.env.bot
        bot = seeded_bot(database_path)
        if overrides:
            object.__setattr__(bot, "settings", bot.settings.with_overrides(**overrides))
        started.append(bot)
        await room.env.restart_bot(bot)
        await old.close()
        return bot

    yield again
    for bot in started:
        await bot.close()


async def test_the_first_start_uploads_every_face_once_and_the_table_shows_them(room: Room) -> None:
    env = room.env
    calls = emoji_calls(env)
    assert calls.count(("GET", f"/applications/{env.bot.application_id}/emojis")) == 1
    posts = [entry for entry in env.http_requests if entry.method == "POST" and "/emojis" in entry.path]
    assert len(posts) == len(FACE_CODES) == 53
    # Each upload is the face's own drawing, named after it.
    for entry in posts:
        assert isinstance(entry.json, dict)
        parsed = parse_face_name(entry.json["name"])
        assert parsed is not None
        code, digest = parsed
        png = base64.b64decode(entry.json["image"].split(",", 1)[1])
        assert png == face_png(code) and hashlib.sha256(png).hexdigest().startswith(digest)
    on_app = faces_on_the_application(env)
    assert sorted(on_app) == sorted(FACE_CODES) and all(len(ids) == 1 for ids in on_app.values())
    faces = romme_bot(env).card_faces
    assert faces is not None and current_faces() is faces
    assert {code: [face.id] for code, face in faces.items()} == on_app

    await begin(room, room.bob)
    game = game_in(env, room.channel)
    shown = texts(table_message(env, game))
    top = game.match.round.discard_top  # type: ignore[union-attr]
    assert faces[str(top)].markup in shown  # the discard pile's top card, as its face
    assert "♥" not in shown and "♠" not in shown
    panel = texts(await Player(env, room.bob, room.channel).open_hand())
    hand = game.match.round.hand(1)  # type: ignore[union-attr]
    assert all(faces[str(card)].markup in panel for card in hand)
    # Every face shown is one of the application's emojis.
    assert FACE.findall(shown + panel)
    for name, emoji_id in FACE.findall(shown + panel):
        assert env.backend.application_emojis[int(emoji_id)].name == name


async def test_a_restart_uploads_nothing_and_keeps_the_same_emojis(room: Room, restart: Restart) -> None:
    env = room.env
    await begin(room, room.bob)
    before = dict(romme_bot(env).card_faces or {})
    since = len(env.http_requests)
    await restart()
    assert emoji_calls(env, since) == [("GET", f"/applications/{env.bot.application_id}/emojis")]
    assert romme_bot(env).card_faces == before and current_faces() is romme_bot(env).card_faces
    assert len(env.backend.application_emojis) == 53
    # The table the new bot draws shows the same faces.
    game = game_in(env, room.channel)
    assert before[str(game.match.round.discard_top)].markup in texts(table_message(env, game))  # type: ignore[union-attr]


async def test_a_changed_drawing_is_replaced_copies_removed_other_emojis_kept(
    room: Room, restart: Restart
) -> None:
    env = room.env
    backend = env.backend
    by_code = {code: ids[0] for code, ids in faces_on_the_application(env).items()}
    # The 7♥ on the application is an older drawing; the 8♥ is there twice; "party" is not a face.
    old_seven = backend.application_emojis[by_code["7H"]]
    old_seven.name = "romme_7h_000000"
    copy = backend.create_application_emoji(backend.application_emojis[by_code["8H"]].name)
    party = backend.create_application_emoji("party")
    since = len(env.http_requests)
    await restart()
    calls = emoji_calls(env, since)
    assert sorted(method for method, _ in calls) == ["DELETE", "DELETE", "GET", "POST"]
    assert ("DELETE", f"/applications/{env.bot.application_id}/emojis/{old_seven.id}") in calls
    assert ("DELETE", f"/applications/{env.bot.application_id}/emojis/{copy.id}") in calls
    on_app = faces_on_the_application(env)
    assert sorted(on_app) == sorted(FACE_CODES) and all(len(ids) == 1 for ids in on_app.values())
    assert on_app["7H"] != [old_seven.id] and party.id in backend.application_emojis
    faces = romme_bot(env).card_faces
    assert faces is not None and faces["7H"].id == on_app["7H"][0]


def warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("method", "status", "code", "why"),
    [
        ("GET", 403, 50013, "403 Forbidden"),
        ("POST", 403, 50013, "403 Forbidden"),
        ("POST", 400, 30018, "400 Bad Request"),
    ],
)
async def test_a_refusal_logs_one_line_and_cards_are_text(
    room: Room,
    restart: Restart,
    caplog: pytest.LogCaptureFixture,
    method: str,
    status: int,
    code: int,
    why: str,
) -> None:
    env = room.env
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)  # an application without the faces
    env.inject_error(method, EMOJIS, status=status, code=code, message="refused", times=None)
    caplog.set_level(logging.INFO)
    caplog.clear()
    await restart()
    [line] = warnings(caplog)
    assert line.name == "bot.publish.emojis" and "\n" not in line.getMessage()
    assert "cards are shown as text" in line.getMessage() and why in line.getMessage()
    assert romme_bot(env).card_faces is None and current_faces() is None
    await begin(room, room.bob)
    shown = texts(table_message(env, game_in(env, room.channel)))
    assert "<:" not in shown and re.search("[♠♥♦♣🃏]", shown)


async def test_no_room_for_the_faces_logs_one_line_and_uploads_nothing(
    room: Room, restart: Restart, caplog: pytest.LogCaptureFixture
) -> None:
    env = room.env
    for emoji_id in list(env.backend.application_emojis):
        env.backend.delete_application_emoji(emoji_id)
    for n in range(MAX_APPLICATION_EMOJIS - 20):  # the application's own emojis leave 20 places
        env.backend.create_application_emoji(f"other_{n}")
    caplog.set_level(logging.INFO)
    caplog.clear()
    since = len(env.http_requests)
    await restart()
    [line] = warnings(caplog)
    assert "limit of 2000" in line.getMessage() and "cards are shown as text" in line.getMessage()
    assert [method for method, _ in emoji_calls(env, since)] == ["GET"]
    assert romme_bot(env).card_faces is None
    await begin(room, room.bob)
    assert "<:" not in texts(table_message(env, game_in(env, room.channel)))


async def test_card_style_text_leaves_the_application_alone(room: Room, restart: Restart) -> None:
    env = room.env
    since = len(env.http_requests)
    bot = await restart(card_style="text")
    assert emoji_calls(env, since) == [] and bot.card_faces is None and current_faces() is None
    assert len(env.backend.application_emojis) == 53


async def test_each_face_is_named_by_its_card_in_words_a_screen_reader_reads(room: Room) -> None:
    env = room.env
    await room.ada.slash(room.channel, "romme rules")  # the bot is up, its faces made sure of
    faces = romme_bot(env).card_faces
    assert faces is not None
    words = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    for code, face in faces.items():
        said = "joker" if code == "JK" else f"{suits[code[-1]]}_{words.get(code[:-1], code[:-1])}"
        assert re.fullmatch(rf"{said}_[0-9a-f]{{6}}", face.name), (code, face.name)
        assert env.backend.application_emojis[face.id].name == face.name
    assert faces["8C"].name.startswith("clubs_8_") and faces["JK"].name.startswith("joker_")
