"""A server's defaults (``/romme settings``) and a member's preferences (``/romme preferences``).

:class:`ServerSettings` is what a server's admins chose for every new game there: the house rules,
the language, the timeouts, the computer level, whether games open in threads, the channels games
may be started in, and the game-master role. :class:`MemberPreferences` is what one member chose for
themselves, the same on every server: cards as faces or as text, the hand's order, the language of
private answers, whether the table calls them by a mention. Both are plain values, checked here
(a bad value is a :class:`~bot.service.errors.TableError` naming what was wrong, changing nothing),
and kept by the storage as one JSON object each (:class:`SettingsBook`).

A value read back that this code no longer accepts (a range made narrower, a language dropped) is
left out, so the default stands for it: a stored row never keeps a server from starting games.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, NamedTuple, Protocol, Self, TypeVar

from bot.engine.computer import DEFAULT_LEVEL, LEVELS
from bot.engine.rules import RuleSet
from bot.service.errors import TableError
from bot.service.numbers import whole_number
from bot.service.seasons import DEFAULT_LENGTH, SeasonLength, check_length
from bot.storage.interface import Database, SettingsChange

log = logging.getLogger(__name__)

LANGUAGES = ("en", "de", "id")
"""The languages a server or a member may choose (the bot's catalogs)."""
TURN_TIMEOUT_RANGE = (30, 600)
"""Seconds a turn may last, as ``/romme start turn_timeout`` allows."""
LOBBY_TIMEOUT_RANGE = (1, 120)
"""Minutes a lobby nobody starts stays open."""
OPENING_RANGE = (0, 120)
ROUNDS_RANGE = (1, 12)
MEMBERS_KEPT = 100_000
"""Members whose preferences a process keeps in memory (the ones seen most lately)."""
MAX_CHANNELS = 25
"""Channels a server may name for its games (a channel select's most)."""
SEASON_DAYS_RANGE = (1, 366)
"""Days a season may last, when it lasts a number of days (:func:`~bot.service.seasons.check_length`)."""
MANUAL = "manual"
"""The stored and chosen word for seasons started only by ``/romme season`` (a length of ``None``)."""
ROLE_SETTING = "game_master_role"
"""The one setting only a member with Manage Server may change (set, change or clear): whoever holds
the role may change the others, so a game master who could change it could hand the right on."""

RULE_SETTINGS = tuple(f.name for f in fields(RuleSet))
"""The settings that are house rules: one per field of :class:`RuleSet`."""
SETTING_NAMES = (
    "language",
    *RULE_SETTINGS,
    "turn_timeout",
    "lobby_timeout",
    "computer_level",
    "threads",
    "channels",
    "game_master_role",
    "season_length",
)
"""Every server setting, in the order the panel shows them."""

CardStyle = Literal["faces", "text"]
HandSort = Literal["suit", "rank"]


def _number(name: str, value: object, low: int, high: int) -> int:
    """``value`` (typed, chosen, or read back) as a whole number from ``low`` to ``high``; a refusal
    quoting what was typed (at most 20 characters) otherwise.

    >>> _number("rounds", " 3 ", 1, 12)
    3
    >>> _number("rounds", "²", 1, 12)
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.not_a_number {'setting': 'rounds', 'value': '²'}
    """
    if isinstance(value, str):
        typed = value.strip()
        number = whole_number(typed)
        if number is None:
            raise TableError("settings.not_a_number", setting=name, value=typed[:20])
        value = number
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError("settings.not_a_number", setting=name, value=str(value)[:20])
    if not low <= value <= high:
        # A forged form may send a number of a hundred digits: the refusal quotes only its start.
        shown: int | str = value if len(str(value)) <= 20 else str(value)[:19] + "…"
        raise TableError("settings.out_of_range", setting=name, value=shown, low=low, high=high)
    return value


def _flag(name: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise TableError("settings.bad_value", setting=name)


def _one_of(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in allowed:
        return value
    raise TableError("settings.bad_value", setting=name)


def _season_length(value: object) -> SeasonLength:
    """A season length chosen or read back: ``"monthly"``, ``"manual"`` (``None``) or a number of
    days (as a number or its text).

    >>> _season_length("monthly"), _season_length("manual"), _season_length(" 7 "), _season_length(30)
    ('monthly', None, 7, 30)
    >>> _season_length("367")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.out_of_range {'setting': 'season_length', 'value': 367, ...}
    """
    if value == "monthly":
        return "monthly"
    if value == MANUAL:
        return None
    days = _number("season_length", value, *SEASON_DAYS_RANGE)
    return check_length(days)


@dataclass(frozen=True, slots=True)
class PickedRole:
    """A role picked to be the game-master role, as the plain facts the cog reads from Discord.

    >>> PickedRole(5, managed=True).managed, PickedRole(5).everyone
    (True, False)
    """

    id: int
    everyone: bool = False
    """It is @everyone (its id is the server's): every member would run the server's games."""
    managed: bool = False
    """Discord hands it out itself (a bot's or an integration's role, the boosters'): nobody can be
    given it, so it names no one the server chose."""
    above_bot: bool = False
    """It is at or above the bot's own highest role (Discord's role order)."""


def check_change(before: ServerSettings, after: ServerSettings, *, manages_server: bool) -> None:
    """Refuse a change of the server's settings the member may not make: the game-master role set,
    changed or cleared by a member without Manage Server (``settings.role_needs_manage_server``).
    Every way a setting is changed is asked, so no component, forged or not, can hand the role on.

    >>> master = ServerSettings(game_master_role=3)
    >>> check_change(master, master.changed("jokers", "6"), manages_server=False)
    >>> check_change(master, master.changed("game_master_role", None), manages_server=False)
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.role_needs_manage_server
    >>> check_change(master, ServerSettings(), manages_server=True)
    """
    if after.game_master_role != before.game_master_role and not manages_server:
        raise TableError("settings.role_needs_manage_server")


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's defaults for new games (``None``: the bot's own default).

    >>> s = ServerSettings().changed("jokers", "6").changed("turn_timeout", "90")
    >>> s.rules.jokers, s.turn_timeout, ServerSettings.from_dict(s.to_dict()) == s
    (6, 90, True)
    >>> weekly = ServerSettings().changed("season_length", "7")
    >>> weekly.season_length, weekly.to_dict(), ServerSettings().changed("season_length", "manual").to_dict()
    (7, {'season_length': 7}, {'season_length': 'manual'})
    >>> ServerSettings.from_dict({"season_length": "manual"}).season_length is None
    True
    >>> ServerSettings().changed("turn_timeout", 5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.out_of_range {'setting': 'turn_timeout', 'value': 5, ...}
    """

    language: str | None = None
    """The language of the server's new games; ``None``: the server's Discord language."""
    rules: RuleSet = field(default_factory=RuleSet)
    turn_timeout: int | None = None
    """Seconds; ``None``: the bot's ``TURN_TIMEOUT``."""
    lobby_timeout: int | None = None
    """Minutes; ``None``: the bot's ``LOBBY_TIMEOUT``."""
    computer_level: str = DEFAULT_LEVEL
    threads: bool = False
    """Whether a ``/romme start`` without ``thread`` opens its game in a thread."""
    channels: tuple[int, ...] = ()
    """The channels games may be started in (a thread counts as its channel); none: every one."""
    game_master_role: int | None = None
    """Members with this role may change these settings and stop any game of the server."""
    season_length: SeasonLength = DEFAULT_LENGTH
    """How long the ratings' seasons last: ``"monthly"``, a number of days, or ``None`` (only
    ``/romme season`` starts the next; chosen and stored as ``"manual"``)."""

    def changed(self, name: str, value: object) -> ServerSettings:
        """These settings with ``name`` set to ``value`` (a select's or a modal's text, or the value
        itself; ``"default"`` or ``None`` goes back to the default). Raises :class:`TableError`
        naming what was wrong, for an unknown setting or a value out of range.

        >>> three = ServerSettings().changed("rounds", "3")
        >>> three.rules.rounds, three.changed("rounds", "").rules.rounds
        (3, None)
        """
        if value in (None, "", "default"):
            return self._reset(name)
        if name == "language":
            return replace(self, language=_one_of(name, value, LANGUAGES))
        if name in ("jokers", "opening", "rounds"):
            low, high = {"jokers": (2, 6), "opening": OPENING_RANGE, "rounds": ROUNDS_RANGE}[name]
            number = _number(name, value, low, high)
            if name == "jokers" and number not in (2, 4, 6):
                raise TableError("settings.bad_value", setting=name)
            rule: dict[str, Any] = {name: number}
            return replace(self, rules=replace(self.rules, **rule))
        if name == "scoring":
            scoring: dict[str, Any] = {"scoring": _one_of(name, value, ("melds", "penalty"))}
            return replace(self, rules=replace(self.rules, **scoring))
        if name in ("hand_romme", "discard_to_go_out"):
            flag: dict[str, Any] = {name: _flag(name, value)}
            return replace(self, rules=replace(self.rules, **flag))
        if name == "turn_timeout":
            return replace(self, turn_timeout=_number(name, value, *TURN_TIMEOUT_RANGE))
        if name == "lobby_timeout":
            return replace(self, lobby_timeout=_number(name, value, *LOBBY_TIMEOUT_RANGE))
        if name == "computer_level":
            return replace(self, computer_level=_one_of(name, value, LEVELS))
        if name == "threads":
            return replace(self, threads=_flag(name, value))
        if name == "channels":
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) for v in value):
                raise TableError("settings.bad_value", setting=name)
            if len(value) > MAX_CHANNELS:
                raise TableError(
                    "settings.out_of_range", setting=name, value=len(value), low=0, high=MAX_CHANNELS
                )
            return replace(self, channels=tuple(dict.fromkeys(value)))
        if name == "game_master_role":
            if not isinstance(value, int) or isinstance(value, bool):
                raise TableError("settings.bad_value", setting=name)
            return replace(self, game_master_role=value)
        if name == "season_length":
            return replace(self, season_length=_season_length(value))
        raise TableError("settings.bad_value", setting=name)

    def _reset(self, name: str) -> ServerSettings:
        if name in RULE_SETTINGS:
            return replace(self, rules=replace(self.rules, **{name: getattr(RuleSet(), name)}))
        if name not in SETTING_NAMES:
            raise TableError("settings.bad_value", setting=name)
        return replace(self, **{name: getattr(ServerSettings(), name)})

    def with_game_master(self, role: PickedRole | None) -> ServerSettings:
        """These settings with ``role`` as the game-master role (``None``: none). Refused, naming
        what is wrong, for @everyone (``settings.role_everyone``), a managed role
        (``settings.role_managed``) and one at or above the bot's own (``settings.role_above_bot``):
        each would hand the right to people nobody chose. Who may make the change at all is
        :func:`check_change`'s.

        >>> ServerSettings().with_game_master(PickedRole(7)).game_master_role
        7
        >>> ServerSettings().with_game_master(PickedRole(1, everyone=True))
        Traceback (most recent call last):
        ...
        bot.service.errors.TableError: settings.role_everyone
        >>> ServerSettings(game_master_role=7).with_game_master(None).game_master_role is None
        True
        """
        if role is None:
            return replace(self, game_master_role=None)
        mention = f"<@&{role.id}>"
        if role.everyone:
            raise TableError("settings.role_everyone")
        if role.managed:
            raise TableError("settings.role_managed", role=mention)
        if role.above_bot:
            raise TableError("settings.role_above_bot", role=mention)
        return self.changed(ROLE_SETTING, role.id)

    def reset(self, *, manages_server: bool) -> ServerSettings:
        """Every default again (Reset all); a member without Manage Server keeps the game-master
        role as it is (only Manage Server changes it, :func:`check_change`).

        >>> ServerSettings(threads=True, game_master_role=3).reset(manages_server=False)
        ServerSettings(language=None, rules=RuleSet(...), ..., game_master_role=3, season_length='monthly')
        >>> ServerSettings(game_master_role=3).reset(manages_server=True) == ServerSettings()
        True
        """
        return ServerSettings() if manages_server else ServerSettings(game_master_role=self.game_master_role)

    def sets_games(self) -> bool:
        """Whether the server changed any default of its games (not only where and who).

        >>> ServerSettings(channels=(1,)).sets_games(), ServerSettings(threads=True).sets_games()
        (False, True)
        """
        where_and_who = replace(self, channels=(), game_master_role=None, season_length=DEFAULT_LENGTH)
        return where_and_who != ServerSettings()

    def runs_games(self, role_ids: Iterable[int]) -> bool:
        """Whether a member with these roles is a game master here (the role is set and theirs).

        >>> ServerSettings(game_master_role=3).runs_games([1, 3]), ServerSettings().runs_games([3])
        (True, False)
        """
        return self.game_master_role is not None and self.game_master_role in set(role_ids)

    def allows(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a game may start in ``channel_id`` (a thread: in ``parent_id``'s).

        >>> only_one = ServerSettings(channels=(1,))
        >>> ServerSettings().allows(5), only_one.allows(5), only_one.allows(9, 1)
        (True, False, True)
        """
        return not self.channels or channel_id in self.channels or parent_id in self.channels

    def to_dict(self) -> dict[str, Any]:
        """What the storage keeps: the settings that are not the default.

        >>> ServerSettings().to_dict(), ServerSettings(threads=True).to_dict()
        ({}, {'threads': True})
        """
        saved: dict[str, Any] = {}
        default = ServerSettings()
        for name in SETTING_NAMES:
            value = self.value(name)
            if value != default.value(name):
                saved[name] = list(value) if isinstance(value, tuple) else value
                if name == "season_length" and value is None:
                    saved[name] = MANUAL
        return saved

    def value(self, name: str) -> Any:
        """The value of one setting, a house rule as a rule (``rules.jokers`` is ``jokers``)."""
        return getattr(self.rules, name) if name in RULE_SETTINGS else getattr(self, name)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerSettings:
        """Settings read back; a value this code does not accept (any more) is left out, logged."""
        return _read_back(cls(), data, "server setting")


@dataclass(frozen=True, slots=True)
class MemberPreferences:
    """What one member chose for themselves, on every server.

    >>> p = MemberPreferences().changed("cards", "text").changed("language", "de")
    >>> p.cards, p.language, p.text_cards, MemberPreferences.from_dict(p.to_dict()) == p
    ('text', 'de', True, True)
    """

    cards: CardStyle = "faces"
    """``"text"``: cards as ``8♣`` everywhere this member looks (what a screen reader reads)."""
    sort: HandSort = "suit"
    """How a new hand panel of this member is sorted."""
    language: str | None = None
    """The language of private answers; ``None``: Discord's (the client's) language."""
    mention: bool = True
    """Whether the table message calls this member by a mention when it is their turn."""
    tipped: bool = False
    """Whether the member has had the one line of tip shown the first time they open My hand."""

    @property
    def text_cards(self) -> bool:
        """Whether this member's cards are text."""
        return self.cards == "text"

    def changed(self, name: str, value: object) -> MemberPreferences:
        """These preferences with ``name`` set to ``value``; :class:`TableError` for a bad one.

        >>> MemberPreferences().changed("sort", "colour")
        Traceback (most recent call last):
        ...
        bot.service.errors.TableError: settings.bad_value {'setting': 'sort'}
        """
        if name == "cards":
            return replace(self, cards=_one_of(name, value, ("faces", "text")))  # type: ignore[arg-type]
        if name == "sort":
            return replace(self, sort=_one_of(name, value, ("suit", "rank")))  # type: ignore[arg-type]
        if name == "language":
            language = None if value in (None, "default") else _one_of(name, value, LANGUAGES)
            return replace(self, language=language)
        if name == "mention":
            return replace(self, mention=_flag(name, value))
        if name == "tipped":
            return replace(self, tipped=_flag(name, value))
        raise TableError("settings.bad_value", setting=name)

    def to_dict(self) -> dict[str, Any]:
        """What the storage keeps: the preferences that are not the default."""
        default = MemberPreferences()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MemberPreferences:
        """Preferences read back; a value not accepted (any more) is left out."""
        return _read_back(cls(), data, "member preference")


class _Changeable(Protocol):
    def changed(self, name: str, value: object) -> Self: ...


_Values = TypeVar("_Values", bound=_Changeable)


def _read_back(default: _Values, data: dict[str, Any], what: str) -> _Values:
    """``default`` with each stored value of ``data`` that is still accepted; one that is not (any
    more) is left out and logged, so its default stands."""
    values = default
    for name, value in data.items():
        try:
            values = values.changed(name, value)
        except TableError:
            log.warning("%s %s=%r is not valid any more: its default stands", what, name, value)
    return values


class _Kept(NamedTuple):
    """A member's preferences as kept in memory, and the moment (:meth:`SettingsBook._tick`) the
    read or save that gave them began."""

    preferences: MemberPreferences
    since: int


class SettingsBook:
    """The servers' settings and the members' preferences, on the storage.

    A server's settings are read from the storage each time they are asked for (a ``/romme start``
    or the panel: rare), so every process sees a change at once. A member's preferences are also
    kept in memory once read (:meth:`cached`): a hand panel redrawn after another seat's move
    must know them without a read, and :attr:`quiet` names the members who asked not to be mentioned.

    Several processes may share the database: the book hears every save of a member's preferences
    (:meth:`~bot.storage.interface.Database.on_settings_changed`, PostgreSQL's notices; nothing on
    SQLite, where one process makes every change itself). What it kept of that member is then out of
    date: :meth:`known` reads it again, and it is read again at once in the background, so the
    panels the process draws follow too. When notices may have been missed (their connection was
    lost), everything kept is out of date, and each member is read again at their next click.
    """

    def __init__(self, storage: Database) -> None:
        """A book over ``storage``, hearing of its changes from now on.

        >>> import asyncio, tempfile, pathlib
        >>> from bot.storage.interface import open_database
        >>> async def demo(path):
        ...     storage = await open_database(path)
        ...     book = SettingsBook(storage)
        ...     await book.save_member(7, MemberPreferences(mention=False))
        ...     await book.save_server(1, ServerSettings(threads=True), manages_server=True)
        ...     found = (await book.server(1)).threads, book.cached(7).mention, 7 in book.quiet
        ...     await storage.close()
        ...     return found
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     asyncio.run(demo(pathlib.Path(folder) / "romme.db"))
        (True, False, True)
        """
        self.storage = storage
        self._members: dict[int, _Kept] = {}
        self.quiet: set[int] = set()
        """The members who asked not to be called by a mention when it is their turn (as read so far)."""
        self._now = 0
        """A count of the book's events (reads and saves begun, changes heard): its clock."""
        self._heard_all = 0
        """When it last heard that anything may have changed (its clock; 0: never)."""
        self._heard: dict[int, int] = {}
        """When it last heard of a change of each member kept or being read (its clock)."""
        self._busy: dict[int, int] = {}
        """The reads and saves under way, per member."""
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        """The members read again in the background after a change heard."""
        storage.on_settings_changed(self._changed)

    async def server(self, guild_id: int) -> ServerSettings:
        """Server ``guild_id``'s settings (every default if it never saved any). A game-master role
        that is the server's @everyone (its id is the server's, saved before
        :meth:`ServerSettings.with_game_master` refused it) is left out, logged: it would make every
        member a game master."""
        settings = ServerSettings.from_dict(await self.storage.guild_settings(guild_id))
        if settings.game_master_role == guild_id:
            log.warning("server %s: @everyone as the game-master role is not valid any more", guild_id)
            return replace(settings, game_master_role=None)
        return settings

    async def save_server(self, guild_id: int, settings: ServerSettings, *, manages_server: bool) -> None:
        """Keep ``settings`` as the server's (one write), changed by a member who has Manage Server
        or not: the one write of every change, so the settings saved now are read and
        :func:`check_change` asked first (a refused change writes nothing)."""
        check_change(await self.server(guild_id), settings, manages_server=manages_server)
        await self.storage.save_guild_settings(guild_id, settings.to_dict())

    async def member(self, user_id: int) -> MemberPreferences:
        """Member ``user_id``'s preferences, read afresh and kept in memory (unless what is kept
        came from a read or save begun later)."""
        since = self._begin(user_id)
        try:
            preferences = MemberPreferences.from_dict(await self.storage.member_preferences(user_id))
            kept = self._members.get(user_id)
            if kept is None or kept.since < since:
                self._keep(user_id, preferences, since)
        finally:
            self._end(user_id)
        return preferences

    async def known(self, user_id: int) -> MemberPreferences:
        """The member's preferences as kept in memory, read once if this process never read them or
        heard since that they changed (a click pays for one read per member and process, not one
        per click)."""
        kept = self._members.get(user_id)
        if kept is None or self._out_of_date(user_id, kept):
            return await self.member(user_id)
        return kept.preferences

    def cached(self, user_id: int) -> MemberPreferences:
        """The member's preferences as last read or saved here; the defaults if never."""
        kept = self._members.get(user_id)
        return kept.preferences if kept is not None else MemberPreferences()

    async def save_member(self, user_id: int, preferences: MemberPreferences) -> None:
        """Keep ``preferences`` as the member's (one write), and in memory."""
        since = self._begin(user_id)
        try:
            await self.storage.save_member_preferences(user_id, preferences.to_dict())
            self._keep(user_id, preferences, since)
        finally:
            self._end(user_id)

    # ------------------------------------------------------------------ changes heard

    def _changed(self, change: SettingsChange) -> None:
        """A change heard from the storage (see the class): a server's settings are read each time
        anyway; a member kept (or being read) is out of date, and read again."""
        if change.everything:
            self._heard_all = self._tick()
            return
        user_id = change.owner
        if change.kind != "member" or user_id is None:
            return
        if user_id not in self._members and user_id not in self._busy:
            return  # nothing kept: the next read is fresh anyway
        self._heard[user_id] = self._tick()
        if user_id in self._members and user_id not in self._refreshing:
            self._refreshing[user_id] = asyncio.get_running_loop().create_task(self._refresh(user_id))

    async def _refresh(self, user_id: int) -> None:
        """Read the member's preferences again until what is kept is up to date (a change heard
        during a read makes it out of date again)."""
        try:
            while (kept := self._members.get(user_id)) is not None and self._out_of_date(user_id, kept):
                await self.member(user_id)
        except Exception as exc:  # the storage closed or is out of reach: the next click reads them
            log.warning("the preferences of member %d changed and could not be read again: %s", user_id, exc)
        finally:
            self._refreshing.pop(user_id, None)

    def _out_of_date(self, user_id: int, kept: _Kept) -> bool:
        return kept.since <= max(self._heard_all, self._heard.get(user_id, 0))

    def _tick(self) -> int:
        self._now += 1
        return self._now

    def _begin(self, user_id: int) -> int:
        self._busy[user_id] = self._busy.get(user_id, 0) + 1
        return self._tick()

    def _end(self, user_id: int) -> None:
        left = self._busy.pop(user_id) - 1
        if left:
            self._busy[user_id] = left
            return
        kept = self._members.get(user_id)
        if kept is None or self._heard.get(user_id, 0) < kept.since:
            self._heard.pop(user_id, None)  # nothing kept, or what is kept is newer: forget the change

    def _keep(self, user_id: int, preferences: MemberPreferences, since: int) -> None:
        self._members.pop(user_id, None)
        self._members[user_id] = _Kept(preferences, since)
        while len(self._members) > MEMBERS_KEPT:
            forgotten = next(iter(self._members))
            del self._members[forgotten]
            self.quiet.discard(forgotten)
            if forgotten not in self._busy:
                self._heard.pop(forgotten, None)
        if preferences.mention:
            self.quiet.discard(user_id)
        else:
            self.quiet.add(user_id)


__all__ = [
    "LANGUAGES",
    "LOBBY_TIMEOUT_RANGE",
    "MANUAL",
    "ROLE_SETTING",
    "SEASON_DAYS_RANGE",
    "SETTING_NAMES",
    "TURN_TIMEOUT_RANGE",
    "MemberPreferences",
    "PickedRole",
    "ServerSettings",
    "SettingsBook",
    "check_change",
]
