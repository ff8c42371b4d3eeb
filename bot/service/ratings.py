"""Ratings per server and person, by season: openskill's Plackett–Luce model, not a hand-written Elo.

A finished match ranks its seats as its outcome places them (:mod:`bot.engine.outcome`, the one rule
the statistics and every screen read too: leavers below everyone who stayed, then R6's tie-break,
then the total). A match that ends early (stopped, or ended
idle) is rated on the standings so far, with the same places, as :func:`early_rating` decides: a
seated stopper ranks as a leaver; a stop by a member not seated, or the idle close, rates it once a
round has ended, and not before. Each computer level plays at a fixed
rating of its own (:data:`COMPUTER_RATINGS`, never updated), so a match against computers moves a
person's rating, and winning against easy computers over and over levels off. A match a person did
not play themselves (the computer played their seat from start to end) does not count for them:
their seat is rated as the computer that played it.

What players see is conservative: the ordinal ``mu - 3 sigma`` scaled to about 1,000–2,000
(:func:`shown`), "provisional" for a season's first :data:`PROVISIONAL_MATCHES` matches. A new
season (:mod:`bot.service.seasons`) starts everybody's season rating from their last one with its
uncertainty widened to at least :data:`SEASON_SIGMA` (the skill carries over; the shown number drops
and climbs back as they play); the leaderboard starts empty; past seasons keep their final standings.

Everything is recomputable from the stored results (:meth:`Ratings.recompute`): each rated match
keeps its seats as rated (``rated_matches``), and a finished game not rated yet is read from its
snapshot.

>>> seats = (RatedSeat(0, 7, None, place=1), RatedSeat(1, None, "easy", place=2))
>>> after = rate_seats(seats, {})
>>> after[7][0] > DEFAULT_MU, shown(DEFAULT_MU, DEFAULT_SIGMA)
(True, 1000)
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

from openskill.models import PlackettLuce

from bot.service.game import Game
from bot.service.seasons import DEFAULT_LENGTH, SeasonLength, due_start, first_start
from bot.storage import (
    Database,
    ProfileCounts,
    RatedMatch,
    RatedSeat,
    Rating,
    RatingChange,
    Season,
    Standing,
)
from bot.storage.records import seat_counts

log = logging.getLogger(__name__)

EarlyRating = Literal["leaver", "standings", "unrated"]
"""How a match that ended before its last round is rated (:func:`early_rating`)."""

MODEL = PlackettLuce()
"""The model: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma

COMPUTER_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (12.0, 1.0),
    "normal": (22.0, 1.0),
    "hard": (32.0, 1.0),
}
"""Each computer level's fixed (mu, sigma): never updated. A small sigma: the computers are well
known, so a match against them moves the person and (nearly) not the estimate of the computer."""

SEASON_SIGMA = 6.0
"""A new season widens each person's sigma to at least this (the default is 25/3 ≈ 8.33)."""
PROVISIONAL_MATCHES = 5
"""A season rating is provisional for its first matches."""
SCALE = 25.0
"""Shown points per unit of the ordinal."""
BASE = 1000
"""The shown number of the ordinal 0 (a new player)."""
PAGE = 10
"""Lines of a leaderboard page."""
CHART_MATCHES = 30
"""Rated matches the profile's chart shows at most."""


def shown(mu: float, sigma: float) -> int:
    """The number players see: the ordinal ``mu - 3 sigma`` scaled, never below 0.

    >>> shown(25.0, 25 / 3), shown(35.0, 2.0), shown(-30.0, 8.0)
    (1000, 1725, 0)
    """
    return max(0, round(BASE + SCALE * (mu - 3 * sigma)))


def computer_rating(level: str | None) -> tuple[float, float]:
    """The fixed (mu, sigma) a computer level plays at (an unknown level: normal's).

    >>> computer_rating("hard"), computer_rating(None) == COMPUTER_RATINGS["normal"]
    ((32.0, 1.0), True)
    """
    return COMPUTER_RATINGS.get(level or "normal", COMPUTER_RATINGS["normal"])


