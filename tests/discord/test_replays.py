"""Match history and replays through Discord: ``/romme history``, ``/romme replay`` and its viewer,
the export, in English, German and Indonesian; only finished matches, only in their own server, and
the viewer's buttons still working after a restart."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.playground.session import interaction_locales
from bot.service.game import GameStatus
from bot.service.matchlog import FORMAT, FORMAT_VERSION
from cogs.replays import ATTACHMENT_LIMIT, export_file
from tests.discord.play_helpers import Room, game_in, seeded_bot, texts


@pytest.fixture
def locales() -> Iterator[dict[int, str]]:
    """``{user_id: "de"}``: that member's interactions carry that Discord locale (as in tests/i18n)."""
    chosen: dict[int, str] = {}
    with interaction_locales(chosen):
        yield chosen


async def stopped_match(room: Room) -> int:
    """Ada plays against two computers; once they have played their turns (it is Ada's turn), she
    stops the match: a stopped match, mid-round, with its deal and a few moves logged."""
    env = room.env
    result = await room.ada.slash(room.channel, "romme start", computers=2, rounds=1)
    assert result.response is not None
    await room.ada.click(result.response, label="Start")
    game = game_in(env, room.channel)
    for _ in range(200):
        if game.to_play == 0:
            break
        await env.advance_time(1)
    assert game.to_play == 0
    confirm = await room.ada.slash(room.channel, "romme stop")
    assert confirm.response is not None
    await room.ada.click(confirm.response, label="Stop the game")
    assert game.status is GameStatus.FINISHED
    return game.id


def step_line(result: simcord.results.InteractionResult) -> str:
    assert result.response is not None
    return texts(result.response)


async def test_history_and_the_replay_viewer_in_english(room: Room) -> None:
    game_id = await stopped_match(room)
    listed = await room.bob.slash(room.channel, "romme history")
    assert listed.ephemeral and listed.response is not None
    shown = texts(listed.response)
    assert "Last matches on this server" in shown and f"game {game_id} (stopped)" in shown
    # Ada stopped the match she sits at: ranked last, as the rating has it (the match's outcome).
    assert "1. Computer 1 (0), 1. Computer 2 (0), 3. ada (0)" in shown
    # A member's list: Ada hosted it; Dee never played.
    mine = await room.dee.slash(room.channel, "romme history", member=room.ada)
    assert mine.response is not None and f"game {game_id}" in texts(mine.response)

    viewer = await room.bob.click(listed.response, label="Replay 1")
    assert viewer.ephemeral and viewer.response is not None
    first = texts(viewer.response)
    assert "Step 1 of" in first and "dealt the cards" in first
    # Every seat's hand is shown: the match is over.
    game = game_in(room.env, room.channel)
    assert game.match is not None
    assert first.count("13 cards") == 3
    steps = int(first.split("Step 1 of ")[1].split()[0])
    assert steps > 3

    moved = await room.bob.click(viewer.response, label="▶")
    assert moved.response is not None and "Step 2 of" in texts(moved.response)
    turned = await room.bob.click(moved.response, label="Next turn")
    assert turned.response is not None and "Step" in texts(turned.response)
    last = await room.bob.click(turned.response, label="⏭")
    assert last.response is not None and f"Step {steps} of {steps}" in texts(last.response)
    back = await room.bob.select(last.response, ["1"], custom_id=f"romme:{game_id}:rr")
    assert back.response is not None and "Step 1 of" in texts(back.response)


