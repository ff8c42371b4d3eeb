"""The match simulator: whole matches, its JSON summary, and the cap that makes a stuck round visible."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import simulate
from bot.engine.match import Match
from bot.engine.moves import DrawSource, Move, Phase
from bot.engine.rules import RuleSet
from bot.engine.simulate import StuckMatch, main, play_match
from bot.engine.views import RoundView

ROOT = Path(__file__).resolve().parents[2]


def last_json_line(text: str) -> dict[str, Any]:
    line: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    return line


def test_main_prints_a_json_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--seats", "3", "--seed", "4"]) == 0
    summary = last_json_line(capsys.readouterr().out)
    assert summary["games"] == 2 and summary["seats"] == 3
    assert summary["rounds"] >= 6  # R4: one round per seat, tie-breaks may add more
    assert summary["turns"] >= summary["rounds"]
    assert summary["moves"] > summary["turns"]
    assert 0 < summary["max_turns_in_a_round"] <= summary["turns"]
    assert 0 <= summary["rounds_without_winner"] <= summary["rounds"]
    assert sum(summary["wins_by_seat"]) == 2
    assert summary["seconds"] >= 0


def test_main_takes_house_rules_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    rules = {"opening": 0, "jokers": 2, "discard_to_go_out": True, "rounds": 1}
    main(["--games", "1", "--seats", "2", "--seed", "1", "--rules", json.dumps(rules)])
    summary = last_json_line(capsys.readouterr().out)
    assert summary["rules"] | rules == summary["rules"]
    assert summary["rounds"] >= 1


def test_main_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--seats", "7"])  # R3
    with pytest.raises(SystemExit):
        main(["--rules", '{"jokers": 3}'])  # R1


def test_same_seed_same_matches() -> None:
    first = simulate.simulate(2, 2, 9, RuleSet())
    again = simulate.simulate(2, 2, 9, RuleSet())
    for key in ("rounds", "turns", "moves", "wins_by_seat", "rounds_without_winner"):
        assert first[key] == again[key]


def test_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.engine.simulate", "--games", "1", "--seats", "2", "--seed", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert last_json_line(done.stdout)["games"] == 1


class DiscardSwapper:
    """Always takes the discard and throws another card: the stock never shrinks, so the round never
    ends unless the cap stops it."""

    def next_move(self, view: RoundView) -> Move:
        if view.phase == Phase.DRAW:
            return Move.draw(DrawSource.DISCARD)
        return Move.discard(next(c for c in view.hand if c != view.taken_from_discard))


def test_a_round_that_never_ends_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulate, "MAX_TURNS_PER_ROUND", 50)
    match = Match.new(2, rng=random.Random(0))
    with pytest.raises(StuckMatch):
        play_match(match, [DiscardSwapper(), DiscardSwapper()])
