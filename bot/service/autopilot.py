"""What happens at a table without a click: computer turns, the turn timer, the next round.

:class:`Autopilot` sets the deadlines a state needs before the change path saves it (they are part
of the snapshot, so a restarted bot keeps them) and, once saved, sleeps until the next thing is due:
a computer move ``computer_delay`` after the previous change, the turn timer at ``turn_deadline``,
the next round at ``round_deadline``. Each wake-up is a change like any other, made through
:meth:`ChangePath.change <bot.service.changes.ChangePath.change>` and skipped if the game moved on
meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from bot.service.changes import UNCHANGED, Action, ChangePath
from bot.service.computer import play_computer_move
from bot.service.errors import TableError
from bot.service.events import add_events, move_events, table_ids
from bot.service.game import AWAY_AFTER, Game, TurnEvent
from bot.service.listener import Reason
from bot.service.timers import GameTimers
from bot.service.turns import computer_turn, deal_next, end_of_move, turn_id
from bot.storage import MoveEntry

log = logging.getLogger(__name__)

NEXT_ROUND_DELAY = 30.0
"""Seconds after a round ends before the next one starts by itself."""
TIMED_RETRY_DELAY = 5.0
"""Seconds before a wake-up whose change failed (e.g. the database was busy) is tried again."""


class Autopilot:
    """Runs the games of a :class:`ChangePath` between clicks (it attaches itself as its pacer).

    ``clock`` gives epoch seconds for the persisted deadlines; ``rng(key)`` the random source of a
    computer move (key ``"computer:<game>:<version>"``, so seeded games replay exactly).
    """

    def __init__(
        self,
        changes: ChangePath,
        *,
        clock: Callable[[], float],
        rng: Callable[[str], random.Random],
        computer_delay: float = 1.0,
        next_round_delay: float = NEXT_ROUND_DELAY,
    ) -> None:
        self.changes = changes
        self.computer_delay = computer_delay
        self.next_round_delay = next_round_delay
        self._clock = clock
        self._rng = rng
        self._timers = GameTimers()
        self._players: dict[int, ComputerPlayer] = {}
        self._changed_at: dict[int, float] = {}
        changes.pacer = self

    # ------------------------------------------------------------------ the pacer of the change path

    def arm(self, game: Game) -> None:
        """Set the deadlines the new state needs (they are saved with it)."""
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

    def changed(self, game: Game) -> None:
        """Note when the game changed: the next computer move is due ``computer_delay`` after it."""
        self._changed_at[game.id] = asyncio.get_running_loop().time()

    def schedule(self, game: Game) -> None:
        """Wake the game up for whatever comes next without a click: a computer move, the turn timer,
        or the next round."""
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
            delay = game.turn_deadline - self._clock()
            self._timers.schedule(game_id, delay, lambda: self._turn_timeout(game_id, version))
        else:
            self._timers.cancel(game_id)

    def forget(self, game_id: int) -> None:
        """The game left memory: no more wake-ups, no computer player kept for it."""
        self._players.pop(game_id, None)
        self._changed_at.pop(game_id, None)
        self._timers.cancel(game_id)

    async def close(self) -> None:
        """Cancel every wake-up (nothing is lost: every state is saved with its deadlines)."""
        await self._timers.close()

    # ------------------------------------------------------------------ the wake-ups

    async def _timed(self, game_id: int, version: int, apply: Action, reason: Reason) -> None:
        game = self.changes.find(game_id)
        if game is None:
            return
        try:
            await self.changes.change(game_id, apply, reason=reason, expect_version=version)
        except TableError:
            return
        except Exception:
            log.exception("game %s: %s failed; trying again in %s s", game_id, reason, TIMED_RETRY_DELAY)
            if game.version == version:
                self._timers.schedule(game_id, TIMED_RETRY_DELAY, lambda: self._retry(game_id))

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
            before = table_ids(game)
            turn = turn_id(game)
            move = play_computer_move(game.match, seat, self._player(game_id), rng)
            add_events(game, move_events(game, seat, move, before, auto=not game.seats[seat].computer))
            end_of_move(game, turn)
            return [MoveEntry(seat=seat, user_id=None, move=move.to_dict())]

        await self._timed(game_id, version, apply, "computer")

    async def _turn_timeout(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            seat = game.to_play
            if seat is None or computer_turn(game):
                return UNCHANGED
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

        await self._timed(game_id, version, apply, "timeout")

    async def _next_round(self, game_id: int, version: int) -> None:
        def apply(game: Game) -> object:
            if not game.between_rounds:
                return UNCHANGED
            deal_next(game)
            return None

        await self._timed(game_id, version, apply, "next_round")
