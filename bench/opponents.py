"""Reference opponents for the strength bench, written for it and not used by the bot.

They are yardsticks: club-style heuristics of the kind players use, written apart from
:class:`~bot.engine.computer.ComputerPlayer` (they share only the engine's rules: melds, the solver,
the table's checks) and driven by the same ``next_move(view)`` with a seat's view.

- :class:`GreedyPlayer` takes the discard when it completes a meld, opens as soon as it can, melds and
  lays off all it can, and discards the highest card outside its best melds.
- :class:`PatientPlayer` plays like a patient club player: it holds its opening back until it can go
  out or the end is near, swaps jokers, takes discards that serve it, and remembers the discards: it
  does not throw the next seat what it collects, and prefers what the next seat threw away.

>>> import random
>>> from bot.engine.round import Round
>>> rnd = Round.deal(2, rng=random.Random(7))
>>> GreedyPlayer().next_move(rnd.seat_view(rnd.to_play)).kind
'draw'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.engine.cards import JOKER, Card
from bot.engine.errors import IllegalMove
from bot.engine.meld import Meld, make_meld
from bot.engine.moves import DrawSource, Move, Phase
from bot.engine.round import MAX_RESHUFFLES
from bot.engine.rules import RuleSet
from bot.engine.solver import best_melds
from bot.engine.table import TableMeld
from bot.engine.views import RoundView

__all__ = ["GreedyPlayer", "PatientPlayer"]


def _minus(hand: Sequence[Card], cards: Iterable[Card]) -> list[Card]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _gap(a: int, b: int) -> int:
    gap = abs(a - b)
    if 1 in (a, b):
        gap = min(gap, abs((14 if a == 1 else a) - (14 if b == 1 else b)))
    return gap


class GreedyPlayer:
    """Takes what completes a meld, opens at once, discards the highest card outside its melds."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()
        self._solved: dict[tuple[tuple[Card, ...], RuleSet], list[Meld]] = {}

    # -- helpers shared with the patient player ---------------------------------------------------

    def _best(self, hand: Iterable[Card], rules: RuleSet) -> list[Meld]:
        key = (tuple(sorted(hand)), rules)
        found = self._solved.get(key)
        if found is None:
            if len(self._solved) > 4096:
                self._solved.clear()
            found = self._solved[key] = sorted(best_melds(list(key[0]), rules), key=lambda m: -m.points)
        return found

    @staticmethod
    def _can_end(view: RoundView, rest: Sequence[Card]) -> bool:
        """Whether a hand of ``rest`` still lets the turn end (R12, R17)."""
        if not rest:
            return not view.rules.discard_to_go_out
        return len(rest) == 1 or any(card != view.taken_from_discard for card in rest)

    @staticmethod
    def _fits(tm: TableMeld, card: Card) -> bool:
        try:
            tm.extended(tm.meld.extend([card]), tm.owner)
        except ValueError:
            return False
        return True

    def _usable_melds(self, view: RoundView) -> list[Meld]:
        """The best melds of the hand, dropped one by one until the turn can still end (R12)."""
        melds = list(self._best(view.hand, view.rules))
        while melds and not self._can_end(view, _minus(view.hand, (c for m in melds for c in m.cards))):
            melds.pop()
        return melds

    def _completes(self, view: RoundView, top: Card) -> bool:
        with_top = self._best([*view.hand, top], view.rules)
        used = sum(meld.cards.count(top) for meld in with_top)
        held = sum(meld.cards.count(top) for meld in self._best(view.hand, view.rules))
        return used > held

    # -- the moves ----------------------------------------------------------------------------------

    def next_move(self, view: RoundView | Mapping[str, Any]) -> Move:
        """The next move of the seat of ``view`` (a typed view or the JSON-ready one)."""
        if not isinstance(view, RoundView):
            view = RoundView.from_dict(dict(view))
        if view.phase == Phase.DRAW:
            return Move.draw(self._draw(view))
        move = self._play(view)
        return move or Move.discard(self._discard(view))

    def _draw(self, view: RoundView) -> DrawSource:
        top = view.discard_top
        if top is None or all(card == top for card in view.hand):
            return DrawSource.STOCK
        if self._completes(view, top):
            return DrawSource.DISCARD
        if view.opened[view.seat or 0] and any(self._fits(tm, top) for tm in view.table):
            return DrawSource.DISCARD
        return DrawSource.STOCK

    def _wants_to_open(self, view: RoundView, melds: list[Meld]) -> bool:
        return True

    def _play(self, view: RoundView) -> Move | None:
        seat = view.seat or 0
        melds = self._usable_melds(view)
        if not view.opened[seat]:
            total = view.pending_points + sum(meld.points for meld in melds)
            if melds and total >= view.rules.opening and (view.pending or self._wants_to_open(view, melds)):
                return Move.meld(melds[0].cards)
            return Move.take_back() if view.pending else None
        swap = self._swap(view)
        if swap is not None:
            return swap
        if melds:
            return Move.meld(melds[0].cards)
        for card in sorted(set(view.hand), key=lambda c: -c.hand_points):
            if not self._can_end(view, _minus(view.hand, [card])):
                continue
            for tm in view.table:
                if self._fits(tm, card):
                    return Move.lay_off((card,), tm.id)
        return None

    def _swap(self, view: RoundView) -> Move | None:
        return None

    def _discard(self, view: RoundView) -> Card:
        allowed = [c for c in view.hand if c != view.taken_from_discard] or list(view.hand)
        melded = [c for m in self._best(view.hand, view.rules) for c in m.cards]
        loose = [c for c in allowed if c not in melded or melded.count(c) < view.hand.count(c)]
        pool = [c for c in (loose or allowed) if not c.is_joker] or loose or allowed
        return max(pool, key=lambda c: (self._discard_score(view, c), self.rng.random()))

    def _discard_score(self, view: RoundView, card: Card) -> float:
        return card.hand_points


