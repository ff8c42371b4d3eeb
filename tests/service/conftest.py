"""Service fixtures: a table service on the test's storage (``storage`` in tests/conftest.py: an
SQLite file, then a PostgreSQL database; a test that reads ``db_path`` itself is SQLite's alone),
and helpers to play."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.engine.computer import ComputerPlayer
from bot.engine.errors import IllegalMove
from bot.service import TableService
from bot.service.computer import computer_moves
from bot.service.game import Game, GameStatus, replay_snapshot
from bot.storage import Database, Storage, open_database

HOST, BOB, CAROL, STRANGER = 101, 102, 103, 999
GUILD, CHANNEL = 1, 10


class FakeClock:
    """Epoch seconds that move only when the test says so (the service's ``clock``)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Recorder:
    """A :class:`~bot.service.tables.TableListener` that keeps every call."""

    calls: list[tuple[int, str, int]] = field(default_factory=list)

    async def game_changed(self, game: Game, *, reason: str) -> None:
        self.calls.append((game.id, reason, game.version))


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Database]:
    """The test's storage (each backend in turn) as the bot opens it for its table service: with the
    rules' replay of the moves logged after a game's snapshot."""
    store = await open_database(database, replay=replay_snapshot)
    yield store
    await store.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "romme.db"


ServiceFactory = Callable[..., Awaitable[TableService]]


@pytest.fixture
async def make_service(storage: Storage) -> AsyncIterator[ServiceFactory]:
    """Build services on the test's storage (closed at the end); defaults: seed 7, no delays."""
    made: list[TableService] = []

    async def make(**options: object) -> TableService:
        settings: dict[str, Any] = {"computer_delay": 0.0, "seed": 7, "next_round_delay": 3600.0}
        settings.update(options)
        store = settings.pop("storage", storage)
        service = TableService(store, **settings)
        await service.load()
        made.append(service)
        return service

    yield make
    for service in made:
        await service.close()


@pytest.fixture
async def service(make_service: ServiceFactory) -> TableService:
    return await make_service()


async def wait_for(predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the loop (and the database thread) run until ``predicate()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("timed out waiting for the table")
        await asyncio.sleep(0.001)


async def committed(service: TableService, game: Game, timeout: float = 20.0) -> None:
    """Wait until the game's last change is in the file: a computer's move is applied in memory
    before its timer task's save has committed it."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (record := await service.storage.get_game(game.id)) is None or record.version != game.version:
        if loop.time() > end:
            raise AssertionError("timed out waiting for the save")
        await asyncio.sleep(0.001)


def persons_turn_or_rest(game: Game) -> bool:
    """Nothing runs by itself now: a person is on turn (and not replaced), or no turn is played."""
    if game.status is not GameStatus.PLAYING or game.between_rounds:
        return True
    seat = game.to_play
    return seat is not None and not game.seats[seat].played_by_computer and game.auto_turn != seat


async def play_person_move(service: TableService, game: Game) -> None:
    """The person on turn makes the move ComputerPlayer picks for them, seeded by the game's version
    (so a replay picks the same), through ``service.play`` like a click."""
    seat = game.to_play
    assert seat is not None and game.match is not None
    user = game.seats[seat].user_id
    assert user is not None
    rng = random.Random(f"person:{game.version}")
    for move in computer_moves(game.match, seat, ComputerPlayer(), rng):
        try:
            await service.play(game.id, user, move, version=game.version)
        except IllegalMove:
            continue
        return
    raise AssertionError("no legal move found")


async def play_to_the_end(service: TableService, game: Game, *, steps: int = 20_000) -> Game:
    """Play the game to its end: persons move through ``service.play``, computer seats play by
    themselves, the first person still seated clicks **Next round**."""
    for _ in range(steps):
        await wait_for(lambda: persons_turn_or_rest(game))
        if game.status is not GameStatus.PLAYING:
            await committed(service, game)
            return game
        if game.between_rounds:
            person = next(s.user_id for s in game.seats if s.is_person)
            assert person is not None
            await service.next_round(game.id, person)
        else:
            await play_person_move(service, game)
    raise AssertionError("the match did not end")
