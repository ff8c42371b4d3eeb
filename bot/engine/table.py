"""Melds on the table, with the seat that put down each card (R15, R16, R20)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.cards import Card, card_codes
from bot.engine.meld import Meld


def place_points(meld: Meld) -> list[int]:
    """The points (R2, on the table) of each place of ``meld``, in table order; they sum to its points.

    An ace counts 1 where it stands below a 2, else 11; a run of all thirteen ranks counts its ace high.

    >>> from bot.engine.meld import make_meld
    >>> from bot.engine.cards import parse_cards
    >>> place_points(make_meld(parse_cards("AS 2S JK")))
    [1, 2, 3]
    """
    stands_for = meld.stands_for
    points = []
    for i, card in enumerate(stands_for):
        if card.rank == 1:
            below_two = (
                meld.kind == "run"
                and len(stands_for) < 13
                and i + 1 < len(stands_for)
                and stands_for[i + 1].rank == 2
            )
            points.append(1 if below_two else 11)
        else:
            points.append(min(card.rank, 10))
    return points


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its short ``id``, the ``owner`` who laid it, and ``placed_by``, the seat
    that last put down the card of each place (lay-offs and joker swaps change it, R20).

    >>> from bot.engine.meld import make_meld
    >>> from bot.engine.cards import parse_cards
    >>> tm = TableMeld("m1", 0, make_meld(parse_cards("5S 6S 7S")), (0, 0, 0))
    >>> tm.points, tm.points_of(0), tm.points_of(1)
    (18, 18, 0)
    """

    id: str
    owner: int
    meld: Meld
    placed_by: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.placed_by) != len(self.meld.cards):
            raise ValueError("placed_by needs one seat per card place")

    @property
    def kind(self) -> str:
        """``"run"`` or ``"set"``."""
        return self.meld.kind

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in table order."""
        return self.meld.cards

    @property
    def stands_for(self) -> tuple[Card, ...]:
        """The natural card each place stands for (R10)."""
        return self.meld.stands_for

    @property
    def points(self) -> int:
        """The points of the whole meld (R2, on the table)."""
        return self.meld.points

    def points_of(self, seat: int) -> int:
        """The points of the places ``seat`` put down last (R20)."""
        return sum(p for p, by in zip(place_points(self.meld), self.placed_by, strict=True) if by == seat)

    def extended(self, new: Meld, seat: int) -> TableMeld:
        """This meld grown to ``new`` by a lay-off of ``seat``: old places keep their seats (R15, R20).

        In a run the old cards are a contiguous slice of the new ones, each standing for the same card
        (a run may grow at both ends); in a set they are a prefix (a joker of a set may come to stand
        for another lacking suit).
        """
        old, size = self.meld, len(self.meld.cards)
        for offset in range(len(new.cards) - size + 1):
            window = slice(offset, offset + size)
            if new.cards[window] == old.cards and (
                new.kind == "set" or new.stands_for[window] == old.stands_for
            ):
                placed = [seat] * len(new.cards)
                placed[window] = self.placed_by
                return TableMeld(self.id, self.owner, new, tuple(placed))
        raise ValueError(f"the extended meld does not hold the old one: {old} -> {new}")

    def swapped(self, new: Meld, seat: int) -> tuple[TableMeld, int]:
        """This meld after ``seat`` put a card in a joker's place (R16), and the index of that place."""
        if len(new.cards) != len(self.meld.cards):
            raise ValueError("a joker swap keeps the meld's length")  # a broken Meld.swap_joker
        changed = [
            i
            for i, (a, b) in enumerate(zip(self.meld.cards, new.cards, strict=True))
            if a != b and a.is_joker
        ]
        if len(changed) != 1:
            raise ValueError("a joker swap changes exactly one joker place")  # a broken Meld.swap_joker
        placed = list(self.placed_by)
        placed[changed[0]] = seat
        return TableMeld(self.id, self.owner, new, tuple(placed)), changed[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and public (R19): id, owner, kind, cards, stands_for, points, placed_by."""
        return {
            "id": self.id,
            "owner": self.owner,
            "kind": self.kind,
            "cards": card_codes(self.cards),
            "stands_for": card_codes(self.stands_for),
            "points": self.points,
            "placed_by": list(self.placed_by),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeld:
        """The table meld of :meth:`to_dict`."""
        meld = Meld.from_dict(
            {k: data[k] for k in ("kind", "cards", "stands_for", "points")},
        )
        return cls(data["id"], data["owner"], meld, tuple(data["placed_by"]))
