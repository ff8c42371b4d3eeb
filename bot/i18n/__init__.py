"""The message catalog: every user-facing string, keyed by a stable id, in English, German, Indonesian.

``t(key, **params)`` looks the key up in the catalog of ``locale`` (by default the language being
spoken now, see :func:`speaking`), falls back to English, and formats it with ``params``
(``str.format`` syntax). A key missing from every catalog is a bug: under tests
(``PYTEST_CURRENT_TEST`` set, or ``ROMME_I18N_STRICT=1``) it raises :class:`KeyError`; in
production the key itself is shown and the miss is logged, so a player never gets a crash instead
of a message.

Plurals follow each language's own rules (Babel's CLDR plural rules): a key may have forms
``<key>.one``, ``<key>.other`` … beside its plain text, and the form is chosen by the message's
number (its ``count``, or its only whole-number parameter). German has *one* and *other*,
Indonesian only *other*; a form a catalog does not have falls back to the plain key.

>>> t("button.join")
'Join'
>>> t("lobby.seats", count=2, max=6)
'Seats (2/6)'
>>> with speaking("de"):
...     t("button.join"), t("table.stock", count=1), t("table.stock", count=40)
('Mitspielen', 'Stapel: 1 Karte', 'Stapel: 40 Karten')
>>> t("table.stock", locale="id", count=1)
'Tumpukan undian: 1 kartu'
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import os
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import Any, TypeVar

from babel import Locale

from bot.i18n.de import MESSAGES as DE
from bot.i18n.en import MESSAGES as EN
from bot.i18n.id import MESSAGES as ID

log = logging.getLogger(__name__)

DEFAULT_LOCALE = "en"
LOCALES: tuple[str, ...] = ("en", "de", "id")
"""The languages the bot speaks, English first (the fallback)."""
CATALOGS: dict[str, Mapping[str, str]] = {"en": EN, "de": DE, "id": ID}
"""Catalog per locale; a translation adds ``bot/i18n/<locale>.py``, an entry here and in :data:`LOCALES`."""
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
"""CLDR plural categories: the suffixes a plural form of a key may carry."""

_strict: bool | None = None
_speaking: contextvars.ContextVar[str] = contextvars.ContextVar("romme_locale", default=DEFAULT_LOCALE)

R = TypeVar("R")


def set_strict(strict: bool | None) -> None:
    """Force strict lookups on (``True``) or off (``False``); ``None`` restores the automatic choice."""
    global _strict
    _strict = strict


def is_strict() -> bool:
    """Whether a missing key or parameter raises instead of degrading (tests) or not (production)."""
    if _strict is not None:
        return _strict
    return os.environ.get("ROMME_I18N_STRICT") == "1" or "PYTEST_CURRENT_TEST" in os.environ


def locale_of(value: object) -> str:
    """The bot's language for a Discord locale (``discord.Locale`` or its value): ``en-US`` and
    ``en-GB`` are English, ``de`` German, ``id`` Indonesian; any other (or none) is English.

    >>> locale_of("de"), locale_of("en-GB"), locale_of("id"), locale_of("fr"), locale_of(None)
    ('de', 'en', 'id', 'en', 'en')
    """
    text = str(getattr(value, "value", value) or "")
    base = text.replace("_", "-").split("-")[0].lower()
    return base if base in CATALOGS else DEFAULT_LOCALE


def current_locale() -> str:
    """The language :func:`t` speaks when no ``locale`` is passed (English unless :func:`speaking`).

    >>> current_locale()
    'en'
    """
    return _speaking.get()


@contextlib.contextmanager
def speaking(locale: object) -> Iterator[str]:
    """Within the block, :func:`t` (and every renderer) speaks ``locale`` (see :func:`locale_of`).

    >>> with speaking("id"):
    ...     current_locale(), t("button.draw")
    ('id', 'Ambil kartu')
    >>> current_locale()
    'en'
    """
    token = _speaking.set(locale_of(locale))
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


def speaks_to_user(
    func: Callable[..., Coroutine[Any, Any, R]],
) -> Callable[..., Coroutine[Any, Any, R]]:
    """Decorate a handler ``(self, interaction, ...)``: it runs speaking the clicker's language
    (``interaction.locale``); a public message it draws sets the game's language itself."""

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: Any, *args: Any, **kwargs: Any) -> R:
        with speaking(getattr(interaction, "locale", None)):
            return await func(self, interaction, *args, **kwargs)

    return wrapper


