"""A card-face emoji deleted while games run (issue 25, point 6): Discord refuses any component that
names an emoji it does not know (400, code 50035, "Invalid emoji"); the bot checks its faces again
(uploads what is missing), and the click is still answered, with the faces of now.

SimCord serves the application's emojis but accepts any emoji in a component; the fixture
:func:`discord_checks_emojis` adds Discord's check (a model of Discord, not of the bot).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import simcord
import simcord.http.router as router
from simcord.backend.errors import BackendError
from simcord.results import to_discord_message

from bot.render.faces import parse_face_name
from tests.discord.play_helpers import Player, Room, begin, components, enabled, game_in, romme_bot, texts


def unknown_emojis(backend: Any, body: Any) -> list[int]:
    """The ids of custom emojis a request's components name that the application does not own."""
    found: list[int] = []

    def walk(value: Any, in_components: bool) -> None:
        if isinstance(value, dict):
            emoji = value.get("emoji")
            named = emoji.get("id") if in_components and isinstance(emoji, dict) else None
            if named and int(named) not in backend.application_emojis:
                found.append(int(named))
            for key, inner in value.items():
                walk(inner, in_components or key == "components")
        elif isinstance(value, list):
            for inner in value:
                walk(inner, in_components)

    walk(body, False)
    return found


@pytest.fixture
def discord_checks_emojis() -> Iterator[None]:
    """SimCord refuses a component naming an unknown emoji, as Discord does."""
    dispatch = router.dispatch

    def checked(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        unknown = unknown_emojis(backend, kwargs.get("json"))
        if unknown:
            backend.http_requests.append(simcord.HttpLogEntry(method, path, {}, kwargs.get("json"), None))
            errors = {"components": {"0": {"emoji": {"id": {"_errors": [
                {"code": "BUTTON_COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}
            ]}}}}}  # fmt: skip
            raise BackendError(400, 50035, "Invalid Form Body", errors=errors)
        return dispatch(backend, method, path, *args, **kwargs)

    router.dispatch = checked  # the HTTP client calls router.dispatch by attribute
    yield
    router.dispatch = dispatch


def faces_named(env: simcord.Env) -> dict[str, int]:
    """The application's face emojis: id by card code."""
    found = {}
    for emoji in env.backend.application_emojis.values():
        parsed = parse_face_name(emoji.name)
        if parsed is not None:
            found[parsed[0]] = emoji.id
    return found


async def test_a_face_deleted_mid_game_is_uploaded_again_and_my_hand_is_answered(
    room: Room, discord_checks_emojis: None
) -> None:
    env = room.env
    await begin(room, room.bob)
    game = game_in(env, room.channel)
    assert game.match is not None
    card = str(game.match.round.hand(1)[0])  # a card in Bob's hand
    old = faces_named(env)[card]
    env.backend.delete_application_emoji(old)  # someone tidied the application's emojis
    bob = Player(env, room.bob, room.channel)
    panel = await bob.open_hand()  # answered: not "This interaction failed"
    assert panel.embeds
    # The face is on the application again, under a new id, and the panel shows that one.
    new = faces_named(env)[card]
    faces = romme_bot(env).faces
    assert faces is not None and faces.checks == 1 and new != old
    assert f":{new}>" in texts(panel)
    shown = components(panel)
    assert f"'id': '{new}'" in repr(shown) or f"'id': {new}" in repr(shown)  # its face, the new one
    assert unknown_emojis(env.backend, {"components": shown}) == []
    # The next clicks need no further check.
    await bob.open_hand()
    assert faces.checks == 1


async def test_a_face_deleted_mid_game_is_uploaded_again_for_a_live_panel_edit(
    room: Room, discord_checks_emojis: None
) -> None:
    """The panel of the person waiting for their turn is edited by the bot when the turn comes to
    them (no click of theirs): refused for a deleted face, the bot checks its faces and edits again."""
    env = room.env
    await begin(room, room.bob)
    game = game_in(env, room.channel)
    assert game.match is not None and game.to_play is not None
    people = {0: room.ada, 1: room.bob}
    waiting_seat = 1 - game.to_play
    on_turn = Player(env, people[game.to_play], room.channel)
    waiting = Player(env, people[waiting_seat], room.channel)
    panel = await waiting.open_hand()
    theirs = {str(card) for card in game.match.round.hand(game.to_play)}
    card = next(str(c) for c in game.match.round.hand(waiting_seat) if str(c) not in theirs)
    old = faces_named(env)[card]
    env.backend.delete_application_emoji(old)  # someone tidied the application's emojis
    await on_turn.play_turn()  # the turn comes to the waiting person: their panel is edited
    game = game_in(env, room.channel)
    assert game.to_play == waiting_seat
    faces = romme_bot(env).faces
    assert faces is not None and faces.checks == 1
    new = faces_named(env)[card]
    assert new != old
    now = to_discord_message(env, env.backend.get_message(room.channel.id, panel.id))
    assert enabled(now, "Draw")  # the edit went through: the panel shows their turn
    assert unknown_emojis(env.backend, {"components": components(now)}) == []
    assert f":{new}>" in texts(now)
