"""Strength of the computer levels: against each other and against the reference opponents.

``python -m bench.strength --matches 1000 --four-seat-matches 300 --workers 2`` plays every pairing
and prints, as its last line, one JSON object: for each pairing (two seats, then four seats two
against two) the first player's wins, win rate and its 95 % Wilson interval, the share of rounds its
side went out (``went_out``) and its side's mean round-score margin (``margin_per_round``, R20: a
round is mostly a race to go out); and the time of one decision (``next_move``) per player, p50 and
p99 in milliseconds. ``--quick`` is a smoke run.

Seats are rotated: the matches come in pairs on the same deal with the players' seats swapped (four
seats: A B A B, then B A B A), so neither the first move (R4) nor a lucky deal favours a side. The
reference opponents are in :mod:`bench.opponents`.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bench.opponents import GreedyPlayer, PatientPlayer
from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.rules import RuleSet
from bot.engine.simulate import Player, play_match
from bot.engine.views import RoundView

PLAYERS: dict[str, Callable[[random.Random], Player]] = {
    "easy": lambda rng: ComputerPlayer(rng, level="easy"),
    "normal": lambda rng: ComputerPlayer(rng, level="normal"),
    "hard": lambda rng: ComputerPlayer(rng, level="hard"),
    "greedy": GreedyPlayer,
    "patient": PatientPlayer,
}
PAIRINGS: tuple[tuple[str, str], ...] = (
    ("hard", "normal"),
    ("hard", "patient"),
    ("hard", "greedy"),
    ("normal", "greedy"),
    ("normal", "patient"),
    ("easy", "greedy"),
    ("easy", "normal"),
)
"""Each pairing's first player is the one whose win rate is given."""


