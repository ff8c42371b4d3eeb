"""Tables in channels that took the bot's permissions away while people keep clicking (issue 25,
point 9): the scenario of ``tests/robustness/test_failure_budget.py`` and ``bench/failure_budget.py``.

Each table is one person and one computer, opened with the calls ``/romme start computers:1`` and
**Start** make (the service, then the publisher posts the table; opened by clicks, a thousand tables
would take SimCord hours), with no turn timer (the bot is built with no idle timeout either), so
nothing sleeps at a table between clicks; then every channel denies the bot View Channel and Send
Messages, and each minute of SimCord's clock every person makes a move by clicks, the tables one
after the other over the minute
(:class:`~tests.robustness.table_driver.TableDriver`), so each click asks for the table again.
Every REST request Discord would count toward its ban (401, 403, 429) is noted as SimCord refuses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
import simcord.http.router as router
from simcord.backend.errors import BackendError
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

from bot.client import RommeBot
from bot.engine.rules import RuleSet
from tests.robustness.table_driver import TableDriver

COUNTED = (401, 403, 429)
"""The statuses Discord counts toward its ban of a bot (invalid requests)."""
TABLES_PER_GUILD = 100


@dataclass
class Refusals:
    """The REST requests SimCord refused with a status Discord counts, by channel of the path."""

    times: list[float] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    by_channel: Counter[str] = field(default_factory=Counter)
    by_status: Counter[int] = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return len(self.times)


@contextmanager
def counted_refusals(env: simcord.Env) -> Iterator[Refusals]:
    """Note every refused request of the bot with a counted status while inside."""
    refusals = Refusals()
    dispatch = router.dispatch

    def counting(backend: Any, method: str, path: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return dispatch(backend, method, path, *args, **kwargs)
        except BackendError as exc:
            if exc.status in COUNTED:
                refusals.times.append(env.now().timestamp())
                parts = path.strip("/").split("/")
                refusals.by_channel[parts[1] if parts[0] == "channels" else parts[0]] += 1
                refusals.by_status[exc.status] += 1
                refusals.requests.append(f"{method} {path}")
            raise

    router.dispatch = counting  # the HTTP client calls router.dispatch by attribute
    try:
        yield refusals
    finally:
        router.dispatch = dispatch


def virtual_only(schedule: Any) -> Any:
    """SimCord's ``Env._schedule_timer`` without the real clock's fallback: the bot's timers fire only
    as ``advance_time`` reaches them (a model of the clock, not of the bot). SimCord otherwise fires a
    timer whose moment has come on the real clock, moving its own clock there: while a thousand
    tables take their clicks (more than 30 real seconds a minute) a round's 30-second pause would
    move the minute on, and the held tables' wake-up would go off in the middle of a click; a slow
    machine would change what these tables do."""

    def scheduled(env: simcord.Env, record: Any, *args: Any) -> None:
        schedule(env, record, *args)
        if record.real_handle is not None:
            record.real_handle.cancel()
            record.real_handle = None

    return scheduled


async def open_tables(env: simcord.Env, count: int, rules: RuleSet | None = None) -> list[TableDriver]:
    """``count`` tables, each with its own person and one computer, dealt and posted (the default
    rules, or ``rules``)."""
    bot = env.bot
    assert isinstance(bot, RommeBot)
    places = []
    guild: Any = None
    for n in range(count):
        if n % TABLES_PER_GUILD == 0:
            guild = env.create_guild(f"Broken {n // TABLES_PER_GUILD}")
        person = guild.add_member(env.create_user(f"player{n}"))
        places.append((guild, guild.create_text_channel(f"romme-{n}"), person))
    drivers = []
    # As the bot's own work (SimCord's scope of the bot: its clock is SimCord's, as in a click), so
    # the timers and tasks these calls start run on the same clock as everything after them.
    with env._bot_scope():
        for guild, channel, person in places:
            game = await bot.tables.open_lobby(
                guild.id, channel.id, person.id, person.name, rules, computers=1, turn_timeout=0
            )
            game = await bot.tables.begin(game.id, person.id)
            await bot.publisher.repost_table(game)
            assert game.table_message_id is not None
            drivers.append(TableDriver(env, channel, {person.id: person}))
    await env.advance_time(1)  # the computers that deal first move, and their tables are drawn
    # (a computer may go out at once: its table waits for the next round's deal)
    assert all(is_persons_turn(driver) or driver.game().between_rounds for driver in drivers)
    return drivers


def is_persons_turn(driver: TableDriver) -> bool:
    game = driver.game()
    seat = game.to_play
    return seat is not None and game.seats[seat].user_id in driver.people


def take_permissions_away(env: simcord.Env, drivers: list[TableDriver]) -> None:
    """Every table's channel denies the bot View Channel and Send Messages."""
    assert env.bot.user is not None
    denied = discord.Permissions(view_channel=True, send_messages=True).value
    for driver in drivers:
        overwrite = Overwrite(target_id=env.bot.user.id, type=OverwriteType.MEMBER, allow=0, deny=denied)
        env.backend.edit_channel(driver.channel.id, {}, overwrites=[overwrite])


async def keep_clicking(env: simcord.Env, drivers: list[TableDriver], minutes: int) -> int:
    """Each minute every person makes a move by clicks (in a running round; the next round is dealt
    by its timer), one table after the other spread over the minute; the clicks made."""
    for _ in range(minutes):
        gap = 60 / len(drivers)
        for driver in drivers:
            game = driver.game()
            if game.running and not game.between_rounds:
                await driver.step()
            await env.advance_time(gap)
    return sum(driver.clicks for driver in drivers)
