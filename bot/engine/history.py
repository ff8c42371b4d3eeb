"""The public history of a round: what every seat did that all seats saw, in order (R11-R19).

Every seat sees the same history: which seat drew from the stock (not the card), took the top of the
discard pile (and which card), discarded, put melds on the table, laid off and swapped jokers, when
the stock was made anew (R18), and the card turned up at the deal (R5). Proposed melds that did not
reach the opening and their take-backs are hidden (R13) and never appear; a hand card, the stock and
its order never do (R19). A computer player decides from it what a club player remembers: the dead
cards and what the next seat collects.

>>> event = PublicEvent(turn=3, seat=1, kind="discard", cards=(Card.parse("7D"),))
>>> event.to_dict()
{'turn': 3, 'seat': 1, 'kind': 'discard', 'cards': ['7D']}
>>> PublicEvent.from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from bot.engine.cards import Card, card_codes, parse_cards

__all__ = ["EVENT_KINDS", "EventKind", "PublicEvent"]

EventKind = Literal["upcard", "draw_stock", "take", "reshuffle", "meld", "lay_off", "swap", "discard"]
EVENT_KINDS: frozenset[str] = frozenset(
    {"upcard", "draw_stock", "take", "reshuffle", "meld", "lay_off", "swap", "discard"}
)
"""``upcard``: the card turned up at the deal (R5), by the dealer. ``draw_stock``: a draw from the
stock, no card. ``take``: the top of the discard pile taken (R11). ``reshuffle``: the discard pile but
its top made the new stock (R18). ``meld``: a meld put on the table (``meld`` its id; an opening puts
each of its melds, R13). ``lay_off``: cards added to table meld ``meld`` (R15). ``swap``: ``card`` put
in the place of a joker of ``meld``, the joker going to the table with ``cards`` (R16; ``cards`` holds
the new meld, joker included). ``discard``: the card that ended the turn."""


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One thing a seat did that every seat saw; ``turn`` is the round's turn number (R11).

    >>> PublicEvent(turn=1, seat=0, kind="draw_stock").to_dict()
    {'turn': 1, 'seat': 0, 'kind': 'draw_stock', 'cards': []}
    """

    turn: int
    seat: int
    kind: EventKind
    cards: tuple[Card, ...] = ()
    meld: str | None = None
    card: Card | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: card codes; ``meld`` and ``card`` only when set."""
        data: dict[str, Any] = {
            "turn": self.turn,
            "seat": self.seat,
            "kind": self.kind,
            "cards": card_codes(self.cards),
        }
        if self.meld is not None:
            data["meld"] = self.meld
        if self.card is not None:
            data["card"] = str(self.card)
        return data

    def to_text(self) -> str:
        """The short form a snapshot saves: turn, seat, kind, meld id and card (``-`` when unset), then
        the cards, separated by spaces.

        >>> PublicEvent(turn=4, seat=0, kind="lay_off", cards=(Card.parse("8H"),), meld="m1").to_text()
        '4 0 lay_off m1 - 8H'
        """
        meld = self.meld if self.meld is not None else "-"
        card = str(self.card) if self.card is not None else "-"
        return " ".join([str(self.turn), str(self.seat), self.kind, meld, card, *card_codes(self.cards)])

    @classmethod
    def from_text(cls, text: str) -> PublicEvent:
        """The event of :meth:`to_text`; ``ValueError`` for anything else.

        >>> PublicEvent.from_text("4 0 lay_off m1 - 8H").cards == (Card.parse("8H"),)
        True
        """
        parts = text.split(" ")
        if len(parts) < 5:
            raise ValueError(f"not a history event: {text!r}")
        turn, seat, kind, meld, card, *cards = parts
        return cls.from_dict(
            {
                "turn": turn,
                "seat": seat,
                "kind": kind,
                "cards": cards,
                "meld": None if meld == "-" else meld,
                "card": None if card == "-" else card,
            }
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PublicEvent:
        """The event of :meth:`to_dict`; ``ValueError`` for an unknown kind."""
        kind = data["kind"]
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown history event kind {kind!r}")
        card = data.get("card")
        return cls(
            turn=int(data["turn"]),
            seat=int(data["seat"]),
            kind=cast("EventKind", kind),
            cards=tuple(parse_cards(data.get("cards", []))),
            meld=data.get("meld"),
            card=None if card is None else Card.parse(card),
        )
