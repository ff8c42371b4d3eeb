"""Ratings and seasons through the table service, on both backends: matches played to the end are
rated with openskill, the stored numbers are what openskill's own functions give from the stored
results, a leaver ranks last, computers play at fixed ratings, a new month starts a new season."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from openskill.models import PlackettLuce

from bot.__main__ import recompute_ratings
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.service import TableService
from bot.service.game import Game, GameStatus, Seat, replay_snapshot
from bot.service.ratings import (
    COMPUTER_RATINGS,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    SEASON_SIGMA,
    rated_seats,
    shown,
    stored_shifts,
)
from bot.storage import Database, RatedMatch, Rating, open_database
from tests.conftest import raw_sql

from .conftest import (
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    HOST,
    FakeClock,
    ServiceFactory,
    persons_turn_or_rest,
    play_person_move,
    play_to_the_end,
    wait_for,
)

DECEMBER = datetime(2026, 12, 14, 12, 0, tzinfo=UTC).timestamp()


def rating_fails_once(storage: Database) -> list[int]:
    """Make ``storage``'s next ``record_rating`` fail with nothing written, as a process killed between
    a match's end and its rating writes nothing; the list it returns gets the game id it failed for."""
    record_rating = storage.record_rating
    failed: list[int] = []

    async def fails_once(match: RatedMatch, changes: Any, ratings: Any) -> bool:
        if not failed:
            failed.append(match.game_id)
            raise ConnectionError("the bot stopped here")
        return await record_rating(match, changes, ratings)

    storage.record_rating = fails_once  # type: ignore[method-assign]
    return failed


JANUARY = datetime(2027, 1, 3, 9, 0, tzinfo=UTC).timestamp()
ONE_ROUND = RuleSet(rounds=1)


async def play_match(
    service: TableService, channel: int, *people: int, computers: int = 1, level: str = "hard"
) -> Game:
    """A one-round match of ``people`` (the first hosts) and ``computers`` at ``level``, to the end."""
    game = await service.open_lobby(
        GUILD, channel, people[0], "P0", ONE_ROUND, computers=computers, computer_level=level
    )
    for index, person in enumerate(people[1:], start=1):
        await service.join(game.id, person, f"P{index}")
    await service.begin(game.id, people[0])
    return await finish(service, game)


async def finish(service: TableService, game: Game) -> Game:
    """Play ``game`` to the end and wait for the change that ended it and for its rating (which
    runs after that change's save, once the game's lock is let go)."""
    await play_to_the_end(service, game)
    async with service.changes.lock(game.id):
        pass
    await service.changes.rated(game.id)
    return game


def openskill_again(matches: list[RatedMatch]) -> dict[tuple[int, int], tuple[float, float]]:
    """Every (season, person)'s rating, computed from the stored results with openskill's own
    functions: each match one ``rate`` call, computers at their fixed ratings, a new season's first
    match from the person's last rating with sigma widened to SEASON_SIGMA."""
    model = PlackettLuce()
    latest: dict[int, tuple[int, float, float]] = {}
    result: dict[tuple[int, int], tuple[float, float]] = {}
    for match in matches:
        teams = []
        for seat in match.seats:
            if seat.user_id is not None and seat.counts:
                season, mu, sigma = latest.get(seat.user_id, (match.season, model.mu, model.sigma))
                if season != match.season:
                    sigma = max(sigma, SEASON_SIGMA)
                teams.append([model.rating(mu=mu, sigma=sigma)])
            else:
                mu, sigma = COMPUTER_RATINGS[seat.level or "normal"]
                teams.append([model.rating(mu=mu, sigma=sigma)])
        rated = model.rate(teams, ranks=[float(seat.place) for seat in match.seats])
        for seat, team in zip(match.seats, rated, strict=True):
            if seat.user_id is not None and seat.counts:
                latest[seat.user_id] = (match.season, team[0].mu, team[0].sigma)
                result[(match.season, seat.user_id)] = (team[0].mu, team[0].sigma)
    return result


async def stored_ratings(storage: Database, *people: int) -> dict[tuple[int, int], tuple[float, float]]:
    found: dict[tuple[int, int], tuple[float, float]] = {}
    for season in await storage.seasons(GUILD):
        for line in await storage.season_board(GUILD, season.number, 0, 100):
            found[(season.number, line.rating.user_id)] = (line.rating.mu, line.rating.sigma)
    return found


