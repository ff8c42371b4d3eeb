"""Time from a click to the bot's answer, through SimCord, beside a bot whose button only says "ok".

``python bench/interactions.py`` plays seeded two-person games of the real bot (``create_bot`` on a
SQLite file in a temporary folder, production table-edit merging) by clicking its buttons as people
do: My hand, Draw, the card select, Meld, Discard, Lay off… For every Draw, Meld and Discard click it
takes the time from the click to the interaction's answer reaching Discord (SimCord's REST log), and
counts the REST calls the action costs, including the table edit that follows it (the virtual clock
is moved on past the one-second merge window after every action). The same clicks are timed on a
minimal discord.py bot defined here, whose button answers "ok"; the two alternate in blocks, so a
noisy neighbour on the machine hurts both alike. Both run under the garbage collector settings
``romme-bot`` sets at start (:func:`bot.process.tune_process`; ``--default-gc`` keeps CPython's).

The last line is one JSON object: action_p50_ms, action_p99_ms (every timed move click),
draw_/meld_/discard_ p50 and p99, baseline_p50_ms, baseline_p99_ms, ratio_p50 (target ≤ 2.0),
rest_calls_per_action (mean REST calls of one move click, target ≤ 2), rest_calls_max,
rest_calls_per_select (the card select that comes before a Meld or Discard),
panel_edits_per_action (open hand panels the bot redraws through an earlier interaction's token, in
the edit budget: the other person's when their turn comes, the mover's own at a round's end; not
counted in the click's calls), samples; and, to show
where a move click's time goes, save_p50_ms: the median time of the move's save (the move log row,
and a snapshot every few moves, committed with ``synchronous = FULL``, i.e. an fsync) inside that
click, measured by wrapping the table service's save step on the bot's own instance; and the bytes
written per move: row_bytes_per_move (the rows' contents, see ``bench._common.RowBytes``: what a
database's write-ahead log carries) and disk_bytes_per_move (what the process wrote: SQLite's WAL
pages and checkpoints).

``--compare`` times variants of the bot side by side in one run, in alternating blocks (each block
runs every variant once, in a rotating order) beside the minimal bot:

- ``before``: a full snapshot with every save, the panel drawn after the commit (the bot before
  issue 17);
- ``snapshots``: the move saved as a log row, a snapshot every 16 moves; the panel drawn after;
- ``after``: as ``snapshots``, and the panel drawn while the commit runs (sent after it).

``--compare styles`` sets ``after`` (cards as the application's emoji faces, the default style) beside
``text`` (the same bot with ``CARD_STYLE=text``) and reports ``emoji_vs_text``, the p50 ratio, and the
REST calls per action of each.

``--compare metrics`` sets ``after`` (no ``HEALTH_PORT``: no metrics) beside ``metrics`` (the same bot
with ``HEALTH_PORT`` on a free loopback port: its health and metrics server listening, every click,
save and computer move measured) and reports ``metrics_vs_off``, the p50 ratio (target ≤ 1.05), and
``metrics_clicks_counted``, the clicks the ``metrics`` bot's ``romme_click_seconds`` counted (scraped
over HTTP at the end of each block, so the series are known to be live).

Its last line is one JSON object: for each variant its p50/p99, save p50, bytes per move and
ratio_p50 to the minimal bot of the same run; ``after_vs_before`` (p50 ratio) and
``bytes_before_over_after`` (row bytes per move).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import socket
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
from discord.ext import commands

import cogs.clicks
from bench._common import (
    RowBytes,
    TimedRequests,
    bytes_written,
    component,
    is_callback,
    is_panel_edit,
    median,
    ms,
    option_values,
    percentile,
    quiet,
    report,
    time_requests,
)
from bot import create_bot
from bot.client import RommeBot
from bot.engine.computer import ComputerPlayer
from bot.process import tune_process
from bot.render.ids import Target, lay_off_option
from bot.service import TableService
from bot.service.game import Game

TIMED = ("draw", "meld", "discard")
EDIT_INTERVAL = 1.0  # production's merge window for table edits (Settings.table_edit_interval)


@dataclass
class Samples:
    """Latencies (seconds) by action, REST calls by action, and the select's REST calls."""

    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    rest: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    baseline: list[float] = field(default_factory=list)
    saves: list[float] = field(default_factory=list)
    other_panels: list[int] = field(default_factory=list)
    last_save: float = math.nan
    row_bytes: int = 0
    disk_bytes: int = 0
    moves: int = 0
    clicks_counted: int = 0

    def enough(self, wanted: int) -> bool:
        return all(len(self.latency[kind]) >= wanted for kind in TIMED)


