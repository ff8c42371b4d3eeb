"""What a move did, in public words: the :class:`~bot.service.game.TurnEvent` list behind "the last move".

The engine's round history (:mod:`bot.engine.history`) is the one record of what every seat saw: a
move's turn events are the history entries it added, in the service's words (a match seat, the draw's
pile, ``auto`` for the computer playing a person's turn). The history never holds a secret (R13,
R19): no card drawn from the stock, no proposed opening meld. A move it does not show (a proposal, a
take-back, a draw that ended the round on an empty stock) leaves one event of its kind, without a
card: the words leave those out, but they count the proposals an opening puts down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.moves import DrawSource
from bot.service.game import MOVE_EVENT_KINDS, Game, TurnEvent

if TYPE_CHECKING:
    from bot.engine.history import PublicEvent
    from bot.engine.moves import Move

MAX_EVENTS = 40
"""A turn has few events; the cap keeps a runaway list out of the snapshot."""


def history_seen(game: Game) -> int:
    """How many public events the current round has: taken before a move, the entries after it are
    the move's (:func:`move_events`).

    >>> history_seen(Game(id=1, guild_id=1, channel_id=1, host_id=1))
    0
    """
    return 0 if game.match is None else len(game.match.round.history)


def move_events(game: Game, seat: int, move: Move, seen: int, *, auto: bool) -> list[TurnEvent]:
    """The events of ``move``, just applied by match seat ``seat``: the round history's entries after
    the first ``seen`` (:func:`history_seen`, taken before the move), then ``round_over`` if it ended
    the round. ``auto``: the computer made the move for a person's seat.

    A draw from the stock names no card (R19); a proposed meld is an event without cards (R13):

    >>> import random
    >>> from bot.engine.match import Match
    >>> from bot.engine.moves import Move
    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=1, match=Match.new(2, rng=random.Random(1)))
    >>> seen, draw = history_seen(game), Move.draw(DrawSource.STOCK)
    >>> _ = game.match.play(1, draw)
    >>> [(e.seat, e.kind, e.cards, e.source) for e in move_events(game, 1, draw, seen, auto=False)]
    [(1, 'draw', [], 'stock')]
    """
    assert game.match is not None
    match = game.match
    events = [
        turn_event
        for entry in match.round.history[seen:]
        if (turn_event := _turn_event(entry, match.round_seats[entry.seat], auto)) is not None
    ]
    if not events:
        # The history shows nothing of it: its kind alone, never a card.
        source = None if move.source is None else str(move.source)  # the event keeps the plain word
        events.append(TurnEvent(seat, move.kind, source=source, auto=auto))
    if match.round.over:
        events.append(round_over_event(game))
    return events


def _turn_event(entry: PublicEvent, seat: int, auto: bool) -> TurnEvent | None:
    """The turn event of one history entry by match seat ``seat``; ``None`` for one the words leave
    out (the turned-up card of the deal, a reshuffle of the stock)."""
    cards = [str(card) for card in entry.cards]
    card = None if entry.card is None else str(entry.card)
    if entry.kind == "draw_stock":
        return TurnEvent(seat, "draw", source=str(DrawSource.STOCK), auto=auto)
    if entry.kind == "take":
        return TurnEvent(seat, "draw", cards=cards, source=str(DrawSource.DISCARD), auto=auto)
    if entry.kind in ("meld", "lay_off"):
        return TurnEvent(seat, entry.kind, cards=cards, meld_id=entry.meld, auto=auto)
    if entry.kind == "swap":
        return TurnEvent(seat, "swap_joker", cards=cards, meld_id=entry.meld, card=card, auto=auto)
    if entry.kind == "discard":
        return TurnEvent(seat, "discard", card=cards[0], auto=auto)
    return None


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
