"""What one seat may see (R19), as typed values: :class:`RoundView` and :class:`MatchView`.

As boardgame.io's ``playerView``: a seat keeps its own hand and proposed melds, the other hands are
counts, the stock is a count and its order is never there. The values are the engine's own value types
(:class:`~bot.engine.cards.Card`, :class:`~bot.engine.meld.Meld`, :class:`~bot.engine.table.TableMeld`,
:class:`~bot.engine.rules.RuleSet`, :class:`~bot.engine.scoring.RoundResult`), every one immutable and
public. ``to_dict()`` is the JSON-ready view of ``Round.view`` and ``Match.view``, key for key and byte
for byte; ``from_dict`` reads it back.

>>> import random
>>> from bot.engine.round import Round
>>> rnd = Round.deal(2, rng=random.Random(1))
>>> view = rnd.seat_view(0)
>>> view.seat, view.to_play, len(view.hand), view.hand_counts, view.actions
(0, 1, 13, (13, 13), frozenset())
>>> RoundView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from bot.engine.cards import Card, card_codes, parse_cards
from bot.engine.history import PublicEvent
from bot.engine.meld import Meld
from bot.engine.moves import DrawSource, MoveKind, Phase
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.engine.table import TableMeld

if TYPE_CHECKING:
    from bot.engine.round import Round

__all__ = ["VIEW_VERSION", "MatchView", "RoundView", "round_seat_view"]

VIEW_VERSION = 1
"""The version of a seat's view, which saves nothing and has not changed."""

_DRAW = "draw_"
"""The view's ``"actions"`` spell a draw ``draw_<pile>``: the one place that spelling is made."""


