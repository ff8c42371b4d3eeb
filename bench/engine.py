"""Speed of the rules engine: make_meld, best_melds and (when present) whole computer-player matches.

``python bench/engine.py --hands 1000 --seed 1`` prints a few readable lines, then one JSON object as
its last line: make_meld_per_s, best_melds_p50_ms, best_melds_p99_ms, best_melds_worst_ms,
best_melds_worst_hand, best_melds_worst_retimed_ms (the 20 slowest random hands again, fastest of 5
calls: what the search costs without the machine's hiccups), hard_worst_ms, matches_per_s (null
when the match engine is missing).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.engine.cards import JOKER, SUITS, Card, card_codes, new_deck, parse_cards
from bot.engine.meld import make_meld
from bot.engine.solver import best_melds

HARD_HANDS = [
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS JK JK JK JK",  # one long suit, four jokers
    "5S 5S 6S 6S 7S 7S 8S 8S 9S 9S JK JK JK JK",  # duplicates
    "5S 6S 7S 8S 9S 5H 6H 7H 8H 9H JK JK JK JK",  # two suits, runs and sets crossing
    "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H JK JK JK JK",
    "9S 10S JS QS KS AS 9H 10H JH QH KH AH JK JK",  # aces high and low, sets of aces
    "AS AS 2S 2S 3S 3S KS KS QS QS JK JK JK JK",
    "5S 5H 6S 6H 7S 7H 8S 8H 9S 9H 10S 10H JK JK",
    "3S 5S 7S 9S JS KS 3H 5H 7H 9H JK JK JK JK",  # sparse: jokers fill gaps
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS JK",  # every rank
    "4S 5S 6S 4H 5H 6H 4D 5D 6D 4C 5C 6C JK JK",
]


def legal_meld_cards(rng: random.Random, count: int) -> list[list[Card]]:
    """``count`` random legal melds (runs and sets, with jokers), as shuffled card lists."""
    melds: list[list[Card]] = []
    while len(melds) < count:
        if rng.random() < 0.5:
            suits = rng.sample(SUITS, rng.randint(3, 4))
            rank = rng.randint(1, 13)
            cards = [Card(rank, suit) for suit in suits]
        else:
            length = rng.randint(3, 7)
            low = rng.randint(1, 15 - length)
            suit = rng.choice(SUITS)
            cards = [Card(1 if place == 14 else place, suit) for place in range(low, low + length)]
        for i in rng.sample(range(len(cards)), rng.randint(0, min(2, len(cards) - 2))):
            cards[i] = JOKER
        rng.shuffle(cards)
        melds.append(cards)
    return melds


def bench_make_meld(rng: random.Random, seconds: float = 1.0) -> float:
    melds = legal_meld_cards(rng, 2000)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for cards in melds:
            make_meld(cards)
        done += len(melds)
    return done / (time.perf_counter() - start)


def random_hands(rng: random.Random, count: int) -> list[list[Card]]:
    naturals = [card for card in new_deck(4) if not card.is_joker]
    return [
        rng.sample(naturals, 14 - jokers) + [JOKER] * jokers
        for jokers in (rng.randint(0, 4) for _ in range(count))
    ]


def time_best_melds(hand: list[Card], repeat: int = 1, pick: Any = max) -> float:
    """Milliseconds of one call: the slowest (``pick=max``) or fastest (``min``) of ``repeat``."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        best_melds(hand)
        runs.append(time.perf_counter() - start)
    return float(pick(runs)) * 1000


def bench_matches(rng: random.Random, matches: int) -> float | None:
    try:
        from bot.engine.computer import ComputerPlayer
        from bot.engine.match import Match
        from bot.engine.simulate import play_match
    except ImportError:
        return None
    start = time.perf_counter()
    for _ in range(matches):
        match = Match.new(4, rng=random.Random(rng.random()))
        play_match(match, [ComputerPlayer(random.Random(rng.random())) for _ in range(4)])
    return matches / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000, help="random 14-card hands for best_melds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--matches", type=int, default=5, help="4-seat computer matches to time")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    per_s = bench_make_meld(rng)
    print(f"make_meld: {per_s:,.0f} melds/s")

    times = sorted((time_best_melds(hand), card_codes(hand)) for hand in random_hands(rng, args.hands))
    millis = [ms for ms, _ in times]
    p99 = millis[min(len(millis) - 1, int(len(millis) * 0.99))]
    print(f"best_melds, {args.hands} random hands: p50 {statistics.median(millis):.2f} ms, p99 {p99:.2f} ms")

    hard = [(time_best_melds(parse_cards(text), repeat=5), text) for text in HARD_HANDS]
    for ms, text in hard:
        print(f"  {ms:6.2f} ms  {text}")
    worst_ms, worst_hand = max([*times, *((ms, text.split()) for ms, text in hard)])
    # A single slow call can be the machine, not the search: the slowest hands again, fastest of 5.
    retimed = max(time_best_melds(parse_cards(" ".join(codes)), 5, min) for _, codes in times[-20:])
    print(f"slowest: {worst_ms:.2f} ms once ({' '.join(worst_hand)}); retimed fastest of 5: {retimed:.2f} ms")

    matches = bench_matches(rng, args.matches)
    print(f"matches: {matches if matches is None else f'{matches:.2f}/s'}")
    result = {
        "make_meld_per_s": round(per_s),
        "best_melds_p50_ms": round(statistics.median(millis), 3),
        "best_melds_p99_ms": round(p99, 3),
        "best_melds_worst_ms": round(worst_ms, 3),
        "best_melds_worst_hand": " ".join(worst_hand),
        "best_melds_worst_retimed_ms": round(retimed, 3),
        "hard_worst_ms": round(max(ms for ms, _ in hard), 3),
        "hands": args.hands,
        "seed": args.seed,
        "matches_per_s": None if matches is None else round(matches, 3),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
