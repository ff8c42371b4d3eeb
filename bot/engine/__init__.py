"""The rules of Rommé as ``RULES.md`` writes them: cards, melds, rounds, matches, a solver and a
computer player.

Pure Python: nothing here imports discord, the database or the network, and every random choice
comes from a ``random.Random`` the caller passes (live games use ``random.SystemRandom``, R19).

>>> from bot.engine import make_meld, parse_cards
>>> meld = make_meld(parse_cards("QS KS JK"))
>>> meld.kind, [str(c) for c in meld.stands_for], meld.points
('run', ['QS', 'KS', 'AS'], 31)
"""

from bot.engine.cards import JOKER, Card, hand_points, parse_cards
from bot.engine.computer import ComputerPlayer, RandomPlayer
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.meld import Meld, make_meld
from bot.engine.moves import Move
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.engine.solver import best_melds
from bot.engine.table import TableMeld

__all__ = [
    "JOKER",
    "Card",
    "ComputerPlayer",
    "IllegalMove",
    "Match",
    "Meld",
    "Move",
    "RandomPlayer",
    "Round",
    "RoundResult",
    "RuleSet",
    "TableMeld",
    "best_melds",
    "hand_points",
    "make_meld",
    "parse_cards",
]
