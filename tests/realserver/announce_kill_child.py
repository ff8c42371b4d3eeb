"""The bot process the announcement kill test kills: the real bot under SimCord on a database file,
a table the computers play to its end while Discord refuses every channel post, so each round's end
is saved and never posted.

Run as ``python announce_kill_child.py <database>``; prints ``OWED <game> <round>`` for each round
whose end the storage owes, after the save that owes it is committed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from tests.robustness.robust_helpers import Hall, make_bot, quick_settle


async def main(database: Path) -> None:
    simcord.Env._settle_internal = quick_settle(simcord.Env._settle_internal)  # type: ignore[method-assign]
    async with simcord.run(make_bot(database)) as env:
        hall = Hall.build(env)
        env.inject_error("POST", "/channels/*/messages", status=500, times=None)
        ada, channel = hall.person("ada"), hall.channels[0]
        lobby = await ada.slash(channel, "romme start", computers=1, rounds=3, opening=0)
        assert lobby.response is not None
        await ada.click(lobby.response, label="Start")
        await ada.slash(channel, "romme leave")
        storage = env.bot.storage  # type: ignore[attr-defined]
        told: set[tuple[int, int]] = set()
        while True:
            for owed in await storage.owed_announcements():
                if (owed.game_id, owed.round_no) not in told:
                    told.add((owed.game_id, owed.round_no))
                    print(f"OWED {owed.game_id} {owed.round_no}", flush=True)
            await env.advance_time(5)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