async def timed_click(log: TimedRequests, click: Any) -> tuple[Any, float, int]:
    """Run ``click`` (a coroutine of a SimCord click); the result, seconds to the answer, REST calls."""
    start = len(log)
    began = time.perf_counter()
    result = await click
    answered = next((log.stamps[i].real for i in range(start, len(log)) if is_callback(log[i])), math.nan)
    return result, answered - began, len(log) - start


# ---------------------------------------------------------------------- the minimal bot


class OkButton(discord.ui.View):
    """One persistent button whose whole job is to answer "ok"."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Ok", custom_id="bench:ok")
    async def ok(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message("ok", ephemeral=True)


class MinimalBot(commands.Bot):
    """The baseline: discord.py with one slash command that posts the Ok button."""

    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents)

        @self.tree.command(name="button", description="Post the Ok button")
        async def button(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("press", view=OkButton())

    async def setup_hook(self) -> None:
        self.add_view(OkButton())
        await self.tree.sync()


async def baseline_block(samples: Samples, clicks: int) -> None:
    async with simcord.run(MinimalBot()) as env:
        log = time_requests(env)
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("ok")
        member = guild.add_member(env.create_user("ada"))
        posted = await member.slash(channel, "button")
        assert posted.response is not None
        for _ in range(clicks):
            result, seconds, _calls = await timed_click(log, member.click(posted.response, label="Ok"))
            assert result.response is not None and result.response.content == "ok"
            samples.baseline.append(seconds)


# ---------------------------------------------------------------------- the real bot


def service(env: simcord.Env) -> TableService:
    bot = env.bot
    assert isinstance(bot, RommeBot)  # SimCord types it as any discord.Client
    return bot.tables


class Table:
    """One seeded two-person game, played by clicks with the computer player's judgement."""

    def __init__(self, env: simcord.Env, log: TimedRequests, channel: Any, people: list[Any], seed: int):
        self.env, self.log, self.channel, self.people = env, log, channel, people
        self.brains = [ComputerPlayer(random.Random(seed * 10 + i)) for i in range(len(people))]
        self.panels: dict[int, Any] = {}
        self.announcement: Any = None

    def game(self) -> Game:
        game = service(self.env).game_in_channel(self.channel.id, include_finished=True)
        assert game is not None
        return game

    def table_message(self) -> Any:
        from simcord.results import to_discord_message

        game = self.game()
        assert game.table_message_id is not None
        return to_discord_message(
            self.env, self.env.backend.get_message(game.channel_id, game.table_message_id)
        )

    async def open(self, rounds: int) -> None:
        host = self.people[0]
        lobby = await host.slash(self.channel, "romme start", opening=0, rounds=rounds, turn_timeout=600)
        for person in self.people[1:]:
            await person.click(lobby.response, label="Join")
        await host.click(lobby.response, label="Start")

    async def action(self, kind: str, person: Any, click: Any, samples: Samples, *, timed: bool) -> Any:
        """One click that makes a move (or a select); the merge window passes before the next one."""
        start = len(self.log)
        result, seconds, _calls = await timed_click(self.log, click)
        await self.env.advance_time(EDIT_INTERVAL)  # the merged table edit goes out in this second
        # Open panels redrawn by the bot through an earlier interaction's token (the other person's
        # when their turn comes; the mover's own at the round's end, whose answer is the public
        # announcement) go out in turns of the bot-wide edit budget: counted apart from the click's
        # calls. The click's own answer is its callback (or, deferred, an edit of "@original").
        others = [i for i in range(start, len(self.log)) if is_panel_edit(self.log[i])]
        calls = len(self.log) - start - len(others)
        samples.other_panels.append(len(others))
        if timed:
            samples.latency[kind].append(seconds)
            samples.saves.append(samples.last_save)
        samples.last_save = math.nan
        samples.rest[kind].append(calls)
        if result.response is not None and result.response.ephemeral:
            self.panels[person.id] = result.response
        elif result.response is not None:
            self.announcement = result.response  # the round's end, in public
        return result

    async def turn(self, samples: Samples) -> bool:
        """Play the seat on turn until it discards or the round ends; False once the match is over."""
        game = self.game()
        seat = game.to_play
        assert game.match is not None and seat is not None
        person = self.people[seat]
        opened = await person.click(self.table_message(), label="My hand")
        self.panels[person.id] = opened.response
        while True:
            game = self.game()
            if not game.running:
                return False
            if game.between_rounds:
                await self.next_round()
                return self.game().running
            if game.to_play != seat:
                return True
            assert game.match is not None
            move = self.brains[seat].next_move(game.match.view(seat))
            panel = self.panels[person.id]
            cards = [str(card) for card in move.cards]
            if move.kind == "draw":
                label = "Draw" if move.source == "stock" else "Take discard"
                await self.action("draw", person, person.click(panel, label=label), samples, timed=True)
            elif move.kind in ("meld", "discard"):
                picked = cards if move.kind == "meld" else [str(move.card)]
                select = component(panel, action="select")["custom_id"]
                values = option_values(panel, picked)
                await self.action(
                    "select", person, person.select(panel, values, custom_id=select), samples, timed=False
                )
                label = "Meld" if move.kind == "meld" else "Discard"
                await self.action(
                    move.kind, person, person.click(self.panels[person.id], label=label), samples, timed=True
                )
            elif move.kind == "take_back":
                await self.action(
                    "take_back", person, person.click(panel, label="Take back"), samples, timed=False
                )
            else:
                # Lay off, Swap joker: pick the cards, the button asks for the meld, the target moves.
                chosen = cards if move.kind == "lay_off" else [str(move.card), *cards]
                select = component(panel, action="select")["custom_id"]
                values = option_values(panel, chosen)
                await self.action(
                    "select", person, person.select(panel, values, custom_id=select), samples, timed=False
                )
                label = "Lay off" if move.kind == "lay_off" else "Swap joker"
                await self.action(
                    "target", person, person.click(self.panels[person.id], label=label), samples, timed=False
                )
                shown = self.panels[person.id]
                target_select = component(shown, action="target")
                if move.kind == "lay_off":
                    offered = [option["value"] for option in target_select["options"]]
                    value = lay_off_option(move.meld_id or "", move.end, offered)
                else:
                    value = Target(move.meld_id or "", card=str(move.card)).value()
                await self.action(
                    move.kind,
                    person,
                    person.select(shown, [value], custom_id=target_select["custom_id"]),
                    samples,
                    timed=False,
                )

    async def next_round(self) -> None:
        """Click Next round on the round's end message (the answer to the move that ended it)."""
        assert self.announcement is not None
        await self.people[0].click(self.announcement, label="Next round")
        self.announcement = None


