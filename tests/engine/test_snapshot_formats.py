"""Snapshots of every version this code has written load and play on alike (R19).

Version 1 saved a ``random.Random`` as ``[version, [625 integers], gauss_next]`` and a match saved it
twice (once more inside its round); version 2 saves it once, packed in base64. Games saved in users'
databases before the change must load and deal the very same cards afterwards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.snapshot import rng_from_state, rng_state


def old_rng(rng: random.Random) -> list[Any]:
    """The generator as version 1 wrote it."""
    version, internal, gauss_next = rng.getstate()
    return [version, list(internal), gauss_next]


def as_version_1(match: Match) -> dict[str, Any]:
    """``match`` saved the way version 1 saved it, built by hand from that encoding."""
    data = match.to_dict()
    rng = old_rng(match._rng)
    data["version"] = 1
    data["rng"] = rng
    data["round"] = {**data["round"], "version": 1, "rng": rng}
    return data


def play_on(match: Match, seed: int) -> list[Move]:
    """Every move of four seeded computer seats until the match ends (it deals new rounds too)."""
    players = [ComputerPlayer(random.Random(seed + seat)) for seat in range(match.n_seats)]
    moves: list[Move] = []
    while not match.over:
        if match.round.over:
            match.next_round()
        seat = match.round_seats[match.round.to_play]
        move = players[seat].next_move(match.view(seat))
        match.play(seat, move)
        moves.append(move)
    return moves


def mid_match(seed: int) -> Match:
    """A seeded four-seat match a few dozen moves into its first round."""
    match = Match.new(4, rng=random.Random(seed))
    players = [ComputerPlayer(random.Random(seat)) for seat in range(4)]
    for _ in range(37):
        seat = match.round_seats[match.round.to_play]
        match.play(seat, players[seat].next_move(match.view(seat)))
    return match


@pytest.mark.parametrize("seed", [3, 11])
def test_a_version_1_match_loads_and_plays_on_like_the_new_format(seed: int) -> None:
    # R4, R5, R19: the same stock and the same later deals from the old and the new snapshot
    match = mid_match(seed)
    match._rng.gauss(0, 1)  # a spare Gaussian is part of the state too
    new = json.loads(json.dumps(match.to_dict()))
    old = json.loads(json.dumps(as_version_1(match)))
    assert new["version"] == 2 and "rng" not in new["round"]
    from_old, from_new = Match.from_dict(old), Match.from_dict(new)
    assert from_old.to_dict() == from_new.to_dict() == match.to_dict()
    assert play_on(from_old, seed) == play_on(from_new, seed)
    assert from_old.to_dict() == from_new.to_dict()
    assert from_old._rng.random() == from_new._rng.random()


def test_a_version_1_round_loads_with_its_list_generator() -> None:
    # R19: a lone round still carries its generator, in either encoding
    rnd = Round.deal(3, rng=random.Random(5))
    rnd._rng.random()
    data = rnd.to_dict()
    old = {**data, "version": 1, "rng": old_rng(rnd._rng)}
    again = Round.from_dict(json.loads(json.dumps(old)))
    assert again.to_dict() == data
    assert again._rng.getstate() == rnd._rng.getstate()


def test_a_match_saves_its_generator_once_and_compactly() -> None:
    # R19: the round of a match shares the match's generator, so only the match saves it
    match = mid_match(7)
    data = match.to_dict()
    assert "rng" not in data["round"] and "rng" in match.round.to_dict()
    old_size = len(json.dumps(as_version_1(match), separators=(",", ":")))
    new_size = len(json.dumps(data, separators=(",", ":")))
    assert new_size * 2 < old_size
    with pytest.raises(ValueError):
        Round.from_dict(data["round"])  # it needs the match's generator


def test_a_random_state_survives_json_with_a_spare_gaussian() -> None:
    rng = random.Random("seed")
    rng.gauss(0, 1)
    again = rng_from_state(json.loads(json.dumps(rng_state(rng))))
    assert again.getstate() == rng.getstate()
    assert rng_state(random.SystemRandom()) is None
    assert isinstance(rng_from_state(None), random.SystemRandom)


def test_a_damaged_random_state_is_refused() -> None:
    state = rng_state(random.Random(1))
    assert state is not None
    for words in ("not base64!", state["words"][:-8]):
        with pytest.raises(ValueError):
            rng_from_state({**state, "words": words})
