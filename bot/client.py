"""The bot itself: a ``commands.Bot`` that owns its settings and its parts for its lifetime.

Its parts: the :class:`~bot.storage.Storage` (``bot.storage``), the
:class:`~bot.service.TableService` (``bot.tables``) and the
:class:`~bot.publish.TablePublisher` (``bot.publisher``), the service's listener. Start-up order
(``setup_hook``, before the gateway connects, so no interaction can arrive early):

1. open the storage (schema migrations run here), build the service on it, then the publisher on
   both through its ports (:class:`~bot.publish.ports.Ports`: the bot's channels, the service, the
   storage's outbox), and make the publisher the service's listener;
2. load the extensions in :data:`EXTENSIONS`. Each cog's ``cog_load`` registers its persistent
   components (``self.bot.add_dynamic_items(...)``), so a button on a message posted before a
   restart finds its handler again;
   The command tree gets the :class:`CatalogTranslator` first, so the commands are synced with
   their German and Indonesian texts;
3. with ``CARD_STYLE=emoji``, make sure the application owns the card faces as its emojis (upload
   what is missing or changed, :mod:`bot.publish.emojis`) and draw cards with them; text if Discord
   refuses them (one logged line);
4. bring back every unfinished game (its timers and computer turns carry on), and post the round
   and match ends still owed (the publisher's outbox; a finished match's table is redrawn);
5. sync the slash commands: to ``DEV_GUILD_ID`` (instant, for development) or globally.

With ``HEALTH_PORT`` set, the health and metrics server (:mod:`bot.ops`) listens first, before the
database opens, so a probe sees the start as it goes (503 until the gateway is READY); the metrics
hear the service's saves (its :class:`~bot.service.meter.Meter`) and the clicks (:mod:`cogs.clicks`).

:meth:`RommeBot.close` stops the service's timers and the table edits, unloads the extensions,
disconnects (no click arrives any more), waits for the changes under way to be saved, gives the shard
leases back, then closes the database (and its file lock), and the health server last.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.i18n import CATALOGS, DEFAULT_LOCALE, locale_of, t
from bot.ops import Metrics, OpsServer
from bot.publish import TablePublisher
from bot.publish.emojis import FaceKeeper, ensure_card_faces, install_faces, uninstall_faces
from bot.publish.ports import Ports
from bot.render.faces import Face
from bot.service import TableService
from bot.service.game import Game, replay_snapshot
from bot.service.listener import Reason
from bot.service.retention import Retention
from bot.service.shards import LeaseStore, ShardLeases, ShardSet, everything
from bot.storage.interface import Database, open_database

log = logging.getLogger(__name__)

T = TypeVar("T")

EXTENSIONS: tuple[str, ...] = ("cogs.romme",)
"""The extensions loaded at start, in order."""


def built(part: T | None, missing: str) -> T:
    """``part`` once it is built; ``RuntimeError(missing)`` before (a part made at start-up, read
    through a property).

    >>> built(3, "not yet")
    3
    >>> built(None, "the service is not built")
    Traceback (most recent call last):
    ...
    RuntimeError: the service is not built
    """
    if part is None:
        raise RuntimeError(missing)
    return part


def wall_clock() -> float:
    """Epoch seconds for the service's deadlines, from discord.py's clock (a test harness may drive
    it): the bot's one clock, given to the table service, the storage and the compaction alike.

    >>> wall_clock() > 1_700_000_000
    True
    """
    return discord.utils.utcnow().timestamp()


def bot_intents() -> discord.Intents:
    """The gateway intents the bot asks for: servers and channels only, nothing privileged.

    Slash commands and components arrive as interactions whatever the intents, and the bot never
    reads messages or the member list.

    >>> bot_intents().guilds, bot_intents().message_content, bot_intents().members
    (True, False, False)
    """
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class CatalogTranslator(app_commands.Translator):
    """The slash commands' texts in every language the bot speaks, from the catalog (:mod:`bot.i18n`).

    A ``locale_str`` made with ``key=`` (the ``slash.*`` keys, see :func:`cogs.romme.text`) is looked
    up in the catalog of the Discord locale (``de``, ``id``); English locales, any other locale and a
    string without a key keep the English text (``None``: Discord shows the default).
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of ``string`` in ``locale``, or ``None`` for the English default.

        >>> import asyncio
        >>> s = app_commands.locale_str("Draw", key="button.draw")
        >>> context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
        >>> translate = CatalogTranslator().translate
        >>> [asyncio.run(translate(s, discord.Locale(code), context)) for code in ("de", "id", "en-GB", "fr")]
        ['Ziehen', 'Ambil kartu', None, None]
        """
        key = string.extras.get("key")
        language = locale_of(locale)
        if not isinstance(key, str) or language == DEFAULT_LOCALE or key not in CATALOGS[language]:
            return None
        params = string.extras.get("params")
        # A text with numbers of its own (a choice's count, an option's default) is formatted here.
        return t(key, language, **params) if isinstance(params, dict) else CATALOGS[language][key]


class _ToPublisher:
    """The table service's listener: each change made without a click, passed on to the bot's
    publisher (the port that breaks the service ↔ publisher cycle: the service is built first)."""

    def __init__(self, bot: RommeBot) -> None:
        self._bot = bot

    async def game_changed(self, game: Game, *, reason: Reason) -> None:
        """Tell the publisher (built right after the service, before any change can be made)."""
        await self._bot.publisher.game_changed(game, reason=reason)


class RommeBot(commands.Bot):
    """The Rommé bot. Build it with :func:`create_bot`; ``bot.start(token)`` connects it."""

    def __init__(self, settings: Settings) -> None:
        """A bot that is not logged in yet; nothing is opened before :meth:`setup_hook`."""
        super().__init__(
            # Only slash commands are used; a mention prefix keeps commands.Bot happy without the
            # message-content intent.
            command_prefix=commands.when_mentioned,
            help_command=None,
            intents=bot_intents(),
            **self._shard_options(),
            # A table mentions the person on turn; nobody can make the bot ping @everyone or a role.
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=True, replied_user=False
            ),
        )
        self.settings = settings
        self._storage: Database | None = None
        self._leases: ShardLeases | None = None
        self._closing: asyncio.Future[None] | None = None
        self._stopped: asyncio.Future[None] | None = None
        self.stop_grace: float | None = None
        """Seconds :meth:`close` waits for the changes under way to be saved; ``None``: as long as
        they take (the command line sets :data:`bot.__main__.STOP_GRACE`)."""
        self._tables: TableService | None = None
        self._publisher: TablePublisher | None = None
        self.card_faces: dict[str, Face] | None = None
        """The card faces (the application's emojis) by card code; ``None``: cards are text."""
        self.retention: Retention | None = None
        """Compacts old matches' moves (``HISTORY_DAYS``), once :meth:`setup_hook` has run."""
        self.faces: FaceKeeper | None = None
        """The faces in use, checked again when Discord says one is gone (once started)."""
        self.metrics: Metrics | None = Metrics(self) if settings.health_port is not None else None
        """The bot's metrics (``HEALTH_PORT`` set), served with the health at ``/metrics``; ``None``: off."""
        self.ops: OpsServer | None = None
        """The health and metrics server, once listening."""

    def _shard_options(self) -> dict[str, Any]:
        """What the gateway is told about shards (nothing: discord.py decides, one connection)."""
        return {}

    @property
    def storage(self) -> Database:
        """The open database; raises ``RuntimeError`` before :meth:`setup_hook` or after :meth:`close`."""
        if self._storage is None or self._storage.closed:
            raise RuntimeError("the bot's storage is not open (setup_hook has not run, or the bot is closed)")
        return self._storage

    @property
    def tables(self) -> TableService:
        """The table service; raises ``RuntimeError`` before :meth:`setup_hook`."""
        return built(self._tables, "the bot's table service is not built (setup_hook has not run)")

    @property
    def leases(self) -> ShardLeases | None:
        """This process's shard leases (PostgreSQL with ``SHARD_COUNT``), once taken; else ``None``."""
        return self._leases

    @property
    def publisher(self) -> TablePublisher:
        """The table messages and announcements; raises ``RuntimeError`` before :meth:`setup_hook`."""
        return built(self._publisher, "the bot's publisher is not built (setup_hook has not run)")

    async def setup_hook(self) -> None:
        """Open the database, build the service and the publisher, load the cogs (which register
        persistent components), bring back the unfinished games, sync the commands."""
        settings = self.settings
        if self.metrics is not None and settings.health_port is not None:
            self.ops = OpsServer(self, self.metrics, host=settings.health_host, port=settings.health_port)
            await self.ops.start()
        # One clock for the game and for every time the storage writes of it (a simulated one under
        # SimCord and in the playground): the history, the export and HISTORY_DAYS follow the game.
        self._storage = await open_database(settings.database, replay=replay_snapshot, clock=wall_clock)
        log.info("database %s is open", self._storage.path)
        shards = self.shard_set
        if shards is not None and isinstance(self._storage, LeaseStore):
            # Several processes share the database: this one plays only its shards, under a lease.
            self._leases = ShardLeases(
                self._storage,
                shards,
                owner=lease_owner(),
                ttl=settings.lease_seconds,
                lost=self._shards_lost,
            )
            await self._leases.take()
        # The service tells the publisher of the changes it makes without a click, and the publisher
        # reads the service's games: a genuine cycle. The service is given a narrow port, a listener
        # that passes each change on to the publisher built right after it (see _ToPublisher).
        self._tables = TableService(
            self._storage,
            computer_delay=settings.computer_delay,
            clock=wall_clock,
            seed=settings.game_seed,
            lobby_timeout=settings.lobby_timeout,
            idle_timeout=settings.idle_game_timeout,
            max_lobbies_per_host=settings.max_lobbies_per_host,
            owns=shards.owns if shards is not None else everything,
            listener=_ToPublisher(self),
            meter=self.metrics,
        )
        # Before any table is drawn: the card faces on the application (CARD_STYLE=emoji), or text.
        if settings.card_style == "emoji":
            # With several processes (shards) another one may still show faces of another drawing.
            self.card_faces = await ensure_card_faces(self, prune=self.shard_set is None)
        install_faces(self.card_faces)
        self.faces = FaceKeeper(self, self.card_faces)
        # The publisher sees the service and the storage through its ports only. What each member
        # chose (/romme preferences): their panels' language, cards and order, and whether the
        # table calls them by a mention.
        self._publisher = TablePublisher(
            Ports(channels=self, tables=self._tables, outbox=self._storage),
            interval=settings.table_edit_interval,
            edits_per_second=settings.table_edits_per_second,
            preferences=self._tables.book.cached,
            quiet=self._tables.book.quiet,
            faces=self.faces,
        )
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        games = await self._tables.load()
        log.info("%d unfinished games are back", len(games))
        # HISTORY_DAYS: the moves of old matches go, their results stay.
        self.retention = Retention(
            self._storage, settings.history_days, clock=wall_clock, compacted=self._tables.replays.cache.clear
        )
        self.retention.start()
        # The round and match ends still owed (the last bot stopped before posting them) go out now.
        await self._publisher.resume()
        await self.sync_commands()

    async def reopen_thread(self, thread_id: int, /) -> bool:
        """Unarchive the game's thread ``thread_id`` (Discord lets a member who may post there
        unarchive a thread that is not locked); False, and nothing changed, if a moderator locked it
        or it is no thread. Raises what Discord answers (a thread that is gone: 404)."""
        data: Any = await self.http.get_channel(thread_id)
        meta = data.get("thread_metadata")
        if not isinstance(meta, dict) or meta.get("locked"):
            return False
        if meta.get("archived"):
            await self.http.edit_channel(thread_id, archived=False)
        return True

    def _shards_lost(self, missing: list[int]) -> None:
        # Another process plays these games now: this one must stop before it saves over them.
        log.error("stopping: shards %s were taken over by another process", missing)
        self._closing = asyncio.ensure_future(self.close())

    @property
    def shard_set(self) -> ShardSet | None:
        """The shards whose games this process plays (``SHARD_COUNT``/``SHARD_IDS``); ``None``: all."""
        ids = self.settings.shards
        count = self.settings.shard_count
        return None if ids is None or count is None else ShardSet(ids=ids, count=count)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Send the command tree to Discord: to ``DEV_GUILD_ID`` only, if set, else globally.

        A global sync can take a while to show up in every client; a server sync is instant, which
        is why development uses ``DEV_GUILD_ID``.
        """
        guild_id = self.settings.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
        else:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        log.info(
            "synced %d commands to %s", len(synced), f"server {guild_id}" if guild_id else "every server"
        )
        return synced

    async def on_ready(self) -> None:
        """Log who the bot is once the gateway is ready."""
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the timers and the table edits, unload the cogs, disconnect, wait for the changes
        under way to be saved, give the shard leases back, then close the database and the health
        server. A second call
        (also one made while the first runs) returns once the first is done."""
        if self._stopped is None:
            self._stopped = asyncio.ensure_future(self._close())
        await asyncio.shield(self._stopped)

    async def _close(self) -> None:
        try:
            if self.retention is not None:
                await self.retention.close()
            if self._tables is not None:
                await self._tables.close()
            if self._publisher is not None:
                await self._publisher.close()
            await super().close()
            if self._tables is not None:
                # No click arrives any more and the timers are stopped: what is under way is saved
                # before the leases go back and the database closes (it would be refused after).
                try:
                    await asyncio.wait_for(self._tables.changes.settle(), self.stop_grace)
                except TimeoutError:
                    log.warning(
                        "stopping: changes still under way after %s s are not waited for", self.stop_grace
                    )
        finally:
            uninstall_faces(self.card_faces)
            try:
                if self._leases is not None:
                    await self._leases.close()
            finally:
                try:
                    if self._storage is not None:
                        await self._storage.close()
                finally:
                    if self.ops is not None:
                        await self.ops.close()


class ShardedRommeBot(RommeBot, commands.AutoShardedBot):
    """The bot with ``SHARD_COUNT`` set: an ``AutoShardedBot`` running the shards of ``SHARD_IDS``
    (all of them if unset) on one gateway connection each; it plays only their servers' games."""

    def __init__(self, settings: Settings) -> None:
        """A sharded bot that is not logged in yet."""
        self._shard_settings = (settings.shard_count, list(settings.shards or ()))
        super().__init__(settings)

    def _shard_options(self) -> dict[str, Any]:
        count, ids = self._shard_settings
        return {"shard_count": count, "shard_ids": ids}


def lease_owner() -> str:
    """Who this process is in the shard leases: its host and process id (as
    :func:`bot.storage.postgres.default_owner`, which the command line uses before the bot starts).

    >>> "pid" in lease_owner()
    True
    """
    return f"{socket.gethostname()} pid {os.getpid()}"


def create_bot(settings: Settings | None = None, **overrides: Any) -> RommeBot:
    """The bot, not logged in: ``settings`` (default: the defaults, NOT the environment) with
    ``overrides`` by keyword: ``database_path``, ``turn_timeout``, ``computer_delay``,
    ``dev_guild_id``, ``log_level``, ``token``, ``game_seed``, ``table_edit_interval``,
    ``table_edits_per_second``, ``lobby_timeout``, ``idle_game_timeout``, ``max_lobbies_per_host``,
    ``card_style``, ``health_port``, ``health_host``.
    No token is needed to build it; only to connect.

    Tests and benchmarks build the bot only through this; the command line passes the settings
    read by :func:`bot.config.load_settings`.

    >>> create_bot(computer_delay=0).settings.computer_delay
    0.0
    """
    chosen = (settings or Settings()).with_overrides(**overrides)
    if chosen.shard_count is not None:
        return ShardedRommeBot(chosen)
    return RommeBot(chosen)
