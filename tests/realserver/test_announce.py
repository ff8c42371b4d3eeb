"""Round and match ends are never lost (issue 11, point 2): the round's scores, the match's results
and **Play again** reach the channel exactly once, whatever Discord answers and whenever the bot dies.

Each test drives the real bot in SimCord and injects Discord's refusals with ``env.inject_error``:
the answer to the click that ended the round expired (404 10062), the channel post of a round the
computer ended was answered 500 or 429, or the bot stopped between the save and the post (every post
refused until it is gone; a new bot on the same file must post at start). At the match's end the
table message is redrawn as finished. The outbox in the storage must be empty at the end.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import RommeBot
from bot.engine.match import Match
from bot.engine.moves import Move
from bot.render.ids import Target, lay_off_option
from bot.service.game import Game, GameStatus
from bot.storage import StorageError
from tests.discord.play_helpers import component, game_in, table_message
from tests.robustness import conftest as robustness
from tests.robustness.robust_helpers import Hall, make_bot
from tests.robustness.table_driver import TableDriver

POST = ("POST", "/channels/*/messages")
EDIT = ("PATCH", "/channels/*/messages/*")
CALLBACK = ("POST", "/interactions/*/*/callback")


# The robustness suite's bot (seeded, computers without delay), its closing, its quick settling and
# its hall of six people.
fast_settle = robustness.fast_settle
bots = robustness.bots
simcord_bot = robustness.simcord_bot
hall = robustness.hall


def round_ends(channel: simcord.ChannelHandle) -> list[discord.Message]:
    """The public round-end announcements of the channel, oldest first."""
    found = []
    for message in channel.history():
        if message.flags.ephemeral or not message.embeds:
            continue
        title = message.embeds[0].title or ""
        if "Round " in title and title.endswith(" is over"):
            found.append(message)
    return found


def titles(messages: list[discord.Message]) -> list[str]:
    """The first embed title of each message."""
    return [message.embeds[0].title or "" for message in messages]


def shows_finished(env: simcord.Env, game: Game) -> None:
    """The table message says the round is over, calls nobody, and offers no move."""
    message = table_message(env, game)
    assert not message.content, f"the finished table still calls {message.content!r}"
    description = message.embeds[0].description or ""
    assert "The round is over." in description, description
    assert "▶" not in (message.embeds[0].fields[0].value or "")
    for label in ("My hand", "Draw", "Take discard"):
        assert component(message, label=label).get("disabled"), f"{label} is still on"


async def nothing_owed(env: simcord.Env, game_id: int) -> None:
    """The storage owes no announcement of the game any more."""
    pending = await env.bot.storage.owed_announcements()  # type: ignore[attr-defined]
    assert [a for a in pending if a.game_id == game_id] == []


async def computers_only(hall: Hall, rounds: int) -> Game:
    """Ada opens a table with one computer and leaves it once it runs: computers play it out."""
    ada, channel = hall.person("ada"), hall.channels[0]
    lobby = await ada.slash(channel, "romme start", computers=1, rounds=rounds, opening=0)
    assert lobby.response is not None
    await ada.click(lobby.response, label="Start")
    game = game_in(hall.env, channel)
    await ada.slash(channel, "romme leave")
    return game


@pytest.mark.parametrize(
    "status,code", [(500, 0), (429, 0), (503, 0)], ids=["500", "429 after discord.py's own retries", "503"]
)
@pytest.mark.slow
async def test_a_round_end_post_that_discord_refuses_for_a_while_is_posted_later(
    hall: Hall, status: int, code: int
) -> None:
    env = hall.env
    env.inject_error(*POST, status=status, code=code, times=3)
    game = await computers_only(hall, rounds=2)
    await env.advance_time(120)
    game = game_in(env, hall.channels[0])
    assert game.status is GameStatus.FINISHED
    assert titles(round_ends(hall.channels[0])) == ["Round 1 is over", "Round 2 is over"]
    last = round_ends(hall.channels[0])[-1]
    assert [e.title for e in last.embeds] == ["Round 2 is over", "The match is over"]
    assert component(last, label="Play again")
    shows_finished(env, game)
    await nothing_owed(env, game.id)


def ending_move(driver: TableDriver, game: Game) -> bool:
    """The move the person on turn is about to make ends the round (tried on a copy of the match)."""
    assert game.match is not None and game.to_play is not None
    seat = game.to_play
    move = driver.decide(game, seat)
    copy = Match.from_dict(game.match.to_dict())
    copy.play(seat, move)
    return copy.round.over


async def last_click_lost(
    driver: TableDriver, env: simcord.Env, actor: simcord.MemberActor, move: Move
) -> simcord.InteractionResult:
    """Make ``move`` by clicks; Discord refuses the answer to its last click (404 10062)."""
    lost = {"status": 404, "code": 10062, "message": "Unknown interaction", "times": 1}
    cards = [str(card) for card in move.cards]
    if move.kind in ("discard", "meld"):
        await driver.choose(actor, [str(move.card)] if move.kind == "discard" else cards)
        env.inject_error(*CALLBACK, **lost)  # type: ignore[arg-type]
        return await actor.click(driver.panels[actor.id], label=move.kind.capitalize())
    if move.kind == "lay_off":
        await driver.choose(actor, cards)
        await driver.press(actor, "Lay off")
        offered = [
            option["value"] for option in component(driver.panels[actor.id], action="target")["options"]
        ]
        value = lay_off_option(move.meld_id or "", move.end, offered)
        assert value is not None
    else:
        assert move.kind == "swap_joker", move
        await driver.choose(actor, [str(move.card), *cards])
        await driver.press(actor, "Swap joker")
        value = Target(move.meld_id or "", card=str(move.card)).value()
    select = component(driver.panels[actor.id], action="target")
    env.inject_error(*CALLBACK, **lost)  # type: ignore[arg-type]
    return await actor.select(driver.panels[actor.id], [value], custom_id=select["custom_id"])


async def end_round_with_lost_answer(driver: TableDriver, env: simcord.Env) -> simcord.InteractionResult:
    """Play by clicks until the click that ends the round, whose answer Discord refuses (10062)."""
    for _ in range(2000):
        game = driver.game()
        if game.to_play is None or not ending_move(driver, game):
            await driver.step()
            continue
        seat = game.to_play
        actor = driver.people[game.seats[seat].user_id]  # type: ignore[index]
        if actor.id not in driver.panels:
            await driver.open_hand(actor)
        result = await last_click_lost(driver, env, actor, driver.decide(game, seat))
        assert driver.game().match is not None and driver.game().match.round.over  # type: ignore[union-attr]
        return result
    raise AssertionError("the round did not end")


@pytest.mark.slow
async def test_the_round_end_whose_click_answer_expired_is_posted_in_the_channel(hall: Hall) -> None:
    env, channel = hall.env, hall.channels[0]
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(channel, "romme start", rounds=1, opening=0)
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    driver = TableDriver(env, channel, {ada.id: ada, bob.id: bob})
    result = await end_round_with_lost_answer(driver, env)
    assert not result.acknowledged  # Discord told the person "This interaction failed"
    await env.advance_time(30)
    game = driver.game()
    assert game.status is GameStatus.FINISHED
    ends = round_ends(channel)
    assert titles(ends) == ["Round 1 is over"], "announced once, by the publisher"
    assert [e.title for e in ends[0].embeds] == ["Round 1 is over", "The match is over"]
    assert component(ends[0], label="Play again")
    shows_finished(env, game)
    await nothing_owed(env, game.id)


@pytest.mark.slow
async def test_an_answered_round_end_is_not_posted_again(hall: Hall, bots: list[RommeBot]) -> None:
    """The click's answer delivered it: the publisher posts nothing more, also after a restart."""
    env, channel = hall.env, hall.channels[0]
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(channel, "romme start", rounds=2, opening=0)
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    driver = TableDriver(env, channel, {ada.id: ada, bob.id: bob})
    game = await driver.play_to_end()
    await env.advance_time(60)
    assert titles(round_ends(channel)) == ["Round 1 is over", "Round 2 is over"]
    await nothing_owed(env, game.id)
    bot = make_bot(env.bot.storage.path)  # type: ignore[attr-defined]
    bots.append(bot)
    old = env.bot
    await env.restart_bot(bot)
    await old.close()
    await env.advance_time(60)
    assert titles(round_ends(channel)) == ["Round 1 is over", "Round 2 is over"]


