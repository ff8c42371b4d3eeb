"""What to do when Discord refuses one of a game's public messages, and how much a game may cost.

Discord's answers are sorted (:func:`sort_fault`): a rate limit (429) and Discord's own errors (5xx,
or no answer at all) go away by themselves and are tried again after a pause that grows; a table
message whose edits are capped (400, code 30046: messages older than an hour take only a few edits)
is replaced by a fresh one; a deleted one (404, code 10008) is posted again; no access or no
permission (50001, 50013) or a channel that is gone (10003) will not mend by retrying, so the game's
requests stop and the log says why once; any other refusal of the request as sent is not repeated.

Whatever Discord answers, one game sends at most :data:`FAILED_REQUESTS` failed requests in
:data:`FAILURE_WINDOW` seconds (:class:`RequestGuard`): after that, nothing goes out for it until
the oldest failure has left the window. Discord bans a bot for a while after 10,000 failed requests
(401, 403 and 429) in ten minutes, counted for the whole bot; so the failures are also counted as
Discord counts them, bot-wide (:class:`FailureBudget`, its limit :data:`BOT_FAILURE_LIMIT`): past
:data:`HOLD_FAILED_SHARE` of it no request goes to a game that failed (in the window, or earlier with
nothing gone through since), past :data:`HOLD_ALL_SHARE` none goes out at all (table edits,
announcements, panel edits) until enough failures have left the window; only the answers to clicks
(interaction responses, which never pass here) still go out. The requests held back go out again
below :data:`HOLD_FAILED_SHARE` only (the publisher's queue), so that their failures never reach
the level that holds the games that did not fail.

A table in an archived thread (a moderator closed it, or a day passed without a message) is
refused edits with 50083 (:data:`ARCHIVED`); the publisher unarchives the bot's thread and edits
again. A locked thread (160005, or a thread that stays archived) stops the game's requests as a
deleted channel does.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal

import discord

log = logging.getLogger(__name__)

FAILED_REQUESTS = 10
"""Failed requests one game may send in :data:`FAILURE_WINDOW` seconds."""
FAILURE_WINDOW = 600.0
"""Seconds over which :data:`FAILED_REQUESTS` is counted (Discord counts failures over ten minutes)."""
FIRST_RETRY = 2.0
"""Seconds before the first retry of a request that failed by itself (5xx, 429 without a time)."""
LONGEST_RETRY = 300.0
"""The pause between two retries grows by doubling up to this."""
EDIT_CAP_AGE = 3600.0
"""Discord caps the edits of messages older than this (seconds): a younger one is not replaced."""

STOPPING_CODES = {
    50001: "the bot has no access to the channel",
    50013: "the bot lacks a permission in the channel",
    10003: "the channel is gone",
    160005: "the thread is locked",
}
"""Discord's codes that no retry mends, with what they mean for the log."""
EDITS_CAPPED = 30046
ARCHIVED = 50083
"""Discord's code for a request an archived thread refuses (an edit of one of its messages)."""
BOT_FAILURE_LIMIT = 2500
"""Failed requests (401, 403, 429) the whole bot may make in :data:`FAILURE_WINDOW` seconds: well
below Discord's 10,000, after which it bans the bot's address for every server."""
HOLD_FAILED_SHARE = 0.1
"""Past this share of :data:`BOT_FAILURE_LIMIT` in the window, no request goes to a game that
failed (:meth:`RequestGuard.failed_lately`); below it, the requests held back go out again."""
HOLD_ALL_SHARE = 0.2
"""Past this share of :data:`BOT_FAILURE_LIMIT` in the window, no table edit, announcement or panel
edit goes out at all (the answers to clicks still do: they never pass the guard)."""
COUNTED_STATUSES = frozenset({401, 403, 429})
"""The refusals Discord counts toward its ban (invalid requests)."""


class ThreadLocked(Exception):
    """The game's thread is archived and the bot may not bring it back (a moderator locked it)."""

    code = 160005


class Fault(Enum):
    """What a refusal means for the next request."""

    RETRY = "retry"
    """It goes away by itself: try again after a pause (429, 5xx, no answer)."""
    CAPPED = "capped"
    """The message takes no more edits: post a fresh one."""
    GONE = "gone"
    """The message was deleted: post it again."""
    STOP = "stop"
    """No access, no permission, no channel, a locked thread: stop trying for this game."""
    ARCHIVED = "archived"
    """The message is in an archived thread: unarchive it (the bot's own), then try again."""
    REJECTED = "rejected"
    """This request as sent is refused; the same one would be again."""


