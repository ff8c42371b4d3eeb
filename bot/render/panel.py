"""The private hand panel: the seat's own hand, its proposed melds, a card select and the move buttons.

It is drawn ONLY from ``match.seat_view(seat)`` (the seat's own view, R19) and the seats' names, so it
can never show another hand. Its state (sort, selected cards, meld-choosing mode) rides in the custom
ids (:mod:`bot.render.ids`); only the moves that can be legal are enabled, as the engine answers them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.cards import Card, card_codes
from bot.engine.moves import DrawSource, Phase
from bot.engine.views import RoundView
from bot.i18n import t
from bot.render.cards import card_text, cards_text, hand_text, sorted_codes, take_cards
from bot.render.common import (
    check_embed,
    clip,
    count_cards,
    join_words,
    line_fields,
    match_seat,
    new_embed,
    seat_name,
)
from bot.render.faces.fit import card_label, card_option, cards_label
from bot.render.ids import MAX_SELECTED, Mode, PanelState, Sort, Target, card_option_values, panel_id
from bot.render.table import round_title
from bot.render.targets import joker_places, lay_off_targets, swap_targets

if TYPE_CHECKING:
    from bot.service.game import Game


TABLE_FIELDS = 4
"""Fields the panel's table may fill: 108 cards as emoji faces (about 30 characters each) fit in four."""


@dataclass(frozen=True, slots=True)
class PanelButtons:
    """Which panel buttons are on: worked out from the seat's view and its selection alone."""

    draw: bool = False
    take: bool = False
    meld: bool = False
    lay_off: bool = False
    swap_joker: bool = False
    discard: bool = False
    take_back: bool = False
    hint: bool = False
    sort: bool = False


def panel_buttons(view: RoundView, selected: list[str]) -> PanelButtons:
    """The buttons that can lead to a legal move, from ``view.actions`` and the selection.

    Meld needs three selected cards, Discard exactly one (not the card just taken from the discard
    pile while other cards remain, R12), Lay off and Swap joker a table meld they can go to (R14-R16),
    Take back a proposed meld (R13).
    """
    actions = view.actions
    hand = view.hand
    holding = view.hand_counts[view.seat] if view.seat is not None else 0
    # With "discard to go out" a meld or lay-off may not use the last card (R17).
    keeps_card = not view.rules.discard_to_go_out or len(selected) < len(hand)
    taken = view.taken_from_discard
    one = len(selected) == 1
    return PanelButtons(
        draw=DrawSource.STOCK in view.draw_sources,
        take=DrawSource.DISCARD in view.draw_sources,
        meld="meld" in actions and len(selected) >= 3 and keeps_card,
        lay_off="lay_off" in actions
        and bool(selected)
        and keeps_card
        and bool(lay_off_targets(view, selected)),
        swap_joker="swap_joker" in actions
        and (
            (len(selected) >= 3 and bool(swap_targets(view, selected)))
            # One card that can take a table joker's place: the panel then asks for the rest.
            or (one and bool(joker_places(view, selected[0])))
        ),
        discard="discard" in actions
        and one
        and not (taken is not None and selected[0] == str(taken) and holding > 1),
        take_back="take_back" in actions,
        hint=bool(hand) and view.phase != Phase.OVER,
        sort=bool(hand),
    )


def _status(game: Game, view: RoundView) -> str:
    if view.seat is None:
        return t("panel.sitting_out")
    if game.match is not None and (game.match.over or str(game.status) != "playing"):
        return t("panel.match_over")
    if view.phase == Phase.OVER:
        return t("panel.round_over")
    if view.to_play != view.seat:
        # The panel is redrawn when the seat's turn comes, not at every other seat's move: it names
        # nobody, so it never says a name that is out of date.
        return t("panel.turn.waiting")
    status = t("panel.turn.draw" if view.phase == Phase.DRAW else "panel.turn.play")
    if game.turn_deadline is not None:
        status += " " + t("panel.turn.deadline", when=f"<t:{int(game.turn_deadline)}:R>")
    return status


