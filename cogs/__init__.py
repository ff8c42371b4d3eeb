"""The bot's discord.py extensions: each module here has an ``async def setup(bot)``.

Cogs stay thin: they turn slash commands and clicks into calls on the services in ``bot/`` and
render the answer. No rule and no SQL lives here.
"""
