"""Shard leases: which bot process plays the games of which shard, when several share one
PostgreSQL database (see :meth:`~bot.storage.postgres.PostgresStorage.take_shards`).

A lease per shard names its owner and expires unless renewed; :class:`LeaseKeeper` renews a
process's leases from a thread of its own. Every take draws a new epoch, the fencing token a save
carries (:class:`ShardLost` when the lease was taken over since).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 10.0
"""Seconds to reach the server and log in before giving up with one line."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A shard's lease as stored: who holds it and until when (see :meth:`PostgresStorage.take_shards`)."""

    shard_id: int
    shard_count: int
    owner: str
    expires_at: datetime
    epoch: int = 0
    """The fencing token of the take that holds it (see :meth:`PostgresStorage.take_shards`)."""


class ShardTaken(StorageError):
    """A shard this process should run is held by another live process; the message is one line.

    >>> str(ShardTaken(3, owner="host-a pid 12", seconds_left=27.5))
    'shard 3 is held by another romme-bot process (host-a pid 12) for 28 s more: run each shard ...'
    """

    def __init__(self, shard_id: int, *, owner: str, seconds_left: float) -> None:
        super().__init__(
            f"shard {shard_id} is held by another romme-bot process ({owner}) for "
            f"{max(0, round(seconds_left))} s more: run each shard in one process"
        )
        self.shard_id = shard_id
        self.owner = owner


class ShardLost(StorageError):
    """A write refused because the lease of its game's shard was taken over by another process
    since this one took it (the fencing token differs): nothing was written, the other process
    plays the game now.

    >>> str(ShardLost("game 7"))
    'game 7: the shard lease of this process was taken over by another romme-bot process: not saved'
    """

    def __init__(self, what: str) -> None:
        super().__init__(
            f"{what}: the shard lease of this process was taken over by another romme-bot process: not saved"
        )


def default_owner() -> str:
    """What this process writes into the leases it holds: its host and process id.

    >>> "pid" in default_owner()
    True
    """
    return f"{socket.gethostname()} pid {os.getpid()}"


RENEW = (
    "UPDATE shard_leases SET heartbeat_at = now(), expires_at = now() + make_interval(secs => $3) "
    "WHERE shard_id = ANY($1::integer[]) AND owner = $2 AND ($4::bigint IS NULL OR epoch = $4) "
    "RETURNING shard_id"
)
"""The heartbeat (an UPDATE of no key column: the saves' ``FOR KEY SHARE`` does not hold it up)."""


class LeaseKeeper:
    """The heartbeat of a process's shard leases: every third of the lease, on a thread of its own
    with its own connection, the leases are renewed. Apart from the bot's event loop on purpose: a
    busy loop (or a test's simulated clock) never lets a live process's leases lapse, and a process
    that dies takes the thread with it, so its leases expire. A lease found held by another owner
    (this process was cut off from the server longer than the lease, and another took over) is
    reported to ``lost`` on the loop that started the keeper, and the heartbeat ends."""

    def __init__(
        self,
        url: str,
        shard_ids: Sequence[int],
        *,
        owner: str,
        ttl: float,
        lost: Callable[[list[int]], None],
        epoch: int | None = None,
    ) -> None:
        self.url = url
        self.shard_ids = sorted(shard_ids)
        self.owner = owner
        self.epoch = epoch
        """The epoch of the take (a lease taken again since, even by this owner, is lost)."""
        self.ttl = ttl
        self._lost = lost
        self._loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="romme-shard-heartbeat", daemon=True)
        self.beats = 0
        """How many heartbeats renewed every lease."""

    def start(self) -> None:
        """Start the heartbeat thread."""
        self._thread.start()

    def stop(self) -> None:
        """End the heartbeat (waits for the thread; the leases stay until released or expired)."""
        self._stop.set()
        self._thread.join(timeout=CONNECT_TIMEOUT + 5)

    def _run(self) -> None:
        asyncio.run(self._beat())

    async def _beat(self) -> None:
        connection: asyncpg.Connection | None = None
        try:
            while not self._stop.wait(self.ttl / 3):
                try:
                    if connection is None or connection.is_closed():
                        connection = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
                    rows = await connection.fetch(
                        RENEW, self.shard_ids, self.owner, float(self.ttl), self.epoch
                    )
                except Exception as exc:  # the server is away for a moment: try at the next beat
                    log.warning(
                        "the shard leases could not be renewed (%s: %s)", type(exc).__name__, one_line(exc)
                    )
                    connection = None
                    continue
                missing = sorted(set(self.shard_ids) - {int(row["shard_id"]) for row in rows})
                if missing:
                    self._loop.call_soon_threadsafe(self._lost, missing)
                    return
                self.beats += 1
        finally:
            if connection is not None and not connection.is_closed():
                await connection.close()


def lease_of(row: asyncpg.Record) -> Lease:
    return Lease(row["shard_id"], row["shard_count"], row["owner"], row["expires_at"], row["epoch"])


def one_line(exc: BaseException) -> str:
    """An error's message on one line (its type's name if it has none).

    >>> one_line(ValueError("two\\n lines"))
    'two lines'
    """
    return " ".join(str(exc).split()) or type(exc).__name__
