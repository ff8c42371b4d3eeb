"""The bot process the crash test kills: the real bot under SimCord on a database file, two tables
played without end (a person and two computers each), one line printed per ANSWERED move.

Run as ``python crash_child.py <database> <seed>``; prints ``READY`` once, then for every move of a person
whose click was answered ``ANSWERED <game> <seq> <version> <user>``: the move's number in the log,
the game's version after it. A line is printed only after the answer came back, so every line names
a move the person saw accepted.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from tests.discord.play_helpers import romme_bot
from tests.robustness.robust_helpers import Hall, make_bot, quick_settle
from tests.robustness.table_driver import TableDriver


async def new_game(hall: Hall, index: int) -> TableDriver:
    person = hall.people[index]
    lobby = await person.slash(hall.channels[index], "romme start", computers=2, rounds=1, opening=0)
    assert lobby.response is not None
    await person.click(lobby.response, label="Start")
    return TableDriver(hall.env, hall.channels[index], {person.id: person})


async def play(env: simcord.Env) -> None:
    """Play two tables without end, printing ``READY`` once and one ``ANSWERED`` line per answered
    move of a person (the shard tests' child plays the same way)."""
    hall = Hall.build(env)
    drivers = [await new_game(hall, 0), await new_game(hall, 1)]
    print("READY", flush=True)
    storage = romme_bot(env).storage
    while True:
        for index, driver in enumerate(drivers):
            game = driver.game()
            if not game.running:
                drivers[index] = await new_game(hall, index)
                continue
            moves = driver.moves
            await driver.step()
            if driver.moves == moves:
                continue
            person = next(iter(driver.people))
            mine = [m for m in await storage.moves(game.id) if m.user_id == person]
            print(f"ANSWERED {game.id} {mine[-1].seq} {driver.game().version} {person}", flush=True)


async def main(database: Path, seed: int) -> None:
    simcord.Env._settle_internal = quick_settle(simcord.Env._settle_internal)  # type: ignore[method-assign]
    async with simcord.run(make_bot(database, seed=seed)) as env:
        await play(env)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
