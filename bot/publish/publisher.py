"""The public messages of a table: the ONE table message per game, edited in place, and the
round-end / match-end announcements.

Edits are merged per channel: at most one edit a second, and the state drawn is the latest one when
the edit goes out (a burst of computer moves costs one edit). Across channels, every edit takes a
turn of the bot-wide :class:`~bot.publish.edit_budget.EditBudget` (tables with people first), which keeps a
bot with hundreds of tables under Discord's global rate limit. The publisher is also the service's
:class:`~bot.service.listener.TableListener`: changes made without a click (computer moves, timers) reach
the channel through it. Discord faults never reach the service: a deleted table message is posted
again (and its new id stored), a refused edit (403) is logged, and an edit that fails otherwise (a
rate limit, a Discord error) is made again a few seconds later; the game goes on either way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.publish.edit_budget import EDITS_PER_SECOND, EditBudget
from bot.render import lobby, match_end, round_end, table, table_content
from bot.service.game import GameStatus

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service.game import Game
    from bot.service.listener import Reason

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0
"""Seconds between two edits of the table message in one channel."""
EDIT_RETRY_DELAY = 5.0
"""Seconds before a table edit that failed (a rate limit, a Discord error) is made again."""


def detached(view: discord.ui.View) -> discord.ui.View:
    """``view`` marked finished, so discord.py sends its components without keeping it in memory.

    Every click is caught by the persistent ``DynamicItem`` classes (cogs.components); a stored copy
    of each sent view would only pile up.
    """
    view.stop()
    return view


def table_message(game: Game) -> tuple[str | None, list[discord.Embed], discord.ui.View]:
    """What the table message of ``game`` shows now: the lobby, the table, or (stopped) the results;
    the content calls the person on turn (``None`` clears it when an edit sends it).

    >>> from bot.service.game import Game
    >>> content, embeds, view = table_message(Game(id=3, guild_id=1, channel_id=2, host_id=4))
    >>> content, embeds[0].footer.text
    (None, 'Game 3')
    """
    if game.match is None:
        embed, view = lobby(game)
    elif game.status is GameStatus.FINISHED and game.stopped_by is not None:
        embed, view = match_end(game)
    else:
        embed, view = table(game)
    return table_content(game), [embed], detached(view)


def round_over_now(game: Game) -> bool:
    """The change just applied ended a round (its last event says so)."""
    return bool(game.last_turn) and game.last_turn[-1].kind == "round_over" and game.match is not None


def announcement(game: Game) -> tuple[list[discord.Embed], discord.ui.View]:
    """The public message of a round's end; at the match's end, with the results and **Play again**."""
    embed, view = round_end(game)
    if game.match is not None and game.match.over:
        final, again = match_end(game)
        return [embed, final], detached(again)
    return [embed], detached(view)


@dataclass
class _Channel:
    last_edit: float = float("-inf")
    pending: Game | None = None
    busy: bool = False
    """An edit is on its way: waiting for the channel's second, for its turn, or going out."""
    task: asyncio.Task[None] | None = None
    shown: dict[int, int] = field(default_factory=dict)