@pytest.mark.slow
async def test_a_match_end_owed_when_the_bot_stopped_is_posted_by_the_next_bot(
    hall: Hall, bots: list[RommeBot]
) -> None:
    """Saved, then never posted (every post and edit refused until the bot is gone): the next bot on
    the same file posts the round's end with the match's results and redraws the table as finished."""
    env, channel = hall.env, hall.channels[0]
    path = env.bot.storage.path  # type: ignore[attr-defined]
    env.inject_error(*POST, status=500, times=None)
    env.inject_error(*EDIT, status=500, times=None)
    game = await computers_only(hall, rounds=1)
    await env.advance_time(60)
    game = game_in(env, channel)
    assert game.status is GameStatus.FINISHED
    assert round_ends(channel) == []
    env.backend.faults.clear()
    bot = make_bot(path)
    bots.append(bot)
    old = env.bot
    await env.restart_bot(bot)
    await old.close()
    await env.advance_time(30)
    ends = round_ends(channel)
    assert titles(ends) == ["Round 1 is over"]
    assert [e.title for e in ends[0].embeds] == ["Round 1 is over", "The match is over"]
    assert component(ends[0], label="Play again")
    record = await env.bot.storage.get_game(game.id)  # type: ignore[attr-defined]
    assert record is not None and record.table_message_id is not None
    game.table_message_id = record.table_message_id
    shows_finished(env, game)
    await nothing_owed(env, game.id)


