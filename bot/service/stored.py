"""How the service's plain-data classes save to JSON-ready dicts and come back, from their fields.

Each field of a saved dataclass (:class:`~bot.service.game.Game`, ``Seat``, ``TurnEvent``) says in its
metadata (:func:`stored`) what differs from the plain case: its key in the saved dict, how its value
is saved and read back, what an older save without the key gives, and whether the key is left out
at its default. A :class:`Codec` reads that once per class and makes the two functions that save and
read back. A field is stated once: adding one to the class saves and restores it.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Pile:
...     name: str
...     cards: list[str] = field(default_factory=list, metadata=stored(save=list, load=list))
...     size: int = field(default=0, metadata=stored(key="n", missing=1))
>>> codec = Codec(Pile)
>>> codec.save(Pile("stock", ["7H"], 3))
{'name': 'stock', 'cards': ['7H'], 'n': 3}
>>> codec.load({"name": "stock"})
Pile(name='stock', cards=[], size=1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

REQUIRED: Final = object()
"""``missing`` for a key every save has: reading one without it raises ``KeyError``."""
DEFAULT: Final = object()
"""``missing`` for a key an older save may lack: it reads as the field's default."""

Convert = Callable[[Any], Any]
T = TypeVar("T", bound="DataclassInstance")


@dataclass(frozen=True, slots=True)
class Stored:
    """How one field is saved (the ``"stored"`` entry of the field's metadata; see :func:`stored`)."""

    key: str | None = None
    """The key in the saved dict; ``None``: the field's name."""
    save: Convert | None = None
    """The field's value to its JSON-ready form; ``None``: as it is."""
    load: Convert | None = None
    """The saved form back to the field's value, also applied to ``missing``; ``None``: as it is."""
    missing: Any = DEFAULT
    """What a save without the key reads as: :data:`DEFAULT` (the field's default, :data:`REQUIRED`
    for a field without one), :data:`REQUIRED`, or a value."""
    omit_default: bool = False
    """The key is left out while the field is at its default (a key added later: saves made at its
    default stay as they were)."""
    in_state: bool = True
    """Part of :meth:`Codec.save`; ``False`` for a field the owner saves itself (a game's match)."""


def stored(
    *,
    key: str | None = None,
    save: Convert | None = None,
    load: Convert | None = None,
    missing: Any = DEFAULT,
    omit_default: bool = False,
    in_state: bool = True,
    setting: bool = False,
) -> dict[str, Any]:
    """A field's metadata: how it is saved (:class:`Stored`), and with ``setting`` that it is a
    setting of the lobby that Play again keeps (see :func:`settings_of`).

    >>> stored(key="game_version")["stored"].key
    'game_version'
    """
    meta: dict[str, Any] = {"stored": Stored(key, save, load, missing, omit_default, in_state)}
    if setting:
        meta["setting"] = True
    return meta


def settings_of(obj: Any) -> dict[str, Any]:
    """The fields of dataclass ``obj`` marked ``setting`` (:func:`stored`), by name.

    >>> from dataclasses import dataclass, field
    >>> @dataclass
    ... class Lobby:
    ...     host: int
    ...     language: str = field(default="en", metadata=stored(setting=True))
    >>> settings_of(Lobby(7, "de"))
    {'language': 'de'}
    """
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.metadata.get("setting")}


