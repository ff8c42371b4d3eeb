"""The publisher's memory of what each table shows is bounded (issue 11, point 9)."""

from __future__ import annotations

from bot.client import create_bot
from bot.publish.ports import Ports
from bot.publish.publisher import DRAWINGS_KEPT, TablePublisher
from bot.service import TableService
from bot.storage.interface import Database


async def test_the_drawings_kept_are_bounded_and_the_latest_stay(storage: Database) -> None:
    ports = Ports(channels=create_bot(computer_delay=0), tables=TableService(storage), outbox=storage)
    publisher = TablePublisher(ports)
    for game_id in range(DRAWINGS_KEPT + 50):
        publisher._remember(game_id, ("drawing", game_id))
    publisher._remember(3, ("drawing", "again"))  # drawn lately: kept, the oldest others go
    kept = publisher._drawn
    assert len(kept) == DRAWINGS_KEPT
    assert 3 in kept and 0 not in kept and 4 not in kept
    assert DRAWINGS_KEPT + 49 in kept
