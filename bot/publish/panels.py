"""Live hand panels: each person's open panel follows the game without a click.

A hand panel is an ephemeral message; the bot can edit it only through the token of an interaction
that made or answered it, for :data:`TOKEN_LIFE` seconds. The :class:`PanelKeeper` remembers, per
game and person, the panel message, the latest interaction that drew it (its token) and what the
panel showed (:func:`watch_key`). When a change matters to that seat (its turn begins, the table or
the discard pile changes while it is on turn, the round or the match ends) the panel is redrawn in
place, at most once every :data:`PANEL_EDIT_INTERVAL` seconds per panel and in a turn of the
bot-wide :class:`~bot.publish.edit_budget.EditBudget`; what the game looks like when the edit goes
out is drawn. Changes while another seat plays do not redraw it (the panel then names nobody), so a
table of computers costs one panel edit a turn of the person, not one a move.

One live panel per person and game: a new one (a second **My hand**) takes over, and the old one is
edited to a short line pointing below. After its token's life the keeper lets the panel be; the
person's next click on it brings a fresh interaction, whose answer is a fresh panel. Discord's
refusals are sorted by :mod:`bot.publish.faults`: an expired token or a deleted message ends the
keeping (:func:`~bot.publish.faults.panel_gone`), a rate limit or a Discord error is retried after
its pause, and every failure counts in the game's budget of failed requests (the ``panel`` lane).

A panel is drawn only from ``match.seat_view(seat)`` of the seat the person plays
(:func:`bot.render.panel.hand_panel`), so an edit of one seat's panel never carries another's hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import speaking, t
from bot.publish.announcements import detached
from bot.publish.emojis import FaceKeeper, names_an_emoji
from bot.publish.faults import EditTally, RequestGuard, fault_code, panel_gone
from bot.publish.wakeups import Wakeups
from bot.render import hand_panel
from bot.render.faces import text_cards
from bot.render.ids import PanelState, Sort
from bot.service.settings import MemberPreferences

if TYPE_CHECKING:
    from bot.publish.edit_budget import EditBudget
    from bot.service.game import Game

log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60.0
"""Seconds Discord lets an interaction's token edit its messages."""
TOKEN_MARGIN = 30.0
"""Seconds before the end of a token's life when the keeper stops using it (an edit under way must
not meet the end)."""
PANEL_EDIT_INTERVAL = 1.0
"""Seconds between two edits of one panel."""
SORTS_KEPT = 10_000
"""Sort orders, and cards just drawn, remembered (per game and person): the most recent ones."""

Key = tuple[int, int]
"""A panel's owner: (game id, user id)."""


@contextlib.contextmanager
def as_member(preferences: MemberPreferences, locale: object) -> Iterator[None]:
    """Within the block, what is drawn for one member follows their ``/romme preferences``: their
    language (else ``locale``, Discord's for them) and cards as text if they chose text.

    >>> from bot.i18n import t
    >>> with as_member(MemberPreferences(language="de"), "id"):
    ...     t("button.draw")
    'Ziehen'
    """
    with speaking(preferences.language or locale), text_cards(preferences.text_cards):
        yield


def no_preferences(user_id: int) -> MemberPreferences:
    """Every member's preferences are the defaults (a keeper not told of any).

    >>> no_preferences(7).cards
    'faces'
    """
    return MemberPreferences()


def watch_key(game: Game, seat: int) -> tuple[Any, ...]:
    """What a panel of match seat ``seat`` must show anew when it changes: the game's status, the
    round, whether the round or match is over, whether the seat is on turn, and while it is, the
    seat's version (its own view: the discard top, the table, its hand).

    >>> from bot.service.game import Game
    >>> watch_key(Game(id=1, guild_id=1, channel_id=1, host_id=1), 0)
    ('lobby',)
    """
    match = game.match
    if match is None:
        return (str(game.status),)
    on_turn = game.to_play == seat
    return (
        str(game.status),
        match.round_no,
        match.round.over,
        match.over,
        on_turn,
        game.seat_version(seat) if on_turn else None,
    )


@dataclass
class _Panel:
    game_id: int
    user_id: int
    message_id: int
    interaction: discord.Interaction[Any]
    since: float
    """When ``interaction`` came (monotonic): its token lives :data:`TOKEN_LIFE` from then."""
    shown: tuple[Any, ...]
    last_edit: float = float("-inf")
    pending: Game | None = None
    busy: bool = False
    task: asyncio.Task[None] | None = None
    """The wait for the panel's second between two edits."""
    refaced: bool = False
    """An edit refused for an unknown card face was tried again once, after the faces were checked."""

    def alive(self, now: float) -> bool:
        return now < self.since + TOKEN_LIFE - TOKEN_MARGIN


