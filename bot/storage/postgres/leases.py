"""Shard leases: which bot process plays the games of which shard, when several share one
PostgreSQL database (see :meth:`~bot.storage.postgres.PostgresStorage.take_shards`).

A lease per shard names its owner and expires unless renewed; :class:`LeaseKeeper` renews a
process's leases from a thread of its own. Every take draws a new epoch, the fencing token a save
carries (:class:`ShardLost` when the lease was taken over since).
"""

from __future__ import annotations

import abc
import asyncio
import logging
import os
import socket
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import asyncpg

from bot.storage.errors import StorageError, WriteFenced

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

log = logging.getLogger(__name__)

T = TypeVar("T")
_Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

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


class ShardCountMismatch(StorageError):
    """A live process runs another number of shards than this one would: the two would map the
    servers to processes differently and play some games twice (and others not at all), so this
    process is refused at start; the message is one line naming the other count and its process.

    >>> str(ShardCountMismatch(3, other_count=2, owner="host-a pid 12", seconds_left=27.5))
    'SHARD_COUNT is 3 here, but a live romme-bot process (host-a pid 12) runs SHARD_COUNT=2 ...'
    """

    def __init__(self, count: int, *, other_count: int, owner: str, seconds_left: float) -> None:
        super().__init__(
            f"SHARD_COUNT is {count} here, but a live romme-bot process ({owner}) runs "
            f"SHARD_COUNT={other_count} (its lease ends in {max(0, round(seconds_left))} s unless "
            "renewed): every process needs the same SHARD_COUNT; stop all the processes of the old "
            "count before starting any of the new one (README: Running on many servers)"
        )
        self.other_count = other_count
        self.owner = owner


class ShardLost(WriteFenced):
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