def _result_lines(game: Game, view: RoundView) -> list[str]:
    """At a round's end: how it ended and what this seat scored; at the match's end: the winner."""
    match = game.match
    if match is None or view.phase != Phase.OVER or not match.history or view.seat is None:
        return []
    result = match.history[-1]
    seat = match_seat(game, view.seat)
    if result.out is None:
        how = t("round_end.nobody_out")
    else:
        # The reader is the seat that went out: "You went out.", not "<name> went out."
        key = "round_end.hand_romme" if result.hand_romme else "round_end.out"
        how = t(key + ".you") if result.out == seat else t(key, name=seat_name(game, result.out))
    lines = [
        how,
        # "1 Punkt", "-44 Punkte": the score takes its plural form, which a key of two numbers cannot.
        t("panel.round_score", score=t("seat.points", points=result.scores[seat]), total=match.totals[seat]),
    ]
    decided = game.outcome() if match.over else None
    for row in [] if decided is None else [decided.seats[winner] for winner in decided.winners]:
        if row.seat == seat:
            lines.append(t("match_end.winner.you", points=row.points))
        else:
            lines.append(t("match_end.winner", name=seat_name(game, row.seat), points=row.points))
    return lines


def _table_lines(game: Game, view: RoundView) -> list[str]:
    """What the seat needs from the table for its turn: the discard top and the melds, in short."""
    top = view.discard_top
    lines = [
        t("table.discard_empty")
        if top is None
        else t("table.discard_top", card=card_text(top), cards=count_cards(view.discard_count))
    ]
    lines += [t("panel.meld_short", meld_id=meld.id, cards=cards_text(meld.cards)) for meld in view.table]
    return lines


def panel_embed(game: Game, view: RoundView, state: PanelState, *, drawn: str | None = None) -> discord.Embed:
    """The panel's embed for a seat's own ``view``: status, hand, the card just ``drawn``, selection
    and notes in the description; on turn the discard top and the table's melds, and the proposed
    opening melds (R13), in fields of their own; at a round's end what it scored."""
    hand = card_codes(view.hand)
    title = t("panel.title.one") if len(hand) == 1 else t("panel.title", count=len(hand))
    if view.seat is None:
        # A seat sitting out a tie-break (R6) has no hand and nothing to choose: the panel says so only.
        embed = new_embed(round_title(game), t("panel.sitting_out"))
        embed.set_footer(text=t("panel.footer", game_id=game.id))
        return check_embed(embed)
    lines = [_status(game, view), *_result_lines(game, view), ""]
    lines.append(hand_text(hand, state.sort) if hand else t("panel.empty_hand"))
    if drawn is not None and drawn in hand:
        lines.append(t("panel.drawn", card=card_text(drawn)))
    lines += _selection_lines(view, state)
    lines += _mode_lines(view, state)
    embed = new_embed(title, "\n".join(lines))
    if view.on_turn:
        # Every meld of the table, in as many fields as it takes (eight melds pass one field's 1024).
        values = line_fields(_table_lines(game, view), max_fields=TABLE_FIELDS)
        for number, value in enumerate(values):
            embed.add_field(
                name=t("panel.table" if number == 0 else "table.melds.more"), value=value, inline=False
            )
    if view.pending:
        embed.add_field(
            name=t(
                "panel.pending",
                points=view.pending_points,
                needed=view.opening_needed,
                count=view.opening_needed,
            ),
            value="\n".join(
                t("meld.pending_line", cards=cards_text(meld.cards), points=meld.points)
                for meld in view.pending
            ),
            inline=False,
        )
    embed.set_footer(text=t("panel.footer", game_id=game.id) + " · " + t(f"panel.sorted.{state.sort}"))
    return check_embed(embed)


