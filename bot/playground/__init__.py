"""``romme-bot playground``: the real bot in a simulated Discord, played in a local browser page.

No token and no network: the bot built by :func:`bot.create_bot` (same cogs, a real SQLite file)
runs inside SimCord with one server, one ``#romme`` channel, the person "you" (and, with
``--people``, others to switch to) and an open lobby with ``--computers`` computer seats. SimCord's
preview serves a Discord-like page on 127.0.0.1 only; its address carries a secret and is printed
once. Ctrl-C (or SIGTERM) stops it cleanly and says where the database is.

``--screenshot DIR`` instead plays a short scripted game and saves PNG pictures of it.

The preview needs an optional extra (``pip install '.[playground]'``); without it the command says
so in one line and exits with status 2. Nothing here imports SimCord until it runs.

One module per part:

- :mod:`bot.playground.cli`: the command line (options, messages, exit statuses);
- :mod:`bot.playground.session`: :class:`Playground`, the bot inside SimCord behind the page;
- :mod:`bot.playground.shots`: the scripted game that ``--screenshot`` pictures;
- :mod:`bot.playground.chromium`: headless Chromium photographing the page.

>>> import argparse
>>> add_arguments(argparse.ArgumentParser()).parse_args(["--computers", "1"]).computers
1
>>> PlaygroundOptions(people=3).names
('Sam', 'Alex', 'Bea')
"""

from __future__ import annotations

from bot.playground.cli import EXIT_MISSING_EXTRA, INSTALL_HINT, add_arguments, build_parser, main, run, serve
from bot.playground.session import MissingExtra, Playground, PlaygroundOptions, require_extra
from bot.playground.shots import take_screenshots

__all__ = [
    "EXIT_MISSING_EXTRA",
    "INSTALL_HINT",
    "MissingExtra",
    "Playground",
    "PlaygroundOptions",
    "add_arguments",
    "build_parser",
    "main",
    "require_extra",
    "run",
    "serve",
    "take_screenshots",
]