class LeaseHolder(abc.ABC):
    """The shard leases of a storage (mixed into :class:`~bot.storage.postgres.PostgresStorage`):
    taken, renewed, kept by a :class:`LeaseKeeper` and given up; the epoch of the last take fences
    the storage's writes (:attr:`fence`)."""

    url: str
    fence: int | None = None
    """The epoch of this storage's shard leases (:meth:`take_shards`): every save and new game is
    refused (:class:`ShardLost`) unless the lease of its server's shard still carries it. ``None``
    (no lease taken, one process on the database): not fenced."""
    _shard_count = 0
    _lost: Callable[[list[int]], None] | None = None

    @abc.abstractmethod
    async def _write(self, write: Callable[[_Conn], Awaitable[T]], *, transaction: bool = True) -> T:
        """Run ``write`` on a connection (in a transaction block unless ``transaction`` is false)."""

    async def take_shards(
        self, shard_ids: Sequence[int], shard_count: int, *, owner: str, ttl: float
    ) -> list[Lease]:
        """Take the lease of every shard in ``shard_ids`` for ``ttl`` seconds, all or none.

        A shard whose lease is held by another owner and has not expired refuses the whole call
        with :class:`ShardTaken` (one line naming the shard and its holder); an expired lease (its
        process died, or stopped renewing) is taken over. Taking a lease this owner holds renews it.
        A live lease of another owner with another ``shard_count`` (any shard) refuses the call with
        :class:`ShardCountMismatch`: every process maps the servers to shards the same way, or none
        starts. Takes are serialised (a lock on the table, for the take's transaction), so two
        processes of different counts starting at once cannot both pass this check.

        Every take draws a new epoch (the fencing token, :attr:`Lease.epoch`), the same for all the
        shards of the call; from then on this storage's saves are fenced by it (:attr:`fence`). A
        lease held before is deleted and inserted again, which waits for the saves under way that
        hold it (they lock it ``FOR KEY SHARE``): once a take-over returns, no save of the process
        that lost the shard can commit any more.
        """

        async def write(db: _Conn) -> list[Lease]:
            # One take at a time (the heartbeats' UPDATEs wait for it; the saves' FOR KEY SHARE does not).
            await db.execute("LOCK TABLE shard_leases IN SHARE ROW EXCLUSIVE MODE")
            other = await db.fetchrow(
                "SELECT shard_count, owner, EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                "FROM shard_leases WHERE shard_count <> $1 AND owner <> $2 AND expires_at >= now() "
                "ORDER BY shard_id LIMIT 1",
                shard_count,
                owner,
            )
            if other is not None:
                raise ShardCountMismatch(
                    shard_count,
                    other_count=int(other["shard_count"]),
                    owner=other["owner"],
                    seconds_left=float(other["left_s"]),
                )
            epoch = int(await db.fetchval("SELECT nextval('shard_lease_epochs')"))
            taken = []
            for shard in sorted(shard_ids):
                held = await db.fetchrow(
                    "SELECT owner, taken_at, expires_at < now() AS expired, "
                    "EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                    "FROM shard_leases WHERE shard_id = $1 FOR UPDATE",
                    shard,
                )
                if held is not None:
                    if held["owner"] != owner and not held["expired"]:
                        raise ShardTaken(shard, owner=held["owner"], seconds_left=float(held["left_s"]))
                    await db.execute("DELETE FROM shard_leases WHERE shard_id = $1", shard)
                row = await db.fetchrow(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, epoch, taken_at, expires_at) "
                    "VALUES ($1, $2, $3, $4, COALESCE($5, now()), now() + make_interval(secs => $6)) "
                    "ON CONFLICT (shard_id) DO NOTHING "
                    "RETURNING shard_id, shard_count, owner, expires_at, epoch",
                    shard,
                    shard_count,
                    owner,
                    epoch,
                    held["taken_at"] if held is not None and held["owner"] == owner else None,
                    float(ttl),
                )
                if row is None:  # another process took it in the meantime (and has committed)
                    won = await db.fetchrow(
                        "SELECT owner, EXTRACT(EPOCH FROM expires_at - now()) AS left_s "
                        "FROM shard_leases WHERE shard_id = $1",
                        shard,
                    )
                    assert won is not None
                    raise ShardTaken(shard, owner=won["owner"], seconds_left=float(won["left_s"]))
                taken.append(lease_of(row))
            return taken

        leases = await self._write(write)
        if leases:
            self.fence = leases[0].epoch
            self._shard_count = shard_count
        return leases

    async def renew_shards(self, shard_ids: Sequence[int], *, owner: str, ttl: float) -> list[int]:
        """The heartbeat: push the leases this owner still holds ``ttl`` seconds on; returns the
        shards renewed (a shard missing from it was lost: its lease expired and another took it)."""

        async def write(db: _Conn) -> list[int]:
            rows = await db.fetch(RENEW, list(shard_ids), owner, float(ttl), None)
            return sorted(int(row["shard_id"]) for row in rows)

        return await self._write(write, transaction=False)

    def keep_shards(
        self, shard_ids: Sequence[int], *, owner: str, ttl: float, lost: Callable[[list[int]], None]
    ) -> LeaseKeeper:
        """Start the heartbeat of this owner's leases (see :class:`LeaseKeeper`); ``lost`` is called on
        the calling loop with the shards found taken over by another process."""
        keeper = LeaseKeeper(
            self.url, shard_ids, owner=owner, ttl=ttl, lost=self._report_once(lost), epoch=self.fence
        )
        self._lost = keeper._lost
        keeper.start()
        return keeper

    def _report_once(self, lost: Callable[[list[int]], None]) -> Callable[[list[int]], None]:
        """``lost`` called at most once, by the heartbeat or by the first fenced write."""
        told: list[bool] = []

        def report(shards: list[int]) -> None:
            if not told:
                told.append(True)
                lost(shards)

        return report

    def _fenced(self, guild_id: int) -> None:
        """A write was refused by the fence: its shard is lost, and the owner hears it now rather
        than at the next heartbeat."""
        if self._lost is not None and self._shard_count:
            self._lost([(guild_id >> 22) % self._shard_count])

    async def release_shards(self, shard_ids: Sequence[int], *, owner: str) -> None:
        """Give the leases up (a clean stop): another process may take the shards at once."""

        async def write(db: _Conn) -> None:
            await db.execute(
                "DELETE FROM shard_leases WHERE shard_id = ANY($1::integer[]) AND owner = $2",
                list(shard_ids),
                owner,
            )

        await self._write(write, transaction=False)


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
