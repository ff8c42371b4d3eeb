"""Helpers for the rendering tests: seats, and reading what Discord would receive."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.render.ids import CustomId, parse_custom_id
from bot.service.game import Game, Seat

GameFactory = Callable[..., Game]
"""The ``game_at`` fixture: ``game_at(round_, *, seats, round_no, round_seats, n_seats, finished)``."""


def make_seats(n: int, computers: Sequence[int] = ()) -> list[Seat]:
    """Seats 0..n-1: persons with user ids 100+seat, computers where asked."""
    names = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Finn"]
    return [
        Seat(None, f"Computer {seat}", computer=True) if seat in computers else Seat(100 + seat, names[seat])
        for seat in range(n)
    ]


def components(view: discord.ui.View) -> list[dict[str, Any]]:
    """Every component of ``view`` as Discord receives it, rows flattened."""
    return [item for row in view.to_components() for item in row["components"]]


def by_label(view: discord.ui.View) -> dict[str, dict[str, Any]]:
    """Buttons of ``view`` by label."""
    return {c["label"]: c for c in components(view) if c["type"] == 2}


def selects(view: discord.ui.View) -> list[dict[str, Any]]:
    """Selects of ``view``, in order."""
    return [c for c in components(view) if c["type"] == 3]


def our_id(custom_id: object) -> CustomId:
    """The parts of ``custom_id``, which the test expects to be one of the bot's own ids."""
    parsed = parse_custom_id(custom_id)
    assert parsed is not None, custom_id
    return parsed


def present(text: str | None) -> str:
    """``text`` (an embed's description, a field's name or value), which the test expects to be set."""
    assert text is not None
    return text


def visible(text: str) -> str:
    """``text`` without U+FE0E, the invisible mark that keeps ♠ ♣ drawn as text (bot.render.cards)."""
    return text.replace("\ufe0e", "")


def embed_text(embed: discord.Embed) -> str:
    """All visible text of an embed (``visible``: ♠ ♣ compare without their presentation mark)."""
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", ""), data.get("footer", {}).get("text", "")]
    for field in data.get("fields", []):
        parts += [field["name"], field["value"]]
    return visible("\n".join(parts))
