"""Restarts: a new service on the same database file goes on exactly where the old one stopped."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from bot.service import TableService
from bot.service.game import GameStatus, replay_snapshot
from bot.storage import Storage, open_database

from .conftest import BOB, CHANNEL, GUILD, HOST, persons_turn_or_rest, play_person_move, wait_for

SEED = 11


async def open_service(path: Path) -> TableService:
    service = TableService(
        await Storage.open(path, replay=replay_snapshot),
        computer_delay=0.0,
        seed=SEED,
        next_round_delay=3600.0,
    )
    await service.load()
    return service


async def shut(service: TableService) -> None:
    await service.close()
    await service.storage.close()


async def play_with_restarts(path: Path, restarts: set[int]) -> dict[str, Any]:
    """A seeded match of Ada, a computer and Bob, restarting the bot after each step in ``restarts``
    (a step is a person's move or a Next-round click; the computer may be next to play). Returns the
    final game snapshot without its deadlines, and the move log."""
    service = await open_service(path)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1, turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    game_id = game.id
    for step in range(20_000):
        await wait_for(functools.partial(persons_turn_or_rest, game))
        if game.status is not GameStatus.PLAYING:
            break
        if game.between_rounds:
            await service.next_round(game_id, HOST)
        else:
            await play_person_move(service, game)
        if step in restarts:
            await shut(service)
            service = await open_service(path)
            game = service.get(game_id)
    snapshot = game.to_snapshot()
    moves = [(m.seq, m.seat, m.user_id, m.move) for m in await service.storage.moves(game_id)]
    scores = await service.storage.round_scores(game_id)
    stats = [await service.storage.player_record(GUILD, user) for user in (HOST, BOB)]
    await shut(service)
    for key in ("turn_deadline", "round_deadline"):
        snapshot.pop(key)
    return {"snapshot": snapshot, "moves": moves, "scores": scores, "stats": stats}


async def test_restart_anywhere_gives_the_same_match(tmp_path: Path) -> None:
    plain = await play_with_restarts(tmp_path / "plain.db", set())
    assert plain["snapshot"]["status"] == "finished"
    steps = len([m for m in plain["moves"] if m[2] is not None])
    restarts = set(random.Random(5).sample(range(steps), 12)) | {0, 1, 2}
    restarted = await play_with_restarts(tmp_path / "restarted.db", restarts)
    assert restarted == plain


async def test_a_restarted_service_has_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "romme.db"
    service = await open_service(path)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await service.set_table_message(game.id, 555)
    for _ in range(3):
        await play_person_move(service, game)
    before = game.to_snapshot()
    await shut(service)

    service = await open_service(path)
    again = service.get(game.id)
    assert again.to_snapshot() == before
    assert again.table_message_id == 555
    assert service.game_in_channel(CHANNEL) is again
    # The game goes on from there.
    await wait_for(lambda: persons_turn_or_rest(again))
    await play_person_move(service, again)
    assert again.version == before["game_version"] + 1
    await shut(service)


async def test_finished_games_are_not_resumed_but_can_be_fetched(tmp_path: Path) -> None:
    path = tmp_path / "romme.db"
    service = await open_service(path)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await service.begin(game.id, HOST)
    await service.stop(game.id, HOST, can_manage=False)
    await shut(service)

    service = await open_service(path)
    assert service.game_in_channel(CHANNEL) is None
    old = await service.fetch(game.id)
    assert old.status is GameStatus.FINISHED
    again = await service.play_again(game.id, HOST)
    assert again.status is GameStatus.LOBBY and len(again.seats) == 2
    await shut(service)


async def test_a_service_refuses_a_storage_that_cannot_replay_its_games(database: str | Path) -> None:
    # Opened without the rules' replay, the storage would read back every game as its last full
    # snapshot, moves short: a service on it would bring back old games. Refused at once instead.
    storage = await open_database(database)
    try:
        with pytest.raises(ValueError, match="open_database"):
            TableService(storage)
    finally:
        await storage.close()
