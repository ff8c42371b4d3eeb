"""What the robustness tests share: the bot as they build it, a server with six people, interactions
fired by hand (forged ids, many at once) and the facts about a game that must survive anything.

SimCord's actor verbs (``click``, ``select``) only click components that exist on a message the
person can see, and they refuse to overlap: a second ``click`` while one runs raises
``SetupError("operation overlaps active click")``. Forged ids and clicks fired at once therefore go
through :func:`fire` / :func:`fire_all`, which build the same ``INTERACTION_CREATE`` payload as a
click (SimCord's own ``base_payload``) and emit it to the bot.
"""

from __future__ import annotations

import collections
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.results import InteractionResult

from bot import create_bot
from bot.client import RommeBot
from bot.service import TableService
from bot.service.game import Game, replay_snapshot
from bot.storage import Storage

SEED = 23
DECK_SIZE = 108
"""Two 52-card decks and four jokers (the default rules, R1)."""
BUTTON, STRING_SELECT = 2, 3
"""Discord's component types."""
COMPONENT_INTERACTION = 3


def make_bot(database: Path | str, seed: int = SEED, **overrides: Any) -> RommeBot:
    """The production bot on ``database`` (an SQLite file's path, or a ``postgresql://`` URL):
    seeded deals and computer moves, no computer delay, no merging of table edits (which would cost
    a real second per click under SimCord); ``overrides`` of its other settings."""
    where: dict[str, Any] = (
        {"database_url": database} if isinstance(database, str) else {"database_path": database}
    )
    return create_bot(**where, computer_delay=0, game_seed=seed, table_edit_interval=0, **overrides)


START_BOUND = 300.0
"""Seconds a bot may take to be ready at its start (or restart) under SimCord: only a guard against a
hung start. SimCord gives a start a fixed 5 s to settle and raises ``TimeoutError`` after them; a
bot process starting on a loaded machine (its leases taken, its games loaded from PostgreSQL) can
need more without anything being wrong."""


def patient_start(original: Any) -> Any:
    """SimCord's ``Env._settle_internal`` waiting for the bot to be ready at its start however long
    that takes (up to :data:`START_BOUND`), instead of failing after SimCord's fixed 5 s.

    SimCord settles a start with ``timeout=5.0`` inside its ``start``/``restart_bot`` operation. That
    timeout is also how far ahead SimCord looks for timers to wait for (a timer due within it is
    waited for in real time), so it is not made longer: a start still busy after it is settled
    again, 5 s at a time, until it is ready. Any other settle is left as it was asked for, and a
    start that is ready within 5 s is settled exactly as before.
    """

    async def patient(self: simcord.Env, **options: Any) -> None:
        starting = getattr(self, "_operation_label", None) in ("start", "restart_bot")
        if not (starting and options.get("timeout") == 5.0):
            await original(self, **options)
            return
        give_up = time.monotonic() + START_BOUND
        while True:
            try:
                await original(self, **options)
                return
            except TimeoutError:
                if time.monotonic() > give_up:
                    raise

    return patient


def quick_idle(original: Any) -> Any:
    """SimCord's ``Env._settle_internal`` polling every 2 ms instead of 50 ms (see conftest)."""

    async def quick(self: simcord.Env, *, idle: float = 0.002, **options: Any) -> None:
        await original(self, idle=idle, **options)

    return quick


def quick_settle(original: Any) -> Any:
    """:func:`quick_idle` and :func:`patient_start` together, for a bot process of the tests (the
    test run itself makes every start patient: ``tests/conftest.py``)."""
    return patient_start(quick_idle(original))


HANG = 600.0
"""Seconds of silence after which a test gives up on a bot process: only a guard against a hung
test, never a bound on how fast a process starts or plays (the tests wait for what it prints)."""


def next_line(child: subprocess.Popen[str]) -> str:
    """The process's next line of output (``""`` once it has ended), however long it takes to say it.

    Only a silence of :data:`HANG` seconds fails the test (the process is then killed): a loaded
    machine makes a process slow, and a slow process is not a failure.
    """
    assert child.stdout is not None
    stdout = child.stdout
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(HANG)
    if reader.is_alive():
        child.kill()
        reader.join(10)
        raise AssertionError(f"the bot process hung: not a line in {HANG:.0f} s")
    return said[0]


