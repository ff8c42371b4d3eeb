"""A server's defaults (``/romme settings``) and a member's preferences (``/romme preferences``).

:class:`ServerSettings` is what a server's admins chose for every new game there: the house rules,
the language, the timeouts, the computer level, whether games open in threads, the channels games
may be started in, and the game-master role. :class:`MemberPreferences` is what one member chose for
themselves, the same on every server: cards as faces or as text, the hand's order, the language of
private answers, whether the table calls them by a mention. Both are plain values, checked here
(a bad value is a :class:`~bot.service.errors.TableError` naming what was wrong, changing nothing),
and kept by the storage as one JSON object each (:class:`SettingsBook`).

Each server setting is described once, by a :class:`Setting` in :data:`SERVER_SETTINGS`: its name,
its bound (a house rule's is :class:`RuleSet`'s field's), how a value given for it is read, its
default, where the panel changes it and its name in words. :meth:`ServerSettings.changed`, the
panel's list and Numbers form (:mod:`bot.render.settings`) and the cog read it from there.

A value read back that this code no longer accepts (a range made narrower, a language dropped) is
left out, so the default stands for it: a stored row never keeps a server from starting games.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Literal, NamedTuple, Protocol, Self, TypeVar

from bot.engine.computer import DEFAULT_LEVEL, LEVELS
from bot.engine.rules import RULE_BOUNDS, Bound, Flag, OneOf, RuleSet, Whole, rule_bound
from bot.service.errors import TableError
from bot.service.numbers import whole_number
from bot.service.seasons import DEFAULT_LENGTH, SEASON_DAYS, SeasonLength, check_length
from bot.storage.interface import Database, SettingsChange

log = logging.getLogger(__name__)

LANGUAGES = ("en", "de", "id")
"""The languages a server or a member may choose (the bot's catalogs)."""
TURN_SECONDS = Whole(30, 600)
"""Seconds a turn may last: the server's setting and ``/romme start turn_timeout`` alike."""
LOBBY_MINUTES = Whole(1, 120)
"""Minutes a lobby nobody starts stays open."""
MEMBERS_KEPT = 100_000
"""Members whose preferences a process keeps in memory (the ones seen most lately)."""
MAX_CHANNELS = 25
"""Channels a server may name for its games (a channel select's most)."""
MANUAL = "manual"
"""The stored and chosen word for seasons started only by ``/romme season`` (a length of ``None``)."""
ROLE_SETTING = "game_master_role"
"""The one setting only a member with Manage Server may change (set, change or clear): whoever holds
the role may change the others, so a game master who could change it could hand the right on."""

CardStyle = Literal["faces", "text"]
HandSort = Literal["suit", "rank"]
Widget = Literal["list", "number", "channels", "role"]
"""Where the settings panel changes a setting: its list of choices, the Numbers form, the channel
select, the role select."""


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


def _by_bound(setting: Setting, value: object) -> Any:
    """``value`` as the setting's bound allows it (a refusal naming the setting otherwise): a whole
    number in its range, one of its values (a number one as a number, so a count out of the range
    is said to be), or a flag.

    >>> _by_bound(house_rule("jokers", "list"), "6"), _by_bound(house_rule("scoring", "list"), "penalty")
    (6, 'penalty')
    >>> _by_bound(house_rule("jokers", "list"), "3")
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.bad_value {'setting': 'jokers'}
    """
    name, bound = setting.name, setting.bound
    if isinstance(bound, Whole):
        return _number(name, value, bound.low, bound.high)
    if isinstance(bound, Flag):
        return _flag(name, value)
    if isinstance(bound, OneOf) and all(isinstance(v, int) for v in bound.values):
        number = _number(name, value, min(bound.values), max(bound.values))
        if not bound.allows(number):
            raise TableError("settings.bad_value", setting=name)
        return number
    if isinstance(bound, OneOf):
        return _one_of(name, value, bound.values)
    raise TableError("settings.bad_value", setting=name)


def _season_length(setting: Setting, value: object) -> SeasonLength:
    """A season length chosen or read back: ``"monthly"``, ``"manual"`` (``None``) or a number of
    days (as a number or its text).

    >>> length = SETTINGS_BY_NAME["season_length"]
    >>> [_season_length(length, v) for v in ("monthly", "manual", " 7 ", 30)]
    ['monthly', None, 7, 30]
    >>> _season_length(length, "367")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.out_of_range {'setting': 'season_length', 'value': 367, ...}
    """
    if value == "monthly":
        return "monthly"
    if value == MANUAL:
        return None
    return check_length(_by_bound(setting, value))


def _channels(setting: Setting, value: object) -> tuple[int, ...]:
    """The channels chosen (ids), each once, at most as many as the bound allows."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) for v in value):
        raise TableError("settings.bad_value", setting=setting.name)
    bound = setting.span
    if len(value) > bound.high:
        raise TableError(
            "settings.out_of_range", setting=setting.name, value=len(value), low=bound.low, high=bound.high
        )
    return tuple(dict.fromkeys(value))


def _role(setting: Setting, value: object) -> int:
    """A role's id (which role may be chosen is :meth:`ServerSettings.with_game_master`'s)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError("settings.bad_value", setting=setting.name)
    return value


