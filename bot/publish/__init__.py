"""The bot's public messages in a channel: the one table message per game, edited in place at a
bot-wide pace, and the round and match announcements.

It draws with :mod:`bot.render`, hears of the service's own changes as its listener, and talks to
Discord; it handles no interaction (that is the cogs').
"""

from bot.publish.edit_budget import EDITS_PER_SECOND, EditBudget
from bot.publish.publisher import EDIT_INTERVAL, TablePublisher, table_message

__all__ = ["EDITS_PER_SECOND", "EDIT_INTERVAL", "EditBudget", "TablePublisher", "table_message"]
