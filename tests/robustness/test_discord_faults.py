"""Discord faults (answered by SimCord with errors): a 403 on the table edit, a deleted table
message, a 429 on the table edit, an expired interaction. Each time the game state stays intact
(every accepted move saved once, nothing else), the next moves work, and the table message catches
up with the game (edited again, or posted again).

SimCord's ``inject_error`` carries a status, a code and a message but no ``retry_after``; discord.py's
real HTTP client sleeps through a 429 itself and retries, so what reaches the bot is the 429 that
survived those retries: an ``HTTPException`` with status 429, which is what is injected here.
"""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.publish.publisher import table_message as drawn_table
from bot.service.game import Game
from tests.discord.play_helpers import component, game_in, romme_bot, table_message
from tests.robustness.robust_helpers import DECK_SIZE, Hall, card_count, move_log, state
from tests.robustness.table_driver import TableDriver

EDIT = ("PATCH", "/channels/*/messages/*")


async def started(hall: Hall) -> TableDriver:
    """Ada and Bob with one computer, the deal done; the driver plays for Ada and Bob."""
    ada, bob = hall.person("ada"), hall.person("bob")
    lobby = await ada.slash(hall.channels[0], "romme start", computers=1, rounds=1, opening=0)
    assert lobby.response is not None
    await bob.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    return TableDriver(hall.env, hall.channels[0], {ada.id: ada, bob.id: bob})


def shows_now(env: simcord.Env, game: Game) -> bool:
    """The stored table message is exactly what the game looks like now."""
    embeds = drawn_table(game)[-2]  # (content, embeds, view)
    return bool(table_message(env, game).embeds[0].to_dict() == embeds[0].to_dict())


async def intact(env: simcord.Env, driver: TableDriver, before: dict[str, Any], moves_before: int) -> None:
    """The game went on from ``before`` by exactly the logged moves, and the cards are all there."""
    game = driver.game()
    log = await move_log(env, game.id)
    assert game.version - before["game_version"] == len(log) - moves_before > 0
    assert [entry[0] for entry in log] == list(range(1, len(log) + 1))
    assert sum(card_count(game).values()) == DECK_SIZE  # R1
    stored = await romme_bot(env).storage.get_game(game.id)
    assert stored is not None
    assert stored.version == game.version and stored.snapshot["match"] == state(game)["match"]


async def test_a_refused_table_edit_leaves_the_game_going_and_the_table_catches_up(hall: Hall) -> None:
    env = hall.env
    driver = await started(hall)
    before, moves = state(driver.game()), len(await move_log(env, driver.game().id))
    env.inject_error(*EDIT, status=403, code=50013, message="Missing Permissions", times=None)
    for _ in range(4):
        await driver.step()
    assert any(e.method == "PATCH" for e in env.http_requests[-20:])
    assert not shows_now(env, driver.game())
    await intact(env, driver, before, moves)
    env.backend.faults.clear()  # the permission is given back
    await driver.step()
    assert shows_now(env, driver.game())


async def test_a_deleted_table_message_is_posted_again_with_the_game(hall: Hall) -> None:
    env = hall.env
    driver = await started(hall)
    for person in driver.people.values():
        await driver.open_hand(person)
    game = driver.game()
    before, moves, old_id = state(game), len(await move_log(env, game.id)), game.table_message_id
    assert old_id is not None
    env.backend.delete_message(game.channel_id, old_id)
    await driver.step()
    await driver.step()
    game = driver.game()
    assert game.table_message_id not in (None, old_id)
    stored = await romme_bot(env).storage.get_game(game.id)
    assert stored is not None
    assert stored.table_message_id == game.table_message_id
    assert shows_now(env, game)
    await intact(env, driver, before, moves)
    # The reposted message's My hand works.
    result = await hall.person("ada").click(table_message(env, game), label="My hand")
    assert result.ephemeral and result.response is not None and result.response.embeds


@pytest.mark.slow
async def test_a_rate_limited_table_edit_is_made_later(hall: Hall) -> None:
    env = hall.env
    driver = await started(hall)
    before, moves = state(driver.game()), len(await move_log(env, driver.game().id))
    env.inject_error(*EDIT, status=429, code=0, message="You are being rate limited.", times=1)
    await driver.step()
    await intact(env, driver, before, moves)
    # No further click: the table still catches up by itself.
    await env.advance_time(10)
    assert shows_now(env, driver.game())
    await driver.step()
    assert shows_now(env, driver.game())


async def test_a_move_whose_answer_expired_is_kept_and_the_game_goes_on(hall: Hall) -> None:
    env = hall.env
    driver = await started(hall)
    game = driver.game()
    seat = game.to_play
    assert seat is not None
    person = driver.people[game.seats[seat].user_id]  # type: ignore[index]
    await driver.open_hand(person)
    before, moves = state(game), len(await move_log(env, game.id))
    env.inject_error(
        "POST", "/interactions/*/*/callback", status=404, code=10062, message="Unknown interaction", times=1
    )
    result = await person.click(driver.panels[person.id], label="Draw")
    assert not result.acknowledged  # the answer was lost: Discord shows "This interaction failed"
    await intact(env, driver, before, moves)
    log = await move_log(env, game.id)
    assert log[-1][2] == person.id and log[-1][3]["kind"] == "draw"
    assert shows_now(env, game_in(env, hall.channels[0]))
    # The panel caught up by itself, through the token of the click that opened it: Draw is off (the
    # card is drawn), so it cannot be drawn twice; the card drawn is marked.
    panel = await driver.current(person)
    assert panel.id == driver.panels[person.id].id
    assert component(panel, label="Draw").get("disabled") and "You drew" in panel.embeds[0].description
    assert len(await move_log(env, game.id)) == len(log)
    for _ in range(3):
        await driver.step()
    await intact(env, driver, before, moves)
