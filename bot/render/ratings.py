"""What players see of the ratings: the change at a match's end, a season's leaderboard with its
page buttons, a profile with a small chart of the rating (a PNG drawn here with Pillow, one per call).

The chart carries no words (only the numbers of its scale), so one drawing serves every language;
its title is in the embed, in the reader's language.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.render.common import check_embed, clip, line_fields, new_embed, plain, seat_name
from bot.render.ids import Family

if TYPE_CHECKING:
    from bot.service.game import Game
    from bot.service.ratings import Board, Profile, Shift

BOARD_PREFIX = "rommelb"
"""The custom id prefix of a leaderboard's page buttons (not ``romme:``: they hold no game)."""
BOARD_PAGE: Family[tuple[int, int, int]] = Family(
    "board_page",
    BOARD_PREFIX + ":{guild}:{season}:{page}",
    {"guild": "[0-9]{1,20}", "season": "[0-9]{1,6}", "page": "[0-9]{1,6}"},
    read=lambda found: (int(found["guild"]), int(found["season"]), int(found["page"])),
)
"""``rommelb:<server>:<season>:<page>``: the page a button shows; read as ``(server, season, page)``."""
BOARD_TEMPLATE = BOARD_PAGE.template
CHART_NAME = "rating.png"
CHART_SIZE = (480, 180)
"""The chart's pixels: small enough for a phone, a few kilobytes."""
MAX_ATTACHMENT = 10 * 1024 * 1024
"""Discord's smallest upload limit (a server without boosts): the chart stays far below it."""


def grouped(number: int, separator: str | None = None) -> str:
    """``number`` with the thousands grouped as the language writes them (or by ``separator``).

    >>> grouped(1412), grouped(-23), grouped(987), grouped(12345, "")
    ('1,412', '-23', '987', '12345')
    """
    sign = "-" if number < 0 else ""
    digits = str(abs(number))
    groups: list[str] = []
    while digits:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    return sign + (t("number.group") if separator is None else separator).join(groups)


def rating_number(rating: int) -> str:
    """A rating as the language writes one: German without a thousands separator ("Elo 1412"), as
    chess players write it; a count of players or matches keeps :func:`grouped`'s.

    >>> from bot.i18n import speaking
    >>> rating_number(1412)
    '1,412'
    >>> with speaking("de"):
    ...     rating_number(1412), grouped(1412)
    ('1412', '1.412')
    """
    return grouped(rating, t("number.group.rating"))


def rating_change(shift: Shift) -> str:
    """A person's change at a match's end: ``+23 → 1,412``.

    >>> from bot.service.ratings import Shift
    >>> rating_change(Shift(7, 1389, 1412, provisional=False)), rating_change(Shift(7, 1000, 990, False))
    ('+23 → 1,412', '−10 → 990')
    """
    delta = shift.delta
    sign = "+" if delta >= 0 else "−"
    return t("rating.change", delta=f"{sign}{rating_number(abs(delta))}", rating=rating_number(shift.after))


def add_rating_changes(embed: discord.Embed, game: Game, order: Sequence[int]) -> None:
    """The rating change of each rated person, seats in ``order`` (the standings'), as a field of the
    match-end embed; nothing when the match was not rated."""
    shifts = game.rating_shifts
    lines = []
    for seat in order:
        user_id = game.seats[seat].user_id
        shift = shifts.get(user_id) if user_id is not None else None
        if shift is None:
            continue
        key = "rating.line.provisional" if shift.provisional else "rating.line"
        name = seat_name(game, seat, limit=40)
        lines.append(t(key, name=name, change=rating_change(shift), provisional=t("rating.provisional")))
    if lines:
        embed.add_field(name=t("match_end.ratings"), value="\n".join(lines), inline=False)


def board_id(guild_id: int, season: int, page: int) -> str:
    """A page button's custom id.

    >>> board_id(5, 2, 1)
    'rommelb:5:2:1'
    """
    return BOARD_PAGE.build(guild=guild_id, season=season, page=page)


def parse_board_id(custom_id: str) -> tuple[int, int, int] | None:
    """``(server, season, page)`` of a page button's id; ``None`` for any other id.

    >>> parse_board_id("rommelb:5:2:1"), parse_board_id("rommelb:x")
    ((5, 2, 1), None)
    """
    return BOARD_PAGE.parse(custom_id)


def _who(user_id: int, names: Mapping[int, str]) -> str:
    name = names.get(user_id)
    return f"**{plain(clip(name, 60))}**" if name else f"<@{user_id}>"


