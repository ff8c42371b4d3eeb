"""The public round-end and match-end messages (R20-R22, R6): Next round, Play again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.engine.cards import sort_by_suit
from bot.engine.moves import Phase
from bot.i18n import t
from bot.render.cards import cards_text
from bot.render.common import MAX_FIELD_VALUE, MAX_TOTAL, check_embed, new_embed, public_button, seat_name
from bot.render.faces.fit import clip_markup
from bot.render.ratings import add_rating_changes

if TYPE_CHECKING:
    from bot.engine.outcome import SeatOutcome
    from bot.engine.scoring import RoundResult
    from bot.service.game import Game

NAME_WIDTH = 40
MATCH_END_ROOM = 1500
"""Characters the round-end embed leaves for the match-end embed sent with it (Discord counts the
6,000 characters over all the embeds of one message)."""


def _hands_left(game: Game) -> dict[int, str]:
    """Each match seat's cards left in hand at the end of the round just played (what its hand points
    count, R20), as card text (faces when on); the seats whose hand is empty are left out. Empty when
    the finished round is not at hand (a game drawn after its next deal)."""
    match = game.match
    if match is None or len(match.history) != match.round_no or match.round.phase != Phase.OVER:
        return {}
    left = {}
    for round_seat, seat in enumerate(match.round_seats):
        hand = match.round.hand(round_seat)
        if hand:
            left[seat] = cards_text(sort_by_suit(hand))
    return left


def _add_hands(embed: discord.Embed, game: Game) -> None:
    """One field per seat with cards left, within the room the embed has (a long hand is cut between
    two cards, never inside a face)."""
    left = _hands_left(game)
    for seat, cards in left.items():
        name = t("round_end.hand_left", name=seat_name(game, seat, limit=NAME_WIDTH))
        room = MAX_TOTAL - MATCH_END_ROOM - len(embed) - len(name) - len(t("lobby.footer", game_id=game.id))
        if room < 20:
            break
        embed.add_field(name=name, value=clip_markup(cards, min(MAX_FIELD_VALUE, room)), inline=False)


def _round_title(game: Game, round_no: int) -> str:
    assert game.match is not None
    if round_no > game.match.rounds_planned:
        return t("round_end.title.tiebreak", round=round_no - game.match.rounds_planned)
    return t("round_end.title", round=round_no)


def _how_it_ended(game: Game, result: RoundResult) -> str:
    if result.out is None:
        return t("round_end.nobody_out")
    name = seat_name(game, result.out)
    return t("round_end.hand_romme" if result.hand_romme else "round_end.out", name=name)


def round_end_past(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    r"""A round-end message's embeds once the next round has begun: the scores stay, the line saying
    when the next round starts goes (it would read "31 seconds ago"). Copies; ``embeds`` unchanged.

    >>> shown = discord.Embed(title="Round 1 is over", description="ada went out.\nNext round soon.")
    >>> [e.description for e in round_end_past([shown])], shown.description.count("\n")
    (['ada went out.'], 1)
    """
    past = [embed.copy() for embed in embeds]
    if past and past[0].description:
        # The description is what ended the round, then (while the match went on) the next round.
        past[0].description = past[0].description.split("\n", 1)[0]
    return past


def round_end(game: Game) -> tuple[discord.Embed, discord.ui.View]:
    """The end of the current round: per seat melded points, hand points, round score and total,
    then the cards each seat was left holding (what its hand points count).

    Seats that sat out a tie-break round (R6) are listed with their total only. **Next round** is on
    while the match goes on; the next round also starts by itself at ``game.round_deadline``.
    """
    if game.match is None or not game.match.history:
        raise ValueError("no finished round to show")
    match = game.match
    result = match.history[-1]
    lines = [_how_it_ended(game, result)]
    more = not match.over and str(game.status) == "playing"
    if more:
        if game.round_deadline is not None:
            lines.append(t("round_end.next", when=f"<t:{int(game.round_deadline)}:R>"))
        else:
            lines.append(t("round_end.next_now"))
    embed = new_embed(_round_title(game, match.round_no), "\n".join(lines))
    totals = match.totals
    seat_lines = []
    for seat in range(len(game.seats)):
        name = seat_name(game, seat, limit=NAME_WIDTH)
        if seat not in match.round_seats:
            seat_lines.append(f"**{name}**: {t('seat.tag.sits_out')} · {t('scores.total')} {totals[seat]}")
            continue
        seat_lines.append(
            t(
                "round_end.seat_line",
                name=name,
                melded=result.melded[seat],
                in_hand=result.in_hand[seat],
                score=result.scores[seat],
                total=totals[seat],
            )
        )
    embed.add_field(name=t("round_end.scores"), value="\n".join(seat_lines), inline=False)
    _add_hands(embed, game)
    embed.set_footer(text=t("lobby.footer", game_id=game.id))
    view = discord.ui.View(timeout=None)
    view.add_item(
        public_button(game.id, "next", "button.next_round", discord.ButtonStyle.primary, disabled=not more)
    )
    return check_embed(embed), view


def ranked(game: Game) -> list[SeatOutcome]:
    """The seats of ``game``'s match by place, best first: its outcome's
    (:meth:`~bot.service.game.Game.outcome`, the one rule of places: R6's tie-break, leavers
    below those who stayed); empty before the match.

    >>> from bot.service.game import Game
    >>> ranked(Game(id=1, guild_id=1, channel_id=1, host_id=7))
    []
    """
    result = game.outcome()
    return [] if result is None else list(result.ranked)


def standing_lines(game: Game) -> list[str]:
    """A line per seat by place (:func:`ranked`): place, name, total, and "left" for a leaver."""
    lines = []
    for row in ranked(game):
        line = t(
            "match_end.standing_line",
            place=row.place,
            name=seat_name(game, row.seat, limit=NAME_WIDTH),
            points=row.points,
            count=row.points,  # the plural follows the points, not the place
        )
        lines.append(f"{line} · {t('seat.tag.left')}" if row.left else line)
    return lines


def early_rating_line(game: Game) -> str | None:
    """Whether and how a match that ended early was rated (``game.early_rating``): on the standings
    after its rounds so far, the member who stopped it ranked last, or not at all; ``None`` for a
    match played to its end (its ratings field says the rest) or one ended before the rule.

    >>> from bot.service.game import Game
    >>> early_rating_line(Game(id=1, guild_id=1, channel_id=1, host_id=7)) is None
    True
    """
    match = game.match
    if match is None or game.early_rating is None:
        return None
    rounds = len(match.history)
    if game.early_rating == "unrated":
        return t("match_end.unrated.no_round")
    if game.early_rating == "standings":
        return t("match_end.rated.standings", count=rounds)
    stopper = game.seat_of(game.stopped_by) if game.stopped_by is not None else None
    name = seat_name(game, stopper, limit=NAME_WIDTH)
    if rounds == 0:
        return t("match_end.rated.leaver_no_round", name=name)
    return t("match_end.rated.leaver", count=rounds, name=name)


def match_end(game: Game) -> tuple[discord.Embed, discord.ui.View]:
    """The end of the match: the winner, the final standings, tie-break rounds played (R6); **Play
    again**. A game stopped early shows the standings so far and no winner, and whether and how it
    was rated (:func:`early_rating_line`)."""
    if game.match is None:
        raise ValueError("no match to show")
    match = game.match
    result = game.outcome()
    winners = [result.seats[seat] for seat in result.winners] if result is not None and result.over else []
    if winners:
        names = " & ".join(seat_name(game, row.seat) for row in winners)
        head = t("match_end.winner", name=names, points=winners[0].points)
    elif game.closed_by == "idle":
        head = t("match_end.idle")
    elif game.stopped_by is not None or str(game.status) == "cancelled":
        head = t("match_end.cancelled")
    else:
        head = t("match_end.no_winner")
    lines = [head]
    tiebreaks = len(match.history) - match.rounds_planned
    if tiebreaks > 0:
        lines.append(t("match_end.tiebreaks", count=tiebreaks))
    rated = early_rating_line(game)
    if rated is not None:
        lines.append(rated)
    embed = new_embed(t("match_end.title"), "\n".join(lines))
    embed.add_field(name=t("match_end.standings"), value="\n".join(standing_lines(game)), inline=False)
    add_rating_changes(embed, game, [row.seat for row in ranked(game)])
    embed.set_footer(text=t("lobby.footer", game_id=game.id))
    view = discord.ui.View(timeout=None)
    view.add_item(public_button(game.id, "again", "button.play_again", discord.ButtonStyle.success))
    return check_embed(embed), view
