"""The one public table message: merged edits (at most one a second per channel), and Discord faults
on the edit (a deleted message is posted again, a 403 is survived)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot.client import RommeBot
from tests.discord.play_helpers import Player, Room, begin, game_in, seeded_bot, table_message, texts


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    # This file checks the merging itself, so the bot keeps the production interval of one second.
    bot: RommeBot = seeded_bot(database_path, edit_interval=1.0)
    yield bot
    await bot.close()


def table_edits(env: simcord.Env, message_id: int) -> int:
    return sum(1 for e in env.http_requests if e.method == "PATCH" and e.path.endswith(f"/{message_id}"))


@pytest.mark.slow
async def test_a_burst_of_computer_moves_costs_one_edit_showing_the_latest_state(room: Room) -> None:
    env = room.env
    # Ada deals (seat 0); the two computers play their turns at once (no delay in tests), R4.
    await begin(room, computers=2)
    game = game_in(env, room.channel)
    assert game.to_play == 0 and len(game.match.history) == 0  # type: ignore[union-attr]
    await env.advance_time(1.1)
    edits = table_edits(env, game.table_message_id or 0)
    # Start drew the table in its answer; the computers' moves since cost ONE merged edit.
    assert edits == 1, edits
    text = texts(table_message(env, game))
    assert f"<@{room.ada.id}>" in text and "draw a card" in text  # the latest state: Ada to play
    await env.advance_time(5)
    assert table_edits(env, game.table_message_id or 0) == 1  # nothing changed, nothing sent


async def test_a_deleted_table_message_is_posted_again(room: Room) -> None:
    env = room.env
    table = await begin(room, room.bob)
    game = game_in(env, room.channel)
    old_id = game.table_message_id
    env.backend.delete_message(room.channel.id, table.id)
    await env.advance_time(1.1)
    result = await room.bob.slash(room.channel, "romme hand")
    panel = result.response
    assert panel is not None
    await room.bob.click(panel, label="Draw")
    await env.advance_time(1.1)
    game = game_in(env, room.channel)
    assert game.table_message_id not in (None, old_id)
    assert "Game" in texts(table_message(env, game))


async def test_a_refused_table_edit_leaves_the_game_going(room: Room) -> None:
    env = room.env
    await begin(room, room.bob)
    env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013, message="Missing Permissions")
    await env.advance_time(1.1)
    result = await room.bob.slash(room.channel, "romme hand")
    assert result.response is not None
    await room.bob.click(result.response, label="Draw")
    await env.advance_time(1.1)
    game = game_in(env, room.channel)
    assert game.match is not None and game.match.round.phase == "play"
    # The next edit goes through again.
    bob = Player(env, room.bob, room.channel)
    await bob.open_hand()
    card = game.match.view(1)["hand"][0]
    await bob.choose([card])
    await bob.click("Discard")
    await env.advance_time(1.1)
    assert "discarded" in texts(table_message(env, game_in(env, room.channel)))
