"""The playground's world: the real bot inside SimCord, one server, one ``#romme`` channel, a browser page.

:class:`Playground` is what ``romme-bot playground`` runs and what the tests start in-process::

    async with Playground(PlaygroundOptions(computers=2)) as playground:
        print(playground.url)          # the page, on 127.0.0.1 only; the address holds its secret
        await playground.wait_closed()

The bot is built by :func:`bot.create_bot` with the same cogs as on Discord and a real SQLite file.
SimCord's preview serves the page: every click there is a real interaction that the bot's real
callbacks answer.

SimCord keeps a virtual clock, but a timer that nothing waits for on purpose also gets a wall-clock
fallback, so the service's computer delays and turn timers fire in real time here. Two things make
that pleasant in a browser, and both live in this module:

- the settle timeout (how long a click waits for the bot's follow-up work) is shorter than the
  computer delay, so a click answers at once and the computers' moves come afterwards, one by one;
- the page only shows what was *published* to it, and moves made by timers are published by
  nobody, so :meth:`Playground._republish_changes` republishes the pages when the simulated Discord
  changed outside a click.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import logging
import tempfile
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from bot.client import built
from bot.config import Settings
from bot.engine.round import MAX_SEATS

if TYPE_CHECKING:
    import discord
    from simcord import Env, MemberActor
    from simcord.builders import ChannelHandle
    from simcord.preview import Preview
    from simcord.results import InteractionResult

    from bot.client import RommeBot
    from bot.render.faces import Face
    from bot.service.game import Game

# The name the playground's log lines have always shown, kept when the module moved into the package.
log = logging.getLogger("bot.playground_session")


PEOPLE_NAMES: tuple[str, ...] = ("Sam", "Alex", "Bea", "Chris", "Dana", "Eli")
"""The simulated people, in order: the first is the one playing. A name, not "you": the screens say
"Host: Sam" and "Sam's table", where "you" read as "Host: you" and "you's table"."""
PEOPLE_NAMES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": PEOPLE_NAMES,
    "de": ("Lena", "Jonas", "Mia", "Paul", "Emma", "Felix"),
    "id": ("Sari", "Budi", "Dewi", "Agus", "Rina", "Eko"),
}
"""The people's names at a table of each language (a German screen shows German names)."""

PAGE_LOCALES: tuple[str, ...] = ("en", "en-US", "en-GB", "de", "id")
"""The Discord locales ``--locales`` takes: those the bot speaks (``en`` is ``en-US``)."""

BOT_NAME = "Rommé"
"""The bot's display name in the page (SimCord calls every bot "TestBot")."""

EMOJI_CDN = "https://cdn.simcord.invalid/emojis"
"""Where SimCord's preview loads a custom emoji's picture from (``<id>.png``)."""

REPUBLISH_INTERVAL = 0.25
"""Seconds between two checks for changes made outside a click (about half the page's poll)."""
COUNTDOWN_STEP = 10
"""Under a minute left, the page's countdown is redrawn every this many seconds ("in 45 seconds");
above, once a minute ("in 2 minutes", "in 1 minute"): the page writes a Discord timestamp relative
to the moment it was drawn, and a redraw closes a menu the person has open, so not more often."""

_PINNED = 1_483_228_800_000 << 22
"""A snowflake of 2025-01-01, before SimCord's clock starts (2026-01-01): the playground's own ids
are taken from here on, so they never meet one SimCord allocates."""

GUILD_ID = _PINNED | 1
"""The playground server's id, the same on every start (a saved game names its server)."""
CHANNEL_ID = _PINNED | 2
"""``#romme``'s id, the same on every start: a game saved there is found there again."""
PEOPLE_IDS: tuple[int, ...] = tuple(_PINNED | (16 + n) for n in range(len(PEOPLE_NAMES)))
"""The people's user ids, "you" first, the same on every start (a saved seat names its person)."""


class MissingExtra(RuntimeError):
    """The preview's optional dependencies are not installed; the message says what is missing."""


