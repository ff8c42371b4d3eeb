"""What each click does: parse → table service → render → one answer (and at most one table edit).

Every accepted change is saved by the service before the answer goes out. A refusal (a rule, a table
refusal, a forged or outdated component) is a short ephemeral answer and changes nothing. The hand
panel is answered by editing it in place; the public table message is edited by the
:class:`~bot.publish.publisher.TablePublisher`, at most once a second per channel.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.errors import IllegalMove
from bot.i18n import speaking, t
from bot.logs import about_game
from bot.publish.emojis import FaceKeeper, names_an_emoji, refaced, refaced_embeds
from bot.publish.panels import as_member
from bot.publish.publisher import announcement, detached, round_over_now, table_message
from bot.render import (
    BadClick,
    CustomId,
    PanelState,
    cards_from_option_values,
    click_move,
    hand_panel,
    hint,
    refusal,
    refusal_for,
    round_end_past,
)
from bot.render.cards import card_text, cards_text
from bot.render.common import game_footers
from bot.render.faces import text_cards
from bot.render.ids import STOP
from bot.render.results import early_rating_line
from bot.service import TableError
from bot.service.changes import PreparedAnswer
from cogs.start import start_refusal

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.ops import Metrics
    from bot.publish.publisher import TablePublisher
    from bot.service import TableService
    from bot.service.game import Game

log = logging.getLogger(__name__)

PANEL_VIEW_ONLY = ("sort", "select", "layoff", "swap")
"""Panel clicks that only redraw the panel (no move, nothing saved)."""
PRIVATE_ACTIONS = frozenset(STOP.words("action"))
"""Public ids that only ever sit on an ephemeral message (the stop confirmation); panel ids too."""
DRAW_WHILE_SAVING = True
"""Draw a move's hand panel while its save commits (sent only once it is committed); False draws it
after the commit (``bench/interactions.py --compare`` times both)."""


class Misplaced(Exception):
    """A click on a component of a game that is not the clicked place's: another server, another
    channel, a channel the clicker cannot see, or a message that is not the game's. ``key`` is the
    catalog key of the refusal."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def check_place(interaction: discord.Interaction, game: Game, cid: CustomId) -> None:
    """Refuse (:class:`Misplaced`) a click that is not made where ``game`` is played.

    Ids are small and printed in footers, so a custom id can be copied to another server, another
    channel or another message. The interaction's guild and channel must be the game's; its
    permissions are then those of the game's own channel, where the clicker must see the channel;
    a private component must be on an ephemeral message (ephemeral messages belong to the clicker),
    and a public one on a message the bot drew for this game (its table message, or a lobby,
    table, results or announcement message whose footer names the game).
    """
    if interaction.guild_id is None or interaction.guild_id != game.guild_id:
        raise Misplaced("error.click.other_server")
    if interaction.channel_id != game.channel_id:
        raise Misplaced("error.click.other_channel")
    if not interaction.permissions.view_channel:
        raise Misplaced("error.click.cannot_view")
    message = interaction.message
    if message is None:
        raise Misplaced("error.click.other_message")
    if cid.is_panel or cid.action in PRIVATE_ACTIONS:
        if not message.flags.ephemeral:
            raise Misplaced("error.click.other_message")
        return
    if message.flags.ephemeral or not shown_for(interaction, message, game):
        raise Misplaced("error.click.other_message")


def shown_for(interaction: discord.Interaction, message: discord.Message, game: Game) -> bool:
    """``message`` is one of ``game``'s public messages: posted by the bot, and its table message or
    one whose embed footer names the game (what Discord sends of the message cannot be forged)."""
    me = interaction.client.user
    if me is None or message.author.id != me.id:
        return False
    if message.id == game.table_message_id:
        return True
    footers = game_footers(game.id)
    return any(embed.footer.text in footers for embed in message.embeds)


