"""The computer player: a seat that plays a whole turn from its view alone (R11-R17, R19)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.computer.discarding import _Discarding
from bot.engine.computer.drawing import _Drawing
from bot.engine.computer.laying import _Laying
from bot.engine.computer.memo import _facts_of
from bot.engine.computer.opening import _Opening
from bot.engine.computer.seat import _Seat
from bot.engine.moves import Move, Phase
from bot.engine.views import RoundView


class ComputerPlayer(_Drawing, _Opening, _Laying, _Discarding):
    """A computer seat: plays from its seat's view alone and always returns a legal move.

    Strategy: take the discard when it completes a meld or a lay-off, else draw from the stock;
    open as soon as the best melds reach the opening (R13); once opened meld all it can, lay off,
    and swap a joker when that leaves less in the hand (R16); discard the highest dead card, keeping
    pairs and near-runs, never the card just taken (R12). Toward a high opening it keeps high cards;
    on the last stock (R18) it sheds points. Every meld, lay-off and swap leaves a card it may
    discard (R12, R17). Deterministic given ``rng``.

    ``level`` is one of :data:`LEVELS`; the above is ``"normal"``. ``"easy"`` makes a beginner's
    mistakes: a careless discard half the time, overlooked lay-offs and discards, no joker swaps.
    ``"hard"`` plays like a club player from the same view: it holds its opening back until it can go
    out at once or the end may be near (R13), keeps jokers out of melds it does not need yet (R16),
    takes a discard that brings its opening closer or lengthens its melds, and reads the view's public
    history (R19) for the dead cards and for what the next seat collects, which it does not feed. It
    discards by outs (:mod:`bot.engine.outs`): it keeps the cards that the most live unseen cards
    would meld, and before opening keeps high cards rather than low ones.

    >>> import random
    >>> from bot.engine.round import Round
    >>> rnd = Round.deal(2, rng=random.Random(7))
    >>> player = ComputerPlayer(random.Random(1))
    >>> player.next_move(rnd.seat_view(rnd.to_play)) == player.next_move(rnd.view(rnd.to_play))
    True
    >>> player.next_move(rnd.seat_view(rnd.to_play)).kind
    'draw'
    >>> ComputerPlayer(level="hard").level
    'hard'
    >>> ComputerPlayer(level="grandmaster")
    Traceback (most recent call last):
    ...
    ValueError: unknown computer level 'grandmaster': choose easy, normal...
    """

    def next_move(self, view: RoundView | Mapping[str, Any]) -> Move:
        """The next move for the seat of ``view``, which must be on turn (``view.to_play``).

        ``view`` is the seat's :class:`~bot.engine.views.RoundView`, or the JSON-ready view
        (``Round.view``) of which only the fields the player needs are read; both give the same move.
        """
        turn_no = view.turn_no if isinstance(view, RoundView) else view.get("turn_no", 0)
        if turn_no < self._turn_no:
            self._table.clear()
            self._best_melds.clear()
        self._turn_no = turn_no
        if isinstance(view, RoundView):
            table = list(view.table)
            self._facts_now = {tm.id: _facts_of(tm) for tm in table}
            seat = _Seat.from_view(view, table)
        else:
            seat = self._seat_of_dict(view)
        if seat.phase == Phase.DRAW:
            return Move.draw(self._draw_source(seat))
        if seat.opened:
            swap = self._swap_move(seat) if self._style.swaps else None
            move = swap or self._meld_move(seat) or self._lay_off_move(seat)
        else:
            move = self._opening_move(seat)
        return move or Move.discard(self._discard_choice(seat))