def season_board(board: Board, names: Mapping[int, str]) -> tuple[discord.Embed, discord.ui.View]:
    """A page of a season's leaderboard (rank, name, shown rating, matches, wins), the caller's own
    line below when it is on another page, and **Previous** / **Next**."""
    from bot.render.scores import count_of  # here: scores -> results -> this module

    season = board.season
    key = "board.title.past" if board.past else "board.title"
    embed = new_embed(t(key, season=season.number))
    start = f"<t:{int(season.started_at.timestamp())}:D>"
    head = t("board.since", start=start)
    lines = []
    own = [board.own] if board.own is not None else []
    for index, line in enumerate([*board.lines, *own]):
        if index == len(board.lines):
            lines.append("…")
        lines.append(
            t(
                "board.line.provisional" if line.provisional else "board.line",
                rank=grouped(line.rank),
                player=_who(line.user_id, names),
                rating=rating_number(line.rating),
                provisional=t("rating.provisional"),
                matches=count_of("count.matches", line.matches),
                wins=count_of("count.wins", line.wins),
            )
        )
    embed.description = head if lines else f"{head}\n\n{t('board.empty')}"
    for value in line_fields(lines, max_fields=3):
        embed.add_field(name="\u200b", value=value, inline=False)
    embed.set_footer(text=t("board.page", page=board.page + 1, pages=board.pages, size=grouped(board.size)))
    view = discord.ui.View(timeout=None)
    for label, page, disabled in (
        ("button.board.previous", board.page - 1, board.page == 0),
        ("button.board.next", board.page + 1, board.page + 1 >= board.pages),
    ):
        view.add_item(
            discord.ui.Button(
                label=t(label),
                style=discord.ButtonStyle.secondary,
                custom_id=board_id(season.guild_id, season.number, max(0, page)),
                disabled=disabled,
            )
        )
    view.stop()
    return check_embed(embed), view


def _percent(part: int, whole: int) -> str:
    """A share in the language's way: "42%" (English, Indonesian, PUEBI), "42 %" (German)."""
    return t("profile.nothing") if whole == 0 else t("number.percent", percent=round(100 * part / whole))


def profile(data: Profile, name: str) -> tuple[discord.Embed, discord.File | None]:
    """A person's profile: the season's rating and place, the statistics of their rated matches on
    the server, and the chart of the rating over their last matches (``None`` without a match)."""
    embed = new_embed(t("profile.title", name=plain(clip(name, 80))))
    counts = data.counts
    if counts.matches == 0:
        embed.description = t("profile.none", player=f"**{plain(clip(name, 80))}**")
        return check_embed(embed), None
    if data.standing is None:
        value = t("profile.rating.none")
    else:
        value = t(
            "profile.rating.provisional" if data.standing.provisional else "profile.rating.value",
            rating=rating_number(data.standing.rating),
            provisional=t("rating.provisional"),
            rank=grouped(data.standing.rank),
            size=grouped(data.size),
        )
    embed.add_field(name=t("profile.rating", season=data.season.number), value=value, inline=False)
    nothing = t("profile.nothing")
    levels = [t(f"level.{level}") for level in ("easy", "normal", "hard") if level in counts.beaten]
    place = nothing if counts.average_place is None else f"{counts.average_place:.1f}"
    if t("number.group") == ".":
        place = place.replace(".", ",")
    embed.add_field(
        name=t("profile.stats"),
        value=t(
            "profile.body",
            matches=grouped(counts.matches),
            wins=grouped(counts.wins),
            rate=_percent(counts.wins, counts.matches),
            place=place,
            out=_percent(counts.rounds_out, counts.rounds),
            best_round=nothing if counts.best_round is None else counts.best_round,
            best_match=nothing if counts.best_match is None else counts.best_match,
            hand=counts.hand_rommes,
            levels=", ".join(levels) or nothing,
        ),
        inline=False,
    )
    matches = len(data.history)
    embed.add_field(
        name=t("profile.chart.one" if matches == 1 else "profile.chart", count=matches),
        value="\u200b",
        inline=False,
    )
    png = chart(data.chart)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    return check_embed(embed), discord.File(io.BytesIO(png), filename=CHART_NAME)


def chart(points: Sequence[int]) -> bytes:
    """A PNG of the shown rating, one point per match (the first: before the first match shown), with
    the lowest and highest number at the left; no words.

    >>> png = chart([1000, 1040, 1025, 1100])
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", len(png) < 20_000
    (True, True)
    """
    # Imported here, as the card faces do: drawing a chart is rare, and the bot loads without Pillow
    # until it draws one.
    from PIL import Image, ImageDraw

    width, height = CHART_SIZE
    image = Image.new("RGB", CHART_SIZE, (47, 49, 54))
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 52, width - 12, 14, height - 16
    low, high = min(points, default=1000), max(points, default=1000)
    if high - low < 20:
        low, high = low - 10, high + 10
    for value, level in ((high, top), (low, bottom)):
        draw.line((left, level, right, level), fill=(79, 84, 92))
        draw.text((6, level - 6), str(value), fill=(185, 187, 190))

    def at(index: int, value: int) -> tuple[float, float]:
        x = left + (right - left) * (index / max(1, len(points) - 1))
        y = bottom - (bottom - top) * ((value - low) / (high - low))
        return x, y

    path = [at(index, value) for index, value in enumerate(points)]
    if len(path) > 1:
        draw.line(path, fill=(87, 242, 135), width=3)
    for x, y in path:
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(87, 242, 135))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
