"""A match rebuilds from its log alone, equal at every step to what was played (R5, R18).

200 seeded matches of 2 to 6 seats under every house rule are played by computer players; each
change is logged as the change path logs it (:func:`log_cards`, the cards of a deal and of a
reshuffle), and :class:`MatchLog` replays the log: after each row, the match must be the one that
was played (its whole snapshot, the generator left out: the replay has none). Then the same through
the table service on both storage backends, for a finished match and one stopped mid-round.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.rules import RuleSet
from bot.service import TableService
from bot.service.changes import _mark
from bot.service.game import Game, GameStatus, Seat
from bot.service.matchlog import DEAL, SHUFFLED, MatchLog, NoReplay, log_cards
from bot.storage import Database, MoveEntry, MoveRecord

from .conftest import BOB, CHANNEL, GUILD, HOST, ServiceFactory, play_person_move, play_to_the_end

RULES: list[dict[str, Any]] = [
    {},
    {"jokers": 2},
    {"jokers": 6},
    {"opening": 0},
    {"opening": 120},
    {"scoring": "penalty"},
    {"hand_romme": True},
    {"discard_to_go_out": True},
    {"jokers": 6, "opening": 0, "scoring": "penalty", "hand_romme": True, "discard_to_go_out": True},
]
"""Every house rule (R1, R13, R17, R20-R22), alone and together; the rounds (R4) vary beside."""


def _played(match: Match) -> dict[str, Any]:
    data = match.to_dict()
    del data["rng"]
    return data


def play_logged(
    seed: int, seats: int, rules: RuleSet, *, stop_after: int | None = None
) -> tuple[Game, list[MoveRecord], list[dict[str, Any]]]:
    """A seeded match between computer players, logged as the change path logs it: the game, its
    log and the match after each row."""
    game = Game(
        id=seed,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        status=GameStatus.PLAYING,
        rules=rules,
        seats=[Seat(None, f"Computer {n + 1}", computer=True) for n in range(seats)],
    )
    records: list[MoveRecord] = []
    played: list[dict[str, Any]] = []
    mark = _mark(game)

    def log(entries: list[MoveEntry]) -> None:
        nonlocal mark
        for entry in log_cards(game, entries, mark):
            records.append(
                MoveRecord(
                    game.id, len(records) + 1, entry.seat, entry.user_id, entry.move, datetime.now(UTC)
                )
            )
            assert game.match is not None
            played.append(_played(game.match))
        mark = _mark(game)

    game.match = match = Match.new(seats, rules=rules, rng=random.Random(f"{seed}:deal"))
    log([])
    players = [ComputerPlayer(random.Random(f"{seed}:seat{n}")) for n in range(seats)]
    while True:
        rnd = match.round
        while not rnd.over:
            seat = match.round_seats[rnd.to_play]
            move = players[seat].next_move(rnd.seat_view(rnd.to_play))
            match.play(seat, move)
            log([MoveEntry(seat=seat, user_id=None, move=move.to_dict())])
            if stop_after is not None and len(records) >= stop_after:
                return game, records, played
        if match.over:
            return game, records, played
        match.next_round()
        log([])


def assert_rebuilds(game: Game, records: list[MoveRecord], played: list[dict[str, Any]]) -> MatchLog:
    log = MatchLog.build(game, records)
    assert log.size == len(played)
    for index, expected in enumerate(played):
        assert _played(log.match_at(index)) == expected, f"step {index} differs"
    return log


@pytest.mark.slow
def test_two_hundred_seeded_matches_rebuild_from_their_logs_alone() -> None:
    # R5 (the deal), R18 (reshuffles), R6 (tie-break rounds dealt to fewer seats).
    reshuffled = deals = 0
    seen_seats = set()
    for seed in range(200):
        seats = 2 + seed % 5
        rounds = 1 + seed % 2 if seats > 3 else None
        rules = RuleSet.from_dict({**RULES[seed % len(RULES)], "rounds": rounds})
        game, records, played = play_logged(seed, seats, rules)
        assert_rebuilds(game, records, played)
        reshuffled += sum(SHUFFLED in record.move for record in records)
        deals += sum(record.move["kind"] == DEAL for record in records)
        seen_seats.add(seats)
    assert seen_seats == {2, 3, 4, 5, 6}
    assert reshuffled > 0 and deals >= 200


def test_a_match_stopped_mid_round_rebuilds_to_where_it_stopped() -> None:
    game, records, played = play_logged(7, 4, RuleSet(), stop_after=60)
    log = assert_rebuilds(game, records, played)
    assert not log.match_at(log.size - 1).round.over


def test_a_damaged_or_dealless_log_has_no_replay() -> None:
    game, records, _ = play_logged(3, 3, RuleSet(rounds=1))
    with pytest.raises(NoReplay):
        MatchLog.build(game, records[1:])  # the deal is gone
    swapped = [records[0], records[2], records[1], *records[3:]]
    log = MatchLog.build(game, swapped)  # the first step fits; the log stops fitting at the swap
    with pytest.raises(NoReplay):
        log.match_at(log.size - 1)


async def test_the_service_logs_every_deal_and_its_log_replays(
    make_service: ServiceFactory, storage: Database
) -> None:
    service: TableService = await make_service()
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=2)
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    await play_to_the_end(service, game)
    assert game.match is not None and game.match.over
    records = await storage.moves(game.id)
    assert sum(record.move["kind"] == DEAL for record in records) == game.match.round_no
    log = MatchLog.build(game, records)
    assert _played(log.match_at(log.size - 1)) == _played(game.match)


async def test_a_stopped_game_replays_from_the_service_log(
    make_service: ServiceFactory, storage: Database
) -> None:
    service: TableService = await make_service()
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada")
    await service.join(game.id, BOB, "Bob")
    await service.begin(game.id, HOST)
    for _ in range(9):
        await play_person_move(service, game)
    await service.stop(game.id, HOST, can_manage=False)
    assert game.match is not None and not game.match.round.over
    records = await storage.moves(game.id)
    log = MatchLog.build(game, records)
    assert _played(log.match_at(log.size - 1)) == _played(game.match)
    assert log.step(0).kind == DEAL
