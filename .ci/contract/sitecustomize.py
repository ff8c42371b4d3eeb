"""Loaded by every Python the CI run starts (this folder is on PYTHONPATH in ``.ci/run``).

Bots that the tests start in child processes send their REST requests through SimCord too; the
Discord contract plugin checks them only when ``discord_contract_child`` is imported at their
interpreter's start. Without ``DISCORD_CONTRACT_SPOOL`` (set by the plugin for its run) that
module does nothing.
"""

import discord_contract_child  # noqa: F401
