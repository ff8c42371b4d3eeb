"""``romme-bot playground --language de --locales de,id``: the table in German, each person's panel
in their own locale."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.playground.cli import build_parser
from bot.playground.session import Playground, PlaygroundOptions
from tests.discord.play_helpers import game_in, table_message


def test_the_options_parse() -> None:
    args = build_parser().parse_args(["--language", "de", "--locales", "de, id", "--people", "2"])
    assert (args.language, args.locales) == ("de", ("de", "id"))
    with pytest.raises(ValueError, match="language must be en, de or id"):
        PlaygroundOptions(language="fr")
    with pytest.raises(ValueError, match="2 locales for 1 people"):
        PlaygroundOptions(locales=("de", "id"))


async def test_a_german_table_with_an_indonesian_guest(tmp_path: Path) -> None:
    options = PlaygroundOptions(
        database_path=tmp_path / "romme.db", people=2, computers=1, language="de", locales=("de", "id")
    )
    async with Playground(options) as playground:
        env, channel = playground.env, playground.channel
        lobby = playground.lobby.response if playground.lobby else None
        assert lobby is not None and lobby.embeds[0].title == "Rommé — eine neue Partie"
        you, alex = playground.people
        await you.click(lobby, label="Starten")
        game = game_in(env, channel)
        assert game.language == "de"
        table = table_message(env, game)
        assert (table.embeds[0].title or "").startswith("Rommé — Runde 1 von")
        panel = await alex.click(table, label="Meine Karten")
        assert panel.ephemeral and panel.response is not None
        assert (panel.response.embeds[0].title or "").startswith("Kartu di tanganmu")
        panel = await you.click(table, label="Meine Karten")
        assert panel.response is not None and (panel.response.embeds[0].title or "").startswith("Deine Hand")
