"""The ``/romme`` commands, and the table service the cog runs for the bot's lifetime.

The names, options, choices and ranges are pinned by ``tests/snapshots/commands.json``: a change
there is a change to what every server sees, so it must be deliberate. Each command is thin: it asks
the table service (:mod:`bot.service`) and answers with what :mod:`bot.render` draws. Clicks are handled
by :mod:`cogs.clicks` through the persistent components of :mod:`cogs.components`.

Every description, option name and choice is a ``locale_str`` keyed into the catalog
(``slash.*`` keys of :mod:`bot.i18n`): English here, German and Indonesian through the bot's
translator (:class:`bot.client.CatalogTranslator`). The command names stay ``/romme start`` … in
every language, so a command read in a guide or said across the table is the one everybody types.
A command answers privately in the member's language (their ``/romme preferences``, else
``interaction.locale``); the public messages (lobby, table, results, a game's standings) speak the
game's language, chosen with ``start language:`` or the server's ``/romme settings``, whose other
defaults a ``start`` takes for every option not given (:meth:`cogs.start.StartOptions.over`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.computer import LEVELS
from bot.engine.rules import JOKERS, OPENING, ROUNDS, SCORING, RuleSet
from bot.i18n import CATALOGS, DEFAULT_LOCALE, speaking, t
from bot.publish.panels import as_member
from bot.publish.publisher import TablePublisher, table_message
from bot.render import (
    player_record,
    refusal,
    refusal_for,
    rules_summary,
    standings,
    stop_confirm,
)
from bot.service import MAX_SEATS, TableError, TableService
from bot.service.ratings import early_rating
from bot.service.settings import TURN_SECONDS
from cogs.boards import show_board, show_profile, start_season
from cogs.clicks import Clicks, answer_privately
from cogs.components import ITEMS
from cogs.options import ForgedOption, check_options
from cogs.replays import replay_choices, send_history, show_replay
from cogs.settings import Panels, runs_games
from cogs.start import NewLobby, StartOptions, start_refusal, thread_parent

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service.game import Game

log = logging.getLogger(__name__)


def text(key: str, **params: object) -> app_commands.locale_str:
    """A command text: its English words, and its catalog key (and ``params``, the words' numbers)
    for the translator.

    >>> text("slash.join").message, text("slash.join").extras
    ('Take a seat at the table in this channel', {'key': 'slash.join'})
    >>> text("slash.choice.jokers", count=6).message
    '6 jokers'
    """
    if not params:
        return app_commands.locale_str(t(key, DEFAULT_LOCALE), key=key)
    return app_commands.locale_str(t(key, DEFAULT_LOCALE, **params), key=key, params=params)


# The house rules' choices and ranges are the rules' own bounds (bot.engine.rules), the turn timer's
# the server setting's: one place says what each may be, for the command, the panel and the rules.
JOKER_CHOICES = [
    app_commands.Choice(name=text("slash.choice.jokers", count=n), value=n) for n in JOKERS.values
]
SCORING_CHOICES = [
    app_commands.Choice(name=text(f"slash.choice.scoring_{kind}"), value=kind) for kind in SCORING.values
]
LEVEL_CHOICES = [
    app_commands.Choice(name=text(f"slash.choice.level_{level}"), value=level) for level in LEVELS
]
SCOPE_CHOICES = [
    app_commands.Choice(name=text("slash.choice.scope_channel"), value="channel"),
    app_commands.Choice(name=text("slash.choice.scope_server"), value="server"),
]
LANGUAGE_CHOICES = [
    # Each language by its own name, in every client.
    app_commands.Choice(name=t(f"language.{code}", DEFAULT_LOCALE), value=code)
    for code in CATALOGS
]
START_OPTIONS = (
    "jokers",
    "opening",
    "scoring",
    "hand_romme",
    "discard_to_go_out",
    "rounds",
    "computers",
    "turn_timeout",
    "computer_level",
    "language",
    "thread",
)


DESCRIBED_DEFAULTS = {name: {"default": getattr(RuleSet(), name)} for name in ("jokers", "opening")}
"""The options whose description names the rule book's default (``{default}``): the rules' own."""


THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
"""A game's thread is hidden from the channel list after a day without messages (Discord's longest
for every server is a week); the publisher unarchives it when an edit of its table is refused."""


@contextlib.asynccontextmanager
async def refusals(interaction: discord.Interaction[RommeBot]) -> AsyncIterator[None]:
    """Answer a :class:`TableError` raised inside with its refusal, ephemeral; let the rest through.
    Inside, the bot speaks the member's language (their preference, else ``interaction.locale``)
    and draws their cards as they chose."""
    preferences = await interaction.client.tables.book.known(interaction.user.id)
    with as_member(preferences, interaction.locale):
        try:
            yield
        except TableError as exc:
            await answer_privately(interaction, refusal_for(exc))


async def _delete_quietly(thread: discord.Thread) -> None:
    """Delete a game's thread that got no game (its lobby was refused after all, in a race); a
    failure (the bot may lack Manage Threads) is only logged."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.warning("could not delete the unused thread %s: %s", thread.id, exc)


