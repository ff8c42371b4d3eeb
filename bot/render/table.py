"""The public table message: one per game, edited in place; My hand, Draw, Take discard.

Built from ``match.seat_view(None)``, the view of an onlooker who holds no hand, so nothing secret can
reach the channel (R19). One drawing asks the match for that view once and hands it to every part.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import discord

from bot.engine.moves import Phase
from bot.engine.views import RoundView
from bot.i18n import t
from bot.render.cards import card_text, meld_cards_text
from bot.render.common import (
    MAX_FIELDS,
    MAX_TOTAL,
    check_embed,
    count_cards,
    display_name,
    line_fields,
    match_seat,
    new_embed,
    plain,
    public_button,
    seat_call,
    seat_name,
    seat_tags,
)
from bot.render.events import last_move_text
from bot.render.faces.fit import clip_markup

if TYPE_CHECKING:
    from bot.service.game import Game

NAME_WIDTH = 40
"""Names are cut here in lists, so six seats always fit one field."""


def round_title(game: Game) -> str:
    """``Rommé — round 2 of 3``, or the tie-break's title, counted from 1 after the planned rounds (R6)."""
    assert game.match is not None
    match = game.match
    if match.tiebreak:
        planned = match.rounds_planned
        # Two numbers: the plural form follows the planned rounds' count ("after 1 round").
        return t("table.title.tiebreak", round=match.round_no - planned, rounds=planned, count=planned)
    return t("table.title", round=match.round_no, rounds=match.rounds_planned)


def meld_lines(game: Game, view: RoundView) -> list[str]:
    """One line per table meld: its short id, its owner, its cards and points."""
    return [
        t(
            "meld.line",
            meld_id=meld.id,
            owner=seat_name(game, match_seat(game, meld.owner), limit=NAME_WIDTH),
            cards=meld_cards_text(meld),
            points=meld.points,
        )
        for meld in view.table
    ]


def _seat_lines(game: Game, view: RoundView) -> list[str]:
    assert game.match is not None
    match = game.match
    totals = match.totals
    playing = view.phase != Phase.OVER
    lines = []
    for seat in range(len(game.seats)):
        tags = seat_tags(game, seat)
        if seat in match.round_seats:
            inner = match.round_seats.index(seat)
            cards = count_cards(view.hand_counts[inner])
            opened = t("seat.opened" if view.opened[inner] else "seat.not_opened")
            marker = "▶ " if playing and inner == view.to_play else ""
        else:
            cards, opened, marker = "—", "—", ""
            tags.append(t("seat.tag.sits_out"))
        lines.append(
            t(
                "table.seat_line",
                marker=marker,
                name=seat_name(game, seat, limit=NAME_WIDTH),
                cards=cards,
                opened=opened,
                total=t("seat.points", points=totals[seat]),
                tags=f" ({', '.join(tags)})" if tags else "",
            )
        )
    return lines


def results_url(game: Game, message_id: int) -> str:
    """The jump URL of message ``message_id`` in the game's channel (the match-end announcement).

    >>> from bot.service.game import Game
    >>> results_url(Game(id=1, guild_id=10, channel_id=20, host_id=1), 30)
    'https://discord.com/channels/10/20/30'
    """
    return f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{message_id}"


def _description(game: Game, view: RoundView, results: str | None = None) -> str:
    lines = [t("table.dealer", name=seat_name(game, game.match.dealer if game.match else None))]
    if view.phase == Phase.OVER:
        lines.append(t("table.round_over"))
        if results is not None and str(game.status) == "finished":
            lines.append(t("table.results", url=results))
    else:
        seat = match_seat(game, view.to_play)
        who = seat_call(game, seat)
        tags = seat_tags(game, seat)
        if tags:
            who += f" ({', '.join(tags)})"
        lines.append(t("table.turn.draw" if view.phase == Phase.DRAW else "table.turn.play", who=who))
        if game.turn_deadline is not None and game.seats[seat].is_person:
            lines.append(t("table.turn.deadline", when=f"<t:{int(game.turn_deadline)}:R>"))
    return "\n".join(lines)


def _piles(view: RoundView) -> str:
    lines = [t("table.stock", count=view.stock_count)]
    top = view.discard_top
    if top is None:
        lines.append(t("table.discard_empty"))
    else:
        lines.append(t("table.discard_top", card=card_text(top), cards=count_cards(view.discard_count)))
    if view.reshuffles:
        lines.append(t("table.reshuffles", count=view.reshuffles))
    return "\n".join(lines)


