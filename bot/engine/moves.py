"""Moves: what a seat does on its turn (R11), as immutable values that travel as JSON; the phases of
a turn and the piles a draw takes from.

The enums are ``StrEnum``: ``Phase.OVER == "over"`` holds and JSON writes the plain word, so snapshots
and views read as they always did.

>>> Phase.OVER == "over", DrawSource("stock") is DrawSource.STOCK, str(DrawSource.DISCARD)
(True, True, 'discard')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from bot.engine.cards import Card, card_codes, parse_cards
from bot.engine.meld import End

MoveKind = Literal["draw", "meld", "take_back", "lay_off", "swap_joker", "discard"]
"""The one spelling of each move, shared by the engine, the view's actions and the hand panel."""
MOVE_KINDS: tuple[MoveKind, ...] = ("draw", "meld", "take_back", "lay_off", "swap_joker", "discard")


class Phase(StrEnum):
    """Where a round stands (R11, R17): the seat on turn must draw, may play, or the round is over."""

    DRAW = "draw"
    PLAY = "play"
    OVER = "over"


class DrawSource(StrEnum):
    """The pile a draw takes its card from (R11)."""

    STOCK = "stock"
    DISCARD = "discard"


DRAW_SOURCES: tuple[DrawSource, ...] = tuple(DrawSource)


def draw_source(value: object) -> DrawSource:
    """The pile ``value`` names (a :class:`DrawSource` or its word); ``ValueError`` for anything else.

    >>> draw_source("discard") is DrawSource.DISCARD
    True
    """
    for source in DRAW_SOURCES:
        if value == source:
            return source
    raise ValueError(f"draw from 'stock' or 'discard', not {value!r}")


def run_end(value: object) -> End | None:
    """The run end ``value`` names (an :class:`~bot.engine.meld.End`, its word, or ``None``).

    >>> run_end("low") is End.LOW, run_end(None)
    (True, None)
    """
    if value is None:
        return None
    for end in End:
        if value == end:
            return end
    raise ValueError(f"a lay-off end is 'low' or 'high', not {value!r}")


@dataclass(frozen=True, slots=True)
class Move:
    """One move of one seat. Build it with the constructors, not by hand.

    ``cards`` are the melded or laid-off cards; for a joker swap they are the HAND cards that go into
    the new meld with the freed joker (the engine adds the joker). ``card`` is the discarded card, or
    for a joker swap the card put into the table meld in the joker's place.

    >>> Move.meld(parse_cards("5H 6H 7H"))
    Move.from_dict({'kind': 'meld', 'cards': ['5H', '6H', '7H']})
    >>> Move.from_dict(Move.discard(Card.parse("KS")).to_dict()) == Move.discard(Card.parse("KS"))
    True
    """

    kind: MoveKind
    source: DrawSource | None = None
    cards: tuple[Card, ...] = ()
    card: Card | None = None
    meld_id: str | None = None
    end: End | None = None

    def __post_init__(self) -> None:
        # The plain words ("stock", "low") are accepted and kept as the enums.
        if self.kind not in MOVE_KINDS:
            raise ValueError(f"no such move: {self.kind!r}")
        if self.kind == "draw":
            object.__setattr__(self, "source", draw_source(self.source))
        object.__setattr__(self, "end", run_end(self.end))

    @classmethod
    def draw(cls, source: DrawSource | str) -> Move:
        """Draw the top card of the ``"stock"`` or of the ``"discard"`` pile (R11).

        >>> Move.draw("stock").source is DrawSource.STOCK
        True
        """
        return cls("draw", source=draw_source(source))

    @classmethod
    def meld(cls, cards: Iterable[Card]) -> Move:
        """Lay (or, before the opening, propose) a new meld from the hand (R7-R9, R13)."""
        return cls("meld", cards=tuple(cards))

    @classmethod
    def take_back(cls) -> Move:
        """Take every proposed opening meld back into the hand (R13)."""
        return cls("take_back")

    @classmethod
    def lay_off(cls, cards: Iterable[Card], meld_id: str, end: End | str | None = None) -> Move:
        """Add ``cards`` to the table meld ``meld_id``; ``end`` places a joker on a run (R10, R15)."""
        return cls("lay_off", cards=tuple(cards), meld_id=meld_id, end=run_end(end))

    @classmethod
    def swap_joker(cls, card: Card, meld_id: str, cards: Iterable[Card]) -> Move:
        """Put ``card`` in a joker's place in ``meld_id``; the joker and ``cards`` form a new meld (R16)."""
        return cls("swap_joker", card=card, meld_id=meld_id, cards=tuple(cards))

    @classmethod
    def discard(cls, card: Card) -> Move:
        """Discard ``card``, which ends the turn (R11)."""
        return cls("discard", card=card)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with only the fields this kind of move uses."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.source is not None:
            data["source"] = str(self.source)
        if self.cards:
            data["cards"] = card_codes(self.cards)
        if self.card is not None:
            data["card"] = str(self.card)
        if self.meld_id is not None:
            data["meld_id"] = self.meld_id
        if self.end is not None:
            data["end"] = str(self.end)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Move:
        """The move of :meth:`to_dict`; raises ``ValueError`` on a malformed dict."""
        unknown = set(data) - {"kind", "source", "cards", "card", "meld_id", "end"}
        if unknown:
            raise ValueError(f"unknown move fields: {sorted(unknown)}")
        card = data.get("card")
        return cls(
            kind=data["kind"],
            source=data.get("source"),
            cards=tuple(parse_cards(data.get("cards", []))),
            card=None if card is None else Card.parse(card),
            meld_id=data.get("meld_id"),
            end=data.get("end"),
        )

    def __repr__(self) -> str:
        return f"Move.from_dict({self.to_dict()!r})"
