"""Discord's answer to the service's visibility rule (:mod:`bot.service.visibility`): may the member
of this interaction view that channel now?

The member comes with the interaction (their roles; the bot asks for no members intent, so it holds
no list of members to look them up in), the channels and their overwrites from the client's cache,
kept current by the gateway. What the cache cannot say is asked of Discord:

- a thread that is archived has left discord.py's cache: it is fetched (``GET /channels/{id}``);
- a private thread's members: Discord tells a bot without the members intent nothing of other
  people joining or leaving a thread, so membership is asked each time
  (``GET /channels/{thread}/thread-members/{user}``), unless the member may manage threads.

An answer Discord does not give (the channel deleted, the bot shut out of it, a failed request) is
a no: the rule fails closed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

__all__ = ["MemberViewer", "viewer_of"]


class MemberViewer:
    """The member of one interaction as a :class:`~bot.service.visibility.Viewer`."""

    def __init__(self, guild: discord.Guild | None, member: discord.abc.User) -> None:
        self.guild = guild
        self.member = member if isinstance(member, discord.Member) else None

    @property
    def guild_id(self) -> int:
        """The server of the interaction; 0 outside one (a DM), where no channel is seen."""
        return 0 if self.guild is None or self.member is None else self.guild.id

    async def may_view_channel(self, channel_id: int) -> bool:
        """View Channel in the channel (a thread: in its parent), and for a private thread, being
        in it or Manage Threads (Discord's own rule for who sees a private thread)."""
        if self.guild is None or self.member is None:
            return False
        channel = self.guild.get_channel_or_thread(channel_id) or await self._fetch(channel_id)
        if channel is None:
            return False
        if not isinstance(channel, discord.Thread):
            return channel.permissions_for(self.member).view_channel
        parent = channel.parent
        if parent is None:
            return False
        allowed = parent.permissions_for(self.member)
        if not allowed.view_channel:
            return False
        if channel.type is not discord.ChannelType.private_thread or allowed.manage_threads:
            return True
        return await self._in_thread(channel)

    async def _fetch(self, channel_id: int) -> discord.abc.GuildChannel | discord.Thread | None:
        assert self.guild is not None
        try:
            return await self.guild.fetch_channel(channel_id)
        except (discord.HTTPException, discord.InvalidData) as exc:
            log.debug("channel %s of guild %s not read: %s", channel_id, self.guild.id, exc)
            return None

    async def _in_thread(self, thread: discord.Thread) -> bool:
        assert self.member is not None
        try:
            await thread.fetch_member(self.member.id)
        except discord.NotFound:
            return False
        except discord.HTTPException as exc:
            log.warning("members of thread %s not read: %s", thread.id, exc)
            return False
        return True


def viewer_of(interaction: discord.Interaction[Any]) -> MemberViewer:
    """The member who sent ``interaction``, as the visibility rule asks about them."""
    return MemberViewer(interaction.guild, interaction.user)