def sort_fault(exc: BaseException) -> Fault:
    """What ``exc``, raised by a request to Discord, means.

    >>> from types import SimpleNamespace
    >>> def error(status, code):
    ...     return discord.HTTPException(SimpleNamespace(status=status, reason=""), {"code": code})
    >>> [sort_fault(error(*a)).value for a in [(500, 0), (429, 0), (400, 30046), (403, 50013), (400, 50035)]]
    ['retry', 'retry', 'capped', 'stop', 'rejected']
    >>> sort_fault(discord.NotFound(SimpleNamespace(status=404, reason=""), {"code": 10008})).value
    'gone'
    >>> sort_fault(error(400, 50083)).value, sort_fault(error(403, 160005)).value
    ('archived', 'stop')
    """
    if isinstance(exc, discord.RateLimited):
        return Fault.RETRY
    if isinstance(exc, ThreadLocked):
        return Fault.STOP
    if not isinstance(exc, discord.HTTPException):
        return Fault.RETRY  # no answer: a connection reset, a timeout
    if exc.code in STOPPING_CODES:
        return Fault.STOP
    if exc.code == ARCHIVED:
        return Fault.ARCHIVED
    if exc.code == EDITS_CAPPED:
        return Fault.CAPPED
    if exc.status == 429 or exc.status >= 500:
        return Fault.RETRY
    if exc.status == 404:
        return Fault.GONE
    if exc.status == 403:
        return Fault.STOP
    return Fault.REJECTED


def retry_after(exc: BaseException) -> float | None:
    """The seconds Discord asked to wait (a rate limit's ``retry_after``), if it said.

    >>> retry_after(discord.RateLimited(2.5))
    2.5
    """
    if isinstance(exc, discord.RateLimited):
        seconds: float = exc.retry_after
        return seconds
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    value = headers.get("Retry-After") if hasattr(headers, "get") else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def backoff(failures: int) -> float:
    """The pause after ``failures`` failures in a row: 2 s, 4 s, 8 s, … up to five minutes.

    >>> [backoff(n) for n in (1, 2, 3, 10)]
    [2.0, 4.0, 8.0, 300.0]
    """
    return min(LONGEST_RETRY, FIRST_RETRY * 2.0 ** max(0, failures - 1))


def fault_code(exc: BaseException) -> str:
    """How the metrics name a refusal (:mod:`bot.ops`): Discord's error code when it gave one, else
    the HTTP status, else ``"no_answer"`` (a timeout, a reset connection). Codes have 5 digits or
    more, statuses 3, so the two never meet.

    >>> from types import SimpleNamespace
    >>> def error(status, code):
    ...     return discord.HTTPException(SimpleNamespace(status=status, reason=""), {"code": code})
    >>> fault_code(error(403, 50013)), fault_code(error(503, 0)), fault_code(TimeoutError())
    ('50013', '503', 'no_answer')
    """
    if isinstance(exc, discord.RateLimited):
        return "429"
    if isinstance(exc, discord.HTTPException):
        return str(exc.code or exc.status)
    return "no_answer"


@dataclass
class EditTally:
    """What became of the edits of one kind of message (for the metrics, read when scraped):
    ``sent`` went out, ``merged`` joined an edit already on its way (one edit drew both changes),
    ``refused`` counts Discord's refusals by :func:`fault_code`.

    >>> tally = EditTally()
    >>> tally.refused[fault_code(TimeoutError())] += 1
    >>> tally.sent, tally.merged, dict(tally.refused)
    (0, 0, {'no_answer': 1})
    """

    sent: int = 0
    merged: int = 0
    refused: Counter[str] = field(default_factory=Counter)


Lane = Literal["table", "announce", "panel"]
"""What a request is for: the table message (edits, reposts), an announcement, or a hand panel edited
through its interaction's token; each has its budget."""

PANEL_GONE_CODES = {
    10062: "the interaction is unknown (its token expired)",
    10008: "the panel message is gone",
    10015: "the interaction's webhook is unknown",
    50027: "the interaction's token is invalid (expired)",
}
"""Discord's codes that say a hand panel cannot be edited through its token any more."""


