"""A whole match through the service, on a real SQLite file: persons and computers to the end."""

from __future__ import annotations

from bot.service import TableService
from bot.service.game import GameStatus
from bot.storage import Storage

from .conftest import BOB, CHANNEL, GUILD, HOST, Recorder, ServiceFactory, play_to_the_end


async def test_two_people_and_a_computer_play_a_match_to_the_end(
    make_service: ServiceFactory, storage: Storage
) -> None:
    listener = Recorder()
    service: TableService = await make_service(listener=listener)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=1)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)

    await play_to_the_end(service, game)

    assert game.status is GameStatus.FINISHED and game.match is not None and game.match.over
    assert game.stats_recorded
    # R4: one round per seat (ties may add tie-break rounds, R6).
    assert game.match.round_no >= 3
    record = await storage.get_game(game.id)
    assert record is not None and record.status == "finished" and record.version == game.version
    # Every round's scores are stored once per seat that played it.
    rows = await storage.round_scores(game.id)
    assert sorted({row.round_no for row in rows}) == list(range(1, game.match.round_no + 1))
    assert [sum(r.score for r in rows if r.seat == seat) for seat in range(3)] == game.match.totals
    # Statistics: each person recorded exactly once, the winner as winner.
    winner = game.match.winner
    assert [s.user_id for s in game.seats] == [HOST, None, BOB]
    for seat, user in ((0, HOST), (2, BOB)):
        stats = await storage.player_record(GUILD, user)
        assert stats is not None and stats.matches_played == 1
        assert stats.matches_won == (1 if winner == seat else 0)
        assert stats.points == game.match.totals[seat]
    # Computer moves were told to the listener and logged with no user.
    assert any(reason == "computer" for _, reason, _ in listener.calls)
    log = await storage.moves(game.id)
    # A deal row (once a round, made by no one: user_id None) stands before each round's moves.
    assert [m.move["kind"] for m in log].count("deal") == game.match.round_no
    moves = [m for m in log if m.move["kind"] != "deal"]
    assert any(m.user_id is None and m.seat == 1 for m in moves)
    assert all(m.user_id is None for m in moves if m.seat == 1)
    assert {m.user_id for m in moves if m.seat == 0} == {HOST}
    assert [m.seq for m in log] == list(range(1, len(log) + 1))
