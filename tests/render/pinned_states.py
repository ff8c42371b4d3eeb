"""Seeded games played by the computer, and what the table and hand panel draw for some of their states.

The rendering tests pin these drawings (``pinned_drawings.json`` holds a SHA-256 of each, as Discord
would receive it): a change that only makes drawing faster must leave every byte as it was. The games
are played with the engine's public API and a fixed seed, so the same states come back on every run.

If the engine itself changes what a seeded game does (another deal, another computer move), the
states change and the pins with them; after checking that rendering did not change, write the pins
again with ``python -m tests.render.pinned_states``.
"""

from __future__ import annotations

import hashlib
import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any

from bot.engine.cards import card_codes
from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.rules import RuleSet
from bot.render.panel import hand_panel
from bot.render.table import table, table_content
from bot.render.targets import lay_off_targets, swap_targets
from bot.service.computer import play_computer_move
from bot.service.events import add_events, history_seen, move_events
from bot.service.game import Game, GameStatus, Seat

PINS = Path(__file__).with_name("pinned_drawings.json")
DEADLINE = 1_000_000.0
"""The epoch second a person's turn ends in every pinned state (the table shows it)."""


def _seats(n: int) -> list[Seat]:
    # A person, an away person, a computer and a person who left: every kind of seat line.
    kinds = [
        Seat(101, "Anna"),
        Seat(102, "Ben with a rather long display name that the table cuts", away=True, missed=3),
        Seat(None, "Computer 2", computer=True),
        Seat(104, "Dan", computer=True),
        Seat(105, "Eva"),
        Seat(None, "Computer 5", computer=True),
    ]
    return kinds[:n]


def _copy(game: Game) -> Game:
    return Game.from_snapshot(game.to_snapshot())


def played_states(seed: int, n_seats: int, rules: RuleSet) -> list[Game]:
    """Every state of one seeded match played to its end by the computer, one per move and deal."""
    match = Match.new(n_seats, rules=rules, rng=random.Random(seed))
    game = Game(
        id=seed,
        guild_id=1,
        channel_id=2,
        host_id=101,
        status=GameStatus.PLAYING,
        rules=rules,
        computers=1,
        seats=_seats(n_seats),
        match=match,
        version=1,
    )
    player = ComputerPlayer()
    rng = random.Random(seed * 7919)
    states = [_copy(game)]
    for _ in range(5000):
        if match.over:
            game.status = GameStatus.FINISHED
            game.turn_deadline = None
            states.append(_copy(game))
            return states
        if match.round.over:
            match.next_round()
            game.last_turn.clear()
        else:
            seat = match.round_seats[match.round.to_play]
            seen = history_seen(game)
            move = play_computer_move(match, seat, player, rng)
            add_events(game, move_events(game, seat, move, seen, auto=seat == 1))
        to_play = game.to_play
        game.turn_deadline = DEADLINE if to_play is not None and game.seats[to_play].is_person else None
        game.version += 1
        states.append(_copy(game))
    raise AssertionError("the seeded match did not end")


def _picked(states: list[Game]) -> list[Game]:
    """A few states of a match: fixed move numbers, the first of each kind of event, the end."""
    picked = {0, 7, 31, 90, len(states) - 1}
    for kind in ("meld", "lay_off", "swap_joker", "take_back", "round_over"):
        for index, game in enumerate(states):
            if any(e.kind == kind and (e.cards or kind != "meld") for e in game.last_turn):
                picked.add(index)
                break
    return [states[index] for index in sorted(i for i in picked if i < len(states))]


def pinned_games() -> list[Game]:
    """The pinned states of two seeded matches: four seats with the default rules, three with others."""
    four = played_states(3, 4, RuleSet(rounds=2))
    three = played_states(
        11, 3, RuleSet(jokers=6, opening=30, scoring="penalty", discard_to_go_out=True, rounds=1)
    )
    return _picked(four) + _picked(three)


def _panels(game: Game) -> dict[str, Any]:
    assert game.match is not None
    seat = game.to_play if game.to_play is not None else game.match.round_seats[0]
    view = game.match.seat_view(seat).round
    hand = card_codes(view.hand)
    other = next(s for s in range(len(game.seats)) if s != seat)
    # A selection the target selects have options for, where the hand allows one.
    lay_off = next(([code] for code in hand if lay_off_targets(view, [code])), hand[-1:])
    swap = next((list(cards) for cards in combinations(hand, 3) if swap_targets(view, cards)), hand[:3])
    variants = {
        "plain": hand_panel(game, seat),
        "other_seat_rank": hand_panel(game, other, sort="rank"),
        "three_selected": hand_panel(game, seat, selected=hand[:3]),
        "lay_off": hand_panel(game, seat, selected=lay_off, target="lay_off"),
        "swap": hand_panel(game, seat, sort="rank", selected=swap, target="swap_joker"),
    }
    return {name: drawing(embed, view) for name, (embed, view) in variants.items()}


def drawing(embed: Any, view: Any) -> dict[str, Any]:
    """What Discord receives for an embed and its components."""
    return {"embed": embed.to_dict(), "components": view.to_components()}


def drawings(game: Game) -> dict[str, Any]:
    """The table message (content, embed, components) and five hand panels of ``game``."""
    embed, view = table(game)
    return {
        "version": game.version,
        "content": table_content(game),
        "table": drawing(embed, view),
        "panels": _panels(game),
    }


def canonical(data: Any) -> str:
    """``data`` as one canonical JSON text (sorted keys), the text a pin is the digest of."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def digests(game: Game) -> dict[str, str]:
    """A SHA-256 of each drawing of ``game``: ``content``, ``table`` and ``panel.<variant>``."""
    found = drawings(game)
    parts = {"content": found["content"], "table": found["table"]}
    parts |= {f"panel.{name}": panel for name, panel in found["panels"].items()}
    return {name: hashlib.sha256(canonical(part).encode()).hexdigest() for name, part in parts.items()}


def all_digests() -> list[dict[str, Any]]:
    """The digests of every pinned state, in order, with the state's game id and version."""
    return [{"game": g.id, "version": g.version, **digests(g)} for g in pinned_games()]


if __name__ == "__main__":
    PINS.write_text(json.dumps(all_digests(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PINS}")
