"""``/romme settings``: a server's defaults for new games, through the real bot in SimCord.

Each setting is tried the four ways a server meets it: its default applied to a new lobby, a
``/romme start`` option overriding it for one game, a member without the right refused, a bad value
refused naming what was wrong (and nothing saved). The members speak English, German or Indonesian
(Discord's locale of their interactions); every answer is checked in their language.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
import simcord
from simcord.results import InteractionResult

from bot.i18n import t
from bot.playground.session import interaction_locales
from bot.service.game import Game
from bot.service.settings import ServerSettings
from tests.discord.play_helpers import Room, components, game_in, sent_select, service, table_message, texts

LOCALES = ("en", "de", "id")
STRING_SELECT, CHANNEL_SELECT, ROLE_SELECT = 3, 8, 6


@pytest.fixture(params=LOCALES)
def locale(request: pytest.FixtureRequest, room: Room) -> Iterator[str]:
    """Every member of the room speaks this language (Discord's locale of their interactions)."""
    chosen = {member.id: request.param for member in (room.ada, room.bob, room.cy, room.dee)}
    with interaction_locales(chosen):
        yield request.param


@pytest.fixture
def admins(room: Room) -> simcord.RoleHandle:
    """Ada has Manage Server (a role that grants it); the others do not."""
    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.ada.id, role.id)
    return role


def said(result: InteractionResult) -> str:
    """Everything the answer to an interaction says (content and embeds)."""
    assert result.response is not None, "no answer"
    return texts(result.response)


async def open_settings(room: Room, member: simcord.MemberActor | None = None) -> Any:
    result = await (member or room.ada).slash(room.channel, "romme settings")
    assert result.ephemeral and result.response is not None
    return result.response


def custom_id(message: Any, what: str) -> str:
    """The custom id of the panel's component ``what`` (pick, channels, role, numbers, reset)."""
    for item in components(message):
        if str(item.get("custom_id")).endswith(f":{what}"):
            return str(item["custom_id"])
    raise AssertionError(f"no {what} on the panel")


async def pick(
    room: Room, panel: Any, value: str, member: simcord.MemberActor | None = None
) -> InteractionResult:
    """Choose ``name=value`` in the settings panel's list."""
    return await (member or room.ada).select(panel, [value], custom_id=custom_id(panel, "pick"))


async def numbers(room: Room, panel: Any, **typed: str) -> InteractionResult:
    """Open the numbers' modal and submit it with ``typed``."""
    shown = await room.ada.click(panel, custom_id=custom_id(panel, "numbers"))
    return await room.ada.submit_modal(shown, typed)


async def start(room: Room, channel: simcord.ChannelHandle | None = None, **options: Any) -> Game:
    result = await room.bob.slash(channel or room.channel, "romme start", **options)
    assert result.response is not None
    return game_in(room.env, channel or room.channel)


async def saved(room: Room) -> ServerSettings:
    return await service(room.env).book.server(room.guild.id)


# ---------------------------------------------------------------------- the panel and its rights


