"""The bot-wide budget of table edits: many busy tables stay under it, and a table where a person
plays is redrawn first (Discord's global rate limit would otherwise hold back every call)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import simcord

from bot.client import RommeBot, create_bot
from tests.discord.play_helpers import SEED, Player, Room, game_in, romme_bot, table_message, texts

# Slower than production (1.5 s, 40 edits a second for hundreds of tables): SimCord settles a click
# at once only when every timer is further away than its settling window (set to 0.5 s below).
COMPUTER_DELAY = 2.0
RATE = 1.0
GAP = 1 / RATE
COMPUTER_TABLES = 5


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    bot = create_bot(
        database_path=database_path,
        computer_delay=COMPUTER_DELAY,
        game_seed=SEED,
        table_edit_interval=1.0,
        table_edits_per_second=RATE,
    )
    yield bot
    await bot.close()


def edits(env: simcord.Env, message_ids: set[int]) -> int:
    return sum(
        1
        for e in env.http_requests
        if e.method == "PATCH"
        and e.path.startswith("/channels/")
        and int(e.path.rsplit("/", 1)[1]) in message_ids
    )


async def computer_tables(room: Room) -> list[simcord.ChannelHandle]:
    """Tables where only computers play: Ada opens each with three computers, starts, and leaves."""
    channels = []
    for n in range(COMPUTER_TABLES):
        channel = room.guild.create_text_channel(f"computers-{n}")
        lobby = await room.ada.slash(channel, "romme start", computers=3)
        assert lobby.response is not None
        await room.ada.click(lobby.response, label="Start")
        await room.ada.slash(channel, "romme leave")
        channels.append(channel)
    return channels


@pytest.mark.simcord(settle_timeout=0.5)
async def test_busy_tables_share_the_budget_and_a_persons_table_goes_first(room: Room) -> None:
    env = room.env
    channels = await computer_tables(room)
    lobby = await room.bob.slash(room.channel, "romme start", computers=1, turn_timeout=600)
    assert lobby.response is not None
    await room.bob.click(lobby.response, label="Start")
    ids = {game_in(env, c).table_message_id or 0 for c in channels}
    everyone = ids | {game_in(env, room.channel).table_message_id or 0}

    per_window = []
    for _ in range(6):
        before = edits(env, everyone)
        await env.advance_time(GAP)
        per_window.append(edits(env, everyone) - before)
    # Six tables moving every 2 s wanted three edits a second; the budget let one out a second.
    assert max(per_window) <= 2, per_window  # turns are GAP apart: at most two in a window of GAP
    assert sum(per_window) <= len(per_window) + 1, per_window
    budget = romme_bot(env).publisher.budget
    assert budget.waiting >= 3  # the computers' tables queue for their turn
    assert sum(edits(env, {game_in(env, c).table_message_id or 0}) >= 1 for c in channels) >= 4

    # Bob's move: his table is the next one redrawn, ahead of the computers' tables that waited longer.
    bob = Player(env, room.bob, room.channel)
    for _ in range(20):  # the computer's turn at Bob's table (a move every 2 s) ends
        if game_in(env, room.channel).to_play == game_in(env, room.channel).seat_of(room.bob.id):
            break
        await env.advance_time(COMPUTER_DELAY)
    for _ in range(20):  # Bob's table shows his turn: it waits for no edit now
        if "To play: **bob** — draw" in texts(table_message(env, game_in(env, room.channel))):
            break
        await env.advance_time(GAP)
    await bob.open_hand()
    await bob.click("Draw")
    # Its channel's one second since the last edit, then the budget's next turn (FIFO: three or more).
    await env.advance_time(1.0 + GAP)
    assert "bob drew" in texts(table_message(env, game_in(env, room.channel)))
    assert budget.waiting >= 3
