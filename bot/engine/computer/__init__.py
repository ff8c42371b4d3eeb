"""The computer player: a seat that plays a whole turn from its view alone (R11-R17, R19).

It never sees the Round, only its seat's view: ``Round.seat_view(seat)`` (typed) or the JSON-ready
``Round.view(seat)``, with its own hand and pending melds, the table, the top of the discard pile and
counts. Each call to :meth:`ComputerPlayer.next_move` returns one move; the caller applies it and asks
again until the turn ends with a discard (or the seat goes out).

The player is built in parts, each a step of the turn: :mod:`~bot.engine.computer.levels` (the
register of levels and their knobs), :mod:`~bot.engine.computer.seat` (a view read once),
:mod:`~bot.engine.computer.hand` (hand analysis), :mod:`~bot.engine.computer.planning` (best melds,
the table's checks), :mod:`~bot.engine.computer.drawing`, :mod:`~bot.engine.computer.opening`,
:mod:`~bot.engine.computer.laying` (melds, lay-offs, joker swaps) and
:mod:`~bot.engine.computer.discarding`; :mod:`~bot.engine.computer.player` puts them together.

>>> import random
>>> from bot.engine.round import Round
>>> rnd = Round.deal(2, rng=random.Random(7))
>>> ComputerPlayer(random.Random(1), level=LEVELS[-1]).next_move(rnd.seat_view(rnd.to_play)).kind
'draw'
"""

from bot.engine.computer.baseline import RandomPlayer
from bot.engine.computer.levels import DEFAULT_LEVEL, LEVELS
from bot.engine.computer.player import ComputerPlayer

__all__ = ["DEFAULT_LEVEL", "LEVELS", "ComputerPlayer", "RandomPlayer"]
