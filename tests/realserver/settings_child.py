"""A bot process of ``test_settings_across_processes.py``: the real bot under SimCord on a PostgreSQL
database, running shard ``<shard>`` of 2, with one member, ada, on a server of that shard.

Run as ``python settings_child.py <url> <shard>``. It prints ``READY <ada's id>`` (ada is made
first, so every such process gives her the same id: one person, seen by two processes), then
answers one command a line on its standard input, as ada in the server's channel:

- ``HELP``: ``/romme help``; prints ``HELP <the answer's title>``;
- ``PREFER <name=value>``: ``/romme preferences`` and that choice in its list; prints
  ``SAVED <the answer's first line>``;
- ``QUIT``: the bot closes (its leases go back) and the process ends.

Besides, it prints ``HEARD <kind> <id>`` for each settings' notice the bot's storage hears, once the
bot heard it (the line is printed by a listener added after the bot's own).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# Run as a script: the repository's root makes `tests` importable as in the test run.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import simcord

from tests.discord.play_helpers import romme_bot
from tests.robustness.robust_helpers import make_bot, quick_settle

if TYPE_CHECKING:
    from bot.storage.interface import SettingsChange


def heard(change: SettingsChange) -> None:
    print(f"HEARD {change.kind} {change.owner}", flush=True)


async def answer(ada: simcord.MemberActor, channel: simcord.ChannelHandle, line: str) -> str:
    """Ada's answer to one command line (see the module)."""
    command, _, argument = line.partition(" ")
    if command == "HELP":
        result = await ada.slash(channel, "romme help")
        assert result.response is not None
        (embed,) = result.response.embeds
        return f"HELP {embed.title}"
    if command == "PREFER":
        result = await ada.slash(channel, "romme preferences")
        assert result.response is not None
        result = await ada.select(result.response, [argument])
        assert result.response is not None
        return f"SAVED {result.response.content.splitlines()[0]}"
    raise ValueError(f"unknown command {line!r}")


async def main(url: str, shard: int) -> None:
    simcord.Env._settle_internal = quick_settle(simcord.Env._settle_internal)  # type: ignore[method-assign]
    bot = make_bot(url, shard_count=2, shard_ids=str(shard))
    try:
        async with simcord.run(bot) as env:
            user = env.create_user("ada")
            guild = env.create_guild("Cards", shard_id=shard)
            channel = guild.create_text_channel("romme")
            ada = guild.add_member(user)
            romme_bot(env).storage.on_settings_changed(heard)
            print(f"READY {ada.id}", flush=True)
            loop = asyncio.get_running_loop()
            # Read on a thread: the loop keeps running meanwhile, and hears the notices.
            while True:
                line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
                if line in ("", "QUIT"):
                    break
                print(await answer(ada, channel, line), flush=True)
    finally:
        await bot.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
