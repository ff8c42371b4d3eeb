"""Who may see a match (issue 35, defect 1): only a member who can view the game's channel now.

Bob and Cy play a match to its end in #secret, which only they can view (``@everyone`` is denied
View Channel, each of them allowed it). Dee, on the same server, sees nothing of it: not in
``/romme history`` (hers or a member's), not offered by ``/romme replay``'s autocomplete, refused by
``/romme replay`` and by every forged component of the viewer (a step button, the round select,
Download), each with the very answer a game that does not exist and a game of another server get,
so a game's id cannot be probed. Bob still can; and when his access is taken away after he opened
the viewer, his next click is refused. The same for a private thread: its members (and whoever may
manage threads) see its match, a member of the parent channel who is not in the thread does not.

SimCord computes a channel's permissions from its overwrites (the member's roles, then the member's
own overwrite) and keeps a private thread's members; a thread that is archived leaves discord.py's
cache, so it is read back from Discord, as with a real server. Discord's gateway tells a bot without
the members intent nothing of other people joining or leaving a thread; the bot asks Discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.backend.models import Overwrite
from simcord.enums import ChannelType, OverwriteType
from simcord.results import InteractionResult

from bot.i18n import t
from bot.service.game import GameStatus
from tests.discord.play_helpers import Player, Room, game_in, table_message, texts

SEE = discord.PermissionOverwrite(view_channel=True, send_messages=True, read_message_history=True)
HIDDEN = discord.PermissionOverwrite(view_channel=False)


@dataclass
class Secret:
    """The room, its #secret channel (or private thread) and the match Bob and Cy played there."""

    room: Room
    place: simcord.ChannelHandle
    game_id: int


def bot_user(env: simcord.Env) -> discord.ClientUser:
    assert env.bot.user is not None
    return env.bot.user


async def play_to_the_end(room: Room, place: simcord.ChannelHandle) -> int:
    """Bob opens a one-round lobby in ``place``, Cy joins, both play by clicks to the match's end."""
    env = room.env
    lobby = await room.bob.slash(place, "romme start", rounds=1, opening=0)
    assert lobby.response is not None
    await room.cy.click(lobby.response, label="Join")
    await room.bob.click(lobby.response, label="Start")
    players = {room.bob.id: Player(env, room.bob, place), room.cy.id: Player(env, room.cy, place)}
    for _ in range(400):
        game = game_in(env, place)
        if not game.running:
            break
        seat = game.to_play
        assert seat is not None
        await players[game.seats[seat].user_id].play_turn()  # type: ignore[index]
    game = game_in(env, place)
    assert game.status is GameStatus.FINISHED and not game.ended_early
    return game.id


async def secret_match(room: Room) -> Secret:
    """#secret: hidden from @everyone, open to Bob, Cy and the bot; their match, played to the end."""
    secret = room.guild.create_text_channel(
        "secret",
        overwrites={
            room.guild.default_role: HIDDEN,
            room.bob: SEE,
            room.cy: SEE,
            bot_user(room.env): SEE,
        },
    )
    return Secret(room, secret, await play_to_the_end(room, secret))


