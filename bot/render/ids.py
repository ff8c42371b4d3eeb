"""Custom ids of every button and select: building them, and parsing them back safely.

Every kind of id is a :class:`Family`, declared once beside what draws it (the games' here, the
replay viewer's in :mod:`bot.render.replay`, the leaderboard's in :mod:`bot.render.ratings`, the
private panels' in :mod:`bot.render.settings`); :data:`FAMILIES` lists them all, and the cogs'
register (:data:`cogs.components.REGISTER`) names the handler of each. The games' ids have two
shapes (Discord allows 100 characters):

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
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, Literal, TypeVar

import discord

from bot.engine.cards import Card

PREFIX = "romme"
"""The prefix of every id that names a game (the replay viewer's too)."""
MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom id."""
MAX_SELECTED = 25
"""A select has at most 25 options, so a selection has at most 25 cards."""

T = TypeVar("T")
"""What a family's parser makes of an id."""
BUTTON = discord.ComponentType.button
"""The kind of component most families are drawn on."""
STRING_SELECT = discord.ComponentType.string_select
"""The kind of the hand panel's and the replay viewer's selects."""


@dataclass(frozen=True, eq=False)
class Family(Generic[T]):
    """One family of custom ids, declared once: its name, its layout (the prefix and the fields),
    each field's grammar, the kind of component its ids are drawn on, and what a parsed id is.

    ``layout`` is a ``str.format`` pattern whose literal text is the wire spelling; a field's grammar
    is a regex, or a tuple of words (its action words, in the order the bot draws them). ``tail`` is
    an optional regex after the fields (the hand panel's state). The builder (:meth:`build`) and the
    parser (:meth:`parse`, via ``read``) both follow from it, so the two can never disagree; the
    cogs' register (:data:`cogs.components.REGISTER`) names the handler of each family. Every family
    made is listed in :data:`FAMILIES`, in the order declared (unless ``listed`` is false).

    >>> pages = Family("pages", "demo:{owner}:{what}", {"owner": "[0-9]{1,3}", "what": ("next",)},
    ...                read=lambda found: int(found["owner"]), listed=False)
    >>> pages.build(owner=12), pages.parse("demo:12:next"), pages.parse("demo:12:back")
    ('demo:12:next', 12, None)
    >>> pages.words("what"), pages.fields
    (('next',), ('owner', 'what'))
    """

    name: str
    layout: str
    grammar: Mapping[str, str | tuple[str, ...]]
    read: Callable[[re.Match[str]], T]
    """What a parsed id is, from the match of its fields."""
    kinds: tuple[discord.ComponentType, ...] = (BUTTON,)
    """The kinds of component its ids are drawn on: the same id on another kind is forged."""
    tail: str = ""
    listed: bool = True
    """Listed in :data:`FAMILIES` (false for a grammar that only groups others, or a doctest's)."""
    template: str = field(init=False)
    """The regex (for matching, as discord.py matches a ``DynamicItem``'s: ``fullmatch``)."""
    fields: tuple[str, ...] = field(init=False)
    """The fields' names, in the order of the layout."""
    _compiled: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        parts, names = ["^"], []
        for literal, name, _spec, _conversion in _FORMATTER.parse(self.layout):
            parts.append(re.escape(literal))
            if name is not None:
                names.append(name)
                parts.append(f"(?P<{name}>{self._regex(name)})")
        parts.append(self.tail + r"\Z")
        object.__setattr__(self, "template", "".join(parts))
        object.__setattr__(self, "fields", tuple(names))
        object.__setattr__(self, "_compiled", re.compile(self.template))
        if self.listed:
            FAMILIES.append(self)

    def _regex(self, name: str) -> str:
        spelled = self.grammar[name]
        if isinstance(spelled, str):
            return spelled
        return "|".join(re.escape(word) for word in spelled)

    @property
    def prefix(self) -> str:
        """What every id of the family starts with (its literal text before the first field)."""
        return self.layout.split("{", 1)[0].rstrip(":")

    @property
    def pattern(self) -> re.Pattern[str]:
        """:attr:`template`, compiled."""
        return self._compiled

    def words(self, name: str) -> tuple[str, ...]:
        """The words field ``name`` takes (the family's action words); none for a free field."""
        spelled = self.grammar[name]
        return () if isinstance(spelled, str) else spelled

    def match(self, custom_id: object) -> re.Match[str] | None:
        """The match of ``custom_id`` whole, or ``None`` (not a string, too long, another shape)."""
        if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
            return None
        return self.pattern.match(custom_id)

    def parse(self, custom_id: object) -> T | None:
        """What ``custom_id`` says, read by the family, or ``None`` if it is not one of its ids."""
        found = self.match(custom_id)
        return None if found is None else self.read(found)

    def build(self, **values: object) -> str:
        """The id of these field values (a field of one word may be left out); raises ``ValueError``
        if it would not parse back."""
        for name in self.fields:
            if name not in values and len(self.words(name)) == 1:
                values[name] = self.words(name)[0]
        custom_id = self.layout.format(**values)
        if self.match(custom_id) is None:
            raise ValueError(f"custom id would not parse back as {self.name}: {custom_id!r}")
        return custom_id


FAMILIES: list[Family[Any]] = []
"""Every family of custom ids the bot draws, in the order declared (one module each: this one for
the games, :mod:`bot.render.replay`, :mod:`bot.render.ratings`, :mod:`bot.render.settings`)."""
_FORMATTER = string.Formatter()

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
NUMBER = r"(?:0|[1-9][0-9]{0,11})"
"""A game id, a version, a replay's step in an id: no sign, no leading zero, at most 12 digits."""
_COMPACT_CARD = r"(?:[A2-9TJQK][SHDC]|JK)"
_ARG = rf"(?P<sort>[sr])(?P<mode>[lw]?)\.(?P<cards>{_COMPACT_CARD}{{0,{MAX_SELECTED}}})"


def _custom_id_of(found: re.Match[str]) -> CustomId:
    """The parts of a game's id (public or hand panel) as its family matched them."""
    if "version" not in found.re.groupindex:
        return CustomId(int(found["game_id"]), found["action"])
    arg = None if found["sort"] is None else found.string.rsplit(":", 1)[1]
    return CustomId(int(found["game_id"]), found["action"], int(found["version"]), arg)


def public_family(name: str, actions: tuple[str, ...], *, listed: bool = True) -> Family[CustomId]:
    """A family of public game buttons: ``romme:<game_id>:<action>``."""
    return Family(
        name,
        PREFIX + ":{game_id}:{action}",
        {"game_id": NUMBER, "action": actions},
        read=_custom_id_of,
        listed=listed,
    )


def panel_family(
    name: str, actions: tuple[str, ...], kind: discord.ComponentType, *, listed: bool = True
) -> Family[CustomId]:
    """A family of hand-panel components: ``romme:<game_id>:<action>:<version>[:<arg>]``."""
    return Family(
        name,
        PREFIX + ":{game_id}:{action}:{version}",
        {"game_id": NUMBER, "action": actions, "version": NUMBER},
        read=_custom_id_of,
        kinds=(kind,),
        tail=f"(?::{_ARG})?",
        listed=listed,
    )


JOIN = public_family("join", ("join",))
"""The lobby's Join."""
LEAVE = public_family("leave", ("leave",))
"""The lobby's Leave."""
ADD_COMPUTER = public_family("add_computer", ("add_computer",))
"""The lobby's Add computer."""
START = public_family("start", ("start",))
"""The lobby's Start."""
CANCEL = public_family("cancel", ("cancel",))
"""The lobby's Cancel."""
HAND = public_family("hand", ("hand",))
"""My hand, on the public table."""
TABLE_MOVE = public_family("table_move", ("draw", "take"))
"""Draw, Take discard, on the public table."""
ROUND_END = public_family("round_end", ("next",))
"""Next round."""
MATCH_END = public_family("match_end", ("again",))
"""Play again."""
STOP = public_family("stop", ("stop_yes",))
"""The confirmation of ``/romme stop`` (on the stopper's ephemeral message)."""
PANEL_BUTTON = panel_family(
    "panel_button",
    ("p_draw", "p_take", "meld", "layoff", "swap", "discard", "takeback", "hint", "sort"),
    BUTTON,
)
"""A hand-panel button: Draw, Take discard, Meld, Lay off, Swap joker, Discard, Take back, Hint, Sort."""
PANEL_SELECT = panel_family("panel_select", ("select", "target", "drop"), STRING_SELECT)
"""The panel's selects: the card select, the target-meld select, the discard select."""
PUBLIC_FAMILIES = (JOIN, LEAVE, ADD_COMPUTER, START, CANCEL, HAND, TABLE_MOVE, ROUND_END, MATCH_END, STOP)
"""The families of the games' public buttons."""
PANEL_FAMILIES = (PANEL_BUTTON, PANEL_SELECT)
"""The families of the hand panel's components."""
PANEL_SELECTS = PANEL_SELECT.words("action")
"""The panel's selects' action words."""

PUBLIC_ACTIONS: tuple[str, ...] = tuple(a for family in PUBLIC_FAMILIES for a in family.words("action"))
"""Every public action word, as its family declares it."""
PANEL_ACTIONS: tuple[str, ...] = tuple(a for family in PANEL_FAMILIES for a in family.words("action"))
"""Every hand-panel action word, as its family declares it."""

_ANY_PUBLIC = public_family("public", PUBLIC_ACTIONS, listed=False)
_ANY_PANEL = panel_family("panel", PANEL_ACTIONS, BUTTON, listed=False)
PUBLIC_TEMPLATE = _ANY_PUBLIC.template
"""Every public id: ``romme:<game_id>:<action>``."""
PANEL_TEMPLATE = _ANY_PANEL.template
"""Every hand-panel id: ``romme:<game_id>:<action>:<version>[:<arg>]``."""
PANEL_BUTTON_TEMPLATE = PANEL_BUTTON.template
"""Hand-panel buttons only."""
PANEL_SELECT_TEMPLATE = PANEL_SELECT.template
"""Hand-panel selects only."""
_PUBLIC_RE = _ANY_PUBLIC.pattern
_PANEL_RE = _ANY_PANEL.pattern
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
    custom_id = _ANY_PUBLIC.layout.format(game_id=game_id, action=action)
    # A valid game id makes a valid public id (the longest is far below 100 characters).
    return custom_id if _is_number(game_id) else _checked(custom_id)


def panel_id(game_id: int, action: str, version: int, state: PanelState) -> str:
    """The custom id of a hand-panel component; raises ``ValueError`` if it would not parse back."""
    if action not in PANEL_ACTIONS:
        raise ValueError(f"not a panel action: {action!r}")
    arg = _encoded(state)
    custom_id = _ANY_PANEL.layout.format(game_id=game_id, action=action, version=version) + ":" + arg
    # A panel draws ten ids of a few states: the parts are checked (the arg once per state) instead
    # of matching every whole id; anything unusual still goes through the full parse.
    if _is_number(game_id) and _is_number(version) and len(custom_id) <= MAX_CUSTOM_ID and _arg_ok(arg):
        return custom_id
    return _checked(custom_id)


def _is_number(value: object) -> bool:
    """``value`` is spelled as :data:`NUMBER` matches: an int (not a bool) from 0 to 12 digits."""
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
