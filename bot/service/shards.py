"""Which games this process plays, and the leases that keep two processes from playing the same.

A game belongs to the gateway shard of its server, ``(guild_id >> 22) % shard_count`` (Discord's
rule: the shard that receives the server's events, its clicks included). A process runs some shards
(:class:`ShardSet`) and loads, times and plays only their games.

On PostgreSQL, where several processes share one database, each process holds a lease per shard
(:class:`ShardLeases`): taken at start, all or none (a shard another live process holds refuses the
start with one line naming it: the second process is REFUSED, it does not wait), renewed by a
heartbeat every third of its length, given back at a clean stop. A process that dies stops renewing;
once its leases have expired, another process started with those shards takes them over and brings
their games back (timers and computer turns included), as any start does. A process that finds at a
heartbeat that it lost a lease (it was stalled longer than the lease) is told so (``lost``) and must
stop playing: its owner closes the bot.

An SQLite file needs no lease: one process per file (:mod:`bot.storage.lock`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a server (Discord's formula).

    >>> shard_of(0, 4), shard_of(3 << 22, 4), shard_of(5 << 22, 4)
    (0, 3, 1)
    """
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards one process runs, of ``count`` in all.

    >>> shards = ShardSet(ids=(1,), count=2)
    >>> shards.owns(1 << 22), shards.owns(2 << 22)
    (True, False)
    """

    ids: tuple[int, ...]
    count: int

    def owns(self, guild_id: int) -> bool:
        """Whether this process plays the games of this server."""
        return shard_of(guild_id, self.count) in self.ids


def everything(guild_id: int) -> bool:
    """An unsharded process plays every game.

    >>> everything(123)
    True
    """
    return True


@runtime_checkable
class LeaseStore(Protocol):
    """The part of the storage that keeps the leases (:class:`~bot.storage.postgres.PostgresStorage`)."""

    async def take_shards(self, shard_ids: Sequence[int], shard_count: int, *, owner: str, ttl: float) -> Any:
        """Take every lease or raise (one line naming the shard held by another)."""
        ...

    async def renew_shards(self, shard_ids: Sequence[int], *, owner: str, ttl: float) -> list[int]:
        """Renew the leases still held; return their shards."""
        ...

    async def release_shards(self, shard_ids: Sequence[int], *, owner: str) -> None:
        """Give the leases up."""
        ...


class ShardLeases:
    """This process's leases on its shards, with their heartbeat (see the module's docstring)."""

    def __init__(
        self,
        store: LeaseStore,
        shards: ShardSet,
        *,
        owner: str,
        ttl: float,
        lost: Callable[[list[int]], None] | None = None,
    ) -> None:
        self.store = store
        self.shards = shards
        self.owner = owner
        self.ttl = ttl
        self.lost = lost
        self._beat: asyncio.Task[None] | None = None

    async def take(self) -> None:
        """Take the leases (all or none; raises the store's one-line error) and start the heartbeat."""
        await self.store.take_shards(self.shards.ids, self.shards.count, owner=self.owner, ttl=self.ttl)
        log.info("shards %s of %d are ours (%s)", list(self.shards.ids), self.shards.count, self.owner)
        self._beat = asyncio.get_running_loop().create_task(self._heartbeat(), name="romme-shard-heartbeat")

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                held = await self.store.renew_shards(self.shards.ids, owner=self.owner, ttl=self.ttl)
            except Exception as exc:  # the database is away for a moment: try again at the next beat
                log.warning("the shard leases could not be renewed (%s: %s)", type(exc).__name__, exc)
                continue
            missing = sorted(set(self.shards.ids) - set(held))
            if missing:
                log.error("shards %s are no longer ours: another process took them over", missing)
                if self.lost is not None:
                    self.lost(missing)
                return

    async def close(self) -> None:
        """Stop the heartbeat and give the leases back (another process may take them at once)."""
        beat, self._beat = self._beat, None
        if beat is None:
            return
        beat.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beat
        try:
            await self.store.release_shards(self.shards.ids, owner=self.owner)
        except Exception as exc:
            log.warning("the shard leases could not be given back (%s); they expire by themselves", exc)