def panel_gone(exc: BaseException) -> bool:
    """``exc`` says the panel is out of reach for good: its token expired or the message is gone
    (the person's next click on it brings a fresh interaction, and a fresh panel).

    >>> from types import SimpleNamespace
    >>> def error(status, code):
    ...     return discord.HTTPException(SimpleNamespace(status=status, reason=""), {"code": code})
    >>> [panel_gone(error(*a)) for a in [(401, 50027), (404, 10062), (404, 10008), (429, 0), (500, 0)]]
    [True, True, True, False, False]
    """
    if not isinstance(exc, discord.HTTPException) or isinstance(exc, discord.RateLimited):
        return False
    return exc.code in PANEL_GONE_CODES or exc.status in (401, 404)


def counted_status(exc: BaseException) -> int | None:
    """The status of ``exc`` if Discord counts it toward its ban (401, 403, 429), else ``None``.

    >>> from types import SimpleNamespace
    >>> def error(status, code):
    ...     return discord.HTTPException(SimpleNamespace(status=status, reason=""), {"code": code})
    >>> [counted_status(e) for e in (error(403, 50013), error(404, 10008), discord.RateLimited(1.0))]
    [403, None, 429]
    """
    if isinstance(exc, discord.RateLimited):
        return 429
    if isinstance(exc, discord.HTTPException) and exc.status in COUNTED_STATUSES:
        return int(exc.status)
    return None


