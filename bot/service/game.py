"""The state of one table: seats, the match, the last turn in words, the deadlines (plain data).

The table service (:mod:`bot.service.tables`) owns and mutates these objects; rendering reads them. A
:class:`Game` saves to a JSON-ready snapshot and comes back from it exactly, so a restarted bot goes on
where it stopped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from bot.engine.computer import DEFAULT_LEVEL
from bot.engine.outcome import Outcome, outcome
from bot.engine.round import MAX_SEATS, MIN_SEATS
from bot.engine.rules import RuleSet
from bot.service.stored import REQUIRED, Codec, settings_of, stored
from bot.storage import GameStatus, MoveRecord

if TYPE_CHECKING:
    from bot.engine.match import Match
    from bot.engine.views import MatchView
    from bot.service.ratings import Shift

SNAPSHOT_FORMAT = 1
"""The ``"version"`` key of :meth:`Game.to_snapshot`: the layout of the snapshot, not the game's version."""

DEFAULT_TURN_TIMEOUT = 120.0
"""Seconds a person has for a turn when the lobby did not say (the bot's ``TURN_TIMEOUT`` default)."""

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

    The fields marked ``setting`` are who sits there and how the computer plays it: what a new lobby
    of :meth:`Game.rematch` keeps.
    """

    user_id: int | None = field(metadata=stored(setting=True))
    name: str = field(metadata=stored(setting=True))
    computer: bool = field(default=False, metadata=stored(load=bool, setting=True))
    away: bool = field(default=False, metadata=stored(load=bool))
    missed: int = field(default=0, metadata=stored(load=int))
    # A snapshot from before the count: the person is taken to have played (as was counted then).
    own_moves: int = field(default=0, metadata=stored(load=int, missing=1))
    level: str | None = field(default=None, metadata=stored(setting=True))

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
        # Not asdict: its recursion was a third of the cost of saving a game after each move.
        return _SEAT.save(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        """The seat of :meth:`to_dict`; a key an older snapshot lacks reads as its field says.

        >>> Seat.from_dict({"user_id": 7, "name": "Ada"})
        Seat(user_id=7, name='Ada', computer=False, away=False, missed=0, own_moves=1, level=None)
        """
        return _SEAT.load(data)

    def for_rematch(self) -> Seat:
        """This seat as Play again sits it in a new lobby: the same person or computer at the same
        level, nothing of the match (:meth:`Game.rematch`).

        >>> Seat(None, "Computer 1", computer=True, missed=2, level="hard").for_rematch()
        Seat(user_id=None, name='Computer 1', computer=True, away=False, missed=0, own_moves=0, level='hard')
        """
        return Seat(**settings_of(self))


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

    seat: int | None = field(metadata=stored(missing=None))
    kind: str
    cards: list[str] = field(default_factory=list, metadata=stored(save=list, load=list))
    source: str | None = None
    meld_id: str | None = None
    card: str | None = None
    auto: bool = field(default=False, metadata=stored(load=bool))

    def __post_init__(self) -> None:
        if self.kind not in TURN_EVENT_KINDS:
            raise ValueError(f"no such turn event: {self.kind!r}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (the fields in their order, as ``dataclasses.asdict`` gives them)."""
        return _EVENT.save(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TurnEvent:
        """The event of :meth:`to_dict`; a key an older snapshot lacks reads as its field says."""
        return _EVENT.load(data)


_SEAT = Codec(Seat)
_EVENT = Codec(TurnEvent)


def _outcome_dict(value: Outcome | None) -> dict[str, Any] | None:
    return None if value is None else value.to_dict()


def _outcome(data: dict[str, Any] | None) -> Outcome | None:
    return None if data is None else Outcome.of(data)


def _match(data: dict[str, Any] | None) -> Match | None:
    if data is None:
        return None
    from bot.engine.match import Match

    return Match.from_dict(data)


RATED_EARLY = ("leaver", "standings")
"""The ``Game.early_rating`` of a match ended early that is rated (and counted in the statistics)
on its standings so far (see :func:`bot.service.ratings.early_rating`)."""


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
    ``early_rating`` is how a match that ended early (stopped, or ended idle) is rated, decided when it
    ended (:func:`~bot.service.ratings.early_rating`): ``"leaver"``, ``"standings"`` or
    ``"unrated"``; ``None`` for a match played to its end, and for one that ended early before the
    rule (it stays unrated). ``recorded_outcome`` is the match's outcome (:meth:`outcome`) as the
    save that ended it wrote it, with the statistics; ``None`` before (and in games saved before it).

    Each field is stated once: its metadata (:func:`~bot.service.stored.stored`) says how the snapshot
    keeps it (the fields' order is the snapshot's), and ``setting`` marks what a lobby was opened with,
    which Play again keeps (:meth:`rematch`).

    >>> game = Game(id=1, guild_id=10, channel_id=20, host_id=7)
    >>> game.seats.append(Seat(user_id=7, name="Ada"))
    >>> Game.from_snapshot(game.to_snapshot()) == game
    True
    >>> game.seat_of(7), game.seat_of(8)
    (0, None)
    """

    id: int
    guild_id: int = field(metadata=stored(setting=True))
    channel_id: int = field(metadata=stored(setting=True))  # a thread's, for a game in a thread
    host_id: int
    status: GameStatus = field(
        default=GameStatus.LOBBY, metadata=stored(save=str, load=GameStatus, missing=REQUIRED)
    )
    rules: RuleSet = field(
        default_factory=RuleSet,
        metadata=stored(save=RuleSet.to_dict, load=RuleSet.from_dict, missing=REQUIRED, setting=True),
    )
    computers: int = field(default=0, metadata=stored(setting=True))
    turn_timeout: float = field(default=DEFAULT_TURN_TIMEOUT, metadata=stored(setting=True))
    seats: list[Seat] = field(
        default_factory=list, metadata=stored(save=_SEAT.save_all, load=_SEAT.load_all, missing=REQUIRED)
    )
    # Not in the table's state (:meth:`table_state`): :meth:`to_snapshot` puts it in, after "seats".
    match: Match | None = field(default=None, metadata=stored(load=_match, in_state=False))
    version: int = field(default=1, metadata=stored(key="game_version"))
    table_message_id: int | None = None
    last_turn: list[TurnEvent] = field(
        default_factory=list, metadata=stored(save=_EVENT.save_all, load=_EVENT.load_all)
    )
    turn_deadline: float | None = None
    round_deadline: float | None = None
    auto_turn: int | None = None
    stats_recorded: bool = field(default=False, metadata=stored(load=bool))
    stopped_by: int | None = None
    recorded_rounds: int = field(default=0, metadata=stored(load=int))
    lobby_deadline: float | None = None
    idle_deadline: float | None = None
    closed_by: str | None = None
    language: str = field(default="en", metadata=stored(setting=True))
    # Last, and left out at normal: snapshots from before levels stay as they were.
    computer_level: str = field(default=DEFAULT_LEVEL, metadata=stored(omit_default=True, setting=True))
    # Whether the lobby took the server's defaults (/romme settings); left out when not.
    server_rules: bool = field(default=False, metadata=stored(omit_default=True, setting=True))
    # How a match that ended early is rated (bot.service.ratings.early_rating); left out when None.
    early_rating: str | None = field(default=None, metadata=stored(omit_default=True))
    # The match's outcome as the save that ended it wrote it (counted_outcome); left out when None.
    recorded_outcome: Outcome | None = field(
        default=None, metadata=stored(save=_outcome_dict, load=_outcome, omit_default=True)
    )
    _seat_versions: dict[int, tuple[tuple[Any, ...], int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Each seat's last :meth:`seat_version`, with what it was made from (not part of the game)."""
    rating_shifts: dict[int, Shift] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The rating change of each rated person, once the finished match is rated (in memory only:
    the match-end message shows them; the ratings themselves are in the storage)."""

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

    def outcome(self, match: Match | None = None) -> Outcome | None:
        """The outcome of the match (:func:`bot.engine.outcome.outcome`, the one rule of places and
        wins): played to its end, or its standings so far; ``None`` before the match. A person who
        left before the end (and had played a move of their own) is a leaver, and so is the seated
        member who stopped a match that ended early (``early_rating`` "leaver"); the match counts
        for a person who made a move of their own (``Seat.own_moves``: a seat the computer played
        from start to end is not theirs). ``match``: the match as rebuilt elsewhere (a replay's),
        default :attr:`match`. Once the match counts, the save that ended it wrote its outcome
        (:attr:`recorded_outcome`, with the statistics, in one transaction): that is what is read
        from then on; a game saved before it (or another ``match``) has it worked out here.

        >>> Game(id=1, guild_id=1, channel_id=1, host_id=1).outcome() is None
        True
        """
        match = match or self.match
        if match is None:
            return None
        recorded = self.recorded_outcome
        if recorded is not None and max(row.rounds for row in recorded.seats) == len(match.history):
            return recorded  # (not for a replay's game at an earlier step, whose match is shorter)
        stopper = None
        if not match.over and self.early_rating == "leaver" and self.stopped_by is not None:
            stopper = self.seat_of(self.stopped_by)
        left = [(seat.has_left and seat.own_moves > 0) or n == stopper for n, seat in enumerate(self.seats)]
        counts = [seat.user_id is not None and seat.own_moves > 0 for seat in self.seats]
        return outcome(match, left=left, counts=counts)

    def counted_outcome(self) -> Outcome | None:
        """:meth:`outcome` when it counts (the statistics, the ratings read it): the match was
        played to its end, or it ended early and is rated on its standings so far
        (:data:`RATED_EARLY`); else ``None`` (still going, or ended early unrated).

        >>> Game(id=1, guild_id=1, channel_id=1, host_id=1).counted_outcome() is None
        True
        """
        result = self.outcome()
        if result is None or result.over or (self.ended_early and self.early_rating in RATED_EARLY):
            return result
        return None

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
            if key == _MATCH_AFTER:
                data["match"] = None if self.match is None else self.match.to_dict()
        return data

    def table_state(self) -> dict[str, Any]:
        """:meth:`to_snapshot` without its ``"match"``: the table's own part, a few hundred bytes (what
        a logged move carries of what it changed, besides the move, see :meth:`replay_move`).

        >>> state = Game(id=1, guild_id=10, channel_id=20, host_id=7, version=3).table_state()
        >>> list(state)[:3], state["game_version"], "computer_level" in state
        (['version', 'id', 'guild_id'], 3, False)
        """
        return _GAME.save(self)

    def rematch(self, host_id: int) -> Game:
        """A new lobby for Play again, hosted by ``host_id`` (who has a seat here, not left): in the
        same channel (or thread) with every setting this lobby was opened with (house rules, computer
        seats and their levels, turn timeout, language), the host first, then the other seats in their
        order, without those who left; not yet created (its ``id`` is 0).

        >>> game = Game(id=4, guild_id=1, channel_id=2, host_id=7, language="de", computer_level="hard",
        ...             seats=[Seat(7, "Ada"), Seat(None, "Computer 1", computer=True, level="hard"),
        ...                    Seat(8, "Bea", computer=True)], status=GameStatus.FINISHED)
        >>> again = game.rematch(7)
        >>> [(seat.name, seat.level) for seat in again.seats], again.language, again.computer_level
        ([('Ada', None), ('Computer 1', 'hard')], 'de', 'hard')
        """
        mine = self.active_seat_of(host_id)
        if mine is None:
            raise ValueError(f"{host_id} has no seat at game {self.id}")
        others = [seat for index, seat in enumerate(self.seats) if index != mine and not seat.has_left]
        seats = [seat.for_rematch() for seat in (self.seats[mine], *others)]
        return Game(id=0, host_id=host_id, seats=seats, **settings_of(self))

    def become(self, other: Game) -> None:
        """Take every field of ``other`` in place: whoever holds this object sees ``other``'s state."""
        for name in _FIELD_NAMES:
            setattr(self, name, getattr(other, name))

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

        if move.get("kind") == "deal":
            raise ValueError("a deal is logged with its snapshot: it is never replayed onto one")
        if "shuffled" in move:
            # The stock the move made anew, logged for a replay from the log alone: a move that
            # reshuffles is saved with its snapshot, so this is never replayed either.
            raise ValueError("a reshuffle is logged with its snapshot: it is never replayed onto one")
        self.match.play(seat, Move.from_dict(move))
        if state:
            fresh = Game.from_snapshot({**apply_changes(self.table_state(), state), "match": None})
            fresh.match = self.match
            self.become(fresh)

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
        # A key this code does not know (a newer version's, after a downgrade) would be dropped at the
        # next snapshot: the game is refused instead (set aside, logged), as a move with unknown fields.
        _refuse_unknown(data, _GAME_KEYS, "game snapshot")
        for seat in data.get("seats") or ():
            _refuse_unknown(seat, _SEAT_KEYS, "seat")
        for event in data.get("last_turn") or ():
            _refuse_unknown(event, _EVENT_KEYS, "turn event")
        return _GAME.load(data)


_GAME = Codec(Game, head={"version": SNAPSHOT_FORMAT})
_FIELD_NAMES = tuple(f.name for f in fields(Game))
_GAME_KEYS = frozenset({"version", *_GAME.keys.values()})
_SEAT_KEYS = frozenset(_SEAT.keys.values())
_EVENT_KEYS = frozenset(_EVENT.keys.values())


def _refuse_unknown(data: Any, known: frozenset[str], what: str) -> None:
    """ValueError naming the keys of ``data`` (a saved dict) that are not ``known``.

    >>> _refuse_unknown({"seat": 1, "colour": "red"}, frozenset({"seat"}), "seat")
    Traceback (most recent call last):
    ValueError: unknown seat keys: ['colour']
    """
    if isinstance(data, dict) and not known.issuperset(data):
        raise ValueError(f"unknown {what} keys: {sorted(set(data) - known)}")


_MATCH_AFTER = list(_GAME.keys.values())[list(_GAME.keys).index("match") - 1]
"""The key the match's snapshot follows in :meth:`Game.to_snapshot` (``"seats"``)."""


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
    """The snapshot of the game once the logged ``moves`` are replayed onto ``snapshot``: the
    storage's replay, which whoever opens the storage passes to it
    (``open_database(target, replay=replay_snapshot)``)."""
    replayed = Game.replayed(snapshot, ((move.seat, move.move, move.state) for move in moves))
    return replayed.to_snapshot()


__all__ = [
    "AWAY_AFTER",
    "DEFAULT_TURN_TIMEOUT",
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
