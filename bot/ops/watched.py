"""What the health check and the metrics read of the bot: :class:`Watched`, and its gateway's state.

:class:`~bot.client.RommeBot` is a :class:`Watched`. Its parts are built in its ``setup_hook`` and
the storage closes with the bot, so every read here may find a part missing (:func:`part`): the
health check then names it, and the metrics leave its series out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

import discord

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.publish import TablePublisher
    from bot.render.faces import Face
    from bot.service import TableService
    from bot.service.shards import ShardLeases
    from bot.storage.interface import Database

T = TypeVar("T")


class Watched(Protocol):
    """The bot as the health check and the metrics see it (a ``discord.Client`` with its parts).

    ``storage``, ``tables`` and ``publisher`` raise ``RuntimeError`` while they are not built (or,
    the storage, once closed)."""

    @property
    def settings(self) -> Settings:
        """The bot's settings (``CARD_STYLE`` is read)."""
        ...

    @property
    def card_faces(self) -> Mapping[str, Face] | None:
        """The card faces in use; ``None``: cards are text."""
        ...

    @property
    def storage(self) -> Database:
        """The open database."""
        ...

    @property
    def tables(self) -> TableService:
        """The table service."""
        ...

    @property
    def publisher(self) -> TablePublisher:
        """The table messages' publisher."""
        ...

    @property
    def leases(self) -> ShardLeases | None:
        """This process's shard leases (PostgreSQL with ``SHARD_COUNT``); ``None``: it needs none."""
        ...

    def is_closed(self) -> bool:
        """discord.py: the client is closed."""
        ...

    def is_ready(self) -> bool:
        """discord.py: the gateway said READY."""
        ...


def part(read: Callable[[], T]) -> T | None:
    """``read()``, or ``None`` while the part it reads is not built or is closed (``RuntimeError``).

    >>> def closed():
    ...     raise RuntimeError("the bot's storage is not open")
    >>> part(lambda: 3), part(closed)
    (3, None)
    """
    try:
        return read()
    except RuntimeError:
        return None


@dataclass(frozen=True, slots=True)
class Gateway:
    """The gateway connections of the bot: each shard it runs, connected or not.

    >>> Gateway(ready=True, shards={0: True}).connected
    True
    >>> Gateway(ready=True, shards={0: True, 1: False}).connected
    False
    >>> Gateway(ready=False, shards={0: True}).connected
    False
    """

    ready: bool
    shards: dict[int, bool]

    @property
    def connected(self) -> bool:
        """READY was received and every shard's connection is open."""
        return self.ready and bool(self.shards) and all(self.shards.values())


def gateway_of(bot: Watched) -> Gateway:
    """The state of ``bot``'s gateway connections now (no network: discord.py's own state)."""
    if bot.is_closed():
        return Gateway(ready=False, shards={})
    if isinstance(bot, discord.AutoShardedClient):
        shards = {shard_id: not info.is_closed() for shard_id, info in bot.shards.items()}
    else:
        ws = getattr(bot, "ws", None)  # discord.py's socket; None until the first connect
        shards = {} if ws is None else {int(getattr(ws, "shard_id", None) or 0): bool(ws.open)}
    return Gateway(ready=bot.is_ready(), shards=shards)
