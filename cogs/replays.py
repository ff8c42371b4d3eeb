"""The history list and the replay viewer: their persistent components and what a click on them does.

Thin, as the other cogs: the register (:data:`cogs.components.REGISTER`) hands each click here
with its id read (:mod:`bot.render.replay`'s families); the service reads the match
(:class:`~bot.service.replays.MatchArchive`: only a finished match, only to a member who may see it,
:mod:`bot.service.visibility`) and
:mod:`bot.render.replay` draws it. Every component carries the game and the step it shows, so a
viewer opened before a restart still works. A click is trusted for nothing: the game is read again
and the member asked about again (:func:`cogs.visibility.viewer_of`), at every step.
"""

from __future__ import annotations

import gzip
import io
import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import speaking, t
from bot.render import refusal, refusal_for
from bot.render.replay import MAX_ROUND_OPTIONS, history_message, replay_message
from bot.service import TableError
from bot.service.matchlog import NoReplay
from bot.service.numbers import whole_number
from cogs.clicks import answer_privately, refuse_forged
from cogs.visibility import viewer_of

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service.replays import MatchArchive

log = logging.getLogger(__name__)

ATTACHMENT_LIMIT = 8 * 1024 * 1024
"""Bytes a file may have and still reach every server (Discord's smallest upload limit is higher;
a match's JSON is some tens of kilobytes): above it, the file goes gzip-compressed."""


def replays_of(interaction: discord.Interaction[Any]) -> MatchArchive:
    """The bot's finished matches and their replays."""
    bot: RommeBot = interaction.client
    return bot.tables.replays


async def show_replay(
    interaction: discord.Interaction[Any], game_id: int, step: int | None, *, new: bool, round_no: int = 0
) -> None:
    """Answer with step ``step`` of game ``game_id``'s replay (``None``: the first step of round
    ``round_no``): a new ephemeral message, or (``new`` false) the viewer clicked, edited in place.
    A refusal is a short ephemeral line."""
    with speaking(interaction.locale):
        try:
            replay = await replays_of(interaction).open(game_id, viewer_of(interaction))
        except TableError as exc:
            await answer_privately(interaction, refusal_for(exc))
            return
        index = replay.log.round_start(round_no) if step is None else step
        try:
            embed, view = replay_message(replay.log, index)
        except NoReplay:
            await answer_privately(interaction, refusal_for(TableError("replay.none", game_id=game_id)))
            return
    if new:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
    else:
        await interaction.response.edit_message(embed=embed, view=view)


async def send_export(interaction: discord.Interaction[Any], game_id: int) -> None:
    """Attach game ``game_id`` as its JSON export (``docs/match-format.md``), ephemeral."""
    with speaking(interaction.locale):
        try:
            replay = await replays_of(interaction).open(game_id, viewer_of(interaction))
        except TableError as exc:
            await answer_privately(interaction, refusal_for(exc))
            return
        try:
            data, name = export_file(replay.export(), game_id)
        except NoReplay:
            await answer_privately(interaction, refusal_for(TableError("replay.none", game_id=game_id)))
            return
        text = t("replay.export_ready", game_id=game_id)
    await interaction.response.send_message(text, file=discord.File(io.BytesIO(data), name), ephemeral=True)


def export_file(document: Mapping[str, Any], game_id: int) -> tuple[bytes, str]:
    """The export as a file's bytes and name: JSON, gzip-compressed if larger than
    :data:`ATTACHMENT_LIMIT`.

    >>> export_file({"format": "romme-match"}, 4)
    (b'{"format":"romme-match"}', 'romme-game-4.json')
    """
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    if len(data) > ATTACHMENT_LIMIT:
        return gzip.compress(data, mtime=0), f"romme-game-{game_id}.json.gz"
    return data, f"romme-game-{game_id}.json"


async def send_history(interaction: discord.Interaction[Any], member: discord.abc.User | None) -> None:
    """The server's last matches (a member's) that the caller may see, ephemeral, in the caller's
    language."""
    with speaking(interaction.locale):
        games = await replays_of(interaction).history(
            viewer_of(interaction), user_id=None if member is None else member.id
        )
        embed, view = history_message(games, member=None if member is None else member.display_name)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def replay_step(
    interaction: discord.Interaction[Any], step: tuple[int, int, str] | None, values: Sequence[str]
) -> None:
    """⏮ ◀ ▶ ⏭ and Next turn of the viewer, and a history list's button (which opens a viewer):
    ``step`` is ``(game, step, tag)`` (``None``: the id came on another kind of component, which only
    a forged message has)."""
    if step is None:
        await refuse_forged(interaction)
        return
    game_id, index, tag = step
    await show_replay(interaction, game_id, index, new=tag == "o")


async def replay_round(
    interaction: discord.Interaction[Any], game_id: int | None, values: Sequence[str]
) -> None:
    """The viewer's round select: its value is the round to jump to (``game_id`` ``None``: not a
    select, so no round chosen)."""
    round_no = whole_number(values[0]) if game_id is not None and len(values) == 1 else None
    if game_id is None or round_no is None or not 1 <= round_no <= MAX_ROUND_OPTIONS:
        # Not one of the select's options (rounds 1 to 25 at most): forged.
        with speaking(interaction.locale):
            await answer_privately(interaction, refusal(t("error.replay.no_round")))
        return
    await show_replay(interaction, game_id, None, new=False, round_no=round_no)


async def replay_export(
    interaction: discord.Interaction[Any], game_id: int | None, values: Sequence[str]
) -> None:
    """The viewer's Download button (``game_id`` ``None``: not a button, forged)."""
    if game_id is None:
        await refuse_forged(interaction)
        return
    await send_export(interaction, game_id)


async def replay_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The autocomplete of ``/romme replay game:``: the caller's last finished matches in this server
    that they may see now, whose line holds what was typed (at most 25, Discord's limit)."""
    with speaking(interaction.locale):
        games = await replays_of(interaction).history(
            viewer_of(interaction), user_id=interaction.user.id, limit=25
        )
        choices = []
        for game, ended in games:
            players = ", ".join(seat.name for seat in game.seats)
            name = t("replay.choice", game_id=game.id, when=ended.strftime("%Y-%m-%d"), players=players)
            if current.strip() and current.strip().lower() not in name.lower():
                continue
            choices.append(app_commands.Choice(name=name[:100], value=game.id))
    return choices