@dataclass(frozen=True, slots=True)
class Setting:
    """One server setting, described once: its name, its bound, how a value given for it is read
    (``parse``), where the panel changes it (``widgets``), whether it is a house rule (a field of
    :class:`RuleSet`, whose bound it takes). Its default is :class:`ServerSettings`' (or the rule
    book's), its name in words the catalog's :attr:`key`.

    >>> jokers = SETTINGS_BY_NAME["jokers"]
    >>> jokers.choices(), jokers.default, jokers.key
    (('jokers=2', 'jokers=4', 'jokers=6'), 4, 'settings.name.jokers')
    >>> SETTINGS_BY_NAME["turn_timeout"].span, SETTINGS_BY_NAME["turn_timeout"].typed
    (Whole(low=30, high=600, optional=False), True)
    """

    name: str
    bound: Bound | None
    """What the setting may be (for channels: how many; ``None``: the parser says)."""
    widgets: tuple[Widget, ...]
    parse: Callable[[Setting, object], Any] = _by_bound
    """The setting's value from a list's value, a typed text, a component's ids or a value read
    back; :class:`TableError` naming the setting otherwise. Not called for a reset (``"default"``)."""
    listed: tuple[str, ...] | None = None
    """The values the panel's list offers (``"list"`` widget); ``None``: every value of the bound."""
    rule: bool = False
    member: bool = False
    """A member's preference (:class:`MemberPreferences`), not a server's setting."""
    resets: tuple[object, ...] = (None, "", "default")
    """The values that put the default back (none for a preference that has no "default" choice)."""

    @property
    def key(self) -> str:
        """The catalog key of the setting's name in words."""
        return f"settings.name.{self.name}"

    @property
    def default(self) -> Any:
        """The value a server (or a member) has that never chose one (:attr:`resets` puts it back)."""
        owner = RuleSet() if self.rule else MemberPreferences() if self.member else ServerSettings()
        return getattr(owner, self.name)

    def read(self, value: object) -> Any:
        """``value`` as the setting's: its default for one of :attr:`resets`, else :attr:`parse`'s."""
        return self.default if value in self.resets else self.parse(self, value)

    @property
    def typed(self) -> bool:
        """Whether it is typed in the panel's Numbers form."""
        return "number" in self.widgets

    @property
    def span(self) -> Whole:
        """The bound of a setting that is a whole number (a typed one, the channels' count)."""
        if not isinstance(self.bound, Whole):
            raise TypeError(f"{self.name} is not a whole number")
        return self.bound

    def choices(self) -> tuple[str, ...]:
        """The panel list's values for the setting, ``name=value``; none if the list does not offer it."""
        if "list" not in self.widgets:
            return ()
        values = self.listed
        if values is None:
            if isinstance(self.bound, Flag):
                values = ("true", "false")
            elif isinstance(self.bound, OneOf):
                values = tuple(str(value) for value in self.bound.values)
            else:
                values = ()
        return tuple(f"{self.name}={value}" for value in values)


def house_rule(name: str, *widgets: Widget) -> Setting:
    """The setting of house rule ``name``: its bound is :class:`RuleSet`'s (:func:`rule_bound`).

    >>> house_rule("opening", "number").bound
    Whole(low=0, high=120, optional=False)
    """
    return Setting(name, rule_bound(name), widgets, rule=True)


SERVER_SETTINGS: tuple[Setting, ...] = (
    Setting("language", OneOf(LANGUAGES), ("list",), listed=("default", *LANGUAGES)),
    house_rule("jokers", "list"),
    house_rule("opening", "number"),
    house_rule("scoring", "list"),
    house_rule("hand_romme", "list"),
    house_rule("discard_to_go_out", "list"),
    house_rule("rounds", "number"),
    Setting("turn_timeout", TURN_SECONDS, ("number",)),
    Setting("lobby_timeout", LOBBY_MINUTES, ("number",)),
    Setting("computer_level", OneOf(LEVELS), ("list",)),
    Setting("threads", Flag(), ("list",)),
    Setting("channels", Whole(0, MAX_CHANNELS), ("channels",), parse=_channels),
    Setting(ROLE_SETTING, None, ("role",), parse=_role),
    Setting(
        "season_length", SEASON_DAYS, ("list", "number"), parse=_season_length, listed=("monthly", MANUAL)
    ),
)
"""Every server setting, in the order the panel shows them. A new house rule: a field of
:class:`RuleSet` (with its bound) and its line here."""
SETTINGS_BY_NAME: Mapping[str, Setting] = {setting.name: setting for setting in SERVER_SETTINGS}
SETTING_NAMES = tuple(SETTINGS_BY_NAME)
"""Every server setting's name, in the order the panel shows them."""
RULE_SETTINGS = tuple(setting.name for setting in SERVER_SETTINGS if setting.rule)
"""The settings that are house rules: one per field of :class:`RuleSet`, in its order."""
if tuple(RULE_BOUNDS) != RULE_SETTINGS:  # pragma: no cover - a house rule added without its setting
    raise RuntimeError(f"the house rules' settings {RULE_SETTINGS} are not RuleSet's {tuple(RULE_BOUNDS)}")
