"""Time and restarts through Discord: the turn timer, the away state, and old buttons after a restart."""

from __future__ import annotations

from pathlib import Path

from bot.service.game import AWAY_AFTER
from tests.discord.play_helpers import Player, Room, begin, game_in, seeded_bot, table_message, texts


async def test_missed_turns_are_played_by_the_computer_then_the_seat_is_away_until_a_click(
    room: Room,
) -> None:
    env = room.env
    await begin(room, room.bob, turn_timeout=30)
    ada = Player(env, room.ada, room.channel)
    missed = 0
    while missed < AWAY_AFTER:
        game = game_in(env, room.channel)
        if game.to_play == 1:
            await env.advance_time(31)  # Bob lets the turn timer run out
            missed += 1
        else:
            await ada.play_turn()
    game = game_in(env, room.channel)
    assert game.seats[1].away and game.seats[1].missed == AWAY_AFTER
    assert "away" in texts(table_message(env, game))
    # Any click of Bob brings the seat back.
    result = await room.bob.click(table_message(env, game), label="My hand")
    assert result.ephemeral
    game = game_in(env, room.channel)
    assert not game.seats[1].away and game.seats[1].missed == 0


async def test_old_buttons_work_after_a_restart_on_the_same_database(room: Room, database_path: Path) -> None:
    env = room.env
    table = await begin(room, room.bob)
    bob = Player(env, room.bob, room.channel)
    old_panel = await bob.open_hand()
    before = game_in(env, room.channel)
    version, game_id = before.version, before.id
    old_bot = env.bot
    new_bot = seeded_bot(database_path)
    try:
        await env.restart_bot(new_bot)
        await old_bot.close()
        restored = game_in(env, room.channel)
        assert restored is not before and restored.version == version and restored.id == game_id
        # The panel opened before the restart still plays: Draw from it.
        result = await room.bob.click(old_panel, label="Draw")
        assert result.response is not None and "out of date" not in (result.response.content or "")
        after = game_in(env, room.channel)
        assert after.version == version + 1 and after.match.round.phase == "play"  # type: ignore[union-attr]
        # And the old table message's My hand still answers.
        again = await room.ada.click(table, label="My hand")
        assert again.ephemeral and again.response is not None and again.response.embeds
    finally:
        await new_bot.close()