VARIANTS = {
    # name: (moves logged after a snapshot at most, draw the panel while the commit runs, card style,
    # health and metrics on)
    "before": (1, False, "emoji", False),
    "snapshots": (16, False, "emoji", False),
    "after": (16, True, "emoji", False),
    "text": (16, True, "text", False),
    "metrics": (16, True, "emoji", True),
}
COMPARED = {
    "saves": ("before", "snapshots", "after"),
    "styles": ("after", "text"),
    "metrics": ("after", "metrics"),
}
"""What ``--compare`` sets side by side: the saving variants (issue 17), the card styles (issue 15:
``after`` shows cards as the application's emoji faces, ``text`` as text) or the metrics off and on
(issue 26)."""


def free_port() -> int:
    """A loopback port nobody listens on now (for the ``metrics`` variant's ``HEALTH_PORT``)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def clicks_counted(port: int) -> int:
    """``romme_click_seconds_count`` scraped from the health server on ``port``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    for line in text.splitlines():
        if line.startswith("romme_click_seconds_count "):
            return int(float(line.split()[1]))
    raise AssertionError("romme_click_seconds_count is not in /metrics")


async def bot_block(
    samples: Samples, wanted: int, seed: int, folder: Path, block: str, variant: str = "after"
) -> None:
    snapshot_every, draw_while_saving, card_style, health = VARIANTS[variant]
    bot = create_bot(
        database_path=folder / f"bench-{block}.db",
        computer_delay=0,
        game_seed=seed,
        table_edit_interval=EDIT_INTERVAL,
        turn_timeout=600,
        card_style=card_style,
        health_port=free_port() if health else None,
    )
    cogs.clicks.DRAW_WHILE_SAVING = draw_while_saving
    try:
        await play_block(bot, samples, wanted, seed, snapshot_every)
        if bot.ops is not None:
            # Scraped over HTTP, in a thread: the server answers on this loop.
            samples.clicks_counted += await asyncio.to_thread(clicks_counted, bot.ops.port)
    finally:
        cogs.clicks.DRAW_WHILE_SAVING = True
        await bot.close()  # SimCord detaches the bot; closing it (and its database) is the owner's job


