"""Playing through the service: who may act, stale panels, refusals, failed saves, racing clicks."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.engine.errors import IllegalMove
from bot.engine.moves import Move
from bot.engine.solver import meld_candidates
from bot.render.events import last_move_text
from bot.service import TableError, TableService
from bot.service.game import Game
from bot.storage import Storage

from .conftest import BOB, CHANNEL, GUILD, HOST, STRANGER, ServiceFactory


@pytest.fixture
async def service(make_service: ServiceFactory) -> TableService:
    # No timers fire during these tests: a person's turn waits for an hour.
    return await make_service(computer_delay=3600.0)


async def two_people(service: TableService) -> Game:
    """A running game of Ada (seat 0, dealer) and Bob (seat 1, to play first, R4)."""
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    assert game.to_play == 1
    return game


def first_card(game: Game, seat: int) -> Move:
    assert game.match is not None
    return Move.discard(game.match.round.hand(game.match.round_seat(seat))[0])


async def test_a_move_is_saved_and_logged(service: TableService, storage: Storage) -> None:  # R11
    game = await two_people(service)
    await service.play(game.id, BOB, Move.draw("stock"), version=game.version)
    assert game.match is not None and len(game.match.round.hand(1)) == 14
    discard = first_card(game, 1)
    await service.play(game.id, BOB, discard, version=game.version)
    assert game.to_play == 0
    record = await storage.get_game(game.id)
    assert record is not None and record.version == game.version
    assert record.snapshot == game.to_snapshot()
    deal, *moves = await storage.moves(game.id)
    assert deal.move["kind"] == "deal" and deal.user_id is None  # the round's cards, logged once
    assert [(m.seat, m.user_id, m.move) for m in moves] == [
        (1, BOB, {"kind": "draw", "source": "stock"}),
        (1, BOB, discard.to_dict()),
    ]
    # The public events never show the card drawn from the stock (R19).
    assert [(e.kind, e.cards, e.card) for e in game.last_turn] == [
        ("draw", [], None),
        ("discard", [], str(discard.card)),
    ]


async def test_only_the_seat_on_turn_acts_for_itself(service: TableService) -> None:  # R11
    game = await two_people(service)
    before = game.to_snapshot()
    for user, code in ((STRANGER, "seat.not_seated"), (HOST, "turn.not_yours")):
        with pytest.raises(TableError) as caught:
            await service.play(game.id, user, Move.draw("stock"))
        assert caught.value.code == code
    assert game.to_snapshot() == before


async def test_a_stale_panel_is_refused(service: TableService) -> None:
    game = await two_people(service)
    old = game.version
    await service.play(game.id, BOB, Move.draw("stock"), version=old)
    before = game.to_snapshot()
    with pytest.raises(TableError) as caught:
        await service.play(game.id, BOB, first_card(game, 1), version=old)
    assert caught.value.code == "panel.stale" and caught.value.params["version"] == game.version
    assert game.to_snapshot() == before


async def test_a_refused_move_changes_nothing(service: TableService, storage: Storage) -> None:  # R11, R12
    game = await two_people(service)
    before = game.to_snapshot()
    with pytest.raises(IllegalMove) as caught:
        await service.play(game.id, BOB, first_card(game, 1))  # discard before drawing
    assert caught.value.code == "turn.must_draw"
    assert game.match is not None
    taken = game.match.round.discard_top
    await service.play(game.id, BOB, Move.draw("discard"))
    before = game.to_snapshot()
    assert taken is not None
    with pytest.raises(IllegalMove) as caught:
        await service.play(game.id, BOB, Move.discard(taken))
    assert caught.value.rule == "R12"
    assert game.to_snapshot() == before
    record = await storage.get_game(game.id)
    assert record is not None and record.version == game.version and record.snapshot == before


async def test_a_failed_save_leaves_the_game_as_saved(service: TableService, db_path: Path) -> None:
    game = await two_people(service)
    before = game.to_snapshot()
    # Another connection to the same file makes every update of a game fail, as a broken disk would.
    other = sqlite3.connect(db_path)
    other.execute(
        "CREATE TRIGGER refuse BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
    )
    other.commit()
    with pytest.raises(sqlite3.DatabaseError, match="disk says no"):
        await service.play(game.id, BOB, Move.draw("stock"))
    assert game.to_snapshot() == before
    assert game.match is not None and len(game.match.round.hand(1)) == 13
    other.execute("DROP TRIGGER refuse")
    other.commit()
    other.close()
    # The game goes on: the same move now succeeds, once.
    await service.play(game.id, BOB, Move.draw("stock"))
    assert len(game.match.round.hand(1)) == 14 and game.version == before["game_version"] + 1


async def test_a_closed_database_refuses_and_changes_nothing(service: TableService, storage: Storage) -> None:
    game = await two_people(service)
    before = game.to_snapshot()
    await storage.close()
    with pytest.raises(Exception, match="closed"):
        await service.play(game.id, BOB, Move.draw("stock"))
    assert game.to_snapshot() == before


async def test_fifty_clicks_at_once_apply_once(service: TableService, storage: Storage) -> None:
    game = await two_people(service)
    version = game.version
    draws = [service.play(game.id, BOB, Move.draw("stock"), version=version) for _ in range(25)]
    takes = [service.play(game.id, BOB, Move.draw("discard")) for _ in range(25)]
    results = await asyncio.gather(*draws, *takes, return_exceptions=True)
    accepted = [r for r in results if isinstance(r, Game)]
    refused = [r for r in results if isinstance(r, TableError | IllegalMove)]
    assert len(accepted) == 1 and len(refused) == 49
    assert game.match is not None and len(game.match.round.hand(1)) == 14
    assert game.version == version + 1
    moves = await storage.moves(game.id)
    assert [m.move["kind"] for m in moves] == ["deal", "draw"]
    # Every card is still there: 2 hands, the stock and the discard pile hold 108 (R1).
    rnd = game.match.round
    assert len(rnd.hand(0)) + len(rnd.hand(1)) + rnd.stock_count + rnd.discard_count == 108


async def test_a_proposed_meld_leaves_no_card_in_the_last_move(make_service: ServiceFactory) -> None:  # R13
    # The turn events come from the engine's public history: a meld below the opening is only
    # proposed, so its event names no card, and taking it back names none either.
    service = await make_service(computer_delay=3600.0, seed=1)
    game = await two_people(service)
    await service.play(game.id, BOB, Move.draw("stock"), version=game.version)
    assert game.match is not None
    hand = game.match.round.hand(game.match.round_seat(1))
    small = [c for c in meld_candidates(hand) if c.points < game.rules.opening]
    assert small, "seed 1 deals Bob a meld below the opening"
    meld = Move.meld(small[0].meld().cards)
    await service.play(game.id, BOB, meld, version=game.version)
    assert game.match.round.pending(game.match.round_seat(1)), "the meld is only proposed"
    await service.play(game.id, BOB, Move.take_back(), version=game.version)
    assert [(e.seat, e.kind, e.cards, e.meld_id, e.card) for e in game.last_turn] == [
        (1, "draw", [], None, None),
        (1, "meld", [], None, None),
        (1, "take_back", [], None, None),
    ]
    # Nothing of it reaches the words the channel reads.
    assert last_move_text(game) == "Bob drew from the stock."
