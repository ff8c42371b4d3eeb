"""Many tables at once: N games of four computer seats played by the real bot, through SimCord.

``python bench/load.py --games 500`` builds the bot with ``create_bot`` on a SQLite file in a
temporary folder (production settings: a computer moves 1.5 s after the previous move, table edits
merged to one a second per channel and 40 a second for the whole bot), after tuning the garbage
collector and the thread switch interval as ``romme-bot`` does (``--default-gc`` keeps CPython's
settings). The first ``--clicks`` tables (default 20) are opened as people do, by
``/romme start computers:3`` and a click on **Start**; the others by the same service and publisher
calls the cog makes (SimCord's settling after a click grows with every sleeping table, so 500
clicked tables would time SimCord). Then each host leaves (``/romme leave``'s service call) so the
computer plays all four seats, one table after another over 1.5 s, and the tables play for
``--seconds`` of real time on their own, their table edits going to SimCord's REST API. Measured:

- moves, moves_per_s: moves committed to the log during the measured time (a table that keeps up
  makes one every 1.5 s: 333/s for 500 tables);
- move_p50_ms, move_p99_ms: from the start of applying a move (under the game's lock) until its
  transaction is committed, under the load of every other table;
- lag_p50_ms, lag_p99_ms: how late a computer move starts after its 1.5 s (the bot keeping up);
- rss_mb (peak resident memory of the process, SimCord included), rss_now_mb;
- table_edits_per_channel_per_s: the most table edits any channel got within one second, and
  table_edit_min_gap_s, the shortest time between two edits of one channel; table_edits_per_s, the
  whole bot's (its budget is 40 a second, under Discord's global rate limit of 50 REST calls);
- transactions, writes_per_transaction: how the storage's group commit batched the saves;
- panels, panel_edits, panel_edits_per_s: the first ``--panels`` tables (default 20, at most
  ``--clicks``) keep a simulated person at the table instead: the host clicks **My hand**, so the
  bot keeps that hand panel live, and is then marked away, so the computer plays the seat (a
  person watching without clicking). Their panels are edited through the interaction's token
  (``PATCH /webhooks/…``) in turns of the same bot-wide edit budget as the table edits;
  panel_edit_max_gap_s is the longest time a kept panel went without an edit while its seat had
  turns (how far the budget made it lag), edits_per_s all edits (tables and panels) a second.
- gc_pauses, gc_pause_max_ms, gc_pause_total_ms, gc_gen2: the garbage collector's collections during
  the measured time (timed with ``gc.callbacks``: the profiler does not see them), the longest one,
  their sum, and how many were full (generation 2) collections; gc_pause_max_cpu_ms, the longest
  one in this thread's CPU time (on a busy machine a pause is also time the process was not run);
- gc_by_generation: for each generation, how many collections and the longest (ms);
- disk_bytes_per_move: what the process wrote (SQLite's WAL and checkpoints) per move (the bytes of
  the rows are counted by ``bench/interactions.py --compare``).

``--profile FILE`` writes a pyinstrument profile of the measured time (HTML for a ``.html`` name, else
text; ``pip install pyinstrument``, or the ``bench`` extra).

The last line is one JSON object with these keys.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextvars
import gc
import itertools
import math
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
from discord.webhook.async_ import async_context
from simcord.results import to_discord_message

from bench._common import (
    TimedRequests,
    bytes_written,
    is_message_edit,
    is_panel_edit,
    median,
    ms,
    percentile,
    quiet,
    report,
    rss_mb,
    time_requests,
)
from bot import create_bot
from bot.client import RommeBot
from bot.process import tune_process
from bot.service import TableService

TABLES_PER_GUILD = 100
PAUSED = 3600.0


class MoveTimer:
    """Times each move of the service from the start of its apply to the end of its save.

    It wraps the change path's two steps on this one instance (``changes.change`` runs ``apply`` under
    the game's lock, then ``changes.save``) and the autopilot's ``schedule``; nothing else is touched.
    """

    def __init__(self, service: TableService, computer_delay: float) -> None:
        self.samples: list[float] = []
        self.lags: list[float] = []
        self.moves = 0
        self.measuring = False
        self._started: dict[int, float] = {}
        self._due: dict[int, float] = {}
        self._applied: dict[int, float] = {}
        changes, autopilot = service.changes, service.autopilot
        change, save, schedule = changes.change, changes.save, autopilot.schedule

        async def timed_change(game_id: int, apply: Any, **options: Any) -> Any:
            def timed_apply(game: Any) -> Any:
                now = time.perf_counter()
                self._started[game.id] = self._applied[game.id] = now
                due = self._due.pop(game.id, None)
                if due is not None and self.measuring and options.get("reason") == "computer":
                    self.lags.append(max(0.0, now - due))
                return apply(game)

            return await change(game_id, timed_apply, **options)

        async def timed_save(game: Any, entries: list[Any], *rest: Any, **options: Any) -> Any:
            snapshot = await save(game, entries, *rest, **options)
            started = self._started.pop(game.id, None)
            if entries and started is not None and self.measuring:
                self.samples.append(time.perf_counter() - started)
                self.moves += 1
            return snapshot

        def timed_schedule(game: Any) -> None:
            schedule(game)
            # The bot counts the delay from the previous change (its apply), not from its save.
            self._due[game.id] = self._applied.get(game.id, time.perf_counter()) + computer_delay

        changes.change = timed_change  # type: ignore[method-assign]
        changes.save = timed_save  # type: ignore[method-assign]
        autopilot.schedule = timed_schedule  # type: ignore[method-assign]


class GcPauses:
    """The collector's pauses, timed from ``gc.callbacks`` (start to stop of each collection)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self.cpu: list[float] = []
        self.generations: list[int] = []
        self.full = 0
        self._began = self._began_cpu = 0.0
        self.measuring = False

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
        elif self.measuring:
            self.pauses.append(time.perf_counter() - self._began)
            self.cpu.append(time.thread_time() - self._began_cpu)
            self.generations.append(int(info.get("generation", -1)))
            self.full += info.get("generation") == 2

    def by_generation(self) -> dict[str, list[float]]:
        """{generation: [collections, longest ms]}."""
        found: dict[str, list[float]] = {}
        for generation, pause in zip(self.generations, self.pauses, strict=True):
            count, longest = found.get(str(generation), [0, 0.0])
            found[str(generation)] = [count + 1, max(longest, ms(pause))]
        return found

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def channels_for(env: simcord.Env, games: int) -> list[tuple[Any, Any]]:
    """A (channel, host) for every table: servers of 100 channels, each with one host."""
    made = []
    for first in range(0, games, TABLES_PER_GUILD):
        guild = env.create_guild(f"Load {first // TABLES_PER_GUILD}")
        host = guild.add_member(env.create_user(f"host{first // TABLES_PER_GUILD}"))
        made += [
            (guild.create_text_channel(f"romme-{n}"), host) for n in range(first, min(games, first + 100))
        ]
    return made


