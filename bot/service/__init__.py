"""The table service: seats to people, one lock per game, the change path, timers, computer turns.

It works on the engine (:mod:`bot.engine`) and the storage (:mod:`bot.storage`) and knows no Discord.
The cogs call :class:`TableService`; rendering reads the :class:`Game` it hands back.
"""

from bot.service.errors import TABLE_ERROR_CODES, TableError
from bot.service.game import MAX_SEATS, MIN_SEATS, Game, GameStatus, Seat, TurnEvent
from bot.service.listener import NoListener, TableListener
from bot.service.scores import Standing
from bot.service.tables import TableService

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "TABLE_ERROR_CODES",
    "Game",
    "GameStatus",
    "NoListener",
    "Seat",
    "Standing",
    "TableError",
    "TableListener",
    "TableService",
    "TurnEvent",
]
