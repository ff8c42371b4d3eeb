"""The baseline opponent the benches measure the computer player against."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot.engine.cards import Card, parse_cards
from bot.engine.moves import DrawSource, Move, Phase
from bot.engine.views import RoundView


class RandomPlayer:
    """The baseline opponent: draws from the stock or the discard at random, discards a random legal
    card (never the card it just took, R12), and never melds.

    >>> from bot.engine.round import Round
    >>> rnd = Round.deal(2, rng=random.Random(7))
    >>> RandomPlayer(random.Random(1)).next_move(rnd.seat_view(rnd.to_play)).kind
    'draw'
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def next_move(self, view: RoundView | Mapping[str, Any]) -> Move:
        """A random draw in the draw phase, else a random legal discard; ``view`` as for
        :meth:`ComputerPlayer.next_move`."""
        if isinstance(view, RoundView):
            phase, has_top = view.phase, view.discard_top is not None
        else:
            phase, has_top = Phase(view["phase"]), bool(view.get("discard_top"))
        if phase == Phase.DRAW:
            sources = [DrawSource.STOCK, DrawSource.DISCARD] if has_top else [DrawSource.STOCK]
            return Move.draw(self.rng.choice(sources))
        if isinstance(view, RoundView):
            hand, taken = list(view.hand), view.taken_from_discard
        else:
            hand = parse_cards(view["hand"])
            code = view.get("taken_from_discard")
            taken = Card.parse(code) if code else None
        allowed = [card for card in hand if card != taken] or hand
        return Move.discard(self.rng.choice(sorted(allowed)))
