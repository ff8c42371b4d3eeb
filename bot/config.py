"""The bot's settings: read from the environment and a ``.env`` file, checked once, then frozen.

Nothing here imports discord, so the command line can refuse a bad setting before any network code
loads. Every check names the environment variable it is about, because that is what a server admin
has to fix.
"""

from __future__ import annotations

import base64
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from dotenv import dotenv_values

from bot.service.autopilot import IDLE_GAME_TIMEOUT, LOBBY_TIMEOUT
from bot.service.game import DEFAULT_TURN_TIMEOUT

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
CARD_STYLES = ("emoji", "text")
LOG_FORMATS = ("text", "json")

# The keyword of each setting (as create_bot takes it) and the environment variable it comes from.
ENV_NAMES = {
    "token": "DISCORD_TOKEN",
    "database_path": "DATABASE_PATH",
    "database_url": "DATABASE_URL",
    "shard_count": "SHARD_COUNT",
    "shard_ids": "SHARD_IDS",
    "lease_seconds": "SHARD_LEASE_SECONDS",
    "dev_guild_id": "DEV_GUILD_ID",
    "log_level": "LOG_LEVEL",
    "turn_timeout": "TURN_TIMEOUT",
    "computer_delay": "COMPUTER_DELAY",
    "lobby_timeout": "LOBBY_TIMEOUT",
    "idle_game_timeout": "IDLE_GAME_TIMEOUT",
    "max_lobbies_per_host": "MAX_LOBBIES_PER_HOST",
    "history_days": "HISTORY_DAYS",
    "card_style": "CARD_STYLE",
    "log_format": "LOG_FORMAT",
    "health_port": "HEALTH_PORT",
    "health_host": "HEALTH_HOST",
    "rules_url": "RULES_URL",
}


