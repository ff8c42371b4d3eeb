"""The ``/romme`` commands. PLACEHOLDER: the signatures are final, the bodies are not.

The gameplay work (issue 4) replaces each body with a call into the table service and keeps the
names, options, choices and ranges, which ``tests/snapshots/commands.json`` pins: a change there is
a change to what every server sees, so it must be deliberate.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from bot.client import RommeBot

log = logging.getLogger(__name__)

NOT_READY = "Rommé games are not available yet on this bot. Check back after the next update!"

JOKER_CHOICES = [app_commands.Choice(name=f"{n} jokers", value=n) for n in (2, 4, 6)]
SCORING_CHOICES = [
    app_commands.Choice(name="Melds minus hand (standard)", value="melds"),
    app_commands.Choice(name="Penalty: only the hand counts, against you", value="penalty"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name="This channel's game, round by round", value="channel"),
    app_commands.Choice(name="The server leaderboard", value="server"),
]


@app_commands.guild_only()
class Romme(
    commands.GroupCog, group_name="romme", group_description="Play Rommé (German Rummy) in this channel"
):
    """Slash commands of a Rommé table; every move after ``start`` is made with buttons."""

    def __init__(self, bot: RommeBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the persistent components (``self.bot.add_dynamic_items(...)``) and bring back
        the unfinished games from ``self.bot.storage``: the gameplay work fills this in."""

    @app_commands.command(name="start", description="Open a table in this channel and wait for players")
    @app_commands.describe(
        jokers="Jokers in the deck (default 4)",
        opening="Points your first melds must reach together (default 40)",
        scoring="How a round is scored (default: melds minus hand)",
        hand_romme="Going out in one turn from a closed hand doubles the others' hand points (default off)",
        discard_to_go_out="The last card must be discarded to go out (default off)",
        rounds="Rounds in the match (default: one per seat, so everyone deals once)",
        computers="Computer players to seat at once (default 0)",
        turn_timeout="Seconds for a person's turn before the computer plays it (default: the bot's setting)",
    )
    @app_commands.choices(jokers=JOKER_CHOICES, scoring=SCORING_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[RommeBot],
        jokers: int | None = None,
        opening: app_commands.Range[int, 0, 120] | None = None,
        scoring: str | None = None,
        hand_romme: bool | None = None,
        discard_to_go_out: bool | None = None,
        rounds: app_commands.Range[int, 1, 12] | None = None,
        computers: app_commands.Range[int, 0, 5] | None = None,
        turn_timeout: app_commands.Range[int, 30, 600] | None = None,
    ) -> None:
        """Post the lobby of a new game with these house rules."""
        await _not_ready(interaction)

    @app_commands.command(name="join", description="Take a seat at the table in this channel")
    async def join(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Sit down in the lobby (same as the Join button)."""
        await _not_ready(interaction)

    @app_commands.command(
        name="leave", description="Leave the table; in a running game a computer takes your seat"
    )
    async def leave(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Stand up (same as the Leave button)."""
        await _not_ready(interaction)

    @app_commands.command(name="hand", description="Show your hand, privately, with the buttons to play it")
    async def hand(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Open the private hand panel (same as the My hand button)."""
        await _not_ready(interaction)

    @app_commands.command(
        name="score", description="Standings of this channel's game, the server, or one player"
    )
    @app_commands.describe(
        scope="What to show (default: this channel's game)",
        user="Show this member's record on the server instead",
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def score(
        self,
        interaction: discord.Interaction[RommeBot],
        scope: str | None = None,
        user: discord.Member | None = None,
    ) -> None:
        """The standings round by round, the server leaderboard, or one player's record."""
        await _not_ready(interaction)

    @app_commands.command(name="rules", description="The rules in short, and this table's house rules")
    async def rules(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Explain the game to the one who asks."""
        await _not_ready(interaction)

    @app_commands.command(name="stop", description="End the game in this channel (host or Manage Server)")
    async def stop(self, interaction: discord.Interaction[RommeBot]) -> None:
        """Ask for confirmation, then end the game and keep the results so far."""
        await _not_ready(interaction)


async def _not_ready(interaction: discord.Interaction[RommeBot]) -> None:
    await interaction.response.send_message(NOT_READY, ephemeral=True)


async def setup(bot: RommeBot) -> None:
    """Add the cog (the discord.py extension entry point)."""
    await bot.add_cog(Romme(bot))
