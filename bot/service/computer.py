"""The computer's next move for a seat, with a safe fallback so a table never stalls."""

from __future__ import annotations

import logging
import random

from bot.engine.computer import ComputerPlayer
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.moves import DrawSource, Move, Phase

log = logging.getLogger(__name__)


def computer_moves(match: Match, seat: int, player: ComputerPlayer, rng: random.Random) -> list[Move]:
    """The moves to try, best first, for match ``seat`` on turn: the player's choice, then fallbacks.

    The caller applies them in order until one is accepted. The fallbacks (draw from the stock, take
    back proposals, discard any card) exist only in case the player ever suggests an illegal move:
    one of them is always legal on a seat's turn.
    """
    view = match.seat_view(seat).round
    player.rng = rng
    moves: list[Move] = []
    try:
        moves.append(player.next_move(view))
    except Exception:
        log.exception("the computer player failed to choose a move; using the fallback")
    if view.phase == Phase.DRAW:
        moves.append(Move.draw(DrawSource.STOCK))
        moves.append(Move.draw(DrawSource.DISCARD))
        return moves
    if view.pending:
        moves.append(Move.take_back())
    moves += [Move.discard(card) for card in sorted(set(view.hand), key=lambda c: -c.hand_points)]
    return moves


_LEVEL_PLAYERS: dict[str, ComputerPlayer] = {}
"""One player per level for the seats whose level differs from the player the caller keeps: a player
holds only memoised rule answers, and its ``rng`` is set for every move."""


def player_at(level: str, player: ComputerPlayer) -> ComputerPlayer:
    """``player`` when it plays ``level``, else the shared player of that level (``ValueError`` for a
    level that is not one of ``LEVELS``).

    >>> player_at("hard", ComputerPlayer()).level
    'hard'
    """
    if player.level == level:
        return player
    found = _LEVEL_PLAYERS.get(level)
    if found is None:
        found = _LEVEL_PLAYERS[level] = ComputerPlayer(level=level)
    return found


def play_computer_move(
    match: Match, seat: int, player: ComputerPlayer, rng: random.Random, level: str | None = None
) -> Move:
    """Apply the computer's move for match ``seat`` and return it; the match is unchanged on failure.

    ``level`` (``Seat.computer_level``) is the level to play at; ``None`` plays at ``player``'s.
    Raises ``IllegalMove`` only if no candidate is legal, which the engine's rules make impossible on
    the seat's turn.
    """
    if level is not None:
        player = player_at(level, player)
    error: IllegalMove | None = None
    for move in computer_moves(match, seat, player, rng):
        try:
            match.play(seat, move)
        except IllegalMove as exc:
            if error is None:
                # The kind and the rule only: the move's cards are the seat's secret (R19).
                log.warning(
                    "the computer player chose an illegal %s for seat %s (%s)", move.kind, seat, exc.code
                )
            error = error or exc
            continue
        return move
    assert error is not None
    raise error
