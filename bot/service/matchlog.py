"""A match's log that replays: the cards logged with the moves, and the match played again from them.

The move log holds every move of a game in order; what it lacked were the cards (a live game
shuffles with ``random.SystemRandom``, whose state cannot be saved). :func:`log_cards` adds them to
what a change logs: a ``deal`` row once a round (the dealt hands, the upcard and the stock, see
:class:`~bot.engine.deals.Deal`), and, with a draw that made the stock anew (R18), the new stock's
order under the move's ``shuffled`` key. Both changes are saved with a full snapshot (they deal or
reshuffle, see :func:`~bot.service.changes.plan_save`), so a game read back never replays one.

:class:`MatchLog` plays a match again from its log alone, step by step (:meth:`MatchLog.build`):
each step is one log row, with the match as it was after it and the move in words. A game logged
before the deals were (or whose moves were compacted away, ``HISTORY_DAYS``) has no replay:
:class:`NoReplay`.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from bot.engine.cards import Card, card_codes, parse_cards
from bot.engine.deals import Deal, LogMismatch, MatchReplay, shuffled_stock
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.service.events import history_seen, move_events
from bot.service.game import Game, GameStatus, TurnEvent
from bot.storage import MoveEntry, MoveRecord

DEAL = "deal"
"""The ``kind`` of a deal row in the move log."""
SHUFFLED = "shuffled"
"""The key of a logged move that made the stock anew: the new stock, top first (card codes)."""
FORMAT = "romme-match"
"""The ``format`` of an exported match (:func:`export`)."""
FORMAT_VERSION = 1
"""The ``version`` of an exported match; ``docs/match-format.md`` describes it."""


class NoReplay(ValueError):
    """A match that cannot be played again from its log: logged before its deals were, compacted
    (its moves are gone), or damaged (the log does not fit)."""


class RoundMark(NamedTuple):
    """Where a game's match stood when it was last saved, as far as the cards go: its round, the
    reshuffles of that round's stock (R18) and whether the round is over; ``round_no`` is ``None``
    before the match. A change that moves it dealt or reshuffled (:func:`log_cards` logs the cards)
    and is saved with a full snapshot (:func:`~bot.service.changes._mark` gives it).

    >>> RoundMark(None)
    RoundMark(round_no=None, reshuffles=0, over=False)
    >>> RoundMark(2, 1, False) != RoundMark(2, 0, False)
    True
    """

    round_no: int | None
    reshuffles: int = 0
    over: bool = False


def log_cards(game: Game, entries: list[MoveEntry], mark: RoundMark) -> list[MoveEntry]:
    """What a change logs, with the cards that reproduce it: ``entries`` (the change's move, if any)
    and, when the change dealt a round, its deal row; when its draw made the stock anew, the draw
    with the new stock. ``mark``: where the match stood when the game was last saved.

    >>> import random
    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=7, match=Match.new(2, rng=random.Random(1)))
    >>> [entry.move["kind"] for entry in log_cards(game, [], RoundMark(None))]
    ['deal']
    >>> log_cards(game, [], RoundMark(1, 0, False))
    []
    """
    match = game.match
    if match is None:
        return entries
    rnd = match.round
    if mark.round_no != match.round_no and rnd.move_no == 0 and not entries:
        deal = Deal.of(match)
        return [MoveEntry(seat=match.dealer, user_id=None, move={"kind": DEAL, **deal.to_dict()})]
    if mark.round_no == match.round_no and rnd.reshuffles != mark.reshuffles and len(entries) == 1:
        entry = entries[0]
        stock = shuffled_stock(rnd, match.round_seat(entry.seat))
        return [dataclasses.replace(entry, move={**entry.move, SHUFFLED: " ".join(card_codes(stock))})]
    return entries


def engine_move(move: dict[str, Any]) -> Move:
    """The engine's move of a logged move (its ``shuffled`` key left out).

    >>> engine_move({"kind": "draw", "source": "stock", "shuffled": "7H 8H"})
    Move.from_dict({'kind': 'draw', 'source': 'stock'})
    """
    if SHUFFLED in move:
        move = {key: value for key, value in move.items() if key != SHUFFLED}
    return Move.from_dict(move)


@dataclass(frozen=True, slots=True)
class Step:
    """One row of a match's log, replayed: ``index`` from 0; the round it belongs to; the match seat
    that made it (the dealer for a deal); ``kind`` (``deal`` or the move's); the move; ``events``,
    the move in words (every card shown: the match is over)."""

    index: int
    round_no: int
    seat: int
    kind: str
    move: Move | None
    user_id: int | None
    events: tuple[TurnEvent, ...]
    deal: Deal | None = None
    """A deal step's cards."""
    shuffled: tuple[Card, ...] | None = None
    """The stock a draw made anew (R18), as logged."""

    def replay(self, replay: MatchReplay) -> None:
        """Play this step again on ``replay``."""
        if self.deal is not None:
            replay.deal(self.deal)
        else:
            assert self.move is not None
            replay.play(self.seat, self.move, self.shuffled)


CHECKPOINT_EVERY = 16
"""Steps between two saved states of a replayed match: a step is shown by going on from the one
before it (at most this many engine moves, well under a millisecond each), and a match's build saves
one state in this many steps (saving the match after every step was two thirds of the build)."""


class MatchLog:
    """A match played again from its log: its steps (:meth:`step`), and the match after each
    (:meth:`match_at`).

    Built by :meth:`build` from the game (its seats and names: its stored snapshot) and its log, and
    played as far as asked, once: showing step 1 of a long match replays nothing, and the first look
    at its last step replays it to there. The match is saved every :data:`CHECKPOINT_EVERY` steps
    along the way, and a step is shown by going on from the checkpoint before it. A log that does
    not fit raises :class:`NoReplay` where it stops fitting.
    """

    def __init__(self, game: Game, records: Sequence[MoveRecord]) -> None:
        self.game = game
        self._records = list(records)
        self.kinds = [str(record.move.get("kind")) for record in self._records]
        """Each step's kind (``deal`` or a move's), known without replaying."""
        self._steps: list[Step] = []
        self._checkpoints: list[bytes] = []
        self._replay = MatchReplay()
        self._table = Game.from_snapshot({**game.to_snapshot(), "match": None})

    @classmethod
    def build(cls, game: Game, records: Sequence[MoveRecord]) -> MatchLog:
        """The log of ``records`` (the game's whole log, in order) from its first deal on (played
        to its first step); :class:`NoReplay` when it holds no deal."""
        start = next((n for n, record in enumerate(records) if record.move.get("kind") == DEAL), None)
        if start is None:
            raise NoReplay("the log holds no deal")
        log = cls(game, records[start:])
        log.step(0)
        return log

    @property
    def size(self) -> int:
        """The steps of the match: the rows of its log from the first deal on."""
        return len(self._records)

    def step(self, index: int) -> Step:
        """Step ``index``, the match played to it if it was not yet."""
        if not 0 <= index < self.size:
            raise IndexError(f"no step {index} in a log of {self.size}")
        try:
            while len(self._steps) <= index:
                number = len(self._steps)
                self._steps.append(_step(self._replay, self._table, self._records[number], number))
                if number % CHECKPOINT_EVERY == 0:
                    self._checkpoints.append(marshal.dumps(self._replay.match.to_dict()))
        except (LogMismatch, ValueError, KeyError, TypeError) as exc:
            raise NoReplay(f"the log does not replay at step {len(self._steps)}: {exc}") from None
        return self._steps[index]

    def match_at(self, index: int) -> Match:
        """The match as it was after step ``index``: the checkpoint at or before it, and the steps
        after that played again."""
        self.step(index)
        checkpoint = index // CHECKPOINT_EVERY
        replay = MatchReplay.resume(marshal.loads(self._checkpoints[checkpoint]))
        for step in self._steps[checkpoint * CHECKPOINT_EVERY + 1 : index + 1]:
            step.replay(replay)
        return replay.match

    def game_at(self, index: int) -> Game:
        """The game as it was after step ``index``: its seats, the match then, the step's words."""
        game = Game.from_snapshot({**self.game.to_snapshot(), "match": None})
        game.match = self.match_at(index)
        game.last_turn = list(self._steps[index].events)
        game.status = GameStatus.FINISHED
        game.turn_deadline = None
        return game

    def round_start(self, round_no: int) -> int:
        """The index of round ``round_no``'s deal (the last round's if there is no such round)."""
        starts = [index for index, kind in enumerate(self.kinds) if kind == DEAL]
        return starts[min(max(round_no, 1), len(starts)) - 1]

    def round_of(self, index: int) -> int:
        """The round step ``index`` belongs to."""
        return self.kinds[: index + 1].count(DEAL)

    def next_turn(self, index: int) -> int:
        """The first step of the next turn after step ``index`` (a draw or a deal), else the last."""
        for later in range(index + 1, self.size):
            if self.kinds[later] in (DEAL, "draw"):
                return later
        return self.size - 1

    @property
    def rounds(self) -> int:
        """The rounds the log deals."""
        return self.kinds.count(DEAL)


def _step(replay: MatchReplay, table: Game, record: MoveRecord, index: int) -> Step:
    """Replay one log row; its step."""
    move = record.move
    if move.get("kind") == DEAL:
        deal = Deal.from_dict(move)
        match = replay.deal(deal)
        return Step(index, match.round_no, deal.dealer, DEAL, None, None, (), deal=deal)
    played = engine_move(move)
    logged = move.get(SHUFFLED)
    shuffled = None if logged is None else tuple(parse_cards(logged))
    table.match = replay.match
    seen = history_seen(table)
    replay.play(record.seat, played, shuffled)
    events = move_events(table, record.seat, played, seen, auto=False)
    if played.kind == "meld" and not events[0].cards:
        # A proposed meld shows no card in the game's words (R13); the match is over, so it may.
        events[0] = dataclasses.replace(events[0], cards=card_codes(played.cards))
    round_no, user_id = replay.match.round_no, record.user_id
    return Step(index, round_no, record.seat, played.kind, played, user_id, tuple(events), shuffled=shuffled)


def export(game: Game, records: Sequence[MoveRecord], log: MatchLog) -> dict[str, Any]:
    """The match as the exported JSON document (``docs/match-format.md``, version
    :data:`FORMAT_VERSION`): the table, the players, the deals, every move, the scores."""
    match = log.match_at(log.size - 1)
    history = match.history
    result = game.outcome(match)
    winners = () if result is None or not result.over else result.winners
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": game.id,
        "guild": game.guild_id,
        "channel": game.channel_id,
        "rules": game.rules.to_dict(),
        "status": "stopped" if game.ended_early else "finished",
        "players": [
            {"seat": n, "name": seat.name, "user_id": seat.user_id, "computer": seat.computer}
            for n, seat in enumerate(game.seats)
        ],
        "log": [
            {
                "seq": record.seq,
                "seat": record.seat,
                "user_id": record.user_id,
                "at": record.created_at.isoformat(),
                **record.move,
            }
            for record in records
            if record.seq >= _first_deal_seq(records)
        ],
        "rounds": [
            {
                "round": n + 1,
                "out": result.out,
                "melded": list(result.melded),
                "in_hand": list(result.in_hand),
                "scores": list(result.scores),
            }
            for n, result in enumerate(history)
        ],
        "totals": match.totals,
        "winner": winners[0] if winners else None,  # the outcome's (a leaver forfeits)
    }


def _first_deal_seq(records: Sequence[MoveRecord]) -> int:
    return next((record.seq for record in records if record.move.get("kind") == DEAL), 0)


__all__ = [
    "DEAL",
    "FORMAT",
    "FORMAT_VERSION",
    "SHUFFLED",
    "MatchLog",
    "NoReplay",
    "RoundMark",
    "Step",
    "engine_move",
    "export",
    "log_cards",
]