async def test_stored_ratings_are_what_openskill_gives_from_the_stored_results(
    make_service: ServiceFactory, storage: Database
) -> None:
    clock = FakeClock(DECEMBER)
    service = await make_service(clock=clock)
    games = [await play_match(service, CHANNEL + n, HOST, BOB) for n in range(3)]
    clock.now = JANUARY  # season rollover: the next match is in January's season
    games.append(await play_match(service, CHANNEL + 9, BOB, HOST, level="easy"))

    matches = await storage.rated_matches(GUILD)
    assert [m.game_id for m in matches] == [g.id for g in games]
    assert [m.season for m in matches] == [1, 1, 1, 2]
    expected = openskill_again(matches)
    assert await stored_ratings(storage) == expected  # exactly: the same floats
    assert set(expected) == {(1, HOST), (1, BOB), (2, HOST), (2, BOB)}
    # The match-end message's numbers: the shown rating before and after.
    last = games[-1].rating_shifts
    assert set(last) == {HOST, BOB}
    assert last[HOST].after == shown(*expected[(2, HOST)])

    # A recompute from the stored results gives the same numbers again.
    assert await service.ratings.recompute(GUILD) == 4
    assert await stored_ratings(storage) == expected
    assert [m.season for m in await storage.rated_matches(GUILD)] == [1, 1, 1, 2]


async def test_a_new_month_starts_a_new_season_and_the_past_one_keeps_its_standings(
    make_service: ServiceFactory, storage: Database
) -> None:
    clock = FakeClock(DECEMBER)
    service = await make_service(clock=clock)
    await play_match(service, CHANNEL, HOST, BOB)
    december = await service.ratings.board(GUILD)
    assert december is not None and december.season.number == 1
    assert december.season.started_at == datetime(2026, 12, 1, tzinfo=UTC)
    assert {line.user_id for line in december.lines} == {HOST, BOB}
    december_rows = {line.rating.user_id: line.rating for line in await storage.season_board(GUILD, 1, 0, 10)}

    clock.now = JANUARY
    january = await service.ratings.board(GUILD)
    assert january is not None and january.season.number == 2 and january.lines == []
    assert january.season.started_at == datetime(2027, 1, 1, tzinfo=UTC)
    await play_match(service, CHANNEL + 1, HOST, computers=2, level="normal")
    january = await service.ratings.board(GUILD)
    assert january is not None and [line.user_id for line in january.lines] == [HOST]
    # The skill carries over; its uncertainty was widened for the new season (then the match).
    before = (await storage.rating_history(GUILD, HOST, 1))[0]
    last_december = december_rows[HOST]
    assert (before.mu_before, before.sigma_before) == (
        last_december.mu,
        max(last_december.sigma, SEASON_SIGMA),
    )
    # December's final standings are still there.
    past = await service.ratings.board(GUILD, season=1)
    assert past is not None and past.past and past.lines == december.lines
    assert {
        line.rating.user_id: line.rating for line in await storage.season_board(GUILD, 1, 0, 10)
    } == december_rows
    assert await service.ratings.board(GUILD, season=7) is None


async def test_a_leaver_ranks_below_everyone_who_stayed(
    make_service: ServiceFactory, storage: Database
) -> None:
    clock = FakeClock(DECEMBER)
    service = await make_service(clock=clock)
    game = await service.open_lobby(
        GUILD, CHANNEL, HOST, "Ada", ONE_ROUND, computers=1, computer_level="easy"
    )
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CAROL, "Cem")
    await service.begin(game.id, HOST)
    bob = next(seat for seat, owner in enumerate(game.seats) if owner.user_id == BOB)
    while game.seats[bob].own_moves == 0:
        if game.to_play is not None and game.seats[game.to_play].is_person:
            await play_person_move(service, game)
        else:
            await wait_for(lambda: persons_turn_or_rest(game))
    await service.leave(game.id, BOB)
    await finish(service, game)

    (match,) = await storage.rated_matches(GUILD)
    seats = {seat.user_id: seat for seat in match.seats}
    assert seats[BOB].left and seats[BOB].place == 4  # R6 ranks by total; leaving ranks last
    assert all(seat.place < 4 for seat in match.seats if not seat.left)
    change = {c.user_id: c for c in await storage.rating_history(GUILD, BOB, 5)}
    assert change[BOB].left_early and change[BOB].mu < DEFAULT_MU


