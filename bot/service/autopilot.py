"""What happens at a table without a click: computer turns, the turn timer, the next round.

:class:`Autopilot` sets the deadlines a state needs before the change path saves it (they are part
of the snapshot, so a restarted bot keeps them) and, once saved, sleeps until the next thing is due:
a computer move ``computer_delay`` after the previous change, the turn timer at ``turn_deadline``,
the next round at ``round_deadline``. Each wake-up is a change like any other, made through
:meth:`ChangePath.change <bot.service.changes.ChangePath.change>` and skipped if the game moved on
meanwhile.

Beside those, each open game has one deadline of its own, on a second timer: a lobby closes itself
``lobby_timeout`` seconds after it opened (``lobby_deadline``), and a running game ends itself with
the standings so far ``idle_timeout`` seconds after a person last changed it (``idle_deadline``).
0 turns either off.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Literal

from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from bot.service.changes import UNCHANGED, Action, ChangePath
from bot.service.computer import play_computer_move
from bot.service.errors import TableError
from bot.service.events import add_events, history_seen, move_events
from bot.service.game import AWAY_AFTER, Game, GameStatus, TurnEvent
from bot.service.listener import Reason
from bot.service.ratings import early_rating
from bot.service.timers import GameTimers
from bot.service.turns import computer_turn, deal_next, end_of_move, turn_id
from bot.storage import MoveEntry

log = logging.getLogger(__name__)

Closing = Literal["lobby", "idle"]
"""Which of a game's own deadlines a closing timer is for."""

NEXT_ROUND_DELAY = 30.0
"""Seconds after a round ends before the next one starts by itself."""
TIMED_RETRY_DELAY = 5.0
"""Seconds before a wake-up whose change failed (e.g. the database was busy) is tried again."""
LOBBY_TIMEOUT = 15 * 60.0
"""Seconds a lobby stays open for its host to start it, by default."""
IDLE_GAME_TIMEOUT = 24 * 3600.0
"""Seconds a running game goes on without a person's change before it ends itself, by default."""


