"""Pieces every renderer shares: seat names, house-rule lines, Discord's embed limits.

Discord refuses an embed with more than 25 fields, a field value over 1024 characters, a field name
over 256, a description over 4096, a title over 256, or more than 6000 characters in all; long lists
are split into fields here and cut with "… and N more" before they reach a limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.engine.rules import RuleSet
from bot.i18n import LOCALES, seat_display_name, t
from bot.render.ids import public_id

if TYPE_CHECKING:
    from bot.service.game import Game, Seat

MAX_FIELDS = 25
MAX_FIELD_VALUE = 1024
MAX_FIELD_NAME = 256
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FOOTER = 2048
MAX_TOTAL = 6000
COLOUR = discord.Colour.dark_green()


def plain(text: str) -> str:
    """``text`` (what a member typed: a display name) shown as the words it is, never as the bot's
    markup: markdown (a masked link, bold, a heading…) is escaped, and so are mentions, so a name
    can neither link nor ping. Plain words come back unchanged.

    >>> plain("Anna"), plain("[Free Nitro](https://example.com)"), plain("<@&123456789012345678>")
    ('Anna', '\\\\[Free Nitro](https://example.com)', '<@\\u200b&123456789012345678>')
    """
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def display_name(seat: Seat) -> str:
    """A seat's name as the reader sees it: a person's name; a computer seat's in the language spoken."""
    return seat_display_name(seat.name, computer=seat.computer, user_id=seat.user_id)


def seat_name(game: Game, seat: int | None, *, limit: int | None = None) -> str:
    """The display name of match seat ``seat``, cut to ``limit`` characters and made :func:`plain`
    (``"?"`` for a seat the game does not have). Cut before escaping, so a cut never splits an escape."""
    if seat is None or not 0 <= seat < len(game.seats):
        return "?"
    name = display_name(game.seats[seat])
    return plain(name if limit is None else clip(name, limit))


def code_name(game: Game, seat: int, limit: int) -> str:
    """A seat's name inside a code block (where markdown and mentions do not render): only a
    backtick, which could close the block, is replaced; cut to ``limit``."""
    return clip(display_name(game.seats[seat]).replace("`", "'"), limit)


def game_footers(game_id: int) -> frozenset[str]:
    """The footers the bot draws on the public messages of game ``game_id`` (lobby, table, results,
    announcements), in any of the bot's languages: a message carrying one of them was drawn for that game.

    >>> sorted(game_footers(3))[:2]
    ['Game 3', 'Game 3 · click My hand to see your cards']
    """
    keys = ("lobby.footer", "table.footer")
    return frozenset(t(key, locale, game_id=game_id) for key in keys for locale in LOCALES)


def seat_call(game: Game, seat: int | None) -> str:
    """How an embed names a seat to play: its name in bold.

    Not a mention: inside an embed a mention shows raw ("<@1456…>") in clients that do not have the
    member cached. The ping goes in the table message's content (:func:`bot.render.table.table_content`).
    """
    if seat is None or not 0 <= seat < len(game.seats):
        return "?"
    return f"**{plain(display_name(game.seats[seat]))}**"


def count_cards(count: int) -> str:
    """``1 card``, ``13 cards``."""
    return t("seat.card") if count == 1 else t("seat.cards", count=count)


def seat_tags(game: Game, seat: int) -> list[str]:
    """Short notes about a seat: left, away; a computer seat's level (easy, normal, hard).

    A computer seat is not tagged a computer: its name ("Computer 1") says it already. One saved
    before levels (no level stored) plays normal and is not tagged.
    """
    person = game.seats[seat]
    if person.user_id is None and person.level is not None:
        return [t(f"seat.tag.level.{person.level}")]
    if person.has_left:
        return [t("seat.tag.left")]
    return [t("seat.tag.away")] if person.away and not person.computer else []


def match_seat(game: Game, round_seat: int) -> int:
    """The match seat of round seat ``round_seat`` (tie-break rounds seat only the leaders, R6)."""
    if game.match is None:
        return round_seat
    return game.match.round_seats[round_seat]