def table_embed(game: Game, view: RoundView | None = None, *, results: str | None = None) -> discord.Embed:
    """The table embed of a game whose match has begun (within every Discord limit).

    ``view`` is the onlooker's round view, ``game.match.seat_view(None).round``, when the caller has it
    already; ``results``: the jump URL of the match-end message, linked once the match is over.
    """
    if game.match is None:
        raise ValueError("the table of a game that has not begun")
    if view is None:
        view = game.match.seat_view(None).round
    embed = new_embed(round_title(game), _description(game, view, results))
    embed.add_field(name=t("table.seats"), value="\n".join(_seat_lines(game, view)), inline=False)
    embed.add_field(name=t("table.piles"), value=_piles(view), inline=False)
    last = last_move_text(game)
    over = str(game.status) == "finished"
    footer = t("table.footer.over" if over else "table.footer", game_id=game.id)
    # Fields left for melds after the fixed ones; characters left after everything else.
    fixed = (
        len(embed) + len(footer) + (len(t("table.last_move")) + len(clip_markup(last, 1024)) if last else 0)
    )
    lines = meld_lines(game, view) or [t("table.no_melds")]
    keep = len(lines)
    while True:
        more = [t("meld.more", count=len(lines) - keep)] if keep < len(lines) else []
        values = line_fields(lines[:keep] + more, max_fields=MAX_FIELDS - 3)
        names = [t("table.melds")] + [t("table.melds.more")] * (len(values) - 1)
        size = sum(len(n) + len(v) for n, v in zip(names, values, strict=True))
        if fixed + size <= MAX_TOTAL or keep == 0:
            break
        keep -= 1
    for name, value in zip(names, values, strict=True):
        embed.add_field(name=name, value=value, inline=False)
    if last:
        embed.add_field(name=t("table.last_move"), value=clip_markup(last, 1024), inline=False)
    embed.set_footer(text=footer)
    return check_embed(embed)


def table_view(game: Game, view_data: RoundView | None = None) -> discord.ui.View:
    """My hand (while the game runs), Draw and Take discard (in a draw phase; Take discard needs a
    discard pile). The service decides whose click counts.

    ``view_data`` is the onlooker's round view, ``game.match.seat_view(None).round``, when the caller
    has it already.
    """
    running = str(game.status) == "playing" and game.match is not None
    if view_data is None and game.match is not None:
        view_data = game.match.seat_view(None).round
    drawing = running and view_data is not None and view_data.phase == Phase.DRAW
    view = discord.ui.View(timeout=None)
    view.add_item(
        public_button(game.id, "hand", "button.hand", discord.ButtonStyle.primary, disabled=not running)
    )
    view.add_item(
        public_button(game.id, "draw", "button.draw", discord.ButtonStyle.secondary, disabled=not drawing)
    )
    no_pile = view_data is None or view_data.discard_top is None
    take_off = not drawing or no_pile
    view.add_item(
        public_button(game.id, "take", "button.take", discord.ButtonStyle.secondary, disabled=take_off)
    )
    return view


def table_content(game: Game, quiet: Collection[int] = ()) -> str | None:
    """The table message's content: a mention of the person on turn, ``None`` when nobody is.

    Unlike a mention in an embed, one in the content always shows as the name (and pings on a new
    message). A seat the computer plays (a computer, a person who left or is away) is not called. A
    person in ``quiet`` (who asked not to be mentioned, ``/romme preferences``) is named, not called.

    >>> from bot.service.game import Game
    >>> table_content(Game(id=1, guild_id=1, channel_id=1, host_id=1)) is None
    True
    """
    # Whose turn it is is public: Game.to_play says what the onlooker's view would, without building it.
    seat = game.to_play
    if seat is None:
        return None
    person = game.seats[seat]
    if not person.is_person or person.away:
        return None
    if person.user_id in quiet:
        return t("table.content.turn", mention=f"**{plain(display_name(person))}**")
    return t("table.content.turn", mention=f"<@{person.user_id}>")


def table(game: Game, *, results: str | None = None) -> tuple[discord.Embed, discord.ui.View]:
    """The public table message of ``game``: the embed and its three buttons; after the match, with
    ``results`` (the match-end message's jump URL), a link to the results."""
    if game.match is None:
        raise ValueError("the table of a game that has not begun")
    view = game.match.seat_view(None).round
    return table_embed(game, view, results=results), table_view(game, view)
