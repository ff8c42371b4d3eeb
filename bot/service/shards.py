"""Which games this process plays, and the leases that keep two processes from playing the same.

A game belongs to the gateway shard of its server, ``(guild_id >> 22) % shard_count`` (Discord's
rule: the shard that receives the server's events, its clicks included). A process runs some shards
(:class:`ShardSet`) and loads, times and plays only their games.

On PostgreSQL, where several processes share one database, each process holds a lease per shard
(:class:`ShardLeases`): taken at start, all or none (a shard another live process holds refuses the
start with one line naming it: the second process is REFUSED, it does not wait), renewed by a
heartbeat every third of its length (on a thread of its own, see
:class:`~bot.storage.postgres.LeaseKeeper`), given back at a clean stop. A process that dies stops renewing;
once its leases have expired, another process started with those shards takes them over and brings
their games back (timers and computer turns included), as any start does. A process that finds at a
heartbeat that it lost a lease (it was stalled longer than the lease) is told so (``lost``) and must
stop playing: its owner closes the bot.

Until it has noticed, its saves cannot harm the new owner's games: every take of the leases draws
a new epoch (a fencing token), and each save checks in its own statement, under a lock on the
lease row, that its game's shard still carries this process's epoch; a save that does not is
refused with nothing written (:class:`~bot.storage.postgres.ShardLost`), and ``lost`` is called at
once. A take-over waits for the saves under way of the process it replaces, so what they commit is
in the games it brings back.

An SQLite file needs no lease: one process per file (:mod:`bot.storage.sqlite.lock`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
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

    def keep_shards(
        self, shard_ids: Sequence[int], *, owner: str, ttl: float, lost: Callable[[list[int]], None]
    ) -> Keeper:
        """Start the heartbeat that renews the leases."""
        ...

    async def release_shards(self, shard_ids: Sequence[int], *, owner: str) -> None:
        """Give the leases up."""
        ...


class Keeper(Protocol):
    """A running heartbeat."""

    def stop(self) -> None:
        """End it."""
        ...


@dataclass(eq=False)
class ShardLeases:
    """This process's leases on its shards, with their heartbeat (see the module's docstring)."""

    store: LeaseStore
    shards: ShardSet
    _: KW_ONLY
    owner: str
    ttl: float
    lost: Callable[[list[int]], None] | None = None
    _keeper: Keeper | None = field(default=None, init=False, repr=False)
    _lost_shards: frozenset[int] = field(default=frozenset(), init=False, repr=False)

    @property
    def held(self) -> tuple[int, ...]:
        """The shards whose leases this process holds now: all of its shards from :meth:`take` until
        :meth:`close` or a lost lease; none before or after."""
        if self._keeper is None:
            return ()
        return tuple(shard for shard in self.shards.ids if shard not in self._lost_shards)

    async def take(self) -> None:
        """Take the leases (all or none; raises the store's one-line error) and start the heartbeat."""
        await self.store.take_shards(self.shards.ids, self.shards.count, owner=self.owner, ttl=self.ttl)
        log.info("shards %s of %d are ours (%s)", list(self.shards.ids), self.shards.count, self.owner)
        self._keeper = self.store.keep_shards(
            self.shards.ids, owner=self.owner, ttl=self.ttl, lost=self._lost
        )

    def _lost(self, missing: list[int]) -> None:
        self._lost_shards = self._lost_shards | set(missing)
        log.error("shards %s are no longer ours: another process took them over", missing)
        if self.lost is not None:
            self.lost(missing)

    async def close(self) -> None:
        """Stop the heartbeat and give the leases back (another process may take them at once)."""
        keeper, self._keeper = self._keeper, None
        if keeper is None:
            return
        keeper.stop()
        try:
            await self.store.release_shards(self.shards.ids, owner=self.owner)
        except Exception as exc:
            log.warning("the shard leases could not be given back (%s); they expire by themselves", exc)
