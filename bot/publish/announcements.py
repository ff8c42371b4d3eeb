"""The round and match ends owed to a channel, delivered once each, also across restarts.

The change that ends a round writes its announcement in the storage's outbox in the same transaction
(:meth:`bot.service.changes.ChangePath.save`). It is then delivered by ONE of two ways, never both:
the answer to the click that ended the round (the cog claims it first with :meth:`Announcer.claim`),
or a channel post by the :class:`Announcer`, retried after a rate limit or a Discord error with a
pause that grows (:mod:`bot.publish.faults`) until Discord takes it. Either way the outbox row is
marked delivered afterwards; a starting bot posts every row still owed (:meth:`Announcer.resume`).

Exactly once, as far as it can be: within one process a claim keeps the click's answer and the post
apart; a row marked delivered is never posted again; a mark that fails is tried again, and until it
succeeds this process remembers the delivery. A starting bot reads the channel's last messages
before posting what an earlier bot left owed, and only marks one it finds there (the answer went
out, the mark did not). So a second post needs both a lost mark and a channel whose history the
bot cannot read (or where the message was deleted or pushed out of the last 50): at least once,
never zero times.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import speaking, t
from bot.publish.faults import Fault, RequestGuard, backoff, sort_fault
from bot.render import match_end, round_end, round_end_past
from bot.render.faces import text_cards
from bot.service.game import Game
from bot.service.ratings import stored_shifts

if TYPE_CHECKING:
    from bot.publish.ports import Ports
    from bot.storage import AnnouncementRecord

log = logging.getLogger(__name__)

MARK_ATTEMPTS = 6
"""How often marking a delivery in the storage is tried before only this process remembers it."""
MARK_AT_CLOSE = 5.0
"""Seconds a closing bot waits for the marks of deliveries already made."""
ENDS_KEPT = 10_000
"""Round-end messages remembered to take their button off when the next round starts."""
LOOK_BACK = 50
"""Messages of the channel a starting bot reads back to find an announcement it already made."""

Key = tuple[int, int]
"""An announcement: (game id, round number)."""


def detached(view: discord.ui.View) -> discord.ui.View:
    """``view`` marked finished, so discord.py sends its components without keeping it in memory.

    Every click is caught by the one persistent ``DynamicItem`` (cogs.components); a stored copy
    of each sent view would only pile up.
    """
    view.stop()
    return view


def round_over_now(game: Game) -> bool:
    """The change just applied ended a round (its last event says so)."""
    return bool(game.last_turn) and game.last_turn[-1].kind == "round_over" and game.match is not None


def announcement(game: Game) -> tuple[list[discord.Embed], discord.ui.View]:
    """The public message of a round's end; at the match's end, with the results and **Play again**;
    in the game's language (``game.language``)."""
    # A public message: the game's language, and faces whatever the clicker chose for themselves.
    with speaking(game.language), text_cards(False):
        embed, view = round_end(game)
        if game.match is not None and game.match.over:
            final, again = match_end(game)
            return [embed, final], detached(again)
        return [embed], detached(view)


def key_of(game: Game) -> Key:
    """The announcement the game's last round owes."""
    assert game.match is not None
    return (game.id, game.match.round_no)


