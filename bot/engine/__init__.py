"""The rules of Rommé as the rule book (``docs/rules.md``) writes them: cards, melds, rounds,
matches, a solver and a computer player.

Pure Python: nothing here imports discord, the database or the network, and every random choice
comes from a ``random.Random`` the caller passes (live games use ``random.SystemRandom``, R19).

>>> from bot.engine import make_meld, parse_cards
>>> meld = make_meld(parse_cards("QS KS JK"))
>>> meld.kind, [str(c) for c in meld.stands_for], meld.points
('run', ['QS', 'KS', 'AS'], 31)

What a seat sees is a typed :class:`RoundView` (``Round.seat_view``, ``Match.seat_view``); the rule
questions a panel asks of it (where cards can be laid off, which jokers they free, the hint) are in
:mod:`bot.engine.queries`.
"""

from bot.engine.cards import JOKER, Card, hand_points, parse_cards
from bot.engine.computer import ComputerPlayer, RandomPlayer
from bot.engine.errors import IllegalMove
from bot.engine.match import Match
from bot.engine.meld import End, Meld, make_meld
from bot.engine.moves import DrawSource, Move, Phase
from bot.engine.round import MAX_SEATS, MIN_SEATS, Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.engine.solver import best_melds
from bot.engine.table import TableMeld
from bot.engine.views import MatchView, RoundView

__all__ = [
    "JOKER",
    "MAX_SEATS",
    "MIN_SEATS",
    "Card",
    "ComputerPlayer",
    "DrawSource",
    "End",
    "IllegalMove",
    "Match",
    "MatchView",
    "Meld",
    "Move",
    "Phase",
    "RandomPlayer",
    "Round",
    "RoundResult",
    "RoundView",
    "RuleSet",
    "TableMeld",
    "best_melds",
    "hand_points",
    "make_meld",
    "parse_cards",
]