TYPED_SETTINGS = tuple(setting.name for setting in SERVER_SETTINGS if setting.typed)
"""The settings typed in the panel's Numbers form (at most 5 inputs in a modal), in its order."""
LISTED_CHOICES = frozenset(choice for setting in SERVER_SETTINGS for choice in setting.choices())
"""Every value the settings panel's list offers (``name=value``); any other value is forged.

>>> "jokers=6" in LISTED_CHOICES, "jokers=5" in LISTED_CHOICES, "rounds=3" in LISTED_CHOICES
(True, False, False)
"""
MEMBER_PREFERENCES: tuple[Setting, ...] = (
    Setting("cards", OneOf(("faces", "text")), ("list",), member=True, resets=()),
    Setting("sort", OneOf(("suit", "rank")), ("list",), member=True, resets=()),
    Setting(
        "language",
        OneOf(LANGUAGES),
        ("list",),
        listed=("default", *LANGUAGES),
        member=True,
        resets=(None, "default"),
    ),
    Setting("mention", Flag(), ("list",), member=True, resets=()),
    Setting("tipped", Flag(), (), member=True, resets=()),
)
"""Every preference of a member, in the order their panel shows them (``tipped`` is the bot's to set)."""
PREFERENCES_BY_NAME: Mapping[str, Setting] = {setting.name: setting for setting in MEMBER_PREFERENCES}
PREFERENCE_CHOICES = frozenset(choice for setting in MEMBER_PREFERENCES for choice in setting.choices())
"""Every value the preferences panel's list offers; any other (``tipped=true``) is forged.

>>> "cards=text" in PREFERENCE_CHOICES, "tipped=true" in PREFERENCE_CHOICES
(True, False)
"""


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

    SETTINGS: ClassVar[tuple[Setting, ...]] = SERVER_SETTINGS
    """Every setting, described (:class:`Setting`), in the order the panel shows them."""

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
        itself; ``"default"`` or ``None`` goes back to the default), as the setting reads it
        (:attr:`Setting.parse`). Raises :class:`TableError` naming what was wrong, for an unknown
        setting or a value out of range.

        >>> three = ServerSettings().changed("rounds", "3")
        >>> three.rules.rounds, three.changed("rounds", "").rules.rounds
        (3, None)
        """
        setting = SETTINGS_BY_NAME.get(name)
        if setting is None:
            raise TableError("settings.bad_value", setting=name)
        chosen = setting.read(value)
        if setting.rule:
            return replace(self, rules=replace(self.rules, **{name: chosen}))
        return replace(self, **{name: chosen})

    def typed(self, values: Mapping[str, str]) -> ServerSettings:
        """These settings with the Numbers form's ``values`` (``{setting: text}``) applied, each
        checked; a setting the form does not have is left as it is. A setting left empty goes back to
        its default, unless it is not a number now (a monthly or by-hand season, chosen in the list):
        the form showed it empty, and it stays as the list chose it.

        >>> weekly = ServerSettings().typed({"season_length": "7", "opening": " 30 "})
        >>> weekly.season_length, weekly.rules.opening, weekly.typed({"season_length": ""}).season_length
        (7, 30, 'monthly')
        >>> by_hand = ServerSettings(season_length=None)
        >>> by_hand.typed({"season_length": "", "rounds": ""}) == by_hand
        True
        """
        changed = self
        for name in TYPED_SETTINGS:
            if name not in values:
                continue
            text = values[name].strip()
            if not text and not _is_whole(self.value(name)):
                continue
            changed = changed.changed(name, text)
        return changed

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

    SETTINGS: ClassVar[tuple[Setting, ...]] = MEMBER_PREFERENCES
    """Every preference, described (:class:`Setting`), in the order the panel shows them."""

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
        setting = PREFERENCES_BY_NAME.get(name)
        if setting is None:
            raise TableError("settings.bad_value", setting=name)
        return replace(self, **{name: setting.read(value)})

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


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
    "LISTED_CHOICES",
    "LOBBY_MINUTES",
    "MANUAL",
    "MAX_CHANNELS",
    "MEMBER_PREFERENCES",
    "PREFERENCES_BY_NAME",
    "PREFERENCE_CHOICES",
    "ROLE_SETTING",
    "RULE_SETTINGS",
    "SERVER_SETTINGS",
    "SETTINGS_BY_NAME",
    "SETTING_NAMES",
    "TURN_SECONDS",
    "TYPED_SETTINGS",
    "MemberPreferences",
    "PickedRole",
    "ServerSettings",
    "Setting",
    "SettingsBook",
    "check_change",
]
