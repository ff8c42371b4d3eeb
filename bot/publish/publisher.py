"""The public messages of a table: the ONE table message per game, edited in place, and the
round-end / match-end announcements.

Edits are merged per channel: at most one edit a second, and the state drawn is the latest one when
the edit goes out (a burst of computer moves costs one edit). Across channels, every edit takes a
turn of the bot-wide :class:`~bot.publish.edit_budget.EditBudget` (tables with people first), which keeps a
bot with hundreds of tables under Discord's global rate limit. The publisher is also the service's
:class:`~bot.service.listener.TableListener`: changes made without a click (computer moves, timers) reach
the channel through it. Discord faults never reach the service, and are sorted
(:mod:`bot.publish.faults`): a deleted table message is posted again, one whose edits Discord caps
(older than an hour) is replaced by a fresh one, whose id is kept before anything is drawn on it; a
rate limit or a Discord error is retried after a pause that grows; no access or no permission stops
the game's requests (said once in the log) until a person's click asks for the table again; and no
game sends more than :data:`~bot.publish.faults.FAILED_REQUESTS` failed requests in ten minutes.
The round and match ends are the :class:`~bot.publish.announcements.Announcer`'s (from the
storage's outbox, so none is lost). The game goes on whatever Discord answers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.i18n import speaking, t
from bot.publish.announcements import Announcer, announcement, detached, round_over_now
from bot.publish.edit_budget import EDITS_PER_SECOND, EditBudget
from bot.publish.faults import EditTally, Fault, RequestGuard, ThreadLocked, fault_code, sort_fault
from bot.publish.panels import PanelKeeper, no_preferences
from bot.publish.wakeups import Wakeups
from bot.render import lobby, match_end, results_url, table, table_content
from bot.render.faces import text_cards
from bot.service.errors import TableError
from bot.service.game import GameStatus

if TYPE_CHECKING:
    from bot.publish.emojis import FaceKeeper
    from bot.publish.ports import Ports
    from bot.service.game import Game
    from bot.service.listener import Reason
    from bot.service.settings import MemberPreferences

log = logging.getLogger(__name__)

EDIT_INTERVAL = 1.0
"""Seconds between two edits of the table message in one channel."""
SHOWN_PER_CHANNEL = 4
"""Games per channel whose drawn version is remembered (the open one and the last ended ones)."""
HELD = 0
"""The key of :class:`~bot.publish.wakeups.Wakeups` that looks at the held channels (no channel's id)."""
HELD_LOOK = 1.0
"""Least seconds between two looks at the channels the bot-wide failure budget holds back."""

__all__ = ["EDIT_INTERVAL", "TablePublisher", "announcement", "detached", "round_over_now", "table_message"]


def table_message(
    game: Game, *, results: str | None = None, quiet: Collection[int] = ()
) -> tuple[str | None, list[discord.Embed], discord.ui.View]:
    """What the table message of ``game`` shows now: the lobby, the table, or (stopped) the results;
    the content calls the person on turn (``None`` clears it when an edit sends it; a person in
    ``quiet`` is named without a mention). ``results``: the jump URL of the match-end announcement,
    linked from the table of a finished match.

    >>> from bot.service.game import Game
    >>> content, embeds, view = table_message(Game(id=3, guild_id=1, channel_id=2, host_id=4))
    >>> content, embeds[0].footer.text
    (None, 'Game 3')

    It speaks the game's language (``game.language``) and shows the cards as the bot does (faces
    when it has them), whoever's click it follows.
    """
    with speaking(game.language), text_cards(False):
        if game.match is None:
            embed, view = lobby(game)
        elif game.status is GameStatus.FINISHED and game.ended_early:
            embed, view = match_end(game)
        else:
            embed, view = table(game, results=results)
        return table_content(game, quiet), [embed], detached(view)


SHOWN_KEPT = 10_000
"""Table drawings kept to skip identical edits: the games drawn most lately (a forgotten one is only
drawn once more)."""


@dataclass
class _Channel:
    last_edit: float = float("-inf")
    pending: Game | None = None
    busy: bool = False
    """An edit is on its way: waiting for the channel's second, for its turn, or going out."""
    task: asyncio.Task[None] | None = None
    """The wait for the channel's second between two edits."""
    shown: dict[int, int] = field(default_factory=dict)

    def drew(self, game: Game) -> None:
        """The table message of ``game`` shows its version now (few games per channel are kept)."""
        self.shown.pop(game.id, None)
        self.shown[game.id] = game.version
        while len(self.shown) > SHOWN_PER_CHANNEL:
            del self.shown[next(iter(self.shown))]


class TablePublisher:
    """Keeps each game's table message up to date and announces round and match ends.

    It posts and edits in the ports' channels, reads the games of their tables (the table service,
    whose listener this publisher is) and tells it of a table message posted again, and delivers what
    their outbox owes (:mod:`bot.publish.ports`). ``interval``: seconds between two edits of one
    channel; ``edits_per_second``: the bot-wide budget of table edits (0: none). ``preferences``:
    a member's preferences as known (the panels' language, cards and order); ``quiet``: the members
    who asked not to be mentioned on their turn (a live set); ``faces``: the card faces in use
    (none: text).
    """

    def __init__(
        self,
        ports: Ports,
        *,
        interval: float = EDIT_INTERVAL,
        edits_per_second: float = EDITS_PER_SECOND,
        preferences: Callable[[int], MemberPreferences] = no_preferences,
        quiet: Collection[int] = frozenset(),
        faces: FaceKeeper | None = None,
    ) -> None:
        self.ports = ports
        self.interval = interval
        self.budget = EditBudget(edits_per_second)
        self.guard = RequestGuard()
        self.announcer = Announcer(
            ports, self.guard, on_match_end=self._match_announced, on_delivered=self._delivered
        )
        self.panels = PanelKeeper(
            self.budget, self.guard, interval=max(interval, 0.0), preferences=preferences, faces=faces
        )
        """The open hand panels, edited when a change matters to their seat."""
        self._channels: dict[int, _Channel] = {}
        self._shown: dict[int, object] = {}
        """What each game's table message shows now, as last drawn (to skip an identical edit)."""
        self._rounds: dict[int, int | None] = {}
        """The round each game's table message shows (a new round is posted as a fresh message)."""
        self._results: dict[int, str] = {}
        """The jump URL of each finished game's match-end announcement, linked from its table."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._waits: Wakeups[int] = Wakeups(self._waited)
        """The channels whose edit waits for their game's pause after a failure, and :data:`HELD`
        (the next look at the held channels): many tables, one timer."""
        self._held: dict[int, None] = {}
        """The channels whose edit the bot-wide failure budget holds back, first held first."""
        self._replays: dict[int, None] = {}
        """The channels whose edit was let go from the held ones, until it is answered."""
        self._replay: int | None = None
        """The one among them of a game that failed (one at a time)."""
        self.edits = EditTally()
        """What became of the table edits (sent, merged, refused), for the metrics."""
        self._closed = False
        self.quiet = quiet
        """Members who asked not to be mentioned on their turn (the bot gives its book's live set)."""

    def _remember(self, game_id: int, shown: object, round_no: int | None = None) -> None:
        """Keep what the game's table message shows, for the games drawn most lately (bounded), and
        the round it shows (``None``: the lobby)."""
        self._shown.pop(game_id, None)
        self._shown[game_id] = shown
        self._rounds.pop(game_id, None)
        self._rounds[game_id] = round_no
        while len(self._shown) > SHOWN_KEPT:
            del self._shown[next(iter(self._shown))]
        while len(self._rounds) > SHOWN_KEPT:
            del self._rounds[next(iter(self._rounds))]

    # ------------------------------------------------------------------ games that are over

    def _delivered(self, game_id: int) -> None:
        """The storage knows an announcement of the game is delivered: the game may be owed nothing
        now (looked at once the delivery's claim is let go, right after)."""
        if not self._closed:
            asyncio.get_running_loop().call_soon(self._settle_id, game_id)

    def _settle_id(self, game_id: int) -> None:
        game = self.ports.tables.find(game_id)
        if game is not None:
            self.settle(game)

    def settle(self, game: Game) -> None:
        """If ``game`` is over and its messages are owed nothing (its table shows its end, with the
        results linked when a round's announcement ended the match, and every announcement is
        delivered and noted), it leaves memory, the service's and this publisher's alike. A game
        whose channel refuses the bot for good is owed nothing either (the outbox keeps what it is
        owed for the next start)."""
        if game.status in (GameStatus.LOBBY, GameStatus.PLAYING) or self._closed:
            return
        if self.guard.stopped(game.id) is None:
            channel = self._channels.get(game.channel_id)
            pending = channel is not None and channel.pending is not None and channel.pending.id == game.id
            drawn = channel is not None and channel.shown.get(game.id) == game.version
            if pending or not drawn or self.announcer.owes(game.id):
                return
            match = game.match
            if match is not None and match.over and not game.ended_early and game.id not in self._results:
                return  # the match-end announcement is still to come, and its link on the table
        if self.ports.tables.release(game.id):
            self._forget(game)

    def _forget(self, game: Game) -> None:
        """Drop everything kept of ``game``, which has left memory."""
        self._shown.pop(game.id, None)
        self._rounds.pop(game.id, None)
        self._results.pop(game.id, None)
        self.guard.forget(game.id)
        self.panels.forget(game.id)
        self.announcer.forget(game.id)
        channel = self._channels.get(game.channel_id)
        if channel is not None:
            channel.shown.pop(game.id, None)
            idle = (channel.task is None or channel.task.done()) and not self._waits.waiting(game.channel_id)
            idle = idle and game.channel_id not in self._held
            if not channel.shown and channel.pending is None and not channel.busy and idle:
                del self._channels[game.channel_id]

    # ------------------------------------------------------------------ listener (no click involved)

    async def game_changed(self, game: Game, *, reason: Reason) -> None:
        """The service changed ``game`` by itself: announce an ended round, then refresh the table."""
        self.announcer.owed_now(game)
        self.update(game, asked=False)

    # ------------------------------------------------------------------ announcements

    def results_of(self, game_id: int) -> str | None:
        """The jump URL of the game's match-end announcement, once it is in the channel."""
        return self._results.get(game_id)

    def _match_announced(self, game: Game, message_id: int) -> None:
        """The match-end announcement is in the channel: the table says the match is over and links it
        (redrawn as the game is now; a click's answer asks for that redraw itself, right after)."""
        self._results.pop(game.id, None)
        self._results[game.id] = results_url(game, message_id)
        while len(self._results) > SHOWN_KEPT:
            del self._results[next(iter(self._results))]
        channel = self._channels.get(game.channel_id)
        if channel is not None:
            channel.shown.pop(game.id, None)  # the same version, drawn anew with the link
        if self._closed:
            return
        task = asyncio.get_running_loop().create_task(self._refresh(game.id), name=f"romme-results-{game.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refresh(self, game_id: int) -> None:
        try:
            game = await self.ports.tables.fetch(game_id)
        except TableError:
            return
        if game.status is GameStatus.FINISHED:
            channel = self._channels.get(game.channel_id)
            if channel is not None:
                channel.shown.pop(game.id, None)
            self.update(game, asked=False)

    def claim_announcement(self, game: Game) -> bool:
        """True once per ended round, for the click whose change ended it: it answers with the
        announcement, then says :meth:`announced` (or :meth:`not_announced` if the answer failed)."""
        return self.announcer.claim(game)

    def announced(self, game: Game, message_id: int | None, embeds: list[discord.Embed]) -> None:
        """The click's answer delivered the claimed announcement (``message_id``: the answer's,
        showing ``embeds``)."""
        self.announcer.answered(game, message_id, embeds)

    def not_announced(self, game: Game) -> None:
        """The click's answer with the claimed announcement failed: post it in the channel."""
        self.announcer.not_answered(game)

    async def resume(self) -> None:
        """At start: deliver the announcements still owed, and redraw the tables of the matches they
        end (the bot may have stopped before the table showed the match as finished)."""
        owed = await self.announcer.resume()
        for game_id in sorted({record.game_id for record in owed if record.kind == "match_end"}):
            try:
                game = await self.ports.tables.fetch(game_id)
            except TableError:
                continue
            if game.status is GameStatus.FINISHED:
                self.update(game)

    # ------------------------------------------------------------------ the table message

    def shown(self, game: Game, message_id: int | None = None) -> None:
        """An interaction's answer just drew the table message of ``game`` as it is now."""
        if message_id is not None and message_id != game.table_message_id:
            return
        channel = self._channels.setdefault(game.channel_id, _Channel())
        channel.last_edit = time.monotonic()
        channel.drew(game)
        self._remember(
            game.id,
            _shown_as(*table_message(game, results=self.results_of(game.id), quiet=self.quiet)),
            _round_of(game),
        )
        self.settle(game)

    def update(self, game: Game, *, asked: bool = True) -> None:
        """Edit the table message of ``game`` soon: now if the channel had no edit in the last second,
        else one second after the last edit, and in its turn of the bot-wide budget; whatever the
        game looks like then is drawn.

        ``asked``: a person's action asks for it (a click, a command). A game whose messages Discord
        refuses for good (no access, no permission) is tried again only then, and no sooner than the
        game's budget of failed requests allows.
        """
        if self._closed:
            return
        self.panels.changed(game)
        self.announcer.round_started(game)
        if not asked and self.guard.stopped(game.id) is not None:
            self.settle(game)
            return
        channel = self._channels.setdefault(game.channel_id, _Channel())
        channel.pending = game
        if channel.busy:
            self.edits.merged += 1
            return
        channel.busy = True
        self._when_free(game.channel_id, game, channel.last_edit + self.interval - time.monotonic())

    def _when_free(self, channel_id: int, game: Game | None, delay: float = 0.0) -> None:
        """The channel's edit takes its turn after ``delay`` (the channel's second) and its game's
        own pause after a failure; while the bot-wide budget holds the game back, it waits with the
        other held ones. The waits that failures cause share one timer (:class:`Wakeups`): a
        thousand tables held back are not a thousand sleeping tasks."""
        if game is not None:
            paused = self.guard.own_wait(game.id)
            if paused > max(delay, 0.0):
                self._waits.after(channel_id, paused)
                return
            if delay <= 0 and self.guard.wait(game.id) > 0:
                self._hold(channel_id)
                return
        if delay > 0:
            self._channels[channel_id].task = asyncio.get_running_loop().create_task(
                self._after(channel_id, delay), name=f"romme-table-{channel_id}"
            )
        else:
            self._ask_turn(channel_id)

    async def _after(self, channel_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._waited(channel_id)

    def _waited(self, channel_id: int) -> None:
        """A wait is over: the channel's edit takes its turn unless failures meanwhile hold it back
        (or, for :data:`HELD`, the held channels the budget has room for go)."""
        if self._closed:
            return
        if channel_id == HELD:
            self._release_held()
            return
        channel = self._channels.get(channel_id)
        if channel is not None:
            self._when_free(channel_id, channel.pending)

    def _hold(self, channel_id: int) -> None:
        self._held[channel_id] = None
        if not self._waits.waiting(HELD):
            self._waits.after(HELD, max(HELD_LOOK, self.guard.budget.next_leaves(time.monotonic())))

    def _release_held(self) -> None:
        """Let held channels go only below the level that holds the games that failed, and as many
        as the bot-wide budget has room for there if every one failed (released together, they would
        otherwise all fail at once past it), counting those let go and not yet answered: the games
        that did not fail first, first held first, then the games that failed one at a time (the
        next once the last is answered). A failure of theirs so never reaches the level that holds
        every game, and the games that did not fail are not held back again by them; the rest wait
        for the next failure to leave the window."""
        guard, budget, now = self.guard, self.guard.budget, time.monotonic()
        room = budget.room(failed=True, now=now) - self._replaying()
        failed: list[tuple[int, Game | None]] = []
        for channel_id, game in self._held_games():
            if game is not None and guard.failed_lately(game.id):
                failed.append((channel_id, game))
            elif room > 0:
                room -= 1
                self._release(channel_id, game)
        if room > 0 and self._replay is None:
            for channel_id, game in failed:
                if game is not None and guard.own_wait(game.id) <= 0:
                    self._release(channel_id, game, failed=True)
                    break
        if self._held and not self._waits.waiting(HELD):
            self._waits.after(HELD, max(HELD_LOOK, budget.next_leaves(now)))

    def _held_games(self) -> list[tuple[int, Game | None]]:
        """The held channels, first held first, with the game each edit is for."""
        held = []
        for channel_id in self._held:
            channel = self._channels.get(channel_id)
            held.append((channel_id, None if channel is None else channel.pending))
        return held

    def _release(self, channel_id: int, game: Game | None, *, failed: bool = False) -> None:
        """The held channel's edit takes its turn (on its way until answered: :meth:`_replayed`)."""
        del self._held[channel_id]
        self._replays[channel_id] = None
        if failed:
            self._replay = channel_id
        if channel_id in self._channels:
            self._when_free(channel_id, game)
        else:
            self._replayed(channel_id)

    def _replaying(self) -> int:
        """The edits let go from the held ones still on their way (their channel waits for its turn
        or its answer); a failed game's among them keeps :attr:`_replay`."""
        for channel_id in list(self._replays):
            channel = self._channels.get(channel_id)
            if channel is None or not channel.busy or channel_id in self._held:
                self._replayed(channel_id)
        return len(self._replays)

    def _replayed(self, channel_id: int) -> None:
        """The channel's edit is answered (or had nothing to draw): if it was let go from the held
        ones, it is no longer on its way, and the held ones are looked at again within a second (if
        it went through, its room is free again; if it was a failed game's, the next may go)."""
        if self._replays.pop(channel_id, 0) is not None:
            return
        if channel_id == self._replay:
            self._replay = None
        if self._held and not self._closed:
            self._waits.within(HELD, HELD_LOOK)

    def _ask_turn(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        game = channel.pending
        if game is None or channel.shown.get(game.id) == game.version:
            channel.pending, channel.busy = None, False  # an answer drew it meanwhile
            self._replayed(channel_id)
            if game is not None and not game.running:
                self.settle(game)
            return
        self.budget.request(channel_id, people=_people_play(game), edit=lambda: self._flush(channel_id))

    async def _flush(self, channel_id: int) -> None:
        channel = self._channels[channel_id]
        game, channel.pending = channel.pending, None
        try:
            if game is None or channel.shown.get(game.id) == game.version:
                return
            if self.guard.wait(game.id) > 0:
                # Failures meanwhile (this game's, or the bot's) hold it back: drawn when they let it.
                channel.pending = game
                return
            channel.last_edit = time.monotonic()
            channel.drew(game)
            try:
                await self.edit_table(game)
            except Exception as exc:
                # The message still shows an older state: draw it again after the pause the fault
                # asks for, as the game is then; or not by itself, if no retry can mend it.
                self.edits.refused[fault_code(exc)] += 1
                channel.shown.pop(game.id, None)
                if self.guard.failed(game.id, exc, "update the table message") is not None:
                    channel.pending = channel.pending or game
            else:
                self.guard.succeeded(game.id)
        finally:
            channel.busy = False
            self._replayed(channel_id)
            if channel.pending is not None and not self._closed:
                self.update(channel.pending)
            if game is not None and not game.running:
                self.settle(game)

    async def edit_table(self, game: Game) -> None:
        """Edit the table message in place; post a fresh one if it is gone, was never stored, or
        takes no more edits (Discord caps those of messages older than an hour). Raises what
        Discord answered otherwise."""
        content, embeds, view = table_message(game, results=self.results_of(game.id), quiet=self.quiet)
        if game.table_message_id is None:
            await self._repost(game)
            return
        # A change nobody else may see (a proposed meld taken back, R13) draws the same table: an
        # identical edit would still tell the channel that something happened.
        shown = _shown_as(content, embeds, view)
        if self._shown.get(game.id) == shown:
            return
        message = self._messageable(game.channel_id).get_partial_message(game.table_message_id)
        shows = self._rounds.get(game.id)
        if shows is not None and game.running and _round_of(game) != shows:
            # A new round: the table is posted fresh below the round's end, so it is never far above
            # the conversation; the old one becomes a short line without buttons.
            await self._repost(game)
            await self._retire_table(game, message, shows)
            return
        try:
            try:
                await message.edit(content=content, embeds=embeds, view=view)
            except discord.HTTPException as exc:
                if sort_fault(exc) is not Fault.ARCHIVED:
                    raise
                # A thread closed without a lock (a moderator, or a day without a message): the bot
                # brings its own thread back, then edits again.
                self.edits.refused[fault_code(exc)] += 1
                self.guard.note(game.id, exc)
                await self._reopen(game)
                await message.edit(content=content, embeds=embeds, view=view)
            self.edits.sent += 1
            self._remember(game.id, shown, _round_of(game))
        except discord.HTTPException as exc:
            fault = sort_fault(exc)
            old = fault is Fault.CAPPED and not self.guard.posted_lately(game.id, message.id)
            if fault is not Fault.GONE and not old:
                raise
            self.edits.refused[fault_code(exc)] += 1
            self.guard.note(game.id, exc)
            why = "is gone" if fault is Fault.GONE else "takes no more edits"
            log.warning("game %s: the table message %s %s; posting a fresh one", game.id, message.id, why)
            await self._repost(game)

    async def _reopen(self, game: Game) -> None:
        """Unarchive the game's thread; :class:`~bot.publish.faults.ThreadLocked` if a moderator
        locked it (the bot does not undo that), what Discord answered if it refuses."""
        if not await self.ports.channels.reopen_thread(game.channel_id):
            raise ThreadLocked(f"thread {game.channel_id} is locked")
        log.info("game %s: its thread %s was archived; brought back", game.id, game.channel_id)

    async def _retire_table(self, game: Game, message: discord.PartialMessage, round_no: int) -> None:
        """The table message of an earlier round: one short line, no buttons (a failure is counted;
        nothing is sent while the game's failures hold its requests back)."""
        if self.guard.wait(game.id) > 0:
            return
        with speaking(game.language):
            content = t("table.moved", round=round_no)
        try:
            await message.edit(content=content, embeds=[], view=None)
        except Exception as exc:
            self.guard.failed(game.id, exc, "retire the old table message")

    async def repost_table(self, game: Game) -> None:
        """Post a fresh table message and remember it as the game's table message (a failure is
        logged and counted; the next change tries again)."""
        try:
            await self._repost(game)
        except Exception as exc:
            self.guard.failed(game.id, exc, "post the table message")
        else:
            self.guard.succeeded(game.id)

    async def _repost(self, game: Game) -> None:
        """Post a fresh table message; from then on it is the one edited, even if storing its id fails
        (a failed store must not turn into a new post, and a new ping, at every change)."""
        content, embeds, view = table_message(game, results=self.results_of(game.id), quiet=self.quiet)
        message = await self._messageable(game.channel_id).send(content=content, embeds=embeds, view=view)
        self._remember(game.id, _shown_as(content, embeds, view), _round_of(game))
        self.guard.posted(game.id, message.id)
        try:
            await self.ports.tables.table_posted(game, message.id)
        except Exception:
            log.exception("game %s: the new table message %s could not be stored", game.id, message.id)

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        return self.ports.channels.get_partial_messageable(channel_id)

    async def close(self) -> None:
        """Stop editing: pending edits are dropped (the next start draws the table again)."""
        self._closed = True
        self._waits.close()
        self._held.clear()
        self._replays.clear()
        tasks = [c.task for c in self._channels.values() if c.task is not None and not c.task.done()]
        tasks += list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.panels.close()
        await self.budget.close()
        await self.announcer.close()


def _shown_as(content: str | None, embeds: list[discord.Embed], view: discord.ui.View) -> object:
    """What a table message shows, comparable: its content, embeds and components."""
    return (content, [embed.to_dict() for embed in embeds], view.to_components())


def _round_of(game: Game) -> int | None:
    """The round a table message of ``game`` shows (``None`` for the lobby)."""
    return None if game.match is None else game.match.round_no


def _people_play(game: Game) -> bool:
    """A person plays at this table (in the lobby too), not only computers and people who are away."""
    return any(not seat.played_by_computer for seat in game.seats)
