"""What the SimCord benchmarks share: a REST log with timestamps, reading components, percentiles, memory.

Nothing here changes the bot: the benchmarks build it with ``create_bot`` and drive it as people do
(slash commands, clicks, selects); this module only watches what goes over SimCord's fake REST API.
"""

from __future__ import annotations

import json
import logging
import math
import resource
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
import simcord.http.router as simcord_router

from bot.render.ids import parse_custom_id


@dataclass(frozen=True)
class Stamp:
    """When a REST call reached SimCord: real ``perf_counter`` seconds and the virtual clock's seconds."""

    real: float
    virtual: float


class TimedRequests(list[simcord.HttpLogEntry]):
    """SimCord's REST log with the moment of every call beside it (``stamps[i]`` is for ``self[i]``).

    The moment is when the bot handed the request over (SimCord's router was entered), before
    SimCord copies the payload into its log: that copy is the simulation's cost, not the bot's.
    """

    def __init__(self, env: simcord.Env, entries: Iterable[simcord.HttpLogEntry] = ()) -> None:
        super().__init__(entries)
        self.env = env
        self.entered: Stamp | None = None
        self.stamps: list[Stamp] = [self.now()] * len(self)

    def now(self) -> Stamp:
        """This moment, real and virtual."""
        return Stamp(time.perf_counter(), self.env.now().timestamp())

    def append(self, entry: simcord.HttpLogEntry) -> None:
        """Log ``entry`` with the time it was handed over."""
        self.stamps.append(self.entered or self.now())
        self.entered = None
        super().append(entry)


def time_requests(env: simcord.Env) -> TimedRequests:
    """Put a timestamped REST log in place of SimCord's plain one and return it.

    SimCord appends every REST call of the bot to ``env.http_requests`` (the backend's list); a list
    that also notes the time is the least intrusive way to see *when* an answer went out.
    """
    log = TimedRequests(env, env.backend.http_requests)
    env.backend.http_requests = log
    dispatch = simcord_router.dispatch

    def timed_dispatch(*args: Any, **kwargs: Any) -> Any:
        log.entered = log.now()
        return dispatch(*args, **kwargs)

    simcord_router.dispatch = timed_dispatch  # the HTTP client calls router.dispatch by attribute
    return log


def is_callback(entry: simcord.HttpLogEntry) -> bool:
    """The REST call that answers an interaction (``POST /interactions/<id>/<token>/callback``)."""
    return (
        entry.method == "POST"
        and entry.path.startswith("/interactions/")
        and entry.path.endswith("/callback")
    )


def is_message_edit(entry: simcord.HttpLogEntry) -> bool:
    """An edit of a channel message by the bot (``PATCH /channels/<c>/messages/<m>``): a table edit."""
    parts = entry.path.strip("/").split("/")
    return entry.method == "PATCH" and len(parts) == 4 and parts[0] == "channels" and parts[2] == "messages"


def is_panel_edit(entry: simcord.HttpLogEntry) -> bool:
    """An edit through an interaction's token (``PATCH /webhooks/<app>/<token>/messages/<m>``): a
    hand panel kept live by the bot."""
    parts = entry.path.strip("/").split("/")
    return (
        entry.method == "PATCH"
        and len(parts) == 5
        and parts[0] == "webhooks"
        and parts[3] == "messages"
        and parts[4].isdigit()  # not "@original": a deferred click's own answer
    )


def components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message, flattened out of its action rows."""
    found: list[dict[str, Any]] = []
    for row in message.components:
        raw = row if isinstance(row, dict) else row.to_dict()
        found.extend(raw.get("components", [raw]))
    return found


def component(message: Any, *, label: str | None = None, action: str | None = None) -> dict[str, Any]:
    """The component with this label, or whose custom id has this action."""
    for item in components(message):
        cid = parse_custom_id(item.get("custom_id"))
        if (label is not None and item.get("label") == label) or (
            action is not None and cid is not None and cid.action == action
        ):
            return item
    raise LookupError(f"no component {label or action!r} in {[c.get('label') for c in components(message)]}")


def option_values(message: Any, codes: Sequence[str]) -> list[str]:
    """The card select's values for ``codes`` (a second 7♥ is ``7H#2``), as a person picks them."""
    select = component(message, action="select")
    wanted = list(codes)
    values = []
    for option in select["options"]:
        code = option["value"].split("#")[0]
        if code in wanted:
            wanted.remove(code)
            values.append(option["value"])
    if wanted:
        raise LookupError(f"{wanted} not in the panel's select")
    return values


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest rank; ``nan`` for no values.

    >>> percentile([1, 2, 3, 4], 0.5), percentile(list(range(1, 101)), 0.99)
    (2, 99)
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def median(values: Sequence[float]) -> float:
    """The median, ``nan`` for no values."""
    return statistics.median(values) if values else math.nan


def rss_mb() -> tuple[float, float]:
    """(now, peak) resident memory of this process in MB, from /proc and ``getrusage``."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KB on Linux
    now = peak
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
    except OSError:
        pass
    return now, peak


def bytes_written() -> int:
    """Bytes this process has handed to ``write`` so far (``wchar`` of /proc/self/io; 0 if unknown):
    in a benchmark, nearly all of it is the database's (its WAL, and the checkpoints into the file)."""
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


ROW_OVERHEAD = 48
"""Bytes counted for a row's fixed columns (ids, numbers, timestamps) beside its text columns."""


class RowBytes:
    """Counts the bytes of the rows each save of ``storage`` writes: the snapshot, the move and its
    state, announcement payloads (their JSON text, as stored), and :data:`ROW_OVERHEAD` per row
    (the games row, the move, each round score and announcement) — what a database's write-ahead
    log must carry per move, whichever database it is. It wraps ``start_save`` on this one instance.
    """

    def __init__(self, storage: Any) -> None:
        self.bytes = 0
        self.saves = 0
        self.moves = 0
        self.snapshots = 0
        start_save = storage.start_save

        def counted(save: Any, **options: Any) -> Any:
            size = ROW_OVERHEAD
            snapshot = save.snapshot
            if snapshot is not None:
                size += len(_json(snapshot))
                self.snapshots += 1
            move = save.move
            if move is not None:
                self.moves += 1
                size += ROW_OVERHEAD + len(_json(move.move))
                if snapshot is None and move.state is not None:
                    size += len(_json(move.state))
            size += ROW_OVERHEAD * len(save.round_scores)
            size += sum(ROW_OVERHEAD + len(_json(a.payload)) for a in save.announcements)
            self.bytes += size
            self.saves += 1
            return start_save(save, **options)

        storage.start_save = counted

    def per_move(self) -> float:
        """Bytes written per logged move (every save's bytes, the ones without a move included)."""
        return round(self.bytes / self.moves, 1) if self.moves else math.nan


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def quiet() -> None:
    """Only warnings and errors from the bot and discord.py (a benchmark's output is its figures)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def ms(seconds: float) -> float:
    """Seconds as milliseconds rounded to 3 decimals (``nan`` stays ``nan``)."""
    return round(seconds * 1000, 3) if not math.isnan(seconds) else seconds


def report(result: dict[str, Any]) -> dict[str, Any]:
    """Print ``result`` one figure a line for people, then as one JSON object, the last line; return it."""
    for key, value in result.items():
        print(f"{key}: {value}")
    print(json.dumps(result))
    return result
