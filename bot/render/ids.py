"""Custom ids of every button and select: building them, and parsing them back safely.

Two shapes (Discord allows 100 characters):

- public components: ``romme:<game_id>:<action>`` with ``action`` in :data:`PUBLIC_ACTIONS`;
- hand-panel components: ``romme:<game_id>:<action>:<version>[:<arg>]`` with ``action`` in
  :data:`PANEL_ACTIONS`, ``version`` the seat's version when the panel was drawn
  (``Game.seat_version``: it moves only when what the seat sees moves, so a hidden change of another
  seat shows in no id, R13), and ``arg`` the panel's state (:class:`PanelState`):
  ``<sort><mode>.<cards>`` where ``sort`` is ``s`` (by suit) or
  ``r`` (by rank), ``mode`` is empty, ``l`` (choosing a meld to lay off on) or ``w`` (choosing a joker
  to swap), and ``cards`` is the selection, two characters a card (``TH`` is 10♥, ``JK`` a joker).

The panel keeps no memory anywhere else, so a panel still works after a restart.

The wire spellings (the actions ``layoff``, ``swap``, ``takeback``, ``p_draw``, ``p_take``; the mode
letters ``l``, ``w``) are what buttons on messages already sent carry, so they never change; in code a
mode is named by its move's kind (``Move.kind``), and :data:`MODE_OF_ACTION` maps the wire action to
it.

>>> panel_id(7, "meld", 12, PanelState("suit", None, ("10H", "JK", "10H")))
'romme:7:meld:12:s.THJKTH'
>>> parse_custom_id("romme:7:meld:12:s.THJKTH").panel_state().cards
('10H', 'JK', '10H')
>>> parse_custom_id("romme:7:join")
CustomId(game_id=7, action='join', version=None, arg=None)
>>> parse_custom_id("romme:-7:join") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from bot.engine.cards import Card

PREFIX = "romme"
MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom id."""
MAX_SELECTED = 25
"""A select has at most 25 options, so a selection has at most 25 cards."""

PUBLIC_ACTIONS: tuple[str, ...] = (
    "join",
    "leave",
    "add_computer",
    "start",
    "cancel",
    "hand",
    "draw",
    "take",
    "next",
    "again",
    "stop_yes",
)
PANEL_ACTIONS: tuple[str, ...] = (
    "p_draw",
    "p_take",
    "meld",
    "layoff",
    "swap",
    "discard",
    "takeback",
    "hint",
    "sort",
    "select",
    "target",
    "drop",
)

Sort = Literal["suit", "rank"]
Mode = Literal["lay_off", "swap_joker"]
"""A panel choosing the target meld of a move: named by the move's kind."""
_SORT_LETTER: dict[str, str] = {"suit": "s", "rank": "r"}
_MODE_LETTER: dict[Mode | None, str] = {None: "", "lay_off": "l", "swap_joker": "w"}
_LETTER_MODE: dict[str, Mode | None] = {letter: mode for mode, letter in _MODE_LETTER.items()}

MODE_OF_ACTION: dict[str, Mode] = {"layoff": "lay_off", "swap": "swap_joker"}
"""The panel buttons that ask for a target meld (Lay off, Swap joker), by wire action: the mode.

>>> MODE_OF_ACTION["swap"], PanelState("suit", "swap_joker").encode()
('swap_joker', 'sw.')
"""

# A game id and a version are database integers; 12 digits is far beyond any real game and keeps the
# worst-case id inside 100 characters. No sign, no leading zeros: one spelling per id.
_NUMBER = r"(?:0|[1-9][0-9]{0,11})"
_COMPACT_CARD = r"(?:[A2-9TJQK][SHDC]|JK)"
_ARG = rf"(?P<sort>[sr])(?P<mode>[lw]?)\.(?P<cards>{_COMPACT_CARD}{{0,{MAX_SELECTED}}})"


def public_template(actions: Iterable[str] = PUBLIC_ACTIONS) -> str:
    """The regex (for ``DynamicItem``'s ``template``) matching public ids of ``actions``."""
    names = "|".join(re.escape(a) for a in actions)
    return rf"^{PREFIX}:(?P<game_id>{_NUMBER}):(?P<action>{names})\Z"


def panel_template(actions: Iterable[str] = PANEL_ACTIONS) -> str:
    """The regex (for ``DynamicItem``'s ``template``) matching hand-panel ids of ``actions``."""
    names = "|".join(re.escape(a) for a in actions)
    return rf"^{PREFIX}:(?P<game_id>{_NUMBER}):(?P<action>{names}):(?P<version>{_NUMBER})(?::{_ARG})?\Z"