class Autopilot:
    """Runs the games of a :class:`ChangePath` between clicks (the path builds it as its pacer).

    ``clock`` gives epoch seconds for the persisted deadlines; ``rng(key)`` the random source of a
    computer move (key ``"computer:<game>:<version>"``, so seeded games replay exactly).
    ``lobby_timeout`` and ``idle_timeout`` are seconds (0: never), see the module's docstring.
    """

    def __init__(
        self,
        changes: ChangePath,
        *,
        clock: Callable[[], float],
        rng: Callable[[str], random.Random],
        computer_delay: float = 1.0,
        next_round_delay: float = NEXT_ROUND_DELAY,
        lobby_timeout: float = LOBBY_TIMEOUT,
        idle_timeout: float = IDLE_GAME_TIMEOUT,
    ) -> None:
        self.changes = changes
        self.computer_delay = computer_delay
        self.next_round_delay = next_round_delay
        self.lobby_timeout = lobby_timeout
        self.idle_timeout = idle_timeout
        # The lobby and idle deadlines: a timer of their own, keyed by the deadline it sleeps until.
        self._deadlines = GameTimers()
        self._clock = clock
        self._rng = rng
        self._timers = GameTimers()
        self._players: dict[int, ComputerPlayer] = {}
        self._changed_at: dict[int, float] = {}

    # ------------------------------------------------------------------ the pacer of the change path

    def arm(self, game: Game, *, by_person: bool) -> None:
        """Set the deadlines the new state needs (they are saved with it); a person's change puts
        the idle deadline off again."""
        self._arm_closing(game, by_person=by_person)
        if not game.running or game.match is None:
            game.turn_deadline = game.round_deadline = game.auto_turn = None
            return
        if game.between_rounds:
            game.turn_deadline = game.auto_turn = None
            if game.round_deadline is None:
                game.round_deadline = self._clock() + self.next_round_delay
            return
        game.round_deadline = None
        if computer_turn(game) or game.turn_timeout <= 0:
            game.turn_deadline = None
        elif game.turn_deadline is None:
            game.turn_deadline = self._clock() + game.turn_timeout

    def _arm_closing(self, game: Game, *, by_person: bool) -> None:
        if game.status is GameStatus.LOBBY:
            game.idle_deadline = None
            if game.lobby_deadline is None and self.lobby_timeout > 0:
                game.lobby_deadline = self._clock() + self.lobby_timeout
        elif game.running:
            game.lobby_deadline = None
            if self.idle_timeout > 0 and (by_person or game.idle_deadline is None):
                game.idle_deadline = self._clock() + self.idle_timeout
        else:
            game.lobby_deadline = game.idle_deadline = None

    def clock(self) -> float:
        """Epoch seconds now, as the persisted deadlines are counted."""
        return self._clock()

    def changed(self, game: Game) -> None:
        """Note when the game changed: the next computer move is due ``computer_delay`` after it."""
        self._changed_at[game.id] = asyncio.get_running_loop().time()

    def schedule(self, game: Game) -> None:
        """Wake the game up for whatever comes next without a click: a computer move, the turn timer,
        or the next round; and the lobby's or the idle game's own deadline.

        A turn's timer is set once per turn: the moves within the turn keep it (the wake-up checks
        that its deadline is still the turn's), rather than each replacing it with an equal one.
        """
        self._schedule_closing(game)
        if not game.running or game.match is None:
            self._timers.cancel(game.id)
            return
        game_id, version = game.id, game.version
        if game.between_rounds:
            deadline = game.round_deadline if game.round_deadline is not None else self._clock()
            self._timers.schedule(
                game_id, deadline - self._clock(), lambda: self._next_round(game_id, version)
            )
        elif computer_turn(game):
            # Counted from when the change was made, not from when its save came back: saves committed
            # together would otherwise line their tables up, and the next moves come due all at once.
            changed = self._changed_at.get(game_id)
            since = 0.0 if changed is None else asyncio.get_running_loop().time() - changed
            delay = max(0.0, self.computer_delay - since)
            self._timers.schedule(game_id, delay, lambda: self._computer_move(game_id, version))
        elif game.turn_deadline is not None:
            turn_deadline = game.turn_deadline
            self._timers.schedule(
                game_id,
                turn_deadline - self._clock(),
                lambda: self._turn_timeout(game_id, turn_deadline),
                key=("turn", turn_deadline),
            )
        else:
            self._timers.cancel(game_id)

    def _schedule_closing(self, game: Game) -> None:
        game_id = game.id
        kind: Closing
        if game.status is GameStatus.LOBBY and self.lobby_timeout > 0:
            if game.lobby_deadline is None:
                # A lobby saved before lobbies had a deadline gets one from now (saved with its next change).
                game.lobby_deadline = self._clock() + self.lobby_timeout
            deadline, kind = game.lobby_deadline, "lobby"
        elif game.running and game.idle_deadline is not None and self.idle_timeout > 0:
            deadline, kind = game.idle_deadline, "idle"
        else:
            self._deadlines.cancel(game_id)
            return
        sleeping = self._deadlines.sleeping(game_id)
        if isinstance(sleeping, tuple) and sleeping[0] == kind and sleeping[1] <= deadline:
            # Each of a person's changes puts the idle deadline off: the timer set for the earlier
            # deadline is kept, and sleeps on for the difference when it wakes (see _closing_due).
            return
        self._sleep_until(game_id, kind, deadline, deadline - self._clock())

    def _sleep_until(self, game_id: int, kind: Closing, deadline: float, delay: float) -> None:
        self._deadlines.schedule(
            game_id, delay, lambda: self._closing_due(game_id, kind, deadline), key=(kind, deadline)
        )

    async def _closing_due(self, game_id: int, kind: Closing, deadline: float) -> None:
        """The lobby's or the idle game's timer, set for ``deadline``, woke: close the game, or sleep
        on if the deadline was put off meanwhile."""
        game = self.changes.find(game_id)
        if game is None:
            return
        now_due = game.lobby_deadline if kind == "lobby" else game.idle_deadline
        if now_due is not None and now_due > deadline and self._deadlines.sleeping(game_id) is None:
            self._sleep_until(game_id, kind, now_due, now_due - deadline)
            return
        if kind == "lobby":
            await self._close_lobby(game_id, deadline)
        else:
            await self._end_idle(game_id, deadline)

    def forget(self, game_id: int) -> None:
        """The game left memory: no more wake-ups, no computer player kept for it."""
        self._players.pop(game_id, None)
        self._changed_at.pop(game_id, None)
        self._timers.cancel(game_id)
        self._deadlines.cancel(game_id)

    async def close(self) -> None:
        """Cancel every wake-up (nothing is lost: every state is saved with its deadlines)."""
        await self._timers.close()
        await self._deadlines.close()

    # ------------------------------------------------------------------ the wake-ups

    async def _timed(self, game_id: int, version: int | None, apply: Action, reason: Reason) -> None:
        """Make a timed change; ``version``: only if the game is still at it (``None``: ``apply``
        checks that the change is still due)."""
        game = self.changes.find(game_id)
        if game is None:
            return
        try:
            await self.changes.change(game_id, apply, reason=reason, expect_version=version)
        except TableError:
            return
        except Exception:
            log.exception("game %s: %s failed; trying again in %s s", game_id, reason, TIMED_RETRY_DELAY)
            if version is None or game.version == version:
                self._timers.schedule(game_id, TIMED_RETRY_DELAY, lambda: self._retry(game_id))

    async def _close_lobby(self, game_id: int, deadline: float) -> None:
        def apply(game: Game) -> object:
            if game.status is not GameStatus.LOBBY or game.lobby_deadline != deadline:
                return UNCHANGED
            game.status = GameStatus.CANCELLED
            game.closed_by = "lobby_timeout"
            return None

        await self._closing(game_id, apply, "lobby_timeout")

    async def _end_idle(self, game_id: int, deadline: float) -> None:
        def apply(game: Game) -> object:
            if not game.running or game.idle_deadline != deadline:
                return UNCHANGED
            # The standings so far stand. Once a round has ended it is rated and counted on them, as
            # a stop by a member not seated (early_rating); before, nobody's statistics change.
            game.status = GameStatus.FINISHED
            game.closed_by = "idle"
            game.early_rating = early_rating(game, None)
            return None

        await self._closing(game_id, apply, "idle")

    async def _closing(self, game_id: int, apply: Action, reason: Reason) -> None:
        try:
            await self.changes.change(game_id, apply, reason=reason)
        except TableError:
            return
        except Exception:
            log.exception("game %s: %s failed; trying again in %s s", game_id, reason, TIMED_RETRY_DELAY)
            self._deadlines.schedule(game_id, TIMED_RETRY_DELAY, lambda: self._retry(game_id))

    async def _retry(self, game_id: int) -> None:
        game = self.changes.find(game_id)
        if game is not None:
            self.schedule(game)

    def _player(self, game_id: int) -> ComputerPlayer:
        player = self._players.get(game_id)
        if player is None:
            # Not setdefault(…, ComputerPlayer()): that builds (and seeds) a player on every move.
            player = self._players[game_id] = ComputerPlayer()
        return player

    async def _computer_move(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not computer_turn(game):
                return UNCHANGED
            assert game.match is not None
            seat = game.to_play
            assert seat is not None
            rng = self._rng(f"computer:{game.id}:{game.version}")
            seen = history_seen(game)
            turn = turn_id(game)
            level = game.seats[seat].computer_level
            began = time.perf_counter()
            move = play_computer_move(game.match, seat, self._player(game_id), rng, level)
            self.changes.meter.decided(time.perf_counter() - began)
            add_events(game, move_events(game, seat, move, seen, auto=not game.seats[seat].computer))
            end_of_move(game, turn)
            return [MoveEntry(seat=seat, user_id=None, move=move.to_dict())]

        await self._timed(game_id, version, apply, "computer")

    async def _turn_timeout(self, game_id: int, deadline: float) -> None:
        def apply(game: Game) -> object:
            seat = game.to_play
            if seat is None or computer_turn(game) or game.turn_deadline != deadline:
                return UNCHANGED  # the turn ended (or its timer was set again) meanwhile
            owner = game.seats[seat]
            owner.missed += 1
            events = [TurnEvent(seat, "timeout", auto=True)]
            if owner.missed >= AWAY_AFTER:
                owner.away = True
                events.append(TurnEvent(seat, "away"))
            game.auto_turn = seat
            game.turn_deadline = None
            add_events(game, events)
            if game.match is not None and game.match.round.pending(game.match.round_seat(seat)):
                # The computer plans its own melds: proposals the person left are taken back first.
                take_back = Move.take_back()
                game.match.play(seat, take_back)
                return [MoveEntry(seat=seat, user_id=None, move=take_back.to_dict())]
            return None

        await self._timed(game_id, None, apply, "timeout")

    async def _next_round(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not game.between_rounds:
                return UNCHANGED
            deal_next(game)
            return None

        await self._timed(game_id, version, apply, "next_round")