async def test_a_member_who_lost_the_right_cannot_use_a_panel_still_open(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    room.env.backend.remove_member_role(room.guild.id, room.ada.id, admins.id)
    await room.env.settle()
    result = await pick(room, panel, "jokers=6")
    assert said(result) == "⚠️ " + t("error.settings.not_allowed", locale)
    assert await saved(room) == ServerSettings()


async def test_a_member_without_the_right_is_refused_and_an_admin_sees_the_panel(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    refused = await room.bob.slash(room.channel, "romme settings")
    assert refused.ephemeral and said(refused) == "⚠️ " + t("error.settings.not_allowed", locale)
    panel = await open_settings(room)
    assert panel.embeds[0].title == t("settings.title", locale)
    assert t("rules.jokers", locale, count=4) in texts(panel)  # the rule book's until changed


@pytest.mark.parametrize(
    ("choice", "check"),
    [
        ("jokers=6", lambda game: game.rules.jokers == 6),
        ("scoring=penalty", lambda game: game.rules.scoring == "penalty"),
        ("hand_romme=true", lambda game: game.rules.hand_romme),
        ("discard_to_go_out=true", lambda game: game.rules.discard_to_go_out),
        ("computer_level=hard", lambda game: game.computer_level == "hard"),
        ("language=id", lambda game: game.language == "id"),
    ],
)
async def test_a_chosen_default_opens_new_lobbies_and_a_start_option_still_wins(
    room: Room, locale: str, admins: simcord.RoleHandle, choice: str, check: Any
) -> None:
    panel = await open_settings(room)
    result = await pick(room, panel, choice)
    assert result.response is not None and result.response.content.startswith("✅")
    assert len(result.response.content.splitlines()) == 1  # said in one line
    game = await start(room)
    assert check(game)
    with_rules = t("lobby.server_house_rules", game.language)
    assert with_rules in texts(table_message(room.env, game))  # "this server's house rules"
    # The same start with the option given: the option wins for that game.
    other = room.guild.create_text_channel("other")
    name = choice.partition("=")[0]
    overridings: dict[str, dict[str, Any]] = {
        "jokers": {"jokers": 2},
        "scoring": {"scoring": "melds"},
        "hand_romme": {"hand_romme": False},
        "discard_to_go_out": {"discard_to_go_out": False},
        "computer_level": {"computer_level": "easy"},
        "language": {"language": "de"},
    }
    game = await start(room, other, **overridings[name])
    assert not check(game)


async def test_the_numbers_apply_and_options_override_them(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    result = await numbers(room, panel, opening="30", rounds="3", turn_timeout="90", lobby_timeout="5")
    assert result.response is not None and result.response.content.startswith("✅")
    assert t("settings.line.turn_timeout", locale, seconds=90) in result.response.content
    game = await start(room)
    assert (game.rules.opening, game.rules.rounds, game.turn_timeout) == (30, 3, 90.0)
    assert game.lobby_deadline is not None
    assert 299 <= game.lobby_deadline - service(room.env).autopilot.clock() <= 300
    other = room.guild.create_text_channel("other")
    game = await start(room, other, opening=50, rounds=2, turn_timeout=200)
    assert (game.rules.opening, game.rules.rounds, game.turn_timeout) == (50, 2, 200.0)


@pytest.mark.parametrize(
    ("typed", "key", "params"),
    [
        ({"turn_timeout": "5"}, "error.settings.out_of_range", {"value": 5, "low": 30, "high": 600}),
        ({"lobby_timeout": "500"}, "error.settings.out_of_range", {"value": 500, "low": 1, "high": 120}),
        ({"opening": "121"}, "error.settings.out_of_range", {"value": 121, "low": 0, "high": 120}),
        ({"rounds": "zwei"}, "error.settings.not_a_number", {"value": "zwei"}),
    ],
)
async def test_a_number_out_of_range_is_refused_naming_it_and_nothing_is_saved(
    room: Room,
    locale: str,
    admins: simcord.RoleHandle,
    typed: dict[str, str],
    key: str,
    params: dict[str, Any],
) -> None:
    panel = await open_settings(room)
    good = {"opening": "30"} if "opening" not in typed else {"rounds": "3"}
    result = await numbers(room, panel, **good, **typed)
    (name,) = typed
    setting = t(f"settings.name.{name}", locale)
    assert said(result) == "⚠️ " + t(key, locale, setting=setting, **params)
    assert await saved(room) == ServerSettings()  # not even the good opening of the same form


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("jokers=5", "jokers"),
        ("language=fr", "language"),
        ("computer_level=master", "computer_level"),
        ("threads=maybe", "threads"),
    ],
)
async def test_a_forged_choice_is_refused_naming_the_setting(
    room: Room, locale: str, admins: simcord.RoleHandle, value: str, name: str
) -> None:
    panel = await open_settings(room)
    result = sent_select(room.ada, panel, custom_id(panel, "pick"), [value])
    await room.env.settle()
    setting = t(f"settings.name.{name}", locale)
    assert said(result) == "⚠️ " + t("error.settings.bad_value", locale, setting=setting)
    assert await saved(room) == ServerSettings()


async def test_a_channel_of_another_server_and_a_deleted_role_are_refused(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    elsewhere = room.env.create_guild("Elsewhere").create_text_channel("cards")
    panel = await open_settings(room)
    result = sent_select(
        room.ada, panel, custom_id(panel, "channels"), [str(elsewhere.id)], kind=CHANNEL_SELECT
    )
    await room.env.settle()
    assert said(result) == "⚠️ " + t("error.settings.channel_elsewhere", locale, channel=f"<#{elsewhere.id}>")
    gone = room.guild.create_role("Old masters")
    room.env.backend.delete_role(room.guild.id, gone.id)
    await room.env.settle()
    result = sent_select(room.ada, panel, custom_id(panel, "role"), [str(gone.id)], kind=ROLE_SELECT)
    await room.env.settle()
    assert said(result) == "⚠️ " + t("error.settings.role_gone", locale)
    assert await saved(room) == ServerSettings()


# ---------------------------------------------------------------------- where games start, who runs them


async def test_a_game_outside_the_chosen_channels_is_refused_naming_them(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    games = room.guild.create_text_channel("games")
    panel = await open_settings(room)
    result = await room.ada.select(panel, [games], custom_id=custom_id(panel, "channels"))
    assert result.response is not None and f"<#{games.id}>" in result.response.content
    refused = await room.bob.slash(room.channel, "romme start")
    assert said(refused) == "⚠️ " + t("error.start.channel_not_allowed", locale, channels=f"<#{games.id}>")
    assert service(room.env).game_in_channel(room.channel.id) is None
    game = await start(room, games)
    assert game.channel_id == games.id


async def test_a_game_master_stops_a_game_they_do_not_host_and_a_member_may_not(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    masters = room.guild.create_role("Game masters")
    room.env.backend.add_member_role(room.guild.id, room.cy.id, masters.id)
    panel = await open_settings(room)
    result = await room.ada.select(panel, [masters], custom_id=custom_id(panel, "role"))
    assert result.response is not None and f"<@&{masters.id}>" in result.response.content
    game = await start(room)  # Bob hosts
    refused = await room.dee.slash(room.channel, "romme stop")
    assert said(refused) == "⚠️ " + t("error.stop.not_allowed", locale)
    asked = await room.cy.slash(room.channel, "romme stop")
    assert asked.ephemeral and asked.response is not None
    await room.cy.click(asked.response, label=t("button.stop_yes", locale))
    assert (
        not service(room.env).get(game.id).running
        and service(room.env).game_in_channel(room.channel.id) is None
    )
    # The game master may open the settings too.
    assert (await open_settings(room, room.cy)).embeds[0].title == t("settings.title", locale)


async def test_games_in_threads_by_default(room: Room, locale: str, admins: simcord.RoleHandle) -> None:
    panel = await open_settings(room)
    await pick(room, panel, "threads=true")
    result = await room.bob.slash(room.channel, "romme start")
    (home,) = room.channel.threads
    assert result.response is not None and f"<#{home.id}>" in (result.response.content or "")
    # thread:false for one game: in the channel itself.
    await room.bob.slash(room.channel, "romme start", thread=False)
    assert service(room.env).game_in_channel(room.channel.id) is not None
