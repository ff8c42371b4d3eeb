"""The README's promises that code can check: two set-up commands, CI runs the second, the two
invites, the command that runs the bot with a token, and the settings table (with ``.env.example``)
against the settings the code reads."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import discord
import pytest
from dotenv import dotenv_values

import bot
from bot.config import ENV_NAMES, Settings, load_settings
from cogs.start import TABLE_PERMISSIONS, THREAD_PERMISSIONS

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


@pytest.mark.parametrize("threads", [False, True], ids=["channel", "thread"])
def test_each_invite_asks_for_what_the_bot_checks_before_a_game(threads: bool) -> None:
    # The permissions /romme start checks (cogs/start.py), for a game in the channel or in a thread.
    wanted = TABLE_PERMISSIONS + (THREAD_PERMISSIONS if threads else ())
    value = discord.Permissions(**dict.fromkeys(wanted, True)).value
    assert f"**{value}**" in README
    invites = re.findall(r"^ *(https://discord\.com/oauth2/authorize\?\S+)$", README, flags=re.M)
    link = (
        "https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID"
        f"&scope=bot+applications.commands&permissions={value}"
    )
    assert link in invites, invites


def settings_table() -> dict[str, str]:
    """The Configuration table's rows: each variable's default, as the README writes it."""
    match = re.search(r"^## Configuration\n(.*?)^## ", README, flags=re.S | re.M)
    assert match, "README.md has no Configuration section"
    rows = re.findall(r"^\| `([A-Z_]+)` \| ([^|]*) \|", match.group(1), flags=re.M)
    assert len(rows) == len({name for name, _ in rows}), "a setting is in the table twice"
    return {name: default.strip() for name, default in rows}


def test_the_settings_table_is_every_setting_with_its_real_default() -> None:
    table = settings_table()
    assert set(table) == set(ENV_NAMES.values())  # none missing, none the code lacks
    defaults = Settings()
    for field, name in ENV_NAMES.items():
        written, default = table[name], getattr(defaults, field)
        if written in ("(none)", "(empty)", "(off)"):
            assert default is None, f"{name}: the README says {written}, the default is {default!r}"
        else:
            # A value in backquotes: given as the setting, the bot gets exactly its default.
            assert re.fullmatch(r"`[^`]+`", written), f"{name}: the default {written} is not a value"
            given = getattr(load_settings({name: written.strip("`")}, dotenv_path=None), field)
            assert given == default, f"{name}: the README says {written}, the default is {default!r}"


def test_env_example_has_every_setting_and_only_defaults() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"^(?:# )?([A-Z_]+)=", example, flags=re.M))
    assert set(ENV_NAMES.values()) <= named, set(ENV_NAMES.values()) - named
    assert named - set(ENV_NAMES.values()) == {"POSTGRES_PASSWORD"}  # compose.yaml's, not the bot's
    # Copied as it is, the file changes no setting: every value it sets is the default.
    values = {k: v for k, v in dotenv_values(ROOT / ".env.example").items() if v is not None}
    assert load_settings(values, dotenv_path=None) == Settings()


def test_running_with_a_token_follows_the_quick_start() -> None:
    match = re.search(r"^## Run the bot on your server\n(.*?)^## ", README, flags=re.S | re.M)
    assert match, "README.md has no section on running the bot with a token"
    (command,) = re.findall(r"```sh\n(.*?)\n```", match.group(1), flags=re.S)
    assert command.endswith("romme-bot") and "pip install ." in command
