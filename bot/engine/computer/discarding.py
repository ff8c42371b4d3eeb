"""The discard that ends the turn (R12): the card least worth keeping; the hard level reads the public
history (R19) for dead cards, counts outs (:mod:`bot.engine.outs`) and never feeds the next seat."""

from __future__ import annotations

from collections import Counter

from bot.engine.cards import JOKER, Card, hand_points
from bot.engine.computer.hand import _live_partner_value, _partner_value, _rank_gap, _without
from bot.engine.computer.levels import _OUT_WEIGHT, _POINTS_BEFORE_OPENING
from bot.engine.computer.planning import _Planner
from bot.engine.computer.seat import _Seat
from bot.engine.history import PublicEvent
from bot.engine.memory import Memory, recall
from bot.engine.outs import live_copies, meld_outs, out_cards, pair_outs, rest_outs


class _Discarding(_Planner):
    """Which card a computer seat lets go."""

    def _discard_choice(self, seat: _Seat) -> Card:
        hand = seat.hand
        allowed = [card for card in hand if card != seat.taken] or hand  # R12: unless it is the last
        melded = Counter(card for meld in self._best(hand, seat.rules) for card in meld.cards)
        counts = Counter(hand)

        # On the last stock the round may soon end with the hand counted against the seat (R18):
        # what a card might become weighs less than what it costs.
        hope = 0.1 if seat.last_stock else 1.0

        # Low cards cost less in the hand, but a high opening (R13) is only reached with high melds:
        # from 80 up an unopened seat stops preferring to keep low cards, at 120 it keeps high ones.
        weight = 1.0 if seat.opened else max(-1.0, min(1.0, 1 - (seat.rules.opening - 40) / 40))

        if self._style.blunder and self._chance(self._style.blunder):
            # A beginner's discard: any card outside its melds, or any card at all.
            loose = [card for card in allowed if melded[card] < counts[card] and not card.is_joker]
            return self.rng.choice(sorted(loose or allowed))
        memory = self._recall(seat) if self._style.memory else None
        if memory is not None and self._style.outs:
            return self._outs_discard(seat, allowed, memory, hope)
        partner_value = _partner_value
        if memory is not None:

            def partner_value(card: Card, hand: list[Card]) -> float:
                return _live_partner_value(card, hand, memory.dead)

        def keep_value(card: Card) -> float:
            if card.is_joker:
                # With two cards left a joker rarely finds two naturals to meld with; it only blocks
                # going out.
                return 1000 * hope if len(hand) > 2 else -card.hand_points
            value = 500.0 if melded[card] >= counts[card] else partner_value(card, hand)
            if any(self._fits(tm, card) for tm in seat.table):
                value += 10
            if memory is not None:
                value += self._feeds(card, seat, memory)
            return value * hope - card.hand_points * weight

        return min(allowed, key=lambda card: (keep_value(card), self.rng.random()))

    def _outs_discard(self, seat: _Seat, allowed: list[Card], memory: Memory, hope: float) -> Card:
        """The hard level's discard: the card whose loss leaves the hand the most live outs
        (:func:`~bot.engine.outs.outs`: the unseen copies that would meld one card more), then the
        best points left over (high ones kept before the opening, R13; low ones after), and the next
        seat least fed. Only cards outside the best melds are weighed, a joker last of all."""
        hand = seat.hand
        held = Counter(hand)
        dead = memory.dead
        top = seat.discard_top  # it goes under the discard
        known = self._known_elsewhere(seat, memory)

        copies: dict[Card, int] = {}

        def live(card: Card) -> int:
            count = copies.get(card)
            if count is None:
                gone = dead[card] + (card == top)
                count = copies[card] = live_copies(card, held[card], gone, known[card])
            return count

        weight = 1.0 if seat.opened or self._threatened(seat) else _POINTS_BEFORE_OPENING
        melds = self._best(hand, seat.rules)
        melded = Counter(card for meld in melds for card in meld.cards)
        lengthen = meld_outs(melds)
        left_all = _without(hand, melded.elements())
        spare = Counter(left_all)
        pairs = None if spare[JOKER] else pair_outs(left_all)

        def value(card: Card) -> float:
            if card.is_joker:
                return -1000.0 * hope if len(hand) > 2 else card.hand_points
            if melded[card] < held[card]:
                # The best melds of the hand do without a card they leave over, so they are the
                # best melds of the hand without it too: no solve per card.
                left = _without(left_all, [card])
                if pairs is None:
                    found = lengthen | rest_outs(left)
                else:
                    # A second copy of ``card`` keeps its pairs (two equal cards are no pair, R8).
                    found = set(lengthen)
                    for a, b, cards in pairs:
                        if spare[card] > 1 or card not in (a, b):
                            found.update(cards)
            else:
                rest = _without(hand, [card])
                fewer = self._best(rest, seat.rules)
                left = _without(rest, (c for meld in fewer for c in meld.cards))
                found = out_cards(fewer, left)
            score = _OUT_WEIGHT * sum(live(out) for out in found) * hope - hand_points(left) * weight
            return score - self._feeds(card, seat, memory)

        loose = sorted({card for card in allowed if melded[card] < held[card]} or set(allowed))
        return max(loose, key=lambda card: (value(card), self.rng.random()))

    @staticmethod
    def _known_elsewhere(seat: _Seat, memory: Memory) -> Counter[Card]:
        """Cards another seat took from the pile and neither discarded nor put on the table since."""
        known: Counter[Card] = Counter()
        for other, cards in memory.taken.items():
            if other != seat.seat:
                known.update(cards)
        if not known:
            return known
        for other, cards in memory.discarded.items():
            if other != seat.seat:
                known.subtract(cards)
        for tm in seat.table:
            known.subtract(tm.meld.cards)
        return +known

    def _recall(self, seat: _Seat) -> Memory:
        """The memory of the view's public history (a dict view's entries are read here)."""
        events = [
            event if isinstance(event, PublicEvent) else PublicEvent.from_dict(event)
            for event in seat.history
        ]
        return recall(events, seat.table)

    def _feeds(self, card: Card, seat: _Seat, memory: Memory) -> float:
        """How much discarding ``card`` would help the next seat, from what it took from the pile and
        what it let go: a card it collects (a set's rank, a run's neighbour) or can lay off."""
        n_seats = len(seat.hand_counts) or 2
        after = (seat.seat + 1) % n_seats
        risk = 0.0
        for got in memory.of(memory.taken, after):
            if got.is_joker:
                continue
            if got.rank == card.rank and got.suit != card.suit:
                risk += 25
            elif got.suit == card.suit and _rank_gap(got.rank, card.rank) <= 2:
                risk += 20
        for gone in (*memory.of(memory.discarded, after), *memory.of(memory.passed, after)):
            if gone == card:
                risk -= 15
            elif gone.rank == card.rank:
                risk -= 6
        opened = after < len(seat.opened_seats) and seat.opened_seats[after]
        if opened and any(self._fits(tm, card) for tm in seat.table):
            risk += 20
        return risk
