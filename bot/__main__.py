"""The command line: ``romme-bot`` / ``python -m bot``, with subcommands.

``romme-bot`` (or ``romme-bot run``) reads the settings, checks the database and connects to
Discord; SIGTERM (``docker stop``) or Ctrl-C stops it cleanly (:func:`serve`). ``romme-bot check``
looks at the settings and the database without changing anything, ``romme-bot backup --to FILE``
copies a live SQLite file, ``romme-bot --version`` says which bot this is. A setting or database
problem is one line on stderr and exit status 2, never a traceback.

To add a subcommand, add a parser in :func:`build_parser` whose ``handler`` takes the parsed
arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import contextlib
import dataclasses
import importlib.metadata
import inspect
import itertools
import logging
import signal
import sys
import tomllib
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import config, playground
from bot.config import ENV_NAMES, ConfigError, Settings, load_settings, load_settings_to_run
from bot.logs import configure_logging
from bot.process import tune_process
from bot.storage import Storage, StorageError, check_database
from bot.storage.sqlite.lock import hold as hold_database_lock

if TYPE_CHECKING:
    from bot.client import RommeBot

EXIT_USAGE = 2
"""Exit status for a bad setting or an unusable database (as argparse uses for bad arguments)."""

EXIT_UNREACHABLE = 1
"""Exit status when Discord cannot be reached (no network, DNS, Discord down): worth a retry."""

STOP_GRACE = 8.0
"""Seconds a stop waits for the changes under way to be saved (``docker stop`` waits 10 s, then kills)."""

log = logging.getLogger("bot")


class DiscordUnreachable(Exception):
    """The bot could not connect to Discord; the message is one line with the cause."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; with no subcommand the bot runs.

    >>> build_parser().parse_args([]).handler.__name__
    'run_command'
    """
    parser = argparse.ArgumentParser(
        prog="romme-bot",
        description="A Discord bot that hosts Rommé (German Rummy). Settings come from the "
        "environment and .env (see .env.example).",
    )
    parser.add_argument("--version", action="version", version=f"romme-bot {version()}")
    parser.set_defaults(handler=run_command)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _command(
        commands, run_command, epilog=settings_help(), formatter_class=argparse.RawDescriptionHelpFormatter
    )
    _command(commands, check_command)
    backup = _command(commands, backup_command)
    backup.add_argument("--to", dest="target", required=True, metavar="FILE", help="a new file")
    migrate = _command(commands, migrate_db_command)
    migrate.add_argument("--from", dest="source", required=True, metavar="FILE", help="the SQLite file")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql://…")
    ratings = _command(commands, ratings_command)
    ratings.add_argument("--recompute", action="store_true", required=True, help="rate again")
    ratings.add_argument("--guild", type=int, default=None, metavar="ID", help="only this server")
    playground.add_arguments(
        commands.add_parser(
            "playground",
            help="play in a local browser page: the real bot in a simulated Discord, no token needed",
            description=playground.build_parser().description,
        )
    ).set_defaults(handler=playground_command)
    return parser


def _command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    handler: Callable[[argparse.Namespace], int],
    **options: Any,
) -> argparse.ArgumentParser:
    """The subcommand that ``handler`` runs: named after it (``migrate_db_command``: ``migrate-db``),
    its help the first paragraph of the handler's docstring, its description the second (further
    paragraphs are for the code's readers)."""
    name = handler.__name__.removesuffix("_command").replace("_", "-")
    summary, description, *_ = [*inspect.cleandoc(handler.__doc__ or "").split("\n\n"), ""]
    sub = commands.add_parser(
        name, help=" ".join(summary.split()), description=" ".join(description.split()), **options
    )
    sub.set_defaults(handler=handler)
    return sub


def playground_command(args: argparse.Namespace) -> int:
    """Run ``romme-bot playground`` (see :mod:`bot.playground`)."""
    return playground.run(args)


def migrate_db_command(args: argparse.Namespace) -> int:
    """copy an SQLite file's games into a new PostgreSQL database

    Copy every game, move, score and statistic of an SQLite file into a PostgreSQL database that
    holds no game yet (one transaction); then set DATABASE_URL to it.
    """
    if not str(args.target).startswith(("postgresql://", "postgres://")):
        raise ConfigError("--to", f"must be a postgresql:// URL, not {args.target!r}")
    from bot.storage.postgres.importer import copy_sqlite_to_postgres

    copied = asyncio.run(copy_sqlite_to_postgres(args.source, args.target))
    print(f"romme-bot: {copied.summary()} from {args.source}")
    return 0


def ratings_command(args: argparse.Namespace) -> int:
    """rate every finished match again from the stored results (the bot stopped)

    With --recompute: rate every finished match of every server (or of --guild) again, in the order
    they ended, from the stored results (each rated match's seats, and the finished games not rated
    yet), after a change of the model or a repaired history. Stop the bot first: the seasons stay,
    the ratings and their history are written anew.
    """
    settings = load_settings()
    rated = asyncio.run(recompute_ratings(settings.database, args.guild))
    print(f"romme-bot: {rated} matches rated again")
    return 0