CHILD = Path(__file__).resolve().parent / "announce_kill_child.py"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_round_end_saved_before_a_kill_is_still_owed(tmp_path: Path) -> None:
    """SIGKILL after the save, before any post could go out: the file still owes every round's end
    (the in-process restart above shows a new bot posting what is owed)."""
    database = tmp_path / "romme.db"
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(database)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert child.stdout is not None
    owed: list[tuple[int, int]] = []
    deadline = time.monotonic() + 60
    try:
        for line in child.stdout:
            if line.startswith("OWED"):
                game, round_no = map(int, line.split()[1:])
                owed.append((game, round_no))
            if len(owed) >= 2 or time.monotonic() > deadline:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=10)
    assert child.returncode == -signal.SIGKILL
    assert len(owed) >= 2, "the bot process did not end two rounds"
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        rows = db.execute("SELECT game_id, round_no, delivered_at FROM announcements").fetchall()
        scored = {tuple(r) for r in db.execute("SELECT DISTINCT game_id, round_no FROM round_scores")}
    assert set(owed) <= {(g, r) for g, r, _ in rows}
    assert all(delivered is None for *_, delivered in rows), "nothing was posted, nothing is delivered"
    assert scored == {(g, r) for g, r, _ in rows}, "every scored round owes its end, and only those"


@pytest.mark.slow
async def test_an_answered_round_end_whose_mark_failed_is_not_posted_again_after_a_restart(
    hall: Hall, bots: list[RommeBot], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The click's answer delivered the round's end, but the storage could not note it (every try
    failed): the next bot finds the message in the channel instead of posting it a second time."""
    env, channel = hall.env, hall.channels[0]
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(channel, "romme start", rounds=2, opening=0)
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    storage = env.bot.storage  # type: ignore[attr-defined]

    async def disk_full(game_id: int, round_no: int, message_id: int | None) -> bool:
        raise StorageError("database or disk is full")

    monkeypatch.setattr(storage, "announcement_delivered", disk_full)
    driver = TableDriver(env, channel, {ada.id: ada, bob.id: bob})
    for _ in range(2000):
        if driver.game().between_rounds:
            break
        await driver.step()
    await env.advance_time(5)  # the marks' retries, all failing (the next round waits 30 s)
    assert titles(round_ends(channel)) == ["Round 1 is over"]
    assert [a.round_no for a in await storage.owed_announcements()] == [1]
    bot = make_bot(storage.path)
    bots.append(bot)
    old = env.bot
    await env.restart_bot(bot)
    await old.close()
    await env.advance_time(10)
    assert titles(round_ends(channel)) == ["Round 1 is over"], "posted once, by the click's answer"
    assert await env.bot.storage.owed_announcements() == []  # type: ignore[attr-defined]