# How near the end must be before the patient player opens (cards in the other hands, its own turns).
_NEAR = 5
_LATE_TURN = 7


class PatientPlayer(GreedyPlayer):
    """Holds the opening until the end is near, swaps jokers, remembers the discards."""

    def _wants_to_open(self, view: RoundView, melds: list[Meld]) -> bool:
        left = len(view.hand) - sum(len(m.cards) for m in melds)
        if left <= 1:
            return True  # going out (or all but the discard) in one turn
        seat = view.seat or 0
        others = [count for s, count in enumerate(view.hand_counts) if s != seat]
        own_turn = (view.turn_no - 1) // view.n_seats + 1
        return (
            min(others) <= _NEAR
            or own_turn >= _LATE_TURN
            or view.stock_count <= 10
            or view.reshuffles >= MAX_RESHUFFLES
        )

    def _draw(self, view: RoundView) -> DrawSource:
        top = view.discard_top
        if top is not None and top.is_joker and any(card != top for card in view.hand):
            return DrawSource.DISCARD
        return super()._draw(view)

    def _swap(self, view: RoundView) -> Move | None:
        """A hand card in the place of a table joker, the joker melded with two hand cards (R16)."""
        for tm in view.table:
            if JOKER not in tm.cards:
                continue
            for card in sorted(set(view.hand)):
                if card.is_joker:
                    continue
                try:
                    tm.swapped(tm.meld.swap_joker(card), tm.owner)
                except ValueError:
                    continue
                rest = _minus(view.hand, [card])
                naturals = sorted({c for c in rest if not c.is_joker})
                for i, a in enumerate(naturals):
                    for b in naturals[i + 1 :]:
                        try:
                            make_meld([a, b, JOKER], view.rules)
                        except IllegalMove:
                            continue
                        if self._can_end(view, _minus(rest, [a, b])):
                            return Move.swap_joker(card, tm.id, (a, b))
        return None

    def _discard_score(self, view: RoundView, card: Card) -> float:
        """High cards go first, but not one that could still grow into a set or run (unless the cards
        it needs are dead: seen in the discard pile or on the table), nor one the next seat collects;
        one the next seat threw away is safe."""
        seat = view.seat or 0
        after = (seat + 1) % view.n_seats
        took: list[Card] = []
        threw: list[Card] = []
        seen: list[Card] = [c for tm in view.table for c in tm.meld.stands_for]
        for event in view.history:
            if event.kind in ("discard", "upcard"):
                seen.append(event.cards[0])
            if event.seat != after:
                continue
            if event.kind == "take":
                took.append(event.cards[0])
            elif event.kind == "discard":
                threw.append(event.cards[0])
        score = float(card.hand_points)
        hand = [c for c in view.hand if not c.is_joker]
        for other in hand:
            if other == card:
                continue
            if other.rank == card.rank and other.suit != card.suit:
                needed = [Card(card.rank, s) for s in "SHDC" if s not in (card.suit, other.suit)]
            elif other.suit == card.suit and _gap(other.rank, card.rank) <= 2:
                needed = [Card(r, card.suit) for r in range(1, 14) if 0 < _gap(r, card.rank) <= 2]
            else:
                continue
            live = sum(2 - min(2, seen.count(c) + view.hand.count(c)) for c in needed)
            score -= 12 if live > 0 else 2
        for got in took:
            if got.rank == card.rank or (got.suit == card.suit and _gap(got.rank, card.rank) <= 2):
                score -= 15
        if any(gone.rank == card.rank for gone in threw):
            score += 5
        if view.opened[after] and any(self._fits(tm, card) for tm in view.table):
            score -= 10
        return score