def time_saves(tables: TableService, samples: Samples) -> None:
    """Note how long each save of the table service takes (its own instance; nothing else changes)."""
    save = tables.changes.save

    async def timed_save(game: Any, entries: list[Any], *rest: Any, **options: Any) -> Any:
        began = time.perf_counter()
        snapshot = await save(game, entries, *rest, **options)
        samples.last_save = time.perf_counter() - began
        return snapshot

    tables.changes.save = timed_save  # type: ignore[method-assign]


async def play_block(bot: Any, samples: Samples, wanted: int, seed: int, snapshot_every: int = 16) -> None:
    async with simcord.run(bot, settle_timeout=30) as env:
        log = time_requests(env)
        time_saves(service(env), samples)
        service(env).changes.snapshot_every = snapshot_every
        rows = RowBytes(service(env).storage)
        disk = bytes_written()
        try:
            await play_games(env, log, samples, wanted, seed)
        finally:
            samples.disk_bytes += bytes_written() - disk
            samples.row_bytes += rows.bytes
            samples.moves += rows.moves


async def play_games(env: simcord.Env, log: TimedRequests, samples: Samples, wanted: int, seed: int) -> None:
    guild = env.create_guild("Bench")
    people = [guild.add_member(env.create_user(name)) for name in ("ada", "bob")]
    game_no = 0
    while not samples.enough(wanted):
        game_no += 1
        table = Table(env, log, guild.create_text_channel(f"romme-{game_no}"), people, seed + game_no)
        await table.open(rounds=2)
        while not samples.enough(wanted) and await table.turn(samples):
            pass


def summary(samples: Samples) -> dict[str, Any]:
    every = [s for kind in TIMED for s in samples.latency[kind]]
    rest = [c for kind in TIMED for c in samples.rest[kind]]
    result: dict[str, Any] = {
        "action_p50_ms": ms(median(every)),
        "action_p99_ms": ms(percentile(every, 0.99)),
    }
    for kind in TIMED:
        result[f"{kind}_p50_ms"] = ms(median(samples.latency[kind]))
        result[f"{kind}_p99_ms"] = ms(percentile(samples.latency[kind], 0.99))
    base = median(samples.baseline)
    result.update(
        baseline_p50_ms=ms(base),
        baseline_p99_ms=ms(percentile(samples.baseline, 0.99)),
        ratio_p50=round(median(every) / base, 3),
        rest_calls_per_action=round(sum(rest) / len(rest), 3),
        rest_calls_max=max(rest),
        panel_edits_per_action=round(sum(samples.other_panels) / max(1, len(samples.other_panels)), 3),
        rest_calls_per_select=round(sum(samples.rest["select"]) / max(1, len(samples.rest["select"])), 3),
        save_p50_ms=ms(median([s for s in samples.saves if not math.isnan(s)])),
        row_bytes_per_move=round(samples.row_bytes / samples.moves, 1) if samples.moves else None,
        disk_bytes_per_move=round(samples.disk_bytes / samples.moves, 1) if samples.moves else None,
        samples={kind: len(samples.latency[kind]) for kind in TIMED} | {"baseline": len(samples.baseline)},
    )
    return result