def answered_moves(child: subprocess.Popen[str], count: int) -> list[tuple[int, int, int, int]]:
    """The moves the process says it answered (``ANSWERED <game> <seq> <version> <user>``), read
    until there are ``count`` of them or its output ends."""
    answered: list[tuple[int, int, int, int]] = []
    while len(answered) < count and (line := next_line(child)):
        if line.startswith("ANSWERED"):
            answered.append(tuple(map(int, line.split()[1:])))  # type: ignore[arg-type]
    return answered


@dataclass
class Hall:
    """A server with two game channels and six people: ada, bob, cy, dee, eve, fay."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channels: list[simcord.ChannelHandle]
    people: list[simcord.MemberActor]

    @classmethod
    def build(cls, env: simcord.Env) -> Hall:
        guild = env.create_guild("Cards")
        channels = [guild.create_text_channel(name) for name in ("romme", "romme-two")]
        names = ("ada", "bob", "cy", "dee", "eve", "fay")
        people = [guild.add_member(env.create_user(name)) for name in names]
        return cls(env, guild, channels, people)

    def person(self, name: str) -> simcord.MemberActor:
        return next(p for p in self.people if p.name == name)


def tables(env: simcord.Env) -> TableService:
    """The running bot's table service (to read the state a test checks, never to play)."""
    assert isinstance(env.bot, RommeBot)
    return env.bot.tables


def state(game: Game) -> dict[str, Any]:
    """Everything about ``game`` that play decides: the snapshot without wall-clock deadlines and
    without the table message's id (a repost may change it)."""
    snap = game.to_snapshot()
    for key in ("turn_deadline", "round_deadline", "table_message_id"):
        snap.pop(key, None)
    return snap


def card_count(game: Game) -> collections.Counter[str]:
    """Every card of the current round, wherever it is: hands, pending melds, table, stock, discard."""
    assert game.match is not None
    rnd = game.match.round.to_dict()
    cards: collections.Counter[str] = collections.Counter()
    for hand in rnd["hands"]:
        cards.update(hand)
    for melds in rnd["pending"]:
        for meld in melds:
            cards.update(meld["cards"])
    for meld in rnd["table"]:
        cards.update(meld["cards"])
    cards.update(rnd["stock"])
    cards.update(rnd["discard"])
    return cards


async def move_log(env: simcord.Env, game_id: int) -> list[tuple[int, int, int | None, dict[str, Any]]]:
    """The game's logged moves as ``(seq, seat, user_id, move)``, in order."""
    assert isinstance(env.bot, RommeBot)
    records = await env.bot.storage.moves(game_id)
    return [(r.seq, r.seat, r.user_id, r.move) for r in records]


def component_payload(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    """The ``data`` of a button click (``values`` None) or a string-select choice."""
    if values is None:
        return {"custom_id": custom_id, "component_type": BUTTON}
    return {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values)}