async def test_replay_by_command_with_autocomplete_and_the_export(room: Room) -> None:
    game_id = await stopped_match(room)
    offered = await room.ada.autocomplete(room.channel, "romme replay", "game", "")
    assert [choice["value"] for choice in offered] == [game_id]
    assert await room.bob.autocomplete(room.channel, "romme replay", "game", "") == []

    viewer = await room.ada.slash(room.channel, "romme replay", game=game_id)
    assert viewer.ephemeral and viewer.response is not None
    exported = await room.ada.click(viewer.response, label="Download")
    assert exported.ephemeral and exported.response is not None
    (attachment,) = exported.response.attachments
    assert attachment.size <= ATTACHMENT_LIMIT and attachment.filename == f"romme-game-{game_id}.json"
    document: dict[str, Any] = json.loads(await attachment.read())
    assert (document["format"], document["version"], document["game"]) == (FORMAT, FORMAT_VERSION, game_id)
    assert document["status"] == "stopped"
    kinds = [row["kind"] for row in document["log"]]
    assert kinds[0] == "deal" and kinds.count("deal") == 1 and len(kinds) > 3
    deal = document["log"][0]
    assert [len(hand.split()) for hand in deal["hands"]] == [13, 13, 13]
    assert document["players"][0]["name"] == "ada"


async def test_a_running_match_and_another_servers_member_are_refused(room: Room) -> None:
    env = room.env
    game_id = await stopped_match(room)
    # A member of another server asks for it: there is no such match there.
    other = env.create_guild("Elsewhere")
    there = other.create_text_channel("cards")
    eve = other.add_member(env.create_user("eve"))
    refused = await eve.slash(there, "romme replay", game=game_id)
    assert refused.ephemeral and refused.response is not None
    assert f"no finished match {game_id} on this server" in (refused.response.content or "")
    # A game still in play has no replay.
    second = room.guild.create_text_channel("second")
    started = await room.bob.slash(second, "romme start", computers=1)
    assert started.response is not None
    await room.bob.click(started.response, label="Start")
    running = game_in(env, second)
    answer = await room.bob.slash(second, "romme replay", game=running.id)
    assert answer.ephemeral and answer.response is not None
    assert "still being played" in (answer.response.content or "")
    assert running.running


async def test_the_viewer_works_after_a_restart(room: Room, database_path: Path) -> None:
    env = room.env
    game_id = await stopped_match(room)
    viewer = await room.ada.slash(room.channel, "romme replay", game=game_id)
    assert viewer.response is not None
    old_bot = env.bot
    new_bot = seeded_bot(database_path)
    try:
        await env.restart_bot(new_bot)
        await old_bot.close()
        moved = await room.ada.click(viewer.response, label="⏭")
        assert moved.response is not None and "Step" in texts(moved.response)
        assert "Seats and hands" in texts(moved.response)
    finally:
        await new_bot.close()


async def test_history_and_replay_in_german_and_indonesian(room: Room, locales: dict[int, str]) -> None:
    game_id = await stopped_match(room)
    locales[room.bob.id] = "de"
    locales[room.cy.id] = "id"
    listed = await room.bob.slash(room.channel, "romme history")
    assert listed.response is not None
    shown = texts(listed.response)
    assert "Letzte Partien auf diesem Server" in shown and "abgebrochen" in shown
    viewer = await room.bob.click(listed.response, label="Replay 1")
    assert viewer.response is not None
    assert "Schritt 1 von" in texts(viewer.response) and "Spieler und ihre Karten" in texts(viewer.response)
    moved = await room.bob.click(viewer.response, label="Nächster Zug")
    assert moved.response is not None and "Schritt" in texts(moved.response)

    listed = await room.cy.slash(room.channel, "romme history")
    assert listed.response is not None
    assert "Permainan terakhir di server ini" in texts(listed.response)
    viewer = await room.cy.click(listed.response, label="Replay 1")
    assert viewer.response is not None and "Langkah 1 dari" in texts(viewer.response)
    refused = await room.cy.slash(room.channel, "romme replay", game=game_id + 50)
    assert refused.response is not None
    assert f"Tidak ada permainan selesai bernomor {game_id + 50}" in (refused.response.content or "")


def test_an_export_too_large_to_attach_goes_compressed() -> None:
    document = {"format": FORMAT, "log": ["7H " * 3_000_000]}
    data, name = export_file(document, 9)
    assert name == "romme-game-9.json.gz" and len(data) < ATTACHMENT_LIMIT
    assert json.loads(gzip.decompress(data)) == document
    small, plain_name = export_file({"format": FORMAT}, 9)
    assert plain_name == "romme-game-9.json" and json.loads(small) == {"format": FORMAT}