def compare(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """Every variant and the minimal bot in each block, the variants in a rotating order."""
    names = list(COMPARED[args.compare])
    by_variant = {name: Samples() for name in names}
    baseline = Samples()
    for block in range(args.blocks):
        wanted = math.ceil(args.samples * (block + 1) / args.blocks)
        order = names[block % len(names) :] + names[: block % len(names)]
        asyncio.run(baseline_block(baseline, wanted * len(TIMED) - len(baseline.baseline)))
        for name in order:
            # The same seeds for every variant: the same games, the same clicks.
            asyncio.run(
                bot_block(by_variant[name], wanted, args.seed + 1000 * block, folder, f"{name}-{block}", name)
            )
    base = median(baseline.baseline)
    result: dict[str, Any] = {
        "baseline_p50_ms": ms(base),
        "baseline_p99_ms": ms(percentile(baseline.baseline, 0.99)),
    }
    p50 = {}
    for name in names:
        samples = by_variant[name]
        samples.baseline = baseline.baseline
        figures = summary(samples)
        every = [x for kind in TIMED for x in samples.latency[kind]]
        p50[name] = median(every)
        result[name] = {
            key: figures[key]
            for key in (
                "action_p50_ms",
                "action_p99_ms",
                "ratio_p50",
                "save_p50_ms",
                "row_bytes_per_move",
                "disk_bytes_per_move",
                "rest_calls_per_action",
            )
        } | {"samples": len(every)}
    if args.compare == "styles":
        result["emoji_vs_text"] = round(p50["after"] / p50["text"], 3)
        result["blocks"] = args.blocks
        return result
    if args.compare == "metrics":
        result["metrics_vs_off"] = round(p50["metrics"] / p50["after"], 3)
        result["metrics_clicks_counted"] = by_variant["metrics"].clicks_counted
        result["blocks"] = args.blocks
        return result
    result["after_vs_before"] = round(p50["after"] / p50["before"], 3)
    result["snapshots_vs_before"] = round(p50["snapshots"] / p50["before"], 3)
    before, after = result["before"]["row_bytes_per_move"], result["after"]["row_bytes_per_move"]
    result["bytes_before_over_after"] = round(before / after, 2) if before and after else None
    result["blocks"] = args.blocks
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=100, help="timed clicks of each action (default 100)")
    parser.add_argument("--blocks", type=int, default=2, help="alternating baseline/bot blocks (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="30 samples, one block")
    parser.add_argument(
        "--compare",
        nargs="?",
        const="saves",
        choices=sorted(COMPARED),
        help="side by side: 'saves' (before / snapshots / after, the default), 'styles' (emoji / text) "
        "or 'metrics' (HEALTH_PORT off / on)",
    )
    parser.add_argument(
        "--default-gc",
        action="store_true",
        help="keep CPython's collector and thread switch settings (romme-bot tunes them)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.samples, args.blocks = 30, 1
    quiet()
    if not args.default_gc:
        tune_process()  # as romme-bot does at start (bot.process); the minimal bot runs under it too
    samples = Samples()
    with tempfile.TemporaryDirectory(prefix="romme-bench-") as folder:
        if args.compare:
            return report(compare(args, Path(folder)))
        for block in range(args.blocks):
            wanted = math.ceil(args.samples * (block + 1) / args.blocks)
            asyncio.run(baseline_block(samples, wanted * len(TIMED) - len(samples.baseline)))
            asyncio.run(bot_block(samples, wanted, args.seed + 1000 * block, Path(folder), str(block)))
    result = summary(samples)
    return report(result)


if __name__ == "__main__":
    main()