class FailureBudget:
    """The bot's failed requests as Discord counts them (401, 403, 429), bot-wide, over the last
    ``window`` seconds, and how long requests are held back because of them.

    >>> budget = FailureBudget(limit=20, window=600)
    >>> for _ in range(2):
    ...     budget.count(403, now=0.0)
    >>> budget.hold(failed=True, now=1.0), budget.hold(failed=False, now=1.0)  # 2 = 10 %: failed games wait
    (599.0, 0.0)
    >>> for _ in range(2):
    ...     budget.count(429, now=5.0)
    >>> budget.hold(failed=False, now=6.0), budget.in_window(now=601.0)  # 4 = 20 %: everything waits
    (594.0, 2)
    """

    def __init__(self, limit: int = BOT_FAILURE_LIMIT, window: float = FAILURE_WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._times: deque[float] = deque()
        self.total = 0
        """Every counted failure so far (for the metrics)."""

    @property
    def hold_failed_at(self) -> int:
        """Failures in the window from which a game that failed is held back."""
        return max(1, int(self.limit * HOLD_FAILED_SHARE))

    @property
    def hold_all_at(self) -> int:
        """Failures in the window from which every request of the guard is held back."""
        return max(1, int(self.limit * HOLD_ALL_SHARE))

    def count(self, status: int, now: float) -> None:
        """A request failed with ``status`` (one Discord counts) at ``now`` (monotonic seconds)."""
        self._times.append(now)
        self.total += 1
        self._trim(now)
        if len(self._times) in (self.hold_failed_at, self.hold_all_at, self.limit):
            level = {
                self.hold_failed_at: "the games that failed",
                self.hold_all_at: "any game (clicks are still answered)",
            }
            log.warning(
                "%d failed requests (401, 403, 429) in %.0f s for the whole bot: nothing more goes to %s "
                "until some leave the window (Discord bans a bot at 10,000)",
                len(self._times), self.window, level.get(len(self._times), "any channel"),
            )  # fmt: skip

    def in_window(self, now: float) -> int:
        """Counted failures in the window ending ``now``."""
        self._trim(now)
        return len(self._times)

    def hold(self, *, failed: bool, now: float) -> float:
        """Seconds before a request may go out because of the bot-wide count (0: now); ``failed``:
        it is for a game that failed in the window."""
        count = self.in_window(now)
        level = self.hold_all_at if not failed else min(self.hold_all_at, self.hold_failed_at)
        if count < level:
            return 0.0
        # Held until the count falls below the level: the (count - level + 1)-th oldest leaves (a
        # millisecond or less is no wait: a sleep that short could end just before it leaves).
        wait = self._times[count - level] + self.window - now
        return wait if wait > 0.001 else 0.0

    def room(self, *, failed: bool, now: float) -> int:
        """Requests that may go out at ``now`` before the count reaches the level that holds them
        back (``failed``: requests of games that failed in the window), if every one of them failed.

        >>> budget = FailureBudget(limit=20, window=600)
        >>> budget.count(403, now=0.0)
        >>> budget.room(failed=True, now=1.0), budget.room(failed=False, now=1.0)
        (1, 3)
        """
        level = self.hold_all_at if not failed else min(self.hold_all_at, self.hold_failed_at)
        return max(0, level - self.in_window(now))

    def next_leaves(self, now: float) -> float:
        """Seconds until the oldest failure in the window leaves it (0: none is in it)."""
        self._trim(now)
        return max(0.0, self._times[0] + self.window - now) if self._times else 0.0

    def _trim(self, now: float) -> None:
        while self._times and self._times[0] <= now - self.window:
            self._times.popleft()


@dataclass
class _Lane:
    failures: deque[float] = field(default_factory=deque)
    streak: int = 0
    not_before: float = float("-inf")


@dataclass
class _Health:
    lanes: dict[str, _Lane] = field(default_factory=dict)
    stopped: str | None = None
    posted: dict[int, float] = field(default_factory=dict)


class RequestGuard:
    """The failures of each game's requests: when the next may go out, and whether any may.

    Failures are counted per game and :data:`Lane`, so a table that cannot be edited does not hold
    back the round's end; a refusal that stops a game stops both.

    >>> guard = RequestGuard(limit=2, window=60)
    >>> guard.failed(7, TimeoutError(), "edit the table")
    2.0
    >>> guard.failed(7, TimeoutError(), "edit the table") > 50  # the budget is spent: a minute
    True
    >>> guard.succeeded(7); guard.wait(7) > 50, guard.wait(7, "announce"), guard.stopped(7)
    (True, 0.0, None)
    """

    def __init__(
        self,
        limit: int = FAILED_REQUESTS,
        window: float = FAILURE_WINDOW,
        budget: FailureBudget | None = None,
    ) -> None:
        self.limit = limit
        self.window = window
        self.budget = budget or FailureBudget(window=window)
        """The bot-wide count of failures as Discord counts them, shared by every game."""
        self._games: dict[int, _Health] = {}
        self.failures: Counter[tuple[Lane, str]] = Counter()
        """Every failed request counted so far, by lane and :func:`fault_code` (for the metrics)."""

    def wait(self, game_id: int, lane: Lane = "table") -> float:
        """Seconds before a request of the game may go out (0: now): its own budget, and the
        bot-wide one (:class:`FailureBudget`)."""
        now = time.monotonic()
        held = self.budget.hold(failed=self.failed_lately(game_id), now=now)
        return max(held, self.own_wait(game_id, lane))

    def own_wait(self, game_id: int, lane: Lane = "table") -> float:
        """Seconds before a request of the game may go out by its own budget (0: now), whatever
        the bot-wide one says."""
        health = self._games.get(game_id)
        if health is None or lane not in health.lanes:
            return 0.0
        return max(0.0, health.lanes[lane].not_before - time.monotonic())

    def failed_lately(self, game_id: int) -> bool:
        """A request of the game failed in the window, or its table's or announcements' last one
        failed (its requests stopped, or a retry is owed): the bot-wide budget holds it back sooner,
        also once its failures have left the window, until one of its requests goes through.

        >>> guard = RequestGuard(window=0.0)  # every failure leaves the window at once
        >>> guard.failed(7, TimeoutError(), "edit the table") is not None
        True
        >>> guard.failed_lately(7)  # nothing has gone through since
        True
        >>> guard.succeeded(7); guard.failed_lately(7)
        False
        """
        health = self._games.get(game_id)
        return health is not None and self._failed_lately(health, time.monotonic())

    def _failed_lately(self, health: _Health, now: float) -> bool:
        if health.stopped is not None:
            return True
        for name, lane in health.lanes.items():
            self._trim(lane, now)
            # A panel is edited through its interaction's token: its streak says nothing of the channel.
            if lane.failures or (lane.streak and name != "panel"):
                return True
        return False

    def forget(self, game_id: int) -> None:
        """The game is over and owed nothing: drop what is kept of it (a failure still counts in the
        bot-wide budget), but a stop: what it still owes its channel is not sent there."""
        health = self._games.get(game_id)
        if health is not None and health.stopped is None:
            del self._games[game_id]

    def stop(self, game_id: int, why: str) -> None:
        """Stop the game's requests (as a refusal no retry mends does) until a request goes through."""
        health = self._health(game_id)
        if health.stopped is None:
            health.stopped = why
            log.warning("game %s: stopped sending: %s", game_id, why)

    def stopped(self, game_id: int) -> str | None:
        """Why the game's requests stopped (a refusal no retry mends), or ``None``."""
        health = self._games.get(game_id)
        return None if health is None else health.stopped

    def failed(self, game_id: int, exc: BaseException, what: str, lane: Lane = "table") -> float | None:
        """Count a failed request of the game (``what`` it tried, for the log); return the seconds to
        wait before trying it again, or ``None`` if it is not to be tried again by itself."""
        now = time.monotonic()
        health, counted = self._count(game_id, lane, now, exc)
        fault = sort_fault(exc)
        if fault is Fault.ARCHIVED and lane != "panel":
            # The publisher brings an archived thread back before it tries again; one that stays
            # archived (a post refused: only a locked thread refuses posts) is closed to the bot.
            fault = Fault.STOP
        delay: float | None = None
        if fault is Fault.STOP:
            if health.stopped is None:
                health.stopped = STOPPING_CODES.get(
                    getattr(exc, "code", 0),
                    "the thread is archived and stays closed" if sort_fault(exc) is Fault.ARCHIVED
                    else "Discord refuses the bot there",
                )  # fmt: skip
                log.warning("game %s: stopped trying to %s: %s (%s)", game_id, what, health.stopped, exc)
        elif fault in (Fault.REJECTED, Fault.ARCHIVED):
            log.warning("game %s: Discord refused to %s (%s); not repeated", game_id, what, exc)
        else:
            delay = max(retry_after(exc) or 0.0, backoff(counted.streak))
            log.warning("game %s: could not %s (%s); again in %.0f s", game_id, what, exc, delay)
        counted.not_before = now + (delay or 0.0)
        if len(counted.failures) >= self.limit:
            opens = counted.failures[0] + self.window
            if counted.not_before < opens:
                log.warning(
                    "game %s: %d failed requests in %.0f s; nothing more is sent to %s for %.0f s",
                    game_id, len(counted.failures), self.window, what, opens - now,
                )  # fmt: skip
                counted.not_before = opens
            if delay is not None:
                delay = opens - now
        return delay

    def note(self, game_id: int, exc: BaseException, lane: Lane = "table") -> None:
        """Count a failed request (``exc``) that is handled without a retry (a repost follows it)."""
        self._count(game_id, lane, time.monotonic(), exc)

    def succeeded(self, game_id: int, lane: Lane = "table") -> None:
        """A request of the game went through: the lane's streak and (but for a panel's) any stop
        are over (failures still count in their window)."""
        health = self._games.get(game_id)
        if health is None:
            return
        if health.stopped is not None and lane != "panel":
            # A panel is edited through its interaction's token: that says nothing of the channel.
            log.info("game %s: Discord takes its messages again", game_id)
            health.stopped = None
        counted = health.lanes.get(lane)
        if counted is not None:
            counted.streak = 0
            if not counted.failures:
                del health.lanes[lane]
        if not health.lanes and not health.posted:
            del self._games[game_id]

    def posted(self, game_id: int, message_id: int) -> None:
        """The bot just posted ``message_id`` as the game's table message."""
        self._health(game_id).posted = {message_id: time.monotonic()}

    def posted_lately(self, game_id: int, message_id: int) -> bool:
        """``message_id`` was posted by this bot less than an hour ago (Discord does not cap it)."""
        health = self._games.get(game_id)
        at = None if health is None else health.posted.get(message_id)
        return at is not None and time.monotonic() - at < EDIT_CAP_AGE

    def _count(self, game_id: int, lane: Lane, now: float, exc: BaseException) -> tuple[_Health, _Lane]:
        self.failures[lane, fault_code(exc)] += 1
        status = counted_status(exc)
        if status is not None:
            self.budget.count(status, now)
        health = self._health(game_id)
        counted = health.lanes.setdefault(lane, _Lane())
        self._trim(counted, now)
        counted.failures.append(now)
        counted.streak += 1
        return health, counted

    def _trim(self, lane: _Lane, now: float) -> None:
        while lane.failures and lane.failures[0] <= now - self.window:
            lane.failures.popleft()

    def _health(self, game_id: int) -> _Health:
        health = self._games.get(game_id)
        if health is None:
            if len(self._games) >= 1024:
                self._sweep()
            health = self._games[game_id] = _Health()
        return health

    def _sweep(self) -> None:
        """Forget the games with nothing to remember: no failure in the window, no stop, no young post."""
        now = time.monotonic()
        for game_id, health in list(self._games.items()):
            for name, lane in list(health.lanes.items()):
                self._trim(lane, now)
                if not lane.failures and lane.not_before <= now:
                    del health.lanes[name]
            young = any(now - at < EDIT_CAP_AGE for at in health.posted.values())
            if not health.lanes and health.stopped is None and not young:
                del self._games[game_id]
