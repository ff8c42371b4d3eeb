"""``GET /metrics``: the bot's metrics in Prometheus's text format, through ``prometheus-client``.

Every bot has a registry of its own (:attr:`Metrics.registry`, never the library's global one: a
test process builds many bots). Most series are read when Prometheus scrapes, from what the bot's
parts count anyway (:class:`_Scraped`), so they cost a click nothing; only five are counted as
things happen, each once per click, save or computer move (a histogram's ``observe`` is a few
microseconds of a click's milliseconds):

Counted as they happen:

- ``romme_click_seconds`` (histogram): from a click reaching the bot's handler to its answer sent
  (the answer's HTTP request included);
- ``romme_save_seconds`` (histogram): a change's save, from its start to its commit;
- ``romme_moves_total{kind}``: moves saved, by kind (``draw``, ``meld``, ``lay_off``,
  ``swap_joker``, ``take_back``, ``discard``), people's and computers' alike;
- ``romme_save_failures_total{reason}``: saves that did not commit (``conflict``: another process
  saved the game first; ``error``);
- ``romme_computer_decision_seconds`` (histogram): a computer player choosing its move.

Read when scraped:

- ``romme_games{status}``: the games in memory by status (``lobby``, ``playing``, and each channel's
  last ``finished`` or ``cancelled`` one);
- ``romme_commits_total``: the database's write transactions (the SQLite writer commits the saves
  that arrive together in one);
- ``romme_table_edits_total{result}`` and ``romme_panel_edits_total{result}``: edits of the table
  messages and of the live hand panels, ``sent`` or ``merged`` (a change that joined an edit already
  on its way); ``romme_table_edits_refused_total{code}``, ``romme_panel_edits_refused_total{code}``:
  the ones Discord refused, by code (:func:`~bot.publish.faults.fault_code`: Discord's error code,
  else the HTTP status, else ``no_answer``);
- ``romme_edit_queue``: edits waiting for their turn in the bot-wide edit budget;
- ``romme_hand_panels_open``: the hand panels kept live;
- ``romme_failed_requests_total{lane,code}``: every failed request to Discord counted in the games'
  budgets of failed requests (``lane``: ``table``, ``announce``, ``panel``);
- ``romme_gateway_connected{shard}``: 1 while the shard's gateway connection is open;
- ``romme_shard_leases_held``: the shard leases this process holds (PostgreSQL with shards);
- ``romme_card_faces{status}``: 1 for the cards' current status: ``emoji`` (the faces are in use),
  ``text`` (``CARD_STYLE=text``), ``refused`` (Discord refused the faces: text), ``starting``;
- ``romme_last_save_age_seconds``: seconds since the last save committed (absent before the first).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Iterator

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client import Counter as CounterSeries
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.engine.moves import MOVE_KINDS
from bot.ops.watched import Watched, gateway_of, part
from bot.publish.faults import EditTally
from bot.service.meter import SaveFailure
from bot.storage.records import GameStatus

CLICK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: a click is answered in a few milliseconds; Discord gives up on it after 3 s."""
SAVE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: a save commits in about a millisecond (an fsync)."""
DECISION_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
"""Seconds: a computer player decides in well under a millisecond, a hard one in a few."""
CARD_FACE_STATUSES = ("emoji", "text", "refused", "starting")
"""The values of ``romme_card_faces``'s ``status``."""


