"""Two checkouts of the bot side by side: one benchmark script run in each, taking turns.

``python bench/checkouts.py --base /tmp/before --rounds 3 -- interactions.py --quick`` runs
``bench/interactions.py --quick`` of this checkout and of the checkout ``/tmp/before`` (e.g. made with
``git worktree add --detach /tmp/before main``) three times each, alternating which goes first, each
run a process of its own that imports the bot of its own checkout (``PYTHONPATH``). Every script in
``bench/`` prints one JSON object as its last line; this reads it from each run and prints, as its
own last line, one JSON object: for every numeric key the median of each checkout
(``{"key": {"base": …, "this": …, "ratio": this / base}}``), and the runs made. Taking turns keeps a
noisy neighbour on a shared machine from favouring one side: quote the ratios, not the figures of
another day.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def run_once(checkout: Path, script: str, args: list[str]) -> dict[str, Any]:
    """Run ``bench/<script>`` of ``checkout`` with its own bot and return its last line's JSON."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(checkout / "bench" / script), *args],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{checkout}: bench/{script} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    result = json.loads(lines[-1])
    if not isinstance(result, dict):
        raise SystemExit(f"{checkout}: bench/{script} did not end with a JSON object")
    return result


def medians(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The median of every numeric key of ``runs`` (keys missing from a run are left out).

    >>> medians([{"a": 1, "b": "x"}, {"a": 3}, {"a": 2}])
    {'a': 2}
    """
    keys = [
        key
        for key, value in runs[0].items()
        if isinstance(value, (int, float)) and not isinstance(value, bool)
    ]
    return {
        key: statistics.median(run[key] for run in runs if isinstance(run.get(key), (int, float)))
        for key in keys
        if all(isinstance(run.get(key), (int, float)) for run in runs)
    }


def compare(base: dict[str, float], this: dict[str, float]) -> dict[str, dict[str, float | None]]:
    """Each key both sides measured: the two medians and their ratio (this / base).

    >>> compare({"p50": 2.0, "old": 1.0}, {"p50": 3.0})
    {'p50': {'base': 2.0, 'this': 3.0, 'ratio': 1.5}}
    """
    return {
        key: {"base": base[key], "this": this[key], "ratio": this[key] / base[key] if base[key] else None}
        for key in base
        if key in this
    }


def main() -> None:
    """Parse the command line, run the rounds, print the JSON line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, required=True, help="the other checkout (the 'before')")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each checkout (default 3)")
    parser.add_argument("script", help="the script in bench/, e.g. interactions.py")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments (after --)")
    options = parser.parse_args()
    args = [arg for arg in options.args if arg != "--"]
    sides: dict[str, list[dict[str, Any]]] = {"base": [], "this": []}
    checkouts = {"base": options.base.resolve(), "this": HERE}
    for round_no in range(options.rounds):
        order = ["base", "this"] if round_no % 2 == 0 else ["this", "base"]
        for side in order:
            sides[side].append(run_once(checkouts[side], options.script, args))
            print(f"round {round_no + 1}: {side} done", file=sys.stderr, flush=True)
    result = {
        "script": options.script,
        "args": args,
        "rounds": options.rounds,
        "medians": compare(medians(sides["base"]), medians(sides["this"])),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
