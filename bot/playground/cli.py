"""The command line of ``romme-bot playground``: its options, its messages and its exit statuses.

:func:`add_arguments` gives ``romme-bot`` the subcommand's options, :func:`run` runs it for parsed
arguments and :func:`main` parses and runs on its own. A bad option or setting is one line on
stderr and status 2; so is a missing ``playground`` extra (:data:`INSTALL_HINT`). Without
``--screenshot``, :func:`serve` prints the page's address once and serves it until Ctrl-C,
SIGTERM or the page's "End preview session"; with it, the scripted game of
:mod:`bot.playground.shots` takes the pictures. Nothing here imports SimCord until it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import ConfigError, load_settings
from bot.playground.session import MissingExtra, Playground, PlaygroundOptions, require_extra
from bot.playground.shots import take_screenshots

if TYPE_CHECKING:
    from bot.service.game import Game

EXIT_MISSING_EXTRA = 2
"""Exit status when the playground's extra is not installed (as for any unusable setting)."""

INSTALL_HINT = "romme-bot playground needs the playground extra: pip install '.[playground]'"
"""The one line printed when the extra is missing."""


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the playground's options to ``parser`` (for ``romme-bot playground``) and return it.

    >>> args = add_arguments(argparse.ArgumentParser()).parse_args(["--people", "2"])
    >>> args.people, args.computers, args.no_browser
    (2, 2, False)
    """
    parser.add_argument(
        "--database",
        metavar="PATH",
        type=Path,
        help="keep the games in this SQLite file (default: a new file in a temporary folder)",
    )
    parser.add_argument(
        "--people",
        metavar="N",
        type=int,
        default=1,
        help="simulated people, 'you' first; the page can switch between them (default 1)",
    )
    parser.add_argument(
        "--computers",
        metavar="N",
        type=int,
        default=2,
        help="computer seats in the lobby (default 2)",
    )
    parser.add_argument(
        "--language",
        choices=("en", "de", "id"),
        help="the table's language, also the server's and the people's; with --screenshot, the "
        "scripted game's (default: English)",
    )
    parser.add_argument(
        "--locales",
        metavar="LIST",
        type=lambda text: tuple(part.strip() for part in text.split(",") if part.strip()),
        default=(),
        help="the people's Discord locales, 'you' first, e.g. de,id (default: the --language)",
    )
    parser.add_argument("--no-browser", action="store_true", help="print the address, do not open a browser")
    parser.add_argument(
        "--port", metavar="PORT", type=int, default=0, help="port on 127.0.0.1 (default: any free port)"
    )
    parser.add_argument(
        "--screenshot",
        metavar="DIR",
        type=Path,
        help="play a short scripted game, save PNG pictures of it in DIR (needs Chromium), and exit",
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``romme-bot playground`` on its own."""
    return add_arguments(
        argparse.ArgumentParser(
            prog="romme-bot playground",
            description="Play Rommé in a local browser page: the real bot in a simulated Discord, "
            "no token and no network needed. Only this computer can reach the page.",
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``romme-bot playground`` with ``argv`` (the arguments after ``playground``); the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a bad argument (argparse printed why)
        return exc.code if isinstance(exc.code, int) else 2
    return run(args)


HEALTH_SETTINGS = ("HEALTH_PORT", "HEALTH_HOST")
"""The settings the playground reads from the environment: its bot serves health and metrics too."""


def run(args: argparse.Namespace) -> int:
    """Run the playground for parsed arguments (see :func:`add_arguments`); the exit status.

    ``HEALTH_PORT`` and ``HEALTH_HOST`` in the environment are the bot's, as for ``romme-bot run``."""
    try:
        health = load_settings(
            {name: os.environ[name] for name in HEALTH_SETTINGS if name in os.environ}, dotenv_path=None
        )
        options = PlaygroundOptions(
            database_path=args.database,
            people=args.people,
            computers=args.computers,
            port=args.port,
            language=args.language,
            locales=args.locales,
            health_port=health.health_port,
            health_host=health.health_host,
        )
    except ValueError as exc:  # a ConfigError too: one line naming the setting
        print(f"romme-bot playground: {exc}", file=sys.stderr)
        return 2
    try:
        require_extra()
    except MissingExtra:
        print(INSTALL_HINT, file=sys.stderr)
        return EXIT_MISSING_EXTRA
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    if args.screenshot is not None:
        return asyncio.run(
            take_screenshots(args.screenshot, database_path=args.database, language=args.language)
        )
    try:
        return asyncio.run(serve(options, open_browser=not args.no_browser))
    except ConfigError as exc:  # HEALTH_PORT cannot be listened on
        print(f"romme-bot playground: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        # SimCord's preview says it could not bind, with the OSError as its cause: one line, not the
        # traceback of the web server's bind.
        cause = exc if isinstance(exc, OSError) else exc.__cause__
        if args.port and isinstance(cause, OSError):
            reason = cause.strerror or str(cause)
            print(
                f"romme-bot playground: port {args.port} on 127.0.0.1 is not free ({reason})", file=sys.stderr
            )
            return 2
        raise


async def serve(options: PlaygroundOptions, *, open_browser: bool = True) -> int:
    """Run the playground until Ctrl-C, SIGTERM or "End preview session"; the exit status."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        async with Playground(options) as playground:
            seats = _seats_text(options)
            resumed = playground.resumed
            print("Rommé playground: the real bot in a simulated Discord, on this computer only.")
            print(f"Open this address in your browser:\n\n    {playground.url}\n")
            print("The part after # is a secret: whoever has the address can play as you.")
            if playground.bot is not None and playground.bot.ops is not None:
                ops = playground.bot.ops
                print(f"Health and metrics: http://{ops.host}:{ops.port}/healthz and /metrics")
            if resumed is None:
                print(f"At the table: {seats}. Click Start in the lobby. Ctrl-C stops the playground.")
            else:
                print(f"{running_text(resumed)} Ctrl-C stops the playground.")
            sys.stdout.flush()
            if open_browser:
                await asyncio.to_thread(_open_browser, playground.url)
            closed = asyncio.ensure_future(playground.wait_closed())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait((closed, stopped), return_when=asyncio.FIRST_COMPLETED)
            for waiter in (closed, stopped):
                waiter.cancel()
            print("\nStopping…")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    where = playground.database_path
    print(f"Stopped. The games are saved in {where}")
    print(f"(start again on them with: romme-bot playground --database {where})")
    return 0


def running_text(game: Game) -> str:
    """What the console says of the game found in ``#romme`` when the playground starts again.

    >>> from bot.service.game import Game, GameStatus, Seat
    >>> lobby = Game(id=3, guild_id=1, channel_id=2, host_id=7, seats=[Seat(7, "you")])
    >>> running_text(lobby)
    'Back to game 3 in #romme: its lobby is open (you). Click Start in the lobby.'
    """
    names = [seat.name for seat in game.seats]
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    if game.match is None:
        return f"Back to game {game.id} in #romme: its lobby is open ({who}). Click Start in the lobby."
    match = game.match
    where = f"round {match.round_no} of {match.rounds_planned}"
    if match.round.over:
        where += " is over"
    return f"Back to game {game.id} in #romme, {where}: {who}. Its table is shown again."


def _seats_text(options: PlaygroundOptions) -> str:
    """Who sits at the table at start.

    >>> _seats_text(PlaygroundOptions(people=2, computers=1))
    'Sam, Alex and 1 computer'
    """
    names = list(options.names)
    if options.computers:
        names.append(f"{options.computers} computer{'s' if options.computers != 1 else ''}")
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _open_browser(url: str) -> None:
    """Open ``url`` in a graphical browser, if there is a screen to show one on.

    Without a display, :mod:`webbrowser` falls back to text browsers that would take over this
    terminal, so the address printed above has to do.
    """
    import webbrowser

    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        print("(No display found: open the address yourself.)")
        return
    try:
        if not webbrowser.open(url):
            print("(Could not open a browser: open the address yourself.)")
    except webbrowser.Error:
        print("(Could not open a browser: open the address yourself.)")


__all__ = [
    "EXIT_MISSING_EXTRA",
    "INSTALL_HINT",
    "add_arguments",
    "build_parser",
    "main",
    "run",
    "running_text",
    "serve",
]
