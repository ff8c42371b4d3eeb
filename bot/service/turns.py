"""The table's own rules around a turn: who may act, when a turn changes, what a click forgives.

These are rules of the table, not of the game (those are the engine's): a seat is played by its
owner or by the computer, a panel carries the version it was drawn at, three missed turns make a
seat *away*. Each function works on a :class:`~bot.service.game.Game` in memory; the change path
saves what they do.
"""

from __future__ import annotations

from bot.service.errors import TableError
from bot.service.events import add_events
from bot.service.game import Game, TurnEvent

TurnId = tuple[int, int, bool]
"""What identifies the turn being played: the round, the round seat on turn, and whether it is over."""


def acting_seat(game: Game, user_id: int, version: int | None, seat_version: int | None = None) -> int:
    """The match seat ``user_id`` plays in a running game; refused when not seated or, with ``version``
    (the game's) or ``seat_version`` (the seat's, :meth:`Game.seat_version`), when the click came from a
    panel drawn at another version.

    >>> from bot.service.game import Seat
    >>> acting_seat(Game(id=1, guild_id=1, channel_id=1, host_id=7), 7, None)
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: game.not_running {'game_id': 1}
    """
    if not game.running:
        raise TableError("game.not_running", game_id=game.id)
    seat = game.active_seat_of(user_id)
    if seat is None:
        raise TableError("seat.not_seated", game_id=game.id)
    if version is not None and version != game.version:
        raise TableError("panel.stale", game_id=game.id, version=game.version)
    # A hand panel carries its seat's version (what the seat sees), so another seat's hidden change
    # (a proposed meld, R13) does not make it stale.
    if seat_version is not None and seat_version != game.seat_version(seat):
        raise TableError("panel.stale", game_id=game.id, version=game.version)
    return seat


def turn_id(game: Game) -> TurnId:
    """What identifies the turn being played: a new value means a new turn (and a new timer)."""
    assert game.match is not None
    return (game.match.round_no, game.match.round.to_play, game.match.round.over)


def end_of_move(game: Game, turn_before: TurnId) -> None:
    """Once a move is applied: a new turn gets a fresh timer and is nobody's timed-out turn."""
    if turn_id(game) != turn_before:
        game.turn_deadline = None
        game.auto_turn = None


def touch_seat(game: Game, seat: int | None) -> None:
    """The seat's owner clicked: its missed turns are forgiven and an away seat is back.

    >>> from bot.service.game import Seat
    >>> game = Game(id=1, guild_id=1, channel_id=1, host_id=7, seats=[Seat(7, "Ada", away=True, missed=3)])
    >>> touch_seat(game, 0)
    >>> game.seats[0].away, game.seats[0].missed, [event.kind for event in game.last_turn]
    (False, 0, ['back'])
    """
    if seat is None:
        return
    owner = game.seats[seat]
    if owner.away:
        add_events(game, [TurnEvent(seat, "back")])
    owner.away, owner.missed = False, 0


def deal_next(game: Game) -> None:
    """Deal the next round of the match and clear the last one's deadlines and words."""
    assert game.match is not None
    game.match.next_round()
    game.round_deadline = None
    game.turn_deadline = None
    game.auto_turn = None
    game.last_turn.clear()


def computer_turn(game: Game) -> bool:
    """The computer plays the turn now being played: a computer seat, an away one, or a timed-out turn."""
    seat = game.to_play
    return seat is not None and (game.seats[seat].played_by_computer or game.auto_turn == seat)