PUBLIC_TEMPLATE = public_template()
"""Every public id: ``romme:<game_id>:<action>``."""
PANEL_TEMPLATE = panel_template()
"""Every hand-panel id: ``romme:<game_id>:<action>:<version>[:<arg>]``."""
PANEL_SELECTS = ("select", "target", "drop")
"""The panel's selects: the card select, the target-meld select, the discard select."""
PANEL_BUTTON_TEMPLATE = panel_template(a for a in PANEL_ACTIONS if a not in PANEL_SELECTS)
"""Hand-panel buttons only (for a ``DynamicItem[Button]``)."""
PANEL_SELECT_TEMPLATE = panel_template(PANEL_SELECTS)
"""Hand-panel selects only (for a ``DynamicItem[Select]``)."""
_PUBLIC_RE = re.compile(PUBLIC_TEMPLATE)
_PANEL_RE = re.compile(PANEL_TEMPLATE)
_ARG_RE = re.compile(rf"^{_ARG}\Z")
_COMPACT_RE = re.compile(_COMPACT_CARD)


def compact_code(card: Card | str) -> str:
    """A card in exactly two characters: ``10H`` → ``TH``; other codes are already two.

    >>> compact_code("10H"), compact_code(Card.parse("qs")), compact_code("JK")
    ('TH', 'QS', 'JK')
    """
    code = str(card if isinstance(card, Card) else Card.parse(card))
    return "T" + code[2:] if code.startswith("10") else code


def expand_code(compact: str) -> str:
    """The card code of a two-character code: ``TH`` → ``10H`` (inverse of :func:`compact_code`)."""
    return "10" + compact[1:] if compact.startswith("T") else compact


@dataclass(frozen=True, slots=True)
class PanelState:
    """What a hand panel shows besides the game: the sort, the selected cards, the meld-choosing mode.

    ``cards`` are card codes (``"10H"``), in the order selected; the same code twice means both copies.
    """

    sort: Sort = "suit"
    mode: Mode | None = None
    cards: tuple[str, ...] = ()

    def encode(self) -> str:
        """The ``arg`` part of a panel id."""
        cards = "".join(map(compact_code, self.cards))
        return f"{_SORT_LETTER[self.sort]}{_MODE_LETTER[self.mode]}.{cards}"

    def with_sort(self, sort: Sort) -> PanelState:
        """The same state sorted by ``sort``."""
        return PanelState(sort, self.mode, self.cards)


def parse_panel_arg(arg: str) -> PanelState | None:
    """The state of a panel id's ``arg``, or ``None`` if it is malformed."""
    match = _ARG_RE.match(arg)
    if match is None:
        return None
    return _state_of(match)


def _state_of(match: re.Match[str]) -> PanelState:
    sort: Sort = "suit" if match["sort"] == "s" else "rank"
    mode = _LETTER_MODE[match["mode"]]
    cards = tuple(expand_code(c) for c in _COMPACT_RE.findall(match["cards"]))
    return PanelState(sort, mode, cards)


@dataclass(frozen=True, slots=True)
class CustomId:
    """A parsed custom id. ``version`` and ``arg`` are ``None`` for public components."""

    game_id: int
    action: str
    version: int | None = None
    arg: str | None = None

    @property
    def is_panel(self) -> bool:
        """Whether this id belongs to a hand panel (it carries a version)."""
        return self.version is not None

    def panel_state(self) -> PanelState:
        """The panel state carried in ``arg`` (the default state when there is none)."""
        if self.arg is None:
            return PanelState()
        state = parse_panel_arg(self.arg)
        if state is None:
            raise ValueError(f"malformed panel state {self.arg!r}")
        return state

    def __str__(self) -> str:
        parts = [PREFIX, str(self.game_id), self.action]
        if self.version is not None:
            parts.append(str(self.version))
            if self.arg is not None:
                parts.append(self.arg)
        return ":".join(parts)


def public_id(game_id: int, action: str) -> str:
    """The custom id of a public button (lobby, table, round end, match end, stop confirmation).

    >>> public_id(42, "hand")
    'romme:42:hand'
    """
    if action not in PUBLIC_ACTIONS:
        raise ValueError(f"not a public action: {action!r}")
    custom_id = f"{PREFIX}:{game_id}:{action}"
    # A valid game id makes a valid public id (the longest is far below 100 characters).
    return custom_id if _is_number(game_id) else _checked(custom_id)


def panel_id(game_id: int, action: str, version: int, state: PanelState) -> str:
    """The custom id of a hand-panel component; raises ``ValueError`` if it would not parse back."""
    if action not in PANEL_ACTIONS:
        raise ValueError(f"not a panel action: {action!r}")
    arg = _encoded(state)
    custom_id = f"{PREFIX}:{game_id}:{action}:{version}:{arg}"
    # A panel draws ten ids of a few states: the parts are checked (the arg once per state) instead
    # of matching every whole id; anything unusual still goes through the full parse.
    if _is_number(game_id) and _is_number(version) and len(custom_id) <= MAX_CUSTOM_ID and _arg_ok(arg):
        return custom_id
    return _checked(custom_id)


