"""A bot process for the second-process tests: the real bot under SimCord on a database file.

Run as ``python second_process_child.py <database>``; opens a lobby, prints ``READY`` and keeps
running until it is killed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from tests.robustness.robust_helpers import make_bot


async def main(database: Path) -> None:
    async with simcord.run(make_bot(database)) as env:
        guild = env.create_guild("Cards")
        channel = guild.create_text_channel("romme")
        ada = guild.add_member(env.create_user("ada"))
        await ada.slash(channel, "romme start")
        print("READY", flush=True)
        while True:
            await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
