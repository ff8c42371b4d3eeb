"""Fixtures for the language tests: strict lookups, and members and servers with their own locale.

SimCord sends every interaction with ``locale`` and ``guild_locale`` ``"en-US"``; ``locales`` sets
them from a map of user (or server) id to a Discord locale, as Discord would. It changes the
simulator's input, not the bot under test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.i18n import set_strict
from bot.playground.session import interaction_locales

# The gameplay fixtures (the seeded bot, a server with four people), reused as they are.
from tests.discord.conftest import room, simcord_bot  # noqa: F401


@pytest.fixture(autouse=True)
def strict_catalog() -> Iterator[None]:
    """A missing catalog key is a test failure, never a silent fallback."""
    set_strict(True)
    yield
    set_strict(None)


@pytest.fixture
def locales() -> Iterator[dict[int, str]]:
    """Fill it with ``{user_id: "de"}`` / ``{guild_id: "id"}``: the interactions of that member carry
    that ``locale``, those in that server that ``guild_locale``; anyone else stays ``en-US``
    (the playground's :func:`~bot.playground.session.interaction_locales`)."""
    chosen: dict[int, str] = {}
    with interaction_locales(chosen):
        yield chosen