async def test_computers_play_at_fixed_ratings_and_a_seat_never_played_does_not_count(
    make_service: ServiceFactory, storage: Database
) -> None:
    service = await make_service(clock=FakeClock(DECEMBER))
    game = await service.open_lobby(
        GUILD, CHANNEL, HOST, "Ada", ONE_ROUND, computers=1, computer_level="hard"
    )
    await service.join(game.id, CAROL, "Cem")
    await service.begin(game.id, HOST)
    carol = next(seat for seat, owner in enumerate(game.seats) if owner.user_id == CAROL)
    assert game.seats[carol].own_moves == 0
    await service.leave(game.id, CAROL)  # before her first move: the computer plays her seat all match
    await finish(service, game)
    (match,) = await storage.rated_matches(GUILD)
    seat = next(s for s in match.seats if s.user_id == CAROL)
    assert not seat.counts and seat.level == "normal"  # rated as the computer that played it
    assert await storage.latest_ratings(GUILD, [CAROL]) == {}
    assert set(await storage.latest_ratings(GUILD, [HOST])) == {HOST}
    # The computer's rating is fixed: the same values in every rated match, never a stored row.
    hard = [s for m in await storage.rated_matches(GUILD) for s in m.seats if s.user_id is None]
    assert hard and all(s.level == "hard" for s in hard)
    board = await storage.season_board(GUILD, 1, 0, 10)
    assert all(line.rating.user_id is not None for line in board)
    assert COMPUTER_RATINGS["hard"] == (32.0, 1.0)


def tie_break_game(game_id: int) -> Game:
    """A finished match (a stand-in for its engine match) in which Ada and Bob were tied at 40
    after the planned round, and the tie-break round, which the computer sat out, went to Bob."""
    results = [
        RoundResult(out=0, melded=(40, 40, 10), in_hand=(0, 0, 5), scores=(40, 40, 5), hand_romme=False),
        RoundResult(out=1, melded=(3, 12, 0), in_hand=(4, 0, 0), scores=(-1, 12, 0), hand_romme=True),
    ]
    match = SimpleNamespace(
        over=True,
        history=results,
        totals=[39, 52, 5],
        rounds_planned=1,
        n_seats=3,
    )
    game = Game(id=game_id, guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, status=GameStatus.FINISHED)
    game.seats = [
        Seat(HOST, "Ada", own_moves=3),
        Seat(BOB, "Bob", own_moves=3),
        Seat(None, "C", computer=True),
    ]
    game.match = cast(Any, match)
    return game


def test_the_tie_break_decides_the_top_and_equal_totals_below_tie() -> None:
    # R6: two seats tied at 40 after the planned round; the tie-break round (seat 2 sat out) decides.
    seats = rated_seats(tie_break_game(1))
    assert [seat.place for seat in seats] == [2, 1, 3]
    assert [seat.rounds for seat in seats] == [2, 2, 1]  # the computer sat the tie-break out
    assert seats[1].hand_rommes == 1 and seats[0].rounds_out == 1


async def test_a_tie_break_decides_the_stored_ranking_and_ratings(
    make_service: ServiceFactory, storage: Database
) -> None:
    # R6 on both backends: the match's stored places are the tie-break's, and the stored ratings are
    # what openskill gives for them.
    service = await make_service(clock=FakeClock(DECEMBER))
    lobby = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", ONE_ROUND, computers=1)
    shifts = await service.ratings.rate(tie_break_game(lobby.id))
    (match,) = await storage.rated_matches(GUILD)
    assert [(seat.user_id, seat.place) for seat in match.seats] == [(HOST, 2), (BOB, 1), (None, 3)]
    assert await stored_ratings(storage) == openskill_again([match])
    assert shifts[BOB].after > shifts[HOST].after


async def test_the_stored_rating_rows_give_the_match_ends_rating_line_again(
    make_service: ServiceFactory, storage: Database
) -> None:
    # Issue 36, on both backends: what the match-end message shows ("+23 → 1,412", provisional for a
    # season's first five matches) read back from the stored rows is what the rating returned.
    service = await make_service(clock=FakeClock(DECEMBER))
    for number in range(6):
        lobby = await service.open_lobby(GUILD, CHANNEL + number, HOST, "Ada", ONE_ROUND, computers=1)
        shifts = await service.ratings.rate(tie_break_game(lobby.id))
        assert stored_shifts(await storage.game_rating_changes(lobby.id)) == shifts
        assert shifts[HOST].provisional is (number < 4)  # the fifth match is no longer provisional
        await service.stop(lobby.id, HOST, can_manage=True)  # the lobby closed: a host has three at most
    assert await storage.game_rating_changes(10**9) == []


def test_a_new_player_is_shown_1000() -> None:
    assert shown(DEFAULT_MU, DEFAULT_SIGMA) == 1000
    assert Rating(GUILD, 1, HOST, DEFAULT_MU, DEFAULT_SIGMA, 0, 0).ordinal == DEFAULT_MU - 3 * DEFAULT_SIGMA


