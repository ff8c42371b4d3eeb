"""The round's public history in every seat's view: in order, the same for all, restored exactly,
and never a hidden card (R11-R19)."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.engine.cards import Card, parse_cards
from bot.engine.computer import ComputerPlayer
from bot.engine.history import PublicEvent
from bot.engine.match import Match
from bot.engine.round import Round
from bot.engine.views import RoundView

C = Card.parse
P = parse_cards


def kinds(rnd: Round) -> list[tuple[int, str, list[str]]]:
    return [(e.seat, e.kind, [str(c) for c in e.cards]) for e in rnd.history]


def test_history_of_a_whole_turn() -> None:
    # R11, R13, R15, R16
    rnd = Round.from_position(
        ["5H 6H 7H KS KD KC 8H 4S 4D 2C 9D", "3D 4D 9S"],
        "9H",
        "QC",
        table=[(1, "10C JC JK")],
        opened=[False, True],
    )
    rnd.draw(0, "discard")
    rnd.meld(0, P("5H 6H 7H"))  # 18 points: only proposed (R13), not in the history
    assert [e.kind for e in rnd.history] == ["take"]
    rnd.take_back(0)
    assert [e.kind for e in rnd.history] == ["take"]
    rnd.meld(0, P("KS KD KC"))
    rnd.meld(0, P("5H 6H 7H 8H"))  # 56 points: both go to the table at once
    rnd.swap_joker(0, C("QC"), "m1", P("4S 4D"))
    rnd.discard(0, C("2C"))
    assert kinds(rnd) == [
        (0, "take", ["QC"]),
        (0, "meld", ["KS", "KD", "KC"]),
        (0, "meld", ["5H", "6H", "7H", "8H"]),
        (0, "swap", ["4S", "4D", "JK"]),
        (0, "discard", ["2C"]),
    ]
    meld_ids = [e.meld for e in rnd.history]
    assert meld_ids == [None, "m2", "m3", "m1", None]
    assert rnd.history[3].card == C("QC") and all(e.turn == 1 for e in rnd.history)
    rnd.draw(1, "stock")
    last = rnd.history[-1]
    assert (last.seat, last.kind, last.cards, last.turn) == (1, "draw_stock", (), 2)


def test_a_lay_off_and_the_upcard_are_noted() -> None:
    # R5, R15
    rnd = Round.deal(2, rng=random.Random(4))
    assert [(e.seat, e.kind) for e in rnd.history] == [(0, "upcard")]
    assert rnd.history[0].cards == (rnd.discard_top,)
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D 9S"], "8H", "QC", table=[(1, "9H 10H JH")])
    rnd._opened[0] = True
    rnd.draw(0, "stock")
    rnd.lay_off(0, P("8H"), "m1")
    assert [(e.kind, e.meld, [str(c) for c in e.cards]) for e in rnd.history] == [
        ("draw_stock", None, []),
        ("lay_off", "m1", ["8H"]),
    ]


def test_a_reshuffle_is_noted() -> None:
    # R18
    rnd = Round.from_position(["5H 6H 7H 2C", "3D 4D 9S"], "", "QC KC 2S")
    rnd.draw(0, "stock")
    assert [e.kind for e in rnd.history] == ["reshuffle", "draw_stock"]


def new_events(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert after[: len(before)] == before, "the history only grows"
    return after[len(before) :]


def test_every_seat_sees_the_same_history_and_no_hidden_card() -> None:
    # R13, R19: played through whole four-seat matches, checked after every move. Each new event names
    # only cards every seat saw: the top card taken, the card now on top of the pile, cards now on the
    # table; a draw from the stock names none, and a proposal or a take-back adds nothing.
    for seed in range(3):
        match = Match.new(4, rng=random.Random(seed))
        players = [ComputerPlayer(random.Random(seed * 10 + s)) for s in range(4)]
        moves = 0
        while not match.over:
            if match.round.over:
                match.next_round()
            rnd = match.round
            seat = match.round_seats[rnd.to_play]
            before = match.view(None)["history"]
            top_before = rnd.discard_top
            move = players[seat].next_move(match.view(seat))
            match.play(seat, move)
            moves += 1
            views = [match.view(s) for s in range(4)] + [match.view(None)]
            history = views[0]["history"]
            assert all(view["history"] == history for view in views)
            added = new_events(before, history)
            for event in added:
                if event["kind"] == "draw_stock":
                    assert event["cards"] == []
                elif event["kind"] == "take":
                    assert event["cards"] == [str(top_before)]
                elif event["kind"] == "discard":
                    assert event["cards"] == [views[4]["discard_top"]] or rnd.over
                elif event["kind"] in {"meld", "lay_off", "swap"}:
                    table = {tm["id"]: tm["cards"] for tm in views[4]["table"]}
                    assert event["meld"] in table
                    # Each card named is one every seat sees now, on the table.
                    named = event["cards"] if event["kind"] != "swap" else [event["card"]]
                    assert set(named) <= set(table[event["meld"]])
                    if event["kind"] == "swap":
                        assert any(sorted(tm) == sorted(event["cards"]) for tm in table.values())
                else:
                    assert event["kind"] == "reshuffle" and event["cards"] == []
            if move.kind in {"take_back"} or (move.kind == "meld" and not added):
                assert added == [], "a proposal or a take-back is hidden (R13)"
        assert moves > 100


def test_the_history_survives_a_restart_and_old_snapshots_load() -> None:
    # R19: a restart loses nothing
    match = Match.new(3, rng=random.Random(11))
    players = [ComputerPlayer(random.Random(s)) for s in range(3)]
    for _ in range(60):
        seat = match.round_seats[match.round.to_play]
        match.play(seat, players[seat].next_move(match.view(seat)))
    saved = json.loads(json.dumps(match.to_dict()))
    restored = Match.from_dict(saved)
    assert len(match.round.history) > 20
    assert restored.round.history == match.round.history
    assert all(restored.view(s) == match.view(s) for s in range(3))
    # A snapshot written before the history was kept has none: it loads, starts with none, plays on.
    del saved["round"]["history"]
    old = Match.from_dict(saved)
    assert old.round.history == [] and old.view(0)["history"] == []
    seat = old.round_seats[old.round.to_play]
    old.play(seat, players[seat].next_move(old.view(seat)))
    assert len(old.round.history) >= 1


def test_the_typed_view_reads_the_history_back_and_old_views_without_it() -> None:
    # R19
    rnd = Round.deal(2, rng=random.Random(5))
    rnd.draw(1, "discard")
    view = rnd.seat_view(0)
    assert [e.kind for e in view.history] == ["upcard", "take"]
    data = view.to_dict()
    assert RoundView.from_dict(data) == view
    del data["history"]
    assert RoundView.from_dict(data).history == ()
    assert PublicEvent.from_dict(view.history[1].to_dict()) == view.history[1]
