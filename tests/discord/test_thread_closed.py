"""A game's thread closed under it (issue 25, point 7): archived by a moderator (or a day without a
message), the table is brought back and edited again; locked, or deleted, the game's requests stop
as they do for a deleted channel, and the game goes on.

SimCord keeps a thread's ``archived`` and ``locked`` flags but lets every request through; the
fixture :func:`discord_threads` adds what Discord does with them (a model of Discord, not of the
bot): a message posted in an archived thread that is not locked brings it back, any other request
on its messages is refused with 50083 ("Thread is archived"), and only a moderator (which the bot
is not) may unarchive a locked thread (403, 50013).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import simcord
import simcord.http.router as router
from simcord.backend.errors import BackendError

from bot.publish.publisher import table_message as drawn_table
from bot.service.game import Game
from tests.discord.play_helpers import Player, Room, romme_bot, service, table_message


@pytest.fixture
def discord_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord answers requests in archived and locked threads as Discord does (see the module)."""
    check: Callable[[Any, str, str], None] = router._check_faults

    def threads_as_discord(backend: Any, method: str, path: str) -> None:
        check(backend, method, path)
        parts = path.strip("/").split("/")
        if parts[0] != "channels" or len(parts) < 2 or not parts[1].isdigit():
            return
        channel = backend.channels.get(int(parts[1]))
        meta = getattr(channel, "thread_metadata", None)
        if meta is None or not meta.archived:
            return
        if len(parts) >= 3 and parts[2] == "messages" and method != "GET":
            if method == "POST" and len(parts) == 3 and not meta.locked:
                meta.archived = False  # a message brings a thread that is not locked back
                return
            raise BackendError(400, 50083, "Thread is archived")
        if len(parts) == 2 and method == "PATCH" and meta.locked:
            raise BackendError(403, 50013, "Missing Permissions")

    monkeypatch.setattr(router, "_check_faults", threads_as_discord)


async def thread_game(room: Room) -> tuple[simcord.ChannelHandle, Player]:
    """Ada and two computers in a thread of the channel, dealt; Ada plays by clicks."""
    result = await room.ada.slash(room.channel, "romme start", thread=True, computers=2, rounds=1)
    assert result.response is not None
    (home,) = room.channel.threads
    game = service(room.env).game_in_channel(home.id)
    assert game is not None
    await room.ada.click(table_message(room.env, game), label="Start")
    return home, Player(room.env, room.ada, home)


def thread_meta(env: simcord.Env, thread: simcord.ChannelHandle) -> Any:
    meta = env.backend.channels[thread.id].thread_metadata
    assert meta is not None
    return meta


def shows_now(env: simcord.Env, game: Game) -> bool:
    """The table message in Discord is exactly what the game looks like now."""
    embeds = drawn_table(game, results=romme_bot(env).publisher.results_of(game.id))[1]
    return bool(table_message(env, game).embeds[0].to_dict() == embeds[0].to_dict())


def requests_in(env: simcord.Env, thread: simcord.ChannelHandle, since: int) -> list[tuple[str, str]]:
    """The bot's REST requests on the thread (itself or its messages) from the ``since``-th on."""
    prefix = f"/channels/{thread.id}"
    return [
        (entry.method, entry.path)
        for entry in env.http_requests[since:]
        if entry.path == prefix or entry.path.startswith(prefix + "/")
    ]


async def test_a_table_in_an_archived_thread_is_brought_back_and_edited_again(
    room: Room, discord_threads: None
) -> None:
    env = room.env
    home, ada = await thread_game(room)
    game = ada.game()
    meta = thread_meta(env, home)
    meta.archived = True  # a moderator closed the thread (not locked)
    since = len(env.http_requests)
    version = game.version
    await ada.play_turn()
    game = ada.game()
    assert game.version > version
    # The bot unarchived its thread itself, and the table shows the game as it is now.
    assert not meta.archived and not meta.locked
    assert ("PATCH", f"/channels/{home.id}") in requests_in(env, home, since)
    assert shows_now(env, game)
    assert romme_bot(env).publisher.guard.stopped(game.id) is None
    # Closed again while the computers play on: brought back again, without a click.
    meta.archived = True
    await ada.play_turn()
    assert not meta.archived and shows_now(env, ada.game())


@pytest.mark.parametrize("closed", ["locked", "deleted"])
async def test_a_locked_or_deleted_thread_stops_the_games_requests(
    room: Room, discord_threads: None, closed: str
) -> None:
    env = room.env
    home, ada = await thread_game(room)
    game = ada.game()
    if closed == "locked":
        meta = thread_meta(env, home)
        meta.archived = meta.locked = True
    else:
        env.backend.delete_channel(home.id)
    since, version = len(env.http_requests), game.version
    # Nobody clicks: Ada's turn timers let the computer play her turns, the computers play theirs.
    for _ in range(10):
        await env.advance_time(60)
    assert ada.game().version > version + 3
    assert romme_bot(env).publisher.guard.stopped(game.id) is not None
    tried = requests_in(env, home, since)
    # One refused table edit (and, for a lock, the look at the thread that finds it locked; a lock is
    # a moderator's and is never undone), then nothing more to the closed thread.
    assert ("PATCH", f"/channels/{home.id}") not in tried
    assert len([request for request in tried if "/messages" in request[1]]) == 1, tried
    if closed == "locked":
        assert thread_meta(env, home).archived and thread_meta(env, home).locked
