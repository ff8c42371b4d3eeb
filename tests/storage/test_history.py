"""The history of a server's matches and the compaction of old moves (``HISTORY_DAYS``), on both
backends: the finished games listed newest first (all, or a member's), and the moves of games
over before a time deleted while their scores, results and statistics stay as they were."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage import GameStatus, MatchResult, MoveEntry, RoundScore, Save
from bot.storage.interface import Database

GUILD, OTHER_GUILD = 10, 11
ADA, BEA, CEL = 30, 31, 32


async def finished_game(
    storage: Database,
    *,
    guild: int = GUILD,
    host: int = ADA,
    player: int = BEA,
    status: GameStatus = GameStatus.FINISHED,
) -> int:
    """A game with two logged moves, a round score of ``player`` and, finished, its results."""
    game = await storage.create_game(
        guild_id=guild, channel_id=guild * 100 + 1, host_id=host, snapshot={"n": 0}, status="playing"
    )
    version = 1
    for seq in (1, 2):
        move = MoveEntry(seat=0, user_id=host, move={"kind": "draw", "source": "stock", "n": seq})
        await storage.save_game(Save(game, {"n": seq}, "playing", expected_version=version, move=move))
        version += 1
    score = RoundScore(round_no=1, seat=1, user_id=player, melded=30, in_hand=5, score=25)
    results = [MatchResult(user_id=player, points=25, won=True, best_round=25)]
    await storage.save_game(
        Save(
            game,
            {"n": 3},
            status,
            expected_version=version,
            move=MoveEntry(seat=1, user_id=player, move={"kind": "discard", "card": "7H"}),
            round_scores=[score],
            match_results=results if status is GameStatus.FINISHED else [],
        )
    )
    return game


async def seen_by_players(storage: Database, games: list[int]) -> list[Any]:
    """Everything a player sees of scores: round scores, records, the leaderboard, the game rows."""
    return [
        [await storage.round_scores(game) for game in games],
        await storage.player_record(GUILD, BEA),
        await storage.leaderboard(GUILD),
        [(record.status, record.snapshot) for game in games if (record := await storage.get_game(game))],
    ]


async def test_finished_games_are_listed_newest_first_and_by_member(storage: Database) -> None:
    first = await finished_game(storage)
    second = await finished_game(storage, host=CEL, player=CEL)
    await finished_game(storage, guild=OTHER_GUILD)
    running = await storage.create_game(
        guild_id=GUILD, channel_id=5, host_id=BEA, snapshot={"n": 0}, status="playing"
    )
    listed = await storage.finished_games(GUILD)
    assert [record.id for record in listed] == [second, first]
    assert running not in [record.id for record in listed]
    assert listed[1].snapshot == {"n": 3} and listed[1].status is GameStatus.FINISHED
    assert [record.id for record in await storage.finished_games(GUILD, user_id=BEA)] == [first]
    assert [record.id for record in await storage.finished_games(GUILD, user_id=CEL)] == [second]
    assert await storage.finished_games(GUILD, user_id=999) == []
    assert [record.id for record in await storage.finished_games(GUILD, limit=1)] == [second]


async def test_compaction_drops_old_moves_and_nothing_a_player_sees(storage: Database) -> None:
    games = [await finished_game(storage), await finished_game(storage, player=BEA)]
    running = await storage.create_game(
        guild_id=GUILD, channel_id=7, host_id=ADA, snapshot={"n": 0}, status="playing"
    )
    await storage.save_game(
        Save(running, {"n": 1}, "playing", expected_version=1, move=MoveEntry(0, ADA, {"kind": "draw"}))
    )
    before = await seen_by_players(storage, games)
    assert (await storage.player_record(GUILD, BEA)) is not None

    # Not old enough yet: nothing goes.
    assert await storage.compact_moves(datetime.now(UTC) - timedelta(days=1)) == 0
    assert len(await storage.moves(games[0])) == 3

    deleted = await storage.compact_moves(datetime.now(UTC) + timedelta(seconds=5))
    assert deleted == 6
    assert [await storage.moves(game) for game in games] == [[], []]
    # A game still in play keeps its log, whatever its age.
    assert len(await storage.moves(running)) == 1
    assert await seen_by_players(storage, games) == before
    assert await storage.compact_moves(datetime.now(UTC) + timedelta(seconds=5)) == 0
    # The history still lists them, by member too (their round scores stay).
    assert {record.id for record in await storage.finished_games(GUILD, user_id=BEA)} == set(games)