async def recompute_ratings(target: str | Path, guild_id: int | None = None) -> int:
    """Rate every finished match on ``target`` again (of one server, or of all), as
    :meth:`~bot.service.ratings.Ratings.recompute` does; the number of matches rated."""
    from bot.service.game import replay_snapshot
    from bot.service.ratings import Ratings
    from bot.storage import open_database

    storage = await open_database(target, replay=replay_snapshot)
    try:
        ratings = Ratings(storage)
        guilds = {guild_id} if guild_id is not None else {g for _, g, _ in await storage.games_to_rate()}
        return sum([await ratings.recompute(guild) for guild in sorted(guilds)])
    finally:
        await storage.close()


def version() -> str:
    """The bot's version: the installed package's, else the one ``pyproject.toml`` beside the code says.

    >>> version().count(".") >= 1
    True
    """
    try:
        return importlib.metadata.version("romme-bot")
    except importlib.metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        try:
            return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def setting_docs() -> dict[str, str]:
    """The first sentence of each setting's docstring in :class:`bot.config.Settings`, by field.

    Read from the source, so that ``run --help`` says what ``bot/config.py`` says, not a copy.

    >>> setting_docs()["turn_timeout"]
    'Default seconds a person has for a turn before the computer plays it for them.'
    """
    tree = ast.parse(inspect.getsource(config.Settings))
    [settings] = tree.body
    assert isinstance(settings, ast.ClassDef)
    docs: dict[str, str] = {}
    for field, doc in itertools.pairwise(settings.body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
        ):
            docs[field.target.id] = _first_sentence(doc.value.value)
    return docs


