"""The last move in words, from ``Game.last_turn``: "Anna took 7♥, melded Q♠ Q♥ Q♦ and discarded 3♣."

The events never hold a secret (the service leaves out the card drawn from the stock and proposed
opening melds, R13, R19); this module only words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.render.cards import card_text, cards_text
from bot.render.common import join_words, seat_name

if TYPE_CHECKING:
    from bot.game import Game, TurnEvent


def event_phrase(event: TurnEvent) -> str:
    """What one event did, without the seat's name: ``took 7♥``, ``discarded 3♣``."""
    kind = event.kind
    if kind == "draw":
        if event.source == "discard" and event.cards:
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


def _sentence(game: Game, seat: int | None, group: list[TurnEvent]) -> str:
    # A timeout event already says the computer played the turn; other auto moves get a short note.
    auto = any(e.auto for e in group) and not any(e.kind == "timeout" for e in group)
    return t(
        "event.sentence",
        name=seat_name(game, seat),
        actions=join_words([event_phrase(e) for e in group]),
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
    sentences = [_sentence(game, seat, group) for seat, group in groups]
    for event in events:
        if event.kind == "round_over":
            if event.seat is None:
                sentences.append(t("event.round_over.nobody"))
            else:
                sentences.append(t("event.round_over.out", name=seat_name(game, event.seat)))
    return " ".join(sentences) or None
