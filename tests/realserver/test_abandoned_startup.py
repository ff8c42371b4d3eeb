"""Issue 11, point 6 (start-up): bringing back the unfinished games is linear in their number.

Measured without a clock: the lines of the bot's own code run while :meth:`TableService.load`
brings back N and then 2N games (Python's trace hook counts them, in this thread: the database's
threads are not counted, and their work is linear anyway). Twice the games must cost about twice
the lines; a scan of every game per game (what ``ChangePath.register`` did) costs four times.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

from bot.service import TableService
from bot.service.game import Game, Seat, replay_snapshot
from bot.storage import Storage

BOT = str(Path(__file__).resolve().parents[2] / "bot")


async def lines_to_load(database: Path, games: int) -> int:
    """Store ``games`` lobbies (one per channel), then count the bot's lines run to load them."""
    storage = await Storage.open(database, replay=replay_snapshot)
    try:
        for number in range(games):
            game = Game(id=0, guild_id=1, channel_id=1000 + number, host_id=number + 1)
            game.seats.append(Seat(user_id=number + 1, name=f"p{number}"))
            await storage.create_game(
                guild_id=1, channel_id=game.channel_id, host_id=game.host_id, snapshot=game.to_snapshot()
            )
        service = TableService(storage, computer_delay=0)
        count = 0

        def trace(frame: FrameType, event: str, arg: Any) -> Any:
            nonlocal count
            if not frame.f_code.co_filename.startswith(BOT):
                return None
            if event == "line":
                count += 1
            return trace

        sys.settrace(trace)
        try:
            loaded = await service.load()
        finally:
            sys.settrace(None)
        assert len(loaded) == games
        await service.close()
        return count
    finally:
        await storage.close()


async def test_loading_twice_the_games_costs_about_twice_the_work(tmp_path: Path) -> None:
    small = await lines_to_load(tmp_path / "small.db", 200)
    large = await lines_to_load(tmp_path / "large.db", 400)
    assert large <= 2.2 * small, (small, large)
