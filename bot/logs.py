"""The bot's log: readable text lines (the default) or one JSON object a line (``LOG_FORMAT=json``).

A JSON line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, then ``game``,
``guild`` and ``shard`` when the record is about a game, and ``error`` (the traceback) when it
carries one. The game and the server come from :func:`about_game`, which the work on one game
(a click, a change, a timed wake-up) is run inside; the shard follows from the server, when the bot
is sharded. Nothing new is written to the log: a JSON line holds the text line's message, never a
card or a component's custom id (the log's callers say "game 12: the click sort failed", not what
the click carried).

>>> import io, json, logging
>>> stream = io.StringIO()
>>> logger = configure_logging("INFO", "json", stream=stream, shard_count=2, name="demo")
>>> with about_game(12, guild_id=5 << 22):
...     logger.warning("game %s: the table could not be edited", 12)
>>> line = json.loads(stream.getvalue())
>>> line["level"], line["logger"], line["message"], line["game"], line["guild"], line["shard"]
('WARNING', 'demo', 'game 12: the table could not be edited', 12, 20971520, 1)
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TextIO

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
"""A text line: when, how bad, which logger, what."""

_GAME: contextvars.ContextVar[tuple[int, int | None] | None] = contextvars.ContextVar(
    "romme_log_game", default=None
)


@contextmanager
def about_game(game_id: int | None, guild_id: int | None = None) -> Iterator[None]:
    """Log the records made inside this block as about ``game_id`` (on server ``guild_id``).

    A context variable: the tasks started inside the block carry it too. An inner block about the
    same game adds the server it knows; ``game_id=None`` changes nothing.

    >>> with about_game(3):
    ...     with about_game(3, guild_id=9):
    ...         inner = current_game()
    ...     outer = current_game()
    >>> inner, outer, current_game()
    ((3, 9), (3, None), None)
    """
    if game_id is None:
        yield
        return
    known = _GAME.get()
    if guild_id is None and known is not None and known[0] == game_id:
        guild_id = known[1]
    token = _GAME.set((game_id, guild_id))
    try:
        yield
    finally:
        _GAME.reset(token)


def current_game() -> tuple[int, int | None] | None:
    """The game (and server) the running code is about, set by :func:`about_game`, or ``None``."""
    return _GAME.get()


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message``, and ``game``,
    ``guild``, ``shard`` and ``error`` when known. ``shard_count``: the bot's ``SHARD_COUNT``
    (``None``: unsharded, no ``shard``).

    A record's own ``game``/``guild`` (``extra={"game": 7}``) win over :func:`about_game`'s.

    >>> record = logging.LogRecord("bot", logging.INFO, __file__, 1, "game %s is back", (7,), None)
    >>> record.created = 0.0
    >>> JsonFormatter().format(record)
    '{"time": "1970-01-01T00:00:00.000Z", "level": "INFO", "logger": "bot", "message": "game 7 is back"}'
    """

    def __init__(self, shard_count: int | None = None) -> None:
        super().__init__()
        self.shard_count = shard_count

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON (a traceback is kept in ``error``, escaped)."""
        stamp = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        stamp_game(record)
        game = getattr(record, "game", None)
        guild = getattr(record, "guild", None)
        if game is not None:
            line["game"] = game
        if guild is not None:
            line["guild"] = guild
            if self.shard_count:
                # Discord's own rule for which shard carries a server.
                line["shard"] = (int(guild) >> 22) % self.shard_count
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def stamp_game(record: logging.LogRecord) -> bool:
    """Write the game and server of :func:`about_game` on ``record`` (as ``game``, ``guild``) unless
    it has its own; always True, so it serves as a handler's filter: a handler that formats its
    records later, outside the block (a test's capture), still knows them.

    >>> record = logging.LogRecord("bot", logging.INFO, __file__, 1, "hello", (), None)
    >>> with about_game(4, guild_id=8):
    ...     stamp_game(record)
    True
    >>> record.game, record.guild
    (4, 8)
    """
    known = _GAME.get()
    if known is not None:
        # As logging's own ``extra=`` does: the record's attributes are its __dict__.
        fields = record.__dict__
        if fields.get("game") is None:
            fields["game"] = known[0]
        if fields.get("guild") is None and fields["game"] == known[0]:
            fields["guild"] = known[1]
    return True


def make_formatter(log_format: str, *, shard_count: int | None = None) -> logging.Formatter:
    """The formatter of ``LOG_FORMAT`` (``text`` or ``json``).

    >>> type(make_formatter("json")).__name__, make_formatter("text")._fmt == TEXT_FORMAT
    ('JsonFormatter', True)
    """
    if log_format == "json":
        return JsonFormatter(shard_count)
    return logging.Formatter(TEXT_FORMAT)


def configure_logging(
    level: str,
    log_format: str,
    *,
    stream: TextIO | None = None,
    shard_count: int | None = None,
    name: str | None = None,
) -> logging.Logger:
    """Send the log of ``name`` (default: the root logger, every library's log) at ``level`` to
    ``stream`` (default: stderr) in ``log_format``; replaces the handlers it had. Returns the logger."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(make_formatter(log_format, shard_count=shard_count))
    handler.addFilter(stamp_game)
    logger = logging.getLogger(name)
    for old in list(logger.handlers):
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.setLevel(level)
    if name is not None:
        logger.propagate = False
    return logger
