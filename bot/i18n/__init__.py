"""The message catalog: every user-facing string, keyed by a stable id.

``t(key, **params)`` looks the key up in the catalog of ``locale``, falls back to English, and
formats it with ``params`` (``str.format`` syntax). A key missing from every catalog is a bug: under
tests (``PYTEST_CURRENT_TEST`` set, or ``ROMME_I18N_STRICT=1``) it raises :class:`KeyError`; in
production the key itself is shown and the miss is logged, so a player never gets a crash instead
of a message.

>>> t("button.join")
'Join'
>>> t("lobby.seats", count=2, max=6)
'Seats (2/6)'
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from bot.i18n.en import MESSAGES as EN

log = logging.getLogger(__name__)

DEFAULT_LOCALE = "en"
CATALOGS: dict[str, Mapping[str, str]] = {"en": EN}
"""Catalog per locale; a translation adds ``bot/i18n/<locale>.py`` and an entry here."""

_strict: bool | None = None


def set_strict(strict: bool | None) -> None:
    """Force strict lookups on (``True``) or off (``False``); ``None`` restores the automatic choice."""
    global _strict
    _strict = strict


def is_strict() -> bool:
    """Whether a missing key or parameter raises instead of degrading (tests) or not (production)."""
    if _strict is not None:
        return _strict
    return os.environ.get("ROMME_I18N_STRICT") == "1" or "PYTEST_CURRENT_TEST" in os.environ


def has(key: str, locale: str = DEFAULT_LOCALE) -> bool:
    """Whether ``key`` has a text in ``locale`` or in the English fallback."""
    return key in CATALOGS.get(locale, {}) or key in CATALOGS[DEFAULT_LOCALE]


def t(key: str, locale: str = DEFAULT_LOCALE, **params: object) -> str:
    """The text of ``key`` in ``locale`` (English when the locale lacks it), formatted with ``params``.

    >>> t("table.stock", count=40)
    'Stock: 40 cards'
    """
    template = CATALOGS.get(locale, {}).get(key)
    if template is None:
        template = CATALOGS[DEFAULT_LOCALE].get(key)
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
