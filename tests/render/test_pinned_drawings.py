"""The table message and hand panels of seeded states draw exactly as pinned (byte for byte).

The pins were taken from the drawings before they were made faster: caching card text or the seat
view may change how long drawing takes, never what Discord receives.
"""

from __future__ import annotations

import json

import pytest

from bot.service.game import Game
from tests.render.pinned_states import PINS, canonical, digests, drawings, pinned_games

PINNED = json.loads(PINS.read_text(encoding="utf-8"))
GAMES = pinned_games()


def test_the_seeded_games_give_the_pinned_states() -> None:
    # Same games, same states: otherwise the engine changed, not the drawing (see pinned_states).
    assert [(game.id, game.version) for game in GAMES] == [(p["game"], p["version"]) for p in PINNED]


@pytest.mark.parametrize("index", range(len(PINNED)))
def test_a_state_draws_as_pinned(index: int) -> None:
    game = GAMES[index]
    expected = {key: value for key, value in PINNED[index].items() if key not in ("game", "version")}
    found = digests(game)
    changed = sorted(name for name in expected if found.get(name) != expected[name])
    assert not changed, f"{changed} of game {game.id} v{game.version} changed:\n{_shown(game)}"


def test_drawing_in_reverse_order_gives_the_same_bytes() -> None:
    # Nothing cached from one drawing leaks into another state's (R19: panels of two seats in a row).
    for index in reversed(range(len(GAMES))):
        found = digests(GAMES[index])
        assert all(found[name] == PINNED[index][name] for name in found), index


def test_drawing_leaves_the_game_as_it_was() -> None:
    for game in GAMES:
        before = game.to_snapshot()
        drawings(game)
        assert game.to_snapshot() == before


def _shown(game: Game) -> str:
    return canonical(drawings(game))[:4000]
