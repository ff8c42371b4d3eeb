"""Scores of a game for the statistics and the standings: round rows, match results and standings,
both read from the match's outcome (:meth:`Game.outcome`, the one rule of places and wins)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.match import Match
from bot.service.game import Game
from bot.storage.records import MatchResult, RoundScore


@dataclass(frozen=True)
class Standing:
    """One seat in the standings: its total, its score in each round (``None``: sat out, R6), its place.

    ``place`` is the match outcome's (:meth:`Game.outcome`): 1 best, equal places tie.
    """

    seat: int
    name: str
    user_id: int | None
    computer: bool
    total: int
    rounds: list[int | None] = field(default_factory=list)
    place: int = 1


def last_round_scores(game: Game) -> list[RoundScore]:
    """The score rows of the round that just ended (one per seat that played it), for the storage.

    >>> last_round_scores(Game(id=1, guild_id=1, channel_id=1, host_id=1))
    []
    """
    match = game.match
    if match is None or not match.round.over:
        return []
    result = match.history[-1]
    rows = []
    for seat in match.round_seats:
        owner = game.seats[seat]
        rows.append(
            RoundScore(
                round_no=match.round_no,
                seat=seat,
                user_id=owner.user_id if owner.is_person else None,
                melded=result.melded[seat],
                in_hand=result.in_hand[seat],
                score=result.scores[seat],
            )
        )
    return rows


def match_results(game: Game) -> list[MatchResult]:
    """What each person takes from the match into the server's statistics, read from its counted
    outcome (:meth:`Game.counted_outcome`): a row per seat that counts for its person, a leaver's too
    (a match lost, not a match escaped), won as the outcome says. Computer seats, and persons the
    computer played for from start to end, have no statistics; a match that does not count has none.

    >>> match_results(Game(id=1, guild_id=1, channel_id=1, host_id=1))
    []
    """
    result = game.counted_outcome()
    if result is None:
        return []
    return [
        MatchResult(user_id=owner.user_id, points=row.points, won=row.won, best_round=row.best_round)
        for row, owner in zip(result.seats, game.seats, strict=True)
        if row.counts and owner.user_id is not None
    ]


def standings(game: Game) -> list[Standing]:
    """The seats by place (the match's outcome, :meth:`Game.outcome`), best first, with their scores
    round by round.

    >>> standings(Game(id=1, guild_id=1, channel_id=1, host_id=1))
    []
    """
    match = game.match
    result = game.outcome()
    if match is None or result is None:
        return []
    rows = []
    for seat, owner in enumerate(game.seats):
        rounds = [scores[seat] for scores in scores_by_round(match)]
        rows.append(
            Standing(
                seat=seat,
                name=owner.name,
                user_id=owner.user_id,
                computer=owner.computer,
                total=match.totals[seat],
                rounds=rounds,
                place=result.seats[seat].place,
            )
        )
    rows.sort(key=lambda row: (row.place, row.seat))
    return rows


def scores_by_round(match: Match) -> list[list[int | None]]:
    """Each finished round's scores by match seat, ``None`` for a seat that sat the round out (R6).

    The history gives 0 to a seat that sat out; who played a tie-break round is
    :meth:`~bot.engine.match.Match.players_by_round` (R6).

    >>> import random
    >>> scores_by_round(Match.new(2, rng=random.Random(5)))  # no round finished yet
    []
    """
    return [
        [score if seat in playing else None for seat, score in enumerate(result.scores)]
        for result, playing in zip(match.history, match.players_by_round(), strict=True)
    ]
