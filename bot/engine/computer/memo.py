"""What the computer players remember between moves: bounded memos, and the facts of table melds.

Views repeat a lot from move to move (the same rules, table melds, hands), so parsing and solving
are memoised; a table meld's facts (which cards fit it, which take a joker's place) depend on the
meld alone, so every player shares them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from bot.engine.cards import Card
from bot.engine.meld import Meld
from bot.engine.table import TableMeld

_CACHE_SIZE = 4096
_ROUND_CACHE_SIZE = 1024
"""A player's memos of one round's hands and table melds hold at most this many (then start over)."""
K = TypeVar("K")
V = TypeVar("V")


class _Memo(Generic[K, V]):
    """A dict of computed values that forgets everything once it holds ``size`` of them."""

    def __init__(self, size: int = _CACHE_SIZE) -> None:
        self.size = size
        self.values: dict[K, V] = {}

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value of ``key``, computed by ``compute`` the first time."""
        try:
            return self.values[key]
        except KeyError:
            if len(self.values) >= self.size:
                self.values.clear()
            value = self.values[key] = compute()
            return value

    def clear(self) -> None:
        """Forget every value."""
        self.values.clear()


class _MeldFacts:
    """A table meld's cards, and what the player learnt about them: which cards can be laid off on it
    and which can take a joker's place. Both depend on the meld alone, so every player shares them."""

    __slots__ = ("fits", "meld", "replaces")

    def __init__(self, meld: Meld) -> None:
        self.meld = meld
        self.fits: dict[Card, bool] = {}
        self.replaces: dict[Card, bool] = {}


def _learnt(known: dict[Card, bool], card: Card, attempt: Callable[[], object]) -> bool:
    """Whether ``attempt`` with ``card`` succeeds, tried the first time and then read from ``known``."""
    answer = known.get(card)
    if answer is None:
        try:
            attempt()
            answer = True
        except ValueError:
            answer = False
        known[card] = answer
    return answer


_MELD_FACTS: _Memo[tuple[str, tuple[str, ...], tuple[str, ...]], _MeldFacts] = _Memo(_CACHE_SIZE)
"""By a table entry's kind, cards and stands-for codes (views as dicts)."""
_TABLE_FACTS: dict[int, tuple[TableMeld, _MeldFacts]] = {}
"""By identity of a typed view's table meld, the meld held so that its id is not reused: a table meld
never changes (a lay-off or swap puts a new one in its place), so its facts are found without
hashing its cards."""
_FACTS_BY_MELD: _Memo[Meld, _MeldFacts] = _Memo(_CACHE_SIZE)
"""By the meld itself, for a table meld seen for the first time."""


def _facts_of(tm: TableMeld) -> _MeldFacts:
    """The facts of a typed view's table meld ``tm``."""
    known = _TABLE_FACTS.get(id(tm))
    if known is None:
        if len(_TABLE_FACTS) >= _CACHE_SIZE:
            _TABLE_FACTS.clear()
        facts = _FACTS_BY_MELD.get(tm.meld, lambda: _MeldFacts(tm.meld))
        known = _TABLE_FACTS[id(tm)] = (tm, facts)
    return known[1]
