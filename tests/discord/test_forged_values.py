"""Odd and forged values in the settings, the preferences and the replay viewer (issue 35, defect 6),
through the real bot in SimCord: each gets a short ephemeral refusal naming what was wrong, and
nothing is saved.

Numbers are ASCII digits only: ``²`` and ``٣`` are digits to ``str.isdigit`` (and ``int("٣")`` is 3),
``--5`` is no number at all; none of them is a whole number a person types for a setting. A list
(a select) gives only its own options: any other value is forged, and its refusal never looks up a
catalog entry named after it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.results import InteractionResult

from bot.i18n import t
from bot.service.settings import MemberPreferences, ServerSettings
from tests.discord.play_helpers import Room, components, seeded_bot, sent_select, service, texts
from tests.discord.test_replays import stopped_match

STRING_SELECT, CHANNEL_SELECT, ROLE_SELECT = 3, 8, 6


@pytest.fixture
def admins(room: Room) -> simcord.RoleHandle:
    """Ada has Manage Server (a role that grants it); the others do not."""
    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.ada.id, role.id)
    return role


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> Any:
    """No handler fails: an odd value is a refusal, never an ERROR line."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


def said(result: InteractionResult) -> str:
    assert result.acknowledged, "no answer at all"
    assert result.response is not None, "no answer"
    assert result.ephemeral, "a refusal in public"
    return texts(result.response)


def custom_id(message: Any, what: str) -> str:
    for item in components(message):
        if str(item.get("custom_id")).endswith(f":{what}"):
            return str(item["custom_id"])
    raise AssertionError(f"no {what} on the panel")


async def saved(room: Room) -> ServerSettings:
    return await service(room.env).book.server(room.guild.id)


async def open_settings(room: Room) -> Any:
    result = await room.ada.slash(room.channel, "romme settings")
    assert result.ephemeral and result.response is not None
    return result.response


@pytest.mark.parametrize("typed", ["²", "--5", "٣", "３", "1_0", "+-3"])
async def test_a_number_that_is_not_ascii_digits_is_refused_in_the_numbers_form(
    room: Room, admins: simcord.RoleHandle, typed: str
) -> None:
    panel = await open_settings(room)
    shown = await room.ada.click(panel, custom_id=custom_id(panel, "numbers"))
    result = await room.ada.submit_modal(shown, {"opening": "30", "rounds": typed})
    setting = t("settings.name.rounds")
    assert said(result) == "⚠️ " + t("error.settings.not_a_number", setting=setting, value=typed)
    assert await saved(room) == ServerSettings()  # not even the good opening of the same form


@pytest.mark.parametrize(
    ("value", "setting"),
    [
        ("jokers=²", "jokers"),
        ("jokers=٣", "jokers"),
        ("jokers=--5", "jokers"),
        ("season_length=²", "season_length"),
        ("rounds=3", "rounds"),  # a number typed in the form, never a choice of the list
        ("jokers=", "jokers"),  # no value: not "back to the default"
        ("nope=1", "?"),  # an unknown setting: named in words, not by a catalog entry "nope"
        ("=", "?"),
        ("", "?"),
    ],
)
async def test_a_forged_choice_in_the_settings_list_is_refused(
    room: Room, admins: simcord.RoleHandle, value: str, setting: str
) -> None:
    panel = await open_settings(room)
    result = sent_select(room.ada, panel, custom_id(panel, "pick"), [value])
    await room.env.settle()
    name = t(f"settings.name.{setting}")
    assert said(result) == "⚠️ " + t("error.settings.bad_value", setting=name)
    assert await saved(room) == ServerSettings()


@pytest.mark.parametrize("value", ["²", "٣", "-5", "1" + "0" * 30, "nope"])
async def test_a_forged_channel_or_role_in_the_settings_is_refused(
    room: Room, admins: simcord.RoleHandle, value: str
) -> None:
    panel = await open_settings(room)
    for what, kind in (("channels", CHANNEL_SELECT), ("role", ROLE_SELECT)):
        result = sent_select(room.ada, panel, custom_id(panel, what), [value], kind=kind)
        await room.env.settle()
        assert said(result).startswith("⚠️ "), what
    assert await saved(room) == ServerSettings()


@pytest.mark.parametrize("value", ["tipped=maybe", "tipped=true", "nope=1", "cards=²", "cards", ""])
async def test_a_forged_choice_in_the_preferences_list_is_refused(room: Room, value: str) -> None:
    result = await room.bob.slash(room.channel, "romme preferences")
    panel = result.response
    refused = sent_select(room.bob, panel, f"romme-pref:{room.bob.id}:pick", [value], only_component=True)
    await room.env.settle()
    name = value.partition("=")[0]
    setting = t(f"settings.name.{name}") if name == "cards" else t("settings.name.?")
    assert said(refused) == "⚠️ " + t("error.settings.bad_value", setting=setting)
    assert await service(room.env).book.member(room.bob.id) == MemberPreferences()


@pytest.mark.parametrize("value", ["²", "٣", "-5", "0", "1" + "0" * 30, "", "1.0"])
async def test_a_forged_round_in_the_replay_viewer_is_refused(room: Room, value: str) -> None:
    game_id = await stopped_match(room)
    viewer = await room.bob.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None
    result = sent_select(room.bob, viewer.response, f"romme:{game_id}:rr", [value])
    await room.env.settle()
    assert said(result) == "⚠️ " + t("error.replay.no_round")


async def test_the_numbers_form_is_answered_after_a_restart_and_for_two_admins(
    room: Room, admins: simcord.RoleHandle, database_path: Path
) -> None:
    """discord.py keeps one modal per custom id until it is submitted, and none across a restart:
    the form is read from what Discord sends instead, so each submission is answered."""
    room.env.backend.add_member_role(room.guild.id, room.bob.id, admins.id)
    first = await open_settings(room)
    ada_form = await room.ada.click(first, custom_id=custom_id(first, "numbers"))
    second = await room.bob.slash(room.channel, "romme settings")
    assert second.response is not None
    bob_form = await room.bob.click(second.response, custom_id=custom_id(second.response, "numbers"))
    done = await room.bob.submit_modal(bob_form, {"rounds": "3"})
    assert done.response is not None and done.response.content.startswith("✅")
    old = room.env.bot
    bot = seeded_bot(database_path)
    try:
        await room.env.restart_bot(bot)
        await old.close()
        result = await room.ada.submit_modal(ada_form, {"rounds": "5", "opening": "30"})
        assert result.response is not None and result.response.content.startswith("✅")
        changed = await saved(room)
        assert (changed.rules.rounds, changed.rules.opening) == (5, 30)
    finally:
        await bot.close()
