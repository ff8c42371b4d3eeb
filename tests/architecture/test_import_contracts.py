"""The import contracts of ``pyproject.toml`` hold, and they catch a wrong import when one is made.

Each case copies the packages to a temporary folder, adds one import that crosses a layer the wrong
way, and runs ``lint-imports`` there: the contract must break. The unchanged copy must pass, so a
broken case is the added import's doing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", script, "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("contracts")
    for package in ("bot", "cogs"):
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_the_tree_as_it_is_keeps_every_contract(tree: Path) -> None:
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" in result.stdout and " 0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "wrong_import", "contract"),
    [
        ("bot/render/table.py", "import bot.service.tables", "Layers"),
        ("bot/render/panel.py", "import bot.service.timers", "Layers"),
        ("bot/i18n/en.py", "import bot.service", "Layers"),
        ("bot/render/lobby.py", "import bot.storage", "Rendering and the catalog"),
        ("bot/storage/records.py", "import bot.engine.cards", "Layers"),
        ("bot/engine/round.py", "import bot.storage", "Layers"),
        ("bot/engine/meld.py", "import sqlite3", "The engine is pure Python"),
        ("bot/service/events.py", "import discord", "The table service knows no Discord"),
        ("bot/service/tables.py", "import bot.render", "Layers"),
        ("bot/client.py", "import cogs.romme", "Layers"),
        ("bot/publish/publisher.py", "import bot.ops", "Layers"),
        ("bot/service/changes.py", "import prometheus_client", "Only bot.ops exports metrics"),
    ],
)
def test_a_wrong_import_breaks_a_contract(tree: Path, module: str, wrong_import: str, contract: str) -> None:
    path = tree / module
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(original + f"\n{wrong_import}  # added by the test\n", encoding="utf-8")
        result = lint_imports(tree)
    finally:
        path.write_text(original, encoding="utf-8")
    assert result.returncode != 0, f"{module}: `{wrong_import}` broke no contract\n{result.stdout}"
    broken = [line for line in result.stdout.splitlines() if line.endswith("BROKEN")]
    assert any(line.startswith(contract) for line in broken), result.stdout
