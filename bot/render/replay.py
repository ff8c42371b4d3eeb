"""What ``/romme history`` and ``/romme replay`` show: the list of a server's last matches, and the
viewer of one match, step by step, with every seat's hand (the match is over, R19 no longer hides
them). Both are ephemeral: only the member who asked sees them.

The viewer keeps no memory: each of its components carries the game and the step it leads to (see
the templates below), so a viewer still works after a restart, as the game's own buttons do.

>>> replay_id(12, 40, "n"), parse_replay_id("romme:12:rv:40:n")
('romme:12:rv:40:n', (12, 40, 'n'))
>>> parse_replay_id("romme:12:rv:40:x") is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bot.engine.cards import Card
from bot.engine.moves import Phase
from bot.i18n import t
from bot.render.cards import DARK_SUITS, TEXT_PRESENTATION, sorted_codes
from bot.render.common import (
    MAX_FIELD_VALUE,
    MAX_FIELDS,
    MAX_TOTAL,
    check_embed,
    clip,
    line_fields,
    match_seat,
    new_embed,
    seat_name,
)
from bot.render.events import last_move_text
from bot.render.ids import NUMBER, PREFIX, STRING_SELECT, Family
from bot.render.results import ranked

if TYPE_CHECKING:
    from bot.service.game import Game
    from bot.service.matchlog import MatchLog

STEP_TAGS = "fpntlo"
"""What a viewer button does, in its id: first, previous, next, next turn, last, open (from the
history list, at the first step)."""
REPLAY_STEP: Family[tuple[int, int, str]] = Family(
    "replay_step",
    PREFIX + ":{game_id}:rv:{step}:{tag}",
    {"game_id": NUMBER, "step": NUMBER, "tag": f"[{STEP_TAGS}]"},
    read=lambda found: (int(found["game_id"]), int(found["step"]), found["tag"]),
)
"""A viewer button (and a history button): ``romme:<game>:rv:<step>:<tag>`` shows step ``step``;
read as ``(game, step, tag)``."""
REPLAY_ROUND: Family[int] = Family(
    "replay_round",
    PREFIX + ":{game_id}:rr",
    {"game_id": NUMBER},
    kinds=(STRING_SELECT,),
    read=lambda found: int(found["game_id"]),
)
"""The viewer's round select: ``romme:<game>:rr``, its value the round's number; read as the game."""
REPLAY_EXPORT: Family[int] = Family(
    "replay_export", PREFIX + ":{game_id}:rx", {"game_id": NUMBER}, read=lambda found: int(found["game_id"])
)
"""The viewer's Download button: ``romme:<game>:rx``; read as the game."""
STEP_TEMPLATE = REPLAY_STEP.template
ROUND_TEMPLATE = REPLAY_ROUND.template
EXPORT_TEMPLATE = REPLAY_EXPORT.template
NAME_WIDTH = 32
MAX_ROUND_OPTIONS = 25


def replay_id(game_id: int, step: int, tag: str) -> str:
    """The id of a viewer button showing step ``step`` of game ``game_id``.

    >>> replay_id(4, 17, "n"), parse_replay_id("romme:4:rv:17:n")
    ('romme:4:rv:17:n', (4, 17, 'n'))
    """
    return REPLAY_STEP.build(game_id=game_id, step=step, tag=tag)


def parse_replay_id(custom_id: object) -> tuple[int, int, str] | None:
    """``(game, step, tag)`` of a viewer button's id; ``None`` for anything else."""
    return REPLAY_STEP.parse(custom_id)


def round_select_id(game_id: int) -> str:
    """The id of the viewer's round select."""
    return REPLAY_ROUND.build(game_id=game_id)


def export_id(game_id: int) -> str:
    """The id of the viewer's Download button."""
    return REPLAY_EXPORT.build(game_id=game_id)


def plain_cards(codes: Sequence[str]) -> str:
    """Cards as short text (never card faces: every hand of six seats must fit one embed).

    >>> plain_cards(["7H", "JK"])
    '7♥ 🃏'
    """
    if not codes:
        return t("cards.none")
    symbols = []
    for code in codes:
        symbol = Card.parse(code).symbol
        symbols.append(symbol + TEXT_PRESENTATION if symbol.endswith(DARK_SUITS) else symbol)
    return " ".join(symbols)


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:d>"


