"""The slash commands as Discord receives them, pinned in tests/snapshots/commands.json.

Any change to a name, option, choice, range or description changes what every server sees, so it
must be deliberate. After such a change, update the snapshot and commit it with the change:

    UPDATE_SNAPSHOTS=1 python -m pytest tests/test_commands_snapshot.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import simcord

SNAPSHOT = Path(__file__).parent / "snapshots" / "commands.json"


def command_tree(env: simcord.Env) -> str:
    tree = env.bot.tree
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


async def test_the_command_tree_matches_the_snapshot(simcord_env: simcord.Env) -> None:
    current = command_tree(simcord_env)
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(current, encoding="utf-8")
    assert SNAPSHOT.is_file(), f"no snapshot yet: run with UPDATE_SNAPSHOTS=1 to write {SNAPSHOT}"
    assert current == SNAPSHOT.read_text(encoding="utf-8"), (
        "the slash commands changed; if that is intended, run "
        "UPDATE_SNAPSHOTS=1 python -m pytest tests/test_commands_snapshot.py and commit the snapshot"
    )


def test_every_description_fits_discord_limits() -> None:
    # Discord refuses a sync with a description over 100 characters or a name over 32.
    def walk(node: dict) -> list[dict]:
        return [node, *(child for option in node.get("options", []) for child in walk(option))]

    for command in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        for node in walk(command):
            assert 1 <= len(node["description"]) <= 100, node["name"]
            assert 1 <= len(node["name"]) <= 32 and node["name"] == node["name"].lower(), node["name"]
            for choice in node.get("choices", []):
                assert 1 <= len(choice["name"]) <= 100, choice
