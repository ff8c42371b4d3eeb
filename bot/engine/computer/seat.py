"""The seat-view plumbing: what one seat's view says, read once per move (R19).

The player never sees the Round: a typed :class:`~bot.engine.views.RoundView` and the JSON-ready
``Round.view`` both become one :class:`_Seat`, so every decision reads the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, parse_cards
from bot.engine.history import PublicEvent
from bot.engine.meld import Meld
from bot.engine.moves import Phase
from bot.engine.round import MAX_RESHUFFLES
from bot.engine.rules import RuleSet
from bot.engine.table import TableMeld
from bot.engine.views import RoundView


@dataclass(frozen=True, slots=True)
class _Seat:
    """What one view says, parsed once per move."""

    rules: RuleSet
    phase: Phase
    hand: list[Card]
    pending: list[Meld]
    pending_points: int
    opened: bool
    table: list[TableMeld]
    discard_top: Card | None
    taken: Card | None
    last_stock: bool
    """No reshuffle is left: the round may end with every hand counted against its seat (R18)."""
    seat: int = 0
    hand_counts: tuple[int, ...] = ()
    opened_seats: tuple[bool, ...] = ()
    stock_count: int = 0
    turn_no: int = 1
    history: tuple[PublicEvent, ...] | list[Any] = ()
    """The view's public history: typed events, or a dict view's entries (read only by the hard level)."""

    @classmethod
    def from_view(cls, view: RoundView, table: list[TableMeld]) -> _Seat:
        assert view.seat is not None, "an onlooker has no move"
        return cls(
            rules=view.rules,
            phase=view.phase,
            hand=list(view.hand),
            pending=list(view.pending),
            pending_points=view.pending_points,
            opened=view.opened[view.seat],
            table=table,
            discard_top=view.discard_top,
            taken=view.taken_from_discard,
            last_stock=view.reshuffles >= MAX_RESHUFFLES,
            seat=view.seat,
            hand_counts=view.hand_counts,
            opened_seats=view.opened,
            stock_count=view.stock_count,
            turn_no=view.turn_no,
            history=view.history,
        )

    @classmethod
    def from_dict(cls, view: Mapping[str, Any], rules: RuleSet, table: list[TableMeld]) -> _Seat:
        """The seat of a JSON-ready view; only the fields the player needs are read (R19)."""
        seat = view["seat"]
        top = view.get("discard_top")
        taken = view.get("taken_from_discard")
        return cls(
            rules=rules,
            phase=Phase(view["phase"]),
            hand=parse_cards(view["hand"]),
            pending=[Meld.from_dict(entry) for entry in view.get("pending", [])],
            pending_points=int(view.get("pending_points", 0)),
            opened=bool(view["opened"][seat]),
            table=table,
            discard_top=Card.parse(top) if top else None,
            taken=Card.parse(taken) if taken else None,
            last_stock=view.get("reshuffles", 0) >= MAX_RESHUFFLES,
            seat=seat,
            hand_counts=tuple(view.get("hand_counts", ())),
            opened_seats=tuple(view["opened"]),
            stock_count=int(view.get("stock_count", 0)),
            turn_no=int(view.get("turn_no", 1)),
            history=view.get("history", []),
        )

    def can_end_with(self, rest: Sequence[Card]) -> bool:
        """Whether a hand of ``rest``, left after a meld, lay-off or swap, still lets the turn end: empty
        is going out (unless the last card must be discarded, R17), one card may always be discarded,
        more need one that is not equal to the card taken from the discard pile (R12)."""
        if not rest:
            return not self.rules.discard_to_go_out
        return len(rest) == 1 or any(card != self.taken for card in rest)