async def open_by_clicks(env: simcord.Env, places: list[tuple[Any, Any]]) -> list[tuple[int, int]]:
    """Open tables as people do: ``/romme start computers:3``, then **Start**; (game id, host id) each."""
    service = tables(env.bot)
    opened = []
    for channel, host in places:
        lobby = await host.slash(channel, "romme start", computers=3, computer_level=COMPUTER_LEVEL)
        assert lobby.response is not None, "the lobby was not posted"
        await host.click(lobby.response, label="Start")
        game = service.game_in_channel(channel.id)
        assert game is not None and game.running, "the game did not start"
        opened.append((game.id, host.id))
    return opened


async def open_by_service(bot: RommeBot, places: list[tuple[Any, Any]]) -> list[tuple[int, int]]:
    """Open tables with the calls the cog makes for ``/romme start computers:3`` and **Start**: the
    lobby, the deal, and the table message posted (and its id saved) by the publisher."""
    service = tables(bot)
    publisher = bot.publisher
    opened = []
    for channel, host in places:
        game = await service.open_lobby(
            channel.guild.id,
            channel.id,
            host.id,
            host.name,
            computers=3,
            computer_level=COMPUTER_LEVEL,
            turn_timeout=bot.settings.turn_timeout,
        )
        game = await service.begin(game.id, host.id)
        await publisher.repost_table(game)
        assert game.table_message_id is not None, "the table message was not posted"
        opened.append((game.id, host.id))
    return opened


