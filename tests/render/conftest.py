"""Real games for the rendering tests: a Game with seats and a Match at a chosen Round position."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.engine.match import Match
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.i18n import set_strict
from bot.service.game import Game, GameStatus, Seat
from tests.render.render_helpers import GameFactory, make_seats


@pytest.fixture(autouse=True)
def strict_catalog() -> Any:
    """A missing catalog key is a test failure, never a silent fallback."""
    set_strict(True)
    yield
    set_strict(None)


@pytest.fixture
def game_at() -> GameFactory:
    """``game_at(round_, seats=None, rules=None, round_no=1, finished=())``: a running game whose
    current round is ``round_`` (all match seats play it)."""

    def build(
        round_: Round,
        *,
        seats: list[Seat] | None = None,
        round_no: int = 1,
        round_seats: Sequence[int] | None = None,
        n_seats: int | None = None,
        finished: Sequence[Any] = (),
        status: GameStatus = GameStatus.PLAYING,
    ) -> Game:
        n = n_seats if n_seats is not None else round_.n_seats
        match = Match(
            n_seats=n,
            rules=round_.rules,
            rng=random.Random(0),
            dealer=round_.dealer if round_seats is None else list(round_seats)[round_.dealer],
            round_no=round_no,
            round_seats=list(range(n)) if round_seats is None else list(round_seats),
            finished=list(finished),
            current=round_,
        )
        return Game(
            id=42,
            guild_id=1,
            channel_id=2,
            host_id=100,
            status=status,
            rules=round_.rules,
            seats=seats if seats is not None else make_seats(n),
            match=match,
            version=7,
        )

    return build


@pytest.fixture
def dealt_game() -> Callable[[int], Game]:
    """``dealt_game(n)``: a match of ``n`` seats freshly dealt with a fixed seed."""

    def build(n: int, rules: RuleSet | None = None) -> Game:
        match = Match.new(n, rules=rules or RuleSet(), rng=random.Random(n))
        return Game(
            id=42,
            guild_id=1,
            channel_id=2,
            host_id=100,
            status=GameStatus.PLAYING,
            rules=rules or RuleSet(),
            seats=make_seats(n),
            match=match,
            version=3,
        )

    return build
