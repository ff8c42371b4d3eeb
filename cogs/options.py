"""A slash command's options checked against what the command declares, before it runs.

Discord checks an option's type, range and choices before it sends a command; a forged or malformed
request (or one built against an older version of a command) is refused here all the same, so no
command reads ``opening=-5``, ``rounds=10**30`` or ``jokers="²"``: the command is answered with a
short refusal and runs not at all (the check runs before discord.py reads the options: an id
option that is not a number is refused too).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.service.numbers import snowflake

_IDS = (
    AppCommandOptionType.user,
    AppCommandOptionType.channel,
    AppCommandOptionType.role,
    AppCommandOptionType.mentionable,
    AppCommandOptionType.attachment,
)
_NESTED = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)


class ForgedOption(ValueError):
    """An option the command does not declare, or a value it does not accept."""


def given_options(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The options of the command itself (below its group and subcommand) in a command's data.

    >>> rounds = {"name": "rounds", "value": 3}
    >>> given_options({"options": [{"type": 1, "name": "start", "options": [rounds]}]})
    [{'name': 'rounds', 'value': 3}]
    """
    options: Any = data.get("options") or []
    while isinstance(options, list) and options and isinstance(options[0], dict):
        if options[0].get("type") not in _NESTED:
            break
        options = options[0].get("options") or []
    return [option for option in options if isinstance(option, dict)] if isinstance(options, list) else []


def accepts(parameter: app_commands.Parameter, value: object) -> bool:
    """Whether ``parameter`` (as the command declares it) takes ``value`` (as Discord sends it).

    >>> from discord import app_commands
    >>> async def start(interaction, rounds: app_commands.Range[int, 1, 12]) -> None: ...
    >>> (rounds,) = app_commands.Command(name="start", description="-", callback=start).parameters
    >>> [accepts(rounds, value) for value in (3, 0, 13, "3", "²", True, 10**30)]
    [True, False, False, False, False, False, False]
    """
    kind = parameter.type
    if kind in _IDS:
        return isinstance(value, str) and snowflake(value) is not None
    if kind is AppCommandOptionType.boolean:
        return type(value) is bool
    if kind is AppCommandOptionType.integer:
        fits = type(value) is int
    elif kind is AppCommandOptionType.number:
        fits = type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]
    elif kind is AppCommandOptionType.string:
        fits = isinstance(value, str)
        if fits and parameter.min_value is not None:
            fits = len(value) >= parameter.min_value  # type: ignore[arg-type]
        if fits and parameter.max_value is not None:
            fits = len(value) <= parameter.max_value  # type: ignore[arg-type]
    else:
        return False
    if not fits:
        return False
    if kind is not AppCommandOptionType.string:
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and value < low) or (high is not None and value > high):  # type: ignore[operator]
            return False
    return not parameter.choices or value in [choice.value for choice in parameter.choices]


def check_options(command: object, data: Mapping[str, Any]) -> None:
    """Raise :class:`ForgedOption` unless every option in ``data`` is one ``command`` declares, given
    once, with a value it takes, and every required one is there."""
    parameters: Sequence[app_commands.Parameter] = getattr(command, "parameters", [])
    declared = {parameter.display_name: parameter for parameter in parameters}
    seen: set[str] = set()
    for option in given_options(data):
        name = option.get("name")
        parameter = declared.get(name) if isinstance(name, str) else None
        if parameter is None or parameter.display_name in seen or not accepts(parameter, option.get("value")):
            raise ForgedOption("an option the command does not take")
        seen.add(parameter.display_name)
    if any(parameter.required and parameter.display_name not in seen for parameter in parameters):
        raise ForgedOption("a required option is missing")


__all__ = ["ForgedOption", "accepts", "check_options", "given_options"]
