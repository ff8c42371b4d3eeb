"""The publisher's memory of what each table shows is bounded (issue 11, point 9)."""

from __future__ import annotations

from pathlib import Path

from bot.client import create_bot
from bot.publish.ports import Ports
from bot.publish.publisher import SHOWN_KEPT, TablePublisher
from bot.service import TableService
from bot.service.game import replay_snapshot
from bot.storage.interface import open_database


async def test_the_drawings_kept_are_bounded_and_the_latest_stay(database: str | Path) -> None:
    storage = await open_database(database, replay=replay_snapshot)
    try:
        await _drawings_kept_are_bounded(Ports(create_bot(computer_delay=0), TableService(storage), storage))
    finally:
        await storage.close()


async def _drawings_kept_are_bounded(ports: Ports) -> None:
    publisher = TablePublisher(ports)
    for game_id in range(SHOWN_KEPT + 50):
        publisher._remember(game_id, ("drawing", game_id))
    publisher._remember(3, ("drawing", "again"))  # drawn lately: kept, the oldest others go
    kept = publisher._shown
    assert len(kept) == SHOWN_KEPT
    assert 3 in kept and 0 not in kept and 4 not in kept
    assert SHOWN_KEPT + 49 in kept
