"""The visibility rule as the replays apply it, on both backends: the history skips the matches a
member may not see and reads further back for the ones they may, each channel asked once; a match
they may not see, another server's and a missing one are refused with one answer."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.service import TableError, TableService
from bot.service.replays import HISTORY_SIZE
from bot.service.visibility import SeenChannels

from .conftest import CHANNEL, GUILD, HOST, ServiceFactory

SECRET = CHANNEL + 1


@dataclass
class Counting:
    """A viewer of server ``GUILD`` who can view ``CHANNEL`` only, counting the questions asked."""

    guild_id: int = GUILD
    asked: list[int] = field(default_factory=list)

    async def may_view_channel(self, channel_id: int) -> bool:
        self.asked.append(channel_id)
        return channel_id == CHANNEL


async def stopped(service: TableService, guild_id: int, channel_id: int) -> int:
    """A match against a computer, dealt and stopped by its host: finished, with a replay."""
    game = await service.open_lobby(guild_id, channel_id, HOST, "Ada", computers=1)
    await service.begin(game.id, HOST)
    await service.stop(game.id, HOST, can_manage=False)
    return game.id


async def test_the_history_reads_past_the_matches_a_member_may_not_see(make_service: ServiceFactory) -> None:
    service = await make_service()
    shown = await stopped(service, GUILD, CHANNEL)
    hidden = [await stopped(service, GUILD, SECRET) for _ in range(HISTORY_SIZE + 2)]
    there = await stopped(service, GUILD + 1, CHANNEL)

    viewer = Counting()
    assert [game.id for game, _ in await service.replays.history(viewer)] == [shown]
    assert sorted(viewer.asked) == [CHANNEL, SECRET]  # each channel once, however many matches
    both = SeenChannels(GUILD, frozenset({CHANNEL, SECRET}))
    assert [game.id for game, _ in await service.replays.history(both)] == [*reversed(hidden), shown][
        :HISTORY_SIZE
    ]
    assert [game.id for game, _ in await service.replays.history(both, user_id=HOST, limit=25)] == [
        *reversed(hidden),
        shown,
    ]

    assert (await service.replays.open(shown, viewer)).log.size >= 1  # its deal
    answers = []
    for game_id in (hidden[0], there, there + 100):
        with pytest.raises(TableError) as refused:
            await service.replays.open(game_id, viewer)
        answers.append((refused.value.code, refused.value.params))
    assert answers == [
        ("replay.not_found", {"game_id": game_id}) for game_id in (hidden[0], there, there + 100)
    ]
    # Outside a server (guild 0) nothing is seen, whatever the channel.
    nowhere = SeenChannels(0, frozenset({CHANNEL}))
    assert await service.replays.history(nowhere) == []
