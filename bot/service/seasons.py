"""When a server's season ends and the next begins: pure functions of time, no storage.

A server's seasons are monthly by default (UTC calendar months): season 1 starts with the month of
its first rated match, and the first rated match of a later month starts the next. A member with
Manage Server may start a new season at any moment (``/romme season``); the calendar then carries on
from there. A server setting may name another length, a number of days (:data:`SeasonLength`):
:func:`season_end` and :func:`due_start` take it as an argument, so the setting's only job is to
pass it.

What a new season resets and what it carries over is said in the catalogs' ``help.seasons``.

>>> from datetime import datetime, UTC
>>> season_end(datetime(2026, 12, 14, 9, 30, tzinfo=UTC), "monthly")
datetime.datetime(2027, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal

from bot.engine.rules import Whole

SeasonLength = Literal["monthly"] | int | None
"""How long a season lasts: ``"monthly"`` (until the next UTC calendar month), a number of days, or
``None`` (until a member starts the next one with ``/romme season``)."""

DEFAULT_LENGTH: SeasonLength = "monthly"
"""A server's season length unless a setting says otherwise."""
SEASON_DAYS = Whole(1, 366)
"""Days a season may last, when it lasts a number of days."""


def check_length(length: SeasonLength) -> SeasonLength:
    """``length`` if it is one :data:`SeasonLength` allows; ValueError otherwise.

    >>> check_length(30), check_length("monthly"), check_length(None)
    (30, 'monthly', None)
    >>> check_length(0)
    Traceback (most recent call last):
    ValueError: a season lasts 'monthly', 1 to 366 days, or until the next is started, not 0
    """
    if length is None or length == "monthly":
        return length
    if SEASON_DAYS.allows(length):
        return length
    days = f"{SEASON_DAYS.low} to {SEASON_DAYS.high} days"
    raise ValueError(f"a season lasts 'monthly', {days}, or until the next is started, not {length!r}")


def month_start(moment: datetime) -> datetime:
    """The start of ``moment``'s UTC calendar month.

    >>> month_start(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)).isoformat()
    '2026-12-01T00:00:00+00:00'
    """
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, 1, tzinfo=UTC)


def _next_month(moment: datetime) -> datetime:
    start = month_start(moment)
    return (
        start.replace(year=start.year + 1, month=1)
        if start.month == 12
        else start.replace(month=start.month + 1)
    )


def season_end(started_at: datetime, length: SeasonLength) -> datetime | None:
    """When a season started at ``started_at`` ends (the next starts), or ``None`` (never by itself).

    >>> season_end(datetime(2026, 12, 1, tzinfo=UTC), 10).isoformat()
    '2026-12-11T00:00:00+00:00'
    >>> season_end(datetime(2026, 12, 1, tzinfo=UTC), None) is None
    True
    """
    length = check_length(length)
    if length is None:
        return None
    if length == "monthly":
        return _next_month(started_at)
    return started_at.astimezone(UTC) + timedelta(days=length)


def first_start(now: datetime, length: SeasonLength) -> datetime:
    """When a server's first season starts, its first rated match being now: the month's start for
    monthly seasons, else now.

    >>> first_start(datetime(2026, 12, 2, 4, 41, tzinfo=UTC), "monthly").isoformat()
    '2026-12-01T00:00:00+00:00'
    """
    return month_start(now) if check_length(length) == "monthly" else now.astimezone(UTC)


def due_start(started_at: datetime, length: SeasonLength, now: datetime) -> datetime | None:
    """If the season started at ``started_at`` is over at ``now``: when the season running at
    ``now`` started (a month's start, or a whole number of seasons' days later: the months or days
    without a match are skipped, not counted as empty seasons); ``None`` while it runs.

    >>> start = datetime(2026, 11, 17, tzinfo=UTC)
    >>> due_start(start, "monthly", datetime(2027, 2, 3, tzinfo=UTC)).isoformat()
    '2027-02-01T00:00:00+00:00'
    >>> due_start(start, 7, datetime(2026, 12, 2, tzinfo=UTC)).isoformat()
    '2026-12-01T00:00:00+00:00'
    >>> due_start(start, "monthly", datetime(2026, 11, 30, tzinfo=UTC)) is None
    True
    """
    end = season_end(started_at, length)
    if end is None or now < end:
        return None
    if length == "monthly":
        return month_start(now)
    assert isinstance(length, int)
    days = timedelta(days=length)
    return end + days * ((now - end) // days)
