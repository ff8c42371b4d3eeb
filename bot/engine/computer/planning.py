"""The player's groundwork, shared by every decision: its level and memos, the best melds of a hand
and what is left over (R2), what fits the table (R15, R16), and whether the round may end soon."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine.cards import Card, hand_points
from bot.engine.computer.hand import _CARD_ORDER, _without
from bot.engine.computer.levels import _LOW_STOCK, _THREAT, DEFAULT_LEVEL, _style_of
from bot.engine.computer.memo import _MELD_FACTS, _ROUND_CACHE_SIZE, _learnt, _MeldFacts, _Memo
from bot.engine.computer.seat import _Seat
from bot.engine.errors import IllegalMove
from bot.engine.meld import Meld, make_meld
from bot.engine.rules import RuleSet
from bot.engine.solver import best_melds
from bot.engine.table import TableMeld


class _Planner:
    """What every part of a computer seat's turn builds on; :class:`~bot.engine.computer.ComputerPlayer`
    is this with its draw, opening, melding and discard decisions."""

    def __init__(self, rng: random.Random | None = None, *, level: str = DEFAULT_LEVEL) -> None:
        self._style = _style_of(level)
        self.level = level
        self.rng = rng if rng is not None else random.Random()
        # Views repeat a lot from move to move (the same rules, table melds, hands), so parsing and
        # solving are memoised; that keeps a move at about a millisecond. What a round's hands and
        # table hold never comes back in the next deal: those memos are emptied when a round
        # begins (a bot keeps one player per table, and at 1,000 tables full memos of finished
        # rounds were gigabytes in the making).
        self._rules: _Memo[tuple[tuple[str, Any], ...], RuleSet] = _Memo()
        self._table: _Memo[tuple[Any, ...], tuple[TableMeld, _MeldFacts]] = _Memo(_ROUND_CACHE_SIZE)
        self._best_melds: _Memo[tuple[tuple[Card, ...], RuleSet], tuple[Meld, ...]] = _Memo(_ROUND_CACHE_SIZE)
        self._facts_now: dict[str, _MeldFacts] = {}  # by table meld id, for the current view
        self._turn_no = 0  # of the last view: a smaller one is a new round

    def _chance(self, p: float) -> bool:
        """True with probability ``p`` (no draw from ``rng`` when ``p`` is 0: normal stays as it was)."""
        return p > 0 and self.rng.random() < p

    def _seat_of_dict(self, view: Mapping[str, Any]) -> _Seat:
        rules = self._rules.get(
            tuple(sorted(view["rules"].items())), lambda: RuleSet.from_dict(view["rules"])
        )
        known = [self._table_meld(entry) for entry in view.get("table", [])]
        self._facts_now = {tm.id: facts for tm, facts in known}
        return _Seat.from_dict(view, rules, [tm for tm, _ in known])

    def _plan(self, hand: list[Card], seat: _Seat) -> list[Meld]:
        """The best melds of ``hand`` that still let the turn end (R12, R17's house rule)."""
        melds = list(self._best(hand, seat.rules))
        if not seat.can_end_with(_without(hand, (card for meld in melds for card in meld.cards))):
            melds = self._loosen(melds, hand, seat)
        return sorted(melds, key=lambda meld: (-meld.points, meld.cards))

    def _loosen(self, melds: list[Meld], hand: list[Card], seat: _Seat) -> list[Meld]:
        """``melds`` with the cheapest card, or failing that meld, left out so the turn can end."""
        options: list[tuple[int, bool, list[Meld]]] = []
        for index, meld in enumerate(melds):
            others = melds[:index] + melds[index + 1 :]
            for card in set(meld.cards):
                smaller = self._meld_or_none(_without(meld.cards, [card]), seat.rules)
                if smaller is not None:
                    options.append((meld.points - smaller.points, card.is_joker, [*others, smaller]))
            options.append((meld.points, True, others))
        fine = [
            option
            for option in options
            if seat.can_end_with(_without(hand, (card for meld in option[2] for card in meld.cards)))
        ]
        return min(fine, key=lambda option: option[:2])[2] if fine else []

    def _end_in_sight(self, seat: _Seat) -> bool:
        """Whether the round may end any turn: an opened seat holds few cards, or the stock runs low
        (R18); then a joker held back risks its 20 points in the hand (R20)."""
        return self._threatened(seat) or seat.last_stock or seat.stock_count <= _LOW_STOCK

    @staticmethod
    def _threatened(seat: _Seat) -> bool:
        """Whether another seat that has opened holds so few cards that it may go out any turn: then
        the points left in the hand count against the seat (R20)."""
        return any(
            other != seat.seat and opened and count <= _THREAT
            for other, (opened, count) in enumerate(zip(seat.opened_seats, seat.hand_counts, strict=False))
        )

    def _deadwood(self, hand: list[Card], rules: RuleSet) -> int:
        """Hand points left after the best melds of ``hand`` (R2's hand column)."""
        melded = [card for meld in self._best(hand, rules) for card in meld.cards]
        return hand_points(hand) - hand_points(melded)

    def _best(self, hand: Iterable[Card], rules: RuleSet) -> tuple[Meld, ...]:
        cards = tuple(sorted(hand, key=_CARD_ORDER))
        return self._best_melds.get((cards, rules), lambda: tuple(best_melds(cards, rules)))

    def _table_meld(self, entry: Mapping[str, Any]) -> tuple[TableMeld, _MeldFacts]:
        """The table meld of a view entry, with what is known of the cards that fit it."""
        kind, cards, stands_for = entry["kind"], tuple(entry["cards"]), tuple(entry["stands_for"])
        placed_by = tuple(entry["placed_by"])

        def build() -> tuple[TableMeld, _MeldFacts]:
            facts = _MELD_FACTS.get(
                (kind, cards, stands_for),
                lambda: _MeldFacts(Meld.from_dict({"kind": kind, "cards": cards, "stands_for": stands_for})),
            )
            return TableMeld(entry["id"], entry["owner"], facts.meld, placed_by), facts

        key = (entry["id"], entry["owner"], kind, cards, stands_for, entry["points"], placed_by)
        return self._table.get(key, build)

    # The table's own checks (TableMeld.extended / swapped) run too, so the player refuses exactly
    # what Round.lay_off and Round.swap_joker refuse; they raise ValueError, IllegalMove is one.
    def _fits(self, tm: TableMeld, card: Card) -> bool:
        """Whether ``card`` can be laid off on ``tm`` (R15)."""
        return _learnt(
            self._facts_now[tm.id].fits, card, lambda: tm.extended(tm.meld.extend([card]), tm.owner)
        )

    def _replaces(self, tm: TableMeld, card: Card) -> bool:
        """Whether ``card`` can take the place of a joker of ``tm`` (R16)."""
        return _learnt(
            self._facts_now[tm.id].replaces, card, lambda: tm.swapped(tm.meld.swap_joker(card), tm.owner)
        )

    @staticmethod
    def _meld_or_none(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
        try:
            return make_meld(list(cards), rules)
        except IllegalMove:
            return None

    def _is_meld(self, cards: Sequence[Card], rules: RuleSet) -> bool:
        return self._meld_or_none(cards, rules) is not None
