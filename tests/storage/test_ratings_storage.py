"""The ratings' tables on both backends: a rated match is stored once, whole; seasons are numbered
once each; the leaderboard is a total order with the rank and the count read together; the profile
adds up the history; a recompute's first step forgets a server's ratings and nothing else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.storage import Database, RatedMatch, RatedSeat, Rating, RatingChange, Season

GUILD, OTHER = 5, 6
DAY = datetime(2026, 12, 3, 20, 15, 30, 123456, tzinfo=UTC)


def change(
    game_id: int, user_id: int, *, place: int, mu: float, beaten: str = "", ended: datetime = DAY
) -> RatingChange:
    return RatingChange(
        game_id=game_id,
        user_id=user_id,
        guild_id=GUILD,
        season=1,
        ended_at=ended,
        place=place,
        seats=3,
        won=place == 1,
        left_early=False,
        mu_before=25.0,
        sigma_before=25 / 3,
        mu=mu,
        sigma=7.123456789012345,
        points=40 + game_id,
        rounds=3,
        rounds_out=1 if place == 1 else 0,
        hand_rommes=1 if game_id == 2 and place == 1 else 0,
        best_round=30 + game_id,
        beaten=beaten,
    )


def match(game_id: int, *seats: RatedSeat, guild: int = GUILD, ended: datetime = DAY) -> RatedMatch:
    return RatedMatch(game_id, guild, 1, ended, tuple(seats))


async def test_a_rated_match_is_stored_once_and_whole(storage: Database) -> None:
    seats = (
        RatedSeat(0, 7, None, 1, points=50),
        RatedSeat(1, None, "hard", 2),
        RatedSeat(2, 8, None, 3, left=True),
    )
    ratings = [Rating(GUILD, 1, 7, 27.25, 7.5, 1, 1), Rating(GUILD, 1, 8, 22.0, 7.9, 1, 0)]
    changes = [change(1, 7, place=1, mu=27.25, beaten="hard"), change(1, 8, place=3, mu=22.0)]
    assert await storage.record_rating(match(1, *seats), changes, ratings)
    # A second call (a retry, or a race) writes nothing, not even a changed rating.
    assert not await storage.record_rating(match(1, *seats), changes, [Rating(GUILD, 1, 7, 99.0, 1.0, 9, 9)])
    (stored,) = await storage.rated_matches(GUILD)
    assert stored.seats == seats and stored.ended_at == DAY  # microseconds and all
    latest = await storage.latest_ratings(GUILD, [7, 8, 9])
    assert latest == {7: ratings[0], 8: ratings[1]}  # the same floats, bit for bit
    history = await storage.rating_history(GUILD, 7, 10)
    assert history == [changes[0]]
    assert await storage.rated_matches(OTHER) == []


async def test_a_season_number_is_taken_once(storage: Database) -> None:
    first = Season(GUILD, 1, DAY)
    assert await storage.start_season(first)
    assert not await storage.start_season(Season(GUILD, 1, DAY + timedelta(days=1), started_by=3))
    assert await storage.start_season(Season(GUILD, 2, DAY + timedelta(days=2), started_by=3))
    assert await storage.start_season(Season(OTHER, 1, DAY))
    assert [(s.number, s.started_at, s.started_by) for s in await storage.seasons(GUILD)] == [
        (1, DAY, None),
        (2, DAY + timedelta(days=2), 3),
    ]


async def test_the_leaderboard_is_a_total_order_with_rank_and_count(storage: Database) -> None:
    # Five persons; 12 and 13 have the same rating: the lower user id ranks first.
    values = {11: (30.0, 2.0), 12: (28.0, 3.0), 13: (28.0, 3.0), 14: (20.0, 1.0), 15: (35.0, 8.0)}
    for game_id, (user_id, (mu, sigma)) in enumerate(values.items(), start=1):
        rating = Rating(GUILD, 1, user_id, mu, sigma, 1, 0)
        seats = (RatedSeat(0, user_id, None, 1), RatedSeat(1, None, "easy", 2))
        assert await storage.record_rating(
            match(game_id, *seats), [change(game_id, user_id, place=1, mu=mu)], [rating]
        )
    order = [line.rating.user_id for line in await storage.season_board(GUILD, 1, 0, 10)]
    assert order == [11, 12, 13, 14, 15]  # by mu - 3 sigma: 24, 19, 19, 17, 11
    page = await storage.season_board(GUILD, 1, 2, 2)
    assert [(line.rank, line.rating.user_id) for line in page] == [(3, 13), (4, 14)]
    size, line = await storage.season_rank(GUILD, 1, 13)
    assert size == 5 and line is not None and (line.rank, line.rating.user_id) == (3, 13)
    assert await storage.season_rank(GUILD, 1, 99) == (5, None)
    assert await storage.season_size(GUILD, 2) == 0


async def test_the_profile_adds_up_the_history_and_a_recompute_forgets_one_server(storage: Database) -> None:
    seats = (RatedSeat(0, 7, None, 1), RatedSeat(1, None, "easy", 2))
    for game_id, (place, beaten) in enumerate([(1, "easy"), (1, "easy,hard"), (2, "")], start=1):
        ended = DAY + timedelta(minutes=game_id)
        rating = Rating(GUILD, 1, 7, 25.0 + game_id, 7.0, game_id, 2)
        written = await storage.record_rating(
            match(game_id, *seats, ended=ended),
            [change(game_id, 7, place=place, mu=25.0 + game_id, beaten=beaten, ended=ended)],
            [rating],
        )
        assert written
    other = (RatedSeat(0, 7, None, 1), RatedSeat(1, None, "hard", 2))
    assert await storage.record_rating(
        match(9, *other, guild=OTHER), [], [Rating(OTHER, 1, 7, 30.0, 5.0, 1, 1)]
    )
    counts = await storage.profile_counts(GUILD, 7)
    assert (counts.matches, counts.wins, counts.rounds, counts.rounds_out, counts.hand_rommes) == (
        3,
        2,
        9,
        2,
        1,
    )
    assert counts.average_place is not None and abs(counts.average_place - 4 / 3) < 1e-9
    assert (counts.best_round, counts.best_match, counts.beaten) == (33, 43, frozenset({"easy", "hard"}))
    assert [c.game_id for c in await storage.rating_history(GUILD, 7, 2)] == [
        2,
        3,
    ]  # the last two, oldest first

    await storage.forget_ratings(GUILD)
    assert await storage.rated_matches(GUILD) == [] and await storage.latest_ratings(GUILD, [7]) == {}
    assert (await storage.profile_counts(GUILD, 7)).matches == 0
    assert set(await storage.latest_ratings(OTHER, [7])) == {7}  # another server's stay