def require_extra() -> None:
    """Raise :class:`MissingExtra` unless SimCord and its preview runtime can be imported.

    SimCord checks the same modules when a preview starts; checking first means nothing is
    started (no bot, no database) when they are missing.
    """
    import importlib.util

    try:
        import simcord  # noqa: F401
    except ImportError as exc:
        raise MissingExtra(f"simcord is not installed ({exc.name})") from None
    # The modules SimCord's preview imports when it starts (simcord.preview._PREVIEW_RUNTIME_MODULES).
    modules = ("aiohttp", "markdown_it", "linkify_it", "regex", "PIL")
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise MissingExtra(f"missing {', '.join(missing)}")


@dataclass(frozen=True)
class PlaygroundOptions:
    """What the playground starts with; the defaults are those of ``romme-bot playground``.

    >>> PlaygroundOptions(people=2, computers=1).names
    ('Sam', 'Alex')
    >>> PlaygroundOptions(people=2, computers=1, language="de").names
    ('Lena', 'Jonas')
    >>> PlaygroundOptions(locales=("fr",))
    Traceback (most recent call last):
    ...
    ValueError: locale fr is not one the bot speaks: en, en-US, en-GB, de or id
    >>> PlaygroundOptions(people=4, computers=3)
    Traceback (most recent call last):
    ...
    ValueError: 4 people and 3 computers make 7 seats; a table has at most 6
    """

    database_path: Path | None = None
    """The SQLite file; ``None`` makes a fresh one in a new temporary folder."""
    people: int = 1
    """Simulated people in the server, the first being "you"; the page can view the game as any."""
    computers: int = 2
    """Computer seats in the lobby the playground opens."""
    port: int = 0
    """The page's port on 127.0.0.1; 0 picks a free one."""
    computer_delay: float = Settings().computer_delay
    """Seconds between two computer moves."""
    turn_timeout: float = Settings().turn_timeout
    """Seconds a person has for a turn before the computer plays it."""
    open_lobby: bool = True
    """Open the lobby at start (``/romme start`` typed by "you")."""
    seat_others: bool = True
    """The other people sit down in that lobby too (``/romme join``); else they only watch."""
    rules: dict[str, Any] = field(default_factory=dict)
    """More options of ``/romme start`` (``opening``, ``rounds``, ``jokers``…)."""
    seed: int | None = None
    """Deal and play the computers from this seed (a scripted game replays exactly)."""
    settle_timeout: float | None = None
    """Seconds a click waits for the bot's follow-up work; ``None``: a little under the computer delay."""
    language: str | None = None
    """The table's language (``/romme start language:``): ``en``, ``de`` or ``id``; ``None``: the
    server's, which is English; a language given is also the server's and the people's locale."""
    locales: tuple[str, ...] = ()
    """The people's Discord locales, "you" first (``de``, ``id``, ``en-US``…); those not given have
    ``language``'s, else ``en-US``. Each one's hand panel speaks theirs."""
    person_names: tuple[str, ...] = ()
    """The people's names, the one playing first; empty: those of :data:`PEOPLE_NAMES_BY_LANGUAGE`."""
    health_port: int | None = None
    """Serve ``/healthz`` and ``/metrics`` on this port (``HEALTH_PORT``); ``None``: off."""
    health_host: str = Settings().health_host
    """The address of the health and metrics server (``HEALTH_HOST``)."""

    def __post_init__(self) -> None:
        if not 1 <= self.people <= MAX_SEATS:
            raise ValueError(f"people must be 1 to {MAX_SEATS}, not {self.people}")
        if not 0 <= self.computers <= MAX_SEATS - 1:
            raise ValueError(f"computers must be 0 to {MAX_SEATS - 1}, not {self.computers}")
        if self.people + self.computers > MAX_SEATS:
            raise ValueError(
                f"{self.people} people and {self.computers} computers make "
                f"{self.people + self.computers} seats; a table has at most {MAX_SEATS}"
            )
        if self.language not in (None, "en", "de", "id"):
            raise ValueError(f"language must be en, de or id, not {self.language}")
        if self.person_names and len(self.person_names) < self.people:
            raise ValueError(f"{len(self.person_names)} names for {self.people} people")
        if len(self.locales) > self.people:
            raise ValueError(f"{len(self.locales)} locales for {self.people} people")
        for locale in self.locales:
            if locale not in PAGE_LOCALES:
                # Accepted, "fr" would silently play in English: say so instead.
                raise ValueError(
                    f"locale {locale} is not one the bot speaks: {', '.join(PAGE_LOCALES[:-1])} or id"
                )
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port must be 0 to 65535, not {self.port}")

    @property
    def names(self) -> tuple[str, ...]:
        """The people's names, the one playing first: :attr:`person_names`, else names of the
        table's language (:data:`PEOPLE_NAMES_BY_LANGUAGE`)."""
        return (self.person_names or PEOPLE_NAMES_BY_LANGUAGE[self.language or "en"])[: self.people]

    def locale_of(self, person: int) -> str | None:
        """The Discord locale of person number ``person`` ("you" is 0), ``None`` for SimCord's en-US.

        >>> options = PlaygroundOptions(people=3, computers=0, language="de", locales=("id",))
        >>> [options.locale_of(n) for n in range(3)]
        ['id', 'de', 'de']
        """
        if person < len(self.locales):
            locale = self.locales[person]
            return "en-US" if locale == "en" else locale
        return self.language


