"""The slash commands as Discord receives them, pinned in tests/snapshots/commands.json, with their
German and Indonesian texts (``*_localizations``, from the bot's translator).

Any change to a name, option, choice, range, description or translation changes what every server
sees, so it must be deliberate. After such a change, update the snapshot and commit it with the change:

    UPDATE_SNAPSHOTS=1 python -m pytest tests/test_commands_snapshot.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import simcord

from tests.discord.play_helpers import romme_bot

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"
TRANSLATED = ("de", "id")
"""Discord locales the bot translates its commands into (English is the default text)."""


async def command_payload(env: simcord.Env) -> list[dict[str, Any]]:
    """The commands as ``tree.sync`` sends them: with the translator's localizations."""
    tree = romme_bot(env).tree
    translator = tree.translator
    assert translator is not None, "the bot syncs its commands without a translator"
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]


def as_text(payload: list[dict[str, Any]]) -> str:
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def walk(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, *(child for option in node.get("options", []) for child in walk(option))]


async def test_the_command_tree_matches_the_snapshot(simcord_env: simcord.Env) -> None:
    current = as_text(await command_payload(simcord_env))
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(current, encoding="utf-8")
    assert SNAPSHOT.is_file(), f"no snapshot yet: run with UPDATE_SNAPSHOTS=1 to write {SNAPSHOT}"
    assert current == SNAPSHOT.read_text(encoding="utf-8"), (
        "the slash commands changed; if that is intended, run "
        "UPDATE_SNAPSHOTS=1 python -m pytest tests/test_commands_snapshot.py and commit the snapshot"
    )


async def test_every_text_of_every_command_is_translated(simcord_env: simcord.Env) -> None:
    # What a German or Indonesian member reads in the command picker: every description, option name
    # and choice, in their language; the names of /romme and its subcommands stay as they are.
    nodes = [node for command in await command_payload(simcord_env) for node in walk(command)]
    # /romme, its 14 subcommands, the 11 options of start, 3 of score, 1 each of history, replay and
    # profile
    assert len(nodes) == 32
    for node in nodes:
        assert sorted(node["description_localizations"]) == list(TRANSLATED), node["name"]
        for locale in TRANSLATED:
            assert node["description_localizations"][locale] != node["description"], (node["name"], locale)
        is_option = "type" in node and node["type"] not in (1, 2)
        if is_option:
            assert sorted(node["name_localizations"]) == list(TRANSLATED), node["name"]
        else:
            assert not node.get("name_localizations"), node["name"]  # /romme start stays /romme start
        for choice in node.get("choices", []):
            if choice["value"] in ("en", "de", "id"):
                continue  # a language is named in itself everywhere
            assert sorted(choice["name_localizations"]) == list(TRANSLATED), choice


def test_every_description_fits_discord_limits() -> None:
    # Discord refuses a sync with a description over 100 characters or a name over 32, also a
    # translated one; an option's name must be lowercase (letters, digits, - and _).
    for command in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        for node in walk(command):
            descriptions = [node["description"], *node.get("description_localizations", {}).values()]
            names = [node["name"], *(node.get("name_localizations") or {}).values()]
            for description in descriptions:
                assert 1 <= len(description) <= 100, (node["name"], description)
            for name in names:
                assert 1 <= len(name) <= 32 and name == name.lower() and " " not in name, name
            for choice in node.get("choices", []):
                for name in [choice["name"], *(choice.get("name_localizations") or {}).values()]:
                    assert 1 <= len(name) <= 100, choice
