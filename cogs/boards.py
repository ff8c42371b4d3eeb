"""The ratings' answers: a season's leaderboard and its page buttons, a profile, a new season.

Thin, as the other cogs: the service (:attr:`TableService.ratings`) reads and decides, rendering
(:mod:`bot.render.ratings`) draws. A page button carries its server, season and page in its custom
id (``rommelb:<server>:<season>:<page>``) and is trusted for nothing: a click from another server is
refused, a season that does not exist says so, a page past the end shows the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import speaking, t
from bot.render import refusal
from bot.render.ratings import profile, season_board
from cogs.clicks import answer_privately, refuse_forged

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service import TableService


def member_names(tables: TableService, guild: discord.Guild | None, user_ids: list[int]) -> dict[int, str]:
    """Display names for ``user_ids``: the member's own where the client has it cached, else the
    name they had at a table the service holds, running or lately finished (the ratings keep no
    names)."""
    names: dict[int, str] = {}
    wanted = set(user_ids)
    for game in sorted(tables.known_games(), key=lambda game: game.id):
        if guild is not None and game.guild_id != guild.id:
            continue
        for seat in game.seats:
            if seat.user_id in wanted and seat.name:
                names[seat.user_id] = seat.name
    for user_id in wanted:
        member = None if guild is None else guild.get_member(user_id)
        if member is not None:
            names[user_id] = member.display_name
    return names


async def board_message(
    bot: RommeBot,
    guild: discord.Guild | None,
    guild_id: int,
    user_id: int,
    *,
    season: int | None,
    page: int | None,
) -> tuple[discord.Embed, discord.ui.View] | None:
    """The leaderboard's page (the caller's own page by default), drawn in the language spoken now;
    ``None`` when the server has no such season."""
    board = await bot.tables.ratings.board(guild_id, season=season, page=page, user_id=user_id)
    if board is None:
        return None
    shown = [line.user_id for line in board.lines] + ([board.own.user_id] if board.own is not None else [])
    return season_board(board, member_names(bot.tables, guild, shown))


async def show_board(interaction: discord.Interaction[RommeBot], season: int | None) -> None:
    """``/romme score scope:server`` or ``season:``: the leaderboard's first page, public, in the
    server's language."""
    guild_id = interaction.guild_id or 0
    with speaking(interaction.guild_locale):
        drawn = await board_message(
            interaction.client, interaction.guild, guild_id, interaction.user.id, season=season, page=0
        )
    if drawn is None:
        with speaking(interaction.locale):  # a refusal: only the member sees it, in their language
            await answer_privately(interaction, refusal(t("season.unknown", season=season)))
        return
    embed, view = drawn
    await interaction.response.send_message(embed=embed, view=view)


async def show_profile(interaction: discord.Interaction[RommeBot], member: discord.abc.User) -> None:
    """``/romme profile``: the member's profile with its chart, in the caller's language."""
    guild_id = interaction.guild_id or 0
    data = await interaction.client.tables.ratings.profile(guild_id, member.id)
    name = member_names(interaction.client.tables, interaction.guild, [member.id]).get(member.id)
    with speaking(interaction.locale):
        embed, chart = profile(data, name or member.display_name)
    if chart is None:
        await interaction.response.send_message(embed=embed)
    else:
        await interaction.response.send_message(embed=embed, file=chart)


async def start_season(interaction: discord.Interaction[RommeBot]) -> None:
    """``/romme season``: a member with Manage Server starts the next season; the answer is public,
    in the server's language, and says what resets and what carries over."""
    if not interaction.permissions.manage_guild:
        with speaking(interaction.locale):
            await answer_privately(interaction, refusal(t("season.not_allowed")))
        return
    season = await interaction.client.tables.ratings.start_season(
        interaction.guild_id or 0, interaction.user.id
    )
    with speaking(interaction.guild_locale):
        text = t("season.started", season=season.number) + "\n" + t("help.seasons")
    await interaction.response.send_message(text)


async def board_page(
    interaction: discord.Interaction[Any], page: tuple[int, int, int] | None, values: Sequence[str]
) -> None:
    """**Previous** / **Next** of a season's leaderboard: ``page`` is ``(server, season, page)`` of
    the page its id names, drawn again in place (``None``: not a button, forged)."""
    if page is None:
        await refuse_forged(interaction)
        return
    with speaking(interaction.locale):
        if interaction.guild_id is None or page[0] != interaction.guild_id:
            await answer_privately(interaction, refusal(t("board.elsewhere")))
            return
    guild_id, season, number = page
    with speaking(interaction.guild_locale):
        drawn = await board_message(
            interaction.client, interaction.guild, guild_id, interaction.user.id, season=season, page=number
        )
    if drawn is None:
        with speaking(interaction.locale):
            await answer_privately(interaction, refusal(t("season.unknown", season=season)))
        return
    embed, view = drawn
    await interaction.response.edit_message(embed=embed, view=view)
