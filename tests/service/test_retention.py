"""HISTORY_DAYS on both backends: a match over for longer loses its moves (its replay), and nothing a
player sees of scores or standings changes: the round scores, the standings read back from storage,
the player's record and the leaderboard, and the history's list."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.service import TableError, TableService
from bot.service.game import Game
from bot.service.retention import Retention
from bot.service.scores import standings
from bot.service.visibility import SeenChannels
from bot.storage import Database

from .conftest import BOB, CHANNEL, GUILD, HOST, ServiceFactory, play_to_the_end

HERE = SeenChannels(GUILD, frozenset({CHANNEL}))
"""A member of the server who can view the game's channel."""
DAY = 24 * 3600.0


async def seen(service: TableService, storage: Database, game_id: int) -> list[Any]:
    record = await storage.get_game(game_id)
    assert record is not None
    stored = Game.from_snapshot(record.snapshot)
    return [
        await storage.round_scores(game_id),
        standings(stored),
        await storage.player_record(GUILD, HOST),
        await storage.player_record(GUILD, BOB),
        await storage.leaderboard(GUILD),
        [game.id for game, _ in await service.replays.history(HERE)],
        (record.status, record.snapshot),
    ]


async def test_old_matches_lose_their_moves_and_nothing_players_see(
    make_service: ServiceFactory, storage: Database
) -> None:
    service: TableService = await make_service()
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await play_to_the_end(service, game)
    before = await seen(service, storage, game.id)
    assert (await service.replays.open(game.id, HERE)).log.size

    now = datetime.now(UTC).timestamp()
    # Younger than HISTORY_DAYS: kept.
    assert await Retention(storage, 180, clock=lambda: now).compact() == 0
    # HISTORY_DAYS 0: kept for ever, whatever the age.
    assert await Retention(storage, 0, clock=lambda: now + 9999 * DAY).compact() == 0
    assert await storage.moves(game.id)

    later = Retention(storage, 180, clock=lambda: now + 181 * DAY, compacted=service.replays.cache.clear)
    assert await later.compact() > 0
    assert await storage.moves(game.id) == []
    assert await seen(service, storage, game.id) == before
    with pytest.raises(TableError) as refused:
        await service.replays.open(game.id, HERE)
    assert refused.value.code == "replay.none"
