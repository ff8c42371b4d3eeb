"""Typed views: ``seat_view`` equals the JSON-ready ``view`` field by field, and ``view`` stays exactly
the dict it always was (R19), over every state of seeded matches."""

from __future__ import annotations

import json
import random
from enum import Enum
from typing import Any

import pytest

from bot.engine.cards import Card, card_codes
from bot.engine.computer import ComputerPlayer
from bot.engine.history import PublicEvent
from bot.engine.match import Match, _totals
from bot.engine.meld import Meld
from bot.engine.moves import DrawSource, Phase
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.engine.table import TableMeld
from bot.engine.views import VIEW_VERSION, MatchView, RoundView


def legacy_round_view(rnd: Round, seat: int | None) -> dict[str, Any]:
    """``Round.view`` as it was written before the typed views (frozen here: the outside checks and the
    bench read this dict, so it must not change, not even in its key order)."""
    own = seat is not None
    on_turn = own and seat == rnd.to_play and rnd.phase != "over"

    def code(card: Card | None) -> str | None:
        return None if card is None else str(card)

    return {
        "version": 1,
        "seat": seat,
        "n_seats": rnd.n_seats,
        "dealer": rnd.dealer,
        "to_play": rnd.to_play,
        "phase": str(rnd.phase),
        "rules": rnd.rules.to_dict(),
        "hand": card_codes(rnd._hands[seat]) if seat is not None else [],
        "pending": [meld.to_dict() for meld in rnd._pending[seat]] if seat is not None else [],
        "pending_points": rnd.pending_points(seat) if seat is not None else 0,
        "hand_counts": [rnd.hand_count(s) for s in range(rnd.n_seats)],
        "opened": list(rnd._opened),
        "table": [tm.to_dict() for tm in rnd._table],
        "stock_count": rnd.stock_count,
        "discard_top": code(rnd.discard_top),
        "discard_count": rnd.discard_count,
        "reshuffles": rnd.reshuffles,
        "taken_from_discard": code(rnd.taken_from_discard) if on_turn else None,
        "opening_needed": 0 if seat is not None and rnd._opened[seat] else rnd.rules.opening,
        "actions": sorted(rnd.actions(seat)) if seat is not None else [],
        "turn_no": rnd.turn_no,
        "move_no": rnd.move_no - sum(n for s, n in enumerate(rnd._hidden_moves) if s != seat),
        "out": rnd.out,
        "result": rnd.result().to_dict() if rnd.phase == "over" else None,
        # The one key added since (issue 14), last so that the keys before keep their order.
        "history": [event.to_dict() for event in rnd._history],
    }


def legacy_match_view(match: Match, seat: int | None) -> dict[str, Any]:
    """``Match.view`` as it was written before the typed views (frozen, as above)."""
    inside = seat is not None and seat in match.round_seats
    round_seat = match.round_seats.index(seat) if seat is not None and inside else None
    view = legacy_round_view(match.round, round_seat)
    history = match.history
    winner = match.winner
    view["match"] = {
        "seat": seat,
        "n_seats": match.n_seats,
        "round_no": match.round_no,
        "rounds_planned": match.rounds_planned,
        "round_seats": list(match.round_seats),
        "dealer": match.dealer,
        "tiebreak": match.tiebreak,
        "totals": _totals(history, match.n_seats),
        "history": [result.to_dict() for result in history],
        "over": winner is not None,
        "winner": winner,
    }
    return view


def plain(value: Any) -> Any:
    """A typed view's field as the dict writes it: card codes, plain words, lists, value dicts."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (Meld, TableMeld, RoundResult, RuleSet, PublicEvent)):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    return value


def only_plain_types(value: Any) -> bool:
    """Whether ``value`` holds nothing but JSON's own types (no enum member posing as a str)."""
    if isinstance(value, dict):
        return all(type(k) is str and only_plain_types(v) for k, v in value.items())
    if isinstance(value, list):
        return all(only_plain_types(item) for item in value)
    return value is None or type(value) in (str, int, bool, float)


def check_round_view(rnd: Round, seat: int | None) -> None:
    view, typed, legacy = rnd.view(seat), rnd.seat_view(seat), legacy_round_view(rnd, seat)
    # Byte for byte, key order included, and no enum in it.
    assert json.dumps(view) == json.dumps(legacy)
    assert only_plain_types(view)
    # Field by field: every key of the dict is a field of the typed view, spelled the same.
    for key, value in legacy.items():
        if key == "actions":
            spelt = {f"draw_{source}" for source in typed.draw_sources}
            spelt |= {kind for kind in typed.actions if kind != "draw"}
            assert sorted(spelt) == value
            assert ("draw" in typed.actions) == bool(typed.draw_sources)
        else:
            assert plain(getattr(typed, key)) == value, key
    assert typed == RoundView.from_dict(view)
    assert typed.on_turn == (seat is not None and seat == rnd.to_play and not rnd.over)


