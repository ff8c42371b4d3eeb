"""What a move did, in public words: the :class:`~bot.service.game.TurnEvent` list behind "the last move".

Pure functions of the game before and after a move. They never reveal a secret (R19): a card drawn
from the stock and a proposed opening meld (R13) leave no card codes in an event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.cards import card_codes
from bot.engine.moves import DrawSource
from bot.service.game import MOVE_EVENT_KINDS, Game, TurnEvent

if TYPE_CHECKING:
    from bot.engine.moves import Move

MAX_EVENTS = 40
"""A turn has few events; the cap keeps a runaway list out of the snapshot."""


def table_ids(game: Game) -> dict[str, tuple[str, ...]]:
    """The current round's table melds as ``{id: card codes}``, taken before a move to diff after it."""
    if game.match is None:
        return {}
    return {tm.id: tuple(card_codes(tm.cards)) for tm in game.match.round.table}


def move_events(
    game: Game, seat: int, move: Move, before: dict[str, tuple[str, ...]], *, auto: bool
) -> list[TurnEvent]:
    """The events of ``move``, just applied by match seat ``seat`` (``before`` from :func:`table_ids`).

    >>> from bot.engine.moves import Move
    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=1)
    >>> [e.to_dict() for e in move_events(game, 0, Move.draw(DrawSource.STOCK), {}, auto=False)][0]["cards"]
    []
    """
    events: list[TurnEvent] = []
    if move.kind == "draw":
        taken = _taken_card(game) if move.source == DrawSource.DISCARD else None
        source = None if move.source is None else str(move.source)  # the event keeps the plain word
        events.append(TurnEvent(seat, "draw", cards=[taken] if taken else [], source=source, auto=auto))
    elif move.kind == "meld":
        fresh = _new_melds(game, before)
        if fresh:
            events += [
                TurnEvent(seat, "meld", cards=list(codes), meld_id=mid, auto=auto) for mid, codes in fresh
            ]
        else:
            # A proposed opening meld stays secret until the opening is reached (R13).
            events.append(TurnEvent(seat, "meld", auto=auto))
    elif move.kind == "take_back":
        events.append(TurnEvent(seat, "take_back", auto=auto))
    elif move.kind == "lay_off":
        events.append(
            TurnEvent(seat, "lay_off", cards=card_codes(move.cards), meld_id=move.meld_id, auto=auto)
        )
    elif move.kind == "swap_joker":
        fresh = _new_melds(game, before)
        events.append(
            TurnEvent(
                seat,
                "swap_joker",
                cards=list(fresh[0][1]) if fresh else card_codes(move.cards),
                meld_id=move.meld_id,
                card=None if move.card is None else str(move.card),
                auto=auto,
            )
        )
    elif move.kind == "discard":
        events.append(
            TurnEvent(seat, "discard", card=None if move.card is None else str(move.card), auto=auto)
        )
    if game.match is not None and game.match.round.over:
        events.append(round_over_event(game))
    return events


def round_over_event(game: Game) -> TurnEvent:
    """The ``round_over`` event: ``seat`` is the match seat that went out, ``None`` if none did (R18)."""
    assert game.match is not None
    out = game.match.round.out
    return TurnEvent(None if out is None else game.match.round_seats[out], "round_over")


def add_events(game: Game, events: list[TurnEvent]) -> None:
    """Append ``events`` to ``game.last_turn``; a move of a new turn first clears the old turn's events.

    A new turn begins with a move event of another seat than the last move event's, or after a
    discard or a round's end.
    """
    for event in events:
        if event.kind in MOVE_EVENT_KINDS and _turn_ended(game.last_turn, event.seat):
            game.last_turn.clear()
        game.last_turn.append(event)
    del game.last_turn[:-MAX_EVENTS]


def _turn_ended(events: list[TurnEvent], seat: int | None) -> bool:
    for previous in reversed(events):
        if previous.kind == "round_over":
            return True
        if previous.kind in MOVE_EVENT_KINDS:
            return previous.seat != seat or previous.kind == "discard"
    return False


def _taken_card(game: Game) -> str | None:
    if game.match is None:
        return None
    card = game.match.round.taken_from_discard
    return None if card is None else str(card)


def _new_melds(game: Game, before: dict[str, tuple[str, ...]]) -> list[tuple[str, tuple[str, ...]]]:
    return [(mid, codes) for mid, codes in table_ids(game).items() if mid not in before]