def has(key: str, locale: str | None = None) -> bool:
    """Whether ``key`` has a text in ``locale`` or in the English fallback."""
    return key in CATALOGS.get(locale or current_locale(), {}) or key in CATALOGS[DEFAULT_LOCALE]


@functools.cache
def _plural_rule(locale: str) -> Callable[[float], str]:
    return Locale.parse(locale).plural_form


@functools.lru_cache(maxsize=4096)
def plural_category(locale: str, number: int) -> str:
    """The CLDR plural category of ``number`` in ``locale``.

    >>> plural_category("en", 1), plural_category("de", 2), plural_category("id", 1)
    ('one', 'other', 'other')
    """
    return _plural_rule(locale)(abs(number))


def _number(params: Mapping[str, object]) -> int | None:
    """The number a message's plural form follows: ``count``, else its only whole number."""
    count = params.get("count")
    if count is not None:
        return count if type(count) is int else None
    found = None
    for value in params.values():
        if type(value) is int:  # not a bool
            if found is not None:
                return None
            found = value
    return found


_plural_bases: dict[str, tuple[Mapping[str, str], frozenset[str]]] = {}


def _with_plurals(locale: str, catalog: Mapping[str, str]) -> frozenset[str]:
    """The keys of ``catalog`` that have plural forms (worked out once per catalog of a locale)."""
    cached = _plural_bases.get(locale)
    if cached is not None and cached[0] is catalog and len(cached[0]) == len(catalog):
        return cached[1]
    found = frozenset(
        base for key in catalog if (parts := key.rpartition("."))[2] in PLURAL_FORMS and (base := parts[0])
    )
    _plural_bases[locale] = (catalog, found)
    return found


def _template(key: str, locale: str, params: Mapping[str, object]) -> str | None:
    for catalog_locale in (locale, DEFAULT_LOCALE):
        catalog = CATALOGS.get(catalog_locale, {})
        if params and key in _with_plurals(catalog_locale, catalog):
            number = _number(params)
            if number is not None:
                form = catalog.get(f"{key}.{plural_category(catalog_locale, number)}")
                if form is not None:
                    return form
        template = catalog.get(key)
        if template is not None:
            return template
    return None


def t(key: str, locale: str | None = None, **params: object) -> str:
    """The text of ``key`` in ``locale`` (default :func:`current_locale`; English when the locale
    lacks it), in the plural form its number asks for, formatted with ``params``.

    >>> t("table.stock", count=40)
    'Stock: 40 cards'
    >>> t("table.stock", count=1)
    'Stock: 1 card'
    """
    locale = locale or current_locale()
    template = _template(key, locale, params)
    if template is None:
        if is_strict():
            raise KeyError(f"no message {key!r} in the catalog (locale {locale!r})")
        log.error("i18n: no message %r (locale %r)", key, locale)
        return key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError) as exc:
        if is_strict():
            raise KeyError(f"message {key!r} cannot be formatted with {sorted(params)}: {exc!r}") from exc
        log.error("i18n: message %r cannot be formatted with %s: %r", key, sorted(params), exc)
        return template


def computer_name(number: int, locale: str | None = None) -> str:
    """The name of computer seat ``number`` in ``locale`` (default: the language spoken now).

    >>> computer_name(2), computer_name(2, "de"), computer_name(2, "id")
    ('Computer 2', 'Computer 2', 'Komputer 2')
    """
    return t("seat.computer", locale, number=number)


def seat_display_name(name: str, *, computer: bool, user_id: int | None) -> str:
    """What a seat is called on screen: a person's own name; a computer seat's name in the reader's
    language, from its number (a computer seat is saved as ``"Computer N"``, its kind and number).

    >>> seat_display_name("Ada", computer=False, user_id=7)
    'Ada'
    >>> with speaking("id"):
    ...     seat_display_name("Computer 3", computer=True, user_id=None)
    'Komputer 3'
    """
    if user_id is None and computer:
        number = name.rpartition(" ")[2]
        if number.isdigit():
            return computer_name(int(number))
    return name


def language_name(locale: str) -> str:
    """The name of a language in itself, whatever language is spoken.

    >>> with speaking("de"):
    ...     [language_name(locale) for locale in LOCALES]
    ['English', 'Deutsch', 'Bahasa Indonesia']
    """
    return t("language.name", locale)


__all__ = [
    "CATALOGS",
    "DEFAULT_LOCALE",
    "LOCALES",
    "computer_name",
    "current_locale",
    "has",
    "is_strict",
    "language_name",
    "locale_of",
    "plural_category",
    "seat_display_name",
    "set_strict",
    "speaking",
    "speaks_to_user",
    "t",
]