def _selection_lines(view: RoundView, state: PanelState) -> list[str]:
    """While the round runs, the selected cards and the opening still needed (R13); the card taken
    from the discard pile this turn (R12)."""
    lines: list[str] = []
    if view.phase != Phase.OVER:
        lines.append(
            t("panel.selected", cards=cards_text(state.cards)) if state.cards else t("panel.nothing_selected")
        )
        lines.append("")
        lines.append(
            t("panel.opened")
            if view.opening_needed == 0
            else t("panel.opening_needed", points=view.opening_needed)
        )
    if view.taken_from_discard is not None:
        lines.append(t("panel.taken", card=card_text(view.taken_from_discard)))
    return lines


def _mode_lines(view: RoundView, state: PanelState) -> list[str]:
    """While Lay off or Swap joker asks for a meld: what to choose, or that no meld takes the selection.

    A swap of one selected card names the melds whose joker it frees (it needs no target select then).
    """
    if state.mode is None:
        return []
    places = (
        joker_places(view, state.cards[0]) if state.mode == "swap_joker" and len(state.cards) == 1 else []
    )
    lines: list[str] = []
    if state.mode == "lay_off":
        lines.append(t("panel.target.lay_off", cards=cards_text(state.cards)))
    elif places:
        melds = join_words([f"`{meld_id}`" for meld_id in places])
        lines.append(t("panel.swap.one", card=card_text(state.cards[0]), melds=melds))
    elif len(state.cards) != 1:
        lines.append(t("panel.target.swap_joker"))
    if not places and not _targets(view, state):
        lines.append(t("select.target.none"))
    return lines


def _targets(view: RoundView, state: PanelState) -> list[Target]:
    """The melds the selection can go to in the panel's mode (none outside Lay off / Swap joker)."""
    if state.mode is None:
        return []
    return (lay_off_targets if state.mode == "lay_off" else swap_targets)(view, list(state.cards))


def _card_select(
    game: Game, hand: list[str], state: PanelState, version: int
) -> discord.ui.Select[Any] | None:
    ordered = sorted_codes(hand, state.sort)[:MAX_SELECTED]
    if not ordered:
        return None
    values = card_option_values(ordered)
    wanted = list(state.cards)
    options = []
    for code, value in zip(ordered, values, strict=True):
        chosen = code in wanted
        if chosen:
            wanted.remove(code)
        options.append(card_option(code, value, default=chosen))
    placeholder = (
        t("select.cards") if len(hand) <= MAX_SELECTED else t("select.cards.more", count=MAX_SELECTED)
    )
    return discord.ui.Select(
        custom_id=panel_id(game.id, "select", version, PanelState(state.sort)),
        placeholder=placeholder,
        min_values=0,
        max_values=len(options),
        options=options,
        row=0,
    )


def _discard_select(
    game: Game, view: RoundView, state: PanelState, version: int
) -> discord.ui.Select[Any] | None:
    """One card to choose, and choosing it discards it: the end of a turn in one click (R11). The
    card just taken from the discard pile is not offered while other cards remain (R12)."""
    if "discard" not in view.actions:
        return None
    hand = sorted_codes(card_codes(view.hand), state.sort)
    taken = None if view.taken_from_discard is None else str(view.taken_from_discard)
    if taken is not None and taken in hand and len(hand) > 1:
        hand.remove(taken)
    ordered = hand[:MAX_SELECTED]
    if not ordered:
        return None
    options = [
        card_option(code, value) for code, value in zip(ordered, card_option_values(ordered), strict=True)
    ]
    return discord.ui.Select(
        custom_id=panel_id(game.id, "drop", version, PanelState(state.sort)),
        placeholder=t("select.discard"),
        min_values=1,
        max_values=1,
        options=options,
        row=4,
    )