def _emit(
    actor: simcord.MemberActor, message: Any, custom_id: str, values: list[str] | None
) -> InteractionResult:
    env = actor._env
    backend = env.backend
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = backend.get_message(channel_id, message.id)
    record, payload = sim_interactions.base_payload(
        backend,
        type=COMPONENT_INTERACTION,
        channel_id=stored.channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=component_payload(custom_id, values),
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    if custom_id not in _ids_on(stored.components):
        # Discord only sends clicks on components of the message, and discord.py drops any other
        # id; a forged id therefore arrives as the only component of the message it was clicked on
        # (as on a message sent by an older or foreign version of the bot).
        payload["message"]["components"] = [{"type": 1, "components": [_forged(custom_id, values)]}]
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def _ids_on(rows: list[dict[str, Any]]) -> set[str]:
    found = set()
    for row in rows:
        for item in row.get("components", [row]):
            if item.get("custom_id"):
                found.add(item["custom_id"])
    return found


def _forged(custom_id: str, values: list[str] | None) -> dict[str, Any]:
    if values is None:
        return {"type": BUTTON, "style": 1, "label": "?", "custom_id": custom_id}
    options = [{"label": value or "?", "value": value} for value in dict.fromkeys(values)]
    return {"type": STRING_SELECT, "custom_id": custom_id, "options": options, "max_values": 25}


async def fire(
    actor: simcord.MemberActor, message: Any, custom_id: str, values: list[str] | None = None
) -> InteractionResult:
    """``actor`` clicks ``custom_id`` on ``message`` (a message they can see), whether or not the
    message has that component: a forged click, answered by the bot before this returns."""
    return (await fire_all([(actor, message, custom_id, values)]))[0]


async def fire_all(
    clicks: list[tuple[simcord.MemberActor, Any, str, list[str] | None]],
) -> list[InteractionResult]:
    """Emit every click before the bot handles any, then let the bot run them all at once.

    Each interaction becomes its own task in discord.py, so the handlers interleave at every await
    (saves, Discord calls) exactly as simultaneous clicks do in production.
    """
    env: simcord.Env = clicks[0][0]._env
    env._begin_operation("fire_all")
    try:
        results = [_emit(actor, message, cid, values) for actor, message, cid, values in clicks]
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return results


@dataclass(frozen=True)
class Answer:
    """What the bot sent for ONE interaction, read from the REST log (a message shared by several
    clicks, such as a panel edited in place, only shows the last edit, so the log is the truth).

    ``kind`` is the callback type (4 a new message, 7 an edit of the clicked message), or ``"followup"``.
    """

    kind: int | str
    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    ephemeral: bool

    @property
    def refusal(self) -> bool:
        """A refusal line (every refusal starts with the warning sign)."""
        return self.content.startswith("⚠️")

    def text(self) -> str:
        """The content and every embed text, as one string."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [embed.get("footer", {}).get("text", "")]
            parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
        return "\n".join(parts)


def answers(env: simcord.Env, result: InteractionResult, *, since: int = 0) -> list[Answer]:
    """Every answer the bot sent to the interaction of ``result`` (REST log entries from ``since``)."""
    record = result._interaction
    found = []
    callback = f"/interactions/{record.id}/{record.token}/callback"
    followup = f"/{record.token}"
    for entry in env.http_requests[since:]:
        body = entry.json if isinstance(entry.json, dict) else {}
        if entry.method == "POST" and entry.path == callback:
            data = body.get("data") or {}
            kind = body.get("type")
            assert isinstance(kind, int), "an interaction callback names its type"
            if kind == 7:
                assert record.source_message_id is not None, "an update answers a click on a message"
                source = env.backend.get_message(record.channel_id, record.source_message_id)
                ephemeral = bool(source.flags & EPHEMERAL)
            else:
                ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            found.append(_answer(kind, data, ephemeral))
        elif entry.method == "POST" and entry.path.startswith("/webhooks/") and entry.path.endswith(followup):
            found.append(_answer("followup", body, bool(int(body.get("flags") or 0) & EPHEMERAL)))
    return found


EPHEMERAL = 1 << 6


def _answer(kind: int | str, data: dict[str, Any], ephemeral: bool) -> Answer:
    return Answer(
        kind,
        data.get("content") or "",
        list(data.get("embeds") or []),
        list(data.get("components") or []),
        ephemeral,
    )


def is_refusal(result: InteractionResult) -> bool:
    """The answer is a refusal line (every refusal starts with the warning sign)."""
    message = result.response
    return message is not None and (message.content or "").startswith("⚠️")


async def unfinished_games_come_back(database: Path) -> None:
    """Every unfinished game of the SQLite file ``database`` reads back, its match at the stored
    version (at least one game: the caller left some running)."""
    storage = await Storage.open(database, replay=replay_snapshot)
    try:
        games = await storage.unfinished_games()
        assert games
        for record in games:
            game = Game.from_snapshot(record.snapshot)
            assert game.match is not None and game.version == record.version
    finally:
        await storage.close()
