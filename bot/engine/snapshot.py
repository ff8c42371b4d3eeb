"""JSON-ready snapshots of a round: the saved state, exact, secrets and random state included (what
one seat may see is :mod:`bot.engine.views`)."""

from __future__ import annotations

import base64
import binascii
import random
import struct
from typing import TYPE_CHECKING, Any

from bot.engine.cards import Card, card_codes, parse_cards
from bot.engine.history import PublicEvent
from bot.engine.meld import Meld
from bot.engine.moves import Phase
from bot.engine.rules import RuleSet
from bot.engine.table import TableMeld

if TYPE_CHECKING:
    from bot.engine.round import Round

SNAPSHOT_VERSION = 2
"""The version :func:`round_to_dict` and ``Match.to_dict`` write. Version 1 (still read) kept the
generator as a list of 625 integers, and a match kept it twice: once more inside its round."""
READABLE_VERSIONS = frozenset({1, SNAPSHOT_VERSION})
"""The snapshot versions :func:`check_version` lets through: this code's and the older one."""

_MT_WORDS = 624
_MT_FORMAT = f"<{_MT_WORDS}I"


def rng_state(rng: random.Random) -> dict[str, Any] | None:
    """The state of a plain ``random.Random``, JSON-ready and compact: its 624 Mersenne-Twister words
    packed little-endian in base64 (about half the size of a list of numbers), their index and the
    spare Gaussian. ``None`` for any other source (``random.SystemRandom`` has no state to save).

    >>> rng = random.Random(7)
    >>> state = rng_state(rng)
    >>> sorted(state), len(state["words"])
    (['gauss_next', 'index', 'version', 'words'], 3328)
    >>> rng_from_state(state).random() == rng.random()
    True
    """
    if type(rng) is not random.Random:
        return None
    version, internal, gauss_next = rng.getstate()
    words = struct.pack(_MT_FORMAT, *internal[:_MT_WORDS])
    return {
        "version": version,
        "words": base64.b64encode(words).decode("ascii"),
        "index": internal[_MT_WORDS],
        "gauss_next": gauss_next,
    }


def rng_from_state(state: dict[str, Any] | list[Any] | None) -> random.Random:
    """The generator of :func:`rng_state`; ``None`` gives a fresh ``random.SystemRandom()``.

    Also reads the list that version 1 snapshots hold: ``[version, [625 integers], gauss_next]``.

    >>> old = random.Random(7)
    >>> version, internal, gauss_next = old.getstate()
    >>> rng_from_state([version, list(internal), gauss_next]).random() == old.random()
    True
    """
    if state is None:
        return random.SystemRandom()
    if isinstance(state, list):
        version, internal, gauss_next = state
    else:
        try:
            words = struct.unpack(_MT_FORMAT, base64.b64decode(state["words"], validate=True))
        except (binascii.Error, struct.error) as error:
            raise ValueError(f"not a saved random state: {error}") from None
        version, internal, gauss_next = state["version"], (*words, state["index"]), state["gauss_next"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss_next))
    return rng


def check_version(data: dict[str, Any], what: str) -> None:
    """Refuse a snapshot of a version this code cannot read (it reads its own and older ones)."""
    if data.get("version") not in READABLE_VERSIONS:
        raise ValueError(f"cannot read a {what} snapshot of version {data.get('version')!r}")


def _code(card: Card | None) -> str | None:
    return None if card is None else str(card)


_EVENT_TEXTS_SIZE = 8192
_event_texts: dict[int, tuple[PublicEvent, str]] = {}


def _event_text(event: PublicEvent) -> str:
    """``event.to_text()``, made once per event: a round is saved after every move, with its whole
    history, and an event never changes (keyed by identity, the event held so its id is not reused)."""
    known = _event_texts.get(id(event))
    if known is None:
        if len(_event_texts) >= _EVENT_TEXTS_SIZE:
            _event_texts.clear()
        known = _event_texts[id(event)] = (event, event.to_text())
    return known[1]


def round_to_dict(rnd: Round, *, with_rng: bool = True) -> dict[str, Any]:
    """Everything :func:`round_from_dict` needs to rebuild ``rnd`` exactly. A match leaves out the
    generator (``with_rng=False``): its round shares the match's, which the match saves once."""
    data = {
        "version": SNAPSHOT_VERSION,
        "rules": rnd.rules.to_dict(),
        "n_seats": rnd.n_seats,
        "dealer": rnd.dealer,
        "to_play": rnd.to_play,
        "phase": str(rnd.phase),
        "hands": [card_codes(hand) for hand in rnd._hands],
        "pending": [[meld.to_dict() for meld in melds] for melds in rnd._pending],
        "table": [tm.to_dict() for tm in rnd._table],
        "stock": card_codes(rnd._stock),
        "discard": card_codes(rnd._discard),
        "opened": list(rnd._opened),
        "opened_turn": list(rnd._opened_turn),
        "reshuffles": rnd.reshuffles,
        "taken_from_discard": _code(rnd.taken_from_discard),
        "turn_no": rnd.turn_no,
        "move_no": rnd.move_no,
        "hidden_moves": list(rnd._hidden_moves),
        "next_id": rnd._next_id,
        "out": rnd.out,
        "hand_romme": rnd._hand_romme,
        "history": [_event_text(event) for event in rnd._history],
    }
    if with_rng:
        data["rng"] = rng_state(rnd._rng)
    return data


def round_from_dict(cls: type[Round], data: dict[str, Any], rng: random.Random | None) -> Round:
    """The round of :func:`round_to_dict`; ``rng`` replaces the saved generator when given (a match's
    round saves none since version 2; one of version 1 holds a copy, which is not read)."""
    check_version(data, "round")
    if rng is None and "rng" not in data:
        raise ValueError("this round was saved inside a match: restore it with the match's generator")
    rnd = cls(
        rules=RuleSet.from_dict(data["rules"]),
        hands=[parse_cards(hand) for hand in data["hands"]],
        stock=parse_cards(data["stock"]),
        discard=parse_cards(data["discard"]),
        dealer=data["dealer"],
        to_play=data["to_play"],
        rng=rng if rng is not None else rng_from_state(data["rng"]),
    )
    rnd.phase = Phase(data["phase"])
    rnd._pending = [[Meld.from_dict(m) for m in melds] for melds in data["pending"]]
    rnd._table = [TableMeld.from_dict(tm) for tm in data["table"]]
    rnd._opened = list(data["opened"])
    rnd._opened_turn = list(data["opened_turn"])
    rnd.reshuffles = data["reshuffles"]
    taken = data["taken_from_discard"]
    rnd.taken_from_discard = None if taken is None else Card.parse(taken)
    rnd.turn_no = data["turn_no"]
    rnd.move_no = data["move_no"]
    # Snapshots written before hidden moves were counted hold none.
    rnd._hidden_moves = list(data.get("hidden_moves", [0] * rnd.n_seats))
    rnd._next_id = data["next_id"]
    rnd.out = data["out"]
    rnd._hand_romme = data["hand_romme"]
    # Snapshots written before the round kept its public history hold none: it starts empty.
    rnd._history = [PublicEvent.from_text(event) for event in data.get("history", [])]
    return rnd
