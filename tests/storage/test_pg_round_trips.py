"""PostgreSQL: a save is one round trip (counted by a proxy between the storage and the server), and
a save is fenced by its process's shard lease: a process whose shard was taken over writes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from bot.storage import Announcement, MatchResult, MoveEntry, RoundScore, Save
from bot.storage.postgres import PostgresStorage, ShardLost, ShardTaken
from tests.conftest import raw_sql
from tests.storage import peek
from tests.storage.conftest import TIMEOUT
from tests.storage.pg_proxy import RoundTrips

GAME: dict[str, Any] = {"guild_id": 10, "channel_id": 20, "host_id": 30}
DRAW = {"kind": "draw", "source": "stock"}


async def test_every_kind_of_save_is_one_round_trip(postgres_url: str) -> None:
    async with RoundTrips(postgres_url) as proxy:
        storage = await PostgresStorage.open(proxy.url)
        try:
            game_id = await storage.create_game(**GAME, snapshot={"n": 0})

            async def saves() -> list[int]:
                """The round trips of each kind of save: a snapshot with its move, a move logged
                without a snapshot, and a round's end (scores, results, announcement)."""
                counts = []
                for kind in ("snapshot", "move", "round end"):
                    game = await storage.get_game(game_id)
                    assert game is not None
                    before = proxy.count
                    if kind == "snapshot":
                        await storage.save_game(
                            Save(
                                game_id,
                                {"n": 1},
                                "playing",
                                expected_version=game.version,
                                move=MoveEntry(0, 30, DRAW),
                            )
                        )
                    elif kind == "move":
                        move = MoveEntry(1, None, DRAW, state={"turn": 2})
                        await storage.save_game(
                            Save(game_id, None, "playing", expected_version=game.version, move=move)
                        )
                    else:
                        await storage.save_game(
                            Save(
                                game_id,
                                {"n": 3},
                                "playing",
                                expected_version=game.version,
                                move=MoveEntry(2, None, DRAW),
                                round_scores=[RoundScore(game.version, 0, 30, 10, 5, 5)],
                                match_results=[MatchResult(30, 5, True, 5)],
                                announcements=[Announcement(kind="round_end", round_no=1, payload={"n": 3})],
                            )
                        )
                    counts.append(proxy.count - before)
                return counts

            await saves()  # the first time, each statement is prepared on the connection (one more)
            assert await saves() == [1, 1, 1]
            before = proxy.count
            await storage.set_table_message(game_id, 99)
            other = await storage.create_game(guild_id=10, channel_id=21, host_id=30, snapshot={"n": 0})
            await storage.set_table_message(other, 98)
            assert proxy.count - before <= 1 + 2 + 1  # the first new game prepares its statement
            before = proxy.count
            await storage.create_game(guild_id=10, channel_id=22, host_id=30, snapshot={"n": 0})
            assert proxy.count - before == 1
            game = await storage.get_game(game_id)
            assert game is not None and game.table_message_id == 99 and game.version == 7
            assert [m.seq for m in await storage.moves(game_id)] == [1, 2, 3, 4, 5, 6]
            assert len(await storage.owed_announcements(game_id)) == 1
            stats = await storage.player_record(10, 30)
            assert stats is not None and stats.matches_played == 1  # once per game, not per save
        finally:
            await storage.close()


