"""Replays: how long a step of a long match takes to show, and what the deal logging costs on disk.

``python bench/replays.py --seed 1`` plays one seeded 6-seat, 12-round match between computer
players through the table service on an SQLite file, twice: once as the bot logs it (each round's
deal and each reshuffle's stock in the move log) and once with that logging turned off (the log as
it was before). It prints a few readable lines, then one JSON object as its last line:

- ``moves``, ``rounds``, ``log_rows``: the match's moves and rounds, and the rows of its log;
- ``bytes_per_move_before`` / ``bytes_per_move_after``: the bytes every save of the match wrote
  (snapshots, move rows, their states, scores and announcements as JSON text), divided by its
  moves, without and with the deal logging; ``deal_row_bytes``: the mean size of a deal row;
  ``file_bytes_before`` / ``file_bytes_after``: the SQLite file's size at the end;
- ``open_ms``: the first showing of the replay (read the game and its log, draw step 1);
  ``open_at_last_step_ms``: the same, then straight to the last step (the whole match replayed),
  and ``open_at_last_step_cpu_ms`` its CPU time (this process's, the database thread's included:
  what the figure is on an idle machine); ``load_average``: the machine's, as the run began;
- ``step_p50_ms``, ``step_p99_ms``, ``step_max_ms``: every step of the match shown, each as the
  viewer's click does it (read the game and its log, find the built replay, draw the step);
- ``export_bytes``: the size of the match's JSON download.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.service.changes as changes_module
from bot.engine.rules import RuleSet
from bot.process import tune_process
from bot.render.replay import replay_message
from bot.service import TableService
from bot.service.game import GameStatus, replay_snapshot
from bot.service.matchlog import DEAL
from bot.service.replays import MatchArchive
from bot.service.visibility import SeenChannels
from bot.storage import Save, SaveResult
from bot.storage.interface import Database, open_database
from cogs.replays import export_file

HOST = 101
WATCHER = SeenChannels(1, frozenset({10}))
"""A member of the match's server who can view its channel (the cog's viewer asks the client's
cache, a dictionary look-up: what a step of a channel's match costs more is this one question)."""


class Counting:
    """Counts the JSON bytes of every save started on ``storage`` (wraps its ``start_save``)."""

    def __init__(self, storage: Database) -> None:
        self.bytes = 0
        original = storage.start_save

        def start_save(save: Save, **options: Any) -> Awaitable[SaveResult]:
            self.bytes += sum(len(part.encode()) for part in save.encoded() if part is not None)
            for extra in (save.round_scores, save.match_results):
                self.bytes += len(
                    json.dumps([vars(row) if hasattr(row, "__dict__") else str(row) for row in extra])
                )
            for owed in save.announcements:
                self.bytes += len(json.dumps(owed.payload, separators=(",", ":")))
            return original(save, **options)

        storage.start_save = start_save  # type: ignore[method-assign]


async def play_match(path: Path, seed: int, *, log_deals: bool) -> dict[str, Any]:
    """One 6-seat, 12-round match of computers on the file ``path``; what it wrote."""
    storage = await open_database(path, replay=replay_snapshot)
    counting = Counting(storage)
    # The change path's logging of the cards, turned off for the log as it was before it.
    original = getattr(changes_module, "log_cards")  # noqa: B009
    if not log_deals:
        setattr(changes_module, "log_cards", lambda game, entries, mark: entries)  # noqa: B010
    service = TableService(storage, computer_delay=0.0, seed=seed, next_round_delay=0.0)
    try:
        await service.load()
        game = await service.open_lobby(1, 10, HOST, "Ada", RuleSet(rounds=12), computers=5)
        await service.begin(game.id, HOST)
        await service.leave(game.id, HOST)  # the computer plays the host's seat: six computers
        while game.status is GameStatus.PLAYING:
            await asyncio.sleep(0.01)
        await service.changes.settle()
        records = await storage.moves(game.id)
        assert game.match is not None
        moves = sum(record.move["kind"] != DEAL for record in records)
        deals = [record for record in records if record.move["kind"] == DEAL]
        return {
            "game_id": game.id,
            "moves": moves,
            "rounds": game.match.round_no,
            "log_rows": len(records),
            "bytes": counting.bytes,
            "deal_row_bytes": (
                round(statistics.mean(len(json.dumps(r.move, separators=(",", ":"))) for r in deals))
                if deals
                else 0
            ),
            "storage": storage,
            "service": service,
        }
    finally:
        setattr(changes_module, "log_cards", original)  # noqa: B010


async def time_steps(storage: Database, game_id: int) -> dict[str, Any]:
    """Show the replay's first step cold, then every step as a click does."""
    replays = MatchArchive(storage)
    began = time.perf_counter()
    replay = await replays.open(game_id, WATCHER)
    replay_message(replay.log, 0)
    open_ms = (time.perf_counter() - began) * 1000
    # A viewer's first click on ⏭: the whole match replayed, then its last step drawn.
    cold = MatchArchive(storage)
    began, cpu = time.perf_counter(), time.process_time()
    fresh = await cold.open(game_id, WATCHER)
    replay_message(fresh.log, fresh.log.size - 1)
    last_ms = (time.perf_counter() - began) * 1000
    last_cpu_ms = (time.process_time() - cpu) * 1000
    times = []
    for index in range(replay.log.size):
        began = time.perf_counter()
        again = await replays.open(game_id, WATCHER)
        replay_message(again.log, index)
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    data, _ = export_file(replay.export(), game_id)
    return {
        "open_ms": round(open_ms, 2),
        "open_at_last_step_ms": round(last_ms, 2),
        "open_at_last_step_cpu_ms": round(last_cpu_ms, 2),
        "load_average": round(os.getloadavg()[0], 2),
        "step_p50_ms": round(times[len(times) // 2], 2),
        "step_p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "step_max_ms": round(times[-1], 2),
        "steps": len(times),
        "export_bytes": len(data),
    }


async def main(seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        before = await play_match(Path(folder) / "before.db", seed, log_deals=False)
        await before["service"].close()
        await before["storage"].close()
        after = await play_match(Path(folder) / "after.db", seed, log_deals=True)
        try:
            timing = await time_steps(after["storage"], after["game_id"])
        finally:
            await after["service"].close()
            await after["storage"].close()
        sizes = {name: (Path(folder) / f"{name}.db").stat().st_size for name in ("before", "after")}
    return {
        "seats": 6,
        "moves": after["moves"],
        "rounds": after["rounds"],
        "log_rows": after["log_rows"],
        "bytes_per_move_before": round(before["bytes"] / before["moves"]),
        "bytes_per_move_after": round(after["bytes"] / after["moves"]),
        "deal_row_bytes": after["deal_row_bytes"],
        "file_bytes_before": sizes["before"],
        "file_bytes_after": sizes["after"],
        **timing,
    }


if __name__ == "__main__":
    tune_process()  # the garbage collector's settings of `romme-bot run`
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = asyncio.run(main(args.seed))
    print(
        f"{result['moves']} moves in {result['rounds']} rounds; "
        f"{result['bytes_per_move_before']} -> {result['bytes_per_move_after']} bytes a move; "
        f"a step shown in {result['step_max_ms']} ms at most (open: {result['open_ms']} ms)"
    )
    print(json.dumps(result))