class PanelKeeper:
    """Keeps every open hand panel up to date (see the module).

    ``budget`` and ``guard`` are the publisher's: panel edits share the bot-wide pace of edits and
    each game's budget of failed requests; ``interval`` is the least time between two edits of one
    panel.
    """

    def __init__(
        self,
        budget: EditBudget,
        guard: RequestGuard,
        *,
        interval: float = PANEL_EDIT_INTERVAL,
        preferences: Callable[[int], MemberPreferences] = no_preferences,
        faces: FaceKeeper | None = None,
    ) -> None:
        self.budget = budget
        self.guard = guard
        self.interval = interval
        self._panels: dict[Key, _Panel] = {}
        self._by_game: dict[int, set[int]] = {}
        self._sorts: dict[Key, Sort] = {}
        self._drawn: dict[Key, tuple[int, int, str]] = {}
        self._noted: dict[int, set[int]] = {}
        """Per game, the people whose sort order or drawn card is kept (to forget them with it)."""
        self._waits: Wakeups[Key] = Wakeups(self._waited)
        """The panels whose edit waits while failures hold it back: many panels, one timer."""
        self._closed = False
        self.preferences = preferences
        """A member's preferences as known (the bot gives the table service's book)."""
        self.faces = faces
        """The card faces in use (the bot gives its keeper; none: text): an edit Discord refuses for
        naming an emoji it does not know makes the keeper check them, and goes again."""
        self.tally = EditTally()
        """What became of the panel edits (sent, merged, refused), for the metrics."""

    @property
    def open(self) -> int:
        """Panels kept now."""
        return len(self._panels)

    # ------------------------------------------------------------------ what the clicks tell

    def sort_of(self, game_id: int, user_id: int) -> Sort:
        """The order this person last chose in this game (at first, their preference's)."""
        chosen = self._sorts.get((game_id, user_id))
        return chosen if chosen is not None else self.preferences(user_id).sort

    def drew(self, game: Game, user_id: int, code: str) -> None:
        """The person just drew ``code`` from the stock (the panel marks it for the rest of the turn)."""
        if game.match is not None:
            key = (game.id, user_id)
            self._drawn.pop(key, None)
            self._drawn[key] = (game.match.round_no, game.match.round.turn_no, code)
            self._noted.setdefault(game.id, set()).add(user_id)
            while len(self._drawn) > SORTS_KEPT:
                del self._drawn[next(iter(self._drawn))]

    def drawn(self, game: Game, user_id: int) -> str | None:
        """The card the person drew from the stock this turn, if it is still this turn."""
        noted = self._drawn.get((game.id, user_id))
        if noted is None or game.match is None:
            return None
        round_no, turn_no, code = noted
        if (round_no, turn_no) != (game.match.round_no, game.match.round.turn_no):
            return None
        return code

    def shown(
        self,
        game: Game,
        user_id: int,
        interaction: discord.Interaction[Any],
        message_id: int | None,
        state: PanelState,
    ) -> None:
        """A click's answer just drew this person's panel (``message_id``) as ``game`` is now.

        A panel message other than the one kept takes over; the old one is edited to a short line
        pointing below (while its token lives)."""
        key = (game.id, user_id)
        self._remember_sort(key, state.sort)
        seat = game.active_seat_of(user_id)
        if message_id is None or seat is None or self._closed:
            return
        now = time.monotonic()
        old = self._panels.get(key)
        panel = _Panel(game.id, user_id, message_id, interaction, now, watch_key(game, seat), last_edit=now)
        if old is not None:
            # The new entry draws what the old one waited to.
            if old.task is not None and not old.task.done():
                old.task.cancel()
            self._waits.cancel(key)
            if old.message_id != message_id and old.alive(now):
                self.budget.request(-2 * old.message_id - 1, people=True, edit=lambda: self._retire(old))
        self._panels[key] = panel
        self._by_game.setdefault(game.id, set()).add(user_id)

    def _remember_sort(self, key: Key, sort: Sort) -> None:
        if sort == self.preferences(key[1]).sort and key not in self._sorts:
            return
        self._sorts.pop(key, None)
        self._sorts[key] = sort
        self._noted.setdefault(key[0], set()).add(key[1])
        while len(self._sorts) > SORTS_KEPT:
            del self._sorts[next(iter(self._sorts))]

    # ------------------------------------------------------------------ what the game tells

    def changed(self, game: Game) -> None:
        """``game`` changed: redraw the panels of its seats to whom the change matters."""
        users = self._by_game.get(game.id)
        if not users or self._closed:
            return
        now = time.monotonic()
        for user_id in list(users):
            panel = self._panels[(game.id, user_id)]
            seat = game.active_seat_of(user_id)
            if seat is None or not panel.alive(now):
                self._forget(panel)
                continue
            if panel.busy and panel.pending is not None:
                self.tally.merged += 1  # the edit on its way draws this change too
            panel.pending = game
            if not panel.busy and watch_key(game, seat) != panel.shown:
                self._schedule(panel, now)

    def _schedule(self, panel: _Panel, now: float) -> None:
        panel.busy = True
        gap = panel.last_edit + self.interval - now
        held = self.guard.wait(panel.game_id, "panel")
        if held > max(gap, 0.0):
            self._waits.after((panel.game_id, panel.user_id), held)
        else:
            panel.task = asyncio.get_running_loop().create_task(
                self._after(panel, gap), name=f"romme-panel-{panel.message_id}"
            )

    async def _after(self, panel: _Panel, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self._panels.get((panel.game_id, panel.user_id)) is panel and not self._closed:
            self._request(panel)

    def _waited(self, key: Key) -> None:
        panel = self._panels.get(key)
        if panel is not None and not self._closed:
            self._request(panel)

    def _request(self, panel: _Panel) -> None:
        # Panel keys are negative, so they never meet a channel's key in the budget.
        self.budget.request(-2 * panel.message_id, people=True, edit=lambda: self._flush(panel))

    async def _flush(self, panel: _Panel) -> None:
        key = (panel.game_id, panel.user_id)
        game = panel.pending
        retry: float | None = None
        try:
            if self._panels.get(key) is not panel or game is None:
                return
            seat = game.active_seat_of(panel.user_id)
            now = time.monotonic()
            if seat is None or not panel.alive(now):
                self._forget(panel)
                return
            shows = watch_key(game, seat)
            if shows == panel.shown:
                return
            held = self.guard.wait(panel.game_id, "panel")
            if held > 0:  # failures meanwhile (the game's, or the bot's) hold it back
                retry = held
                return
            # A private message: in its owner's language, with their cards (text if they chose text).
            with as_member(self.preferences(panel.user_id), panel.interaction.locale):
                embed, view = hand_panel(
                    game, seat, sort=self.sort_of(*key), drawn=self.drawn(game, panel.user_id)
                )
            panel.last_edit = now
            seen = None if self.faces is None else self.faces.checks
            try:
                await panel.interaction.followup.edit_message(
                    panel.message_id, content=None, embed=embed, view=detached(view)
                )
            except Exception as exc:
                self.tally.refused[fault_code(exc)] += 1
                if self.faces is not None and self.faces.on and names_an_emoji(exc) and not panel.refaced:
                    # A card face is gone from the application: checked again, the edit goes again
                    # with the faces of now (once: a second refusal is an ordinary one).
                    self.guard.note(panel.game_id, exc, "panel")
                    await self.faces.recheck(seen)
                    panel.refaced, retry = True, 0.0
                    return
                retry = self.guard.failed(panel.game_id, exc, "edit a hand panel", "panel")
                if panel_gone(exc) or retry is None:
                    self._forget(panel)
                    retry = None
                return
            self.tally.sent += 1
            self.guard.succeeded(panel.game_id, "panel")
            panel.shown, panel.refaced = shows, False
            if not game.running:
                self._forget(panel)  # the match's end is the last thing a panel shows
        finally:
            panel.busy = False
            if self._panels.get(key) is panel and not self._closed:
                if retry is not None:
                    panel.busy = True
                    self._waits.after(key, retry)
                elif panel.pending is not None:
                    self.changed(panel.pending)

    async def _retire(self, old: _Panel) -> None:
        """The old panel points below to the new one, and takes no clicks."""
        if self.guard.wait(old.game_id, "panel") > 0:
            return  # failures hold the game's panels back: the old one keeps its look
        with as_member(self.preferences(old.user_id), old.interaction.locale):
            content = t("panel.moved")
        try:
            await old.interaction.followup.edit_message(old.message_id, content=content, embeds=[], view=None)
        except Exception as exc:
            self.guard.failed(old.game_id, exc, "retire an old hand panel", "panel")

    def forget(self, game_id: int) -> None:
        """The game left memory: its panels are let be, and its people's sort orders forgotten."""
        for user_id in self._by_game.pop(game_id, set()):
            panel = self._panels.pop((game_id, user_id), None)
            if panel is not None and panel.task is not None and not panel.task.done():
                panel.task.cancel()
            self._waits.cancel((game_id, user_id))
        for user_id in self._noted.pop(game_id, set()):
            self._sorts.pop((game_id, user_id), None)
            self._drawn.pop((game_id, user_id), None)

    def _forget(self, panel: _Panel) -> None:
        key = (panel.game_id, panel.user_id)
        if self._panels.get(key) is panel:
            del self._panels[key]
            self._waits.cancel(key)
            users = self._by_game.get(panel.game_id)
            if users is not None:
                users.discard(panel.user_id)
                if not users:
                    del self._by_game[panel.game_id]

    async def close(self) -> None:
        """Stop keeping panels: pending edits are dropped."""
        self._closed = True
        self._waits.close()
        tasks = [p.task for p in self._panels.values() if p.task is not None and not p.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