async def in_fresh_context(work: Any) -> Any:
    """Await ``work`` in a task with an empty context: the tasks and timers it starts belong to no
    SimCord operation, so they run in real time and SimCord's settling never waits for them."""
    context = contextvars.Context()
    # Only SimCord's webhook adapter is carried over: hand panels are edited through interaction
    # webhooks, which discord.py sends through the adapter of the current context.
    context.run(async_context.set, async_context.get())
    return await asyncio.get_running_loop().create_task(work, context=context)


async def open_panels(env: simcord.Env, places: list[tuple[Any, Any]]) -> int:
    """The host of each of these tables clicks My hand: the bot keeps that panel live from then on."""
    service = tables(env.bot)
    for channel, host in places:
        game = service.game_in_channel(channel.id)
        assert game is not None and game.table_message_id is not None
        message = env.backend.get_message(channel.id, game.table_message_id)
        result = await host.click(to_discord_message(env, message), label="My hand")
        assert result.ephemeral, "the hand panel was not answered"
    # The clicks ran on SimCord's virtual clock (time.monotonic() from 0); from here on the bot runs
    # in real time, so the panels' token ages are counted from now (bench only).
    bot = env.bot
    assert isinstance(bot, RommeBot)
    keeper = bot.publisher.panels
    for panel in keeper._panels.values():
        panel.since = panel.last_edit = time.monotonic()
    return keeper.open


async def hosts_watch(bot: RommeBot, opened: list[tuple[int, int]], spread: float) -> None:
    """The hosts who hold a panel stay, away: the computer plays their seat (as after missed turns),
    and their panel follows their turns. Spread like :func:`hosts_leave`."""
    service = tables(bot)
    began = time.perf_counter()
    for n, (game_id, host_id) in enumerate(opened):
        await asyncio.sleep(max(0.0, began + spread * n / len(opened) - time.perf_counter()))
        game = service.get(game_id)
        seat = game.seat_of(host_id)
        assert seat is not None
        game.seats[seat].away = True  # what the autopilot does after missed turns (bench only)
        service.autopilot.schedule(game)
        bot.publisher.update(game)


def panel_gap(log: TimedRequests, start: int) -> float:
    """The longest real time between two edits of one panel (or from the start to its first)."""
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(start, len(log)):
        if is_panel_edit(log[i]):
            times[log[i].path.split("/")[4]].append(log.stamps[i].real)
    gap = 0.0
    for stamps in times.values():
        stamps.sort()
        gap = max([gap] + [b - a for a, b in itertools.pairwise(stamps)])
    return gap


async def hosts_leave(bot: RommeBot, opened: list[tuple[int, int]], spread: float) -> None:
    """What ``/romme leave`` does for each host: the service gives the seat to the computer, and the
    publisher is asked to redraw the table. The hosts leave one after the other over ``spread``
    seconds, as tables of a real server start at different times (all at once, every table would
    move in the same instant forever)."""
    service = tables(bot)
    publisher = bot.publisher
    began = time.perf_counter()
    for n, (game_id, host_id) in enumerate(opened):
        await asyncio.sleep(max(0.0, began + spread * n / len(opened) - time.perf_counter()))
        publisher.update(await service.leave(game_id, host_id))


def tables(bot: discord.Client) -> TableService:
    assert isinstance(bot, RommeBot)  # SimCord types the bot it runs as any discord.Client
    return bot.tables


def edit_rates(log: TimedRequests, start: int) -> tuple[int, float]:
    """(most edits of one channel within one second, shortest gap between two of them)."""
    times: dict[str, list[float]] = defaultdict(list)
    for i in range(start, len(log)):
        if is_message_edit(log[i]):
            times[log[i].path.split("/")[2]].append(log.stamps[i].real)
    most, gap = 0, math.inf
    for stamps in times.values():
        stamps.sort()
        left = 0
        for right, moment in enumerate(stamps):
            while moment - stamps[left] >= 1.0:
                left += 1
            most = max(most, right - left + 1)
            if right:
                gap = min(gap, moment - stamps[right - 1])
    return most, gap


