"""Computer levels through Discord: ``/romme start computer_level:`` sets the level of the computer
seats, Add computer seats more at it, the level shows beside the seat's name, and the computer plays
each seat at its level, a person's seat it plays for (left or away) at normal (R3)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine.computer import ComputerPlayer
from bot.engine.moves import Move
from tests.discord.play_helpers import Room, game_in, table_message, texts


@pytest.fixture
def levels_played(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int | None]]]:
    """Every decision any computer player makes, as (its level, the round seat of the view): the real
    ``next_move`` still decides, it is only listened to."""
    played: list[tuple[str, int | None]] = []
    real = ComputerPlayer.next_move

    def listened(self: ComputerPlayer, view: Any) -> Move:
        played.append((self.level, view.seat))
        return real(self, view)

    monkeypatch.setattr(ComputerPlayer, "next_move", listened)
    yield played


async def test_the_start_option_sets_the_level_of_every_computer_seat(
    room: Room, levels_played: list[tuple[str, int | None]]
) -> None:
    env = room.env
    result = await room.ada.slash(room.channel, "romme start", computers=1, computer_level="hard")
    lobby = result.response
    assert lobby is not None
    await room.bob.click(lobby, label="Join")
    await room.bob.click(lobby, label="Add computer")
    game = game_in(env, room.channel)
    assert [(seat.name, seat.level) for seat in game.seats] == [
        ("ada", None),
        ("Computer 1", "hard"),
        ("bob", None),
        ("Computer 2", "hard"),
    ]
    shown = texts(table_message(env, game))
    assert "Computer 1 (hard)" in shown and "Computer 2 (hard)" in shown
    assert "ada (" not in shown and "bob (" not in shown  # a person's seat has no level

    await room.ada.click(lobby, label="Start")
    await room.bob.slash(room.channel, "romme leave")  # the computer plays Bob's seat from now on
    await env.advance_time(2)
    game = game_in(env, room.channel)
    assert game.match is not None and game.match.round.move_no > 0
    seats = game.match.round_seats
    by_seat = {(level, seats[seat]) for level, seat in levels_played if seat is not None}
    assert {seat for level, seat in by_seat if level == "hard"} <= {1, 3}
    assert ("hard", 1) in by_seat or ("hard", 3) in by_seat
    # Bob left: his seat is played, at normal, whatever the computer seats' level.
    assert {level for level, seat in by_seat if seat == 2} <= {"normal"}
    seat_line = next(line for line in texts(table_message(env, game)).splitlines() if "Computer 1" in line)
    assert seat_line.endswith("(hard)"), seat_line  # the table's seat line ends with the seat's tags


async def test_the_level_is_normal_unless_chosen(room: Room) -> None:
    env = room.env
    result = await room.ada.slash(room.channel, "romme start")
    assert result.response is not None
    await room.ada.click(result.response, label="Add computer")
    game = game_in(env, room.channel)
    assert game.seats[1].level == "normal" and game.computer_level == "normal"
    assert "Computer 1 (normal)" in texts(table_message(env, game))
