"""The public lobby message: host, seats, house rules; Join, Leave, Add computer, Start, Cancel."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.engine.round import MAX_SEATS, MIN_SEATS
from bot.i18n import language_name, t
from bot.render.common import (
    check_embed,
    clip,
    display_name,
    house_rule_lines,
    new_embed,
    plain,
    public_button,
    seat_tags,
)

if TYPE_CHECKING:
    from bot.service.game import Game


def lobby(game: Game) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby of ``game``; once it has begun or was cancelled, the same message with every button off.

    Join and Add computer are off when the six seats are taken (R3); Start is off below two seats.
    """
    status = str(game.status)
    open_ = status == "lobby"
    # A name, not a mention: clients show a mention in an embed raw unless they know the member.
    host = f"**{plain(game.host_name)}**" if game.host_name else f"<@{game.host_id}>"
    description = t("lobby.description", host=host)
    if status == "cancelled":
        description = t("lobby.expired" if game.closed_by == "lobby_timeout" else "lobby.cancelled")
    elif not open_:
        description = t("lobby.started")
    embed = new_embed(t("lobby.title"), description)
    lines = []
    for index, seat in enumerate(game.seats):
        tags = seat_tags(game, index)
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(clip(f"{index + 1}. {plain(display_name(seat))}{suffix}", 170))
    embed.add_field(
        name=t("lobby.seats", count=len(game.seats), max=MAX_SEATS),
        value="\n".join(lines) or t("lobby.no_seats"),
        inline=False,
    )
    embed.add_field(
        name=t("lobby.server_house_rules" if game.server_rules else "lobby.house_rules"),
        value="\n".join(
            [
                *house_rule_lines(game.rules, turn_timeout=game.turn_timeout),
                t("lobby.language", language=language_name(game.language)),
            ]
        ),
        inline=False,
    )
    embed.set_footer(text=t("lobby.footer", game_id=game.id))

    full = len(game.seats) >= MAX_SEATS
    view = discord.ui.View(timeout=None)
    buttons = [
        ("join", "button.join", discord.ButtonStyle.primary, full),
        ("leave", "button.leave", discord.ButtonStyle.secondary, False),
        ("add_computer", "button.add_computer", discord.ButtonStyle.secondary, full),
        ("start", "button.start", discord.ButtonStyle.success, len(game.seats) < MIN_SEATS),
        ("cancel", "button.cancel", discord.ButtonStyle.danger, False),
    ]
    for action, label, style, off in buttons:
        view.add_item(public_button(game.id, action, label, style, disabled=off or not open_))
    return check_embed(embed), view