async def test_romme_bot_ratings_recompute_repairs_the_ratings_from_the_stored_results(
    database: str | Path,
) -> None:
    storage = await open_database(database, replay=replay_snapshot)
    # The real clock: a match rated again is placed by its game's last save, in time with the others.
    service = TableService(storage, computer_delay=0.0, seed=7, next_round_delay=3600.0)
    await service.load()
    for n in range(3):
        await play_match(service, CHANNEL + n, HOST, BOB)
    before = await stored_ratings(storage)
    await service.close()
    await storage.close()
    # A damaged rating, and a match whose rating was lost (the bot stopped between the save of the
    # match's end and its rating): the recompute rates that match again from the game's snapshot.
    await raw_sql(database, f"UPDATE ratings SET mu = 0 WHERE user_id = {HOST}")
    await raw_sql(database, "DELETE FROM rated_matches WHERE game_id = 2")
    await raw_sql(database, "DELETE FROM rating_history WHERE game_id = 2")

    assert await recompute_ratings(database) == 3

    storage = await open_database(database, replay=replay_snapshot)
    try:
        matches = await storage.rated_matches(GUILD)
        assert sorted(m.game_id for m in matches) == [1, 2, 3]
        after = await stored_ratings(storage)
        assert after == openskill_again(matches)
        assert after == before
    finally:
        await storage.close()


async def history_rows(storage: Database, *people: int) -> list[object]:
    """Every stored rating change of ``people`` on the server (the profile's and the chart's rows)."""
    return [change for person in people for change in await storage.rating_history(GUILD, person, 1000)]


async def test_a_match_whose_rating_was_lost_is_rated_at_the_next_start_as_a_recompute_would(
    database: str | Path,
) -> None:
    clock = FakeClock(DECEMBER)
    storage = await open_database(database, replay=replay_snapshot)
    service = TableService(storage, computer_delay=0.0, seed=7, next_round_delay=3600.0, clock=clock)
    await service.load()
    for n in range(2):
        await play_match(service, CHANNEL + n, HOST, BOB)
    # The bot stops between the save of the third match's end and its rating: the storage's
    # record_rating fails once (nothing written), as a process killed at that moment writes nothing.
    failed = rating_fails_once(storage)
    lost = await play_match(service, CHANNEL + 2, BOB, HOST, level="easy")
    assert failed == [lost.id] and lost.status is GameStatus.FINISHED
    assert [m.game_id for m in await storage.rated_matches(GUILD)] == [1, 2]
    await service.close()
    await storage.close()

    clock.now += 3600  # the bot comes back an hour later
    storage = await open_database(database, replay=replay_snapshot)
    try:
        # A process of other shards leaves the server's match alone …
        other = TableService(storage, computer_delay=0.0, seed=7, clock=clock, owns=lambda guild: False)
        await other.load()
        await other.close()
        assert [m.game_id for m in await storage.rated_matches(GUILD)] == [1, 2]
        # … the process of its shard rates it at its start, before anything else moves.
        service = TableService(storage, computer_delay=0.0, seed=7, next_round_delay=3600.0, clock=clock)
        await service.load()
        matches = await storage.rated_matches(GUILD)
        assert [m.game_id for m in matches] == [1, 2, lost.id]
        assert matches[-1].ended_at == datetime.fromtimestamp(clock.now, UTC)  # when it was rated
        assert matches[-1].seats == rated_seats(lost)
        stored = await stored_ratings(storage)
        assert stored == openskill_again(matches)
        history = await history_rows(storage, HOST, BOB)
        assert {change.game_id for change in history} == {1, 2, lost.id}  # type: ignore[attr-defined]
        # A second start finds nothing left to rate.
        assert await service.ratings.rate_missed(service.owns) == 0
        # Recomputing afterwards gives exactly the numbers stored, in the same order.
        assert await service.ratings.recompute(GUILD) == 3
        assert await stored_ratings(storage) == stored
        assert await history_rows(storage, HOST, BOB) == history
        assert await storage.rated_matches(GUILD) == matches
        await service.close()
    finally:
        await storage.close()


async def test_a_match_is_rated_after_its_end_is_committed_and_outside_the_games_lock(
    make_service: ServiceFactory, storage: Database
) -> None:
    # The change path: lock → apply → save → answer; the rating is a projection of the stored
    # outcome, run once the lock is let go (a click on the game does not wait for it).
    service = await make_service(clock=FakeClock(DECEMBER))
    ratings = service.ratings
    seen: list[tuple[bool, object]] = []

    class Watching:
        """The service's own ratings, watched: is the lock held, is the end in the file?"""

        async def rate(self, game: Game) -> Any:
            record = await storage.get_game(game.id)
            seen.append((service.changes.lock(game.id).locked(), None if record is None else record.status))
            return await ratings.rate(game)

    service.changes.rater = Watching()  # in front of the service's ratings, for this test only
    game = await play_match(service, CHANNEL, HOST, BOB)
    assert seen == [(False, GameStatus.FINISHED)]
    # Whoever waits on the game's rating (finish: ChangePath.rated) finds it done, and its line.
    assert [m.game_id for m in await storage.rated_matches(GUILD)] == [game.id]
    assert set(game.rating_shifts) == {HOST, BOB}
