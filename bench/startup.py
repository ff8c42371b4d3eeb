"""Start-up: how long ``TableService.load`` takes to bring back N unfinished games (lobbies).

``python bench/startup.py [N ...]`` (default 5000 10000): for each N, a new SQLite file in a
temporary folder with N lobbies in N channels, then the median of three loads by a fresh service.
Prints one JSON object as its last line: seconds per N, and the ratio of the largest to the smallest
per game (1.0 means linear).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import TableService
from bot.service.game import Game, Seat, replay_snapshot
from bot.storage import Storage


async def measure(folder: Path, games: int) -> float:
    storage = await Storage.open(folder / f"startup-{games}.db", replay=replay_snapshot)
    try:
        for number in range(games):
            game = Game(id=0, guild_id=1, channel_id=10_000 + number, host_id=number + 1)
            game.seats.append(Seat(user_id=number + 1, name=f"p{number}"))
            await storage.create_game(
                guild_id=1, channel_id=game.channel_id, host_id=game.host_id, snapshot=game.to_snapshot()
            )
        runs = []
        for _ in range(3):
            service = TableService(storage, computer_delay=0)
            started = time.perf_counter()
            await service.load()
            runs.append(time.perf_counter() - started)
            await service.close()
        return statistics.median(runs)
    finally:
        await storage.close()


async def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        seconds = {n: await measure(Path(folder), n) for n in sizes}
    for n, s in seconds.items():
        print(f"{n:>6} games: {s:.3f} s ({s / n * 1e6:.0f} µs a game)")
    small, large = min(sizes), max(sizes)
    ratio = (seconds[large] / large) / (seconds[small] / small)
    print(json.dumps({"seconds": seconds, "per_game_ratio": round(ratio, 2)}))


if __name__ == "__main__":
    asyncio.run(main([int(arg) for arg in sys.argv[1:]] or [5000, 10000]))