class TablePublisher:
    """Keeps each game's table message up to date and announces round and match ends.

    ``interval``: seconds between two edits of one channel; ``edits_per_second``: the bot-wide budget
    of table edits (0: none). A table message posted again is told to the bot's table service
    (``bot.tables``), whose listener this publisher is.
    """

    def __init__(
        self, bot: RommeBot, *, interval: float = EDIT_INTERVAL, edits_per_second: float = EDITS_PER_SECOND
    ) -> None:
        self.bot = bot
        self.interval = interval
        self.budget = EditBudget(edits_per_second)
        self._channels: dict[int, _Channel] = {}
        self._announced: set[tuple[int, int]] = set()
        self._closed = False

    # ------------------------------------------------------------------ listener (no click involved)

    async def game_changed(self, game: Game, *, reason: Reason) -> None:
        """The service changed ``game`` by itself: announce an ended round, then refresh the table."""
        if round_over_now(game) and self.claim_announcement(game):
            embeds, view = announcement(game)
            await self._send(game, embeds=embeds, view=view)
        self.update(game)

    def claim_announcement(self, game: Game) -> bool:
        """True once per ended round: whoever ends a round (a click or the computer) announces it."""
        assert game.match is not None
        key = (game.id, len(game.match.history))
        if key in self._announced:
            return False
        self._announced.add(key)
        return True

    # ------------------------------------------------------------------ the table message

    def shown(self, game: Game, message_id: int | None = None) -> None:
        """An interaction's answer just drew the table message of ``game`` as it is now."""
        if message_id is not None and message_id != game.table_message_id:
            return
        channel = self._channels.setdefault(game.channel_id, _Channel())
        channel.last_edit = time.monotonic()
        channel.shown[game.id] = game.version

    def update(self, game: Game) -> None:
        """Edit the table message of ``game`` soon: now if the channel had no edit in the last second,
        else one second after the last edit, and in its turn of the bot-wide budget; whatever the
        game looks like then is drawn."""
        if self._closed:
            return
        channel = self._channels.setdefault(game.channel_id, _Channel())
        channel.pending = game
        if channel.busy:
            return
        channel.busy = True
        delay = max(0.0, channel.last_edit + self.interval - time.monotonic())
        if delay > 0:
            channel.task = asyncio.get_running_loop().create_task(
                self._after(game.channel_id, delay), name=f"romme-table-{game.channel_id}"
            )
        else:
            self._ask_turn(game.channel_id)

    async def _after(self, channel_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._ask_turn(channel_id)

    def _ask_turn(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        game = channel.pending
        if game is None or channel.shown.get(game.id) == game.version:
            channel.pending, channel.busy = None, False  # an answer drew it meanwhile
            return
        self.budget.request(channel_id, people=_people_play(game), edit=lambda: self._flush(channel_id))

    async def _flush(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        game, channel.pending = channel.pending, None
        try:
            if game is None or channel.shown.get(game.id) == game.version:
                return
            channel.last_edit = time.monotonic()
            channel.shown[game.id] = game.version
            try:
                await self.edit_table(game)
            except Exception:
                log.exception("game %s: the table message could not be updated", game.id)
                # The message still shows an older state: draw it again after a pause, as the game is then.
                channel.shown.pop(game.id, None)
                channel.pending = channel.pending or game
                await asyncio.sleep(EDIT_RETRY_DELAY)
        finally:
            channel.busy = False
            if channel.pending is not None and not self._closed:
                self.update(channel.pending)

    async def edit_table(self, game: Game) -> None:
        """Edit the table message in place; post it again if it is gone (or was never stored)."""
        content, embeds, view = table_message(game)
        if game.table_message_id is None:
            await self.repost_table(game)
            return
        message = self._messageable(game.channel_id).get_partial_message(game.table_message_id)
        try:
            await message.edit(content=content, embeds=embeds, view=view)
        except discord.NotFound:
            log.warning("game %s: the table message %s is gone; posting it again", game.id, message.id)
            await self.repost_table(game)
        except discord.Forbidden:
            log.warning("game %s: no permission to edit the table message in %s", game.id, game.channel_id)

    async def repost_table(self, game: Game) -> None:
        """Post a fresh table message and remember it as the game's table message."""
        content, embeds, view = table_message(game)
        message = await self._send(game, content=content, embeds=embeds, view=view)
        if message is not None:
            await self.bot.tables.set_table_message(game.id, message.id)

    async def _send(self, game: Game, **content: Any) -> discord.Message | None:
        try:
            return await self._messageable(game.channel_id).send(**content)
        except discord.HTTPException as exc:
            log.warning("game %s: could not post in channel %s: %s", game.id, game.channel_id, exc)
            return None

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id)

    async def close(self) -> None:
        """Stop editing: pending edits are dropped (the next start draws the table again)."""
        self._closed = True
        tasks = [c.task for c in self._channels.values() if c.task is not None and not c.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.budget.close()


def _people_play(game: Game) -> bool:
    """A person plays at this table (in the lobby too), not only computers and people who are away."""
    return any(not seat.played_by_computer for seat in game.seats)
