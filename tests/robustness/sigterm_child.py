"""The bot process the graceful-stop test stops with SIGTERM: the command line's own :func:`serve`
(signal handling, the database check and lock, the stop) with SimCord in place of Discord's gateway,
two tables played without end as in ``crash_child.py``.

Run as ``python sigterm_child.py <database> <seed>``; prints ``READY``, then one ``ANSWERED <game>
<seq> <version> <user>`` line per answered move of a person. Once :func:`serve` has returned (after
SIGTERM), prints ``STOPPED <status> <versions>``, the JSON of every game in memory's version by id,
then waits for a line on stdin (the test looks at the file while this process still lives) and
exits with the status :func:`serve` returned.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from bot.__main__ import serve
from bot.client import RommeBot
from bot.config import Settings
from tests.robustness.crash_child import play
from tests.robustness.robust_helpers import quick_settle


async def main(database: Path, seed: int) -> int:
    simcord.Env._settle_internal = quick_settle(simcord.Env._settle_internal)  # type: ignore[method-assign]
    settings = Settings(database_path=database, computer_delay=0, game_seed=seed, table_edit_interval=0)
    bots: list[RommeBot] = []

    async def connect(bot: RommeBot) -> None:
        bots.append(bot)
        async with simcord.run(bot, check_errors=False) as env:
            try:
                await play(env)
            except Exception as exc:
                # The stop closed the bot under a click: nothing more to play; serve ends this task.
                print(f"PLAY ENDED {type(exc).__name__}", file=sys.stderr, flush=True)
                await asyncio.Event().wait()

    status = await serve(settings, connect)
    versions = {game.id: game.version for game in bots[0].tables.changes.games()}
    print(f"STOPPED {status} {json.dumps(versions)}", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2]))))
