"""The state of one table: seats, the match, the last turn in words, the deadlines (plain data).

The table service (:mod:`bot.service.tables`) owns and mutates these objects; rendering reads them. A
:class:`Game` saves to a JSON-ready snapshot and comes back from it exactly, so a restarted bot goes on
where it stopped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.engine.round import MAX_SEATS, MIN_SEATS
from bot.engine.rules import RuleSet
from bot.storage import GameStatus, MoveRecord

if TYPE_CHECKING:
    from bot.engine.match import Match
    from bot.engine.views import MatchView

SNAPSHOT_FORMAT = 1
"""The ``"version"`` key of :meth:`Game.to_snapshot`: the layout of the snapshot, not the game's version."""

SEAT_VERSIONS = 10**12
"""Seat versions (:meth:`Game.seat_version`) are below this: at most 12 digits, as a panel id allows."""
AWAY_AFTER = 3
"""Turns in a row a person may miss before the seat is away."""

TURN_EVENT_KINDS = frozenset(
    {
        "draw",
        "meld",
        "lay_off",
        "swap_joker",
        "discard",
        "take_back",
        "timeout",
        "away",
        "back",
        "left",
        "round_over",
    }
)
"""What a :class:`TurnEvent` can say. The first six are moves; the rest are things that happened."""

MOVE_EVENT_KINDS = frozenset({"draw", "meld", "lay_off", "swap_joker", "discard", "take_back", "timeout"})
"""Events that belong to one seat's turn (a new seat's first such event starts a new turn)."""


