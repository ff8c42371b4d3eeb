"""What ``/romme start`` decides before a lobby opens: its settings from the options given (house
rules, computer seats and their level, turn timeout, language), whether a lobby may open here at all
(:func:`start_refusal`, asked by **Play again** too), and the channel a game's thread opens from.

Plain functions of what the interaction carries; the command (:meth:`cogs.romme.Romme.start`) reads
the interaction, asks these and the table service, and answers. A default is not stated here: an
option not given takes the server's (``/romme settings``, :meth:`StartOptions.over`), and where the
server chose none, the house rules' own (:class:`~bot.engine.rules.RuleSet`), the bot's turn timeout
(``TURN_TIMEOUT``), the server's Discord language, normal computers.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import discord

from bot.engine.computer import DEFAULT_LEVEL
from bot.engine.rules import RuleSet
from bot.i18n import CATALOGS, locale_of, t
from bot.render import refusal, refusal_for
from bot.service import TableError
from bot.service.settings import ServerSettings

TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "read_message_history")
"""What the bot needs in a channel to keep a table there (post, and edit the table message)."""
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
"""What it needs besides, in the channel, to keep the table in a thread of its own (``thread:true``)."""

RULE_OPTIONS = tuple(f.name for f in fields(RuleSet))
"""The options of ``/romme start`` that are house rules: one per field of :class:`RuleSet`."""


def table_language(guild_locale: object, chosen: str | None) -> str:
    """The language of a new table: the one chosen, else the server's if the bot speaks it, else English.

    >>> table_language("de", None), table_language("fr", None), table_language("de", "id")
    ('de', 'en', 'id')
    """
    return chosen if chosen in CATALOGS else locale_of(guild_locale)


@dataclass(frozen=True, slots=True)
class NewLobby:
    """The settings of the lobby a ``/romme start`` opens, every one decided (no defaults here)."""

    rules: RuleSet
    computers: int
    computer_level: str
    turn_timeout: float
    language: str
    lobby_timeout: float | None = None
    """Seconds an unstarted lobby stays open (the server's); ``None``: the bot's ``LOBBY_TIMEOUT``."""
    server_rules: bool = False
    """Whether the server's defaults were taken (the lobby says "this server's house rules")."""


@dataclass(frozen=True, slots=True)
class StartOptions:
    """The options of one ``/romme start``, as given (``None``: not given).

    >>> options = StartOptions(jokers=6, scoring="penalty", computers=2, language="de")
    >>> lobby = options.lobby(guild_locale="en-US", turn_timeout=120.0)
    >>> lobby.rules == RuleSet(jokers=6, scoring="penalty"), lobby.computers, lobby.language
    (True, 2, 'de')
    >>> lobby.computer_level, lobby.turn_timeout
    ('normal', 120.0)
    """

    jokers: int | None = None
    opening: int | None = None
    scoring: str | None = None
    hand_romme: bool | None = None
    discard_to_go_out: bool | None = None
    rounds: int | None = None
    computers: int | None = None
    turn_timeout: int | None = None
    language: str | None = None
    computer_level: str | None = None
    thread: bool | None = None
    lobby_timeout: int | None = None
    """Minutes (no option of the command: the server's setting only)."""
    server_rules: bool = False
    """Set by :meth:`over` when the server changed a default of its games."""

    def over(self, server: ServerSettings, *, in_thread: bool = False) -> StartOptions:
        """These options, each one not given taken from the server's defaults (``/romme settings``);
        ``in_thread``: the start is made inside a thread, where the server's "games in threads"
        does not apply (the game is in a thread already).

        >>> server = ServerSettings(turn_timeout=90, threads=True).changed("jokers", 6)
        >>> options = StartOptions(jokers=2).over(server)
        >>> options.jokers, options.opening, options.turn_timeout, options.thread
        (2, 40, 90, True)
        """
        given = {name: getattr(self, name) for name in RULE_OPTIONS}
        defaults = {name: getattr(server.rules, name) for name in RULE_OPTIONS}
        return replace(
            self,
            **{name: defaults[name] if value is None else value for name, value in given.items()},
            turn_timeout=self.turn_timeout if self.turn_timeout is not None else server.turn_timeout,
            language=self.language if self.language is not None else server.language,
            computer_level=self.computer_level or server.computer_level,
            thread=self.thread if self.thread is not None else (server.threads and not in_thread),
            lobby_timeout=server.lobby_timeout,
            server_rules=server.sets_games(),
        )

    def rules(self) -> RuleSet:
        """The house rules: the options given, the rule book's for the rest (``RuleSet``'s defaults).

        >>> StartOptions(opening=30, hand_romme=True).rules() == RuleSet(opening=30, hand_romme=True)
        True
        """
        given = {name: getattr(self, name) for name in RULE_OPTIONS}
        return RuleSet.from_dict({name: value for name, value in given.items() if value is not None})

    def lobby(self, *, guild_locale: object, turn_timeout: float) -> NewLobby:
        """The lobby's settings; ``turn_timeout`` is the bot's (``TURN_TIMEOUT``), for a start without
        the option, and ``guild_locale`` the server's language, for one without ``language``."""
        return NewLobby(
            rules=self.rules(),
            computers=self.computers or 0,
            computer_level=self.computer_level or DEFAULT_LEVEL,
            turn_timeout=float(self.turn_timeout) if self.turn_timeout is not None else turn_timeout,
            language=table_language(guild_locale, self.language),
            lobby_timeout=None if self.lobby_timeout is None else self.lobby_timeout * 60.0,
            server_rules=self.server_rules,
        )

    def missing_permissions(self, permissions: discord.Permissions) -> list[str]:
        """The permissions (their names) the bot needs for this start and lacks in the channel.

        >>> can_post = discord.Permissions(view_channel=True, send_messages=True)
        >>> StartOptions().missing_permissions(can_post)
        ['embed_links', 'read_message_history']
        >>> StartOptions(thread=True).missing_permissions(discord.Permissions.all())
        []
        """
        needed = TABLE_PERMISSIONS + (THREAD_PERMISSIONS if self.thread else ())
        return [name for name in needed if not getattr(permissions, name)]


def start_refusal(
    server: ServerSettings,
    channel: object,
    channel_id: int,
    permissions: discord.Permissions,
    *,
    thread: bool,
) -> str | None:
    """Why no lobby may open from ``channel`` (id ``channel_id``) now, as the refusal to send, or
    ``None``: the server's channels games may start in (``server``, read at this click: a thread
    counts as its channel), then the bot's ``permissions`` there (``thread``: to open the game's
    thread too). Every way to open a lobby asks it, ``/romme start`` and **Play again** alike, so an
    old button cannot open one where the command is refused. One game per channel and the host's
    open lobbies are the table service's (:meth:`~bot.service.TableService.open_lobby`,
    :meth:`~bot.service.TableService.play_again`).

    >>> games = ServerSettings(channels=(5,))
    >>> start_refusal(games, None, 5, discord.Permissions.all(), thread=False) is None
    True
    >>> start_refusal(games, None, 6, discord.Permissions.all(), thread=False)
    '⚠️ Games cannot be started in this channel. Start one in: <#5>'
    >>> start_refusal(ServerSettings(), None, 6, discord.Permissions(), thread=False)  # doctest: +ELLIPSIS
    '⚠️ I cannot run a table here: ...: View Channel, Send Messages, Embed Links, Read Message History.'
    """
    parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
    if not server.allows(channel_id, parent_id):
        channels = " ".join(f"<#{allowed}>" for allowed in server.channels)
        return refusal_for(TableError("start.channel_not_allowed", channels=channels))
    missing = StartOptions(thread=thread).missing_permissions(permissions)
    if missing:
        names = t("list.separator").join(t(f"permission.{name}") for name in missing)
        return refusal(t("error.bot_permission", permissions=names))
    return None


def thread_parent(channel: object) -> discord.TextChannel:
    """The channel a game's thread opens from: the text channel ``/romme start thread:true`` was used
    in. Refused inside a thread (``thread.inside``) and in any other kind of channel
    (``thread.not_here``)."""
    if isinstance(channel, discord.Thread):
        raise TableError("thread.inside")
    if isinstance(channel, discord.TextChannel):
        return channel
    raise TableError("thread.not_here")


__all__ = [
    "RULE_OPTIONS",
    "TABLE_PERMISSIONS",
    "THREAD_PERMISSIONS",
    "NewLobby",
    "StartOptions",
    "start_refusal",
    "table_language",
    "thread_parent",
]
