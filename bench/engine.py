"""Speed of the rules engine: make_meld, best_melds and (when present) whole computer-player matches.

``python bench/engine.py --hands 1000 --seed 1`` prints a few readable lines, then one JSON object as
its last line: make_meld_codes_per_s (``make_meld(parse_cards(codes))`` on the codes of 2,000 random
legal melds, as a view or a click gives them), make_meld_cards_per_s (``make_meld(cards)`` on the
same melds already built as cards; ``make_meld_per_s`` is the same figure under its old name),
best_melds_p50_ms, best_melds_p99_ms, best_melds_worst_ms,
best_melds_worst_hand, best_melds_worst_retimed_ms (the 20 slowest random hands again, fastest of 5
calls: what the search costs without the machine's hiccups), hard_worst_ms, matches_per_s (null
when the match engine is missing).

``python bench/engine.py --compare DIR`` times make_meld alone in this checkout and in the checkout
``DIR`` (e.g. ``git worktree add /tmp/e-before 05d4702``), one process per sample, the two checkouts
taking turns, and prints their medians and the ratio (this checkout / DIR). ``--root DIR`` (used by
``--compare``) imports the bot from ``DIR`` instead of this checkout.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# ``--root DIR`` (the form --compare passes): time the bot of checkout DIR. Read before it is imported.
sys.path.insert(
    0,
    next(
        (arg for flag, arg in zip(sys.argv, sys.argv[1:], strict=False) if flag == "--root"),
        str(Path(__file__).resolve().parent.parent),
    ),
)

import bot
from bot.engine.cards import JOKER, SUITS, Card, card_codes, new_deck, parse_cards
from bot.engine.meld import make_meld
from bot.engine.solver import best_melds

HERE = Path(__file__).resolve().parent.parent
"""This checkout."""

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


def bench_make_meld(rng: random.Random, seconds: float = 1.0) -> dict[str, float]:
    """make_meld calls per second on card codes and on built cards: the median of passes over 2,000
    random legal melds, the two inputs taking turns pass by pass for about ``seconds`` each."""
    melds = legal_meld_cards(rng, 2000)
    codes = [card_codes(cards) for cards in melds]

    def on_codes() -> None:
        for meld_codes in codes:
            make_meld(parse_cards(meld_codes))

    def on_cards() -> None:
        for cards in melds:
            make_meld(cards)

    rates: dict[str, list[float]] = {"codes": [], "cards": []}
    spent = 0.0
    while spent < 2 * seconds or len(rates["cards"]) < 3:
        for name, run in (("codes", on_codes), ("cards", on_cards)):
            start = time.perf_counter()
            run()
            took = time.perf_counter() - start
            spent += took
            rates[name].append(len(melds) / took)
    return {name: statistics.median(values) for name, values in rates.items()}


def pair_ratio(got: dict[str, dict[str, list[float]]], kind: str) -> float:
    """The median, over samples, of this checkout's rate over the other's in the same sample."""
    return statistics.median(a / b for a, b in zip(got["this"][kind], got["other"][kind], strict=True))


def compare(other: Path, samples: int, seed: int) -> dict[str, Any]:
    """make_meld rates of this checkout and of ``other``, one process per sample, taking turns."""
    roots = {"this": HERE, "other": other.resolve()}
    got: dict[str, dict[str, list[float]]] = {name: {"codes": [], "cards": []} for name in roots}
    for sample in range(samples):
        order = list(roots.items()) if sample % 2 == 0 else list(roots.items())[::-1]
        for name, root in order:
            argv = [sys.executable, __file__, "--root", str(root), "--meld-only", "--seed", str(seed)]
            out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
            figures = json.loads(out.strip().splitlines()[-1])
            got[name]["codes"].append(figures["make_meld_codes_per_s"])
            got[name]["cards"].append(figures["make_meld_cards_per_s"])
            if Path(figures["bot"]) != root / "bot":
                raise SystemExit(f"{root} timed the bot of {figures['bot']}")
            print(f"  {name:5} codes {got[name]['codes'][-1]:>9,}/s  cards {got[name]['cards'][-1]:>9,}/s")
    medians = {name: {kind: statistics.median(v) for kind, v in kinds.items()} for name, kinds in got.items()}
    result: dict[str, Any] = {
        "this": str(HERE),
        "other": str(roots["other"]),
        "samples": samples,
        "this_codes_per_s": round(medians["this"]["codes"]),
        "other_codes_per_s": round(medians["other"]["codes"]),
        "codes_ratio": round(medians["this"]["codes"] / medians["other"]["codes"], 2),
        "this_cards_per_s": round(medians["this"]["cards"]),
        "other_cards_per_s": round(medians["other"]["cards"]),
        "cards_ratio": round(medians["this"]["cards"] / medians["other"]["cards"], 2),
        # Each sample's two processes ran one after the other: their ratio is less at the mercy of
        # whatever else the machine is doing than the ratio of the medians.
        "codes_ratio_of_pairs": round(pair_ratio(got, "codes"), 2),
        "cards_ratio_of_pairs": round(pair_ratio(got, "cards"), 2),
    }
    print(
        f"make_meld on codes: {result['this_codes_per_s']:,}/s against {result['other_codes_per_s']:,}/s"
        f" ({result['codes_ratio']}x); on cards: {result['this_cards_per_s']:,}/s against"
        f" {result['other_cards_per_s']:,}/s ({result['cards_ratio']}x); sample by sample"
        f" {result['codes_ratio_of_pairs']}x and {result['cards_ratio_of_pairs']}x"
    )
    return result


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
    parser.add_argument(
        "--root", type=Path, default=HERE, help="the checkout whose bot is timed (--root DIR)"
    )
    parser.add_argument("--meld-only", action="store_true", help="time make_meld only")
    parser.add_argument("--compare", type=Path, metavar="DIR", help="make_meld here against checkout DIR")
    parser.add_argument("--samples", type=int, default=7, help="processes per checkout for --compare")
    args = parser.parse_args(argv)
    if args.compare is not None:
        result = compare(args.compare, args.samples, args.seed)
        print(json.dumps(result))
        return result
    rng = random.Random(args.seed)

    rates = bench_make_meld(rng)
    print(f"make_meld: {rates['codes']:,.0f} melds/s on card codes, {rates['cards']:,.0f} on built cards")
    if args.meld_only:
        result = {
            "make_meld_codes_per_s": round(rates["codes"]),
            "make_meld_cards_per_s": round(rates["cards"]),
            "seed": args.seed,
            "bot": str(Path(bot.__file__).resolve().parent),
        }
        print(json.dumps(result))
        return result

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
        "make_meld_codes_per_s": round(rates["codes"]),
        "make_meld_cards_per_s": round(rates["cards"]),
        "make_meld_per_s": round(rates["cards"]),
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