async def test_a_save_of_a_process_that_lost_its_shard_is_refused_and_changes_nothing(
    postgres_url: str,
) -> None:
    stale = await PostgresStorage.open(postgres_url)
    fresh = await PostgresStorage.open(postgres_url)
    try:
        await stale.take_shards([0, 1], 2, owner="host-a pid 1", ttl=60)
        told: list[list[int]] = []
        heartbeat = stale.keep_shards([0, 1], owner="host-a pid 1", ttl=60, lost=told.append)
        game_id = await stale.create_game(**GAME, snapshot={"n": 0})  # guild 10: shard 0
        saved = await stale.save_game(
            Save(game_id, {"n": 1}, "playing", expected_version=1, move=MoveEntry(0, 30, DRAW))
        )
        assert saved.version == 2
        # host-a stalls past its lease; another process (here with the same owner name, as a
        # container restarted with the same host name and pid would be) takes the shards over.
        await raw_sql(postgres_url, "UPDATE shard_leases SET expires_at = now() - interval '1 second'")
        leases = await fresh.take_shards([0, 1], 2, owner="host-a pid 1", ttl=60)
        assert fresh.fence is not None and stale.fence is not None and fresh.fence > stale.fence
        assert {lease.epoch for lease in leases} == {fresh.fence}

        with pytest.raises(ShardLost) as caught:
            await stale.save_game(
                Save(game_id, {"n": 2}, "playing", expected_version=2, move=MoveEntry(1, 31, DRAW))
            )
        assert "\n" not in str(caught.value) and f"game {game_id}" in str(caught.value)
        assert told == [[0]]  # the owner hears it at once, not at the next heartbeat (20 s on)
        heartbeat.stop()
        with pytest.raises(ShardLost):  # a move logged without a snapshot, without a version check
            await stale.save_game(Save(game_id, None, "playing", move=MoveEntry(1, 31, DRAW, state={"t": 1})))
        with pytest.raises(ShardLost):
            await stale.create_game(guild_id=10, channel_id=21, host_id=30, snapshot={"n": 0})
        game = await fresh.get_game(game_id)
        assert game is not None and (game.snapshot, game.version) == ({"n": 1}, 2)
        assert [m.seq for m in await fresh.moves(game_id)] == [1]
        assert await peek.game_in_channel(fresh, 21) is None
        assert told == [[0]]  # once

        # The new holder plays on from what was committed.
        assert (await fresh.save_game(Save(game_id, {"n": 2}, "playing", expected_version=2))).version == 3
        # The stale heartbeat finds its epoch gone, even under the same owner name.
        keeper_lost: list[list[int]] = []
        keeper = stale.keep_shards([0, 1], owner="host-a pid 1", ttl=0.3, lost=keeper_lost.append)
        try:
            for _ in range(int(TIMEOUT / 0.05)):
                if keeper_lost:
                    break
                await asyncio.sleep(0.05)
        finally:
            keeper.stop()
        assert keeper_lost == [[0, 1]]
    finally:
        await stale.close()
        await fresh.close()


async def test_a_take_over_waits_for_a_save_under_way_and_the_heartbeat_does_not(postgres_url: str) -> None:
    holder = await PostgresStorage.open(postgres_url)
    other = await PostgresStorage.open(postgres_url)
    watcher = await asyncpg.connect(postgres_url)
    under_way = await asyncpg.connect(postgres_url)
    try:
        await holder.take_shards([0], 1, owner="a", ttl=60)
        # A save under way holds its lease row as romme_save does (FOR KEY SHARE), not committed.
        transaction = under_way.transaction()
        await transaction.start()
        await under_way.execute("SELECT 1 FROM shard_leases WHERE shard_id = 0 FOR KEY SHARE")
        # The heartbeat is not held up by it.
        renewed = await asyncio.wait_for(holder.renew_shards([0], owner="a", ttl=60), TIMEOUT)
        assert renewed == [0]
        await raw_sql(postgres_url, "UPDATE shard_leases SET expires_at = now() - interval '1 second'")
        take = asyncio.ensure_future(other.take_shards([0], 1, owner="b", ttl=60))
        waiting = False
        for _ in range(int(TIMEOUT / 0.02)):  # until the take-over waits for the row lock
            waiting = bool(
                await watcher.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database() AND query LIKE '%shard_leases%'"
                )
            )
            if waiting or take.done():
                break
            await asyncio.sleep(0.02)
        assert waiting and not take.done()
        await transaction.commit()
        leases = await asyncio.wait_for(take, TIMEOUT)
        assert [lease.owner for lease in leases] == ["b"]
    finally:
        await under_way.close()
        await watcher.close()
        await holder.close()
        await other.close()


async def test_two_processes_taking_a_free_shard_at_once_one_is_refused_with_one_line(
    postgres_url: str,
) -> None:
    one = await PostgresStorage.open(postgres_url)
    two = await PostgresStorage.open(postgres_url)
    try:
        for shard in range(5):  # the race is won at the insert: tried a few times
            outcomes = await asyncio.gather(
                one.take_shards([shard], 5, owner="one", ttl=60),
                two.take_shards([shard], 5, owner="two", ttl=60),
                return_exceptions=True,
            )
            refused = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], ShardTaken), outcomes
            assert str(refused[0]).startswith(f"shard {shard} is held by")
    finally:
        await one.close()
        await two.close()
