"""Every interaction answered (issue 35): forged variants of every component, modal and slash option
the bot has, each answered within Discord's 3 s, a forged one with a short ephemeral refusal that
changes nothing in the database.

Nothing here is listed by hand. The grammars are the bot's own: every family of the register of
custom ids (``cogs.components.REGISTER``, read by the one ``DynamicItem`` the bot registered), every
modal it answered with, every option of every command it synced. Real custom ids come from the
messages the bot sent while a match was played to its end, a second one was running in another
channel, a third waited in another server's lobby, and an admin ran every command and pressed every
button of the private panels they answered with (a modal it opens is how the modals are found). A
grammar whose component none of that showed gets an id made from its template, so a new family is
forged here the day it is declared in the register.

Each real id is then forged field by field (its template's named groups): non-ASCII digits (``²``,
``٣``), a number of 31 digits, a negative one, an unknown word, the field left out, the id cut short,
another channel's or another server's game, another server or member as the owner; the component
arrives as the other type (a button's id on a select and back); a select's value is forged the same
ways; the original id is clicked from another server. A modal's inputs get the same numbers (past
the form's own length limit, as a forged client sends them), its id another server, an unknown
form, a member without the right. Commands get every option at its edges and every game's id (any
answer will do there, but a refusal changes nothing), the autocomplete odd text, and forged requests:
each option with a value Discord never sends (``"²"`` or 31 digits for a number, ``"maybe"`` for a
yes or no), an option the command does not have, one given twice.

What each must get: an answer SimCord accepted (its virtual clock closes the 3 s window as Discord
does; the real time to the answer is also measured); a forged one a short ephemeral refusal (the
warning line), the database byte for byte as before (every table dumped), no game changed in memory;
and no ERROR logged. The counts of grammars, modals and options covered are printed (past pytest's
capture): ``forged interactions: 17 custom-id grammars (2 from their template alone: ...), ...``.
"""

from __future__ import annotations

import collections
import inspect
import logging
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from re import _parser as sre  # type: ignore[attr-defined]
from typing import Any

import discord
import pytest
import simcord
from simcord import interactions as sim_interactions
from simcord.backend import serializers
from simcord.results import InteractionResult, to_discord_message

from bot.client import RommeBot
from bot.render.ids import parse_custom_id
from bot.service.game import GameStatus
from cogs.components import REGISTER, Component
from tests.discord.play_helpers import components, table_message
from tests.robustness.robust_helpers import EPHEMERAL, Answer, Hall, answers, state, tables

ANSWER_WINDOW = 3.0
"""Seconds Discord waits for the first answer to an interaction."""
ODD_NUMBERS = ("²", "٣", "1" + "0" * 30, "-5")
"""Numbers no field, value or input accepts: non-ASCII digits, 31 digits, a negative one."""
BUTTON, STRING_SELECT = 2, 3
MODAL_SUBMIT, TEXT_INPUT, LABEL = 5, 4, 18
COVERED: dict[str, int] = {}
"""What the test covered (also printed, past pytest's capture, when it passes)."""


# ---------------------------------------------------------------------- what the bot has


def grammars(bot: RommeBot) -> dict[str, re.Pattern[str]]:
    """Every custom-id grammar the bot answers, by its family's name: the register's (the one
    component class the bot registered reads every id through it; an id none of them matches is
    answered by the register's refusal, forged here as every grammar's odd fields)."""
    registered: dict[re.Pattern[str], type[Any]] = bot._connection._view_store._dynamic_items
    assert list(registered.values()) == [Component], f"registered besides the register: {registered}"
    return {route.family.name: route.family.pattern for route in REGISTER}


