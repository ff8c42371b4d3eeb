"""Memory after many finished matches: ``--matches`` matches (default 1,000) played one after
another by the real bot through SimCord, each in a channel of its own (``channel``) or in a thread
of its own (``thread``), and what the bot keeps of them.

Each match is a person's ``/romme start computers:2 rounds:1``, **Start**, then ``/romme leave``:
the computers play it to its end (``tests/discord/whole_matches.py``). The bot is built with
``create_bot`` on an SQLite file in a temporary folder. Every ``--every`` matches (default 100) the
garbage collector runs and ``tracemalloc`` counts the memory still held that was allocated by the
bot's own code (``bot/`` and ``cogs/``: its games, their snapshots and drawings, the publisher's
maps), but the engine's bounded caches of rule answers (``bot/engine/``, shared by every game: they
fill and empty whatever the number of games); SimCord lets go of each match's messages and REST log
once it is over (they hold the very strings the bot drew). Measured, per place:

- bot_kib: that memory at each checkpoint (KiB), and growth_bytes_per_match from the first
  checkpoint to the last;
- games_in_memory, games_kept_whole (the few finished lately, a bound) and publisher_entries (the
  publisher's per-game maps) after the last match.

Prints one JSON object as its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bench._common import quiet, report
from bot.client import RommeBot, create_bot
from tests.discord.whole_matches import play_a_match

ROOT = Path(__file__).resolve().parent.parent
OWN_CODE = [
    tracemalloc.Filter(True, str(ROOT / "bot" / "*")),
    tracemalloc.Filter(True, str(ROOT / "cogs" / "*")),
    tracemalloc.Filter(False, str(ROOT / "bot" / "engine" / "*")),
]
"""Where the bot keeps games: its own code, but the engine, whose caches of rule answers (the
solver's, the computer player's, the event texts) are bounded and shared by every game: they fill
and empty again whatever the number of games."""


def bot_bytes() -> int:
    """Bytes still held that the bot's own code allocated (after a full collection)."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot().filter_traces(OWN_CODE)
    return sum(stat.size for stat in snapshot.statistics("filename"))


def forget_simulated(env: simcord.Env, *channel_ids: int) -> None:
    """SimCord lets go of a finished match: its REST log and the channels' messages. It holds the
    very strings the bot drew (no copy is made of an immutable string), which the count of the
    bot's memory would otherwise see as the bot's."""
    env.backend.http_requests.clear()
    for channel_id in channel_ids:
        env.backend.messages.get(channel_id, {}).clear()


def publisher_entries(bot: RommeBot) -> int:
    """Entries of the publisher's per-game maps (drawings, rounds, results, failures, panels)."""
    publisher = bot.publisher
    return sum(
        len(kept)
        for kept in (
            publisher._shown,
            publisher._rounds,
            publisher._results,
            publisher.guard._games,
            publisher.announcer._ends,
            publisher.panels._noted,
            publisher._channels,
        )
    )


async def run(matches: int, every: int, place: str, folder: Path) -> dict[str, Any]:
    bot = create_bot(
        database_path=folder / f"{place}.db", computer_delay=0, game_seed=1, table_edit_interval=0
    )
    try:
        async with simcord.run(bot) as env:
            env.backend.transcript = collections.deque(maxlen=0)  # type: ignore[assignment]
            env.settle_timeout = 600.0  # a busy machine can take more than SimCord's 5 s
            guild = env.create_guild("Memory")
            host = guild.add_member(env.create_user("ada"))
            home = guild.create_text_channel("romme")
            checkpoints: list[int] = []
            tracemalloc.start()
            for n in range(1, matches + 1):
                channel = home if place == "thread" else guild.create_text_channel(f"romme-{n}")
                game = await play_a_match(env, host, channel, thread=place == "thread")
                forget_simulated(env, channel.id, game.channel_id)
                if n % every == 0:
                    checkpoints.append(bot_bytes())
            tracemalloc.stop()
            games = len(bot.tables.changes.games())
            kept = len(bot.tables.known_games()) - games
            entries = publisher_entries(bot)
            await bot.tables.close()
            await bot.publisher.close()
    finally:
        await bot.close()
    first, last = checkpoints[0], checkpoints[-1]
    span = every * (len(checkpoints) - 1)
    return {
        "bot_kib": [round(size / 1024, 1) for size in checkpoints],
        "growth_bytes_per_match": round((last - first) / span, 1) if span else None,
        "games_in_memory": games,
        "games_kept_whole": kept,
        "publisher_entries": entries,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=1000, help="matches one after another (default 1000)")
    parser.add_argument("--every", type=int, default=100, help="matches between two checkpoints")
    parser.add_argument("--place", choices=("channel", "thread", "both"), default="both")
    args = parser.parse_args(argv)
    quiet()
    result: dict[str, Any] = {"matches": args.matches}
    places = ("channel", "thread") if args.place == "both" else (args.place,)
    with tempfile.TemporaryDirectory(prefix="romme-memory-") as folder:
        for place in places:
            result[place] = asyncio.run(run(args.matches, args.every, place, Path(folder)))
    return report(result)


if __name__ == "__main__":
    main()