def house_rule_lines(
    rules: RuleSet, *, turn_timeout: float | None = None, computers: int | None = None, ids: bool = False
) -> list[str]:
    """One line per house rule of ``rules`` (the house rules of ``docs/rules.md``); with ``ids``
    (only ``/romme rules``, which lists the rule book's ids) each line ends with its rule's id.

    >>> house_rule_lines(RuleSet())[1], house_rule_lines(RuleSet(), ids=True)[1]
    ('Opening: 40 points', 'Opening: 40 points (R13)')
    """
    lines = [
        (t("rules.jokers", count=rules.jokers), "R1"),
        (t("rules.opening", points=rules.opening), "R13"),
        (t(f"rules.scoring.{rules.scoring}"), "R21" if rules.scoring == "penalty" else "R20"),
        (t("rules.hand_romme.on" if rules.hand_romme else "rules.hand_romme.off"), "R22"),
        (
            t("rules.discard_to_go_out.on" if rules.discard_to_go_out else "rules.discard_to_go_out.off"),
            "R17",
        ),
        (t("rules.rounds.fixed", count=rules.rounds) if rules.rounds else t("rules.rounds.per_seat"), "R4"),
    ]
    texts = [f"{text} ({rule})" if ids else text for text, rule in lines]
    if turn_timeout is not None:
        texts.append(t("rules.turn_timeout", seconds=round(turn_timeout)))
    if computers:
        texts.append(t("rules.computers", count=computers))
    return texts


def join_words(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return t("list.pair", first=t("list.separator").join(parts[:-1]), last=parts[-1])


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def line_fields(lines: Sequence[str], *, max_fields: int, more_key: str = "meld.more") -> list[str]:
    """``lines`` packed into at most ``max_fields`` field values of ≤ 1024 characters each.

    Lines that do not fit are dropped and the last value ends with "… and N more".

    >>> values = line_fields(["a" * 600, "b" * 600, "c" * 600], max_fields=2)
    >>> len(values), values[1].splitlines()[-1]
    (2, '… and 1 more meld')
    """
    values: list[list[str]] = []
    size = 0
    for index, line in enumerate(lines):
        line = clip(line, MAX_FIELD_VALUE)
        if values and size + 1 + len(line) <= MAX_FIELD_VALUE:
            values[-1].append(line)
            size += 1 + len(line)
            continue
        if len(values) == max_fields:
            return _with_more(values, len(lines) - index, more_key)
        values.append([line])
        size = len(line)
    return ["\n".join(value) for value in values]


def _with_more(values: list[list[str]], left: int, more_key: str) -> list[str]:
    last = values[-1]
    while True:
        more = t(more_key, count=left)
        if len("\n".join([*last, more])) <= MAX_FIELD_VALUE or len(last) == 1:
            break
        last.pop()
        left += 1
    last.append(more)
    return ["\n".join(value)[:MAX_FIELD_VALUE] for value in values]


def check_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` if it is within Discord's limits; ``ValueError`` naming the broken limit otherwise."""
    if len(embed.fields) > MAX_FIELDS:
        raise ValueError(f"{len(embed.fields)} fields")
    for field in embed.fields:
        if len(field.value or "") > MAX_FIELD_VALUE or len(field.name or "") > MAX_FIELD_NAME:
            raise ValueError(f"field {field.name!r} too long")
    if len(embed.title or "") > MAX_TITLE or len(embed.description or "") > MAX_DESCRIPTION:
        raise ValueError("title or description too long")
    if len(embed) > MAX_TOTAL:
        raise ValueError(f"{len(embed)} characters in all")
    return embed


def new_embed(title: str, description: str | None = None) -> discord.Embed:
    """An embed in the game's colour."""
    return discord.Embed(
        title=clip(title, MAX_TITLE),
        description=None if description is None else clip(description, MAX_DESCRIPTION),
        colour=COLOUR,
    )


def public_button(
    game_id: int, action: str, label: str, style: discord.ButtonStyle, *, disabled: bool = False
) -> discord.ui.Button[discord.ui.View]:
    """A button of a public message of the game: ``label`` is a catalog key, the id
    ``romme:<game>:<action>`` (:func:`~bot.render.ids.public_id`).

    >>> button = public_button(3, "next", "button.next_round", discord.ButtonStyle.primary)
    >>> button.custom_id, button.label, button.disabled
    ('romme:3:next', 'Next round', False)
    """
    return discord.ui.Button(
        label=t(label), style=style, custom_id=public_id(game_id, action), disabled=disabled
    )