async def run(
    games: int,
    seconds: float,
    delay: float,
    seed: int,
    folder: Path,
    clicks: int = 20,
    panels: int = 20,
    profile: Path | None = None,
) -> dict[str, Any]:
    # The tables are opened with the computer paused (an hour between moves): SimCord waits after
    # each click until the bot is idle, and four computers moving every 1.5 s never are.
    bot: RommeBot = create_bot(
        database_path=folder / "load.db", computer_delay=PAUSED, game_seed=seed, table_edit_interval=1.0
    )
    try:
        return await measure(bot, games, seconds, delay, clicks, panels, profile)
    finally:
        await bot.close()  # SimCord detaches the bot; closing it (and its database) is the owner's job


async def measure(
    bot: RommeBot,
    games: int,
    seconds: float,
    delay: float,
    clicks: int,
    panels: int = 0,
    profile: Path | None = None,
) -> dict[str, Any]:
    """Open the tables, let them play ``seconds``, and return the figures."""
    async with simcord.run(bot) as env:
        log = time_requests(env)
        # SimCord records every payload that crosses it in a transcript, for the report of a failing
        # test; nothing here reads it, and at 1,000 tables it grew by some 100,000 objects a minute
        # that the bot's garbage collector had to walk (the simulated Discord's memory, not the bot's).
        env.backend.transcript = collections.deque(maxlen=0)  # type: ignore[assignment]
        service = tables(bot)
        places = channels_for(env, games)
        began = time.perf_counter()
        opened = await open_by_clicks(env, places[:clicks])
        panels = min(panels, clicks)
        kept = await open_panels(env, places[:panels])
        # Clicks go through SimCord's settling, whose cost grows with every sleeping task of every
        # table; the other tables are opened by the cog's own calls, in real time.
        opened += await in_fresh_context(open_by_service(bot, places[clicks:]))
        setup_s = time.perf_counter() - began
        # From here on the bot runs in real time, on its own; its REST calls still go to SimCord.
        service.autopilot.computer_delay = delay
        timer = MoveTimer(service, delay)
        await in_fresh_context(hosts_watch(bot, opened[:panels], delay))
        await in_fresh_context(hosts_leave(bot, opened[panels:], delay))
        # Not the storage interface: each backend's own write counter (see bench/load_processes.py).
        writes: Any = cast(Any, bot.storage)._writes
        first_request, transactions = len(log), writes.transactions
        profiler = None
        if profile is not None:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.001, async_mode="disabled")
        with GcPauses() as collector:
            disk = bytes_written()
            timer.measuring = collector.measuring = True
            if profiler is not None:
                profiler.start()
            start = time.perf_counter()
            await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - start
            if profiler is not None:
                profiler.stop()
            timer.measuring = collector.measuring = False
            disk = bytes_written() - disk
        if profiler is not None and profile is not None:
            html = profile.suffix == ".html"
            profile.write_text(profiler.output_html() if html else profiler.output_text(show_all=False))
        running = sum(1 for game_id, _ in opened if service.get(game_id).running)
        most, gap = edit_rates(log, first_request)
        edits = sum(1 for i in range(first_request, len(log)) if is_message_edit(log[i]))
        panel_edits = sum(1 for i in range(first_request, len(log)) if is_panel_edit(log[i]))
        longest = panel_gap(log, first_request)
        batches = writes.transactions - transactions
        now_mb, peak_mb = rss_mb()
        # Stop the computers and the table edits before SimCord shuts the bot down.
        await in_fresh_context(service.close())
        await in_fresh_context(bot.publisher.close())
        return {
            "games": games,
            "games_running": running,
            "seconds": round(elapsed, 2),
            "moves": timer.moves,
            "moves_per_s": round(timer.moves / elapsed, 1),
            "move_p50_ms": ms(median(timer.samples)),
            "move_p99_ms": ms(percentile(timer.samples, 0.99)),
            "lag_p50_ms": ms(median(timer.lags)),
            "lag_p99_ms": ms(percentile(timer.lags, 0.99)),
            "rss_mb": round(peak_mb, 1),
            "rss_now_mb": round(now_mb, 1),
            "table_edits_per_channel_per_s": most,
            "table_edit_min_gap_s": round(gap, 3) if math.isfinite(gap) else None,
            "table_edits": edits,
            "table_edits_per_s": round(edits / elapsed, 1),
            "panels": kept,
            "panel_edits": panel_edits,
            "panel_edits_per_s": round(panel_edits / elapsed, 1),
            "panel_edit_max_gap_s": round(longest, 2),
            "edits_per_s": round((edits + panel_edits) / elapsed, 1),
            "transactions": batches,
            "writes_per_transaction": round(timer.moves / batches, 2) if batches else None,
            "gc_pauses": len(collector.pauses),
            "gc_pause_max_ms": ms(max(collector.pauses, default=0.0)),
            "gc_pause_total_ms": ms(sum(collector.pauses)),
            "gc_pause_max_cpu_ms": ms(max(collector.cpu, default=0.0)),
            "gc_gen2": collector.full,
            "gc_by_generation": collector.by_generation(),
            "disk_bytes_per_move": round(disk / timer.moves, 1) if timer.moves else None,
            "setup_s": round(setup_s, 1),
            "computer_delay_s": delay,
        }


