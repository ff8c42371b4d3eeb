"""Authority that cannot be handed on (issue 35), through the real bot in SimCord.

**Who names the game masters.** Only a member with Manage Server may set or clear the server's
game-master role, and never to @everyone, a managed role (a bot's or an integration's) or a role at
or above the bot's own highest one. A game master may still change every other setting. Each refusal
is a short ephemeral line naming what was wrong, and the stored settings stay byte for byte as they
were (the row and its time of writing). A forged role select (a hand-built component payload) is held
to the same rule as the panel's own.

**Who opens a lobby, and where.** Play again is held to the checks of ``/romme start`` against the
server's settings as they are when it is clicked: the channels games may start in, and the bot's
permissions in the channel. Refused, it opens no lobby (no game row, no message).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType
from simcord.results import InteractionResult

from bot.i18n import t
from bot.service.game import GameStatus
from bot.service.settings import ServerSettings
from tests.discord.play_helpers import Room, game_in, sent_select, service, table_message, texts

ROLE_SELECT = 6


@pytest.fixture
def admins(room: Room) -> simcord.RoleHandle:
    """Ada has Manage Server (a role that grants it); the others do not."""
    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.ada.id, role.id)
    return role


@pytest.fixture
async def masters(room: Room, admins: simcord.RoleHandle) -> simcord.RoleHandle:
    """Cy holds the game-master role (set by Ada), and no permission of a role."""
    role = room.guild.create_role("Game masters")
    room.env.backend.add_member_role(room.guild.id, room.cy.id, role.id)
    panel = await open_settings(room, room.ada)
    result = await room.ada.select(panel, [role], custom_id=custom_id(panel, "role"))
    assert said(result).startswith("✅") and role.mention in said(result)
    return role


def said(result: InteractionResult) -> str:
    """Everything the answer to an interaction says (content and embeds)."""
    assert result.response is not None, "no answer"
    return texts(result.response)


def refused(result: InteractionResult, key: str, **params: Any) -> bool:
    """The answer is the ephemeral refusal ``key``, alone on its line."""
    return result.ephemeral and said(result) == "⚠️ " + t(key, "en", **params)


async def open_settings(room: Room, member: simcord.MemberActor) -> Any:
    result = await member.slash(room.channel, "romme settings")
    assert result.ephemeral and result.response is not None, said(result)
    return result.response


def custom_id(message: Any, what: str) -> str:
    """The custom id of the settings panel's component ``what`` (pick, channels, role, numbers, reset)."""
    for row in message.components:
        raw = row if isinstance(row, dict) else row.to_dict()
        for item in raw.get("components", [raw]):
            if str(item.get("custom_id")).endswith(f":{what}"):
                return str(item["custom_id"])
    raise AssertionError(f"no {what} on the panel")


