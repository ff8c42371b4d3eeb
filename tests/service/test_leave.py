"""Leaving a running game hands the seat to the computer; a failing listener does not stop the table."""

from __future__ import annotations

import pytest

from bot.engine.moves import Move
from bot.service import TableError
from bot.service.game import Game, GameStatus
from bot.storage import Storage

from .conftest import BOB, CHANNEL, GUILD, HOST, ServiceFactory, play_to_the_end, wait_for


async def test_a_person_who_leaves_is_played_by_the_computer(
    make_service: ServiceFactory, storage: Storage
) -> None:
    service = await make_service()
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    assert game.to_play == 1  # R4: the seat after the dealer plays first
    await service.play(game.id, BOB, Move.draw("stock"))
    await service.leave(game.id, BOB)
    bob = game.seats[1]
    assert bob.has_left and bob.user_id == BOB and bob.computer
    assert any(e.kind == "left" and e.seat == 1 for e in game.last_turn)
    # The computer finishes Bob's turn; Bob can no longer act for the seat.
    await wait_for(lambda: game.to_play == 0)
    with pytest.raises(TableError) as caught:
        await service.play(game.id, BOB, Move.draw("stock"))
    assert caught.value.code == "seat.not_seated"
    # The match goes on to its end; the seat's points stay with it, and Bob's statistics get the
    # match, lost: a leaver ranks below everyone who stayed (the match's outcome, issue 36).
    await play_to_the_end(service, game)
    assert game.status is GameStatus.FINISHED and game.match is not None
    assert len(game.match.totals) == 2
    left = await storage.player_record(GUILD, BOB)
    assert left is not None and (left.matches_played, left.matches_won) == (1, 0)
    stats = await storage.player_record(GUILD, HOST)
    assert stats is not None and stats.matches_played == 1


async def test_the_host_who_leaves_passes_the_host_role_on(make_service: ServiceFactory) -> None:
    service = await make_service(computer_delay=3600.0)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await service.leave(game.id, HOST)
    assert game.host_id == BOB
    await service.stop(game.id, BOB, can_manage=False)
    assert game.status is GameStatus.FINISHED


class FailingListener:
    def __init__(self) -> None:
        self.calls = 0

    async def game_changed(self, game: Game, *, reason: str) -> None:
        self.calls += 1
        raise RuntimeError("the channel is gone")


async def test_a_failing_listener_does_not_stop_the_computer(make_service: ServiceFactory) -> None:
    listener = FailingListener()
    service = await make_service(listener=listener, next_round_delay=0.0)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1, turn_timeout=0)
    await service.begin(game.id, HOST)
    await service.leave(game.id, HOST)
    await wait_for(lambda: game.status is GameStatus.FINISHED, timeout=60)
    assert listener.calls > 10
