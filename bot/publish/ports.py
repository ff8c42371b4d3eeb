"""What the publisher needs from the rest of the bot, each as a small named port.

The publisher draws tables and announcements and talks to Discord; it changes no game and reads no
database row by itself. It is given :class:`Ports` when it is built (:class:`bot.client.RommeBot`
does that):

- :class:`Channels`: where messages go (the Discord client);
- :class:`Tables`: the games (the :class:`~bot.service.TableService`), and the one change it makes:
  a freshly posted table message, recorded under the game's lock;
- :class:`Outbox`: the round and match ends owed to a channel (the storage's outbox).

A test or another front end gives its own objects of these shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord

    from bot.service.game import Game
    from bot.storage import AnnouncementRecord, RatingChange

__all__ = ["Channels", "Outbox", "Ports", "Tables"]


class Channels(Protocol):
    """Discord's side: the channels messages are sent to and edited in, and who the bot is."""

    @property
    def user(self) -> discord.ClientUser | None:
        """The bot's own account once logged in (its messages are found by it), else ``None``."""
        ...

    def get_partial_messageable(self, channel_id: int, /) -> discord.PartialMessageable:
        """The channel ``channel_id``, to send to or to edit a message in, without fetching it."""
        ...

    async def reopen_thread(self, thread_id: int, /) -> bool:
        """Unarchive the thread ``thread_id`` unless it is locked (False: locked, left closed);
        raises what Discord answered (a thread that is gone: 404)."""
        ...


class Tables(Protocol):
    """The games, as the table service keeps them."""

    async def fetch(self, game_id: int) -> Game:
        """The game, from memory or (ended before a restart) from storage; ``TableError`` if none."""
        ...

    def find(self, game_id: int) -> Game | None:
        """The game if it is in memory, else ``None``."""
        ...

    def owns(self, guild_id: int) -> bool:
        """Whether this process plays the server's games (its shards)."""
        ...

    def release(self, game_id: int) -> bool:
        """The game is over and its messages are owed nothing: it may leave memory (True: it is not
        in memory now; False: it stays, in play or being changed)."""
        ...

    async def table_posted(self, game: Game, message_id: int) -> None:
        """A fresh table message of ``game`` is in its channel: it is the one edited from now on
        (recorded under the game's lock; a failed write is raised, the id kept all the same)."""
        ...


class Outbox(Protocol):
    """The round and match ends owed to a channel, written with the change that ended them."""

    async def owed_announcements(self) -> list[AnnouncementRecord]:
        """Every announcement not yet marked delivered, by game, then round."""
        ...

    async def announcement_delivered(self, game_id: int, round_no: int, message_id: int | None) -> object:
        """Mark the end of ``round_no`` of the game delivered (``message_id``: where it went)."""
        ...

    async def game_rating_changes(self, game_id: int) -> list[tuple[RatingChange, int]]:
        """The rating changes the game's match made, each with the person's rated matches in the
        season so far (the match-end message's rating line, read back after a restart)."""
        ...


@dataclass(frozen=True, slots=True)
class Ports:
    """Everything the publisher reaches outside itself."""

    channels: Channels
    tables: Tables
    outbox: Outbox