def synthesized(pattern: re.Pattern[str], fill: dict[str, str]) -> str:
    """A string ``pattern`` fully matches, each named group taking ``fill``'s value for its name
    where it has one (a real game's id), the rest the shortest text the pattern allows."""
    names = {number: name for name, number in pattern.groupindex.items()}

    def text(nodes: Any) -> str:
        out = []
        for op, arg in nodes:
            name = str(op)
            if name == "LITERAL":
                out.append(chr(arg))
            elif name == "IN":
                first = arg[0]
                if str(first[0]) == "RANGE":
                    out.append(chr(first[1][0]))
                elif str(first[0]) == "LITERAL":
                    out.append(chr(first[1]))
                else:
                    out.append("0")
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                low, _high, inner = arg
                out.append(text(inner) * max(low, 0))
            elif name == "SUBPATTERN":
                group, _add, _del, inner = arg
                value = fill.get(names.get(group, ""))
                out.append(value if value is not None else text(inner))
            elif name == "BRANCH":
                out.append(text(arg[1][0]))
            elif name == "CATEGORY":
                out.append("0")
            elif name == "ANY":
                out.append("x")
        return "".join(out)

    made = text(sre.parse(pattern.pattern, pattern.flags))
    assert pattern.fullmatch(made), f"could not make an id of {pattern.pattern!r}: {made!r}"
    return made


@dataclass
class Shown:
    """A component the bot sent: its id, its raw component, the message, who sees it."""

    custom_id: str
    component: dict[str, Any]
    message: Any
    viewer: int | None


def shown_components(env: simcord.Env) -> list[Shown]:
    """Every component with a custom id on every message the bot sent (any channel, any server)."""
    found = []
    bot_id = env.backend.bot_user.id
    for channel_messages in env.backend.messages.values():
        for message in channel_messages.values():
            if message.author_id != bot_id:
                continue
            meta = message.interaction_metadata or {}
            viewer = int(meta["user"]["id"]) if meta.get("user") else None
            for item in components(message):
                if item.get("custom_id"):
                    found.append(Shown(item["custom_id"], item, message, viewer))
    return found


# ---------------------------------------------------------------------- the database, before and after


def games(env: simcord.Env) -> dict[int, dict[str, Any]]:
    """Every game the bot holds in memory, as play decides it."""
    return {game.id: state(game) for game in tables(env).changes.games()}


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the SQLite file, as committed."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {name: sorted(connection.execute(f'SELECT * FROM "{name}"'), key=repr) for name in names}
    finally:
        connection.close()


class Stamps(list[Any]):
    """SimCord's log of the bot's REST requests, each stamped with the real and the virtual time
    it arrived (what the simulator saw, not the bot)."""

    def __init__(self, env: simcord.Env, entries: list[Any]) -> None:
        super().__init__(entries)
        self.env = env
        self.times: list[tuple[float, float]] = [(0.0, 0.0)] * len(entries)

    def append(self, entry: Any) -> None:
        self.times.append((time.perf_counter(), self.virtual()))
        super().append(entry)

    def virtual(self) -> float:
        return float(self.env.backend.clock.now().timestamp())


# ---------------------------------------------------------------------- the scene


@dataclass
class Scene:
    hall: Hall
    database: Path
    admin: simcord.MemberActor
    outsider: simcord.MemberActor
    elsewhere: simcord.ChannelHandle
    modals: list[tuple[InteractionResult, simcord.MemberActor]]
    stamps: Stamps
    timings: list[tuple[float, float]]

    @property
    def env(self) -> simcord.Env:
        return self.hall.env


async def played(hall: Hall) -> None:
    """A match of ada's, played to its end in the first channel by the computers (two rounds: its
    round's end is on a message); bob's running game with cy in the second, bob's panel open."""
    env = hall.env
    ada, bob, cy = hall.person("ada"), hall.person("bob"), hall.person("cy")
    first, second = hall.channels
    lobby = await ada.slash(first, "romme start", computers=2, rounds=2)
    assert lobby.response is not None
    await ada.click(lobby.response, label="Start")
    await ada.slash(first, "romme leave")
    game = tables(env).game_in_channel(first.id, include_finished=True)
    assert game is not None
    for _ in range(100):
        if game.status is GameStatus.FINISHED:
            break
        await env.advance_time(5)
    assert game.status is GameStatus.FINISHED
    await env.advance_time(5)
    lobby = await bob.slash(second, "romme start", rounds=1, opening=0)
    assert lobby.response is not None
    await cy.click(lobby.response, label="Join")
    await bob.click(lobby.response, label="Start")
    running = tables(env).game_in_channel(second.id)
    assert running is not None and running.running
    await bob.click(table_message(env, running), label="My hand")
    await bob.slash(second, "romme stop")  # its confirmation, left unclicked


