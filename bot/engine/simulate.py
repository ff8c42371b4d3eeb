"""Whole matches between computer players: a soak test of the engine and a speed measure.

``python -m bot.engine.simulate --games 100 --seats 4 --seed 1`` plays 100 matches and prints, as its
last line, one JSON object: games, rounds, turns, moves, seconds and a few extremes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.moves import Move, Phase
from bot.engine.round import MAX_SEATS, MIN_SEATS
from bot.engine.rules import RuleSet
from bot.engine.views import RoundView

MAX_TURNS_PER_ROUND = 2000
"""A round that runs longer than this is a bug (R18 bounds the stock), so it raises."""
MAX_ROUNDS_PER_MATCH = 200
"""Tie-break rounds (R6) end once one total is higher; this many rounds means something is stuck."""


class Player(Protocol):
    """Anything that picks a move from a seat's view (its :class:`~bot.engine.views.RoundView`)."""

    def next_move(self, view: RoundView) -> Move:
        """The next move of the seat whose view this is."""
        ...


class StuckMatch(RuntimeError):
    """A round or a match went past its cap: a bug in the engine or in a player."""


@dataclass(slots=True)
class MatchStats:
    """Counts over one or more matches."""

    rounds: int = 0
    turns: int = 0
    moves: int = 0
    rounds_without_winner: int = 0
    max_turns_in_a_round: int = 0

    def add(self, other: MatchStats) -> None:
        """Add ``other``'s counts to these."""
        self.rounds += other.rounds
        self.turns += other.turns
        self.moves += other.moves
        self.rounds_without_winner += other.rounds_without_winner
        self.max_turns_in_a_round = max(self.max_turns_in_a_round, other.max_turns_in_a_round)


def play_match(match: Match, players: Sequence[Player]) -> MatchStats:
    """Play ``match`` to its end, ``players[seat]`` choosing every move of match seat ``seat``.

    An illegal move raises :class:`~bot.engine.errors.IllegalMove`; a round or match past its cap
    raises :class:`StuckMatch`.

    >>> match = Match.new(2, rng=random.Random(3))
    >>> stats = play_match(match, [ComputerPlayer(random.Random(s)) for s in range(2)])
    >>> match.over, stats.rounds >= 2
    (True, True)
    """
    stats = MatchStats()
    while True:
        _play_round(match, players, stats)
        if match.over:
            return stats
        if stats.rounds >= MAX_ROUNDS_PER_MATCH:
            raise StuckMatch(f"match still not over after {stats.rounds} rounds")
        match.next_round()


def _play_round(match: Match, players: Sequence[Player], stats: MatchStats) -> None:
    rnd = match.round
    turns = 0
    while rnd.phase != Phase.OVER:
        seat = match.round_seats[rnd.to_play]
        # The round view of the seat on turn: the same as match.seat_view(seat).round, without the
        # match part no player reads.
        move = players[seat].next_move(rnd.seat_view(rnd.to_play))
        if move.kind == "draw":
            turns += 1
            if turns > MAX_TURNS_PER_ROUND:
                raise StuckMatch(f"round {match.round_no} still running after {MAX_TURNS_PER_ROUND} turns")
        match.play(seat, move)
        stats.moves += 1
    stats.rounds += 1
    stats.turns += turns
    stats.max_turns_in_a_round = max(stats.max_turns_in_a_round, turns)
    if rnd.result().out is None:
        stats.rounds_without_winner += 1


def simulate(games: int, seats: int, seed: int, rules: RuleSet) -> dict[str, Any]:
    """Play ``games`` seeded matches between computer players; the summary :func:`main` prints."""
    totals = MatchStats()
    wins = [0] * seats
    started = time.perf_counter()
    for game in range(games):
        match = Match.new(seats, rules=rules, rng=random.Random(f"{seed}:{game}:deal"))
        players = [ComputerPlayer(random.Random(f"{seed}:{game}:seat{s}")) for s in range(seats)]
        totals.add(play_match(match, players))
        if match.winner is not None:
            wins[match.winner] += 1
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "seats": seats,
        "seed": seed,
        "rules": rules.to_dict(),
        **asdict(totals),
        "wins_by_seat": wins,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry: parse the options, simulate, print the JSON summary last."""
    parser = argparse.ArgumentParser(prog="python -m bot.engine.simulate", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="matches to play")
    parser.add_argument(
        "--seats", type=int, default=4, help=f"seats per match, {MIN_SEATS} to {MAX_SEATS} (R3)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the players")
    parser.add_argument("--rules", default="{}", help="house rules as JSON, e.g. '{\"opening\": 0}'")
    args = parser.parse_args(argv)
    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        parser.error(f"--seats must be {MIN_SEATS} to {MAX_SEATS} (R3)")
    try:
        rules = RuleSet.from_dict(json.loads(args.rules))
    except (ValueError, TypeError) as err:
        parser.error(f"--rules: {err}")
    print(json.dumps(simulate(args.games, args.seats, args.seed, rules)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
