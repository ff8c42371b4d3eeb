"""The one reader of a number a person typed or a component carried: ASCII digits only.

``str.isdigit`` says yes to ``²`` and ``٣`` and ``int`` reads ``٣`` as 3, ``"1_0"`` as 10 and
``" +7 "`` as 7; a number in a form, a list's value or a select's value is none of those. Every
number read from a modal, a select or a custom id's part goes through :func:`whole_number` (or
:func:`snowflake` for a Discord id), so what is accepted is the same everywhere, and anything else
is ``None``: the caller refuses it in words, it never reaches ``int``.

>>> whole_number("42"), whole_number("-5"), whole_number(" 7 ")
(42, -5, 7)
>>> [whole_number(text) for text in ("²", "٣", "３", "--5", "+5", "1_0", "1.0", "", "-")]
[None, None, None, None, None, None, None, None, None]
>>> snowflake("80351110224678912"), snowflake("-1"), snowflake("1" + "0" * 30)
(80351110224678912, None, None)
"""

from __future__ import annotations

import re

MAX_DIGITS = 100
"""Digits a whole number may have and still be read (far past any range a setting allows; a
forged form may send thousands, which ``int`` would refuse with an error of its own)."""
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)
_SNOWFLAKE = re.compile(r"[0-9]{1,20}", re.ASCII)
SNOWFLAKE_LIMIT = 2**64
"""Discord ids are unsigned 64-bit numbers."""


def whole_number(text: object) -> int | None:
    """The whole number ``text`` spells in ASCII digits (a ``-`` in front for a negative one, spaces
    around allowed), else ``None``.

    >>> whole_number("007"), whole_number("²"), whole_number(12)
    (7, None, None)
    """
    if not isinstance(text, str):
        return None
    spelled = text.strip()
    if _WHOLE.fullmatch(spelled) is None:
        return None
    return int(spelled)


def snowflake(text: object) -> int | None:
    """The Discord id ``text`` spells (ASCII digits, below 2**64, no sign, no spaces), else ``None``.

    >>> snowflake("123"), snowflake(" 123"), snowflake(str(2**64))
    (123, None, None)
    """
    if not isinstance(text, str) or _SNOWFLAKE.fullmatch(text) is None:
        return None
    value = int(text)
    return value if value < SNOWFLAKE_LIMIT else None


__all__ = ["MAX_DIGITS", "SNOWFLAKE_LIMIT", "snowflake", "whole_number"]