def history_message(
    games: Sequence[tuple[Game, datetime]], *, member: str | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """The server's last matches (a member's, when ``member`` names them), newest first: when each
    ended, its players by place with their totals, who went out in each round; a button per match
    opens its replay."""
    title = t("history.title.member", name=member) if member else t("history.title")
    if not games:
        return new_embed(title, t("history.empty")), discord.ui.View(timeout=None)
    lines = []
    view = discord.ui.View(timeout=None)
    for number, (game, ended) in enumerate(games, start=1):
        assert game.match is not None
        places = ", ".join(
            t(
                "history.place",
                place=row.place,
                name=seat_name(game, row.seat, limit=NAME_WIDTH),
                points=row.points,
            )
            for row in ranked(game)
        )
        outs = [
            seat_name(game, result.out, limit=NAME_WIDTH) if result.out is not None else t("history.nobody")
            for result in game.match.history
        ]
        state = t("history.stopped") if game.ended_early else t("history.finished")
        lines.append(
            t(
                "history.line",
                number=number,
                when=_when(ended),
                game_id=game.id,
                state=state,
                places=places,
                outs=", ".join(outs) or t("history.nobody"),
            )
        )
        view.add_item(
            discord.ui.Button(
                label=t("history.button", number=number),
                style=discord.ButtonStyle.secondary,
                custom_id=replay_id(game.id, 0, "o"),
            )
        )
    embed = new_embed(title)
    for value in line_fields(lines, max_fields=MAX_FIELDS - 1, more_key="history.more"):
        embed.add_field(name="\u200b", value=value, inline=False)
    return check_embed(embed), view


def _step_words(log: MatchLog, game: Game, index: int) -> str:
    step = log.step(index)
    name = seat_name(game, step.seat, limit=NAME_WIDTH)
    if step.kind == "deal":
        deal = step.deal
        card = plain_cards([str(deal.upcard)]) if deal is not None else "?"
        return t("replay.deal", name=name, card=card)
    words = last_move_text(game, list(step.events))
    if words:
        return words
    if step.kind == "take_back":
        return t("replay.take_back", name=name)
    return t("replay.move", name=name)


def _seat_lines(game: Game) -> list[str]:
    assert game.match is not None
    match = game.match
    rnd = match.round
    totals = match.totals
    lines = []
    for seat in range(len(game.seats)):
        name = seat_name(game, seat, limit=NAME_WIDTH)
        if seat not in match.round_seats:
            lines.append(t("replay.seat_out", name=name, total=totals[seat]))
            continue
        inner = match.round_seats.index(seat)
        turn = "▶ " if rnd.phase != Phase.OVER and rnd.to_play == inner else ""
        hand = sorted_codes([str(card) for card in rnd.hand(inner)], "suit")
        line = t(
            "replay.seat",
            marker=turn,
            name=name,
            total=totals[seat],
            count=len(hand),
            cards=plain_cards(hand),
        )
        pending = rnd.pending(inner)
        if pending:
            proposed = " | ".join(plain_cards([str(card) for card in meld.cards]) for meld in pending)
            line += "\n" + t("replay.proposed", cards=proposed)
        lines.append(clip(line, MAX_FIELD_VALUE))
    return lines


def replay_message(log: MatchLog, index: int) -> tuple[discord.Embed, discord.ui.View]:
    """Step ``index`` of a match's replay: the table as it was after it (whose turn, the piles, the
    melds), the step in words, and every seat's hand; the buttons ⏮ ◀ ▶ ⏭ and Next turn, the round
    select and Download."""
    last = log.size - 1
    index = min(max(index, 0), last)
    game = log.game_at(index)
    assert game.match is not None
    match = game.match
    rnd = match.round
    title_key = "replay.title.tiebreak" if match.tiebreak else "replay.title"
    embed = new_embed(
        t(title_key, game_id=game.id, round=match.round_no, rounds=match.rounds_planned),
        t("replay.step", step=index + 1, steps=last + 1) + "\n" + _step_words(log, game, index),
    )
    for value in line_fields(_seat_lines(game), max_fields=3):
        embed.add_field(name=t("replay.hands"), value=value, inline=False)
    top = rnd.discard_top
    piles = (
        t("table.stock", count=rnd.stock_count)
        + "\n"
        + (
            t("replay.discard", card=plain_cards([str(top)]), count=rnd.discard_count)
            if top is not None
            else t("table.discard_empty")
        )
    )
    embed.add_field(name=t("table.piles"), value=piles, inline=False)
    melds = [
        t(
            "replay.meld",
            meld_id=meld.id,
            owner=seat_name(game, match_seat(game, meld.owner), limit=NAME_WIDTH),
            cards=plain_cards([str(card) for card in meld.cards]),
        )
        for meld in rnd.table
    ] or [t("table.no_melds")]
    footer = t("replay.footer", game_id=game.id)
    for value in line_fields(melds, max_fields=MAX_FIELDS - len(embed.fields) - 1):
        if len(embed) + len(footer) + len(t("table.melds")) + len(value) > MAX_TOTAL:
            break
        embed.add_field(name=t("table.melds"), value=value, inline=False)
    embed.set_footer(text=footer)
    return check_embed(embed), _viewer(log, game.id, index)


def _viewer(log: MatchLog, game_id: int, index: int) -> discord.ui.View:
    last = log.size - 1
    view = discord.ui.View(timeout=None)
    buttons = (
        ("⏮", 0, "f", index == 0),
        ("◀", max(index - 1, 0), "p", index == 0),
        ("▶", min(index + 1, last), "n", index == last),
        ("⏭", last, "l", index == last),
    )
    for label, target, tag, disabled in buttons:
        view.add_item(_button(label, replay_id(game_id, target, tag), row=0, disabled=disabled))
    next_turn = replay_id(game_id, log.next_turn(index), "t")
    view.add_item(_button(t("replay.next_turn"), next_turn, row=0, disabled=index == last, primary=True))
    current = log.round_of(index)
    options = [
        discord.SelectOption(label=t("replay.round", round=n), value=str(n), default=n == current)
        for n in range(1, log.rounds + 1)
    ][:MAX_ROUND_OPTIONS]
    view.add_item(
        discord.ui.Select(
            custom_id=round_select_id(game_id),
            placeholder=t("replay.round_select"),
            options=options,
            row=1,
        )
    )
    view.add_item(_button(t("replay.download"), export_id(game_id), row=2))
    return view


def _button(
    label: str, custom_id: str, *, row: int, disabled: bool = False, primary: bool = False
) -> discord.ui.Button[discord.ui.View]:
    """One of the viewer's buttons: grey, or blue for the one that moves on a whole turn."""
    style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled, row=row)


__all__ = [
    "EXPORT_TEMPLATE",
    "ROUND_TEMPLATE",
    "STEP_TEMPLATE",
    "export_id",
    "history_message",
    "parse_replay_id",
    "plain_cards",
    "replay_id",
    "replay_message",
    "round_select_id",
]
