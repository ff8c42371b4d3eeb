"""The computer's levels: how each one plays, and the register the bot's choices are read from.

A level is one :class:`_Style` in :data:`_STYLES`, easiest first, and :data:`LEVELS` is read from
that register: the slash option's choices, the settings' ``computer_level`` and the lobby's checks
all follow it. Adding a level (an "expert", say) is one entry there, any new knob a field of
:class:`_Style` read where the turn decides, and the level's words in the catalogs
(``level.<name>``, ``seat.tag.level.<name>``, ``settings.level.<name>``, ``slash.choice.level_<name>``).

>>> LEVELS
('easy', 'normal', 'hard')
>>> _style_of("hard").outs, _style_of("easy").swaps
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class _Style:
    """How a level plays: the knobs that tell easy, normal and hard apart."""

    patient: bool = False
    """Hold the opening back (R13) until the seat can go out, too much is at stake, or the end is near."""
    spare_jokers: bool = False
    """Keep jokers out of melds the seat does not need yet, where the next seat could swap them (R16)."""
    memory: bool = False
    """Read the public history: dead cards, and what the next seat collects (never feed it)."""
    swaps: bool = True
    """Swap jokers from the table (R16)."""
    blunder: float = 0.0
    """The chance of a careless discard: any card outside its melds, not the one a player would pick."""
    miss: float = 0.0
    """The chance of overlooking a lay-off, or a discard worth taking."""
    outs: bool = False
    """Discard the card whose loss leaves the most outs (:mod:`bot.engine.outs`), not card by card."""


_STYLES: dict[str, _Style] = {
    "easy": _Style(swaps=False, blunder=0.5, miss=0.5),
    "normal": _Style(),
    "hard": _Style(patient=True, spare_jokers=True, memory=True, outs=True),
}

LEVELS = tuple(_STYLES)
"""The levels of :class:`~bot.engine.computer.ComputerPlayer`, easiest first."""
DEFAULT_LEVEL = "normal"


def _style_of(level: str) -> _Style:
    """How ``level`` plays; an unknown level is refused, naming the known ones.

    >>> _style_of("normal") == _Style()
    True
    >>> _style_of("grandmaster")
    Traceback (most recent call last):
    ...
    ValueError: unknown computer level 'grandmaster': choose easy, normal...
    """
    if level not in _STYLES:
        raise ValueError(f"unknown computer level {level!r}: choose {', '.join(LEVELS[:-1])} or {LEVELS[-1]}")
    return _STYLES[level]


# When the hard level holds its opening back: another seat is this close to going out (cards in hand;
# fewer still count once that seat has opened), the seat has had this many turns, or the stock is low.
_NEAR_OUT = 4
_NEAR_OUT_OPENED = 7
_OPEN_BY_TURN = 9
_LOW_STOCK = 12
_CLOSE_TO_OUT = 1
"""Cards left over after the melds at which the hard level opens at once: it goes out this turn."""
_OUT_WEIGHT = 12.0
"""What one live out (a copy of a card that would meld one card more) is worth to the hard level's
discard, in hand points (R2)."""
_THREAT = 5
"""An opened seat with this many cards or fewer may go out any turn: the hard level sheds points."""
_POINTS_BEFORE_OPENING = -1.0
"""How the hard level weighs a left-over card's points before it has opened: negatively, it keeps
the high cards, which reach the opening (R13) with fewer cards and score more on the table (R20)."""
