"""The ``/romme`` commands, and the table service the cog runs for the bot's lifetime.

The names, options, choices and ranges are pinned by ``tests/snapshots/commands.json``: a change
there is a change to what every server sees, so it must be deliberate. Each command is thin: it asks
the table service (:mod:`bot.service`) and answers with what :mod:`bot.render` draws. Clicks are handled
by :mod:`cogs.clicks` through the persistent components of :mod:`cogs.components`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.rules import RuleSet
from bot.i18n import t
from bot.publish.publisher import TablePublisher, table_message
from bot.render import (
    leaderboard,
    player_record,
    refusal,
    refusal_for,
    rules_summary,
    standings,
    stop_confirm,
)
from bot.service import TableError, TableService
from cogs.clicks import Clicks, answer_privately
from cogs.components import ITEMS

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service.game import Game

log = logging.getLogger(__name__)

JOKER_CHOICES = [app_commands.Choice(name=f"{n} jokers", value=n) for n in (2, 4, 6)]
SCORING_CHOICES = [
    app_commands.Choice(name="Melds minus hand (standard)", value="melds"),
    app_commands.Choice(name="Penalty: only the hand counts, against you", value="penalty"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name="This channel's game, round by round", value="channel"),
    app_commands.Choice(name="The server leaderboard", value="server"),
]

TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")
"""What the bot needs in a channel to keep a table there (post, and edit the table message)."""


@contextlib.asynccontextmanager
async def refusals(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Answer a :class:`TableError` raised inside with its refusal, ephemeral; let the rest through."""
    try:
        yield
    except TableError as exc:
        await answer_privately(interaction, refusal_for(exc))