COMPUTER_LEVEL = "normal"
"""The level of the three computer seats of every table (``--computer-level``)."""


def main(argv: list[str] | None = None) -> dict[str, Any]:
    global COMPUTER_LEVEL
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=500, help="tables playing at once (default 500)")
    parser.add_argument("--seconds", type=float, default=30.0, help="real seconds measured (default 30)")
    parser.add_argument("--computer-delay", type=float, default=1.5, help="seconds between computer moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clicks", type=int, default=20, help="tables opened by slash command and click")
    parser.add_argument("--panels", type=int, default=20, help="tables whose host keeps a live hand panel")
    parser.add_argument("--quick", action="store_true", help="50 tables for 10 s")
    parser.add_argument(
        "--profile", type=Path, help="write a pyinstrument profile of the measured time (.html, or text)"
    )
    parser.add_argument(
        "--gc-thresholds", help="collector thresholds to try after tuning, e.g. 5000,20,100 (as bot.process)"
    )
    parser.add_argument(
        "--switch-interval", type=float, help="the interpreter's thread switch interval to try, in seconds"
    )
    parser.add_argument(
        "--default-gc",
        action="store_true",
        help="keep CPython's collector and thread switch settings (romme-bot tunes them)",
    )
    parser.add_argument(
        "--processes", type=int, help="N bot processes on --database-url (bench/load_processes.py)"
    )
    parser.add_argument("--database-url", help="the PostgreSQL database of --processes")
    parser.add_argument("--compare", action="store_true", help="with --processes: 1..N processes, and SQLite")
    parser.add_argument("--computer-level", choices=("easy", "normal", "hard"), default="normal")
    args = parser.parse_args(argv)
    COMPUTER_LEVEL = args.computer_level
    if args.processes is not None:
        from bench import load_processes

        if not args.database_url:
            parser.error("--processes needs --database-url postgresql://…")
        return load_processes.main(
            args.processes,
            args.database_url,
            args.games,
            args.seconds,
            args.computer_delay,
            args.seed,
            args.compare,
        )
    if args.quick:
        args.games, args.seconds = 50, 10.0
    quiet()
    if not args.default_gc:
        tune_process()  # as romme-bot does at start (bot.process)
    if args.gc_thresholds:
        gc.set_threshold(*(int(n) for n in args.gc_thresholds.split(",")))
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    with tempfile.TemporaryDirectory(prefix="romme-load-") as folder:
        result = asyncio.run(
            run(
                args.games,
                args.seconds,
                args.computer_delay,
                args.seed,
                Path(folder),
                args.clicks,
                args.panels,
                args.profile,
            )
        )
    return report(result)


if __name__ == "__main__":
    main()