def check_match_view(match: Match, seat: int | None) -> None:
    view, typed, legacy = match.view(seat), match.seat_view(seat), legacy_match_view(match, seat)
    assert json.dumps(view) == json.dumps(legacy)
    assert only_plain_types(view)
    for key, value in legacy["match"].items():
        assert plain(getattr(typed, key)) == value, key
    assert typed == MatchView.from_dict(view)


RULE_CASES = [
    (2, RuleSet()),
    (3, RuleSet(opening=0, hand_romme=True)),
    (4, RuleSet(jokers=6, discard_to_go_out=True)),
    (3, RuleSet(jokers=2, scoring="penalty", opening=120)),
    (6, RuleSet(opening=30, rounds=1)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seats", "rules"), RULE_CASES)
def test_typed_views_equal_the_dicts_over_seeded_matches(seats: int, rules: RuleSet) -> None:
    # R19: the same view either way, for each seat and the onlooker, at every state of the match
    match = Match.new(seats, rules=rules, rng=random.Random(seats * 7 + rules.opening))
    players = [ComputerPlayer(random.Random(seat)) for seat in range(seats)]
    states = 0
    while True:
        rnd = match.round
        for seat in [None, *range(rnd.n_seats)]:
            check_round_view(rnd, seat)
        for seat in [None, *range(match.n_seats)]:
            check_match_view(match, seat)
        states += 1
        if match.over:
            break
        if rnd.over:
            match.next_round()
            continue
        seat = match.round_seats[rnd.to_play]
        match.play(seat, players[seat].next_move(match.seat_view(seat).round))
    assert states > 40


def test_a_tiebreak_seat_that_sits_out_sees_the_onlookers_round_view() -> None:
    # R6, R19: a seat out of the tie-break round holds no hand in it
    match = Match.new(3, rules=RuleSet(rounds=1), rng=random.Random(1))
    match.round_seats = [0, 2]
    match.round = Round.deal(2, rng=random.Random(2))
    view = match.seat_view(1)
    assert view.round == match.round.seat_view(None) and view.round_seats == (0, 2)
    assert view.round.hand == () and view.round.actions == frozenset()
    check_match_view(match, 1)
    check_match_view(match, 2)


def test_the_view_and_the_snapshot_keep_the_plain_words() -> None:
    # The phases, piles and run ends are StrEnums in code and plain words in every dict.
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D"], "QH", "KH", rules=RuleSet(opening=0))
    word: str = rnd.phase
    assert rnd.phase is Phase.DRAW and word == "draw"
    assert rnd.draw_sources(0) == (DrawSource.STOCK, DrawSource.DISCARD) and rnd.draw_sources(1) == ()
    assert rnd.move_kinds(0) == {"draw"} and rnd.actions(0) == {"draw_stock", "draw_discard"}
    rnd.draw(0, DrawSource.DISCARD)
    assert rnd.seat_view(0).taken_from_discard == Card.parse("KH")
    assert rnd.seat_view(1).taken_from_discard is None  # R12's card is the seat on turn's to know
    data = rnd.to_dict()
    assert data["phase"] == "play" and type(data["phase"]) is str
    assert only_plain_types({k: v for k, v in data.items() if k != "rng"})
    assert Round.from_dict(data).phase is Phase.PLAY
    assert rnd.view(0)["actions"] == ["discard", "meld"]
    assert rnd.seat_view(0).actions == {"discard", "meld"} and rnd.seat_view(0).draw_sources == ()


def test_a_view_of_another_version_is_refused() -> None:
    data = Round.deal(2, rng=random.Random(1)).view(0)
    assert data["version"] == VIEW_VERSION
    with pytest.raises(ValueError):
        RoundView.from_dict({**data, "version": VIEW_VERSION + 1})


def test_the_onlooker_view_holds_no_secret() -> None:
    # R19: no hand, no proposal, no taken card, and the other seats' proposals are not counted
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D 9S"], "QH", "KH")
    rnd.draw(0, "discard")
    rnd.meld(0, [Card.parse(code) for code in ("5H", "6H", "7H")])
    onlooker, own = rnd.seat_view(None), rnd.seat_view(0)
    assert onlooker.hand == () and onlooker.pending == () and onlooker.taken_from_discard is None
    assert own.pending_points == 18 and own.move_no == rnd.move_no
    assert onlooker.move_no == rnd.move_no - 1 and rnd.seat_view(1).move_no == onlooker.move_no