def selected_values(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a select's click chose (none for a button), as Discord sent them: strings only,
    whatever else a forged payload holds."""
    data: Mapping[str, object] = interaction.data or {}
    given = data.get("values")
    return [v for v in given if isinstance(v, str)] if isinstance(given, list) else []


async def refuse_forged(interaction: discord.Interaction[Any]) -> None:
    """The short refusal of a component that is not what its id says (a button's id on a select, a
    select's on a button): only a forged message carries one."""
    with speaking(interaction.locale):
        await answer_privately(interaction, refusal(t("error.bad_component")))


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral line; never raises (an expired interaction cannot be answered anyway)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)


DEFER_AFTER = 2.0
"""Seconds a click may take before it is deferred: Discord fails an interaction not answered in 3 s.
0 defers every click before its work."""


class Reply:
    """The one answer to an interaction, through the right path: the response while the click is
    not deferred, else the deferred response's message (``edit_original_response``) or a followup.

    :meth:`defer` and the answers take turns (a lock), so a defer never races an answer that is
    going out (two callbacks to one interaction are refused by Discord).
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self._turn = asyncio.Lock()

    async def defer(self) -> None:
        """Acknowledge now and answer later (for a component: "deferred update", nothing shown)."""
        async with self._turn:
            if self.interaction.response.is_done():
                return
            try:
                await self.interaction.response.defer()
            except discord.HTTPException as exc:
                log.warning("could not defer interaction %s: %s", self.interaction.id, exc)

    async def send(
        self,
        content: str | None = None,
        *,
        embeds: Sequence[discord.Embed] = (),
        view: discord.ui.View | None = None,
        ephemeral: bool = False,
    ) -> int | None:
        """A new message as the answer; its id when Discord says it. A card face Discord no longer
        knows makes the bot check its faces, and the answer goes again with the faces of now."""
        try:
            return await self._send(content, embeds=embeds, view=view, ephemeral=ephemeral)
        except discord.HTTPException as exc:
            if view is None or not await self._faces_checked(exc):
                raise
            embeds, view = refaced_embeds(embeds), refaced(view)
            return await self._send(content, embeds=embeds, view=view, ephemeral=ephemeral)

    async def _faces_checked(self, exc: discord.HTTPException) -> bool:
        """``exc`` names an unknown emoji: the faces were checked again (True)."""
        keeper = getattr(self.interaction.client, "faces", None)
        if not names_an_emoji(exc) or not isinstance(keeper, FaceKeeper) or not keeper.on:
            return False
        await keeper.recheck()
        return True

    async def _send(
        self,
        content: str | None,
        *,
        embeds: Sequence[discord.Embed],
        view: discord.ui.View | None,
        ephemeral: bool,
    ) -> int | None:
        extra: dict[str, Any] = {} if view is None else {"view": view}
        async with self._turn:
            response = self.interaction.response
            if not response.is_done():
                callback = await response.send_message(
                    content, embeds=list(embeds), ephemeral=ephemeral, **extra
                )
                return callback.message_id
            message = await self.interaction.followup.send(
                content or "", embeds=list(embeds), ephemeral=ephemeral, wait=True, **extra
            )
            return message.id

    async def edit(self, **fields: Any) -> None:
        """Edit the clicked message (``content``, ``embed``/``embeds``, ``view``) as the answer (again
        with the faces of now if Discord no longer knows one, as :meth:`send`)."""
        try:
            await self._edit(**fields)
        except discord.HTTPException as exc:
            view = fields.get("view")
            if not isinstance(view, discord.ui.View) or not await self._faces_checked(exc):
                raise
            again = dict(fields, view=refaced(view))
            for key in ("embed", "embeds"):
                drawn = again.get(key)
                if isinstance(drawn, discord.Embed):
                    again[key] = refaced_embeds([drawn])[0]
                elif isinstance(drawn, list):
                    again[key] = refaced_embeds(drawn)
            await self._edit(**again)

    async def _edit(self, **fields: Any) -> None:
        async with self._turn:
            response = self.interaction.response
            if not response.is_done():
                await response.edit_message(**fields)
            else:
                await self.interaction.edit_original_response(**fields)


def panel_state(custom_id: CustomId) -> PanelState:
    """The panel state carried by a panel id; a malformed one is a :class:`BadClick`."""
    try:
        return custom_id.panel_state()
    except ValueError as exc:
        raise BadClick(str(exc)) from None


def panel(
    game: Game, seat: int, state: PanelState, *, drawn: str | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """The hand panel of match seat ``seat`` in ``state`` (its components not kept in memory);
    ``drawn`` is the card the seat drew from the stock this turn (marked)."""
    embed, view = hand_panel(
        game, seat, sort=state.sort, selected=state.cards, target=state.mode, drawn=drawn
    )
    return embed, detached(view)


def drawn_card(game: Game, seat: int) -> str | None:
    """The card a draw from the stock just gave match seat ``seat``: the last one of its hand (a
    drawn card joins the hand at its end)."""
    if game.match is None:
        return None
    hand = game.match.seat_view(seat).round.hand
    return str(hand[-1]) if hand else None


Answer = tuple[discord.Embed, discord.ui.View] | None
"""A hand panel drawn while a move's save commits, or ``None`` (not drawn then)."""
Handler = Callable[["Clicks", discord.Interaction, CustomId, Sequence[str]], Awaitable[None]]
"""What a family of game ids goes to: a method of :class:`Clicks` (``Clicks.join``...)."""


class Clicks:
    """The handlers of every component of the game (which family goes to which: the register,
    :data:`cogs.components.REGISTER`), and what every game click shares: the clicker's language, the
    place check, one answer whatever happens."""

    @classmethod
    def of(cls, bot: RommeBot) -> Clicks:
        """The handlers over ``bot``'s table service, publisher and metrics (cheap: three references)."""
        return cls(bot.tables, bot.publisher, bot.metrics)

    def __init__(
        self, service: TableService, publisher: TablePublisher, metrics: Metrics | None = None
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.metrics = metrics
        """Where the time from a click to its answer goes (``None``: metrics off)."""
        self._replies: dict[int, Reply] = {}

    async def run(
        self,
        interaction: discord.Interaction,
        custom_id: CustomId | None,
        values: Sequence[str],
        handler: Handler | None = None,
    ) -> None:
        """Handle one click with ``handler`` (its family's, from the register); every outcome is
        answered, and no error escapes. ``custom_id`` ``None`` (or no handler) is a component that is
        not what its id says, refused.

        A click whose answer is not ready after :data:`DEFER_AFTER` seconds (a slow save) is
        deferred, and answered when it is done (SpellBot's safe defer), so a move that was accepted
        never shows "This interaction failed". With metrics on, the time it took is observed.
        """
        began = time.perf_counter()
        try:
            await self._answer(interaction, custom_id, values, handler)
        finally:
            if self.metrics is not None:
                self.metrics.clicked(time.perf_counter() - began)

    async def _answer(
        self,
        interaction: discord.Interaction,
        custom_id: CustomId | None,
        values: Sequence[str],
        handler: Handler | None,
    ) -> None:
        reply = self.reply_to(interaction)
        if DEFER_AFTER <= 0:  # every click deferred at once (a database known to be slow)
            await reply.defer()
            await self._run(interaction, custom_id, values, handler)
            return
        # The work runs in this task (a task of its own would wait a turn of the loop to start);
        # a timer defers beside it if it is still running when the window closes.
        deferring: list[asyncio.Task[None]] = []
        timer = asyncio.get_running_loop().call_later(
            DEFER_AFTER, lambda: deferring.append(asyncio.ensure_future(reply.defer()))
        )
        try:
            await self._run(interaction, custom_id, values, handler)
        finally:
            timer.cancel()
            if deferring:
                await deferring[0]

    def reply_to(self, interaction: discord.Interaction) -> Reply:
        """The one :class:`Reply` of ``interaction`` (made on first use)."""
        return self._replies.setdefault(interaction.id, Reply(interaction))

    async def _refuse(
        self, interaction: discord.Interaction, text: str, custom_id: CustomId | None = None
    ) -> None:
        """A short ephemeral answer; a click from a hand panel gets it inside the panel instead."""
        try:
            if custom_id is not None and await self._refuse_in_panel(interaction, text, custom_id):
                return
            await self.reply_to(interaction).send(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not answer interaction %s: %s", interaction.id, exc)

    async def _refuse_in_panel(self, interaction: discord.Interaction, text: str, cid: CustomId) -> bool:
        """Redraw the clicked panel with the refusal above it; False if the click is not from a
        panel of a seat in a running game (the refusal is then a message of its own)."""
        message = interaction.message
        if not cid.is_panel or message is None or not message.flags.ephemeral:
            return False
        try:
            state = cid.panel_state()
            game = await self.game(cid.game_id)
        except (ValueError, TableError):
            return False
        seat = game.active_seat_of(interaction.user.id)
        if seat is None or not game.running or game.match is None:
            return False
        state = PanelState(state.sort, None, state.cards)
        drawn = self.publisher.panels.drawn(game, interaction.user.id)
        embed, view = panel(game, seat, state, drawn=drawn)
        await self.reply_to(interaction).edit(content=text, embed=embed, view=view)
        self.publisher.panels.shown(game, interaction.user.id, interaction, message.id, state)
        return True

    async def _run(
        self,
        interaction: discord.Interaction,
        custom_id: CustomId | None,
        values: Sequence[str],
        handler: Handler | None,
    ) -> None:
        # Private answers in the clicker's language (their preference, else Discord's) with their
        # cards as they chose; public ones set the game's language themselves.
        preferences = await self.service.book.known(interaction.user.id)
        with as_member(preferences, interaction.locale):
            await self._handle(interaction, custom_id, values, handler)

    async def _handle(
        self,
        interaction: discord.Interaction,
        custom_id: CustomId | None,
        values: Sequence[str],
        handler: Handler | None,
    ) -> None:
        game_id = None if custom_id is None else custom_id.game_id
        # A panel id carries the selected cards (a proposed meld is secret, R13): the log names the
        # game and the action only.
        action = None if custom_id is None else custom_id.action
        with about_game(game_id, interaction.guild_id):
            try:
                if custom_id is None or handler is None:
                    raise BadClick("not one of our components")
                check_place(interaction, await self.game(custom_id.game_id), custom_id)
                await handler(self, interaction, custom_id, values)
            except (TableError, IllegalMove) as exc:
                await self._refuse(interaction, refusal_for(exc), custom_id)
            except Misplaced as exc:
                await self._refuse(interaction, refusal(t(exc.key)))
            except BadClick:
                await self._refuse(interaction, refusal(t("error.bad_component")))
            except discord.HTTPException as exc:
                # The change (if any) is saved; only the answer was lost (e.g. the interaction expired).
                log.warning("game %s: the answer to %s failed: %s", game_id, action, exc)
            except Exception as exc:
                log.error(
                    "game %s: the click %s failed: %s", game_id, action, type(exc).__name__, exc_info=exc
                )
                await self._refuse(interaction, refusal(t("error.unexpected")))

    async def game(self, game_id: int) -> Game:
        """The game of a component (also one that ended before a restart)."""
        return await self.service.fetch(game_id)

    # ------------------------------------------------------------------ lobby and public messages

    async def join(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """Join: the lobby message (the future table) is redrawn, as after every lobby button."""
        user = interaction.user
        await self.redraw_table_here(
            interaction, await self.service.join(cid.game_id, user.id, user.display_name)
        )

    async def leave(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """Leave the lobby."""
        await self.redraw_table_here(interaction, await self.service.leave(cid.game_id, interaction.user.id))

    async def add_computer(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """Add computer (the host only)."""
        game = await self.service.add_computer(cid.game_id, interaction.user.id)
        await self.redraw_table_here(interaction, game)

    async def begin(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """Start (the host only): the lobby becomes the table."""
        await self.redraw_table_here(interaction, await self.service.begin(cid.game_id, interaction.user.id))

    async def cancel(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """Cancel (the host only)."""
        await self.redraw_table_here(interaction, await self.service.cancel(cid.game_id, interaction.user.id))

    async def redraw_table_here(self, interaction: discord.Interaction, game: Game) -> None:
        """Answer by drawing the table message of ``game`` on the clicked message."""
        message = interaction.message
        if game.table_message_id is None and message is not None:
            await self.service.set_table_message(game.id, message.id)
        content, embeds, view = table_message(game, quiet=self.publisher.quiet)
        await self.reply_to(interaction).edit(content=content, embeds=embeds, view=view)
        if message is not None and message.id == game.table_message_id:
            self.publisher.shown(game, message.id)
        else:
            self.publisher.update(game)

    async def my_hand(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """My hand: the private panel of the clicking person (their own seat, whoever clicks)."""
        await self.open_panel(interaction, cid.game_id)

    async def open_panel(self, interaction: discord.Interaction, game_id: int) -> None:
        """Send the clicking person's hand panel (ephemeral); a click brings an away seat back."""
        game = await self.game(game_id)
        seat = self.require_seat(game, interaction.user.id)
        before = game.version
        game = await self.service.touch(game.id, interaction.user.id)
        panels = self.publisher.panels
        user_id = interaction.user.id
        state = PanelState(panels.sort_of(game.id, user_id))
        embed, view = panel(game, seat, state, drawn=panels.drawn(game, user_id))
        # The first panel a member ever opens carries one line of tip above it.
        preferences = await self.service.book.known(user_id)
        tip = None if preferences.tipped else t("help.tip")
        message_id = await self.reply_to(interaction).send(tip, embeds=[embed], view=view, ephemeral=True)
        if tip is not None:
            await self.service.book.save_member(user_id, preferences.changed("tipped", True))
        # The one live panel of this person: an older one points here from now on.
        panels.shown(game, user_id, interaction, message_id, state)
        if game.version != before:
            self.publisher.update(game)

    @staticmethod
    def require_seat(game: Game, user_id: int) -> int:
        """The seat ``user_id`` plays in a running ``game``, or the refusal saying why there is none."""
        if not game.running or game.match is None:
            raise TableError("game.not_running", game_id=game.id)
        seat = game.active_seat_of(user_id)
        if seat is None:
            raise TableError("seat.not_seated", game_id=game.id)
        return seat

    async def table_draw(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """Draw / Take discard on the table: the move for the clicker's seat; the answer is their panel."""
        move = click_move(cid)
        assert move is not None
        sort = self.publisher.panels.sort_of(cid.game_id, interaction.user.id)
        drew = cid.action == "draw"
        answer = self.prepared_answer(interaction.user.id, PanelState(sort), drew=drew)
        game = await self.service.play(cid.game_id, interaction.user.id, move, answer=answer)
        await self.after_move(interaction, game, PanelState(sort), edit=False, drew=drew, answer=answer)

    async def next_round(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """Next round: deal now; the round-end message loses its button."""
        game = await self.service.next_round(cid.game_id, interaction.user.id)
        self.publisher.announcer.started_here(game)
        try:
            assert game.match is not None
            content = t("round_end.started", round=game.match.round_no)
            shown = interaction.message.embeds if interaction.message is not None else []
            await self.reply_to(interaction).edit(content=content, embeds=round_end_past(shown), view=None)
        finally:
            self.publisher.update(game)

    async def play_again(
        self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]
    ) -> None:
        """Play again: a new lobby with the same people, posted as the new game's table message.
        Refused where ``/romme start`` would be now (:func:`cogs.start.start_refusal`, against the
        server's settings as they are at this click)."""
        server = await self.service.book.server(interaction.guild_id or 0)
        refused = start_refusal(
            server,
            interaction.channel,
            interaction.channel_id or 0,
            interaction.app_permissions,
            thread=False,
        )
        if refused is not None:
            await self._refuse(interaction, refused)
            return
        game = await self.service.play_again(cid.game_id, interaction.user.id)
        content, embeds, view = table_message(game, quiet=self.publisher.quiet)
        message_id = await self.reply_to(interaction).send(content, embeds=embeds, view=view)
        if message_id is not None:
            await self.service.set_table_message(game.id, message_id)
            self.publisher.shown(game, message_id)

    async def stop(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """The confirmed stop: the game ends, results so far stay; the table shows the standings."""
        can_manage = interaction.permissions.manage_guild
        if not can_manage and interaction.guild_id is not None:
            # The server's game-master role may stop any of its games (/romme settings).
            server = await self.service.book.server(interaction.guild_id)
            can_manage = server.runs_games(role.id for role in getattr(interaction.user, "roles", ()))
        game = await self.service.stop(cid.game_id, interaction.user.id, can_manage=can_manage)
        # The stopper reads at once whether and how the match was rated, as the table then says.
        rated = early_rating_line(game)
        done = t("stop.done") if rated is None else f"{t('stop.done')}\n{rated}"
        try:
            await self.reply_to(interaction).edit(content=done, embed=None, view=None)
        finally:
            self.publisher.update(game)

    # ------------------------------------------------------------------ the hand panel

    async def on_panel(self, interaction: discord.Interaction, cid: CustomId, values: Sequence[str]) -> None:
        """A hand-panel component: redraw it (sort, select, choose a target), a hint, or a move."""
        if not cid.is_panel:
            raise BadClick("not a panel component")
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            # A hand panel is only ever private; answering one on a public message would edit the
            # public message into the clicker's hand.
            raise BadClick("a panel component on a public message")
        state = panel_state(cid)
        if cid.action == "hint":
            await self.show_hint(interaction, cid, state)
            return
        if cid.action in PANEL_VIEW_ONLY:
            await self.refresh_panel(interaction, cid, state, values)
            return
        move = click_move(cid, values)
        if move is None:
            raise BadClick("not a move")
        answer = self.prepared_answer(
            interaction.user.id, PanelState(state.sort), drew=cid.action == "p_draw"
        )
        try:
            game = await self.service.play(
                cid.game_id, interaction.user.id, move, seat_version=cid.version, answer=answer
            )
        except TableError as exc:
            if exc.code != "panel.stale":
                raise
            game = await self.game(cid.game_id)
            seat = self.require_seat(game, interaction.user.id)
            fresh = PanelState(state.sort, None, state.cards)
            drawn = self.publisher.panels.drawn(game, interaction.user.id)
            embed, view = panel(game, seat, fresh, drawn=drawn)
            await self.reply_to(interaction).edit(content=refusal_for(exc), embed=embed, view=view)
            self.publisher.panels.shown(game, interaction.user.id, interaction, message.id, fresh)
            return
        note = None
        if move.kind == "swap_joker" and move.card is not None:
            # The panel confirms the swap in words (the joker has moved to the new meld).
            note = t(
                "panel.swapped", card=card_text(move.card), meld_id=move.meld_id, cards=cards_text(move.cards)
            )
        await self.after_move(
            interaction,
            game,
            PanelState(state.sort),
            edit=True,
            drew=cid.action == "p_draw",
            note=note,
            answer=answer,
        )

    async def show_hint(self, interaction: discord.Interaction, cid: CustomId, state: PanelState) -> None:
        """Hint: the panel is redrawn with the hint below it, so hints never pile up as messages of
        their own (the next redraw of the panel drops it)."""
        game = await self.game(cid.game_id)
        seat = self.require_seat(game, interaction.user.id)
        panels = self.publisher.panels
        state = PanelState(state.sort, None, state.cards)
        embed, view = panel(game, seat, state, drawn=panels.drawn(game, interaction.user.id))
        await self.reply_to(interaction).edit(content=None, embeds=[embed, hint(game, seat)], view=view)
        if interaction.message is not None:
            panels.shown(game, interaction.user.id, interaction, interaction.message.id, state)

    async def refresh_panel(
        self, interaction: discord.Interaction, cid: CustomId, state: PanelState, values: Sequence[str]
    ) -> None:
        """Sort, the card select, Lay off / Swap joker (which ask for the target meld)."""
        game = await self.game(cid.game_id)
        seat = self.require_seat(game, interaction.user.id)
        if cid.action == "select":
            cards = cards_from_option_values(values)
            if cards is None:
                raise BadClick("forged card values")
            state = PanelState(state.sort, None, tuple(cards))
        elif cid.action in ("layoff", "swap"):
            state = PanelState(state.sort, "lay_off" if cid.action == "layoff" else "swap_joker", state.cards)
        before = game.version
        game = await self.service.touch(game.id, interaction.user.id)
        panels = self.publisher.panels
        embed, view = panel(game, seat, state, drawn=panels.drawn(game, interaction.user.id))
        await self.reply_to(interaction).edit(content=None, embed=embed, view=view)
        if interaction.message is not None:
            panels.shown(game, interaction.user.id, interaction, interaction.message.id, state)
        if game.version != before:
            self.publisher.update(game)

    def prepared_answer(
        self, user_id: int, state: PanelState, *, drew: bool
    ) -> PreparedAnswer[Answer] | None:
        """What a move click draws while its save commits: the mover's hand panel in ``state``, the
        card a stock draw gave marked (``drew``); none when the move ends the round (the answer is
        then the round's end, drawn after the commit). Nothing is noted until the save is done."""
        if not DRAW_WHILE_SAVING:
            return None
        panels = self.publisher.panels

        def prepare(game: Game) -> Answer:
            seat = game.active_seat_of(user_id)
            if round_over_now(game) or seat is None:
                return None
            marked = drawn_card(game, seat) if drew else panels.drawn(game, user_id)
            with text_cards(self.service.book.cached(user_id).text_cards):
                return panel(game, seat, state, drawn=marked)

        return PreparedAnswer(prepare)

    async def after_move(
        self,
        interaction: discord.Interaction,
        game: Game,
        state: PanelState,
        *,
        edit: bool,
        drew: bool = False,
        note: str | None = None,
        answer: PreparedAnswer[Answer] | None = None,
    ) -> None:
        """Answer an accepted move: the round's end in public if it just ended, else the mover's panel
        (kept live from then on; ``drew``: the move drew from the stock, whose card it marks; ``note``:
        a line above the panel; ``answer``: the panel prepared while the move's save committed, if it
        drew one); then the table message (and the other seats' panels)."""
        try:
            if round_over_now(game) and self.publisher.claim_announcement(game):
                # Owed in the storage since the save: the answer delivers it, or else the publisher.
                embeds, view = announcement(game)
                try:
                    message_id = await self.reply_to(interaction).send(embeds=embeds, view=view)
                except BaseException:
                    self.publisher.not_announced(game)
                    raise
                self.publisher.announced(game, message_id, embeds)
                return
            user_id = interaction.user.id
            seat = game.active_seat_of(user_id)
            assert seat is not None
            panels = self.publisher.panels
            if drew:
                code = drawn_card(game, seat)
                if code is not None:
                    panels.drew(game, user_id, code)
            shown = answer.result() if answer is not None else None
            embed, view = shown or panel(game, seat, state, drawn=panels.drawn(game, user_id))
            if edit:
                await self.reply_to(interaction).edit(content=note, embed=embed, view=view)
                message_id = None if interaction.message is None else interaction.message.id
            else:
                message_id = await self.reply_to(interaction).send(embeds=[embed], view=view, ephemeral=True)
            panels.shown(game, user_id, interaction, message_id, state)
        finally:
            self.publisher.update(game)
