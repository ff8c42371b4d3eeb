"""Rule questions a seat's view answers before a move, like python-chess's ``legal_moves``: where
selected cards can be laid off (R10, R15), which jokers they can free (R16), the best melds of the hand
and whether they reach the opening (R13), and what a meld is worth (R2).

Every answer reads a :class:`~bot.engine.views.RoundView` only (R19), so the hand panel can ask them
of the same view it draws. They answer with the meld rules alone (``Meld.extend``, ``Meld.swap_joker``,
``make_meld``): whose turn it is, the opening (R14) and the last card (R17) are for the caller to
check, with ``view.actions``.

>>> from bot.engine.cards import parse_cards
>>> from bot.engine.round import Round
>>> rnd = Round.from_position(["8S 7S 9H 9D", "3D"], "QH", "KH", table=[(1, "5S 6S JK")])
>>> view = rnd.seat_view(0)
>>> [move.meld_id for move in lay_off_targets(view, parse_cards("8S"))]
['m1']
>>> [(str(move.card), move.meld_id) for move in joker_swaps(view, parse_cards("7S 9H 9D"))]
[('7S', 'm1')]
>>> hint(view).points, meld_points(parse_cards("QS KS JK"))
(0, 31)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.cards import JOKER, Card
from bot.engine.errors import IllegalMove
from bot.engine.meld import End, Meld, make_meld
from bot.engine.moves import Move
from bot.engine.rules import RuleSet
from bot.engine.solver import best_melds
from bot.engine.views import RoundView

__all__ = ["Hint", "hint", "joker_swaps", "lay_off_targets", "meld_points"]

_DEFAULT_RULES = RuleSet()
_BOTH_ENDS = (End.HIGH, End.LOW)
_ANY_END = (None,)


def lay_off_targets(view: RoundView, cards: Sequence[Card]) -> list[Move]:
    """The lay-offs of ``cards``, all together, onto the melds of ``view.table`` that take them (R15).

    One move per meld, in table order. A joker laid off on a run may go to either end (R10): when
    both ends take the cards and give different runs there is a move for each end, ``End.HIGH``
    first; when only one end does, the move names it; otherwise it names none.

    >>> from bot.engine.cards import parse_cards
    >>> from bot.engine.round import Round
    >>> rnd = Round.from_position(["JK 2C", "3D"], "", "KH", table=[(0, "5S 6S 7S"), (0, "QH KH AH")])
    >>> [(move.meld_id, move.end) for move in lay_off_targets(rnd.seat_view(0), parse_cards("JK"))]
    [('m1', <End.HIGH: 'high'>), ('m1', <End.LOW: 'low'>), ('m2', <End.LOW: 'low'>)]
    >>> lay_off_targets(rnd.seat_view(0), parse_cards("2C"))
    []
    """
    if not cards:
        return []
    laid = tuple(cards)
    joker = JOKER in laid
    moves = []
    for tm in view.table:
        results: dict[End | None, Meld] = {}
        for end in _BOTH_ENDS if joker and tm.kind == "run" else _ANY_END:
            try:
                results[end] = tm.meld.extend(laid, end=end)
            except ValueError:  # IllegalMove is a ValueError: this end does not take the cards
                continue
        if len(results) == 2 and results[End.HIGH] == results[End.LOW]:
            results = {None: results[End.HIGH]}
        moves += [Move.lay_off(laid, tm.id, end) for end in results]
    return moves


def joker_swaps(view: RoundView, cards: Sequence[Card]) -> list[Move]:
    """The joker swaps ``cards`` allow (R16): one of them, a natural, goes in a joker's place in a
    meld of ``view.table``, and the freed joker with the other cards makes a new meld (R7-R9).

    One move per table meld holding a joker and per distinct natural of ``cards`` that frees it, in
    table order, then in the order of ``cards``. Fewer than three cards never make one.

    >>> from bot.engine.cards import parse_cards
    >>> from bot.engine.round import Round
    >>> rnd = Round.from_position(["7S 9H 9D 2C", "3D"], "", "KH", table=[(0, "5S 6S JK")])
    >>> joker_swaps(rnd.seat_view(0), parse_cards("7S 9H 9D"))
    [Move.from_dict({'kind': 'swap_joker', 'cards': ['9H', '9D'], 'card': '7S', 'meld_id': 'm1'})]
    """
    if len(cards) < 3:
        return []
    moves = []
    for tm in view.table:
        if JOKER not in tm.cards:
            continue
        for card in dict.fromkeys(cards):
            if card.is_joker:
                continue
            rest = list(cards)
            rest.remove(card)
            try:
                tm.meld.swap_joker(card)
                make_meld([*rest, JOKER], view.rules)
            except ValueError:  # IllegalMove: this card does not free this joker, or no new meld
                continue
            moves.append(Move.swap_joker(card, tm.id, rest))
    return moves


@dataclass(frozen=True, slots=True)
class Hint:
    """The best melds of a seat's hand (:func:`~bot.engine.solver.best_melds`) and where they leave
    its opening (R13).

    ``opening_needed`` is 0 once the seat has opened (as in the view); ``pending_points`` are the
    points of the melds it has proposed this turn.
    """

    melds: tuple[Meld, ...]
    opening_needed: int
    pending_points: int

    @property
    def points(self) -> int:
        """The points of :attr:`melds` together."""
        return sum(meld.points for meld in self.melds)

    @property
    def toward_opening(self) -> int:
        """What the best melds and the proposed ones would bring to the opening together."""
        return self.points + self.pending_points

    @property
    def opening_in_reach(self) -> bool:
        """Whether laying :attr:`melds` now would reach the opening (always, once opened)."""
        return self.toward_opening >= self.opening_needed


def hint(view: RoundView) -> Hint:
    """The best melds the hand of ``view`` makes, and whether they reach the opening (R13).

    >>> from bot.engine.round import Round
    >>> rnd = Round.from_position(["5H 6H 7H 2C", "3D"], "QH", "KH")
    >>> answer = hint(rnd.seat_view(0))
    >>> [str(meld) for meld in answer.melds], answer.points, answer.opening_needed, answer.opening_in_reach
    (['5H 6H 7H'], 18, 40, False)
    """
    return Hint(tuple(best_melds(list(view.hand), view.rules)), view.opening_needed, view.pending_points)


def meld_points(cards: Iterable[Card], rules: RuleSet = _DEFAULT_RULES) -> int | None:
    """The points (R2, on the table) of the meld ``cards`` make in any order, ``None`` if they make none.

    A meld move never chooses where a joker goes, so this is also what a laid meld of those cards is
    worth (R10).

    >>> from bot.engine.cards import parse_cards
    >>> meld_points(parse_cards("QS KS JK")), meld_points(parse_cards("KS AS 2S"))
    (31, None)
    """
    try:
        return make_meld(cards, rules).points
    except IllegalMove:
        return None