def rate_seats(
    seats: Sequence[RatedSeat], before: Mapping[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Each rated person's (mu, sigma) after the match: openskill's ``rate`` over every seat (one
    team each, ranked by place; a computer seat at its level's fixed rating), persons at ``before``
    (default: a new player's). Computers' new values are dropped: they never change.

    >>> seats = (RatedSeat(0, 7, None, 1), RatedSeat(1, 8, None, 2, left=True))
    >>> after = rate_seats(seats, {})
    >>> after[7][0] > DEFAULT_MU > after[8][0]
    True
    """
    if not any(seat.rated_person for seat in seats):
        return {}  # nobody's rating moves (a match that was not rated has no seats at all)
    teams = []
    for seat in seats:
        if seat.rated_person:
            assert seat.user_id is not None
            mu, sigma = before.get(seat.user_id, (DEFAULT_MU, DEFAULT_SIGMA))
        else:
            mu, sigma = computer_rating(seat.level)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(seat.place) for seat in seats])
    return {
        seat.user_id: (team[0].mu, team[0].sigma)
        for seat, team in zip(seats, rated, strict=True)
        if seat.rated_person and seat.user_id is not None
    }


LEAVER: EarlyRating = "leaver"
STANDINGS: EarlyRating = "standings"
UNRATED: EarlyRating = "unrated"


def early_rating(game: Game, stopper: int | None) -> EarlyRating:
    """How ``game``'s match, ending now before its last round (stopped by the member ``stopper``,
    or ended by itself with nobody playing: ``None``), is rated; the stop keeps it in
    ``game.early_rating``, and its confirmation says it beforehand.

    - :data:`LEAVER`: a person seated at the table (and not gone) stopped it. It is rated on the
      standings so far, and they rank below everyone who stayed, as a leaver does, whether or not
      a round has ended: stopping is never a way out of a match one is losing.
    - :data:`STANDINGS`: a member not seated (Manage Server, the game-master role) stopped it, or
      it ended idle, once at least one round has ended: rated on the standings so far (the
      natural end's places: by total, equal totals tie, leavers last).
    - :data:`UNRATED`: the same before any round has ended: there is no result to rate, and nobody
      at the table chose to end it.

    >>> from bot.service.game import Seat
    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=7, seats=[Seat(7, "Ada"), Seat(8, "Bea")])
    >>> early_rating(game, 7)
    'leaver'
    >>> early_rating(game, 9), early_rating(game, None)  # a moderator, the idle close: no round ended
    ('unrated', 'unrated')
    """
    if stopper is not None and game.active_seat_of(stopper) is not None:
        return LEAVER
    if game.match is not None and game.match.history:
        return STANDINGS
    return UNRATED


def rated_seats(game: Game) -> tuple[RatedSeat, ...]:
    """The seats of ``game``'s match as they are rated: its counted outcome
    (:meth:`~bot.service.game.Game.counted_outcome`: a match played to its end, or one that ended
    early and is rated on the standings so far, see :func:`early_rating`), its places, leavers and
    counts; empty for any other (not over, or ended early unrated). A person's seat the computer
    played from start to end is rated as that computer (normal).

    >>> rated_seats(Game(id=1, guild_id=1, channel_id=1, host_id=7))
    ()
    """
    result = game.counted_outcome()
    if result is None:
        return ()
    return tuple(
        RatedSeat(
            seat=row.seat,
            user_id=owner.user_id,
            level=owner.computer_level if owner.user_id is None else None if row.counts else "normal",
            place=row.place,
            left=row.left,
            counts=row.counts,
            **seat_counts(row),
        )
        for row, owner in zip(result.seats, game.seats, strict=True)
    )


@dataclass(frozen=True, slots=True)
class Shift:
    """A person's shown rating before and after a match, for the match-end message ("+23 → 1,412").

    >>> Shift(7, 1389, 1412, provisional=False).delta
    23
    """

    user_id: int
    before: int
    after: int
    provisional: bool

    @property
    def delta(self) -> int:
        """The change of the shown number."""
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Line:
    """A person's line on a season's leaderboard, as players see it: rank, shown rating, whether it
    is provisional, matches and wins in the season.

    >>> Line.of(Standing(3, Rating(1, 1, 7, 25.0, 25 / 3, matches=2, wins=1)))
    Line(rank=3, user_id=7, rating=1000, provisional=True, matches=2, wins=1)
    """

    rank: int
    user_id: int
    rating: int
    provisional: bool
    matches: int
    wins: int

    @classmethod
    def of(cls, standing: Standing) -> Line:
        """The line of a stored standing."""
        rating = standing.rating
        return cls(
            standing.rank,
            rating.user_id,
            shown(rating.mu, rating.sigma),
            is_provisional(rating),
            rating.matches,
            rating.wins,
        )


@dataclass(frozen=True, slots=True)
class Board:
    """A page of a season's leaderboard: its lines, the caller's own line when it is not on the
    page, how many are rated, the page (0 first) and the pages."""

    season: Season
    lines: list[Line]
    own: Line | None
    size: int
    page: int
    past: bool

    @property
    def pages(self) -> int:
        """How many pages the season's leaderboard has (at least one)."""
        return max(1, -(-self.size // PAGE))


@dataclass(frozen=True, slots=True)
class Profile:
    """What ``/romme profile`` shows of a person on one server."""

    user_id: int
    season: Season
    standing: Line | None
    size: int
    counts: ProfileCounts
    history: list[RatingChange]

    @property
    def chart(self) -> list[int]:
        """The shown rating before the first of :attr:`history` and after each of its matches."""
        if not self.history:
            return []
        first = self.history[0]
        return [shown(first.mu_before, first.sigma_before)] + [shown(c.mu, c.sigma) for c in self.history]


def stored_shifts(changes: Sequence[tuple[RatingChange, int]]) -> dict[int, Shift]:
    """Each person's :class:`Shift` of a match, from its stored rating changes, each with the
    person's rated matches in that season up to and with this one
    (:meth:`~bot.storage.interface.Database.game_rating_changes`): what the match-end message shows,
    the same after a restart as right after the rating.

    >>> from datetime import UTC, datetime
    >>> change = RatingChange(5, 7, 1, 1, datetime(2026, 1, 1, tzinfo=UTC), 1, 2, True, False,
    ...     25.0, 25 / 3, 27.0, 7.0, 40, 1, 1, 0, 40, "easy")
    >>> stored_shifts([(change, 1)])
    {7: Shift(user_id=7, before=1000, after=1150, provisional=True)}
    """
    return {
        change.user_id: Shift(
            change.user_id,
            shown(change.mu_before, change.sigma_before),
            shown(change.mu, change.sigma),
            provisional=matches < PROVISIONAL_MATCHES,
        )
        for change, matches in changes
    }


def is_provisional(rating: Rating | None) -> bool:
    """A season rating of fewer than :data:`PROVISIONAL_MATCHES` matches (or none).

    >>> is_provisional(None), is_provisional(Rating(1, 1, 7, 25.0, 5.0, matches=5, wins=0))
    (True, False)
    """
    return rating is None or rating.matches < PROVISIONAL_MATCHES


class Ratings:
    """The ratings and seasons of the servers a bot plays on, over its storage.

    ``now`` is the clock (UTC; the tests give a simulated one); ``season_length`` reads a server's
    season length (its setting, :attr:`~bot.service.settings.ServerSettings.season_length`, from the
    storage; monthly without one), asked whenever a season may be due.
    """

    def __init__(
        self,
        storage: Database,
        *,
        now: Callable[[], datetime] | None = None,
        season_length: Callable[[int], Awaitable[SeasonLength]] | None = None,
    ) -> None:
        self.storage = storage
        self.now = now or (lambda: datetime.now(UTC))
        self.season_length = season_length or _monthly
        self._locks: dict[int, asyncio.Lock] = {}
        # Each server's running season as last read or started here: a match end or a leaderboard
        # asks the storage again only once it is due to end. A server's games are played by one
        # process (its shard), which is also where its /romme season runs.
        self._seasons: dict[int, Season] = {}
        # Each server's last match rated here, when: the next is rated after it (rate_missed).
        self._last_rated: dict[int, datetime] = {}

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._locks.setdefault(guild_id, asyncio.Lock())

    # ------------------------------------------------------------------ seasons

    async def current_season(self, guild_id: int, *, length: SeasonLength | None = None) -> Season:
        """The server's season running now, started first if it is due (a rollover: the next month,
        or the days of ``length``, default the server's :attr:`season_length`, read now)."""
        length = await self.season_length(guild_id) if length is None else length
        now = self.now()
        known = self._seasons.get(guild_id)
        if known is not None and due_start(known.started_at, length, now) is None:
            return known
        while True:
            seasons = await self.storage.seasons(guild_id)
            if not seasons:
                season = Season(guild_id, 1, first_start(now, length))
            else:
                latest = seasons[-1]
                start = due_start(latest.started_at, length, now)
                if start is None:
                    self._seasons[guild_id] = latest
                    return latest
                season = Season(guild_id, latest.number + 1, start)
            if await self.storage.start_season(season):
                log.info("guild %s: season %s started", guild_id, season.number)
                self._seasons[guild_id] = season
                return season

    async def start_season(self, guild_id: int, member_id: int) -> Season:
        """Start the server's next season now (``/romme season``, by a member with Manage Server)."""
        async with self._lock(guild_id):
            while True:
                seasons = await self.storage.seasons(guild_id)
                number = seasons[-1].number + 1 if seasons else 1
                season = Season(guild_id, number, self.now().astimezone(UTC), member_id)
                if await self.storage.start_season(season):
                    self._seasons[guild_id] = season
                    return season

    async def season(self, guild_id: int, number: int) -> Season | None:
        """The server's season ``number``, if it has started."""
        for season in await self.storage.seasons(guild_id):
            if season.number == number:
                return season
        return None

    # ------------------------------------------------------------------ rating a match

    async def rate(self, game: Game) -> dict[int, Shift]:
        """Rate ``game``'s finished match (once: a second call rates nothing) and return each rated
        person's shown change."""
        seats = rated_seats(game)
        if not any(seat.rated_person for seat in seats):
            return {}
        async with self._lock(game.guild_id):
            season = await self.current_season(game.guild_id)
            ended_at = self._after_last(game.guild_id, self.now())
            return await self._record(game.id, game.guild_id, season.number, ended_at, seats)

    async def rate_missed(self, owns: Callable[[int], bool]) -> int:
        """Rate every finished match of the servers ``owns`` accepts (this process's shards) that has
        no rated match: the last process stopped between the save of its end and its rating, or its
        rating failed. In the order they were saved; each as of now (its ``ended_at`` is when it is
        rated, later than every match rated before it), so the stored order stays the order of
        rating and a recompute gives the same numbers. A match without a rated person is stored as
        rated too (no rating moves), and a match that is not rated (ended early unrated, or before
        :func:`early_rating`) with no seats, so that neither is read again at the next start.
        Returns the number of matches stored; a game that cannot be read is logged and left."""
        rated = 0
        for game_id, guild_id, _ in await self.storage.unrated_matches():
            if not owns(guild_id):
                continue
            record = await self.storage.get_game(game_id)
            try:
                if record is None or record.damaged is not None or record.replay_error is not None:
                    raise ValueError("its snapshot cannot be read")
                seats = rated_seats(Game.from_snapshot(record.snapshot))
            except Exception as exc:
                log.warning("game %s: its match cannot be rated (%s)", game_id, exc)
                continue
            # A match that is not rated (it ended early before a round, or before the rule for
            # early ends) is stored with no seats all the same: looked at once, never again.
            async with self._lock(guild_id):
                season = await self.current_season(guild_id)
                ended_at = self._after_last(guild_id, self.now())
                await self._record(game_id, guild_id, season.number, ended_at, seats)
            rated += 1
        if rated:
            log.info("%d matches whose rating was missing are rated", rated)
        return rated

    def _after_last(self, guild_id: int, moment: datetime) -> datetime:
        """``moment``, or just after the server's last match rated here if that is not earlier (a
        clock that did not move between two ratings keeps their order in time)."""
        last = self._last_rated.get(guild_id)
        if last is not None and moment <= last:
            moment = last + timedelta(microseconds=1)
        self._last_rated[guild_id] = moment
        return moment

    async def _record(
        self, game_id: int, guild_id: int, season: int, ended_at: datetime, seats: Sequence[RatedSeat]
    ) -> dict[int, Shift]:
        people = [seat.user_id for seat in seats if seat.rated_person and seat.user_id is not None]
        latest = await self.storage.latest_ratings(guild_id, people) if people else {}
        before: dict[int, Rating] = {}
        for user_id in people:
            rating = latest.get(user_id)
            if rating is None:
                rating = Rating(guild_id, season, user_id, DEFAULT_MU, DEFAULT_SIGMA, 0, 0)
            elif rating.season != season:
                # A new season: the skill carries over, its uncertainty is widened (SEASON_SIGMA).
                rating = Rating(guild_id, season, user_id, rating.mu, max(rating.sigma, SEASON_SIGMA), 0, 0)
            before[user_id] = rating
        after = rate_seats(seats, {user_id: (r.mu, r.sigma) for user_id, r in before.items()})
        changes, ratings, shifts = [], [], {}
        for seat in seats:
            if not seat.rated_person or seat.user_id is None:
                continue
            old = before[seat.user_id]
            mu, sigma = after[seat.user_id]
            won = seat.place == 1 and not seat.left
            new = Rating(guild_id, season, seat.user_id, mu, sigma, old.matches + 1, old.wins + int(won))
            beaten = sorted(
                {
                    other.level or "normal"
                    for other in seats
                    if other.user_id is None and other.place > seat.place
                }
            )
            changes.append(
                RatingChange(
                    game_id=game_id,
                    user_id=seat.user_id,
                    guild_id=guild_id,
                    season=season,
                    ended_at=ended_at,
                    place=seat.place,
                    seats=len(seats),
                    won=won,
                    left_early=seat.left,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=mu,
                    sigma=sigma,
                    beaten=",".join(beaten),
                    **seat_counts(seat),
                )
            )
            ratings.append(new)
            shifts[seat.user_id] = Shift(
                seat.user_id, shown(old.mu, old.sigma), shown(mu, sigma), is_provisional(new)
            )
        match = RatedMatch(game_id, guild_id, season, ended_at, tuple(seats))
        if not await self.storage.record_rating(match, changes, ratings):
            return {}
        return shifts

    async def recompute(self, guild_id: int) -> int:
        """Rate every match of the server again, in the order they were rated, from the stored
        results: each rated match's seats as stored, and the finished games not rated yet, read from
        their snapshots (rated as of their last save). Returns the number of matches rated."""
        async with self._lock(guild_id):
            self._seasons.pop(guild_id, None)
            stored = {match.game_id: match for match in await self.storage.rated_matches(guild_id)}
            seasons = await self.storage.seasons(guild_id)
            todo: list[tuple[datetime, int, int | None, tuple[RatedSeat, ...]]] = [
                (match.ended_at, match.game_id, match.season, match.seats) for match in stored.values()
            ]
            for game_id, _, ended in await self.storage.games_to_rate(guild_id):
                if game_id in stored:
                    continue
                record = await self.storage.get_game(game_id)
                if record is not None:
                    seats = rated_seats(Game.from_snapshot(record.snapshot))
                    if any(seat.rated_person for seat in seats):
                        todo.append((ended, game_id, None, seats))
            todo.sort(key=lambda item: (item[0], item[1]))
            await self.storage.forget_ratings(guild_id)
            for ended, game_id, season, seats in todo:
                number = season if season is not None else _season_at(seasons, ended)
                if number is None:
                    first = Season(guild_id, 1, ended.astimezone(UTC))
                    await self.storage.start_season(first)
                    seasons = [first]
                    number = 1
                await self._record(game_id, guild_id, number, ended, seats)
            return len(todo)

    # ------------------------------------------------------------------ what players see

    async def board(
        self, guild_id: int, *, season: int | None = None, page: int | None = None, user_id: int | None = None
    ) -> Board | None:
        """A page of a season's leaderboard (default: the running season; the page the caller is on,
        or the first), with the caller's own line when it is on another page. ``None``: no such season."""
        current = await self.current_season(guild_id)
        wanted = (
            current if season is None or season == current.number else await self.season(guild_id, season)
        )
        if wanted is None:
            return None
        if user_id is None:
            size, own = await self.storage.season_size(guild_id, wanted.number), None
        else:
            size, own = await self.storage.season_rank(guild_id, wanted.number, user_id)
        pages = max(1, -(-size // PAGE))
        page = 0 if page is None else max(0, min(page, pages - 1))
        lines = await self.storage.season_board(guild_id, wanted.number, page * PAGE, PAGE)
        if own is not None and any(line.rating.user_id == own.rating.user_id for line in lines):
            own = None
        return Board(
            wanted,
            [Line.of(line) for line in lines],
            None if own is None else Line.of(own),
            size,
            page,
            past=wanted.number != current.number,
        )

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """A person's profile on one server: the running season's rating and rank, what their rated
        matches add up to, and their last :data:`CHART_MATCHES` rated matches (for the chart)."""
        season = await self.current_season(guild_id)
        size, standing = await self.storage.season_rank(guild_id, season.number, user_id)
        counts = await self.storage.profile_counts(guild_id, user_id)
        history = await self.storage.rating_history(guild_id, user_id, CHART_MATCHES)
        return Profile(
            user_id, season, None if standing is None else Line.of(standing), size, counts, history
        )


async def _monthly(guild_id: int) -> SeasonLength:
    """Every server's season length without settings: :data:`~bot.service.seasons.DEFAULT_LENGTH`."""
    return DEFAULT_LENGTH


def _season_at(seasons: Sequence[Season], moment: datetime) -> int | None:
    """The number of the season running at ``moment`` (the first season for a time before it)."""
    number = None
    for season in seasons:
        if season.started_at <= moment or number is None:
            number = season.number
    return number
