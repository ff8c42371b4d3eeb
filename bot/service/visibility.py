"""Who may see a match: the one rule every reader of a game's content asks, :func:`may_view`.

**The rule.** A member may see a game (its line in ``/romme history``, its replay and each step
of it, its round select, its export, its place in ``/romme replay``'s autocomplete, and whatever
shows a match later: spectators, tournaments) only if

1. the game was played on the server the member asks from, and
2. the member can view the game's channel *now*, as Discord decides it: View Channel in the channel
   (its overwrites and the member's roles); for a game in a thread, View Channel in the thread's
   parent, and for a private thread also being in the thread, or Manage Threads there.

It is asked at every read, never remembered: a permission taken away is in force at the next click
of a viewer opened before. A channel that no longer exists cannot be viewed, so its games are seen
by nobody.

**One answer for every "no".** A game of another server, a game in a channel the member cannot view
and a game that does not exist are refused alike (``replay.not_found``, the same words), so a game's
id tells nothing to whoever probes it.

The service knows no Discord: the member asking is a :class:`Viewer`, a small port answered by the
layer that does (:class:`cogs.visibility.MemberViewer`, from the interaction's member). A front end
without Discord, or a test of the service, gives :class:`SeenChannels`.

>>> import asyncio
>>> from bot.service.game import Game
>>> dee = SeenChannels(guild_id=10, channels=frozenset({20}))
>>> open_game = Game(id=1, guild_id=10, channel_id=20, host_id=7)
>>> secret_game = Game(id=2, guild_id=10, channel_id=21, host_id=7)
>>> elsewhere = Game(id=3, guild_id=11, channel_id=20, host_id=7)
>>> [asyncio.run(may_view(dee, game)) for game in (open_game, secret_game, elsewhere)]
[True, False, False]
>>> [game.id for game in asyncio.run(visible(dee, [open_game, secret_game, elsewhere]))]
[1]
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

__all__ = ["Placed", "SeenChannels", "Viewer", "may_view", "visible"]


class Viewer(Protocol):
    """The member who asks to see a match, as the layer that knows Discord answers for them."""

    @property
    def guild_id(self) -> int:
        """The server the member asks from (0 outside a server: nothing is seen there)."""
        ...

    async def may_view_channel(self, channel_id: int) -> bool:
        """Whether the member can view channel (or thread) ``channel_id`` of :attr:`guild_id` now
        (rule 2 above); False for a channel that is not there. Never raises: a question Discord
        could not answer is a no."""
        ...


class Placed(Protocol):
    """Where a game was played: a :class:`~bot.service.game.Game` or a stored game's record."""

    @property
    def guild_id(self) -> int:
        """The game's server."""
        ...

    @property
    def channel_id(self) -> int:
        """The game's channel (a thread's id, for a game in a thread)."""
        ...


@dataclass(frozen=True, slots=True)
class SeenChannels:
    """A viewer on server ``guild_id`` who can view exactly ``channels`` (a test, or a front end
    without Discord).

    >>> import asyncio
    >>> asyncio.run(SeenChannels(1, frozenset({5})).may_view_channel(5))
    True
    """

    guild_id: int
    channels: frozenset[int] = field(default_factory=frozenset)

    async def may_view_channel(self, channel_id: int) -> bool:
        """Whether ``channel_id`` is one of :attr:`channels`."""
        return channel_id in self.channels


async def may_view(viewer: Viewer, game: Placed) -> bool:
    """**The rule** (this module's docstring): whether ``viewer`` may see ``game``'s content now."""
    return _on_server(viewer, game) and await viewer.may_view_channel(game.channel_id)


def _on_server(viewer: Viewer, game: Placed) -> bool:
    return bool(viewer.guild_id) and game.guild_id == viewer.guild_id


P = TypeVar("P", bound=Placed)


async def visible(
    viewer: Viewer, games: Iterable[P], known: MutableMapping[int, bool] | None = None
) -> list[P]:
    """The games of ``games`` that ``viewer`` may see (:func:`may_view`'s rule), in their order. Each channel
    is asked once, all of them at the same time (a thread out of the client's cache is a request to
    Discord); ``known`` keeps the answers between calls for one viewer (one interaction)."""
    known = {} if known is None else known
    games = [game for game in games if _on_server(viewer, game)]
    asked = sorted({game.channel_id for game in games} - set(known))
    answers = await asyncio.gather(*(viewer.may_view_channel(channel_id) for channel_id in asked))
    known.update(zip(asked, answers, strict=True))
    return [game for game in games if known[game.channel_id]]