class Announcer:
    """Delivers the announcements of the outbox to the channels of the games this process plays
    (``ports``); shares the per-game request budget (``guard``) with the table edits."""

    def __init__(
        self,
        ports: Ports,
        guard: RequestGuard,
        *,
        on_match_end: Callable[[Game, int], None] | None = None,
        on_delivered: Callable[[int], None] | None = None,
    ) -> None:
        self.ports = ports
        self.guard = guard
        self._claimed: set[Key] = set()
        """Being delivered now, by a click's answer or a task (only while under way)."""
        self._unmarked: dict[Key, int | None] = {}
        """Delivered, but the storage could not be told yet (only until it can)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._marks: set[asyncio.Task[None]] = set()
        """Marks of deliveries by a click's answer: finished, not cancelled, at close."""
        self._ends: dict[int, tuple[int, int, int, list[discord.Embed]]] = {}
        """Round-end messages whose Next round button is still on: game -> (round, channel, message)."""
        self.on_match_end = on_match_end
        """Told ``(game, message_id)`` when the announcement that ends a match is in the channel."""
        self.on_delivered = on_delivered
        """Told the game's id when the storage knows one of its announcements is delivered."""
        self._closed = False

    @property
    def under_way(self) -> int:
        """Announcements being delivered now (claims and tasks; both end with their delivery)."""
        return len(self._claimed)

    def owes(self, game_id: int) -> bool:
        """An announcement of the game is being delivered, or its delivery not yet noted in storage."""
        return any(key[0] == game_id for key in self._claimed) or any(
            key[0] == game_id for key in self._unmarked
        )

    def forget(self, game_id: int) -> None:
        """The game left memory: its last round-end message keeps its look."""
        self._ends.pop(game_id, None)

    def claim(self, game: Game) -> bool:
        """The game's change just ended a round: True once, for whoever answers it (the click)."""
        if not round_over_now(game):
            return False
        key = key_of(game)
        if key in self._claimed or key in self._unmarked:
            return False
        self._claimed.add(key)
        return True

    def answered(self, game: Game, message_id: int | None, embeds: list[discord.Embed]) -> None:
        """The click's answer delivered the claimed announcement (as ``embeds``): mark it in the
        storage."""
        key = key_of(game)
        self._posted(game, key[1], game.channel_id, message_id, embeds)
        self._ended(game, message_id)
        task = asyncio.get_running_loop().create_task(
            self._mark(key, message_id), name=f"romme-announced-{key[0]}-{key[1]}"
        )
        self._marks.add(task)
        task.add_done_callback(self._marks.discard)

    def not_answered(self, game: Game) -> None:
        """The click's answer failed: post the claimed announcement in the channel instead."""
        key = key_of(game)
        embeds, view = announcement(game)
        self._start(self._post(key, game.channel_id, embeds, view, game=game, ended=game), key)

    def _ended(self, game: Game, message_id: int | None) -> None:
        """An announcement of ``game`` is in the channel: if it ends the match, say where."""
        if message_id is None or game.match is None or not game.match.over or self.on_match_end is None:
            return
        try:
            self.on_match_end(game, message_id)
        except Exception:
            log.exception("game %s: linking the results from the table failed", game.id)

    def _posted(
        self, game: Game, round_no: int, channel_id: int, message_id: int | None, embeds: list[discord.Embed]
    ) -> None:
        """The end of ``round_no`` went out (as ``embeds``) with a Next round button: edited once the
        next round starts."""
        if message_id is None or game.match is None or game.match.over:
            return
        self._ends[game.id] = (round_no, channel_id, message_id, embeds)
        while len(self._ends) > ENDS_KEPT:
            del self._ends[next(iter(self._ends))]

    def round_started(self, game: Game) -> None:
        """If ``game``'s next round has begun, its round-end message loses its button and says so."""
        entry = self._ends.get(game.id)
        if entry is None or game.match is None or game.match.round_no <= entry[0]:
            return
        del self._ends[game.id]
        _, channel_id, message_id, embeds = entry
        with speaking(game.language):
            content = t("round_end.started", round=game.match.round_no)
        task = asyncio.get_running_loop().create_task(
            self._edit_end(game.id, channel_id, message_id, content, round_end_past(embeds)),
            name=f"romme-round-started-{game.id}",
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def started_here(self, game: Game) -> None:
        """A click on the round-end message started the next round: its answer edits the message."""
        self._ends.pop(game.id, None)

    async def _edit_end(
        self, game_id: int, channel_id: int, message_id: int, content: str, embeds: list[discord.Embed]
    ) -> None:
        # An edit of a message already shown: it shares the table lane (a game whose edits fail stops
        # editing), and is not retried (the round it ended is history).
        if self.guard.stopped(game_id) is not None or self.guard.wait(game_id) > 0:
            return
        try:
            message = self.ports.channels.get_partial_messageable(channel_id).get_partial_message(message_id)
            await message.edit(content=content, embeds=embeds, view=None)
        except Exception as exc:
            if sort_fault(exc) is Fault.ARCHIVED:
                # An archived thread: the table's next edit brings it back; this edit is let go.
                self.guard.note(game_id, exc, "announce")
                return
            self.guard.failed(game_id, exc, "mark a round-end message as past")
        else:
            self.guard.succeeded(game_id)

    def owed_now(self, game: Game) -> None:
        """A change made without a click ended a round: post its announcement (in a task)."""
        if self.claim(game):
            self.not_answered(game)

    async def resume(self) -> list[AnnouncementRecord]:
        """At start: post every announcement still owed (the games that just finished too) of this
        process's shards."""
        owed = await self.ports.outbox.owed_announcements()
        for record in owed:
            key = (record.game_id, record.round_no)
            if key in self._claimed:
                continue
            try:
                game = Game.from_snapshot(record.payload)
                game.id = record.game_id
                if not self.ports.tables.owns(game.guild_id):
                    continue  # another process's shard: that process posts it
                if record.kind == "match_end":
                    # The rating line from the stored rating rows: the shifts the last process held
                    # in memory are gone (the match was rated then, or at this start, before this).
                    game.rating_shifts = stored_shifts(await self.ports.outbox.game_rating_changes(game.id))
                embeds, view = announcement(game)
            except Exception as exc:  # one damaged payload: that message is left owed, never the others
                log.warning(
                    "game %s: the announcement of round %s cannot be shown (%s: %s); left owed",
                    record.game_id,
                    record.round_no,
                    type(exc).__name__,
                    " ".join(str(exc).split())[:200],
                )
                continue
            self._claimed.add(key)
            self._start(self._post(key, game.channel_id, embeds, view, look_first=True, ended=game), key)
        return owed

    def _start(self, work: Any, key: Key) -> None:
        if self._closed:
            work.close()
            self._claimed.discard(key)
            return
        task = asyncio.get_running_loop().create_task(work, name=f"romme-announce-{key[0]}-{key[1]}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _post(
        self,
        key: Key,
        channel_id: int,
        embeds: list[discord.Embed],
        view: discord.ui.View,
        *,
        look_first: bool = False,
        game: Game | None = None,
        ended: Game | None = None,
    ) -> None:
        """Post until Discord takes it (or refuses for good), then mark it delivered. ``look_first``
        (an announcement owed by an earlier bot): if the channel shows it already, only mark it.
        ``ended``: the game as announced, told to :attr:`on_match_end` if the match is over."""
        game_id, round_no = key
        what = f"post the end of round {round_no}"
        try:
            if look_first:
                found = await self._already_posted(channel_id, embeds)
                if found is not None:
                    log.info("game %s: round %s was announced already (message %s)", *key, found)
                    if ended is not None:
                        self._ended(ended, found)
                    await self._marked(key, found)
                    return
            while True:
                if self.guard.stopped(game_id) is not None:
                    return  # still owed: the next start tries again
                wait = self.guard.wait(game_id, "announce")
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                try:
                    message = await self.ports.channels.get_partial_messageable(channel_id).send(
                        embeds=embeds, view=view
                    )
                except Exception as exc:
                    if self.guard.failed(game_id, exc, what, "announce") is None:
                        return
                    continue
                self.guard.succeeded(game_id, "announce")
                if game is not None:
                    self._posted(game, round_no, channel_id, message.id, embeds)
                if ended is not None:
                    self._ended(ended, message.id)
                await self._marked(key, message.id)
                return
        finally:
            self._claimed.discard(key)

    async def _already_posted(self, channel_id: int, embeds: list[discord.Embed]) -> int | None:
        """The id of a recent message of this bot in the channel that shows this announcement: its
        answer went out, but the storage was never told (the mark failed, or the bot died first)."""
        me = self.ports.channels.user
        if me is None:
            return None
        title, footer = embeds[0].title, embeds[0].footer.text
        try:
            async for message in self.ports.channels.get_partial_messageable(channel_id).history(
                limit=LOOK_BACK
            ):
                if message.author.id != me.id or not message.embeds:
                    continue
                first = message.embeds[0]
                if first.title == title and first.footer.text == footer:
                    return message.id
        except Exception as exc:
            # Without the history (no Read Message History), posting again is better than never.
            log.info("channel %s: could not look for an earlier announcement (%s)", channel_id, exc)
        return None

    async def _mark(self, key: Key, message_id: int | None) -> None:
        try:
            await self._marked(key, message_id)
        finally:
            self._claimed.discard(key)

    async def _marked(self, key: Key, message_id: int | None) -> None:
        """Tell the storage the announcement is delivered; remembered here until the storage knows."""
        self._unmarked[key] = message_id
        for attempt in range(1, MARK_ATTEMPTS + 1):
            try:
                await self.ports.outbox.announcement_delivered(key[0], key[1], message_id)
            except Exception:
                if attempt == MARK_ATTEMPTS:
                    log.exception("game %s: round %s was announced, but the storage cannot note it", *key)
                    return
                await asyncio.sleep(backoff(attempt))
            else:
                self._unmarked.pop(key, None)
                if self.on_delivered is not None:
                    self.on_delivered(key[0])
                return

    async def close(self) -> None:
        """Stop delivering: what is still owed stays in the outbox for the next start."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # A delivery already made is noted before the storage closes (a quick write; not for ever).
        marks = list(self._marks)
        if marks:
            _, late = await asyncio.wait(marks, timeout=MARK_AT_CLOSE)
            for task in late:
                task.cancel()
            await asyncio.gather(*marks, return_exceptions=True)