def forged(
    actor: simcord.MemberActor, message: Any, custom_id: str, *, values: list[str] | None = None
) -> InteractionResult:
    """A click on a button with ``custom_id`` (a select's choice of ``values``, when given) as
    Discord would send it on ``message``, which carries no such component: an id copied from
    someone else's viewer, or typed by hand (as ``play_helpers.sent_select`` builds a select's)."""
    env = actor._env
    backend = env.backend
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = backend.get_message(channel_id, message.id)
    if values is None:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        item: dict[str, Any] = {"type": 2, "style": 2, "label": "▶", "custom_id": custom_id}
    else:
        data = {"custom_id": custom_id, "component_type": 3, "values": values, "resolved": {}}
        options = [{"label": value, "value": value} for value in values]
        item = {"type": 3, "custom_id": custom_id, "options": options}
    record, payload = sim_interactions.base_payload(
        backend,
        type=3,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    payload["message"]["components"] = [{"type": 1, "components": [item]}]
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def refused(result: InteractionResult) -> str:
    """The one short ephemeral line a refusal is; it shows nothing of a match."""
    assert result.acknowledged and result.ephemeral and result.response is not None
    assert not result.response.embeds and not result.response.attachments
    assert not result.response.components
    return result.response.content or ""


def not_found(game_id: int) -> str:
    """The answer to a game nobody may see from here: the same for every reason."""
    return t("refusal", "en", text=t("error.replay.not_found", "en", game_id=game_id))


async def other_servers_match(env: simcord.Env) -> int:
    """Eve, on another server, plays a match against two computers to its end (she leaves her seat
    to the computer); its id is asked for from the room's server."""
    elsewhere = env.create_guild("Elsewhere")
    there = elsewhere.create_text_channel("cards")
    eve = elsewhere.add_member(env.create_user("eve"))
    result = await eve.slash(there, "romme start", computers=2, rounds=1)
    assert result.response is not None
    game = game_in(env, there)
    await eve.click(table_message(env, game), label="Start")
    await eve.slash(there, "romme leave")
    for _ in range(40):
        if game.status is GameStatus.FINISHED:
            break
        await env.advance_time(5)
    assert game.status is GameStatus.FINISHED
    return game.id


async def listed(actor: simcord.MemberActor, channel: simcord.ChannelHandle, **options: Any) -> str:
    result = await actor.slash(channel, "romme history", **options)
    assert result.ephemeral and result.response is not None
    return texts(result.response)


async def offered(actor: simcord.MemberActor, channel: simcord.ChannelHandle) -> list[Any]:
    return [choice["value"] for choice in await actor.autocomplete(channel, "romme replay", "game", "")]


@pytest.mark.slow
async def test_a_match_in_a_channel_dee_cannot_view_is_nowhere_for_her(room: Room) -> None:
    env = room.env
    secret = await secret_match(room)
    game_id = secret.game_id
    there = await other_servers_match(env)
    nothing = max(game_id, there) + 1000

    # Bob, who can view #secret, finds it listed in #romme and opens it.
    assert f"game {game_id}" in await listed(room.bob, room.channel)
    assert f"game {game_id}" in await listed(room.bob, room.channel, member=room.bob)
    assert await offered(room.bob, room.channel) == [game_id]

    # Dee: not in the server's list, not in Bob's list; "no matches yet".
    mine = await listed(room.dee, room.channel)
    assert f"game {game_id}" not in mine and t("history.empty", "en") in mine
    bobs = await listed(room.dee, room.channel, member=room.bob)
    assert f"game {game_id}" not in bobs and t("history.empty", "en") in bobs

    # /romme replay: the same answer as for a game that does not exist or is another server's.
    for asked in (game_id, nothing, there):
        answer = await room.dee.slash(room.channel, "romme replay", game=asked)
        assert refused(answer) == not_found(asked)

    # Forged components of the viewer on her own history message: each refused the same way.
    history = await room.dee.slash(room.channel, "romme history")
    assert history.response is not None
    for asked in (game_id, nothing, there):
        for custom_id, values in (
            (f"romme:{asked}:rv:0:o", None),  # a history list's Replay button
            (f"romme:{asked}:rv:3:n", None),  # the viewer's ▶
            (f"romme:{asked}:rr", ["1"]),  # the round select
            (f"romme:{asked}:rx", None),  # Download
        ):
            result = forged(room.dee, history.response, custom_id, values=values)
            await env.settle()
            assert refused(result) == not_found(asked), custom_id

    # A game still in play in #secret: Bob is told it is running, Dee the same as for no game.
    lobby = await room.bob.slash(secret.place, "romme start")
    assert lobby.response is not None
    running = game_in(env, secret.place).id
    assert "still being played" in refused(await room.bob.slash(room.channel, "romme replay", game=running))
    assert refused(await room.dee.slash(room.channel, "romme replay", game=running)) == not_found(running)

    # Bob, on the same server, still has the viewer, its steps and the Download.
    viewer = await room.bob.slash(room.channel, "romme replay", game=game_id)
    assert viewer.ephemeral and viewer.response is not None and "Step 1 of" in texts(viewer.response)
    moved = await room.bob.click(viewer.response, label="▶")
    assert moved.response is not None and "Step 2 of" in texts(moved.response)
    exported = await room.bob.click(moved.response, label="Download")
    assert exported.response is not None and len(exported.response.attachments) == 1


@pytest.mark.slow
async def test_taking_access_away_refuses_the_next_click_of_an_open_viewer(room: Room) -> None:
    env = room.env
    secret = await secret_match(room)
    game_id = secret.game_id
    viewer = await room.bob.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None and "Step 1 of" in texts(viewer.response)
    moved = await room.bob.click(viewer.response, label="▶")
    assert moved.response is not None and "Step 2 of" in texts(moved.response)

    # An admin takes #secret away from Bob while his viewer is open.
    deny = Overwrite(target_id=room.bob.id, type=OverwriteType.MEMBER, allow=0, deny=HIDDEN.pair()[1].value)
    env.backend.set_overwrite(secret.place.id, deny)
    await env.settle()
    assert refused(await room.bob.click(moved.response, label="▶")) == not_found(game_id)
    assert refused(await room.bob.click(moved.response, label="Download")) == not_found(game_id)
    again = await room.bob.select(moved.response, ["1"], custom_id=f"romme:{game_id}:rr")
    assert refused(again) == not_found(game_id)
    assert f"game {game_id}" not in await listed(room.bob, room.channel)
    assert await offered(room.bob, room.channel) == []
    # Cy, who still can view #secret, is offered it and watches it.
    assert await offered(room.cy, room.channel) == [game_id]
    watched = await room.cy.slash(room.channel, "romme replay", game=game_id)
    assert watched.response is not None and "Step 1 of" in texts(watched.response)

    # Given back, the same viewer works again: nothing was remembered of the refusal.
    env.backend.set_overwrite(
        secret.place.id,
        Overwrite(target_id=room.bob.id, type=OverwriteType.MEMBER, allow=SEE.pair()[0].value, deny=0),
    )
    await env.settle()
    back = await room.bob.click(moved.response, label="▶")
    assert back.response is not None and "Step 3 of" in texts(back.response)


async def private_thread_match(room: Room) -> Secret:
    """A private thread of #romme, with Bob, Cy and the bot in it; Bob and Cy's match there."""
    backend = room.env.backend
    thread = backend.create_thread(room.channel.id, "hush", room.bob.id, type=ChannelType.PRIVATE_THREAD)
    for member in (room.cy.id, bot_user(room.env).id):
        backend.add_thread_member(thread.id, member)
    await room.env.settle()
    (place,) = [handle for handle in room.channel.threads if handle.id == thread.id]
    return Secret(room, place, await play_to_the_end(room, place))


@pytest.mark.slow
async def test_a_private_thread_shows_its_match_to_its_members_only(room: Room) -> None:
    env = room.env
    secret = await private_thread_match(room)
    game_id = secret.game_id
    # Dee can view #romme, the thread's channel, but is not in the thread.
    assert f"game {game_id}" not in await listed(room.dee, room.channel)
    assert refused(await room.dee.slash(room.channel, "romme replay", game=game_id)) == not_found(game_id)
    history = await room.dee.slash(room.channel, "romme history")
    assert history.response is not None
    result = forged(room.dee, history.response, f"romme:{game_id}:rx")
    await env.settle()
    assert refused(result) == not_found(game_id)
    # A moderator who may manage threads sees every private thread, as on Discord.
    moderators = room.guild.create_role("moderators", permissions=discord.Permissions(manage_threads=True))
    mod = room.guild.add_member(env.create_user("mod"), roles=[moderators])
    assert f"game {game_id}" in await listed(mod, room.channel)

    # Cy, in the thread, watches it, also once the thread is archived (and out of the bot's cache).
    assert f"game {game_id}" in await listed(room.cy, room.channel)
    env.backend.edit_channel(secret.place.id, {}, thread_metadata={"archived": True})
    await env.settle()
    guild = env.bot.get_guild(room.guild.id)
    assert guild is not None and guild.get_thread(secret.place.id) is None
    viewer = await room.cy.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None and "Step 1 of" in texts(viewer.response)
    assert refused(await room.dee.slash(room.channel, "romme replay", game=game_id)) == not_found(game_id)

    # Cy is taken out of the thread: her open viewer's next click is refused.
    env.backend.remove_thread_member(secret.place.id, room.cy.id)
    await env.settle()
    assert refused(await room.cy.click(viewer.response, label="▶")) == not_found(game_id)
    assert await offered(room.cy, room.channel) == []
    assert await offered(room.bob, room.channel) == [game_id]