@app_commands.guild_only()
class Romme(
    commands.GroupCog, group_name="romme", group_description="Play Rommé (German Rummy) in this channel"
):
    """Slash commands of a Rommé table; every move after ``start`` is made with buttons."""

    def __init__(self, bot: RommeBot) -> None:
        self.bot = bot

    @property
    def tables(self) -> TableService:
        """The bot's table service."""
        return self.bot.tables

    @property
    def publisher(self) -> TablePublisher:
        """The bot's table messages and announcements."""
        return self.bot.publisher

    async def cog_load(self) -> None:
        """Register the persistent components, so a button posted before a restart works again."""
        self.bot.add_dynamic_items(*ITEMS)

    async def cog_unload(self) -> None:
        """Forget the components (the bot stops the timers and table edits itself)."""
        self.bot.remove_dynamic_items(*ITEMS)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Refusals in plain words; anything unexpected is logged and apologised for."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, TableError):
            await answer_privately(interaction, refusal_for(cause))
            return
        if isinstance(cause, app_commands.NoPrivateMessage):
            await answer_privately(interaction, refusal(t("error.game.none_here")))
            return
        log.error(
            "/%s failed", interaction.command.qualified_name if interaction.command else "?", exc_info=cause
        )
        await answer_privately(interaction, refusal(t("error.unexpected")))

    def _game_here(self, interaction: discord.Interaction[RommeBot]) -> Game:
        game = self.tables.game_in_channel(interaction.channel_id or 0)
        if game is None:
            raise TableError("game.none_here")
        return game

    @staticmethod
    def _points_to(game: Game) -> str:
        """The refusal of a second ``start``: the running game, with a link to its table message."""
        text = refusal_for(TableError("game.exists", game_id=game.id))
        if game.table_message_id is not None:
            link = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.table_message_id}"
            text += "\n" + t("game.exists.jump", link=link)
        return text

    @app_commands.command(name="start", description="Open a table in this channel and wait for players")
    @app_commands.describe(
        jokers="Jokers in the deck (default 4)",
        opening="Points your first melds must reach together (default 40)",
        scoring="How a round is scored (default: melds minus hand)",
        hand_romme="Going out in one turn from a closed hand doubles the others' hand points (default off)",
        discard_to_go_out="The last card must be discarded to go out (default off)",
        rounds="Rounds in the match (default: one per seat, so everyone deals once)",
        computers="Computer players to seat at once (default 0)",
        turn_timeout="Seconds for a person's turn before the computer plays it (default: the bot's setting)",
    )
    @app_commands.choices(jokers=JOKER_CHOICES)
    @app_commands.choices(scoring=SCORING_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[RommeBot],
        jokers: int | None = None,
        opening: app_commands.Range[int, 0, 120] | None = None,
        scoring: str | None = None,
        hand_romme: bool | None = None,
        discard_to_go_out: bool | None = None,
        rounds: app_commands.Range[int, 1, 12] | None = None,
        computers: app_commands.Range[int, 0, 5] | None = None,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
    ) -> None:
        """Post the lobby of a new game with these house rules."""
        async with refusals(interaction):
            missing = [name for name in TABLE_PERMISSIONS if not getattr(interaction.app_permissions, name)]
            if missing:
                names = ", ".join(name.replace("_", " ").title() for name in missing)
                await answer_privately(interaction, refusal(t("error.bot_permission", permissions=names)))
                return
            existing = self.tables.game_in_channel(interaction.channel_id or 0)
            if existing is not None:
                await self._show_existing(interaction, existing)
                return
            rules = RuleSet(
                jokers=jokers if jokers is not None else 4,
                opening=opening if opening is not None else 40,
                scoring=scoring if scoring is not None else "melds",  # type: ignore[arg-type]
                hand_romme=bool(hand_romme),
                discard_to_go_out=bool(discard_to_go_out),
                rounds=rounds,
            )
            timeout = float(turn_timeout) if turn_timeout is not None else self.bot.settings.turn_timeout
            try:
                game = await self.tables.open_lobby(
                    interaction.guild_id or 0,
                    interaction.channel_id or 0,
                    interaction.user.id,
                    interaction.user.display_name,
                    rules,
                    computers or 0,
                    timeout,
                )
            except TableError as exc:
                if exc.code != "game.exists":
                    raise
                await self._show_existing(interaction, self.tables.get(exc.params["game_id"]))
                return
            await self._post_table(interaction, game)

    async def _show_existing(self, interaction: discord.Interaction[RommeBot], game: Game) -> None:
        """A second ``start``: a link to the channel's game; if its table message was never posted
        (the first answer was lost), the table itself, posted now as this answer."""
        if game.table_message_id is not None:
            await answer_privately(interaction, self._points_to(game))
            return
        await self._post_table(interaction, game)

    async def _post_table(self, interaction: discord.Interaction[RommeBot], game: Game) -> None:
        """Answer with ``game``'s table message and store it; if the answer is lost (Discord's 3 s
        passed), post it in the channel instead, so the lobby is there whatever happened."""
        content, embeds, view = table_message(game)
        try:
            callback = await interaction.response.send_message(content, embeds=embeds, view=view)
        except discord.HTTPException as exc:
            log.warning("game %s: the answer to /romme start was lost (%s); posting the table", game.id, exc)
            await self.publisher.repost_table(game)
            return
        if callback.message_id is not None:
            await self.tables.set_table_message(game.id, callback.message_id)
            self.publisher.shown(game, callback.message_id)

    @app_commands.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Sit down in the lobby (same as the Join button)."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            game = await self.tables.join(game.id, interaction.user.id, interaction.user.display_name)
            try:
                await answer_privately(interaction, t("command.joined", game_id=game.id))
            finally:
                self.publisher.update(game)

    @app_commands.command(
        name="leave", description="Leave the table; in a running game a computer takes your seat"
    )
    async def leave(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Stand up (same as the Leave button)."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            game = await self.tables.leave(game.id, interaction.user.id)
            key = "command.left" if game.match is None else "command.left.running"
            try:
                await answer_privately(interaction, t(key, game_id=game.id))
            finally:
                self.publisher.update(game)

    @app_commands.command(name="hand", description="Show your hand, privately, with the buttons to play it")
    async def hand(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Open the private hand panel (same as the My hand button)."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            await Clicks.of(self.bot).open_panel(interaction, game.id)

    @app_commands.command(
        name="score", description="Standings of this channel's game, the server, or one player"
    )
    @app_commands.describe(
        scope="What to show (default: this channel's game)",
        user="Show this member's record on the server instead",
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def score(
        self,
        interaction: discord.Interaction[RommeBot],
        scope: str | None = None,
        user: discord.Member | None = None,
    ) -> None:
        """The standings round by round, the server leaderboard, or one player's record."""
        async with refusals(interaction):
            guild_id = interaction.guild_id or 0
            if user is not None:
                record = await self.tables.player_record(guild_id, user.id)
                await interaction.response.send_message(
                    embed=player_record(record, user.id, name=user.display_name)
                )
            elif scope == "server":
                rows = await self.tables.leaderboard(guild_id)
                guild = interaction.guild
                names = {}
                for row in rows:
                    member = None if guild is None else guild.get_member(row.user_id)
                    if member is not None:
                        names[row.user_id] = member.display_name
                await interaction.response.send_message(embed=leaderboard(rows, names))
            else:
                channel_id = interaction.channel_id or 0
                game = self.tables.game_in_channel(channel_id, include_finished=True)
                if game is None:
                    raise TableError("game.none_here")
                if game.match is None or not game.match.history:
                    # A new lobby after Play again: the match just finished is what people ask for.
                    game = await self.tables.last_scored_in_channel(channel_id) or game
                await interaction.response.send_message(embed=standings(game))

    @app_commands.command(name="rules", description="The rules in short, and this table's house rules")
    async def rules(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Explain the game to the one who asks."""
        async with refusals(interaction):
            game = self.tables.game_in_channel(interaction.channel_id or 0)
            await interaction.response.send_message(embed=rules_summary(game), ephemeral=True)

    @app_commands.command(name="stop", description="End the game in this channel (host or Manage Server)")
    async def stop(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Ask for confirmation, then end the game and keep the results so far."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            if interaction.user.id != game.host_id and not interaction.permissions.manage_guild:
                raise TableError("stop.not_allowed", game_id=game.id)
            text, view = stop_confirm(game.id)
            view.stop()
            await interaction.response.send_message(text, view=view, ephemeral=True)


async def setup(bot: RommeBot) -> None:
    """Add the cog (the discord.py extension entry point)."""
    await bot.add_cog(Romme(bot))
