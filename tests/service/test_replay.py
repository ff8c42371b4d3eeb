"""Moves saved as what they are: a move-log row per move, a full snapshot every few moves, and a
game read back as its snapshot with the moves logged after it replayed onto it, exactly.

Real SQLite files; the raw rows are read with a plain ``sqlite3`` connection beside the bot's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.service import TableService
from bot.service.changes import SNAPSHOT_EVERY, PreparedAnswer
from bot.service.game import Game, GameStatus
from bot.storage import Storage

from .conftest import (
    BOB,
    CHANNEL,
    GUILD,
    HOST,
    ServiceFactory,
    committed,
    persons_turn_or_rest,
    play_person_move,
    wait_for,
)


def raw_log(path: Path, game_id: int) -> tuple[int, list[tuple[int, bool]]]:
    """(the game's snapshot_seq, [(seq, logged with a state, i.e. without a snapshot)])."""
    with sqlite3.connect(path) as db:
        (mark,) = db.execute("SELECT snapshot_seq FROM games WHERE id = ?", (game_id,)).fetchone()
        rows = db.execute(
            "SELECT seq, state IS NOT NULL FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return mark, [(seq, bool(stateful)) for seq, stateful in rows]


async def started(service: TableService, computers: int = 1) -> Game:
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=computers, turn_timeout=3600)
    await service.join(game.id, BOB, "Bob")
    return await service.begin(game.id, HOST)


async def test_every_state_read_back_is_the_game_and_snapshots_are_rare(
    service: TableService, storage: Storage, db_path: Path
) -> None:  # R11, R18, R20
    game = await started(service)
    checked = 0
    while True:
        # Nothing moves by itself now (a person is on turn): what the file gives back is the game.
        await wait_for(lambda: persons_turn_or_rest(game))
        await committed(service, game)
        record = await storage.get_game(game.id)
        assert record is not None and record.snapshot == game.to_snapshot()
        assert record.version == game.version
        checked += 1
        if not game.running:
            break
        if game.between_rounds:
            await service.next_round(game.id, HOST)
        else:
            await play_person_move(service, game)
    assert game.status is GameStatus.FINISHED and checked > 50
    mark, log = raw_log(db_path, game.id)
    assert len(log) > 100
    # Most moves went without a snapshot, and never more than SNAPSHOT_EVERY - 1 in a row.
    without = [seq for seq, stateful in log if stateful]
    assert len(without) > len(log) // 2
    run = longest = 0
    for _, stateful in log:
        run = run + 1 if stateful else 0
        longest = max(longest, run)
    assert longest <= SNAPSHOT_EVERY - 1
    # The last move ended the match: saved with its snapshot, which includes every move.
    assert mark == log[-1][0] and not log[-1][1]


async def test_a_restart_between_two_snapshots_replays_and_goes_on_alike(
    make_service: ServiceFactory, storage: Storage, db_path: Path
) -> None:
    first = await make_service()
    game = await started(first)
    for _ in range(400):
        await wait_for(lambda: persons_turn_or_rest(game))
        mark, log = raw_log(db_path, game.id)
        if game.running and not game.between_rounds and log and log[-1][0] - mark >= 3:
            break
        if game.between_rounds:
            await first.next_round(game.id, HOST)
        else:
            await play_person_move(first, game)
        await committed(first, game)
    mark, log = raw_log(db_path, game.id)
    assert log[-1][0] - mark >= 3, "no moment with moves logged after the snapshot"
    before = game.to_snapshot()
    await first.close()
    second = await make_service()
    again = second.get(game.id)
    assert again is not game and again.to_snapshot() == before
    # Both go on from here alike: the same move is accepted and read back the same.
    await wait_for(lambda: persons_turn_or_rest(again))
    await play_person_move(second, again)
    await committed(second, again)
    record = await storage.get_game(game.id)
    assert record is not None and record.snapshot == again.to_snapshot()
    assert record.replayed == raw_log(db_path, game.id)[1][-1][0] - raw_log(db_path, game.id)[0]


async def test_a_refused_move_after_logged_moves_puts_the_game_back_as_saved(service: TableService) -> None:
    game = await started(service, computers=0)
    assert game.match is not None and game.to_play == 1
    await play_person_move(service, game)  # Bob draws: logged without a snapshot
    before = game.to_snapshot()
    hand = game.match.round.hand(game.match.round_seat(1))
    from bot.engine.errors import IllegalMove
    from bot.engine.moves import Move

    try:
        await service.play(game.id, BOB, Move.draw("stock"))  # R11: one draw per turn
    except IllegalMove:
        pass
    else:
        raise AssertionError("a second draw was accepted")
    assert game.to_snapshot() == before and game.match.round.hand(game.match.round_seat(1)) == hand


async def test_the_answer_is_drawn_before_the_commit_and_given_after_it(
    service: TableService, storage: Storage
) -> None:
    game = await started(service, computers=0)
    assert game.to_play == 1
    seen: list[int | None] = []

    def draw(drawn: Game) -> int:
        # Drawn while the save is on its way: the game is changed, the file not yet (or just).
        seen.append(drawn.version)
        return drawn.version

    answer = PreparedAnswer(draw)
    from bot.engine.moves import Move

    played = await service.play(game.id, BOB, Move.draw("stock"), answer=answer)
    record = await storage.get_game(game.id)
    assert record is not None and record.version == played.version == answer.result() == seen[0]
    assert len(seen) == 1

    def broken(drawn: Game) -> int:
        raise RuntimeError("the drawing failed")

    failing = PreparedAnswer(broken)
    assert game.match is not None
    card = game.match.round.hand(game.match.round_seat(1))[0]
    await service.play(game.id, BOB, Move.discard(card), answer=failing)
    # The move is saved all the same; the drawing's error comes out where the answer is read.
    record = await storage.get_game(game.id)
    assert record is not None and record.version == game.version
    try:
        failing.result()
    except RuntimeError as exc:
        assert str(exc) == "the drawing failed"
    else:
        raise AssertionError("the drawing's error was lost")
