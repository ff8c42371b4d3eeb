"""Scores of a game for the statistics and the standings: round rows, match results, standings."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.match import Match
from bot.service.game import Game
from bot.storage.records import MatchResult, RoundScore


@dataclass(frozen=True)
class Standing:
    """One seat in the standings: its total, its score in each round (``None``: sat out, R6), its place.

    ``place`` is 1 for the highest total; equal totals share a place.
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
    """What each person still seated takes from a finished match into the server's statistics.

    Seats of persons who left are not counted: they did not finish the match. Nor are persons who
    never made a move of their own (``Seat.own_moves``): the computer played their seat all match,
    and its wins are not theirs. Computer seats have no statistics. A shared highest total after
    every tie-break cannot happen (R6), so one seat wins.
    """
    match = game.match
    if match is None or not match.over:
        return []
    results = []
    for seat, owner in enumerate(game.seats):
        if not owner.is_person or owner.user_id is None or owner.own_moves == 0:
            continue
        played = [score for scores in scores_by_round(match) if (score := scores[seat]) is not None]
        results.append(
            MatchResult(
                user_id=owner.user_id,
                points=match.totals[seat],
                won=match.winner == seat,
                best_round=max(played) if played else None,
            )
        )
    return results


def standings(game: Game) -> list[Standing]:
    """The seats by total, highest first, with their scores round by round.

    >>> standings(Game(id=1, guild_id=1, channel_id=1, host_id=1))
    []
    """
    match = game.match
    if match is None:
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
            )
        )
    rows.sort(key=lambda row: (-row.total, row.seat))
    placed = []
    for row in rows:
        place = 1 + sum(1 for other in rows if other.total > row.total)
        placed.append(Standing(**{**row.__dict__, "place": place}))
    return placed


def scores_by_round(match: Match) -> list[list[int | None]]:
    """Each finished round's scores by match seat, ``None`` for a seat that sat the round out (R6).

    The history gives 0 to a seat that sat out; who played a tie-break round follows from the totals
    before it: only the seats sharing the highest total (R6).

    >>> import random
    >>> scores_by_round(Match.new(2, rng=random.Random(5)))  # no round finished yet
    []
    """
    rows: list[list[int | None]] = []
    totals = [0] * match.n_seats
    for number, result in enumerate(match.history, start=1):
        if number > match.rounds_planned:
            best = max(totals)
            playing = {seat for seat, total in enumerate(totals) if total == best}
        else:
            playing = set(range(match.n_seats))
        rows.append([score if seat in playing else None for seat, score in enumerate(result.scores)])
        totals = [total + score for total, score in zip(totals, result.scores, strict=True)]
    return rows
