"""Issue 35, defect 2, on both backends: a match stopped early is rated by the rule of
:func:`~bot.service.ratings.early_rating`, and the ratings' guarantees hold for it as for a match
played to its end: a rating lost between the save of the stop and its rating is made up at the next
start (once), and ``romme-bot ratings --recompute`` gives the stored numbers from what is stored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.__main__ import recompute_ratings
from bot.engine.rules import RuleSet
from bot.service import TableService
from bot.service.game import Game, GameStatus, replay_snapshot
from bot.service.ratings import rated_seats
from bot.storage import Database, open_database

from .conftest import (
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    HOST,
    STRANGER,
    FakeClock,
    persons_turn_or_rest,
    play_person_move,
    wait_for,
)
from .test_ratings import DECEMBER, openskill_again, rating_fails_once, stored_ratings

THREE_ROUNDS = RuleSet(rounds=3, opening=0)


async def first_round(service: TableService, channel: int) -> Game:
    """Ada (HOST) and Bob play the first round of a three-round match to its end."""
    game = await service.open_lobby(GUILD, channel, HOST, "Ada", THREE_ROUNDS)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    for _ in range(2_000):
        await wait_for(lambda: persons_turn_or_rest(game))
        if game.between_rounds:
            return game
        await play_person_move(service, game)
    raise AssertionError("the round did not end")


async def settled(service: TableService, game: Game) -> Game:
    """``game`` once the change under way and its rating (after the game's lock) are done."""
    async with service.changes.lock(game.id):
        pass
    await service.changes.rated(game.id)
    return game


async def test_a_stop_whose_rating_was_lost_is_rated_at_the_next_start_as_a_recompute_would(
    database: str | Path,
) -> None:
    clock = FakeClock(DECEMBER)
    storage = await open_database(database, replay=replay_snapshot)
    service = TableService(storage, computer_delay=0.0, seed=7, next_round_delay=3600.0, clock=clock)
    await service.load()
    # The bot stops between the save of the stop and its rating: record_rating fails once.
    failed = rating_fails_once(storage)
    game = await first_round(service, CHANNEL)
    stopped = await settled(service, await service.stop(game.id, HOST, can_manage=False))
    assert failed == [game.id] and stopped.status is GameStatus.FINISHED
    assert stopped.early_rating == "leaver"
    seats = rated_seats(stopped)
    assert [(seat.user_id, seat.left) for seat in seats if seat.place == len(seats)] == [(HOST, True)]
    assert await storage.rated_matches(GUILD) == []
    await service.close()
    await storage.close()

    clock.now += 3600
    storage = await open_database(database, replay=replay_snapshot)
    try:
        service = TableService(storage, computer_delay=0.0, seed=7, next_round_delay=3600.0, clock=clock)
        await service.load()
        (match,) = await storage.rated_matches(GUILD)
        assert match.game_id == game.id and match.seats == seats
        stored = await stored_ratings(storage)
        assert stored == openskill_again([match]) and set(stored) == {(1, HOST), (1, BOB)}
        # A second start finds nothing left to rate.
        assert await service.ratings.rate_missed(service.owns) == 0
        await service.close()
    finally:
        await storage.close()
    # romme-bot ratings --recompute gives the stored numbers.
    assert await recompute_ratings(database) == 1
    storage = await open_database(database, replay=replay_snapshot)
    try:
        assert await stored_ratings(storage) == stored
        assert await storage.rated_matches(GUILD) == [match]
    finally:
        await storage.close()


async def test_an_unrated_stop_is_looked_at_once_and_recomputes_to_nothing(
    make_service: Any, storage: Database, database: str | Path
) -> None:
    """A member not seated stops a match before any round ended: nobody is rated; the next start
    stores it as not rated (no seats) so that it is never read again, and a recompute keeps it so."""
    service = await make_service(clock=FakeClock(DECEMBER))
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", THREE_ROUNDS)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await wait_for(lambda: persons_turn_or_rest(game))
    await play_person_move(service, game)
    stopped = await settled(service, await service.stop(game.id, STRANGER, can_manage=True))
    assert stopped.early_rating == "unrated" and rated_seats(stopped) == ()
    assert await storage.rated_matches(GUILD) == []
    again = await make_service(clock=FakeClock(DECEMBER + 60))
    assert [(m.game_id, m.seats) for m in await storage.rated_matches(GUILD)] == [(game.id, ())]
    assert await again.ratings.rate_missed(again.owns) == 0
    assert await again.ratings.recompute(GUILD) == 1
    assert await stored_ratings(storage) == {}


async def test_a_match_stopped_before_the_rule_stays_unrated(make_service: Any) -> None:
    """A snapshot saved before early ends were rated has no ``early_rating``: its match is not
    rated at a start or by a recompute (the stored numbers were made without it)."""
    service = await make_service(clock=FakeClock(DECEMBER))
    game = await first_round(service, CHANNEL)
    stopped = await settled(service, await service.stop(game.id, HOST, can_manage=False))
    assert rated_seats(stopped) != ()
    before = {key: value for key, value in stopped.to_snapshot().items() if key != "early_rating"}
    assert rated_seats(Game.from_snapshot(before)) == ()


async def test_a_seated_stop_before_any_round_ranks_the_stopper_last_and_the_others_share_first(
    make_service: Any, storage: Database
) -> None:
    # R6's places without a tie-break round: equal totals (none yet) tie, the leaver below them.
    service = await make_service(clock=FakeClock(DECEMBER))
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", THREE_ROUNDS)
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CAROL, "Cy")
    await service.begin(game.id, HOST)
    for _ in range(3):  # a turn each
        await wait_for(lambda: persons_turn_or_rest(game))
        seat = game.to_play
        while game.to_play == seat and not game.between_rounds:
            await play_person_move(service, game)
    await settled(service, await service.stop(game.id, HOST, can_manage=False))
    (match,) = await storage.rated_matches(GUILD)
    assert [(seat.user_id, seat.place, seat.left) for seat in match.seats] == [
        (HOST, 3, True),
        (BOB, 1, False),
        (CAROL, 1, False),
    ]
    assert await stored_ratings(storage) == openskill_again([match])
