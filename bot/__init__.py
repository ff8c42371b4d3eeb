"""A Discord bot that hosts Rommé (German Rummy) in server channels.

``from bot import create_bot`` builds the bot (see :func:`bot.client.create_bot`). The name is
loaded on first use, so ``import bot.engine`` (the rules, usable on their own) never imports
discord.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.client import RommeBot, create_bot

__all__ = ["RommeBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from bot import client

        return getattr(client, name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
