"""Random clicks from random people: refusals change nothing, accepted changes are saved, no card is lost."""

from __future__ import annotations

import random

import pytest

from bot.engine.cards import Card, new_deck
from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.service import TableError, TableService
from bot.service.game import Game, GameStatus
from bot.storage import Storage

from .conftest import BOB, CAROL, CHANNEL, GUILD, HOST, STRANGER, ServiceFactory, play_person_move

USERS = (HOST, BOB, CAROL, STRANGER)
DECK = sorted(set(new_deck()))


def cards_in_play(game: Game) -> int:
    assert game.match is not None
    rnd = game.match.round
    total = rnd.stock_count + rnd.discard_count + sum(len(tm.cards) for tm in rnd.table)
    for seat in range(rnd.n_seats):
        total += len(rnd.hand(seat)) + sum(len(m.cards) for m in rnd.pending(seat))
    return total


def random_move(rng: random.Random, game: Game, user: int) -> Move:
    assert game.match is not None
    seat = game.active_seat_of(user)
    hand = game.match.round.hand(game.match.round_seat(seat)) if seat is not None else []
    pool = hand if hand and rng.random() < 0.8 else DECK
    ids = [tm.id for tm in game.match.round.table] + ["m99", ""]
    pick = rng.choice(["draw", "meld", "lay_off", "swap", "discard", "take_back"])
    if pick == "draw":
        return Move.draw(rng.choice(["stock", "discard"]))
    if pick == "meld":
        return Move.meld(rng.sample(pool, min(len(pool), rng.randint(1, 4))))
    if pick == "lay_off":
        return Move.lay_off(rng.sample(pool, min(len(pool), rng.randint(1, 2))), rng.choice(ids))
    if pick == "swap":
        cards: list[Card] = rng.sample(pool, min(len(pool), 2))
        return Move.swap_joker(rng.choice(pool), rng.choice(ids), cards)
    if pick == "discard":
        return Move.discard(rng.choice(pool))
    return Move.take_back()


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_clicks(make_service: ServiceFactory, storage: Storage, seed: int) -> None:
    rng = random.Random(seed)
    service: TableService = await make_service(computer_delay=3600.0)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CAROL, "Cy")
    await service.begin(game.id, HOST)
    accepted = refused = 0
    for _ in range(400):
        if game.status is not GameStatus.PLAYING:
            break
        before = game.to_snapshot()
        user = rng.choice(USERS)
        version = rng.choice([game.version, game.version, None, game.version - 1])
        action = rng.random()
        try:
            if game.between_rounds or action < 0.05:
                await service.next_round(game.id, user)
            elif action < 0.35 and game.to_play is not None:
                await play_person_move(service, game)  # progress: a sensible move by the seat on turn
            else:
                await service.play(game.id, user, random_move(rng, game, user), version=version)
        except (TableError, IllegalMove):
            refused += 1
            assert game.to_snapshot() == before
            continue
        accepted += 1
        record = await storage.get_game(game.id)
        assert record is not None and record.snapshot == game.to_snapshot()
        assert record.version == game.version
        assert cards_in_play(game) == 108  # R1
    assert accepted > 50 and refused > 100
    moves = await storage.moves(game.id)
    # Every move is a person's; the deal rows (one a round) are no one's.
    assert all(m.user_id in (HOST, BOB, CAROL) for m in moves if m.move["kind"] != "deal")
    assert all(m.user_id is None for m in moves if m.move["kind"] == "deal")