@app_commands.guild_only()
class Romme(commands.GroupCog, group_name="romme", group_description=text("slash.group")):
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
        # Installed on the tree while the cog is loaded (RoboDanny's habit), restored on unload.
        self._tree_check = self.bot.tree.interaction_check
        self.bot.tree.interaction_check = self.options_check  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        """Forget the components (the bot stops the timers and table edits itself)."""
        self.bot.remove_dynamic_items(*ITEMS)
        self.bot.tree.interaction_check = self._tree_check  # type: ignore[method-assign]

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[RommeBot]) -> None:
        """A modal submitted: read and answered from what Discord sent (no modal is kept in memory,
        as no component is), so a form open across a restart is still answered."""
        if interaction.type is discord.InteractionType.modal_submit:
            await Panels(self.bot).submitted(interaction)

    async def options_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """The tree's check before every command: its options are ones it declares, with values it
        takes (Discord checks them too; a forged request is refused all the same, before discord.py
        reads a single option), else a short refusal and the command does not run."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        try:
            check_options(interaction.command, interaction.data or {})
        except ForgedOption:
            with as_member(self.tables.book.cached(interaction.user.id), interaction.locale):
                await answer_privately(interaction, refusal(t("error.command.bad_option")))
            return False
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Refusals in plain words (in the member's language); anything unexpected is logged and
        apologised for."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        with as_member(self.tables.book.cached(interaction.user.id), interaction.locale):
            if isinstance(cause, TableError):
                await answer_privately(interaction, refusal_for(cause))
                return
            if isinstance(cause, app_commands.NoPrivateMessage):
                await answer_privately(interaction, refusal(t("error.game.none_here")))
                return
            log.error(
                "/%s failed",
                interaction.command.qualified_name if interaction.command else "?",
                exc_info=cause,
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

    @app_commands.command(name="start", description=text("slash.start"))
    @app_commands.rename(**{name: text(f"slash.option.{name}") for name in START_OPTIONS})
    @app_commands.describe(
        **{name: text(f"slash.describe.{name}", **DESCRIBED_DEFAULTS.get(name, {})) for name in START_OPTIONS}
    )
    @app_commands.choices(jokers=JOKER_CHOICES)
    @app_commands.choices(scoring=SCORING_CHOICES)
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @app_commands.choices(computer_level=LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[RommeBot],
        jokers: int | None = None,
        opening: app_commands.Range[int, OPENING.low, OPENING.high] | None = None,
        scoring: str | None = None,
        hand_romme: bool | None = None,
        discard_to_go_out: bool | None = None,
        rounds: app_commands.Range[int, ROUNDS.low, ROUNDS.high] | None = None,
        computers: app_commands.Range[int, 0, MAX_SEATS - 1] | None = None,
        turn_timeout: app_commands.Range[int, TURN_SECONDS.low, TURN_SECONDS.high] | None = None,
        language: str | None = None,
        computer_level: str | None = None,
        thread: bool | None = None,
    ) -> None:
        """Post the lobby of a new game with these house rules, in ``language`` (default: the
        server's language if the bot speaks it, else English); with ``thread``, in a public thread of
        its own opened from this channel, which gets a line pointing to it."""
        options = StartOptions(
            jokers=jokers,
            opening=opening,
            scoring=scoring,
            hand_romme=hand_romme,
            discard_to_go_out=discard_to_go_out,
            rounds=rounds,
            computers=computers,
            turn_timeout=turn_timeout,
            language=language,
            computer_level=computer_level,
            thread=thread,
        )
        async with refusals(interaction):
            server = await self.tables.book.server(interaction.guild_id or 0)
            channel = interaction.channel
            options = options.over(server, in_thread=isinstance(channel, discord.Thread))
            refused = start_refusal(
                server,
                channel,
                interaction.channel_id or 0,
                interaction.app_permissions,
                thread=bool(options.thread),
            )
            if refused is not None:
                await answer_privately(interaction, refused)
                return
            if options.thread:
                await self._start_in_thread(interaction, options)
            else:
                await self._start_here(interaction, options)

    async def _start_here(self, interaction: discord.Interaction[RommeBot], options: StartOptions) -> None:
        """``/romme start`` in this channel: its lobby as the answer, or the channel's game if it has one."""
        channel_id = interaction.channel_id or 0
        existing = self.tables.game_in_channel(channel_id)
        if existing is not None:
            await self._show_existing(interaction, existing)
            return
        lobby = self._lobby(interaction, options)
        try:
            game = await self._open_lobby(interaction, lobby, channel_id)
        except TableError as exc:
            if exc.code != "game.exists":
                raise
            # Opened by another start (or process) since the look above.
            await self._show_existing(interaction, self.tables.get(exc.params["game_id"]))
            return
        await self._post_table(interaction, game)

    async def _start_in_thread(
        self, interaction: discord.Interaction[RommeBot], options: StartOptions
    ) -> None:
        """``/romme start thread:true``: a thread of this channel with the lobby in it; the thread goes
        again if the lobby is refused."""
        parent = thread_parent(interaction.channel)
        lobby = self._lobby(interaction, options)
        # Asked before the thread is opened: a thread the bot cannot delete again (that needs Manage
        # Threads) is not opened for a lobby that would be refused anyway.
        self.tables.check_host_limit(interaction.guild_id or 0, interaction.user.id)
        home = await self._open_thread(interaction, parent, lobby.language)
        try:
            game = await self._open_lobby(interaction, lobby, home.id)
        except TableError:
            await _delete_quietly(home)
            raise
        await self._post_in_thread(interaction, game, home)

    def _lobby(self, interaction: discord.Interaction[RommeBot], options: StartOptions) -> NewLobby:
        return options.lobby(
            guild_locale=interaction.guild_locale, turn_timeout=self.bot.settings.turn_timeout
        )

    async def _open_lobby(
        self, interaction: discord.Interaction[RommeBot], lobby: NewLobby, channel_id: int
    ) -> Game:
        """Open ``lobby`` in ``channel_id`` (this channel or the game's thread), hosted by the member,
        with the server's lobby timeout; the lobby says when its settings are the server's."""
        return await self.tables.open_lobby(
            interaction.guild_id or 0,
            channel_id,
            interaction.user.id,
            interaction.user.display_name,
            lobby.rules,
            lobby.computers,
            lobby.turn_timeout,
            computer_level=lobby.computer_level,
            language=lobby.language,
            lobby_timeout=lobby.lobby_timeout,
            server_rules=lobby.server_rules,
        )

    @staticmethod
    async def _open_thread(
        interaction: discord.Interaction[RommeBot], channel: discord.TextChannel, language: str
    ) -> discord.Thread:
        """A public thread of ``channel`` for a new game, named in the game's language."""
        with speaking(language):
            name = t("thread.name", host=interaction.user.display_name)[:100]
        try:
            return await channel.create_thread(
                name=name,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
        except discord.HTTPException as exc:
            log.warning("could not open a thread in channel %s: %s", channel.id, exc)
            raise TableError("thread.cannot_open") from None

    async def _post_in_thread(
        self, interaction: discord.Interaction[RommeBot], game: Game, home: discord.Thread
    ) -> None:
        """Post ``game``'s table message in its thread and store it, then answer in the channel
        with a line pointing to the thread (the answer may be lost: the game is in the thread)."""
        content, embeds, view = table_message(game, quiet=self.publisher.quiet)
        try:
            message = await home.send(content, embeds=embeds, view=view)
        except discord.HTTPException as exc:
            log.warning("game %s: its table could not be posted in its thread (%s); again", game.id, exc)
            await self.publisher.repost_table(game)
        else:
            await self.tables.set_table_message(game.id, message.id)
            self.publisher.shown(game, message.id)
        with speaking(game.language):
            line = t("command.thread_opened", host=interaction.user.mention, thread=home.mention)
        try:
            await interaction.response.send_message(line, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("game %s: the answer to /romme start was lost (%s)", game.id, exc)

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
        content, embeds, view = table_message(game, quiet=self.publisher.quiet)
        try:
            callback = await interaction.response.send_message(content, embeds=embeds, view=view)
        except discord.HTTPException as exc:
            log.warning("game %s: the answer to /romme start was lost (%s); posting the table", game.id, exc)
            await self.publisher.repost_table(game)
            return
        if callback.message_id is not None:
            await self.tables.set_table_message(game.id, callback.message_id)
            self.publisher.shown(game, callback.message_id)

    @app_commands.command(name="join", description=text("slash.join"))
    async def join(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Sit down in the lobby (same as the Join button)."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            game = await self.tables.join(game.id, interaction.user.id, interaction.user.display_name)
            try:
                await answer_privately(interaction, t("command.joined", game_id=game.id))
            finally:
                self.publisher.update(game)

    @app_commands.command(name="leave", description=text("slash.leave"))
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

    @app_commands.command(name="hand", description=text("slash.hand"))
    async def hand(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Open the private hand panel (same as the My hand button)."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            await Clicks.of(self.bot).open_panel(interaction, game.id)

    @app_commands.command(name="score", description=text("slash.score"))
    @app_commands.rename(
        scope=text("slash.option.scope"), user=text("slash.option.user"), season=text("slash.option.season")
    )
    @app_commands.describe(
        scope=text("slash.describe.scope"),
        user=text("slash.describe.user"),
        season=text("slash.describe.season"),
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def score(
        self,
        interaction: discord.Interaction[RommeBot],
        scope: str | None = None,
        user: discord.Member | None = None,
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        """The standings round by round, the server's season leaderboard by rating (``season:`` a past
        one's final standings), or one player's record: public answers, so a game's standings speak
        its language, the server's in the server's."""
        async with refusals(interaction):
            guild_id = interaction.guild_id or 0
            if season is not None or (scope == "server" and user is None):
                await show_board(interaction, season)
            elif user is not None:
                record = await self.tables.player_record(guild_id, user.id)
                with speaking(interaction.guild_locale):
                    embed = player_record(record, user.id, name=user.display_name)
                await interaction.response.send_message(embed=embed)
            else:
                channel_id = interaction.channel_id or 0
                game = self.tables.game_in_channel(
                    channel_id, include_finished=True
                ) or await self.tables.last_ended_in_channel(channel_id)
                if game is None:
                    raise TableError("game.none_here")
                if game.match is None or not game.match.history:
                    # A new lobby after Play again: the match just finished is what people ask for.
                    game = await self.tables.last_scored_in_channel(channel_id) or game
                with speaking(game.language):
                    embed = standings(game)
                await interaction.response.send_message(embed=embed)

    @app_commands.command(name="history", description=text("slash.history"))
    @app_commands.rename(member=text("slash.option.member"))
    @app_commands.describe(member=text("slash.describe.member"))
    async def history(
        self, interaction: discord.Interaction[RommeBot], member: discord.Member | None = None
    ) -> None:
        """The server's last finished matches (a member's), a replay button each: only to the caller."""
        await send_history(interaction, member)

    @app_commands.command(name="replay", description=text("slash.replay"))
    @app_commands.rename(game=text("slash.option.game"))
    @app_commands.describe(game=text("slash.describe.game"))
    async def replay(
        self, interaction: discord.Interaction[RommeBot], game: app_commands.Range[int, 1, 10**12 - 1]
    ) -> None:
        """A finished match of this server, step by step, with every hand: only to the caller."""
        await show_replay(interaction, game, 0, new=True)

    @replay.autocomplete("game")
    async def replay_games(
        self, interaction: discord.Interaction[RommeBot], current: str
    ) -> list[app_commands.Choice[int]]:
        """The caller's recent finished matches in this server, the newest first."""
        return await replay_choices(interaction, current)

    @app_commands.command(name="profile", description=text("slash.profile"))
    @app_commands.rename(member=text("slash.option.member"))
    @app_commands.describe(member=text("slash.describe.profile_member"))
    async def profile(
        self, interaction: discord.Interaction[RommeBot], member: discord.Member | None = None
    ) -> None:
        """A member's rating, place and statistics on this server, with a chart of the rating."""
        async with refusals(interaction):
            await show_profile(interaction, member or interaction.user)

    @app_commands.command(name="season", description=text("slash.season"))
    async def season(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Start the server's next season (a member with Manage Server)."""
        async with refusals(interaction):
            await start_season(interaction)

    @app_commands.command(name="rules", description=text("slash.rules"))
    async def rules(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Explain the game to the one who asks."""
        async with refusals(interaction):
            game = self.tables.game_in_channel(interaction.channel_id or 0)
            await interaction.response.send_message(
                embed=rules_summary(game, self.bot.settings.rules_url), ephemeral=True
            )

    @app_commands.command(name="stop", description=text("slash.stop"))
    async def stop(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Ask for confirmation, then end the game and keep the results so far."""
        async with refusals(interaction):
            game = self._game_here(interaction)
            if interaction.user.id != game.host_id and not await runs_games(self.tables.book, interaction):
                raise TableError("stop.not_allowed", game_id=game.id)
            # Said before the click: how the match would be rated (a seated stopper ranks last).
            rating = early_rating(game, interaction.user.id) if game.running else None
            text, view = stop_confirm(game.id, rating)
            view.stop()
            await interaction.response.send_message(text, view=view, ephemeral=True)

    @app_commands.command(name="settings", description=text("slash.settings"))
    async def settings(self, interaction: discord.Interaction[RommeBot]) -> None:
        """This server's defaults for new games, to view and change (Manage Server or the
        game-master role)."""
        await Panels(self.bot).open_settings(interaction)

    @app_commands.command(name="preferences", description=text("slash.preferences"))
    async def preferences(self, interaction: discord.Interaction[RommeBot]) -> None:
        """The member's own choices, on every server: cards, the hand's order, language, mentions."""
        await Panels(self.bot).open_preferences(interaction)

    @app_commands.command(name="help", description=text("slash.help"))
    async def help(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Rommé in three lines, a turn in five steps, the commands and the rule book."""
        await Panels(self.bot).open_help(interaction)


async def setup(bot: RommeBot) -> None:
    """Add the cog (the discord.py extension entry point)."""
    await bot.add_cog(Romme(bot))
