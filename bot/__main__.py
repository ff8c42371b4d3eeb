"""The command line: ``romme-bot`` / ``python -m bot``, with subcommands.

``romme-bot`` (or ``romme-bot run``) reads the settings, checks the database and connects to
Discord. A setting or database problem is one line on stderr and exit status 2, never a traceback.

To add a subcommand, add a parser in :func:`build_parser` whose ``handler`` takes the parsed
arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

from bot import playground
from bot.config import ConfigError, Settings, load_settings
from bot.process import tune_process
from bot.storage import Storage, StorageError
from bot.storage.sqlite.lock import hold as hold_database_lock

EXIT_USAGE = 2
"""Exit status for a bad setting or an unusable database (as argparse uses for bad arguments)."""

EXIT_UNREACHABLE = 1
"""Exit status when Discord cannot be reached (no network, DNS, Discord down): worth a retry."""

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
    parser.set_defaults(handler=run_command)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    run = commands.add_parser("run", help="connect to Discord and host games (the default)")
    run.set_defaults(handler=run_command)
    migrate = commands.add_parser(
        "migrate-db",
        help="copy an SQLite file's games into a new PostgreSQL database",
        description="Copy every game, move, score and statistic of an SQLite file into a PostgreSQL "
        "database that holds no game yet (one transaction); then set DATABASE_URL to it.",
    )
    migrate.add_argument("--from", dest="source", required=True, metavar="FILE", help="the SQLite file")
    migrate.add_argument("--to", dest="target", required=True, metavar="URL", help="postgresql://…")
    migrate.set_defaults(handler=migrate_db_command)
    playground.add_arguments(
        commands.add_parser(
            "playground",
            help="play in a local browser page: the real bot in a simulated Discord, no token needed",
            description=playground.build_parser().description,
        )
    ).set_defaults(handler=playground_command)
    return parser


def playground_command(args: argparse.Namespace) -> int:
    """Run ``romme-bot playground`` (see :mod:`bot.playground`)."""
    return playground.run(args)


def migrate_db_command(args: argparse.Namespace) -> int:
    """Run ``romme-bot migrate-db --from FILE --to URL`` (see :mod:`bot.storage.postgres.importer`)."""
    if not str(args.target).startswith(("postgresql://", "postgres://")):
        raise ConfigError("--to", f"must be a postgresql:// URL, not {args.target!r}")
    from bot.storage.postgres.importer import copy_sqlite_to_postgres

    copied = asyncio.run(copy_sqlite_to_postgres(args.source, args.target))
    print(f"romme-bot: {copied.summary()} from {args.source}")
    return 0


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


def run_command(args: argparse.Namespace) -> int:
    """Connect to Discord with the settings from the environment and ``.env``; stop on SIGTERM/Ctrl-C."""
    settings = load_settings()
    token = settings.require_token()
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-8s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # The bot has no voice features; discord.py's notes about missing voice libraries are noise.
    logging.getLogger("discord.client").addFilter(lambda record: "voice will NOT" not in record.getMessage())
    tune_process()
    return asyncio.run(_run(settings, token))


async def _run(settings: Settings, token: str) -> int:
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
        try:
            if shards is not None and settings.shard_count is not None:
                await database.take_shards(
                    shards, settings.shard_count, owner=default_owner(), ttl=settings.lease_seconds
                )
        finally:
            await database.close()
        return await _run_bot(settings, token)
    storage = await Storage.open(settings.database_path)
    lock = hold_database_lock(settings.database_path)
    await storage.close()
    try:
        return await _run_bot(settings, token)
    finally:
        lock.release()


async def _run_bot(settings: Settings, token: str) -> int:
    # Imported here, so that a bad setting is reported without loading discord at all.
    import aiohttp
    import discord

    from bot.client import create_bot

    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    # docker stop sends SIGTERM: close cleanly so the cogs can save and the database is closed.
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        raise ConfigError(
            "DISCORD_TOKEN", "was refused by Discord: copy the token again from the developer portal"
        ) from None
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound) as exc:
        raise DiscordUnreachable(f"cannot reach Discord ({exc})") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
