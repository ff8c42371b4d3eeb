"""The README's promises that code can check: two set-up commands, CI runs the second, the invite,
and the command that runs the bot with a token."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import discord

import bot

ROOT = Path(bot.__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def quick_start() -> str:
    match = re.search(r"^## Quick start\n(.*?)^## ", README, flags=re.S | re.M)
    assert match, "README.md has no Quick start section"
    return match.group(1)


def test_quick_start_has_exactly_two_commands_run_then_test() -> None:
    blocks = re.findall(r"<!-- quick-start:(\w+) -->\n```sh\n(.*?)\n```", quick_start(), flags=re.S)
    assert [name for name, _ in blocks] == ["run", "test"]
    assert len(re.findall(r"^```", quick_start(), flags=re.M)) == 4  # no other code block
    run, test = (command for _, command in blocks)
    assert "\n" not in run and "\n" not in test
    # The first command needs no token: it starts the playground (issue 6).
    assert run.endswith("romme-bot playground") and "pip install '.[playground]'" in run
    assert "pip install -e '.[test]'" in test and test.endswith("python -m pytest -q")


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    # .ci/run extracts the command with awk; run only that extraction and compare.
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extraction = re.search(r"test_command=\$\(awk '(.*?)' README.md\)", script, flags=re.S)
    assert extraction, ".ci/run no longer reads the test command from README.md"
    assert 'eval "$test_command"' in script
    extracted = subprocess.run(
        ["awk", extraction.group(1), "README.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    (expected,) = re.findall(r"<!-- quick-start:test -->\n```sh\n(.*?)\n```", README)
    assert extracted == expected


def test_the_invite_asks_for_exactly_the_documented_permissions() -> None:
    permissions = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, read_message_history=True
    )
    assert f"**{permissions.value}**" in README
    assert f"scope=bot+applications.commands&permissions={permissions.value}" in README


def test_running_with_a_token_follows_the_quick_start() -> None:
    match = re.search(r"^## Run the bot on your server\n(.*?)^## ", README, flags=re.S | re.M)
    assert match, "README.md has no section on running the bot with a token"
    (command,) = re.findall(r"```sh\n(.*?)\n```", match.group(1), flags=re.S)
    assert command.endswith("romme-bot") and "pip install ." in command