class Metrics:
    """The metrics of one bot: its registry, the series counted as things happen, and the ones read
    from ``bot`` when scraped (see the module). It is the table service's
    :class:`~bot.service.meter.Meter`, and the click handlers report to :meth:`clicked`.

    >>> metrics = Metrics(None)  # no bot: only the series counted as things happen
    >>> metrics.saved(0.002, ["draw"]); metrics.clicked(0.004)
    >>> text = metrics.text().decode()
    >>> 'romme_moves_total{kind="draw"} 1.0' in text, "romme_click_seconds_count 1.0" in text
    (True, True)
    """

    def __init__(self, bot: Watched | None) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        registry = self.registry
        self.clicks = Histogram(
            "romme_click_seconds",
            "Seconds from a click reaching the bot to its answer sent.",
            buckets=CLICK_BUCKETS,
            registry=registry,
        )
        self.saves = Histogram(
            "romme_save_seconds",
            "Seconds a change's save took, from its start to its commit.",
            buckets=SAVE_BUCKETS,
            registry=registry,
        )
        self.decisions = Histogram(
            "romme_computer_decision_seconds",
            "Seconds a computer player took to choose its move.",
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        moves = CounterSeries("romme_moves", "Moves saved, by kind.", ["kind"], registry=registry)
        # One child per kind, made now: a move counts with one lookup, and every kind shows from 0.
        self._moves: dict[str, CounterSeries] = {kind: moves.labels(kind) for kind in MOVE_KINDS}
        self._moves_series = moves
        failures = CounterSeries(
            "romme_save_failures", "Saves that did not commit, by reason.", ["reason"], registry=registry
        )
        self._failures = {reason: failures.labels(reason) for reason in ("conflict", "error")}
        if bot is not None:
            registry.register(_Scraped(bot))

    # ------------------------------------------------------------------ the table service's Meter

    def saved(self, seconds: float, kinds: list[str]) -> None:
        """A change was committed after ``seconds``, with moves of ``kinds``."""
        self.saves.observe(seconds)
        for kind in kinds:
            child = self._moves.get(kind)
            if child is None:
                child = self._moves[kind] = self._moves_series.labels(kind)
            child.inc()

    def save_failed(self, why: SaveFailure) -> None:
        """A save did not commit."""
        self._failures[why].inc()

    def decided(self, seconds: float) -> None:
        """A computer player chose its move in ``seconds``."""
        self.decisions.observe(seconds)

    # ------------------------------------------------------------------ the clicks

    def clicked(self, seconds: float) -> None:
        """A click was answered ``seconds`` after it reached the bot."""
        self.clicks.observe(seconds)

    def text(self) -> bytes:
        """Every series now, in Prometheus's text format."""
        return generate_latest(self.registry)


class _Scraped(Collector):
    """The series read from the bot's parts when scraped; a part not built (or closed) leaves its
    series out."""

    def __init__(self, bot: Watched) -> None:
        self.bot = bot

    def collect(self) -> Iterable[Metric]:
        bot = self.bot
        yield from self._gateway()
        yield self._card_faces()
        tables = part(lambda: bot.tables)
        if tables is not None:
            games = GaugeMetricFamily("romme_games", "Games in memory, by status.", labels=["status"])
            statuses = Counter(str(game.status) for game in tables.changes.games())
            for status in GameStatus:
                games.add_metric([status.value], statuses[status.value])
            yield games
            last = tables.changes.last_save
            if last is not None:
                yield GaugeMetricFamily(
                    "romme_last_save_age_seconds",
                    "Seconds since the last save committed.",
                    value=time.monotonic() - last,
                )
        storage = part(lambda: bot.storage)
        if storage is not None:
            yield CounterMetricFamily(
                "romme_commits", "The database's write transactions.", value=storage.transactions
            )
        publisher = part(lambda: bot.publisher)
        if publisher is not None:
            yield from _edits("table", "table messages", publisher.edits)
            yield from _edits("panel", "live hand panels", publisher.panels.tally)
            yield GaugeMetricFamily(
                "romme_edit_queue",
                "Edits waiting for their turn in the bot-wide edit budget.",
                value=publisher.budget.waiting,
            )
            yield GaugeMetricFamily(
                "romme_hand_panels_open", "Hand panels kept live.", value=publisher.panels.open
            )
            failed = CounterMetricFamily(
                "romme_failed_requests",
                "Failed requests to Discord, by lane and code (the games' budgets of failed requests).",
                labels=["lane", "code"],
            )
            for (lane, code), count in sorted(publisher.guard.failures.items()):
                failed.add_metric([lane, code], count)
            yield failed
        leases = bot.leases
        yield GaugeMetricFamily(
            "romme_shard_leases_held",
            "Shard leases this process holds.",
            value=0 if leases is None else len(leases.held),
        )

    def _gateway(self) -> Iterator[Metric]:
        connected = GaugeMetricFamily(
            "romme_gateway_connected", "1 while the shard's gateway connection is open.", labels=["shard"]
        )
        for shard, up in sorted(gateway_of(self.bot).shards.items()):
            connected.add_metric([str(shard)], 1 if up else 0)
        yield connected

    def _card_faces(self) -> Metric:
        bot = self.bot
        if bot.card_faces:
            now = "emoji"
        elif bot.settings.card_style == "text":
            now = "text"
        else:
            now = "refused" if part(lambda: bot.publisher) is not None and bot.is_ready() else "starting"
        faces = GaugeMetricFamily(
            "romme_card_faces", "1 for the cards' current status (emoji faces, or text).", labels=["status"]
        )
        for status in CARD_FACE_STATUSES:
            faces.add_metric([status], 1 if status == now else 0)
        return faces


def _edits(kind: str, what: str, tally: EditTally) -> Iterator[Metric]:
    edits = CounterMetricFamily(f"romme_{kind}_edits", f"Edits of the {what}, by result.", labels=["result"])
    edits.add_metric(["sent"], tally.sent)
    edits.add_metric(["merged"], tally.merged)
    yield edits
    refused = CounterMetricFamily(
        f"romme_{kind}_edits_refused", f"Edits of the {what} Discord refused, by code.", labels=["code"]
    )
    for code, count in sorted(tally.refused.items()):
        refused.add_metric([code], count)
    yield refused
