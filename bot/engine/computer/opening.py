"""Opening (R13): when the seat lays down its first melds, and which; the hard level holds back."""

from __future__ import annotations

from bot.engine.cards import JOKER
from bot.engine.computer.hand import _without
from bot.engine.computer.levels import _CLOSE_TO_OUT, _LOW_STOCK, _NEAR_OUT, _NEAR_OUT_OPENED, _OPEN_BY_TURN
from bot.engine.computer.planning import _Planner
from bot.engine.computer.seat import _Seat
from bot.engine.meld import Meld
from bot.engine.moves import Move


class _Opening(_Planner):
    """How a computer seat that has not opened reaches its opening."""

    def _near_end(self, seat: _Seat) -> bool:
        """Whether the round may end soon: another seat is close to going out, the seat has had many
        turns, or the stock runs low (R18)."""
        if seat.last_stock or seat.stock_count <= _LOW_STOCK:
            return True
        n_seats = len(seat.hand_counts) or 1
        if (seat.turn_no - 1) // n_seats + 1 >= _OPEN_BY_TURN:
            return True
        for other, count in enumerate(seat.hand_counts):
            if other == seat.seat:
                continue
            opened = other < len(seat.opened_seats) and seat.opened_seats[other]
            if count <= _NEAR_OUT or (opened and count <= _NEAR_OUT_OPENED):
                return True
        return False

    def _spared(self, melds: list[Meld], seat: _Seat, needed: int) -> list[Meld]:
        """``melds`` without those holding a joker, if the rest still make ``needed`` points."""
        plain = [meld for meld in melds if JOKER not in meld.cards]
        if plain and len(plain) < len(melds) and sum(meld.points for meld in plain) >= needed:
            rest = _without(seat.hand, (card for meld in plain for card in meld.cards))
            if seat.can_end_with(rest):
                return plain
        return melds

    def _opening_move(self, seat: _Seat) -> Move | None:
        melds = self._plan(seat.hand, seat)
        total = seat.pending_points + sum(meld.points for meld in melds)
        if melds and total >= seat.rules.opening:
            if self._style.patient and not seat.pending:
                left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
                if left > _CLOSE_TO_OUT and not self._near_end(seat):
                    return None  # wait: opened melds only give the other seats places to lay off
            if self._style.spare_jokers:
                left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
                if left > 1:
                    melds = self._spared(melds, seat, seat.rules.opening - seat.pending_points)
            return Move.meld(melds[0].cards)
        if seat.pending:
            # Proposed melds that cannot reach the opening only lock cards away from the discard.
            return Move.take_back()
        return None