class Codec(Generic[T]):
    """Saves instances of dataclass ``cls`` to dicts and reads them back, field by field, as the
    fields' :func:`stored` metadata says (a field without it is saved as it is, under its name). A
    field that is not an ``__init__`` argument is not saved. ``head``: keys every saved dict begins
    with (a format number).

    :attr:`save` and :attr:`load` are made once per class from the fields, as ``dataclasses`` makes
    ``__init__``: a dict literal and a constructor call, as fast as the ones written by hand that they
    replace (a loop over the fields took two to three times as long, and the table's state is saved
    after every move). :attr:`source` is their code.

    >>> from dataclasses import field
    >>> @dataclass
    ... class Mark:
    ...     seat: int
    ...     tag: str = field(default="", metadata=stored(omit_default=True))
    >>> print(Codec(Mark, head={"version": 1}).source.splitlines()[1])
        data = {'version': _head0, 'seat': obj.seat, 'tag': obj.tag}
    >>> Codec(Mark).save(Mark(3))
    {'seat': 3}
    """

    __slots__ = ("keys", "load", "save", "source")

    def __init__(self, cls: type[T], head: Mapping[str, Any] | None = None) -> None:
        plain = Stored()
        fields = [(f, f.metadata.get("stored", plain)) for f in dataclasses.fields(cls) if f.init]
        self.keys: dict[str, str] = {f.name: how.key or f.name for f, how in fields}
        """Every saved field's key, by the field's name, in the fields' order."""
        scope: dict[str, Any] = {"_cls": cls}
        self.source = "\n".join(
            [*_save_code(fields, self.keys, head or {}, scope), *_load_code(fields, self.keys, scope)]
        )
        """The code of :attr:`save` and :attr:`load`."""
        # Code made here, of the class's field names and keys, as dataclasses makes __init__.
        exec(self.source, scope)
        self.save: Callable[[T], dict[str, Any]] = scope["save"]
        """``obj``'s fields (but those not ``in_state``) as a JSON-ready dict, in the fields' order
        (after ``head``)."""
        self.load: Callable[[Mapping[str, Any]], T] = scope["load"]
        """The object ``data`` was saved from (:attr:`save`); a key missing from an older save reads
        as its field says (``KeyError`` for a required one)."""

    def save_all(self, objs: list[T]) -> list[dict[str, Any]]:
        """:attr:`save` of each of ``objs``, in order: the save of a field holding a list of them.

        >>> @dataclass
        ... class Mark:
        ...     seat: int
        >>> Codec(Mark).save_all([Mark(1), Mark(2)])
        [{'seat': 1}, {'seat': 2}]
        """
        save = self.save
        return [save(obj) for obj in objs]

    def load_all(self, data: list[Mapping[str, Any]]) -> list[T]:
        """:attr:`load` of each of ``data``, in order (the reverse of :meth:`save_all`).

        >>> @dataclass
        ... class Mark:
        ...     seat: int
        >>> Codec(Mark).load_all([{"seat": 1}])
        [Mark(seat=1)]
        """
        load = self.load
        return [load(item) for item in data]


Fields = list[tuple[dataclasses.Field[Any], Stored]]


def _save_code(
    fields: Fields, keys: dict[str, str], head: Mapping[str, Any], scope: dict[str, Any]
) -> list[str]:
    """The lines of ``save(obj)``: one dict literal, then the keys left out at their default."""
    items = []
    for index, (name, value) in enumerate(head.items()):
        scope[f"_head{index}"] = value
        items.append(f"{name!r}: _head{index}")
    omits = []
    for index, (f, how) in enumerate(fields):
        key = keys[f.name]
        if how.in_state:
            value = f"obj.{f.name}"
            if how.save is not None:
                scope[f"_save{index}"] = how.save
                value = f"_save{index}({value})"
            items.append(f"{key!r}: {value}")
        if how.omit_default:
            scope[f"_default{index}"] = f.default
            omits += [f"    if obj.{f.name} == _default{index}:", f"        del data[{key!r}]"]
    return ["def save(obj):", f"    data = {{{', '.join(items)}}}", *omits, "    return data"]


def _load_code(fields: Fields, keys: dict[str, str], scope: dict[str, Any]) -> list[str]:
    """The lines of ``load(data)``: one call of the class."""
    arguments = []
    for index, (f, how) in enumerate(fields):
        read = _read(f, how, keys[f.name], index, scope)
        if how.load is not None:
            scope[f"_load{index}"] = how.load
            read = f"_load{index}({read})"
        arguments.append(f"{f.name}={read}")
    return ["def load(data):", f"    return _cls({', '.join(arguments)})"]


def _read(f: dataclasses.Field[Any], how: Stored, key: str, index: int, scope: dict[str, Any]) -> str:
    """The expression that reads ``f`` from ``data``, with what an older save without ``key`` gives."""
    missing = how.missing
    if missing is DEFAULT:
        if f.default_factory is not dataclasses.MISSING:
            # Made anew at each read: a default list is not shared between objects.
            scope[f"_missing{index}"] = f.default_factory
            return f"(data[{key!r}] if {key!r} in data else _missing{index}())"
        missing = REQUIRED if f.default is dataclasses.MISSING else f.default
    if missing is REQUIRED:
        return f"data[{key!r}]"
    scope[f"_missing{index}"] = missing
    return f"data.get({key!r}, _missing{index})"


__all__ = ["DEFAULT", "REQUIRED", "Codec", "Stored", "settings_of", "stored"]
