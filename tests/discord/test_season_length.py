"""The ratings' season length as a server setting (``/romme settings``), through the real bot in
SimCord: a 7-day season rolls over after 7 simulated days; a season started only by hand never rolls
over by itself; a member without the right is refused; a bad length is refused naming what was
wrong, and nothing is saved. The members and the server speak English, German or Indonesian."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import discord
import pytest
import simcord

from bot.i18n import t
from bot.playground.session import interaction_locales
from bot.service.seasons import month_start
from bot.service.settings import ServerSettings
from tests.discord.play_helpers import Room, romme_bot, sent_select
from tests.discord.test_server_settings import (
    STRING_SELECT,
    custom_id,
    numbers,
    open_settings,
    pick,
    said,
    saved,
)

DAY = 24 * 60 * 60


@pytest.fixture(params=("en", "de", "id"))
def locale(request: pytest.FixtureRequest, room: Room) -> Iterator[str]:
    """Every member of the room, and the server, speak this language."""
    chosen = {who: request.param for who in (room.ada.id, room.bob.id, room.guild.id)}
    with interaction_locales(chosen):
        yield request.param


@pytest.fixture
def admins(room: Room) -> simcord.RoleHandle:
    """Ada has Manage Server (a role that grants it); Bob does not."""
    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.ada.id, role.id)
    return role


async def advance(room: Room, seconds: float) -> None:
    """Simulated time moves on, a few days at a time (the bot's timers run on the way)."""
    while seconds > 0:
        step = min(seconds, 5 * DAY)
        await room.env.advance_time(step)
        seconds -= step


async def board_title(room: Room) -> str:
    """The title of ``/romme score scope:server``: which season is running now."""
    result = await room.bob.slash(room.channel, "romme score", scope="server")
    assert result.response is not None and result.response.embeds
    return str(result.response.embeds[0].title)


@pytest.mark.slow
async def test_a_seven_day_season_rolls_over_after_seven_days(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    result = await numbers(room, panel, season_length="7")
    assert result.response is not None and result.response.content.startswith("✅")
    line = t("settings.line.season_length", locale, length=t("settings.season.days", locale, count=7))
    assert line in result.response.content
    assert line in said(result)  # the redrawn panel shows it too
    assert (await saved(room)).season_length == 7
    # Season 1 starts with the server's first leaderboard (or rated match) …
    assert await board_title(room) == t("board.title", locale, season=1)
    await advance(room, 6 * DAY + 23 * 60 * 60)
    assert await board_title(room) == t("board.title", locale, season=1)
    # … and the next starts by itself once its 7 days are over.
    await room.env.advance_time(60 * 60)
    assert await board_title(room) == t("board.title", locale, season=2)
    seasons = await romme_bot(room.env).storage.seasons(room.guild.id)
    assert [s.number for s in seasons] == [1, 2]
    assert (seasons[1].started_at - seasons[0].started_at).total_seconds() == 7 * DAY


@pytest.mark.slow
async def test_a_monthly_server_still_plays_its_month_and_empty_days_go_back_to_monthly(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    await numbers(room, panel, season_length="7")
    result = await numbers(room, panel, season_length="")
    monthly = t("settings.line.season_length", locale, length=t("settings.season.monthly", locale))
    assert result.response is not None and monthly in result.response.content
    assert await saved(room) == ServerSettings()
    assert await board_title(room) == t("board.title", locale, season=1)
    # Monthly again: the season runs until the next UTC calendar month, not 7 days.
    next_month = month_start(month_start(discord.utils.utcnow()) + timedelta(days=32))
    left = (next_month - discord.utils.utcnow()).total_seconds()
    await advance(room, left - 60 * 60)
    assert await board_title(room) == t("board.title", locale, season=1)
    await room.env.advance_time(2 * 60 * 60)
    assert await board_title(room) == t("board.title", locale, season=2)


@pytest.mark.slow
async def test_a_season_started_by_hand_never_rolls_over_by_itself(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    result = await pick(room, panel, "season_length=manual")
    manual = t("settings.line.season_length", locale, length=t("settings.season.manual", locale))
    assert result.response is not None and manual in result.response.content
    assert (await saved(room)).season_length is None
    # The numbers' modal left empty keeps it (it is not a number of days).
    await numbers(room, panel, season_length="")
    assert (await saved(room)).season_length is None
    assert await board_title(room) == t("board.title", locale, season=1)
    await advance(room, 70 * DAY)  # past two calendar months and ten weeks
    assert await board_title(room) == t("board.title", locale, season=1)
    started = await room.ada.slash(room.channel, "romme season")
    assert started.response is not None and not started.ephemeral
    assert await board_title(room) == t("board.title", locale, season=2)


async def test_a_member_without_the_right_cannot_change_the_season_length(
    room: Room, locale: str, admins: simcord.RoleHandle
) -> None:
    panel = await open_settings(room)
    forged = sent_select(
        room.bob, panel, custom_id(panel, "pick"), ["season_length=manual"], kind=STRING_SELECT
    )
    await room.env.settle()
    assert said(forged) == "⚠️ " + t("error.settings.not_allowed", locale)
    assert await saved(room) == ServerSettings()


@pytest.mark.parametrize(
    ("typed", "key", "params"),
    [
        ("0", "error.settings.out_of_range", {"value": 0, "low": 1, "high": 366}),
        ("400", "error.settings.out_of_range", {"value": 400, "low": 1, "high": 366}),
        ("week", "error.settings.not_a_number", {"value": "week"}),
    ],
)
async def test_a_bad_season_length_is_refused_naming_it(
    room: Room, locale: str, admins: simcord.RoleHandle, typed: str, key: str, params: dict[str, object]
) -> None:
    panel = await open_settings(room)
    result = await numbers(room, panel, opening="30", season_length=typed)
    setting = t("settings.name.season_length", locale)
    assert said(result) == "⚠️ " + t(key, locale, setting=setting, **params)
    assert await saved(room) == ServerSettings()  # not even the good opening of the same form
    forged = sent_select(
        room.ada, panel, custom_id(panel, "pick"), ["season_length=yearly"], kind=STRING_SELECT
    )
    await room.env.settle()
    # A list gives only its options (monthly, by hand): any other value is not one of the choices.
    assert said(forged) == "⚠️ " + t("error.settings.bad_value", locale, setting=setting)
    assert await saved(room) == ServerSettings()
