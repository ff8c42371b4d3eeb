"""The last move in words, from ``Game.last_turn``: "Anna took 7♥, melded Q♠ Q♥ Q♦ and discarded 3♣."

The events never hold a secret (the service builds them from the engine's public round history,
which has no card drawn from the stock and no proposed opening meld, R13, R19); this module words
them, and leaves out that melds were proposed or taken back at all: to the other seats an opening
appears at once, "opened with … (40 points)".
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from bot.engine.cards import parse_cards
from bot.engine.moves import DrawSource
from bot.engine.queries import meld_points
from bot.i18n import t
from bot.render.cards import card_text, cards_text
from bot.render.common import join_words, match_seat, seat_name

if TYPE_CHECKING:
    from bot.service.game import Game, TurnEvent


def event_phrase(event: TurnEvent) -> str:
    """What one event did, without the seat's name: ``took 7♥``, ``discarded 3♣``."""
    kind = event.kind
    if kind == "draw":
        if event.source == DrawSource.DISCARD and event.cards:
            return t("event.draw.discard", card=card_text(event.cards[0]))
        return t("event.draw.stock")
    if kind == "meld":
        if not event.cards:
            return t("event.meld.proposed")
        return t("event.meld", cards=cards_text(event.cards), meld_id=event.meld_id or "")
    if kind == "lay_off":
        return t("event.lay_off", cards=cards_text(event.cards), meld_id=event.meld_id or "?")
    if kind == "swap_joker":
        return t(
            "event.swap_joker",
            card=card_text(event.card) if event.card else "?",
            meld_id=event.meld_id or "?",
            cards=cards_text(event.cards),
        )
    if kind == "discard":
        return t("event.discard", card=card_text(event.card) if event.card else "?")
    return t(f"event.{kind}")


def _first_meld(game: Game, seat: int | None) -> str | None:
    """The id of match seat ``seat``'s first meld on the table: always one of its opening melds."""
    if game.match is None or seat is None:
        return None
    for table_meld in game.match.round.table:
        if match_seat(game, table_meld.owner) == seat:
            return table_meld.id
    return None


def _meld_points(events: Sequence[TurnEvent]) -> int | None:
    total = 0
    for event in events:
        points = _points_of(tuple(event.cards))
        if points is None:
            return None
        total += points
    return total


@lru_cache(maxsize=256)
def _points_of(codes: tuple[str, ...]) -> int | None:
    # Worked out once per meld: the opening stays in "the last move" until the next turn's moves.
    try:
        cards = parse_cards(" ".join(codes))
    except ValueError:
        return None
    return meld_points(cards)


def _melds_phrase(events: list[TurnEvent], *, opening: bool) -> str:
    cards = join_words([cards_text(e.cards) for e in events])
    if not opening:
        return t("event.meld", cards=cards)
    points = _meld_points(events)
    if points is None:
        return t("event.opened.no_points", cards=cards)
    return t("event.opened", cards=cards, points=points)


def turn_phrases(game: Game, seat: int | None, group: Sequence[TurnEvent]) -> list[str]:
    """The phrases of one seat's events in a row, as the other seats may read them.

    Proposed melds and taking them back are left out: they stay secret until the opening (R13).
    The melds that reach the opening read "opened with … (N points)"; melds laid one after another
    read as one "melded A and B".
    """
    first = _first_meld(game, seat)
    opening_here = first is not None and any(e.kind == "meld" and e.meld_id == first for e in group)
    proposed = 0
    opening: list[TurnEvent] | None = None  # the opening melds, while they are being collected
    opened = False
    items: list[tuple[str, list[TurnEvent]]] = []
    for event in group:
        if event.kind == "meld" and not event.cards:
            proposed += 1
            continue
        if event.kind == "take_back":
            proposed = 0
            continue
        if event.kind == "meld" and opening_here and not opened:
            # The move that reaches the opening puts the proposed melds down with its own (R13).
            if opening is None:
                opening = []
                items.append(("opening", opening))
            opening.append(event)
            opened = len(opening) > proposed
            continue
        if event.kind == "meld" and items and items[-1][0] == "melds":
            items[-1][1].append(event)
            continue
        items.append(("melds" if event.kind == "meld" else "one", [event]))
    return [
        event_phrase(events[0]) if kind == "one" else _melds_phrase(events, opening=kind == "opening")
        for kind, events in items
    ]


def _sentence(game: Game, seat: int | None, group: list[TurnEvent]) -> str | None:
    phrases = turn_phrases(game, seat, group)
    if not phrases:
        return None
    # A timeout event already says the computer played the turn; other auto moves get a short note.
    auto = any(e.auto for e in group) and not any(e.kind == "timeout" for e in group)
    return t(
        "event.sentence",
        name=seat_name(game, seat),
        actions=join_words(phrases),
        note=t("event.by_computer") if auto else "",
    )


def last_move_text(game: Game, events: Sequence[TurnEvent] | None = None) -> str | None:
    """The events of the most recent turn as sentences, one per seat in a row; ``None`` if none.

    A round-over event ends the text with who went out (or that nobody did, R18).
    """
    events = list(game.last_turn if events is None else events)
    groups: list[tuple[int | None, list[TurnEvent]]] = []
    for event in events:
        if event.kind == "round_over":
            continue
        if groups and groups[-1][0] == event.seat:
            groups[-1][1].append(event)
        else:
            groups.append((event.seat, [event]))
    sentences = [s for seat, group in groups if (s := _sentence(game, seat, group)) is not None]
    for event in events:
        if event.kind == "round_over":
            if event.seat is None:
                sentences.append(t("event.round_over.nobody"))
            else:
                sentences.append(t("event.round_over.out", name=seat_name(game, event.seat)))
    return " ".join(sentences) or None