def leaves(env: simcord.Env, actor: simcord.MemberActor, channel: simcord.ChannelHandle) -> list[Any]:
    """Every slash command the member sees, down to its subcommands: ``(path, options)``."""
    return [(" ".join(path), options) for path, options, _ in commands(env, actor, channel)]


def commands(env: simcord.Env, actor: simcord.MemberActor, channel: simcord.ChannelHandle) -> list[Any]:
    """``(path, options, command)`` of every slash command the member sees (the synced command)."""
    found = []
    for command in env.backend.visible_commands(user_id=actor.id, channel_id=channel.id):
        for path, leaf in sim_interactions.command_leaves(command):
            found.append((path, leaf.get("options") or [], command))
    return found


def forged_values(option: dict[str, Any]) -> list[Any]:
    """Values Discord never sends for ``option`` (its type, range, choices), as a forged request
    carries them."""
    kind = option["type"]
    if kind == 4:  # an integer
        values: list[Any] = ["²", "٣", "3", 10**30, 1.5, True]
        if "min_value" in option or option.get("choices"):
            values.append(-5)
        return values
    if kind == 3:  # a string
        return [10**30, True] + (["²", "nope"] if option.get("choices") else [])
    if kind == 5:  # a boolean
        return ["maybe", 1]
    return ["²", "-5", "1" + "0" * 30, 7]  # a member, a channel, a role: an id


