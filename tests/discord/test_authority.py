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
from simcord.results import InteractionResult

from bot.i18n import t
from bot.service.settings import ServerSettings
from tests.discord.play_helpers import Room, sent_select, service, texts

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