@dataclass
class Seat:
    """One place at the table, taken by a person or by the computer.

    ``user_id`` is ``None`` for a computer seat. A person who leaves a running game keeps ``user_id`` (for
    the record) and gets ``computer=True``. ``away`` is set after three missed turns in a row: the
    computer plays for the seat until its owner clicks anything. ``own_moves`` counts the moves the
    seat's person made themselves (not the computer for them): a person with none did not play.
    ``level`` is a computer seat's level (``"easy"``, ``"normal"``, ``"hard"``; ``None``, from before
    levels, plays normal); the computer playing for a person who is away or left plays normal.

    >>> Seat(user_id=7, name="Ada").is_person
    True
    >>> Seat(user_id=None, name="Computer 1", computer=True).is_person
    False
    """

    user_id: int | None
    name: str
    computer: bool = False
    away: bool = False
    missed: int = 0
    own_moves: int = 0
    level: str | None = None

    @property
    def computer_level(self) -> str:
        """The level the computer plays this seat at: the seat's own for a computer seat, normal
        for a person's seat the computer plays (away or left).

        >>> Seat(None, "Computer 1", computer=True, level="hard").computer_level
        'hard'
        >>> Seat(7, "Ada", computer=True, level="hard").computer_level
        'normal'
        """
        if self.user_id is None and self.level is not None:
            return self.level
        return "normal"

    @property
    def is_person(self) -> bool:
        """A person plays this seat (it may still be away)."""
        return self.user_id is not None and not self.computer

    @property
    def has_left(self) -> bool:
        """A person sat here and left; the computer plays the seat now."""
        return self.user_id is not None and self.computer

    @property
    def played_by_computer(self) -> bool:
        """The computer makes this seat's moves: a computer seat, a person who left, or one who is away."""
        return self.computer or self.away

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (the fields in their order, as ``dataclasses.asdict`` gives them)."""
        # Written out: asdict's recursion was a third of the cost of saving a game after each move.
        return {
            "user_id": self.user_id,
            "name": self.name,
            "computer": self.computer,
            "away": self.away,
            "missed": self.missed,
            "own_moves": self.own_moves,
            "level": self.level,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """The seat of :meth:`to_dict`."""
        return cls(
            user_id=data["user_id"],
            name=data["name"],
            computer=bool(data.get("computer", False)),
            away=bool(data.get("away", False)),
            missed=int(data.get("missed", 0)),
            # A snapshot from before the count: the person is taken to have played (as was counted then).
            own_moves=int(data.get("own_moves", 1)),
            level=data.get("level"),
        )


@dataclass
class TurnEvent:
    """One thing that happened in the most recent turn, for "the last move in words".

    ``kind`` is one of :data:`TURN_EVENT_KINDS`. ``cards`` are card codes everyone may see: never the
    card drawn from the stock, never a proposed (not yet opened) meld (R13, R19). ``source`` is the
    draw's pile; ``meld_id`` the table meld concerned; ``card`` the discarded card, or for a joker swap
    the card put in the joker's place. ``auto`` marks a move the computer made for a person's seat.
    ``seat`` is ``None`` only for ``round_over`` with no seat out.

    >>> TurnEvent(seat=1, kind="discard", card="7H").to_dict()["card"]
    '7H'
    """

    seat: int | None
    kind: str
    cards: list[str] = field(default_factory=list)
    source: str | None = None
    meld_id: str | None = None
    card: str | None = None
    auto: bool = False

    def __post_init__(self) -> None:
        if self.kind not in TURN_EVENT_KINDS:
            raise ValueError(f"no such turn event: {self.kind!r}")

    def __getitem__(self, key: str) -> Any:
        # Dict-like reads keep templates that index events working.
        return getattr(self, key)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (the fields in their order, as ``dataclasses.asdict`` gives them)."""
        return {
            "seat": self.seat,
            "kind": self.kind,
            "cards": list(self.cards),
            "source": self.source,
            "meld_id": self.meld_id,
            "card": self.card,
            "auto": self.auto,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnEvent:
        """The event of :meth:`to_dict`."""
        return cls(
            seat=data.get("seat"),
            kind=data["kind"],
            cards=list(data.get("cards", [])),
            source=data.get("source"),
            meld_id=data.get("meld_id"),
            card=data.get("card"),
            auto=bool(data.get("auto", False)),
        )


@dataclass
class Game:
    """One table in one channel: its lobby, its match once begun, and everything needed to resume it.

    ``version`` is bumped by every accepted change (it equals the storage row's version); panels carry
    it so a stale click is refused. ``turn_deadline`` and ``round_deadline`` are epoch seconds (from the
    service's clock): when the turn timer fires, and when the next round starts by itself.
    ``auto_turn`` is the match seat whose current turn the computer is playing after a timeout.
    ``stats_recorded`` is true once the match's results went to the statistics (exactly once).
    ``stopped_by`` is the user who stopped a running game with ``/romme stop``. ``recorded_rounds`` is
    the number of the last round whose scores went to the storage. ``lobby_deadline`` is when a lobby
    nobody started closes itself, ``idle_deadline`` when a running game in which no person acted ends
    itself (epoch seconds, like the others); ``closed_by`` says why the service ended a game by itself
    (``"lobby_timeout"`` or ``"idle"``), ``None`` otherwise. ``language`` is the language of the
    public messages (lobby, table, results): ``"en"``, ``"de"`` or ``"id"``; older snapshots are English.

    >>> game = Game(id=1, guild_id=10, channel_id=20, host_id=7)
    >>> game.seats.append(Seat(user_id=7, name="Ada"))
    >>> Game.from_snapshot(game.to_snapshot()) == game
    True
    >>> game.seat_of(7), game.seat_of(8)
    (0, None)
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus = GameStatus.LOBBY
    rules: RuleSet = field(default_factory=RuleSet)
    computers: int = 0
    computer_level: str = "normal"
    turn_timeout: float = 120.0
    seats: list[Seat] = field(default_factory=list)
    match: Match | None = None
    version: int = 1
    table_message_id: int | None = None
    last_turn: list[TurnEvent] = field(default_factory=list)
    turn_deadline: float | None = None
    round_deadline: float | None = None
    auto_turn: int | None = None
    stats_recorded: bool = False
    stopped_by: int | None = None
    recorded_rounds: int = 0
    lobby_deadline: float | None = None
    idle_deadline: float | None = None
    closed_by: str | None = None
    language: str = "en"
    _seat_versions: dict[int, tuple[tuple[Any, ...], int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Each seat's last :meth:`seat_version`, with what it was made from (not part of the game)."""

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` owns at this table (also after leaving), or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def active_seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays at this table (not left), or ``None``."""
        index = self.seat_of(user_id)
        if index is None or self.seats[index].has_left:
            return None
        return index

    def seat_version(self, seat: int, view: MatchView | None = None) -> int:
        """The version a hand panel of match seat ``seat`` carries: a number that changes only when
        what the seat may see changes (its own view, R19), not with every change of the game.

        A hidden change, such as another seat proposing a meld and taking it back (R13), leaves it
        as it was, so no seat can count the others' hidden moves from its panel's ids or from a
        panel made "out of date"; the seat's own proposal changes it, so its older panels are stale.
        Before the match begins it is the game's ``version``. 12 digits at most (a panel id's limit).
        ``view`` is the seat's view when the caller has built it already (a panel drawing does).

        >>> game = Game(id=1, guild_id=10, channel_id=20, host_id=7, version=5)
        >>> game.seat_version(0)
        5
        """
        if self.match is None:
            return self.version
        seen = view if view is not None else self.match.seat_view(seat)
        # What the seat sees changes only by a move it sees: every change of the round is a move
        # (``move_no``), and the view's count leaves out the other seats' hidden ones (R13). So the
        # hash of the whole view is made once per view, not at every click that checks it.
        key = (seat, seen.round_no, seen.round.move_no, self.status)
        known = self._seat_versions.get(seat)
        if known is not None and known[0] == key:
            return known[1]
        # The round's public history only repeats what the rest of the view shows move by move; it is
        # left out so that the ids stay as they were before the view held it.
        seat_view = replace(seen, round=replace(seen.round, history=())).to_dict()
        del seat_view["history"]
        text = json.dumps([seat_view, str(self.status)], sort_keys=True, separators=(",", ":"))
        digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
        number = int.from_bytes(digest, "big") % SEAT_VERSIONS
        self._seat_versions[seat] = (key, number)
        return number

    @property
    def host_name(self) -> str:
        """The host's seat name, or ``""`` when the host has no seat."""
        index = self.seat_of(self.host_id)
        return "" if index is None else self.seats[index].name

    @property
    def running(self) -> bool:
        """The match has begun and is not over, stopped or cancelled."""
        return self.status is GameStatus.PLAYING

    @property
    def to_play(self) -> int | None:
        """The match seat whose turn it is, or ``None`` when no turn is being played."""
        if self.match is None or not self.running or self.match.round.over:
            return None
        return self.match.round_seats[self.match.round.to_play]

    @property
    def ended_early(self) -> bool:
        """The match ended before its last round: stopped with ``/romme stop``, or ended by itself
        because no person acted (``closed_by == "idle"``)."""
        return self.stopped_by is not None or self.closed_by == "idle"

    @property
    def between_rounds(self) -> bool:
        """A round is over and the next one has not begun yet."""
        return self.running and self.match is not None and self.match.round.over and not self.match.over

    def to_snapshot(self, state: dict[str, Any] | None = None) -> dict[str, Any]:
        """Everything about the game as JSON-ready data, with the match's own snapshot inside (after
        ``"seats"``, where it always was). ``state``: the :meth:`table_state` already made, if any."""
        data: dict[str, Any] = {}
        for key, value in (state if state is not None else self.table_state()).items():
            data[key] = value
            if key == "seats":
                data["match"] = None if self.match is None else self.match.to_dict()
        return data

    def table_state(self) -> dict[str, Any]:
        """:meth:`to_snapshot` without its ``"match"``: the table's own part, a few hundred bytes (what
        a logged move carries of what it changed, besides the move, see :meth:`replay_move`)."""
        return {
            "version": SNAPSHOT_FORMAT,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "status": str(self.status),
            "rules": self.rules.to_dict(),
            "computers": self.computers,
            "turn_timeout": self.turn_timeout,
            "seats": [seat.to_dict() for seat in self.seats],
            "game_version": self.version,
            "table_message_id": self.table_message_id,
            "last_turn": [event.to_dict() for event in self.last_turn],
            "turn_deadline": self.turn_deadline,
            "round_deadline": self.round_deadline,
            "auto_turn": self.auto_turn,
            "stats_recorded": self.stats_recorded,
            "stopped_by": self.stopped_by,
            "recorded_rounds": self.recorded_rounds,
            "lobby_deadline": self.lobby_deadline,
            "idle_deadline": self.idle_deadline,
            "closed_by": self.closed_by,
            "language": self.language,
            **({"computer_level": self.computer_level} if self.computer_level != "normal" else {}),
        }

    def replay_move(self, seat: int, move: dict[str, Any], state: dict[str, Any] | None) -> None:
        """Play a logged move again: ``move`` (a ``Move.to_dict()``) for match seat ``seat`` in the
        engine, then ``state``, what the move changed of :meth:`table_state` (see :func:`state_changes`).

        Exact: the engine is deterministic given its state and its generator, which the snapshot
        holds (a move that shuffles or deals is saved with a snapshot, see
        :class:`~bot.service.changes.ChangePath`); everything else the move changed is in ``state``.

        >>> import random
        >>> from bot.engine.match import Match
        >>> from bot.engine.moves import Move
        >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=7, status=GameStatus.PLAYING,
        ...             seats=[Seat(7, "Ada"), Seat(8, "Bea")], match=Match.new(2, rng=random.Random(3)))
        >>> saved = game.to_snapshot()
        >>> _ = game.match.play(1, Move.draw("stock")); game.version = 2
        >>> again = Game.from_snapshot(saved)
        >>> again.replay_move(1, Move.draw("stock").to_dict(), {"game_version": 2})
        >>> again.to_snapshot() == game.to_snapshot()
        True
        """
        if self.match is None:
            raise ValueError("a logged move, but the game has no match")
        from bot.engine.moves import Move

        self.match.play(seat, Move.from_dict(move))
        if state:
            fresh = Game.from_snapshot({**apply_changes(self.table_state(), state), "match": None})
            fresh.match = self.match
            self.__dict__.update(fresh.__dict__)

    @classmethod
    def replayed(cls, snapshot: dict[str, Any], moves: Iterable[tuple[int, dict[str, Any], Any]]) -> Game:
        """The game of ``snapshot`` with ``moves`` (match seat, move, state) replayed onto it
        (:meth:`replay_move`)."""
        game = cls.from_snapshot(snapshot)
        for seat, move, state in moves:
            game.replay_move(seat, move, state)
        return game

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Game:
        """The game of :meth:`to_snapshot`; refuses a snapshot format this code does not know."""
        if data.get("version") != SNAPSHOT_FORMAT:
            raise ValueError(f"unknown game snapshot format {data.get('version')!r}")
        match = None
        if data.get("match") is not None:
            from bot.engine.match import Match

            match = Match.from_dict(data["match"])
        return cls(
            id=data["id"],
            guild_id=data["guild_id"],
            channel_id=data["channel_id"],
            host_id=data["host_id"],
            status=GameStatus(data["status"]),
            rules=RuleSet.from_dict(data["rules"]),
            computers=data.get("computers", 0),
            computer_level=data.get("computer_level", "normal"),
            turn_timeout=data.get("turn_timeout", 120.0),
            seats=[Seat.from_dict(seat) for seat in data["seats"]],
            match=match,
            version=data.get("game_version", 1),
            table_message_id=data.get("table_message_id"),
            last_turn=[TurnEvent.from_dict(event) for event in data.get("last_turn", [])],
            turn_deadline=data.get("turn_deadline"),
            round_deadline=data.get("round_deadline"),
            auto_turn=data.get("auto_turn"),
            stats_recorded=bool(data.get("stats_recorded", False)),
            stopped_by=data.get("stopped_by"),
            recorded_rounds=int(data.get("recorded_rounds", 0)),
            lobby_deadline=data.get("lobby_deadline"),
            idle_deadline=data.get("idle_deadline"),
            closed_by=data.get("closed_by"),
            language=data.get("language", "en"),
        )


def state_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What turned ``before`` into ``after`` (two :meth:`Game.table_state`), small: the keys that
    changed, a changed seat alone as ``"seat:<n>"``, and events added to ``last_turn`` as
    ``"last_turn+"``; :func:`apply_changes` undoes it.

    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=7, seats=[Seat(7, "Ada"), Seat(8, "Bea")])
    >>> game.last_turn.append(TurnEvent(0, "discard", card="7H"))
    >>> before = game.table_state()
    >>> game.seats[1].own_moves += 1; game.last_turn.append(TurnEvent(1, "draw")); game.version = 2
    >>> changes = state_changes(before, game.table_state())
    >>> sorted(changes)
    ['game_version', 'last_turn+', 'seat:1']
    >>> apply_changes(before, changes) == game.table_state()
    True
    """
    changes: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if old == value:
            continue
        if key == "seats" and isinstance(old, list) and len(old) == len(value):
            changes.update({f"seat:{n}": seat for n, seat in enumerate(value) if old[n] != seat})
        elif key == "last_turn" and isinstance(old, list) and old and value[: len(old)] == old:
            changes["last_turn+"] = value[len(old) :]
        else:
            changes[key] = value
    return changes


def apply_changes(state: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``state`` with :func:`state_changes`' ``changes`` made (a new dict; ``state`` stays)."""
    result = dict(state)
    for key, value in changes.items():
        if key.startswith("seat:"):
            seats = result["seats"] = list(result["seats"])
            seats[int(key.removeprefix("seat:"))] = value
        elif key == "last_turn+":
            result["last_turn"] = [*result["last_turn"], *value]
        else:
            result[key] = value
    return result


def replay_snapshot(snapshot: dict[str, Any], moves: Sequence[MoveRecord]) -> dict[str, Any]:
    """The snapshot of the game once the logged ``moves`` are replayed onto ``snapshot`` (the
    storage's :attr:`~bot.storage.Storage.replay`, set by the table service)."""
    replayed = Game.replayed(snapshot, ((move.seat, move.move, move.state) for move in moves))
    return replayed.to_snapshot()


__all__ = [
    "AWAY_AFTER",
    "MAX_SEATS",
    "MIN_SEATS",
    "MOVE_EVENT_KINDS",
    "SNAPSHOT_FORMAT",
    "TURN_EVENT_KINDS",
    "Game",
    "GameStatus",
    "Seat",
    "TurnEvent",
    "apply_changes",
    "replay_snapshot",
    "state_changes",
]