def _is_number(value: object) -> bool:
    """``value`` is spelled as ``_NUMBER`` matches: an int (not a bool) from 0 to 12 digits."""
    return type(value) is int and 0 <= value < 10**12


def _encoded(state: PanelState) -> str:
    try:
        return _encoded_once(state)
    except TypeError:  # a state holding a list of cards cannot be a cache key
        return state.encode()


@lru_cache(maxsize=1024)
def _encoded_once(state: PanelState) -> str:
    return state.encode()


@lru_cache(maxsize=1024)
def _arg_ok(arg: str) -> bool:
    return _ARG_RE.match(arg) is not None


def _checked(custom_id: str) -> str:
    if parse_custom_id(custom_id) is None:
        raise ValueError(f"custom id would not parse back: {custom_id!r}")
    return custom_id


def parse_custom_id(custom_id: object) -> CustomId | None:
    """The parts of one of our custom ids, or ``None`` for anything malformed, oversized or foreign.

    >>> parse_custom_id("romme:3:p_draw:9")
    CustomId(game_id=3, action='p_draw', version=9, arg=None)
    >>> parse_custom_id("romme:3:p_draw:9:x.") is None
    True
    """
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        return None
    match = _PUBLIC_RE.match(custom_id)
    if match is not None:
        return CustomId(int(match["game_id"]), match["action"])
    match = _PANEL_RE.match(custom_id)
    if match is None:
        return None
    arg = None if match["sort"] is None else custom_id.rsplit(":", 1)[1]
    return CustomId(int(match["game_id"]), match["action"], int(match["version"]), arg)


# --- select option values -------------------------------------------------------------------------

_OPTION_RE = re.compile(r"^(?P<code>(?:10|[A2-9JQK])[SHDC]|JK)(?:#(?P<copy>[1-9][0-9]?))?\Z")


def card_option_values(codes: Sequence[str]) -> list[str]:
    """Distinct select values for a hand's card codes: the second 7♥ is ``"7H#2"``.

    >>> card_option_values(["7H", "8H", "7H", "JK", "JK", "JK"])
    ['7H', '8H', '7H#2', 'JK', 'JK#2', 'JK#3']
    """
    seen: dict[str, int] = {}
    values = []
    for code in codes:
        seen[code] = seen.get(code, 0) + 1
        values.append(code if seen[code] == 1 else f"{code}#{seen[code]}")
    return values


def cards_from_option_values(values: Iterable[str]) -> list[str] | None:
    """The card codes a card select's chosen values name (``None`` if a value is forged or repeated).

    >>> cards_from_option_values(["7H", "7H#2", "JK"])
    ['7H', '7H', 'JK']
    """
    values = list(values)
    if len(values) > MAX_SELECTED or len(set(values)) != len(values):
        return None
    codes = []
    for value in values:
        match = _OPTION_RE.match(value) if isinstance(value, str) else None
        if match is None:
            return None
        codes.append(match["code"])
    return codes


@dataclass(frozen=True, slots=True)
class Target:
    """A chosen target meld: ``meld_id``; for a lay-off the run end of a joker, for a swap the card."""

    meld_id: str
    end: str | None = None
    card: str | None = None

    def value(self) -> str:
        """The select option value of this target."""
        extra = self.end or self.card
        return self.meld_id if extra is None else f"{self.meld_id}:{extra}"


def lay_off_option(meld_id: str, end: str | None, offered: Sequence[str]) -> str | None:
    """The target option among ``offered`` that lays off on ``meld_id`` as the engine's ``end`` says.

    With a joker on a run the panel names the end (``"m3:high"``); ``end=None`` is the engine's
    default, upward where there is room (R10), so the plain meld, then its high end, then its low end.

    >>> lay_off_option("m3", None, ["m3:high", "m4"])
    'm3:high'
    >>> lay_off_option("m3", "low", ["m3:high", "m3:low"])
    'm3:low'
    >>> lay_off_option("m5", None, ["m3", "m4"]) is None
    True
    """
    wanted = [f"{meld_id}:{end}"] if end else [meld_id, f"{meld_id}:high", f"{meld_id}:low"]
    return next((value for value in wanted if value in offered), None)


_TARGET_RE = re.compile(
    r"^(?P<meld_id>m[1-9][0-9]{0,3})(?::(?:(?P<end>low|high)|(?P<card>(?:10|[A2-9JQK])[SHDC])))?\Z"
)


def parse_target_value(value: object) -> Target | None:
    """The target named by a target select's value, or ``None`` if it is malformed.

    >>> parse_target_value("m3:high")
    Target(meld_id='m3', end='high', card=None)
    >>> parse_target_value("m2:5S")
    Target(meld_id='m2', end=None, card='5S')
    """
    match = _TARGET_RE.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    return Target(match["meld_id"], match["end"], match["card"])
