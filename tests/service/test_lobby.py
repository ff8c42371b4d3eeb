"""The lobby through the service: join, leave, add computer, begin, cancel, host-only, 2-6 seats (R3)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import cast

import pytest

from bot.engine.rules import RuleSet
from bot.service import TableError, TableService
from bot.service.game import GameStatus
from bot.storage import Storage

from .conftest import BOB, CAROL, CHANNEL, GUILD, HOST, STRANGER, ServiceFactory


@pytest.fixture
async def service(make_service: ServiceFactory) -> TableService:
    # Computer seats wait an hour: these tests look at the lobby, not at play.
    return await make_service(computer_delay=3600.0)


async def refused(code: str, action: Awaitable[object]) -> TableError:
    with pytest.raises(TableError) as caught:
        await action
    assert caught.value.code == code
    return caught.value


async def test_open_join_add_computer_and_begin(service: TableService, storage: Storage) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", RuleSet(opening=30), computers=1)
    assert [s.name for s in game.seats] == ["Ada", "Computer 1"]
    assert service.game_in_channel(CHANNEL) is game
    await service.join(game.id, BOB, "Bob")
    await service.add_computer(game.id, BOB)
    seats = [(s.user_id, s.computer) for s in game.seats]
    assert seats == [(HOST, False), (None, True), (BOB, False), (None, True)]
    assert game.seats[3].name == "Computer 2"
    await service.begin(game.id, HOST)
    assert game.status is GameStatus.PLAYING and game.match is not None
    assert game.match.n_seats == 4 and game.match.rules.opening == 30  # R13's house rule
    record = await storage.get_game(game.id)
    assert record is not None and record.status == "playing" and record.version == game.version


async def test_one_game_per_channel(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada")
    error = await refused("game.exists", service.open_lobby(GUILD, CHANNEL, BOB, "Bob"))
    assert error.params["game_id"] == game.id
    other = await service.open_lobby(GUILD, CHANNEL + 1, BOB, "Bob")
    assert other.id != game.id


async def test_only_the_host_begins_or_cancels(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada")
    await service.join(game.id, BOB, "Bob")
    await refused("lobby.not_host", service.begin(game.id, BOB))
    await refused("lobby.not_host", service.cancel(game.id, BOB))
    await service.cancel(game.id, HOST)
    assert game.status is GameStatus.CANCELLED
    assert service.game_in_channel(CHANNEL) is None
    # The channel is free again.
    await service.open_lobby(GUILD, CHANNEL, BOB, "Bob")


async def test_seat_count_limits(service: TableService) -> None:  # R3
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada")
    await refused("lobby.too_few", service.begin(game.id, HOST))
    for _ in range(5):
        await service.add_computer(game.id, HOST)
    assert len(game.seats) == 6
    await refused("lobby.full", service.add_computer(game.id, HOST))
    await refused("lobby.full", service.join(game.id, BOB, "Bob"))
    await service.begin(game.id, HOST)
    assert game.match is not None and game.match.n_seats == 6


async def test_join_twice_stranger_and_closed_lobby(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await refused("seat.already_seated", service.join(game.id, HOST, "Ada"))
    await refused("seat.not_seated", service.add_computer(game.id, STRANGER))
    await refused("seat.not_seated", service.leave(game.id, STRANGER))
    await service.begin(game.id, HOST)
    await refused("lobby.closed", service.join(game.id, BOB, "Bob"))
    await refused("lobby.closed", service.cancel(game.id, HOST))
    await refused("game.none_here", service.join(12345, BOB, "Bob"))


async def test_leaving_the_lobby_passes_the_host_on(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CAROL, "Cy")
    await service.leave(game.id, BOB)
    assert [s.user_id for s in game.seats] == [HOST, None, CAROL]
    await service.leave(game.id, HOST)
    assert game.host_id == CAROL and game.status is GameStatus.LOBBY
    await service.leave(game.id, CAROL)
    # No person left: the lobby closes (the cast: mypy still holds the LOBBY asserted before the await).
    assert cast(GameStatus, game.status) is GameStatus.CANCELLED


async def test_a_refused_lobby_action_changes_nothing(service: TableService, storage: Storage) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada")
    before = game.to_snapshot()
    await refused("lobby.not_host", service.begin(game.id, BOB))
    await refused("lobby.too_few", service.begin(game.id, HOST))
    assert game.to_snapshot() == before
    record = await storage.get_game(game.id)
    assert record is not None and record.version == game.version == 1


async def test_stop_needs_the_host_or_manage_server(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await refused("stop.not_allowed", service.stop(game.id, BOB, can_manage=False))
    await service.stop(game.id, BOB, can_manage=True)
    assert game.status is GameStatus.FINISHED and game.stopped_by == BOB
    # Bob sits there: his stop is rated at once, Bob ranked last, and counted in the statistics on
    # the same outcome (issue 36).
    assert game.early_rating == "leaver" and game.stats_recorded
    await refused("game.not_running", service.stop(game.id, HOST, can_manage=False))


async def test_play_again_opens_a_lobby_with_the_same_people(service: TableService) -> None:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1, turn_timeout=60)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await refused("game.not_finished", service.play_again(game.id, BOB))
    await service.stop(game.id, HOST, can_manage=False)
    await refused("seat.not_seated", service.play_again(game.id, STRANGER))
    again = await service.play_again(game.id, BOB)
    assert again.id != game.id and again.status is GameStatus.LOBBY
    assert again.host_id == BOB and again.turn_timeout == 60
    assert [(s.user_id, s.computer) for s in again.seats] == [(BOB, False), (HOST, False), (None, True)]
    assert service.game_in_channel(CHANNEL) is again
    await refused("game.exists", service.play_again(game.id, HOST))
