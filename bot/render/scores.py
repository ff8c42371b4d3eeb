"""Scores: a game's standings round by round, the server leaderboard, one player's record."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.render.common import check_embed, clip, code_name, line_fields, new_embed, plain
from bot.render.results import standing_lines

if TYPE_CHECKING:
    from bot.service.game import Game
    from bot.storage.records import PlayerStats

COLUMN = 10
"""Widest score column: a name is cut to it in the round-by-round table ("Computer 1" and "Komputer 1"
fit whole; each column is only as wide as its name and its scores need)."""
LEADERBOARD_ROWS = 20


def _table(game: Game) -> str:
    assert game.match is not None
    match = game.match
    names = [code_name(game, seat, COLUMN) for seat in range(len(game.seats))]
    planned = match.rounds_planned
    labels = [
        # The row's initial in the reader's language; tie-breaks counted from 1 (R6).
        t("scores.row.round", number=number)
        if number <= planned
        else t("scores.row.tiebreak", number=number - planned)
        for number in range(1, len(match.history) + 1)
    ]
    columns = [
        [str(result.scores[seat]) for result in match.history] + [str(match.totals[seat])]
        for seat in range(len(names))
    ]
    widths = [
        max(len(name), *(len(score) for score in column)) for name, column in zip(names, columns, strict=True)
    ]
    head = max(5, *(len(label) + 1 for label in labels))
    rows = [" " * head + "".join(f" {name:>{width}}" for name, width in zip(names, widths, strict=True))]
    for index, label in enumerate([*labels, "="]):
        rows.append(
            f"{label:<{head}}"
            + "".join(f" {column[index]:>{width}}" for column, width in zip(columns, widths, strict=True))
        )
    return "```\n" + "\n".join(rows) + "\n```"


def standings(game: Game) -> discord.Embed:
    """A game's standings: a table of round scores (``R1`` … and tie-breaks ``T4`` …, R6), then the
    totals with full names by place (the match's outcome, as the match-end message has them)."""
    embed = new_embed(t("scores.title", game_id=game.id))
    if game.match is None or not game.match.history:
        embed.description = t("scores.no_rounds")
    else:
        embed.description = _table(game)
    if game.match is not None:
        embed.add_field(name=t("scores.total"), value="\n".join(standing_lines(game)), inline=False)
    return check_embed(embed)


def _best(best: int | None) -> str:
    return t("record.no_best") if best is None else str(best)


def count_of(key: str, count: int) -> str:
    """``count`` with its noun, singular for one: ``count_of("count.matches", 1)`` is "1 match".

    >>> count_of("count.matches", 1), count_of("count.wins", 0)
    ('1 match', '0 wins')
    """
    return t(f"{key}.one", count=count) if count == 1 else t(key, count=count)


def leaderboard(rows: Sequence[PlayerStats], names: Mapping[int, str] | None = None) -> discord.Embed:
    """The server leaderboard: matches, wins, points, best round, in the order given (at most 20).

    ``names`` are the members' display names by user id (shown in bold); a member without one is
    shown as a mention (which a client without the member cached shows raw)."""
    names = names or {}
    embed = new_embed(t("leaderboard.title"))
    if not rows:
        embed.description = t("leaderboard.empty")
        return embed
    lines = [
        t(
            "leaderboard.line",
            place=place,
            player=f"**{plain(clip(names[row.user_id], 80))}**"
            if names.get(row.user_id)
            else f"<@{row.user_id}>",
            matches=count_of("count.matches", row.matches_played),
            wins=count_of("count.wins", row.matches_won),
            points=row.points,
            count=row.points,  # the plural follows the points, not the place
            best=_best(row.best_round),
        )
        for place, row in enumerate(rows[:LEADERBOARD_ROWS], start=1)
    ]
    for value in line_fields(lines, max_fields=5):
        embed.add_field(name="\u200b", value=value, inline=False)
    return check_embed(embed)


def player_record(
    row: PlayerStats | None, user_id: int | None = None, *, name: str | None = None
) -> discord.Embed:
    """One person's record on the server; ``row`` ``None`` (with ``user_id``) says none yet.

    ``name`` (the member's display name) is shown in bold when given: a mention inside an embed shows
    raw in clients that do not have the member cached.
    """
    embed = new_embed(t("record.title"))
    who = row.user_id if row is not None else user_id
    mention = "?" if who is None else f"<@{who}>"
    player = f"**{plain(clip(name, 80))}**" if name else mention
    if row is None:
        embed.description = t("record.none", player=player)
        return embed
    embed.description = t(
        "record.body",
        player=player,
        matches=row.matches_played,
        wins=row.matches_won,
        points=row.points,
        best=_best(row.best_round),
    )
    return check_embed(embed)