class Timed:
    """A player whose every decision is timed (perf_counter, seconds)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.times: list[float] = []

    def next_move(self, view: RoundView) -> Move:
        """The wrapped player's move, timed."""
        started = time.perf_counter()
        move = self.player.next_move(view)
        self.times.append(time.perf_counter() - started)
        return move


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` out of ``n`` (95 % with the default ``z``).

    >>> wilson(60, 100)
    (0.5021, 0.6911)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (max(0.0, round((centre - margin) / scale, 4)), min(1.0, round((centre + margin) / scale, 4)))


def _chunk(job: tuple[str, str, int, int, int, int, dict[str, Any]]) -> dict[str, Any]:
    """Play matches ``start`` … ``stop - 1`` of one pairing; wins of the first player, decision times."""
    a, b, seats, start, stop, seed, rules_dict = job
    rules = RuleSet.from_dict(rules_dict)
    wins = ties = rounds = outs = margin = 0
    times: dict[str, list[float]] = {a: [], b: []}
    for game in range(start, stop):
        deal = game // 2  # two matches per deal, the seats swapped
        a_first = game % 2 == 0
        names = [(a if (s % 2 == 0) == a_first else b) for s in range(seats)]
        players = [
            Timed(PLAYERS[name](random.Random(f"{seed}:{a}:{b}:{seats}:{game}:{s}")))
            for s, name in enumerate(names)
        ]
        match = Match.new(seats, rules=rules, rng=random.Random(f"{seed}:{seats}:{deal}:deal"))
        play_match(match, players)
        if match.winner is None:
            ties += 1
        elif names[match.winner] == a:
            wins += 1
        for name, player in zip(names, players, strict=True):
            times[name].extend(player.times)
        for result in match.history:
            rounds += 1
            outs += result.out is not None and names[result.out] == a
            margin += sum(score if names[s] == a else -score for s, score in enumerate(result.scores))
    return {
        "wins": wins,
        "ties": ties,
        "matches": stop - start,
        "rounds": rounds,
        "outs": outs,
        "margin": margin,
        "times": times,
    }


_COUNTS = ("wins", "ties", "matches", "rounds", "outs", "margin")
"""What :func:`_chunk` counts and :func:`strength` adds up per pairing."""


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def strength(
    matches: int,
    four_seat_matches: int,
    seed: int,
    workers: int,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
    rules: RuleSet | None = None,
) -> dict[str, Any]:
    """Play every pairing and gather the figures :func:`main` prints."""
    rules = rules or RuleSet()
    matches += matches % 2  # whole pairs of deals
    four_seat_matches += four_seat_matches % 2
    jobs: list[tuple[str, str, int, int, int, int, dict[str, Any]]] = []
    step = 20
    for seats, count in ((2, matches), (4, four_seat_matches)):
        for a, b in pairings:
            for start in range(0, count, step):
                jobs.append((a, b, seats, start, min(count, start + step), seed, rules.to_dict()))
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(min(2, workers)) as pool:
            parts = pool.map(_chunk, jobs, chunksize=1)
    else:
        parts = [_chunk(job) for job in jobs]
    seconds = time.perf_counter() - started
    results: dict[tuple[str, str, int], dict[str, int]] = {}
    times: dict[str, list[float]] = {}
    for job, part in zip(jobs, parts, strict=True):
        key = (job[0], job[1], job[2])
        total = results.setdefault(key, dict.fromkeys(_COUNTS, 0))
        for field in _COUNTS:
            total[field] += part[field]
        for name, values in part["times"].items():
            times.setdefault(name, []).extend(values)

    def table(seats: int) -> list[dict[str, Any]]:
        rows = []
        for a, b in pairings:
            got = results.get((a, b, seats))
            if not got or not got["matches"]:
                continue
            rows.append(
                {
                    "player": a,
                    "against": b,
                    "matches": got["matches"],
                    "wins": got["wins"],
                    "ties": got["ties"],
                    "win_rate": round(got["wins"] / got["matches"], 4),
                    "wilson95": list(wilson(got["wins"], got["matches"])),
                    "rounds": got["rounds"],
                    "went_out": round(got["outs"] / max(1, got["rounds"]), 4),
                    "margin_per_round": round(got["margin"] / max(1, got["rounds"]), 1),
                }
            )
        return rows

    return {
        "seed": seed,
        "rules": rules.to_dict(),
        "workers": min(2, workers),
        "two_seats": table(2),
        "four_seats_two_against_two": table(4),
        "decision_ms": {
            name: {
                "decisions": len(values),
                "p50": round(statistics.median(values) * 1000, 3),
                "p99": round(_percentile(values, 0.99) * 1000, 3),
                "max": round(max(values) * 1000, 3),
            }
            for name, values in sorted(times.items())
            if values
        },
        "seconds": round(seconds, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry: parse the options, play, print the JSON summary last."""
    parser = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__)
    parser.add_argument("--matches", type=int, default=1000, help="two-seat matches per pairing")
    parser.add_argument("--four-seat-matches", type=int, default=200, help="four-seat matches per pairing")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the players")
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--pairs", default="", help="only these pairings, e.g. 'hard:patient,easy:greedy'")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 and 10 matches per pairing")
    parser.add_argument("--rules", default="{}", help="house rules as JSON")
    args = parser.parse_args(argv)
    pairings: Sequence[tuple[str, str]] = PAIRINGS
    if args.pairs:
        chosen = [tuple(pair.split(":")) for pair in args.pairs.split(",")]
        if any(len(pair) != 2 or not set(pair) <= set(PLAYERS) for pair in chosen):
            parser.error(f"--pairs: name two of {', '.join(PLAYERS)} per pairing, as a:b")
        pairings = [(pair[0], pair[1]) for pair in chosen]
    matches, four = (20, 10) if args.quick else (args.matches, args.four_seat_matches)
    rules: Mapping[str, Any] = json.loads(args.rules)
    print(
        json.dumps(strength(matches, four, args.seed, args.workers, pairings, RuleSet.from_dict(dict(rules))))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
