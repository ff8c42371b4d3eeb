"""The storage's errors. Each reads as one line; only :class:`StorageError` means the file is unusable."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot be used: unreadable, newer than this code, or not the bot's.

    The message is one line and names the file; the command line prints it and exits with status 2.
    """


class GameNotFound(LookupError):
    """No game has this id.

    >>> str(GameNotFound(7))
    'no game with id 7'
    """

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class VersionConflict(Exception):
    """A save expected another version of the game: someone else saved first; nothing was written.

    >>> str(VersionConflict(3, expected=4, actual=5))
    'game 3 is at version 5, not 4: it changed since it was read'
    """

    def __init__(self, game_id: int, *, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id} is at version {actual}, not {expected}: it changed since it was read"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ChannelBusy(Exception):
    """A channel already has a game in the lobby or in play (one game per channel).

    >>> str(ChannelBusy(111, game_id=2))
    'channel 111 already has game 2 (not finished)'
    """

    def __init__(self, channel_id: int, *, game_id: int) -> None:
        super().__init__(f"channel {channel_id} already has game {game_id} (not finished)")
        self.channel_id = channel_id
        self.game_id = game_id


class WriteFenced(StorageError):
    """A write refused because another process plays the game's shard now (this process's shard
    lease was taken over since it took it): nothing was written. Not a broken database: the change
    belongs to the other process, and a click there succeeds (PostgreSQL's
    :class:`~bot.storage.postgres.ShardLost` is one).
    """
