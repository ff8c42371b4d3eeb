"""The draw (R11, R12): the stock, or the top of the discard pile when it is worth its lock."""

from __future__ import annotations

from collections import Counter

from bot.engine.cards import Card
from bot.engine.computer.hand import _alone
from bot.engine.computer.planning import _Planner
from bot.engine.computer.seat import _Seat
from bot.engine.moves import DrawSource


class _Drawing(_Planner):
    """Where a computer seat draws from."""

    def _draw_source(self, seat: _Seat) -> DrawSource:
        top = seat.discard_top
        if top is None:
            return DrawSource.STOCK
        if all(card == top for card in seat.hand):
            return DrawSource.STOCK  # R12 would leave no card to discard
        if self._chance(self._style.miss):
            return DrawSource.STOCK  # a beginner does not see what the top card would do
        if self._style.patient and not top.is_joker and self._serves(seat, top):
            return DrawSource.DISCARD
        if top.is_joker and not seat.last_stock:
            return DrawSource.DISCARD
        if seat.opened and any(self._fits(tm, top) for tm in seat.table):
            return DrawSource.DISCARD
        # The top card is worth its R12 lock only if it lowers what would be stuck in the hand.
        if not top.is_joker and _alone(top, seat.hand):
            return DrawSource.STOCK  # it would only add its own points to what is stuck
        if self._deadwood([*seat.hand, top], seat.rules) < self._deadwood(seat.hand, seat.rules):
            return DrawSource.DISCARD
        return DrawSource.STOCK

    def _serves(self, seat: _Seat, top: Card) -> bool:
        """Whether ``top`` is all used in the best melds with the hand: it lengthens or makes a meld
        without leaving more in the hand, or it brings an unopened seat to its opening (R13)."""
        if _alone(top, seat.hand):
            return False
        with_top = self._best([*seat.hand, top], seat.rules)
        points = sum(meld.points for meld in with_top)
        if not seat.opened:
            before = sum(meld.points for meld in self._best(seat.hand, seat.rules))
            if points >= seat.rules.opening > before:
                return True
        melded = Counter(card for meld in with_top for card in meld.cards)
        return melded[top] > 0 and self._deadwood([*seat.hand, top], seat.rules) <= self._deadwood(
            seat.hand, seat.rules
        )
