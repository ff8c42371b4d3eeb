"""Win rate of the computer player against the random baseline in two-seat matches.

``python -m bench.winrate --matches 200 --seed 0`` prints, as its last line, one JSON object with
wins, losses, ties and win_rate of the computer player. Who sits in seat 0 (and so who plays first,
R4) alternates from match to match.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bot.engine.computer import ComputerPlayer, RandomPlayer
from bot.engine.match import Match
from bot.engine.rules import RuleSet
from bot.engine.simulate import MatchStats, Player, play_match


def win_rate(matches: int, seed: int, rules: RuleSet | None = None, level: str = "normal") -> dict[str, Any]:
    """Play ``matches`` seeded matches, computer (at ``level``) against random, and count the
    computer's results."""
    rules = rules or RuleSet()
    wins = losses = ties = 0
    stats = MatchStats()
    started = time.perf_counter()
    for game in range(matches):
        computer_seat = game % 2
        computer = ComputerPlayer(random.Random(f"{seed}:{game}:computer"), level=level)
        baseline = RandomPlayer(random.Random(f"{seed}:{game}:random"))
        players: list[Player] = [computer, baseline] if computer_seat == 0 else [baseline, computer]
        match = Match.new(2, rules=rules, rng=random.Random(f"{seed}:{game}:deal"))
        stats.add(play_match(match, players))
        if match.winner is None:
            ties += 1
        elif match.winner == computer_seat:
            wins += 1
        else:
            losses += 1
    return {
        "matches": matches,
        "level": level,
        "seed": seed,
        "rules": rules.to_dict(),
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "win_rate": round(wins / matches, 4) if matches else None,
        "rounds": stats.rounds,
        "turns": stats.turns,
        "seconds": round(time.perf_counter() - started, 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry: parse the options, play, print the JSON summary last."""
    parser = argparse.ArgumentParser(prog="python -m bench.winrate", description=__doc__)
    parser.add_argument("--matches", type=int, default=200, help="matches to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the players")
    parser.add_argument("--rules", default="{}", help="house rules as JSON")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="normal")
    args = parser.parse_args(argv)
    rules = RuleSet.from_dict(json.loads(args.rules))
    print(json.dumps(win_rate(args.matches, args.seed, rules, args.level)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
