"""Issue 11, point 9 (the leaderboard item): a person whose seat the computer played for a whole
match, without one move of their own, is not credited with its wins and points.

Ada plays one turn herself and then lets the turn timer run out; Bob never moves. The computer
plays both seats to the end of the match; the server leaderboard counts the match for Ada only.
"""

from __future__ import annotations

import pytest

from bot.service.game import Game
from tests.discord.play_helpers import Player, Room, begin, game_in, romme_bot, texts


async def play_out(room: Room) -> Game:
    """Let every turn time out until the match is over (the computer plays the seats)."""
    for _ in range(2000):
        game = game_in(room.env, room.channel)
        if not game.running:
            return game
        await room.env.advance_time(31)
    raise AssertionError("the match did not end")


@pytest.mark.slow
async def test_a_seat_the_computer_played_all_match_is_not_credited(room: Room) -> None:
    env = room.env
    await begin(room, room.bob, rounds=1, turn_timeout=30)
    ada = Player(env, room.ada, room.channel)
    while game_in(env, room.channel).to_play != 0:
        await env.advance_time(31)  # Bob's turn runs out
    await ada.play_turn()
    game = await play_out(room)
    assert game.match is not None and game.match.over and game.stats_recorded
    board = await romme_bot(env).storage.leaderboard(room.guild.id)
    assert [row.user_id for row in board] == [room.ada.id]
    assert await romme_bot(env).storage.player_record(room.guild.id, room.bob.id) is None
    shown = await room.ada.slash(room.channel, "romme score", scope="server")
    assert shown.response is not None
    assert "bob" not in texts(shown.response).lower() and str(room.bob.id) not in texts(shown.response)


async def test_nobody_is_credited_when_every_person_only_waited(room: Room) -> None:
    await begin(room, room.bob, rounds=1, turn_timeout=30)
    game = await play_out(room)
    assert game.match is not None and game.match.over
    assert await romme_bot(room.env).storage.leaderboard(room.guild.id) == []
