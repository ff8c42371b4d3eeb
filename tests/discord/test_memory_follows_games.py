"""Memory follows the games alive (issue 25, point 8): a finished game leaves memory once its last
message is owed nothing (its table shows the end with the results linked, its announcements are
delivered and noted), in a channel as in a thread, which never gets a new game to push it out; the
publisher's per-game maps are emptied with it. Only a bounded few stay whole for a click on their
messages (``RECENT_KEPT``).

Each match is the real one (:func:`tests.discord.whole_matches.play_a_match`).
"""

from __future__ import annotations

from collections.abc import Container

import pytest

from bot.client import RommeBot
from bot.service.game import Game
from bot.service.tables import RECENT_KEPT
from tests.discord import whole_matches
from tests.discord.play_helpers import Room, romme_bot, table_message, texts


async def play_a_match(room: Room, *, thread: bool) -> Game:
    return await whole_matches.play_a_match(room.env, room.ada, room.channel, thread=thread)


def kept_by_publisher(bot: RommeBot, game_id: int) -> list[str]:
    """The publisher's maps that still hold something of the game."""
    publisher = bot.publisher
    maps: dict[str, Container[int]] = {
        "drawn": publisher._shown,
        "rounds": publisher._rounds,
        "results": publisher._results,
        "guard": publisher.guard._games,
        "round ends": publisher.announcer._ends,
        "panels": publisher.panels._by_game,
        "sorts and draws": publisher.panels._noted,
    }
    return [name for name, kept in maps.items() if game_id in kept]


@pytest.mark.parametrize("thread", [False, True], ids=["channel", "thread"])
async def test_a_finished_game_leaves_memory_once_it_is_owed_nothing(room: Room, thread: bool) -> None:
    env = room.env
    bot = romme_bot(env)
    game = await play_a_match(room, thread=thread)
    # The end was shown as it should be: the table says the match is over and links the results.
    shown = texts(table_message(env, game))
    assert "the match is over" in shown
    assert (await bot.storage.owed_announcements()) == []
    # Then it left memory, the service's and the publisher's alike.
    assert bot.tables.changes.find(game.id) is None
    assert kept_by_publisher(bot, game.id) == []
    assert all(other.channel_id != game.channel_id for other in bot.tables.changes.games())
    # A click on its messages, /romme score, Play again still find it.
    home = room.channel.threads[-1] if thread else room.channel
    score = await room.ada.slash(home, "romme score")
    assert score.response is not None and "ada" in texts(score.response)


@pytest.mark.slow
async def test_many_finished_games_leave_nothing_behind(room: Room) -> None:
    env = room.env
    bot = romme_bot(env)
    games = [await play_a_match(room, thread=n % 2 == 0) for n in range(RECENT_KEPT + 8)]
    assert bot.tables.changes.games() == []
    assert [game.id for game in games if kept_by_publisher(bot, game.id)] == []
    assert len(bot.tables.known_games()) == RECENT_KEPT  # the most recent few, kept whole: a bound