class ConfigError(ValueError):
    """A setting is missing or has a value the bot cannot use.

    ``str(error)`` is one line that starts with the environment variable's name.

    >>> str(ConfigError("TURN_TIMEOUT", "must be a number of seconds above 0, not 'soon'"))
    "TURN_TIMEOUT must be a number of seconds above 0, not 'soon'"
    """

    def __init__(self, setting: str, problem: str) -> None:
        super().__init__(f"{setting} {problem}")
        self.setting = setting


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot can be configured with; the defaults are what ``.env.example`` documents.

    Build it with :func:`load_settings` (environment and ``.env``) or directly, with keywords.
    Invalid values raise :class:`ConfigError`.

    >>> Settings().turn_timeout
    120.0
    >>> Settings(computer_delay=0).computer_delay
    0.0
    >>> Settings(turn_timeout=-1)
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: TURN_TIMEOUT must be a number of seconds above 0, not -1
    """

    token: str | None = None
    """The bot token from the Discord developer portal; only needed to connect."""
    database_path: Path = Path("romme.db")
    """The SQLite file that keeps every game, move and score (unless :attr:`database_url` is set)."""
    database_url: str | None = None
    """A PostgreSQL database (``postgresql://user:password@host:5432/romme``) instead of the SQLite
    file: for a bot run as several processes (see README, "Running on many servers")."""
    shard_count: int | None = None
    """How many gateway shards the whole bot runs; ``None``: one process, discord.py picks."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``SHARD_IDS=0,1`` or ``0-3``); ``None``: all of
    :attr:`shard_count`. A game belongs to the shard of its server: ``(guild_id >> 22) % shard_count``."""
    lease_seconds: float = 30.0
    """How long a shard's lease lasts without a heartbeat (PostgreSQL): a process that dies frees its
    shards for another process after this long."""
    dev_guild_id: int | None = None
    """Sync the slash commands to this one server at once (development); ``None`` syncs globally."""
    log_level: str = "INFO"
    """The level of the bot's log on stderr."""
    turn_timeout: float = DEFAULT_TURN_TIMEOUT
    """Default seconds a person has for a turn before the computer plays it for them."""
    computer_delay: float = 1.5
    """Seconds between two moves of a computer player, so people can follow them."""
    lobby_timeout: float = LOBBY_TIMEOUT
    """Seconds a lobby waits to be started before it closes itself and frees its channel; 0: never."""
    idle_game_timeout: float = IDLE_GAME_TIMEOUT
    """Seconds a running game goes on without a person acting (a move, or any other change a person
    makes) before it ends itself with the standings so far; 0: never."""
    max_lobbies_per_host: int = 3
    """Open lobbies one member may host on one server at once; 0: any number."""
    history_days: int = 180
    """Days the moves of a finished match are kept for its replay; after that they are compacted
    away (its results, scores and statistics stay); 0: kept for ever."""
    card_style: str = "emoji"
    """``emoji``: cards are shown as their faces, the application's own emojis (uploaded at start
    if need be; text if Discord refuses them); ``text``: as text, ``7♥``."""
    log_format: str = "text"
    """``text``: one readable line per record; ``json``: one JSON object a line, for log collectors."""
    health_port: int | None = None
    """Serve ``/healthz`` and ``/metrics`` on this port (HTTP, on :attr:`health_host`); ``None``: off."""
    health_host: str = "127.0.0.1"
    """The address the health and metrics server listens on (``0.0.0.0`` in a container)."""
    rules_url: str | None = None
    """The web address of the folder holding the rule books (``docs/rules.md`` and its German and
    Indonesian pages), e.g. ``https://github.com/you/romme-bot/blob/main/docs``: ``/romme rules`` then
    links the book in the member's language; ``None``: it names the file without a link."""
    game_seed: int | None = None
    """Deal from ``random.Random`` seeded with this, for tests, benchmarks and the playground's
    pictures; ``None`` (always, in a live bot) deals with ``random.SystemRandom`` (R19). Not read
    from the environment."""
    table_edit_interval: float = 1.0
    """Seconds at least between two edits of the table message in one channel (Discord's rate
    limits); tests set 0. Not read from the environment."""
    table_edits_per_second: float = 40.0
    """Table edits a second for the whole bot (Discord's global limit is 50 REST calls a second);
    tables with people go first; 0 means no limit. Not read from the environment."""

    def __post_init__(self) -> None:
        # object.__setattr__: the dataclass is frozen, and normalising here keeps one source of truth.
        set_ = object.__setattr__
        if self.token is not None:
            if not isinstance(self.token, str):
                raise ConfigError("DISCORD_TOKEN", "must be text")
            set_(self, "token", self.token.strip() or None)
        if not isinstance(self.database_path, (str, os.PathLike)) or not str(self.database_path).strip():
            raise ConfigError("DATABASE_PATH", f"must be a file path, not {self.database_path!r}")
        self._check_database()
        set_(self, "lease_seconds", _seconds("SHARD_LEASE_SECONDS", self.lease_seconds, allow_zero=False))
        set_(self, "dev_guild_id", _snowflake_or_none(self.dev_guild_id))
        set_(self, "log_level", _one_of("LOG_LEVEL", self.log_level, LOG_LEVELS, upper=True))
        set_(self, "turn_timeout", _seconds("TURN_TIMEOUT", self.turn_timeout, allow_zero=False))
        set_(self, "computer_delay", _seconds("COMPUTER_DELAY", self.computer_delay, allow_zero=True))
        set_(self, "lobby_timeout", _seconds("LOBBY_TIMEOUT", self.lobby_timeout, allow_zero=True))
        set_(
            self, "idle_game_timeout", _seconds("IDLE_GAME_TIMEOUT", self.idle_game_timeout, allow_zero=True)
        )
        set_(self, "max_lobbies_per_host", _count("MAX_LOBBIES_PER_HOST", self.max_lobbies_per_host))
        set_(self, "history_days", _count("HISTORY_DAYS", self.history_days))
        set_(self, "card_style", _one_of("CARD_STYLE", self.card_style, CARD_STYLES))
        set_(self, "log_format", _one_of("LOG_FORMAT", self.log_format, LOG_FORMATS))
        set_(self, "health_port", _port("HEALTH_PORT", self.health_port))
        host = str(self.health_host).strip()
        if not host:
            raise ConfigError("HEALTH_HOST", "must be an address to listen on, such as 127.0.0.1")
        set_(self, "health_host", host)
        set_(self, "rules_url", _web_address("RULES_URL", self.rules_url))
        if self.game_seed is not None and (
            isinstance(self.game_seed, bool) or not isinstance(self.game_seed, int)
        ):
            raise ConfigError("game_seed", f"must be a whole number or None, not {self.game_seed!r}")
        set_(
            self,
            "table_edit_interval",
            _seconds("table_edit_interval", self.table_edit_interval, allow_zero=True),
        )
        rate = self.table_edits_per_second
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate < math.inf:
            raise ConfigError("table_edits_per_second", f"must be a number 0 or more, not {rate!r}")
        set_(self, "table_edits_per_second", float(rate))

    def _check_database(self) -> None:
        """The database and the shards: an SQLite file serves one process, which runs every shard."""
        set_ = object.__setattr__
        set_(self, "database_path", Path(self.database_path))
        set_(self, "database_url", _database_url(self.database_url))
        set_(self, "shard_count", _shard_count(self.shard_count))
        set_(self, "shard_ids", _shard_ids(self.shard_ids, self.shard_count))
        if (
            self.shard_ids is not None
            and self.shard_count is not None
            and len(self.shard_ids) < self.shard_count
            and self.database_url is None
        ):
            raise ConfigError(
                "SHARD_IDS",
                f"runs only some of the {self.shard_count} shards, which needs DATABASE_URL: an SQLite file "
                "serves one process, and that process must run every shard",
            )

    @property
    def database(self) -> str | Path:
        """What to open: :attr:`database_url` if set, else :attr:`database_path`.

        >>> Settings(database_url="postgresql://bot@db/romme").database
        'postgresql://bot@db/romme'
        """
        return self.database_url if self.database_url is not None else self.database_path

    @property
    def shards(self) -> tuple[int, ...] | None:
        """The shards this process runs, or ``None`` (unsharded: one process runs every game).

        >>> pg = "postgresql://bot@db/romme"
        >>> Settings(database_url=pg, shard_count=4, shard_ids="2-3").shards, Settings(shard_count=2).shards
        ((2, 3), (0, 1))
        >>> Settings().shards is None
        True
        """
        if self.shard_count is None:
            return None
        return self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with some settings replaced (checked like the originals).

        >>> Settings().with_overrides(database_path="/tmp/x.db").database_path
        PosixPath('/tmp/x.db')
        >>> Settings().with_overrides(colour="red")
        Traceback (most recent call last):
        ...
        TypeError: unknown setting 'colour'; known: token, database_path, database_url, ..., log_level, ...
        """
        known = [f.name for f in fields(self)]
        for name in overrides:
            if name not in known:
                raise TypeError(f"unknown setting {name!r}; known: {', '.join(known)}")
        return replace(self, **overrides)

    def require_token(self) -> str:
        """The token, or a :class:`ConfigError` saying where to put it, or, for a value that cannot
        be a Discord bot token (:func:`token_problem`), what is wrong with it (never the value).

        >>> Settings(token=EXAMPLE_TOKEN).require_token() == EXAMPLE_TOKEN
        True
        >>> Settings(token="abc").require_token()
        Traceback (most recent call last):
        bot.config.ConfigError: DISCORD_TOKEN is not a Discord bot token (it is not three parts ...
        """
        if not self.token:
            raise ConfigError(
                "DISCORD_TOKEN",
                "is not set: put the bot token from the Discord developer portal in .env "
                "(see .env.example) or in the environment",
            )
        problem = token_problem(self.token)
        if problem is not None:
            raise ConfigError(
                "DISCORD_TOKEN",
                f"is not a Discord bot token ({problem}): copy it again from the Bot page of the "
                "Discord developer portal",
            )
        return self.token


EXAMPLE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
"""A value of a bot token's shape (no real token: Discord refuses it), for examples and tests."""

_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")


def token_problem(token: str) -> str | None:
    """What makes ``token`` impossible as a Discord bot token, or ``None`` if it has the shape of one.

    A bot token is three parts of base64url characters separated by dots, the first of them the
    bot's user id (its digits in base64). Checked at start, so that a mistyped value is refused in
    one line instead of being tried against Discord (the check says nothing of the value itself).

    >>> token_problem(EXAMPLE_TOKEN) is None
    True
    >>> token_problem("Bot " + EXAMPLE_TOKEN)
    "it starts with 'Bot ': give the token alone"
    >>> token_problem("abc def")
    'it has spaces in it'
    >>> token_problem("abc")
    'it is not three parts separated by dots'
    >>> token_problem("abc.def.ghi")
    'its first part is not a user id'
    """
    if token.lower().startswith(("bot ", "bearer ")):
        prefix = token.split(" ", 1)[0]
        return f"it starts with '{prefix} ': give the token alone"
    if any(char.isspace() for char in token):
        return "it has spaces in it"
    parts = token.split(".")
    if len(parts) != 3 or not all(_TOKEN_PART.fullmatch(part) for part in parts):
        return "it is not three parts separated by dots"
    try:
        user_id = base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        user_id = ""
    if not user_id.isdigit():
        return "its first part is not a user id"
    return None


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> Settings:
    """Settings from ``environ`` (default: ``os.environ``) over those in ``dotenv_path``.

    A variable set in the environment wins over the same one in the file; an empty value counts as
    not set. ``dotenv_path=None`` reads no file. Raises :class:`ConfigError`.

    >>> load_settings({"TURN_TIMEOUT": "90", "DEV_GUILD_ID": ""}, dotenv_path=None).turn_timeout
    90.0
    """
    values: dict[str, str | None] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        values.update(dotenv_values(dotenv_path))
    values.update(os.environ if environ is None else environ)
    given = {
        name: raw.strip()
        for name, env_name in ENV_NAMES.items()
        if (raw := values.get(env_name)) is not None and raw.strip()
    }
    return Settings(**given)  # type: ignore[arg-type]  # text is parsed and checked in __post_init__


def load_settings_to_run(
    environ: Mapping[str, str] | None = None, dotenv_path: str | Path | None = ".env"
) -> tuple[Settings, str]:
    """The settings ``romme-bot run`` starts with, and the token it connects with, or the
    :class:`ConfigError` it stops at. ``romme-bot check`` asks the same function, so that it refuses
    exactly what a start refuses, with the same line, a missing or misshapen token too.

    >>> settings, token = load_settings_to_run({"DISCORD_TOKEN": EXAMPLE_TOKEN}, dotenv_path=None)
    >>> token == EXAMPLE_TOKEN, settings.turn_timeout
    (True, 120.0)
    >>> load_settings_to_run({}, dotenv_path=None)
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: DISCORD_TOKEN is not set: put the bot token from the Discord developer portal ...
    """
    settings = load_settings(environ, dotenv_path)
    return settings, settings.require_token()


def _database_url(value: object) -> str | None:
    """A PostgreSQL URL, or ``None``.

    >>> _database_url("mysql://db/romme")
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: DATABASE_URL must be a postgresql:// URL (postgresql://user:password@host/...
    """
    if value is None:
        return None
    text = str(value).strip()
    if not text:
        return None
    if not text.startswith(("postgresql://", "postgres://")) or len(text.split("://", 1)[1]) == 0:
        raise ConfigError(
            "DATABASE_URL",
            f"must be a postgresql:// URL (postgresql://user:password@host/name), not {text!r}",
        )
    return text


def _shard_count(value: object) -> int | None:
    if value is None:
        return None
    return _at_least("SHARD_COUNT", value, 1, "a whole number 1 or more")


def _shard_ids(value: object, count: int | None) -> tuple[int, ...] | None:
    """The shard ids of ``SHARD_IDS`` (``"0,2"``, ``"0-3"``, or a sequence), each below ``count``.

    >>> _shard_ids("0, 2-4", 6)
    (0, 2, 3, 4)
    >>> _shard_ids("5", 4)
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: SHARD_IDS must name shards 0 to 3 (SHARD_COUNT is 4), not '5'
    """
    if value is None:
        return None
    if count is None:
        raise ConfigError("SHARD_IDS", "needs SHARD_COUNT (how many shards the whole bot runs)")
    ids: set[int] = set()
    try:
        if isinstance(value, str):
            for part in value.split(","):
                low, _, high = part.strip().partition("-")
                first = _whole_number(low.strip())
                last = _whole_number(high.strip()) if high else first
                if last < first:
                    raise ValueError(part)
                ids.update(range(first, last + 1))
        elif isinstance(value, (tuple, list, set, frozenset, range)):
            ids.update(_whole_number(n) for n in value)
        else:
            raise ValueError(value)
    except ValueError:
        raise ConfigError("SHARD_IDS", f"must be shard numbers like 0,1 or 0-3, not {value!r}") from None
    if not ids or min(ids) < 0 or max(ids) >= count:
        raise ConfigError(
            "SHARD_IDS", f"must name shards 0 to {count - 1} (SHARD_COUNT is {count}), not {value!r}"
        )
    return tuple(sorted(ids))


def _web_address(setting: str, value: object) -> str | None:
    """An ``http(s)://`` address without its trailing slash, or ``None``.

    >>> _web_address("RULES_URL", "https://example.org/docs/")
    'https://example.org/docs'
    """
    if value is None:
        return None
    text = str(value).strip().rstrip("/")
    if not text:
        return None
    if not text.startswith(("https://", "http://")) or any(char.isspace() for char in text):
        raise ConfigError(setting, f"must be a web address starting with https://, not {value!r}")
    return text


def _snowflake_or_none(value: object) -> int | None:
    if value is None:
        return None
    return _at_least("DEV_GUILD_ID", value, 1, "a server id (a positive whole number)")


def _whole_number(value: object) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise ValueError(value)


def _count(setting: str, value: object) -> int:
    """A whole number 0 or more, for ``setting``.

    >>> _count("MAX_LOBBIES_PER_HOST", " 5 ")
    5
    >>> _count("MAX_LOBBIES_PER_HOST", "2.5")
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: MAX_LOBBIES_PER_HOST must be a whole number 0 or more, not '2.5'
    """
    return _at_least(setting, value, 0, "a whole number 0 or more")


def _at_least(setting: str, value: object, least: int, what: str) -> int:
    """``value`` as a whole number of ``least`` or more; else ``setting`` must be ``what``.

    >>> _at_least("SHARD_COUNT", "0", 1, "a whole number 1 or more")
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: SHARD_COUNT must be a whole number 1 or more, not '0'
    """
    try:
        number = _whole_number(value)
    except ValueError:
        number = least - 1
    if number < least:
        raise ConfigError(setting, f"must be {what}, not {value!r}")
    return number


def _one_of(setting: str, value: object, choices: tuple[str, ...], *, upper: bool = False) -> str:
    """``value`` as one of ``choices`` (spaces trimmed, in their case), or ``setting`` is refused.

    >>> _one_of("CARD_STYLE", " Text ", ("emoji", "text"))
    'text'
    >>> _one_of("LOG_FORMAT", "xml", ("text", "json"))
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: LOG_FORMAT must be text or json, not 'xml'
    """
    text = str(value).strip()
    text = text.upper() if upper else text.lower()
    if text not in choices:
        named = " or ".join(choices) if len(choices) == 2 else f"one of {', '.join(choices)}"
        raise ConfigError(setting, f"must be {named}, not {value!r}")
    return text


def _port(setting: str, value: object) -> int | None:
    """A TCP port, 1 to 65535, or ``None`` (off).

    >>> _port("HEALTH_PORT", "8080"), _port("HEALTH_PORT", None)
    (8080, None)
    """
    if value is None:
        return None
    port = _at_least(setting, value, 1, "a port number from 1 to 65535")
    if port > 65535:
        raise ConfigError(setting, f"must be a port number from 1 to 65535, not {value!r}")
    return port


def _seconds(setting: str, value: object, *, allow_zero: bool) -> float:
    bound = "0 or more" if allow_zero else "above 0"
    problem = f"must be a number of seconds {bound}, not {value!r}"
    if isinstance(value, bool):
        raise ConfigError(setting, problem)
    try:
        seconds = float(value)  # type: ignore[arg-type]  # any failure is reported the same way
    except (TypeError, ValueError):
        raise ConfigError(setting, problem) from None
    if not math.isfinite(seconds) or seconds < 0 or (seconds == 0 and not allow_zero):
        raise ConfigError(setting, problem)
    return seconds