def bot_settings(options: PlaygroundOptions, database_path: Path) -> dict[str, Any]:
    """The ``create_bot`` overrides for ``options``."""
    overrides: dict[str, Any] = {
        "database_path": database_path,
        "computer_delay": options.computer_delay,
        "turn_timeout": options.turn_timeout,
        # Every command is synced to the one simulated server, as DEV_GUILD_ID does on Discord.
        "dev_guild_id": None,
        "game_seed": options.seed,
        "health_port": options.health_port,
        "health_host": options.health_host,
    }
    return overrides


class Playground:
    """The running playground: ``async with Playground(options) as pg`` starts everything.

    Attributes once entered: :attr:`env` (SimCord's world), :attr:`bot`, :attr:`channel` (``#romme``),
    :attr:`people` (``MemberActor`` handles, "you" first), :attr:`preview`, :attr:`database_path`,
    :attr:`lobby` (the ``/romme start`` result, when the lobby was opened).
    """

    def __init__(self, options: PlaygroundOptions | None = None) -> None:
        """Nothing starts before ``__aenter__``."""
        self.options = options or PlaygroundOptions()
        self.database_path = (
            self.options.database_path or Path(tempfile.mkdtemp(prefix="romme-playground-")) / "romme.db"
        )
        self.bot: RommeBot | None = None
        self._env: Env | None = None
        self._preview: Preview | None = None
        self._channel: ChannelHandle | None = None
        self.people: list[MemberActor] = []
        self.lobby: InteractionResult | None = None
        self._clock: contextlib.AbstractContextManager[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._locales: contextlib.ExitStack = contextlib.ExitStack()
        self._published = 0
        self._published_at = 0.0
        self._countdown: tuple[str, int] | None = None
        self.countdown_tick = 0
        """Moves when the page's countdown shows another text: the messages showing one are drawn
        again then (:func:`relative_times_redrawn`), and only then."""
        self._wall_start: tuple[float, datetime.datetime] | None = None
        self._page_channel: ChannelHandle | None = None
        self._error_cursor = 0
        self._face_assets: dict[str, tuple[str, bytes]] | None = None
        self.resumed: Game | None = None
        """The game found running (or its lobby open) in ``#romme`` at start, if any: its table was
        posted again instead of a new lobby."""

    # ----------------------------------------------------------------- access

    @property
    def env(self) -> Env:
        """SimCord's world; raises before ``__aenter__``."""
        return built(self._env, "the playground is not running")

    @property
    def preview(self) -> Preview:
        """The page server; raises before ``__aenter__``."""
        return built(self._preview, "the playground is not running")

    @property
    def channel(self) -> ChannelHandle:
        """The ``#romme`` channel."""
        return built(self._channel, "the playground is not running")

    @property
    def page_channel(self) -> ChannelHandle:
        """The channel the page shows: ``#romme``, or the thread of a game played in one."""
        return self._page_channel or self.channel

    @property
    def url(self) -> str:
        """The page's address on 127.0.0.1, with its secret after ``#``: whoever has it can play."""
        return self.preview.url

    @property
    def origin(self) -> str:
        """The page's address without the secret (``http://127.0.0.1:<port>``)."""
        return self.url.split("/#", 1)[0]

    @property
    def capability(self) -> str:
        """The page's secret (the part of :attr:`url` after ``#``)."""
        return self.url.split("#", 1)[1]

    # -------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> Playground:
        require_extra()
        from simcord import Env

        # Imported here: `romme-bot --help` and a bad setting must not wait for discord to load.
        from bot.client import create_bot

        self.database_path.parent.mkdir(parents=True, exist_ok=True)
        self.bot = create_bot(**bot_settings(self.options, self.database_path))
        settle = self.options.settle_timeout
        if settle is None:
            # Shorter than the computer delay: a click returns before the computers move (module doc).
            settle = max(0.2, min(1.0, self.options.computer_delay * 0.6))
        env = Env(self.bot, check_errors=False, settle_timeout=settle)
        with contextlib.suppress(AttributeError):
            # Cosmetic: SimCord names every bot "TestBot"; the backend is not public API.
            env.backend.bot_user.global_name = BOT_NAME
        # SimCord's clock starts at the same instant every time: it goes on from where the last
        # playground on this database left it, so the saved deadlines keep their meaning.
        saved = load_clock(self.database_path)
        if saved is not None and saved > env.now():
            env.backend.advance_clock((saved - env.now()).total_seconds())
        try:
            await env.start()
            self._env = env
            self._clock = env.time_context()
            self._clock.__enter__()
            self._build_world(env)
            chosen = {p.id: loc for n, p in enumerate(self.people) if (loc := self.options.locale_of(n))}
            if self.options.language is not None:
                chosen[GUILD_ID] = self.options.language
            if chosen:
                self._locales.enter_context(interaction_locales(chosen))
            self._locales.enter_context(stale_clicks_delivered())
            self._locales.enter_context(relative_times_redrawn(lambda: self.countdown_tick))
            self.resumed = self.bot.tables.game_in_channel(self.channel.id)
            if self.resumed is not None:
                # The saved table message is not in this new simulated Discord: post it again.
                await self.bot.publisher.repost_table(self.resumed)
            elif self.options.open_lobby:
                await self._open_lobby()
            await self._open_preview(self.people, self.options.port)
            if self.resumed is not None:
                table = self.table_message()
                if table is not None:
                    await self.preview.show(table)
            elif self.lobby is not None and self.lobby.response is not None:
                await self.preview.show(self.lobby)
            self._watcher = asyncio.get_running_loop().create_task(
                self._republish_changes(), name="playground-republish"
            )
        except BaseException:
            await self._shutdown()
            raise
        return self

    def _build_world(self, env: Env) -> None:
        """The server, ``#romme`` and the people, with the same ids on every start (SimCord's own
        ids depend on what happened before): a game saved by an earlier playground is theirs."""
        guild = env.create_guild("Rommé playground", id=GUILD_ID)
        with pinned_id(env, CHANNEL_ID):
            self._channel = guild.create_text_channel("romme")
        self.people = []
        for name, user_id in zip(self.options.names, PEOPLE_IDS, strict=False):
            with pinned_id(env, user_id):
                user = env.create_user(name)
            self.people.append(guild.add_member(user))

    def table_message(self) -> discord.Message | None:
        """The table message of the game in ``#romme`` (or its lobby), as "you" sees it, if shown."""
        game = self.bot.tables.game_in_channel(self.channel.id) if self.bot is not None else None
        if game is None or game.table_message_id is None:
            return None
        for message in self.channel.history(viewer=self.people[0]):
            if message.id == game.table_message_id:
                return message
        return None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._shutdown()

    async def _open_preview(
        self, viewers: Sequence[MemberActor], port: int, *, capability: str | None = None
    ) -> None:
        if self._face_assets is None:
            faces = self.bot.card_faces if self.bot is not None else None
            self._face_assets = await asyncio.to_thread(face_assets, faces)
        preview = self.env.preview(
            self.page_channel,
            viewers=list(viewers),
            layout="channel",
            port=port,
            assets=self._face_assets,
            locale=page_locale(self.options.locale_of(0)),
        )
        if capability is not None:
            # The same address as before: the open browser page goes on working.
            preview.capability = capability
        # Every publication, a click's own too, is counted: the watcher then republishes only what
        # changed since (a needless republish makes the page's next click "stale").
        publish = preview._publish

        def counted(*args: Any, **kwargs: Any) -> None:
            self._published = len(self.env.backend.transcript)
            self._published_at = asyncio.get_running_loop().time()
            publish(*args, **kwargs)

        preview._publish = counted  # type: ignore[method-assign]
        self._preview = preview
        await preview.__aenter__()

    async def _open_lobby(self) -> None:
        you, *others = self.people
        options = {"computers": self.options.computers, **self.options.rules}
        if self.options.language is not None:
            options["language"] = self.options.language
        self.lobby = await you.slash(self.channel, "romme start", **options)
        lobby = self.lobby.response
        join = _custom_id(lobby.components if lobby else [], "join")
        if self.options.seat_others and lobby is not None and join is not None:
            for person in others:
                # The lobby's Join button, as a person would click it (the lobby is edited in place).
                await person.click(lobby, custom_id=join)

    async def view_as(self, person: MemberActor) -> None:
        """Serve the page again with ``person`` as the one a new browser page views as.

        The old address stops working (a new preview means a new secret); :attr:`url` is the new one,
        showing the latest message.
        """
        await self.preview.close()
        viewers = [person, *(p for p in self.people if p.id != person.id)]
        await self._open_preview(viewers, self.options.port)

    async def wait_closed(self) -> None:
        """Return when the page's "End preview session" was used (or the preview closed)."""
        await self.preview.wait_closed()

    async def _shutdown(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None
        self._log_errors()
        self._save_clock()
        try:
            if self._preview is not None:
                await self._preview.close()
            if self._env is not None:
                await self._env.shutdown()
        finally:
            if self._clock is not None:
                self._clock.__exit__(None, None, None)
                self._clock = None
            self._locales.close()
            # SimCord detaches the bot without closing it; closing releases the database.
            if self.bot is not None:
                await self.bot.close()
            self._preview = None
            self._env = None

    # ------------------------------------------------------- live page updates

    def republish(self) -> None:
        """Show the current state of the simulated Discord on every open page.

        Synchronous on purpose: SimCord's public ``Preview.refresh()`` takes the env's operation
        guard and settles, and a click arriving meanwhile would be turned away. Publishing without
        an await cannot interleave with a click.
        """
        preview = self.preview
        self._published = len(self.env.backend.transcript)
        preview._advance_presentation_time()
        preview._publish_message_pages(reason="refresh")

    async def refresh(self) -> None:
        """Let the bot finish what it is doing (timers aside), then :meth:`republish`."""
        await self.env.settle()
        self.republish()

    def _busy(self) -> bool:
        # A click (or any env operation) in progress publishes its own result when it ends.
        env = self.env
        return env._operation_task is not None or self.preview._active_action is not None

    async def _republish_changes(self) -> None:
        # A click publishes the page that made it; this also brings the other open pages (another
        # viewer, another tab) up to date afterwards, and every page after a timer's move.
        loop = asyncio.get_running_loop()
        self._published = len(self.env.backend.transcript)
        self._wall_start = (loop.time(), self.env.now())
        while True:
            await asyncio.sleep(REPUBLISH_INTERVAL)
            self._log_errors()
            if self._busy():
                continue
            self._follow_wall_clock(loop.time())
            if await self._follow_thread_game():
                continue
            countdown = self._countdown_text()
            if countdown != self._countdown:
                self._countdown = countdown
                self.countdown_tick += 1
                self.republish()
            elif len(self.env.backend.transcript) != self._published:
                self.republish()
                self._save_clock()

    def _follow_wall_clock(self, wall: float) -> None:
        """Keep SimCord's clock on the wall clock. It moves only when a timer fires, so during a
        person's turn (no timer but the turn's own) it stood still, and the page, which writes the
        turn's deadline relative to it, said "in 2 minutes" for the whole two minutes."""
        if self._wall_start is None:
            return
        began_wall, began_virtual = self._wall_start
        target = began_virtual + datetime.timedelta(seconds=wall - began_wall)
        behind = (target - self.env.now()).total_seconds()
        if behind > 0.05:
            self.env.backend.advance_clock(behind)

    def _countdown_text(self) -> tuple[str, int] | None:
        """What the page's countdown of the game on the page says, in the page's own steps: whole
        minutes (it rounds), or :data:`COUNTDOWN_STEP` seconds under one; ``None``: none runs."""
        if self.bot is None:
            return None
        game = self.bot.tables.game_in_channel(self.page_channel.id)
        if game is None:
            return None
        deadline = game.turn_deadline if game.turn_deadline is not None else game.round_deadline
        if deadline is None:
            return None
        left = deadline - self.env.now().timestamp()
        if abs(left) >= 60:
            return ("minutes", round(left / 60))
        return ("seconds", int(left // COUNTDOWN_STEP))

    async def _follow_thread_game(self) -> bool:
        """Show on the page a game opened in a thread of ``#romme`` (``/romme start thread:True``):
        its link in the channel goes to discord.com, which the simulated thread is not on. The page
        keeps its address. True if the page moved."""
        if self.bot is None or self._preview is None:
            return False
        for thread in reversed(self.channel.threads):
            if thread.id == self.page_channel.id:
                return False
            game = self.bot.tables.game_in_channel(thread.id)
            if game is not None:
                await self.show_channel(thread)
                return True
        return False

    async def show_channel(self, channel: ChannelHandle) -> None:
        """Move the page to ``channel`` (``#romme`` or one of its threads), at the same address."""
        capability = self.preview.capability
        served = self.preview._server.port if self._preview is not None else None
        port = served if served is not None else self.options.port
        viewers = list(self.preview.viewers)
        await self.preview.close()
        self._page_channel = None if channel.id == self.channel.id else channel
        await self._open_preview(viewers, port, capability=capability)
        where = "#romme" if self._page_channel is None else f"the thread {channel.name!r}"
        log.warning("the page now shows %s: reload it (its address stays the same)", where)

    def _save_clock(self) -> None:
        # Kept after every change the pages show, and at the end: a restart goes on from here.
        if self._env is not None:
            with contextlib.suppress(OSError):
                save_clock(self.database_path, self._env.now())

    def _log_errors(self) -> None:
        if self._env is None:
            return
        for error in self._env.errors_since(self._error_cursor):
            log.error("the bot raised an error", exc_info=error)
        self._error_cursor = self._env.error_cursor


def clock_path(database_path: Path) -> Path:
    """Where the playground keeps its simulated clock beside ``database_path``.

    >>> clock_path(Path("games/romme.db")).as_posix()
    'games/romme.db.playground-clock'
    """
    return database_path.with_name(database_path.name + ".playground-clock")


def load_clock(database_path: Path) -> datetime.datetime | None:
    """The simulated instant the last playground on ``database_path`` reached, if it said.

    >>> import tempfile
    >>> db = Path(tempfile.mkdtemp()) / "romme.db"
    >>> load_clock(db) is None
    True
    >>> save_clock(db, datetime.datetime(2026, 1, 1, 0, 6, tzinfo=datetime.UTC))
    >>> load_clock(db)
    datetime.datetime(2026, 1, 1, 0, 6, tzinfo=datetime.timezone.utc)
    """
    try:
        text = clock_path(database_path).read_text().strip()
        instant = datetime.datetime.fromisoformat(text)
    except (OSError, ValueError):
        return None
    return instant if instant.tzinfo is not None else None


def save_clock(database_path: Path, instant: datetime.datetime) -> None:
    """Keep ``instant`` as the simulated clock of the playground on ``database_path``."""
    path = clock_path(database_path)
    scratch = path.with_name(path.name + ".new")
    scratch.write_text(instant.isoformat() + "\n")
    scratch.replace(path)


@contextlib.contextmanager
def pinned_id(env: Env, value: int) -> Iterator[None]:
    """Within the block, the next id SimCord allocates is ``value`` (once; the others are its own).

    SimCord takes a server's id as an argument (``create_guild(id=...)``) but not a channel's or a
    user's; this hands its allocator the id the playground keeps for them. It changes what the
    simulated Discord allocates, not the bot.
    """
    backend = env.backend
    allocate = backend.snowflake

    def once() -> int:
        backend.snowflake = allocate  # type: ignore[method-assign]
        return backend.reserve_id(value)

    backend.snowflake = once  # type: ignore[method-assign]
    try:
        yield
    finally:
        vars(backend).pop("snowflake", None)


def page_locale(locale: str | None) -> str:
    """The page's own locale for "you"'s Discord locale: it writes the times the bot gives as
    Discord timestamps (``<t:…:R>``, "in 2 minutes"), so a German table reads "in 2 Minuten".

    >>> page_locale("de"), page_locale(None), page_locale("xx")
    ('de', 'en-US', 'en-US')
    """
    import discord

    return locale if locale in {item.value for item in discord.Locale} else "en-US"


def face_assets(faces: Mapping[str, Face] | None) -> dict[str, tuple[str, bytes]]:
    """The pictures of the card faces for the preview, by the address it shows each emoji from.

    SimCord keeps an uploaded application emoji's name and id but not its picture, so the page
    would show an empty box: the preview is handed the same drawings the bot uploaded
    (:func:`bot.publish.emojis.painted_faces`). No faces (``CARD_STYLE=text``, or the upload
    failed): nothing to hand.

    >>> from bot.render.faces import Face
    >>> assets = face_assets({"10H": Face("10H", "romme_10h_x", 42)})
    >>> name, png = assets["https://cdn.simcord.invalid/emojis/42.png"]
    >>> name, png[:4]
    ('42.png', b'\x89PNG')
    >>> face_assets(None)
    {}
    """
    if not faces:
        return {}
    from bot.publish.emojis import painted_faces

    painted = painted_faces(faces)
    return {
        f"{EMOJI_CDN}/{face.id}.png": (f"{face.id}.png", painted[code][1]) for code, face in faces.items()
    }


@contextlib.contextmanager
def stale_clicks_delivered() -> Iterator[None]:
    """Within the block, the page's clicks and choices reach the bot even when the page had not yet
    drawn the newest state (a computer moved a moment before): SimCord's page refuses them as
    "stale-revision" ("Action was not completed"), where Discord delivers a click on any message
    the person sees. The bot refuses an out-of-date panel click itself, with a fresh panel. It
    changes what the simulated page accepts, not the bot."""
    from simcord.preview import _actions

    original = _actions.ACTION_SPECS
    relaxed = {
        kind: dataclasses.replace(spec, revision_bound=False) if kind in STALE_KINDS else spec
        for kind, spec in original.items()
    }
    _actions.ACTION_SPECS = types.MappingProxyType(relaxed)
    try:
        yield
    finally:
        _actions.ACTION_SPECS = original


@contextlib.contextmanager
def relative_times_redrawn(tick: Callable[[], int]) -> Iterator[None]:
    """Within the block, a message showing a relative time (``<t:…:R>``, "in 2 minutes") is drawn
    again by the page when ``tick()`` moved: the page keeps a drawn message until the message itself
    changes, so its countdown stood still. Each such message carries the tick in its snapshot. It
    changes what the simulated page draws, not the bot."""
    import simcord.preview

    module: Any = simcord.preview  # build_snapshot is the page module's own, not exported
    original = module.build_snapshot

    def stamped(preview: Any, page: Any) -> dict[str, Any]:
        snapshot: dict[str, Any] = original(preview, page)
        now = tick()
        for message in snapshot.get("messages", {}).values():
            if isinstance(message, dict) and RELATIVE_TIME in repr(message):
                message["countdownTick"] = now
        return snapshot

    module.build_snapshot = stamped
    try:
        yield
    finally:
        module.build_snapshot = original


RELATIVE_TIME = ":R>"
"""How a Discord timestamp written relative to now ends (``<t:1767225722:R>``)."""


STALE_KINDS = frozenset({"click", "select"})
"""The page's actions delivered whatever the page drew last: a button's click, a select's choice."""


@contextlib.contextmanager
def interaction_locales(chosen: Mapping[int, str]) -> Iterator[None]:
    """Within the block, SimCord's interactions carry the Discord locales of ``chosen``: a user id's
    as ``locale``, a server id's as ``guild_locale`` (SimCord sends ``en-US`` for both otherwise).
    It changes what the simulated Discord sends, not the bot."""
    import simcord.interactions

    original = simcord.interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = chosen.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = chosen.get(kwargs["guild_id"], "en-US")
        return record, payload

    simcord.interactions.base_payload = with_locale
    try:
        yield
    finally:
        simcord.interactions.base_payload = original


def _custom_id(components: Sequence[dict[str, Any]], action: str) -> str | None:
    """The custom id ``romme:<game>:<action>`` among raw message components, if there is one.

    >>> _custom_id([{"type": 1, "components": [{"custom_id": "romme:4:join"}]}], "join")
    'romme:4:join'
    """
    for component in components:
        custom_id = str(component.get("custom_id") or "")
        if custom_id.split(":")[2:3] == [action]:
            return custom_id
        found = _custom_id(component.get("components", []), action)
        if found is not None:
            return found
    return None
