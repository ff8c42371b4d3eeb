"""Every time the bot keeps of a game is read from the bot's clock, the one its turns, timers and
ratings run on: the history's dates, the export's ``at`` times and the age ``HISTORY_DAYS`` compacts
by. SimCord's clock starts on 2026-01-01, far from the day the tests run, so a time read from the
wall clock instead shows at once (in the playground: today's date beside "January 1, 2026").

The storage takes the clock when it opens (``open_database(…, clock=…)``) and stamps what it writes
with it, on both backends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import RommeBot, create_bot
from bot.service.game import GameStatus, replay_snapshot
from bot.storage import Announcement, MoveEntry, Save, open_database
from tests.discord.play_helpers import Room, game_in, seeded_bot, texts

DAY = 24 * 3600.0
HISTORY_DAYS = 2


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    """The bot as tests/discord runs it, with HISTORY_DAYS of two days (fewer compactions to run)."""
    bot = create_bot(seeded_bot(database_path).settings, history_days=HISTORY_DAYS)
    yield bot
    await bot.close()


@pytest.fixture
def room(simcord_env: simcord.Env) -> Room:
    return Room.made(simcord_env)


async def match_played_out(room: Room) -> tuple[int, datetime, datetime]:
    """Ada and two computers play one round to its end, Ada's turns by her turn timer; the game's id,
    and the bot's clock before the start and at the end."""
    env = room.env
    started = env.now()
    assert abs((started - datetime.now(UTC)).days) > 30, "SimCord's clock is near today: no test"
    result = await room.ada.slash(room.channel, "romme start", computers=2, rounds=1, turn_timeout=30)
    assert result.response is not None
    await room.ada.click(result.response, label="Start")
    game = game_in(env, room.channel)
    for _ in range(2000):
        if game.status is GameStatus.FINISHED:
            break
        await env.advance_time(31)
    assert game.status is GameStatus.FINISHED and not game.ended_early
    return game.id, started, env.now()


async def exported(room: Room, game_id: int) -> dict[str, Any]:
    viewer = await room.ada.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None
    download = await room.ada.click(viewer.response, label="Download")
    assert download.response is not None
    (attachment,) = download.response.attachments
    document: dict[str, Any] = json.loads(await attachment.read())
    return document


async def test_the_export_and_the_history_carry_the_bots_times(room: Room) -> None:
    game_id, started, ended = await match_played_out(room)
    document = await exported(room, game_id)
    times = [datetime.fromisoformat(row["at"]) for row in document["log"]]
    assert len(times) > 10
    assert all(started <= at <= ended for at in times), (started, ended, times[:3])
    assert times == sorted(times) and times[-1] > times[0]  # each move at its own moment

    listed = await room.bob.slash(room.channel, "romme history")
    assert listed.response is not None
    shown = texts(listed.response)
    assert f"game {game_id}" in shown
    when = int(shown.split("<t:")[1].split(":d>")[0])
    assert int(started.timestamp()) <= when <= ended.timestamp(), (when, started, ended)


async def test_compaction_keeps_and_drops_by_the_bots_clock(room: Room) -> None:
    env = room.env
    game_id, _, _ = await match_played_out(room)
    bot = env.bot
    assert isinstance(bot, RommeBot) and bot.settings.history_days == HISTORY_DAYS
    # A day on the bot's clock: the match is younger than HISTORY_DAYS, its replay is kept.
    await days_pass(env, 1)
    viewer = await room.ada.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None and "Step 1 of" in texts(viewer.response)
    # Two days more: over for longer than HISTORY_DAYS, its moves go at the next compaction.
    await days_pass(env, 2)
    gone = await room.ada.slash(room.channel, "romme replay", game=game_id)
    assert gone.response is not None
    assert f"Match {game_id} has no replay" in (gone.response.content or ""), texts(gone.response)
    # Its result stays in the history.
    listed = await room.ada.slash(room.channel, "romme history")
    assert listed.response is not None and f"game {game_id}" in texts(listed.response)


async def days_pass(env: simcord.Env, days: int) -> None:
    """``days`` days on the bot's clock, a day at a time (the bot's timers run as they come due)."""
    for _ in range(days):
        await env.advance_time(DAY)


class Clock:
    """Epoch seconds that move only when the test says so."""

    def __init__(self, when: datetime) -> None:
        self.now = when.timestamp()

    def __call__(self) -> float:
        return self.now


async def test_the_storage_stamps_what_it_writes_with_its_clock(database: str | Path) -> None:
    far = datetime(2031, 7, 4, 12, 0, tzinfo=UTC)
    clock = Clock(far)
    storage = await open_database(database, replay=replay_snapshot, clock=clock)
    try:
        game_id = await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"n": 0})
        created = await storage.get_game(game_id)
        assert created is not None and created.created_at == created.updated_at == far
        clock.now += 90
        owed = Announcement(kind="round_end", round_no=1, payload={"id": 1})
        move = MoveEntry(seat=0, user_id=3, move={"kind": "draw"})
        await storage.save_game(Save(game_id, {"n": 1}, "finished", move=move, announcements=[owed]))
        saved = await storage.get_game(game_id)
        assert saved is not None and saved.created_at == far
        assert saved.updated_at == far + timedelta(seconds=90)
        (logged,) = await storage.moves(game_id)
        assert logged.created_at == far + timedelta(seconds=90)
        (announcement,) = await storage.owed_announcements(game_id)
        assert announcement.created_at == far + timedelta(seconds=90)
        clock.now += 60
        await storage.set_table_message(game_id, 55)
        stamped = await storage.get_game(game_id)
        assert stamped is not None and stamped.updated_at == far + timedelta(seconds=150)
        # Compaction compares the stored times with the cutoff it is given: the clock's, not today's.
        assert await storage.compact_moves(far + timedelta(seconds=149)) == 0
        assert await storage.compact_moves(far + timedelta(seconds=151)) == 1
    finally:
        await storage.close()
