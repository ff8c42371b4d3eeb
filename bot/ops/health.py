"""``GET /healthz``: whether the bot is well, in a small JSON, and what is not.

The check reads discord.py's own state of the gateway, the shard leases, and asks the database one
cheap read (``SELECT 1``, at most :data:`DATABASE_TIMEOUT` seconds); nothing else waits. The bot is
well when the gateway is connected (READY, every shard's connection open), it holds the lease of
every shard it runs (PostgreSQL with ``SHARD_COUNT``), the database answers and its writer is up
(the SQLite writer thread runs, the PostgreSQL pool is open). The last save's age is reported, not
judged: a bot nobody plays on saves nothing.

The JSON (:func:`check_health`), the same whether well or not::

    {"status": "ok", "problems": {}, "gateway_connected": true, "shards": [0],
     "shard_leases": null, "database_answering": true, "database_ms": 0.3,
     "writer_alive": true, "last_save_age_seconds": 4.2}

``status`` is ``"failing"`` when ``problems`` names anything (by the field it is about: ``gateway``,
``shard_leases``, ``database``, ``writer``), and the server answers 503 instead of 200.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.ops.watched import Watched, gateway_of, part

DATABASE_TIMEOUT = 2.0
"""Seconds the database's cheap read may take before the check says it does not answer."""


async def check_health(bot: Watched) -> dict[str, Any]:
    """The health of ``bot`` as the JSON of ``/healthz`` (see the module); ``status`` is ``"ok"``
    exactly when ``problems`` is empty."""
    problems: dict[str, str] = {}
    gateway = gateway_of(bot)
    if not gateway.connected:
        closed = sorted(shard for shard, up in gateway.shards.items() if not up)
        if bot.is_closed():
            problems["gateway"] = "the bot is closed"
        elif closed:
            problems["gateway"] = f"shards {closed} are not connected"
        else:
            problems["gateway"] = "not connected (no READY from Discord yet)"
    leases = bot.leases
    held: list[int] | None = None
    if leases is not None:
        held = list(leases.held)
        missing = sorted(set(leases.shards.ids) - set(held))
        if missing:
            problems["shard_leases"] = f"the leases of shards {missing} are not held"
    answering, read_ms, writer_alive = await _database(bot, problems)
    tables = part(lambda: bot.tables)
    last_save = None if tables is None else tables.changes.last_save
    return {
        "status": "failing" if problems else "ok",
        "problems": problems,
        "gateway_connected": gateway.connected,
        "shards": sorted(shard for shard, up in gateway.shards.items() if up),
        "shard_leases": held,
        "database_answering": answering,
        "database_ms": read_ms,
        "writer_alive": writer_alive,
        "last_save_age_seconds": None if last_save is None else round(time.monotonic() - last_save, 1),
    }


async def _database(bot: Watched, problems: dict[str, str]) -> tuple[bool, float | None, bool]:
    """Whether the database answers its cheap read, in how many milliseconds, and whether its writer
    is up; what is wrong goes into ``problems``."""
    storage = part(lambda: bot.storage)
    if storage is None:
        problems["database"] = "the database is not open"
        problems["writer"] = "the database is not open"
        return False, None, False
    began = time.perf_counter()
    answering = False
    try:
        async with asyncio.timeout(DATABASE_TIMEOUT):
            await storage.ping()
        answering = True
    except TimeoutError:
        problems["database"] = f"no answer to a read within {DATABASE_TIMEOUT:g} s"
    except Exception as exc:
        problems["database"] = "a read failed: " + (" ".join(str(exc).split()) or type(exc).__name__)
    read_ms = round((time.perf_counter() - began) * 1000, 2) if answering else None
    writer_alive = storage.writer_alive
    if not writer_alive:
        problems["writer"] = "writes cannot go out (the writer thread stopped, or the pool is closed)"
    return answering, read_ms, writer_alive
