"""Game snapshots: made from the fields (:mod:`bot.service.stored`), they equal the
``dataclasses.asdict`` construction of the first snapshots, key order included, in every state a real
table goes through; they load back; and an older snapshot, without the keys added since, loads with
the defaults it always had."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import pytest

from bot.engine.rules import RuleSet
from bot.service import TableService
from bot.service.game import SNAPSHOT_FORMAT, Game, Seat, TurnEvent

from .conftest import (
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    HOST,
    ServiceFactory,
    persons_turn_or_rest,
    play_person_move,
    wait_for,
)


def reference_snapshot(game: Game) -> dict[str, Any]:
    """The snapshot as ``Game.to_snapshot`` built it before it was written out by hand."""
    return {
        "version": SNAPSHOT_FORMAT,
        "id": game.id,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "host_id": game.host_id,
        "status": str(game.status),
        "rules": asdict(game.rules),
        "computers": game.computers,
        "turn_timeout": game.turn_timeout,
        "seats": [asdict(seat) for seat in game.seats],
        "match": None if game.match is None else game.match.to_dict(),
        "game_version": game.version,
        "table_message_id": game.table_message_id,
        "last_turn": [asdict(event) for event in game.last_turn],
        "turn_deadline": game.turn_deadline,
        "round_deadline": game.round_deadline,
        "auto_turn": game.auto_turn,
        "stats_recorded": game.stats_recorded,
        "stopped_by": game.stopped_by,
        "recorded_rounds": game.recorded_rounds,
        "lobby_deadline": game.lobby_deadline,
        "idle_deadline": game.idle_deadline,
        "closed_by": game.closed_by,
        "language": game.language,
        # Added with computer levels, last, and only when not normal: older snapshots stay as they were.
        **({"computer_level": game.computer_level} if game.computer_level != "normal" else {}),
        # Added with the rating of matches that end early (issue 35), only for such a match.
        **({"early_rating": game.early_rating} if game.early_rating is not None else {}),
        # Added with the match's outcome (issue 36), once the save that ends the match wrote it.
        **(
            {"recorded_outcome": game.recorded_outcome.to_dict()} if game.recorded_outcome is not None else {}
        ),
    }


@dataclass
class Checker:
    """A table listener that compares both snapshots of the game after every change."""

    seen: list[tuple[str, str]] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    async def game_changed(self, game: Game, *, reason: str) -> None:
        self.check(game, reason)

    def check(self, game: Game, reason: str) -> Game:
        """Compare the snapshots of ``game`` now (the listener hears only changes made by timers)."""
        snapshot = game.to_snapshot()
        self.seen.append((reason, str(game.status)))
        # The JSON text, not only ==: key order and list-versus-tuple must match too.
        if json.dumps(snapshot) != json.dumps(reference_snapshot(game)):
            self.wrong.append(f"{reason} v{game.version}: differs from the asdict snapshot")
        # A Match compares by identity, so the round trip is checked on the snapshot and the rest.
        again = Game.from_snapshot(snapshot)
        same_game = replace(again, match=game.match) == game
        if not same_game or json.dumps(again.to_snapshot()) != json.dumps(snapshot):
            self.wrong.append(f"{reason} v{game.version}: does not load back")
        return game


@pytest.fixture
def checker() -> Checker:
    return Checker()


@pytest.fixture
async def service(make_service: ServiceFactory, checker: Checker) -> TableService:
    return await make_service(listener=checker)


async def test_every_state_of_a_played_match_snapshots_as_before(
    service: TableService, checker: Checker
) -> None:
    check = checker.check
    rules = RuleSet(opening=30, rounds=2, hand_romme=True)
    game = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", rules, computers=1, turn_timeout=600)
    check(game, "open")
    check(await service.join(game.id, BOB, "Bob"), "join")
    check(await service.add_computer(game.id, HOST), "computer")
    check(await service.leave(game.id, BOB), "leave")
    check(await service.join(game.id, CAROL, "Cleo"), "join")
    await service.set_table_message(game.id, 555)
    check(await service.begin(game.id, HOST), "begin")
    while game.running:
        await wait_for(lambda: persons_turn_or_rest(game))
        if game.between_rounds:
            check(await service.next_round(game.id, HOST), "next round")
        elif game.running:
            await play_person_move(service, game)
            check(game, "person")
    check(game, "end")
    reasons = {reason for reason, _ in checker.seen}
    assert {"lobby", "playing", "finished"} == {status for _, status in checker.seen}
    assert {"person", "computer", "next round"} <= reasons
    assert len(checker.seen) > 100  # many moves: melds, lay-offs and discards of four seats
    assert checker.wrong == []


async def test_stopped_and_cancelled_games_snapshot_as_before(
    service: TableService, checker: Checker
) -> None:
    check = checker.check
    stopped = await service.open_lobby(GUILD, CHANNEL, HOST, "Ada", computers=2, computer_level="hard")
    check(await service.begin(stopped.id, HOST), "begin")
    check(await service.leave(stopped.id, HOST), "leave")  # the computer plays the host's seat now
    check(await service.stop(stopped.id, BOB, can_manage=True), "stop")
    cancelled = await service.open_lobby(GUILD, CHANNEL + 1, BOB, "Bob", RuleSet(jokers=6))
    check(cancelled, "open")
    check(await service.cancel(cancelled.id, BOB), "cancel")
    assert stopped.stopped_by == BOB and str(cancelled.status) == "cancelled"
    # Bob, not seated, stopped it before any round ended: the match is not rated, and says so.
    assert stopped.early_rating == "unrated" and cancelled.early_rating is None
    assert (
        list(stopped.to_snapshot())[-2:] == ["computer_level", "early_rating"]
        and "computer_level" not in cancelled.to_snapshot()
        and "early_rating" not in cancelled.to_snapshot()
    )
    assert checker.wrong == []


def test_an_older_snapshot_loads_with_the_defaults_it_always_had() -> None:
    # The keys every snapshot has had; everything added since is missing.
    oldest = {
        "version": SNAPSHOT_FORMAT,
        "id": 3,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "host_id": HOST,
        "status": "playing",
        "rules": {},
        "seats": [
            {"user_id": HOST, "name": "Ada"},
            {"user_id": None, "name": "Computer 1", "computer": True},
        ],
        "last_turn": [{"kind": "round_over"}],
    }
    game = Game.from_snapshot(oldest)
    assert (game.computers, game.computer_level, game.turn_timeout, game.language) == (
        0,
        "normal",
        120.0,
        "en",
    )
    assert (game.version, game.table_message_id, game.match, game.rules) == (1, None, None, RuleSet())
    assert (game.stats_recorded, game.recorded_rounds, game.stopped_by, game.closed_by) == (
        False,
        0,
        None,
        None,
    )
    assert [
        game.turn_deadline,
        game.round_deadline,
        game.auto_turn,
        game.lobby_deadline,
        game.idle_deadline,
    ] == [None] * 5
    # A person counted before the count of own moves is taken to have played; no level before levels.
    assert game.seats == [
        Seat(HOST, "Ada", computer=False, away=False, missed=0, own_moves=1, level=None),
        Seat(None, "Computer 1", computer=True, away=False, missed=0, own_moves=1, level=None),
    ]
    assert game.last_turn == [TurnEvent(None, "round_over", cards=[], source=None, meld_id=None, card=None)]
    for key in ("id", "guild_id", "channel_id", "host_id", "status", "rules", "seats"):
        with pytest.raises(KeyError):
            Game.from_snapshot({k: v for k, v in oldest.items() if k != key})
    # Defaults are not shared: a list read for one game is not another's.
    first, second = (
        Game.from_snapshot({k: v for k, v in oldest.items() if k != "last_turn"}) for _ in range(2)
    )
    assert first.last_turn == [] and first.last_turn is not second.last_turn


@pytest.mark.parametrize(
    "seat",
    [
        Seat(7, "Ada"),
        Seat(None, "Computer 1", computer=True),
        Seat(8, "Bob", computer=True, missed=2),
        Seat(9, "Cleo", away=True, missed=3),
    ],
)
def test_a_seat_dict_is_the_asdict_one(seat: Seat) -> None:
    assert json.dumps(seat.to_dict()) == json.dumps(asdict(seat))
    assert Seat.from_dict(seat.to_dict()) == seat


@pytest.mark.parametrize(
    "event",
    [
        TurnEvent(1, "draw", cards=["7H"], source="discard"),
        TurnEvent(0, "meld", cards=["QS", "QH", "QD"], meld_id="m2", auto=True),
        TurnEvent(2, "swap_joker", cards=["JK", "5S", "6S"], meld_id="m1", card="4H"),
        TurnEvent(None, "round_over"),
    ],
)
def test_an_event_dict_is_the_asdict_one_and_a_copy(event: TurnEvent) -> None:
    data = event.to_dict()
    assert json.dumps(data) == json.dumps(asdict(event))
    cards = list(event.cards)
    data["cards"].append("2C")  # the snapshot's list is not the event's
    assert event.cards == cards
    assert TurnEvent.from_dict(event.to_dict()) == event