def stored(database_path: Path, guild_id: int) -> tuple[str, str] | None:
    """The server's settings row as the database holds it: the JSON text and when it was written."""
    with sqlite3.connect(database_path) as db:
        row = db.execute(
            "SELECT settings, updated_at FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ).fetchone()
    return None if row is None else (row[0], row[1])


def games_stored(database_path: Path) -> int:
    with sqlite3.connect(database_path) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    return int(count)


def stored_role(saved: dict[str, Any]) -> object:
    return saved.get("game_master_role")


async def is_game_master(room: Room, member: simcord.MemberActor) -> bool:
    """Whether ``member`` may open the settings panel (Manage Server or the game-master role)."""
    result = await member.slash(room.channel, "romme settings")
    return result.response is not None and bool(result.response.embeds)


# ---------------------------------------------------------------------- who names the game masters


async def test_a_game_master_cannot_make_everyone_a_game_master(
    room: Room, masters: simcord.RoleHandle, database_path: Path
) -> None:
    before = stored(database_path, room.guild.id)
    panel = await open_settings(room, room.cy)
    result = await room.cy.select(panel, [room.guild.default_role], custom_id=custom_id(panel, "role"))
    assert refused(result, "error.settings.role_needs_manage_server")
    assert stored(database_path, room.guild.id) == before
    # Dee, a plain member, still has no say over the server's games.
    assert not await is_game_master(room, room.dee)
    game = await room.bob.slash(room.channel, "romme start")
    assert game.response is not None
    asked = await room.dee.slash(room.channel, "romme stop")
    assert refused(asked, "error.stop.not_allowed")


@pytest.mark.parametrize("how", ["panel", "forged"])
async def test_a_game_master_cannot_set_any_role_nor_clear_it(
    room: Room, masters: simcord.RoleHandle, database_path: Path, how: str
) -> None:
    friends = room.guild.create_role("Friends")
    before = stored(database_path, room.guild.id)
    panel = await open_settings(room, room.cy)
    role_id = custom_id(panel, "role")
    if how == "panel":
        chosen = await room.cy.select(panel, [friends], custom_id=role_id)
        emptied = await room.cy.select(panel, [], custom_id=role_id)
    else:  # hand-built payloads of the role select, as a client could send them
        chosen = sent_select(room.cy, panel, role_id, [str(friends.id)], kind=ROLE_SELECT)
        await room.env.settle()
        emptied = sent_select(room.cy, panel, role_id, [], kind=ROLE_SELECT)
        await room.env.settle()
    assert refused(chosen, "error.settings.role_needs_manage_server")
    assert refused(emptied, "error.settings.role_needs_manage_server")
    # Nor through the list of choices, with a value the list never offers.
    for value in ("game_master_role=default", "game_master_role=", f"game_master_role={friends.id}"):
        forged = sent_select(room.cy, panel, custom_id(panel, "pick"), [value])
        await room.env.settle()
        assert forged.response is not None and forged.ephemeral and said(forged).startswith("⚠️"), value
    assert stored(database_path, room.guild.id) == before
    assert (await service(room.env).book.server(room.guild.id)).game_master_role == masters.id


async def test_a_game_master_still_changes_the_other_settings_and_reset_keeps_the_role(
    room: Room, masters: simcord.RoleHandle
) -> None:
    panel = await open_settings(room, room.cy)
    result = await room.cy.select(panel, ["jokers=6"], custom_id=custom_id(panel, "pick"))
    assert said(result).startswith("✅")
    games = room.guild.create_text_channel("games")
    assert result.response is not None
    result = await room.cy.select(result.response, [games], custom_id=custom_id(panel, "channels"))
    assert said(result).startswith("✅")
    settings = await service(room.env).book.server(room.guild.id)
    assert (settings.rules.jokers, settings.channels) == (6, (games.id,))
    assert result.response is not None
    result = await room.cy.click(result.response, custom_id=custom_id(panel, "reset"))
    assert said(result).startswith("✅ ") and t("settings.reset.kept_role", "en") in said(result)
    settings = await service(room.env).book.server(room.guild.id)
    assert (settings.rules.jokers, settings.channels, settings.game_master_role) == (4, (), masters.id)
    # Manage Server's Reset all is every default, the role too.
    panel = await open_settings(room, room.ada)
    result = await room.ada.click(panel, custom_id=custom_id(panel, "reset"))
    assert said(result).startswith("✅") and t("settings.reset.done", "en") in said(result)
    assert (await service(room.env).book.server(room.guild.id)).game_master_role is None


async def test_manage_server_cannot_name_everyone_a_managed_role_or_one_above_the_bot(
    room: Room, admins: simcord.RoleHandle, database_path: Path
) -> None:
    me = room.guild.me
    assert me is not None
    (bot_role,) = (role for role in room.guild.roles.values() if role.id == me.top_role.id)
    integration = room.guild.create_role("Twitch subscribers", managed=True)
    owners = room.guild.create_role("Owners", position=me.top_role.position + 1)
    await room.env.settle()
    panel = await open_settings(room, room.ada)
    role_id = custom_id(panel, "role")
    # A game-master role saved first: each refusal below must leave it (and the whole row) as it is.
    fine = room.guild.create_role("Croupiers")
    assert said(await room.ada.select(panel, [fine], custom_id=role_id)).startswith("✅")
    before = stored(database_path, room.guild.id)
    assert before is not None
    everyone = await room.ada.select(panel, [room.guild.default_role], custom_id=role_id)
    assert refused(everyone, "error.settings.role_everyone")
    for managed in (integration, bot_role):
        result = await room.ada.select(panel, [managed], custom_id=role_id)
        assert refused(result, "error.settings.role_managed", role=managed.mention)
    above = await room.ada.select(panel, [owners], custom_id=role_id)
    assert refused(above, "error.settings.role_above_bot", role=owners.mention)
    # The same values forged: the rule is the bot's, not the select's.
    for role in (room.guild.default_role, integration, owners):
        forged = sent_select(room.ada, panel, role_id, [str(role.id)], kind=ROLE_SELECT)
        await room.env.settle()
        assert forged.ephemeral and said(forged).startswith("⚠️"), role
    for values in (["x"], [str(fine.id), str(owners.id)], ["²"]):
        forged = sent_select(room.ada, panel, role_id, values, kind=ROLE_SELECT)
        await room.env.settle()
        assert refused(forged, "error.settings.bad_value", setting="game-master role"), values
    assert stored(database_path, room.guild.id) == before
    assert not await is_game_master(room, room.dee)


async def test_manage_server_sets_a_proper_role_and_clears_it(room: Room, admins: simcord.RoleHandle) -> None:
    masters = room.guild.create_role("Game masters")
    room.env.backend.add_member_role(room.guild.id, room.cy.id, masters.id)
    panel = await open_settings(room, room.ada)
    result = await room.ada.select(panel, [masters], custom_id=custom_id(panel, "role"))
    assert result.response is not None
    line = t("settings.line.role", "en", role=masters.mention)
    assert result.response.content == t("settings.saved", "en", what=line)
    assert await is_game_master(room, room.cy) and not await is_game_master(room, room.dee)
    result = await room.ada.select(result.response, [], custom_id=custom_id(panel, "role"))
    assert said(result).startswith("✅")
    assert (await service(room.env).book.server(room.guild.id)).game_master_role is None
    assert not await is_game_master(room, room.cy)


async def test_everyone_saved_before_the_rule_makes_nobody_a_game_master(room: Room) -> None:
    # A server whose @everyone was made the game-master role before this rule: read back, it is
    # left out (logged), so the default stands and only Manage Server runs the server's games.
    book = service(room.env).book
    await book.save_server(room.guild.id, ServerSettings(game_master_role=room.guild.id), manages_server=True)
    assert stored_role(await book.storage.guild_settings(room.guild.id)) == room.guild.id
    assert (await service(room.env).book.server(room.guild.id)).game_master_role is None
    assert not await is_game_master(room, room.dee)


# ---------------------------------------------------------------------- who opens a lobby, and where


async def finished(room: Room, channel: simcord.ChannelHandle) -> Any:
    """A match Bob hosted against a computer in ``channel``, stopped; its table message, with Play again."""
    lobby = await room.bob.slash(channel, "romme start", computers=1)
    assert lobby.response is not None
    await room.bob.click(lobby.response, label="Start")
    asked = await room.bob.slash(channel, "romme stop")
    assert asked.response is not None
    await room.bob.click(asked.response, label="Stop the game")
    game = game_in(room.env, channel)
    assert game.status is GameStatus.FINISHED
    return table_message(room.env, game)


async def restrict_to(room: Room, channel: simcord.ChannelHandle) -> None:
    panel = await open_settings(room, room.ada)
    result = await room.ada.select(panel, [channel], custom_id=custom_id(panel, "channels"))
    assert said(result).startswith("✅")


def public_messages(room: Room, channel: simcord.ChannelHandle) -> int:
    """How many messages everyone sees in ``channel`` (an ephemeral answer is not one)."""
    return sum(1 for m in room.env.backend.messages[channel.id].values() if not m.is_ephemeral)


async def test_play_again_in_a_channel_no_longer_allowed_is_refused_and_opens_nothing(
    room: Room, admins: simcord.RoleHandle, database_path: Path
) -> None:
    ended = await finished(room, room.channel)
    games = room.guild.create_text_channel("games")
    await restrict_to(room, games)
    refused_start = await room.bob.slash(room.channel, "romme start")
    assert refused(refused_start, "error.start.channel_not_allowed", channels=games.mention)
    count, posted = games_stored(database_path), public_messages(room, room.channel)
    again = await room.bob.click(ended, label="Play again")
    assert refused(again, "error.start.channel_not_allowed", channels=games.mention)
    assert games_stored(database_path) == count and public_messages(room, room.channel) == posted
    assert service(room.env).game_in_channel(room.channel.id) is None


async def test_play_again_in_a_thread_of_a_channel_no_longer_allowed_is_refused(
    room: Room, admins: simcord.RoleHandle, database_path: Path
) -> None:
    lobby = await room.bob.slash(room.channel, "romme start", computers=1, thread=True)
    assert lobby.response is not None
    (home,) = room.channel.threads
    ended = await finished_in(room, home)
    games = room.guild.create_text_channel("games")
    await restrict_to(room, games)
    count = games_stored(database_path)
    again = await room.bob.click(ended, label="Play again")
    assert refused(again, "error.start.channel_not_allowed", channels=games.mention)
    assert games_stored(database_path) == count
    assert service(room.env).game_in_channel(home.id) is None


async def finished_in(room: Room, home: simcord.ChannelHandle) -> Any:
    """The lobby Bob opened in ``home`` started and stopped; its table message."""
    game = game_in(room.env, home)
    await room.bob.click(table_message(room.env, game), label="Start")
    asked = await room.bob.slash(home, "romme stop")
    assert asked.response is not None
    await room.bob.click(asked.response, label="Stop the game")
    assert service(room.env).get(game.id).status is GameStatus.FINISHED
    return table_message(room.env, service(room.env).get(game.id))


async def test_play_again_where_the_bot_lost_a_permission_is_refused_naming_it(
    room: Room, database_path: Path
) -> None:
    ended = await finished(room, room.channel)
    me = room.guild.me
    assert me is not None
    deny = discord.Permissions(embed_links=True).value
    room.env.backend.set_overwrite(room.channel.id, Overwrite(me.id, OverwriteType.MEMBER, deny=deny))
    await room.env.settle()
    count = games_stored(database_path)
    again = await room.bob.click(ended, label="Play again")
    assert refused(again, "error.bot_permission", permissions=t("permission.embed_links", "en"))
    assert games_stored(database_path) == count
    assert service(room.env).game_in_channel(room.channel.id) is None


async def test_play_again_in_an_allowed_channel_still_opens_the_lobby(
    room: Room, admins: simcord.RoleHandle, database_path: Path
) -> None:
    games = room.guild.create_text_channel("games")
    ended = await finished(room, games)
    await restrict_to(room, games)
    count = games_stored(database_path)
    again = await room.bob.click(ended, label="Play again")
    assert again.response is not None and not again.ephemeral
    game = service(room.env).game_in_channel(games.id)
    assert game is not None and game.status is GameStatus.LOBBY and game.host_id == room.bob.id
    assert games_stored(database_path) == count + 1