def _code(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _card(code: str | None) -> Card | None:
    return None if code is None else Card.parse(code)


_VIEW_CACHE_SIZE = 4096
_table_entries: dict[int, tuple[TableMeld, dict[str, Any]]] = {}


def _table_entry(tm: TableMeld) -> dict[str, Any]:
    """``tm.to_dict()``, built once per table meld: every view of every seat shows the same melds, and
    a table meld never changes (a lay-off or swap puts a new one in its place). Keyed by identity,
    the meld held so that its id is not reused; each view gets its own copy of the lists."""
    known = _table_entries.get(id(tm))
    if known is None:
        if len(_table_entries) >= _VIEW_CACHE_SIZE:
            _table_entries.clear()
        known = _table_entries[id(tm)] = (tm, tm.to_dict())
    entry = known[1]
    return {
        **entry,
        "cards": [*entry["cards"]],
        "stands_for": [*entry["stands_for"]],
        "placed_by": [*entry["placed_by"]],
    }


_event_entries: dict[int, tuple[PublicEvent, dict[str, Any]]] = {}


def _event_entry(event: PublicEvent) -> dict[str, Any]:
    """``event.to_dict()``, built once per event (as :func:`_table_entry`): every view of every seat
    shows the same history, and an event never changes. Each view gets its own copy."""
    known = _event_entries.get(id(event))
    if known is None:
        if len(_event_entries) >= _VIEW_CACHE_SIZE:
            _event_entries.clear()
        known = _event_entries[id(event)] = (event, event.to_dict())
    entry = known[1]
    return {**entry, "cards": [*entry["cards"]]}


_action_names: dict[tuple[frozenset[MoveKind], tuple[DrawSource, ...]], tuple[str, ...]] = {}


def _actions_list(kinds: frozenset[MoveKind], sources: tuple[DrawSource, ...]) -> list[str]:
    """The view's ``"actions"``: the move kinds, sorted, a draw spelt once per pile (``draw_stock``)."""
    key = (kinds, sources)
    names = _action_names.get(key)
    if names is None:
        spelt = {kind for kind in kinds if kind != "draw"} | {f"{_DRAW}{source}" for source in sources}
        names = _action_names[key] = tuple(sorted(spelt))
    return list(names)


def _actions_of(names: list[str]) -> tuple[frozenset[MoveKind], tuple[DrawSource, ...]]:
    """The move kinds and draw piles of a view's ``"actions"`` (the inverse of :func:`_actions_list`)."""
    sources = tuple(source for source in DrawSource if f"{_DRAW}{source}" in names)
    kinds = cast("set[MoveKind]", {name for name in names if not name.startswith(_DRAW)})
    if sources:
        kinds.add("draw")
    return frozenset(kinds), sources


@dataclass(frozen=True, slots=True)
class RoundView:
    """What one seat of a round may see (R19); ``seat`` ``None`` is an onlooker, who holds no hand.

    Seats are round seats. ``hand``, ``pending`` and ``pending_points`` are the seat's own (empty for
    an onlooker); ``taken_from_discard`` shows only to the seat on turn (R12). ``actions`` are the
    kinds of move (``Move.kind``) that can be legal for the seat now and ``draw_sources`` the piles it
    may draw from (R11); ``move_no`` leaves out the other seats' proposals and take-backs (R13).
    ``result`` is set once the round is over (R20-R22). ``history`` is the round's public history
    (:mod:`bot.engine.history`), the same for every seat: what each seat took from the discard pile,
    discarded, melded and laid off, in order; never a hidden card, a proposal or the stock (R13, R19).
    """

    version: int
    seat: int | None
    n_seats: int
    dealer: int
    to_play: int
    phase: Phase
    rules: RuleSet
    hand: tuple[Card, ...]
    pending: tuple[Meld, ...]
    pending_points: int
    hand_counts: tuple[int, ...]
    opened: tuple[bool, ...]
    table: tuple[TableMeld, ...]
    stock_count: int
    discard_top: Card | None
    discard_count: int
    reshuffles: int
    taken_from_discard: Card | None
    opening_needed: int
    actions: frozenset[MoveKind]
    draw_sources: tuple[DrawSource, ...]
    turn_no: int
    move_no: int
    out: int | None
    result: RoundResult | None
    history: tuple[PublicEvent, ...] = ()

    @property
    def on_turn(self) -> bool:
        """Whether this seat is the one to play (never for an onlooker or once the round is over)."""
        return self.seat is not None and self.seat == self.to_play and self.phase != Phase.OVER

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready view (``Round.view``): card codes, plain words, lists; ``"actions"`` spell a
        draw per pile (``draw_stock``, ``draw_discard``)."""
        return {
            "version": self.version,
            "seat": self.seat,
            "n_seats": self.n_seats,
            "dealer": self.dealer,
            "to_play": self.to_play,
            "phase": str(self.phase),
            "rules": self.rules.to_dict(),
            "hand": card_codes(self.hand),
            "pending": [meld.to_dict() for meld in self.pending],
            "pending_points": self.pending_points,
            "hand_counts": list(self.hand_counts),
            "opened": list(self.opened),
            "table": [_table_entry(tm) for tm in self.table],
            "stock_count": self.stock_count,
            "discard_top": _code(self.discard_top),
            "discard_count": self.discard_count,
            "reshuffles": self.reshuffles,
            "taken_from_discard": _code(self.taken_from_discard),
            "opening_needed": self.opening_needed,
            "actions": _actions_list(self.actions, self.draw_sources),
            "turn_no": self.turn_no,
            "move_no": self.move_no,
            "out": self.out,
            "result": None if self.result is None else self.result.to_dict(),
            "history": [_event_entry(event) for event in self.history],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundView:
        """The view of :meth:`to_dict` (every key needed); ``ValueError`` for another view version."""
        if data["version"] != VIEW_VERSION:
            raise ValueError(f"cannot read a view of version {data['version']!r}")
        kinds, sources = _actions_of(data["actions"])
        result = data["result"]
        return cls(
            version=data["version"],
            seat=data["seat"],
            n_seats=data["n_seats"],
            dealer=data["dealer"],
            to_play=data["to_play"],
            phase=Phase(data["phase"]),
            rules=RuleSet.from_dict(data["rules"]),
            hand=tuple(parse_cards(data["hand"])),
            pending=tuple(Meld.from_dict(meld) for meld in data["pending"]),
            pending_points=data["pending_points"],
            hand_counts=tuple(data["hand_counts"]),
            opened=tuple(data["opened"]),
            table=tuple(TableMeld.from_dict(entry) for entry in data["table"]),
            stock_count=data["stock_count"],
            discard_top=_card(data["discard_top"]),
            discard_count=data["discard_count"],
            reshuffles=data["reshuffles"],
            taken_from_discard=_card(data["taken_from_discard"]),
            opening_needed=data["opening_needed"],
            actions=kinds,
            draw_sources=sources,
            turn_no=data["turn_no"],
            move_no=data["move_no"],
            out=data["out"],
            result=None if result is None else RoundResult.from_dict(result),
            # A view written before the round kept its history has none.
            history=tuple(PublicEvent.from_dict(event) for event in data.get("history", [])),
        )


_NO_CARDS: tuple[Card, ...] = ()
_NO_MELDS: tuple[Meld, ...] = ()
_NO_KINDS: frozenset[MoveKind] = frozenset()


def _hand_counts(rnd: Round) -> tuple[int, ...]:
    """``rnd.hand_count(s)`` of every seat (R13: pending cards count as hand), in one pass."""
    counts = [len(hand) for hand in rnd._hands]
    for s, melds in enumerate(rnd._pending):
        for meld in melds:
            counts[s] += len(meld.cards)
    return tuple(counts)


def round_seat_view(rnd: Round, seat: int | None) -> RoundView:
    """What ``seat`` of ``rnd`` sees (R19): its own hand and proposed melds, counts of the other hands
    and of the stock, the discard top, the table. ``seat`` ``None`` is an onlooker with no hand."""
    if seat is not None and not 0 <= seat < rnd.n_seats:
        raise ValueError(f"there is no seat {seat!r}")
    over = rnd.phase == Phase.OVER
    hidden = rnd._hidden_moves
    sources: tuple[DrawSource, ...]
    if seat is None:
        hand, pending, pending_points = _NO_CARDS, _NO_MELDS, 0
        opening_needed = rnd.rules.opening
        kinds, sources, taken = _NO_KINDS, (), None
        # R13: the proposals and take-backs of the other seats are not counted.
        move_no = rnd.move_no - sum(hidden)
    else:
        hand, pending = tuple(rnd._hands[seat]), tuple(rnd._pending[seat])
        pending_points = rnd.pending_points(seat)
        opening_needed = 0 if rnd._opened[seat] else rnd.rules.opening
        kinds, sources = rnd.move_kinds(seat), rnd.draw_sources(seat)
        taken = rnd.taken_from_discard if seat == rnd.to_play and not over else None
        move_no = rnd.move_no - sum(n for s, n in enumerate(hidden) if s != seat)
    return RoundView(
        version=VIEW_VERSION,
        seat=seat,
        n_seats=rnd.n_seats,
        dealer=rnd.dealer,
        to_play=rnd.to_play,
        phase=rnd.phase,
        rules=rnd.rules,
        hand=hand,
        pending=pending,
        pending_points=pending_points,
        hand_counts=_hand_counts(rnd),
        opened=tuple(rnd._opened),
        table=tuple(rnd._table),
        stock_count=rnd.stock_count,
        discard_top=rnd.discard_top,
        discard_count=rnd.discard_count,
        reshuffles=rnd.reshuffles,
        taken_from_discard=taken,
        opening_needed=opening_needed,
        actions=kinds,
        draw_sources=sources,
        turn_no=rnd.turn_no,
        move_no=move_no,
        out=rnd.out,
        result=rnd.result() if over else None,
        history=tuple(rnd._history),
    )


@dataclass(frozen=True, slots=True)
class MatchView:
    """What one match seat may see: the view of the current round (an onlooker's when the seat sits
    out a tie-break round or is ``None``), and the match's public part (R4, R6).

    ``round`` speaks of round seats; the rest of match seats (``round_seats[i]`` is the match seat of
    round seat ``i``). ``history`` holds every finished round's result by match seat, the current
    round's once it is over; ``totals`` are their sums; ``winner`` is set once the match is over.
    """

    round: RoundView
    seat: int | None
    n_seats: int
    round_no: int
    rounds_planned: int
    round_seats: tuple[int, ...]
    dealer: int
    tiebreak: bool
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...]
    over: bool
    winner: int | None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready view (``Match.view``): the round's view with a ``"match"`` part."""
        view = self.round.to_dict()
        view["match"] = {
            "seat": self.seat,
            "n_seats": self.n_seats,
            "round_no": self.round_no,
            "rounds_planned": self.rounds_planned,
            "round_seats": list(self.round_seats),
            "dealer": self.dealer,
            "tiebreak": self.tiebreak,
            "totals": list(self.totals),
            "history": [result.to_dict() for result in self.history],
            "over": self.over,
            "winner": self.winner,
        }
        return view

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchView:
        """The view of :meth:`to_dict`."""
        part = data["match"]
        return cls(
            round=RoundView.from_dict({key: value for key, value in data.items() if key != "match"}),
            seat=part["seat"],
            n_seats=part["n_seats"],
            round_no=part["round_no"],
            rounds_planned=part["rounds_planned"],
            round_seats=tuple(part["round_seats"]),
            dealer=part["dealer"],
            tiebreak=part["tiebreak"],
            totals=tuple(part["totals"]),
            history=tuple(RoundResult.from_dict(result) for result in part["history"]),
            over=part["over"],
            winner=part["winner"],
        )
