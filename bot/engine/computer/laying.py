"""After opening (R14-R16): new melds, lay-offs on the table, and joker swaps."""

from __future__ import annotations

import itertools

from bot.engine.cards import JOKER, Card
from bot.engine.computer.hand import _rank_gap, _without
from bot.engine.computer.planning import _Planner
from bot.engine.computer.seat import _Seat
from bot.engine.moves import Move
from bot.engine.rules import RuleSet

# Below this many cards in hand the seat lays off its jokers too: that close to going out a joker
# is worth more on the table (its points, R20) than as a hope of a new meld that costs 20 if stuck.
_LAY_OFF_JOKERS_AT = 3


class _Laying(_Planner):
    """What an opened computer seat puts on the table before it discards."""

    def _meld_move(self, seat: _Seat) -> Move | None:
        melds = self._plan(seat.hand, seat)
        if melds and self._style.spare_jokers:
            left = len(seat.hand) - sum(len(meld.cards) for meld in melds)
            if left > 1 and not self._end_in_sight(seat):
                melds = [meld for meld in melds if JOKER not in meld.cards]
        return Move.meld(melds[0].cards) if melds else None

    def _lay_off_move(self, seat: _Seat) -> Move | None:
        if self._chance(self._style.miss):
            return None
        lay_jokers = len(seat.hand) <= _LAY_OFF_JOKERS_AT or seat.last_stock
        for card in sorted(set(seat.hand), key=lambda c: (-c.hand_points, c)):
            if (card.is_joker and not lay_jokers) or not seat.can_end_with(_without(seat.hand, [card])):
                continue
            for tm in seat.table:
                if self._fits(tm, card):
                    return Move.lay_off((card,), tm.id)
        return None

    def _swap_move(self, seat: _Seat) -> Move | None:
        if not any(JOKER in tm.cards for tm in seat.table):
            return None
        best_left = self._deadwood(seat.hand, seat.rules)
        best_move: Move | None = None
        for tm in seat.table:
            if JOKER not in tm.cards:
                continue
            for card in sorted(set(seat.hand)):
                if card.is_joker or not self._replaces(tm, card):
                    continue
                rest = _without(seat.hand, [card])
                for partners in self._joker_partners(rest, seat.rules):
                    left = _without(rest, partners)
                    if not seat.can_end_with(left):
                        continue
                    dead = self._deadwood(left, seat.rules)
                    if dead < best_left:
                        best_left, best_move = dead, Move.swap_joker(card, tm.id, partners)
        return best_move

    def _joker_partners(self, cards: list[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
        """Groups of ``cards`` that make a legal meld with one more joker (R16's new meld)."""
        found: set[tuple[Card, ...]] = set()
        naturals = sorted({card for card in cards if not card.is_joker})
        for a, b in itertools.combinations(naturals, 2):
            near_run = a.suit == b.suit and _rank_gap(a.rank, b.rank) <= 2
            if (a.rank == b.rank or near_run) and self._is_meld((a, b, JOKER), rules):
                found.add((a, b))
        for meld in self._best([*cards, JOKER], rules):
            if JOKER in meld.cards:
                found.add(tuple(sorted(_without(meld.cards, [JOKER]))))
        return sorted(found, key=lambda group: (-len(group), group))