def _target_select(
    game: Game, view: RoundView, state: PanelState, version: int
) -> discord.ui.Select[Any] | None:
    targets = _targets(view, state)
    if not targets:
        return None
    owners = {meld.id: seat_name(game, match_seat(game, meld.owner)) for meld in view.table}
    melds = {meld.id: meld for meld in view.table}
    options = []
    for target in targets[:25]:
        owner = clip(owners.get(target.meld_id, "?"), 32)
        if target.card is not None:
            card = card_label(target.card)
            label = t("select.option.swap_joker", meld_id=target.meld_id, owner=owner, card=card)
        elif target.end is not None:
            label = t(f"select.option.meld_end.{target.end}", meld_id=target.meld_id, owner=owner)
        else:
            cards = cards_label(melds[target.meld_id].cards)
            label = t("select.option.meld", meld_id=target.meld_id, owner=owner, cards=cards)
        options.append(discord.SelectOption(label=clip(label, 100), value=target.value()))
    return discord.ui.Select(
        custom_id=panel_id(game.id, "target", version, state),
        placeholder=t(f"select.target.{state.mode}"),
        min_values=1,
        max_values=1,
        options=options,
        row=3,
    )


def panel_view(
    game: Game, view: RoundView, state: PanelState, *, version: int | None = None
) -> discord.ui.View:
    """The panel's components: card select, two rows of buttons, and the target select when asked.

    Every id carries ``version``: the seat's own (``Game.seat_version``), so it moves only when what
    the seat sees moves (the game's ``version`` when not given)."""
    version = game.version if version is None else version
    selected = list(state.cards)
    on = panel_buttons(view, selected)
    plain = PanelState(state.sort, None, state.cards)
    flipped = plain.with_sort("rank" if state.sort == "suit" else "suit")
    items = discord.ui.View(timeout=None)
    # Once the round is over there is nothing to select for: the panel shows the result only.
    select = _card_select(game, card_codes(view.hand), state, version) if view.phase != Phase.OVER else None
    if select is not None:
        items.add_item(select)
    buttons: list[tuple[str, str, discord.ButtonStyle, bool, int, PanelState]] = [
        ("p_draw", "button.draw", discord.ButtonStyle.primary, on.draw, 1, plain),
        ("p_take", "button.take", discord.ButtonStyle.primary, on.take, 1, plain),
        ("meld", "button.meld", discord.ButtonStyle.success, on.meld, 1, plain),
        ("discard", "button.discard", discord.ButtonStyle.danger, on.discard, 1, plain),
        # The Sort button carries the order it switches to.
        ("sort", "button.sort", discord.ButtonStyle.secondary, on.sort, 1, flipped),
        ("layoff", "button.lay_off", discord.ButtonStyle.success, on.lay_off, 2, plain),
        ("swap", "button.swap_joker", discord.ButtonStyle.success, on.swap_joker, 2, plain),
        ("takeback", "button.take_back", discord.ButtonStyle.secondary, on.take_back, 2, plain),
        ("hint", "button.hint", discord.ButtonStyle.secondary, on.hint, 2, plain),
    ]
    for action, label, style, enabled, row, button_state in buttons:
        items.add_item(
            discord.ui.Button(
                label=t(label),
                style=style,
                custom_id=panel_id(game.id, action, version, button_state),
                disabled=not enabled,
                row=row,
            )
        )
    target = _target_select(game, view, state, version)
    if target is not None:
        items.add_item(target)
    drop = _discard_select(game, view, state, version)
    if drop is not None:
        items.add_item(drop)
    return items


def hand_panel(
    game: Game,
    seat: int,
    *,
    sort: Sort = "suit",
    selected: Iterable[Card | str] = (),
    target: Mode | None = None,
    drawn: str | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """The hand panel of match seat ``seat``: the embed and its components.

    ``selected`` cards not in the hand are dropped (the same code twice selects both copies);
    ``target`` ``"lay_off"`` or ``"swap_joker"`` adds the select of target melds; ``drawn`` is the
    card the seat just drew from the stock (marked, while it is in the hand).
    """
    if game.match is None:
        raise ValueError("no hand before the match begins")
    seen = game.match.seat_view(seat)
    view = seen.round
    codes = [str(card) for card in selected]
    state = PanelState(sort, target, tuple(take_cards(card_codes(view.hand), codes)[:MAX_SELECTED]))
    version = game.seat_version(seat, seen)
    embed = panel_embed(game, view, state, drawn=drawn)
    return embed, panel_view(game, view, state, version=version)