def _first_sentence(doc: str) -> str:
    """``doc`` on one line, up to its first full stop, without reST markup.

    >>> _first_sentence("Serve ``/healthz`` on :attr:`health_host`; off.  More.")
    'Serve /healthz on HEALTH_HOST; off.'
    """
    text = " ".join(doc.split())
    for name, env in ENV_NAMES.items():
        text = text.replace(f":attr:`{name}`", env)
    text = text.replace("``None``", "not set").replace("``", "")
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def settings_help() -> str:
    """Every setting ``run`` reads: its environment variable, its default and what it does.

    >>> print(settings_help())  # doctest: +ELLIPSIS
    settings (environment variables; .env is read too):
      DISCORD_TOKEN          (not set)  The bot token from the Discord developer portal; ...
    ...
      TURN_TIMEOUT           120        Default seconds a person has for a turn ...
    ...
    """
    defaults = Settings()
    docs = setting_docs()
    lines = ["settings (environment variables; .env is read too):"]
    for field in dataclasses.fields(Settings):
        env = ENV_NAMES.get(field.name)
        if env is None:
            continue
        default: Any = getattr(defaults, field.name)
        if default is None:
            shown = "(not set)"
        elif isinstance(default, float) and default.is_integer():
            shown = str(int(default))
        else:
            shown = str(default)
        lines.append(f"  {env:<22} {shown:<10} {docs.get(field.name, '')}".rstrip())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit status (the ``romme-bot`` entry point)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except (ConfigError, StorageError) as exc:
        print(f"romme-bot: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except DiscordUnreachable as exc:
        print(f"romme-bot: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        return 0


def check_command(args: argparse.Namespace) -> int:
    """check the settings and the database, changing nothing (exit 0 if fine, else 2)

    Check the settings and the database (reachable, readable, its schema this bot's, not in use by
    another process) without migrating, creating or writing anything. One line: what is fine (exit
    0) or the problem (exit 2). A database at an older schema is fine: the bot brings it up to date
    when it starts.

    A problem raises (one line on stderr, exit status 2, from :func:`main`). The settings are read
    and refused as :func:`run_command` reads them (:func:`~bot.config.load_settings_to_run`).
    """
    settings, _token = load_settings_to_run()
    line = asyncio.run(
        check_database(settings.database, shards=settings.shards, shard_count=settings.shard_count)
    )
    print(f"romme-bot: the settings are fine; {line}")
    return 0


def backup_command(args: argparse.Namespace) -> int:
    """copy the SQLite database, safely while the bot runs, into a new file

    Copy DATABASE_PATH into a new FILE with SQLite's online backup API, also while the bot runs. To
    restore: stop the bot, copy FILE over DATABASE_PATH (deleting its -wal and -shm files), start
    it. A PostgreSQL database is backed up with pg_dump.
    """
    settings = load_settings()
    if settings.database_url is not None:
        raise ConfigError(
            "DATABASE_URL",
            "is a PostgreSQL database: back it up with pg_dump (romme-bot backup copies an SQLite file)",
        )
    from bot.storage.sqlite.tools import backup_file

    print(f"romme-bot: {backup_file(settings.database_path, args.target)}")
    return 0


def configure_bot_logging(settings: Settings) -> None:
    """The log on stderr as ``LOG_LEVEL`` and ``LOG_FORMAT`` say (see :mod:`bot.logs`)."""
    configure_logging(settings.log_level, settings.log_format, shard_count=settings.shard_count)
    # The bot has no voice features; discord.py's notes about missing voice libraries are noise.
    logging.getLogger("discord.client").addFilter(lambda record: "voice will NOT" not in record.getMessage())


def run_command(args: argparse.Namespace) -> int:
    """connect to Discord and host games (the default)

    Connect to Discord and host games until SIGTERM or Ctrl-C. The settings come from the
    environment and .env (an environment variable wins over .env).
    """
    settings, token = load_settings_to_run()
    configure_bot_logging(settings)
    tune_process()
    return asyncio.run(_run(settings, token))


async def _run(settings: Settings, token: str) -> int:
    return await serve(settings, lambda bot: bot.start(token))


Connect = Callable[["RommeBot"], Awaitable[None]]
"""How :func:`serve` connects the bot: ``bot.start(token)``, which returns once it is closed."""


async def serve(settings: Settings, connect: Connect) -> int:
    """Run the bot on ``settings`` until SIGTERM or SIGINT (or its connection ends); return 0.

    Before anything connects: the database is checked (a bad file, or a file or shards another
    process holds, is refused in one line) and, for an SQLite file, its lock is held until the end.
    On SIGTERM the bot stops cleanly (:meth:`~bot.client.RommeBot.close`): no new change starts, the
    changes under way are saved (for :data:`STOP_GRACE` seconds at most), the timers stop, the
    gateway closes, the shard leases are given back, the database is closed and its lock released.
    A start that fails once the leases are taken (Discord out of reach) gives them back too.
    ``connect`` is ``bot.start(token)`` for Discord (a test harness gives its own).
    """
    # Checking the database before connecting reports a bad file, or a file another bot process is
    # using, without touching the network. The lock on the file is then held until the bot ends.
    if settings.database_url is not None:
        # PostgreSQL: checked the same way (server, login, schema); the shards' leases are taken by
        # the bot itself, before it loads a game (bot/service/shards.py).
        # A process whose shards another live process holds is refused here, in one line, before
        # anything connects (the leases taken are this process's: the bot renews them).
        from bot.storage.postgres import PostgresStorage, default_owner

        database = await PostgresStorage.open(settings.database_url)
        shards = settings.shards
        taken: tuple[int, ...] = ()
        try:
            if shards is not None and settings.shard_count is not None:
                await database.take_shards(
                    shards, settings.shard_count, owner=default_owner(), ttl=settings.lease_seconds
                )
                taken = shards
        finally:
            await database.close()
        try:
            return await _run_bot(settings, connect)
        finally:
            # A start that failed after taking the leases (Discord out of reach, the token refused)
            # gives them back: the next start is not refused for a process that no longer exists.
            # After a clean stop the bot has given them back already (then this deletes nothing).
            if taken:
                await _give_back(settings.database_url, taken, default_owner())
    storage = await Storage.open(settings.database_path)
    lock = hold_database_lock(settings.database_path)
    await storage.close()
    try:
        return await _run_bot(settings, connect)
    finally:
        lock.release()


async def _give_back(url: str, shards: tuple[int, ...], owner: str) -> None:
    """Delete this process's leases on ``shards`` (a warning if the server is out of reach: they
    expire by themselves)."""
    from bot.storage.postgres import PostgresStorage

    try:
        database = await PostgresStorage.open(url)
        try:
            await database.release_shards(shards, owner=owner)
        finally:
            await database.close()
    except Exception as exc:
        log.warning("the shard leases could not be given back (%s); they expire by themselves", exc)


async def _run_bot(settings: Settings, connect: Connect) -> int:
    # Imported here, so that a bad setting is reported without loading discord at all.
    import aiohttp
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    bot.stop_grace = STOP_GRACE
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    # docker stop sends SIGTERM: the handler only asks; the stop itself runs here, awaited, so that
    # the process ends after the database is closed, not while a close task is still saving.
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    connecting = asyncio.ensure_future(connect(bot))
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((connecting, stopping), return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stopping (signal): saving the changes under way")
        await bot.close()
        if not connecting.done():
            # bot.start returns once the gateway is closed; a harness's connection may need telling.
            await asyncio.wait((connecting,), timeout=STOP_GRACE)
            connecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await connecting
    except discord.LoginFailure:
        raise ConfigError(
            "DISCORD_TOKEN", "was refused by Discord: copy the token again from the developer portal"
        ) from None
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        raise DiscordUnreachable(f"cannot reach Discord ({exc})") from None
    finally:
        stopping.cancel()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
        await bot.close()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