def emit_command(
    actor: simcord.MemberActor,
    channel: simcord.ChannelHandle,
    command: dict[str, Any],
    path: list[str],
    options: list[dict[str, Any]],
) -> InteractionResult:
    """A slash command as Discord sends it, with ``options`` as given (unchecked: a forged client)."""
    nested: list[dict[str, Any]] = options
    for name in reversed(path[1:]):
        nested = [{"type": 1, "name": name, "options": nested}]
    data = {"id": command["id"], "name": command["name"], "type": 1, "options": nested}
    record, payload = sim_interactions.base_payload(
        actor._env.backend,
        type=2,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    actor._env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(actor._env, record)


async def required_values(
    actor: simcord.MemberActor, channel: simcord.ChannelHandle, path: str, options: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """A valid value of each required option (the autocomplete's first offer, else the smallest)."""
    values: dict[str, Any] = {}
    for option in options:
        if not option.get("required"):
            continue
        if option.get("autocomplete"):
            offered = await actor.autocomplete(channel, path, option["name"], "")
            if not offered:
                return None
            values[option["name"]] = offered[0]["value"]
        elif option.get("choices"):
            values[option["name"]] = option["choices"][0]["value"]
        elif "min_value" in option:
            values[option["name"]] = option["min_value"]
        else:
            return None
    return values


async def explored(scene: Scene) -> None:
    """The admin runs every command in the first channel, and presses every button of each private
    answer that is not a game's own (settings, preferences, history, replay, leaderboard): the
    modals they open are the bot's modals."""
    env, admin = scene.env, scene.admin
    channel = scene.hall.channels[0]
    for path, options in leaves(env, admin, channel):
        values = await required_values(admin, channel, path, options)
        if values is None:
            continue
        result = await admin.slash(channel, path, **values)
        message = result.response
        if message is None or not message.ephemeral:
            continue
        for pressed_id in [item.get("custom_id") for item in components(message)]:
            now = env.backend.get_message(message.channel_id, message.id)  # an edit changes its buttons
            item = next((c for c in components(now) if c.get("custom_id") == pressed_id), None)
            if item is None or item.get("type") != BUTTON or item.get("disabled"):
                continue
            if parse_custom_id(pressed_id) is not None:
                continue  # a game's own button: the game is played above, not here
            pressed = await admin.click(to_discord_message(env, now), custom_id=pressed_id)
            if pressed.modal is not None:
                scene.modals.append((pressed, admin))


@pytest.fixture
async def scene(hall: Hall, database_path: Path) -> Scene:
    env = hall.env
    admins = hall.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = hall.person("ada")
    env.backend.add_member_role(hall.guild.id, admin.id, admins.id)
    owner = env.create_user("zed")
    other = env.create_guild("Elsewhere", owner=owner)
    outsider = other.add_member(owner)
    elsewhere = other.create_text_channel("romme")
    await outsider.slash(elsewhere, "romme start")
    await played(hall)
    stamps = Stamps(env, list(env.backend.http_requests))
    env.backend.http_requests = stamps
    made = Scene(hall, database_path, admin, outsider, elsewhere, [], stamps, [])
    await explored(made)
    return made


# ---------------------------------------------------------------------- one forged interaction


@dataclass
class Forged:
    """One forged interaction: who, on which message, with which id (and values, for a select)."""

    what: str
    actor: simcord.MemberActor
    message: Any
    custom_id: str
    values: list[str] | None
    refused: bool = True
    """Whether it must be a refusal (every forgery is; a click from elsewhere too)."""


def emit_component(
    actor: simcord.MemberActor, message: Any, custom_id: str, kind: int, values: list[str] | None
) -> InteractionResult:
    """A component of type ``kind`` with ``custom_id`` clicked on ``message``, as its only
    component (how a forged or stale id arrives)."""
    env = actor._env
    backend = env.backend
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    stored = backend.get_message(channel_id, message.id)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if values is not None:
        data["values"] = values
    record, payload = sim_interactions.base_payload(
        backend, type=3, channel_id=stored.channel_id, guild_id=actor.guild.id, user_id=actor.id, data=data
    )
    payload["message"] = dict(serializers.message_payload(backend, stored))
    if kind == BUTTON:
        item: dict[str, Any] = {"type": BUTTON, "style": 1, "label": "?", "custom_id": custom_id}
    else:
        options = [{"label": v or "?", "value": v} for v in dict.fromkeys(values or ["?"])]
        item = {"type": kind, "custom_id": custom_id, "options": options, "max_values": 25}
    payload["message"]["components"] = [{"type": 1, "components": [item]}]
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


def emit_modal(
    actor: simcord.MemberActor, channel_id: int, custom_id: str, typed: dict[str, str]
) -> InteractionResult:
    """A modal submission as Discord would send it (no length limit checked: a forged client)."""
    env = actor._env
    inputs = [
        {"type": LABEL, "component": {"type": TEXT_INPUT, "custom_id": name, "value": value}}
        for name, value in typed.items()
    ]
    record, payload = sim_interactions.base_payload(
        env.backend,
        type=MODAL_SUBMIT,
        channel_id=channel_id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data={"custom_id": custom_id, "components": inputs},
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return InteractionResult(env, record)


async def settled(env: simcord.Env, result: InteractionResult) -> InteractionResult:
    env._begin_operation("forged")
    try:
        await env._settle_internal(dispatch="INTERACTION_CREATE")
    finally:
        env._end_operation()
    return result


async def checked(scene: Scene, what: str, send: Any, *, refused: bool = True) -> list[Answer]:
    """Send one interaction (``send()`` emits it) and check its answer and what it changed."""
    env = scene.env
    before, kept = dump(scene.database), games(env)
    mark = len(scene.stamps)
    began = (time.perf_counter(), scene.stamps.virtual())
    sent = send()
    result = await sent if inspect.isawaitable(sent) else await settled(env, sent)
    got = answers(env, result, since=mark)
    assert result.acknowledged and got, f"{what}: no answer"
    first = _first_callback(scene, result, mark)
    real, virtual = first[0] - began[0], first[1] - began[1]
    scene.timings.append((real, virtual))
    assert virtual < ANSWER_WINDOW and real < ANSWER_WINDOW, f"{what}: answered after {real:.2f} s"
    assert not result.deferred, f"{what}: deferred"
    assert not any("something went wrong" in a.content for a in got), f"{what}: {got}"
    if refused or any(a.refusal for a in got):
        assert all(a.ephemeral for a in got), f"{what}: answered in public: {got}"
    if refused:
        assert any(a.refusal for a in got), f"{what}: not refused: {[a.content for a in got]}"
        assert len(got[0].content) <= 200, f"{what}: not a short refusal"
    if refused or any(a.refusal for a in got):
        assert dump(scene.database) == before, f"{what}: the database changed"
        assert games(env) == kept, f"{what}: a game changed"
    return got


def _first_callback(scene: Scene, result: InteractionResult, mark: int) -> tuple[float, float]:
    record = result._interaction
    callback = f"/interactions/{record.id}/{record.token}/callback"
    for index in range(mark, len(scene.stamps)):
        if scene.stamps[index].path == callback:
            return scene.stamps.times[index]
    raise AssertionError("no callback")


# ---------------------------------------------------------------------- the forgeries


def field_forgeries(
    pattern: re.Pattern[str], custom_id: str, others: dict[str, list[str]], every: list[re.Pattern[str]]
) -> Iterator[tuple[str, str]]:
    """``custom_id`` forged field by field: ``(what, forged id)``. An odd field, a part cut off or
    added makes an id no grammar of ``every`` matches (one that some grammar still matches is a
    real id of another component, left out); another server's, member's or game's id makes a
    well-formed id naming what the clicked place is not."""
    match = pattern.fullmatch(custom_id)
    assert match is not None

    def foreign(forged: str) -> bool:
        return forged != custom_id and not any(grammar.fullmatch(forged) for grammar in every)

    for name, number in pattern.groupindex.items():
        start, end = match.span(number)
        if start < 0:
            continue
        value = match[name]
        for swap in dict.fromkeys([*ODD_NUMBERS, "nope", ""]):
            forged = custom_id[:start] + swap + custom_id[end:]
            if foreign(forged):
                yield f"{name}={swap!r}", forged
        elsewhere = others.get(value, []) + (others["games"] if "game" in name else [])
        for swap in dict.fromkeys(other for other in elsewhere if other != value):
            yield f"{name}={swap!r} (another's)", custom_id[:start] + swap + custom_id[end:]
    parts = custom_id.split(":")
    for forged in [":".join(parts[:cut]) for cut in range(1, len(parts))] + [custom_id + ":²"]:
        if foreign(forged):
            yield f"cut or lengthened to {forged!r}", forged


def value_forgeries(component: dict[str, Any]) -> Iterator[tuple[str, list[str]]]:
    """A select's values forged: odd numbers alone, an unknown word, and each option's value with
    its numbers, its words and its last character changed."""
    for odd in (*ODD_NUMBERS, "nope", ""):
        yield f"value {odd!r}", [odd]
    offered = [option["value"] for option in component.get("options") or []]
    for value in offered[:1] + offered[-1:]:
        yield f"{value!r} twice", [value, value]
        for odd in ODD_NUMBERS:
            if re.search("[0-9]+", value):
                yield f"{value!r} with {odd!r}", [re.sub("[0-9]+", odd, value, count=1)]
        for separator in "=:#":
            if separator in value:
                head, _, tail = value.rpartition(separator)
                yield f"{value!r} unknown after {separator}", [f"{head}{separator}nope"]
                yield f"{value!r} unknown before {separator}", [f"nope{separator}{tail}"]
                yield f"{value!r} odd after {separator}", [f"{head}{separator}²"]
        yield f"{value!r} cut", [value[:-1]]


def known_ids(scene: Scene) -> dict[str, list[str]]:
    """For a field's value, the values that would name something else of the same kind: another
    server for a server, another member for a member; ``games`` every game's id."""
    env = scene.env
    servers = [str(scene.hall.guild.id), str(scene.outsider.guild.id)]
    members = [str(p.id) for p in scene.hall.people]
    found = {server: servers for server in servers} | {member: members[::-1] for member in members}
    found["games"] = [str(game.id) for game in tables(env).changes.games()] + ["999999"]
    return found


def _channel_of(message: Any) -> int:
    return int(getattr(message, "channel_id", None) or message.channel.id)


def kind_of(component: dict[str, Any]) -> int:
    return int(component.get("type", BUTTON))


async def test_every_forged_interaction_is_answered_and_refused(
    scene: Scene, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.WARNING)
    env = scene.env
    bot = env.bot
    assert isinstance(bot, RommeBot)
    # Who clicks a component: the one it was shown to (also the other server's member).
    people = {p.id: p for p in scene.hall.people} | {scene.outsider.id: scene.outsider}
    shown = shown_components(env)
    others = known_ids(scene)
    found = grammars(bot)
    outsider_message = next(
        m for m in env.backend.messages[scene.elsewhere.id].values() if not m.flags & EPHEMERAL
    )
    hall_message = next(
        m
        for m in env.backend.messages[scene.hall.channels[1].id].values()
        if m.author_id == env.backend.bot_user.id and not m.flags & EPHEMERAL
    )
    tried = collections.Counter[str]()
    synthesized_for = []
    for grammar, pattern in found.items():
        bases = [s for s in shown if pattern.fullmatch(s.custom_id)]
        if not bases:
            fill = {"game_id": others["games"][0], "owner": str(scene.hall.guild.id)}
            made = synthesized(pattern, fill)
            second = env.backend.messages[scene.hall.channels[1].id].values()
            public = next(
                m for m in second if m.author_id == env.backend.bot_user.id and not m.flags & EPHEMERAL
            )
            bases = [Shown(made, {"type": BUTTON, "custom_id": made}, public, scene.admin.id)]
            synthesized_for.append(grammar)
        distinct = list({base.custom_id: base for base in bases}.values())[:4]
        for base in distinct:
            actor = people.get(base.viewer or 0, scene.admin)
            kind = kind_of(base.component)
            values = [o["value"] for o in base.component.get("options", [])][:1] if kind != BUTTON else None
            for what, forged in field_forgeries(pattern, base.custom_id, others, list(found.values())):
                label = f"{grammar} {base.custom_id} {what}"
                await checked(
                    scene, label, partial(emit_component, actor, base.message, forged, kind, values)
                )
                tried[grammar] += 1
            other_kind = STRING_SELECT if kind == BUTTON else BUTTON
            other_values = ["1"] if other_kind == STRING_SELECT else None
            await checked(
                scene,
                f"{grammar} {base.custom_id} as type {other_kind}",
                partial(emit_component, actor, base.message, base.custom_id, other_kind, other_values),
            )
            # From the other server: the outsider's for an id of the hall, the hall's for the outsider's.
            ours = _channel_of(base.message) != scene.elsewhere.id
            stranger, strange_message = (
                (scene.outsider, outsider_message) if ours else (scene.admin, hall_message)
            )
            await checked(
                scene,
                f"{grammar} {base.custom_id} from another server",
                partial(emit_component, stranger, strange_message, base.custom_id, kind, values),
            )
            tried[grammar] += 2
            if kind != BUTTON:
                for what, odd_values in value_forgeries(base.component):
                    label = f"{grammar} {base.custom_id} {what}"
                    await checked(
                        scene,
                        label,
                        partial(emit_component, actor, base.message, base.custom_id, kind, odd_values),
                    )
                    tried[grammar] += 1
    # Modals: the inputs' numbers, another server, an unknown form, a member without the right.
    assert scene.modals, "the admin's panels opened no modal"
    modal_ids = set()
    for shown_modal, opener in scene.modals:
        spec = shown_modal.modal
        assert spec is not None
        modal_ids.add(spec["custom_id"])
        inputs = [c["component"]["custom_id"] for c in spec["components"] if c.get("component")]
        channel_id = shown_modal._interaction.channel_id
        for name in inputs:
            for odd in (*ODD_NUMBERS, "--5", "9" * 200, "nope"):
                await checked(
                    scene,
                    f"modal {spec['custom_id']} {name}={odd!r}",
                    partial(emit_modal, opener, channel_id, spec["custom_id"], {name: odd}),
                )
        typed = {name: "1" for name in inputs}
        owner = re.escape(str(scene.hall.guild.id))
        shape = re.compile(re.escape(spec["custom_id"]).replace(owner, r"(?P<owner>[0-9]+)"))
        for what, forged in field_forgeries(shape, spec["custom_id"], others, [shape]):
            await checked(scene, f"modal {what}", partial(emit_modal, opener, channel_id, forged, typed))
        stranger = scene.hall.person("dee")
        await checked(
            scene, "modal by a member", partial(emit_modal, stranger, channel_id, spec["custom_id"], typed)
        )
        await checked(
            scene,
            "modal from another server",
            partial(emit_modal, scene.outsider, scene.elsewhere.id, spec["custom_id"], typed),
        )
    # Slash options: each at its edges and every game's id; answered, and a refusal changes nothing.
    options_seen = 0
    channel = scene.hall.channels[1]
    for path, options in leaves(env, scene.admin, channel):
        required = await required_values(scene.admin, channel, path, options)
        if required is None:
            continue
        for option in options:
            options_seen += 1
            candidates: list[Any] = []
            if option["type"] == 4:  # an integer
                candidates += [option.get("min_value", -(2**53) + 1), option.get("max_value", 2**53 - 1)]
                candidates += [int(g) for g in others["games"]]
                low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
                candidates = [c for c in candidates if low <= c <= high]
            elif option.get("choices"):
                candidates += [choice["value"] for choice in option["choices"]][-1:]
            elif option["type"] == 6:  # a user
                candidates += [scene.hall.person("dee"), scene.admin]
            if option["type"] == 4 and option.get("choices"):
                candidates = [choice["value"] for choice in option["choices"]][-1:]
            for value in candidates:
                given = {**required, option["name"]: value}
                await checked(
                    scene,
                    f"/{path} {option['name']}={value!r}",
                    partial(scene.admin.slash, channel, path, **given),
                    refused=False,
                )
            if option.get("autocomplete"):
                for odd in (*ODD_NUMBERS, "nope", "'; DROP TABLE games; --"):
                    offered = await scene.admin.autocomplete(channel, path, option["name"], odd)
                    assert isinstance(offered, list)
    # Forged commands: each option with a value Discord never sends, an unknown option, one twice.
    forged_commands = 0
    for path, options, command in commands(env, scene.admin, channel):
        required = await required_values(scene.admin, channel, " ".join(path), options)
        if required is None:
            continue
        valid = [
            {"name": o["name"], "type": o["type"], "value": required[o["name"]]}
            for o in options
            if o["name"] in required
        ]
        trials = [[*valid, {"name": "nope", "type": 3, "value": "x"}]]
        trials += [[*valid, *valid] for _ in valid[:1]]
        for option in options:
            for odd in forged_values(option):
                given = {"name": option["name"], "type": option["type"], "value": odd}
                trials.append([*(v for v in valid if v["name"] != option["name"]), given])
        for trial in trials:
            forged_commands += 1
            await checked(
                scene,
                f"/{' '.join(path)} {trial}",
                partial(emit_command, scene.admin, channel, command, path, trial),
            )
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
    COVERED.update(
        grammars=len(found),
        synthesized=len(synthesized_for),
        modals=len(modal_ids),
        options=options_seen,
        interactions=len(scene.timings),
        slowest_ms=round(1000 * max(real for real, _ in scene.timings)),
    )
    with capsys.disabled():
        print(
            f"\nforged interactions: {len(found)} custom-id grammars ({len(synthesized_for)} from their "
            f"template alone: {', '.join(synthesized_for) or 'none'}), {len(modal_ids)} modal(s), "
            f"{options_seen} slash options ({forged_commands} forged commands); "
            f"{len(scene.timings)} interactions, each answered, the "
            f"slowest in {COVERED['slowest_ms']} ms; per grammar: {dict(tried)}"
        )
    assert all(tried[g] >= 10 for g in found), tried
