"""Between two rounds after a leave: a player leaves mid-round, the computer takes their seat over, that
seat goes out and ends the round; the next round must still come, by a seated person's **Next round**
or by itself 30 seconds after the round's end (``NEXT_ROUND_DELAY``).

Reported as "a match seen sitting between rounds after a leaver's computer seat ended the round, the
next deal never coming" (issue 35). Tried here: the leaver was the host and the dealer, or the only
person left; the round ended at the computer's turn right after the leave; the leaver left melds
proposed for an opening behind (R13); the last person left between the rounds; a restart after the
leave, and one between the rounds (the saved deadline stands), and the bot down past the deadline;
a computer delay and a turn timer as a live bot has them. The next round came every time, on the
code the report was made against too: the stall is not reproduced on these paths.

The deal is seeded (``SEED``): with these seats the host's hand (seat 0, the dealer's) goes out
first, so the host is the one who leaves, and her seat, the computer's then, ends the round.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.client import create_bot
from bot.service.autopilot import NEXT_ROUND_DELAY
from bot.service.game import Game, GameStatus
from tests.discord.play_helpers import (
    Message,
    Player,
    Room,
    begin,
    bot_channel,
    game_in,
    seeded_bot,
    table_message,
)

ROUND_OVER = "Round 1 is over"


def seat_of(game: Game, member: simcord.MemberActor) -> int:
    return next(n for n, seat in enumerate(game.seats) if seat.user_id == member.id)


async def play_until_the_round_ends(room: Room, *, leave_at_turn: int = 1) -> Game:
    """Bob (and Ada, until she leaves) play their turns by clicks; Ada leaves with ``/romme leave``
    at the start of her ``leave_at_turn``-th turn (0: at once, before anyone moved). Returns the
    game once round 1 is over, which must have ended by Ada's seat, played by the computer."""
    env, channel = room.env, room.channel
    players = {member.id: Player(env, member, channel) for member in (room.ada, room.bob)}
    if leave_at_turn == 0:
        await room.ada.slash(channel, "romme leave")
    turns = 0
    for _ in range(600):
        game = game_in(env, channel)
        if not game.running or game.between_rounds:
            break
        seat = game.seats[game.to_play]  # type: ignore[index]
        if seat.user_id is not None and not seat.computer:
            if seat.user_id == room.ada.id:
                turns += 1
                if turns == leave_at_turn:
                    left = await room.ada.slash(channel, "romme leave")
                    assert left.response is not None
                    continue
            await players[seat.user_id].play_turn()
        else:
            await env.advance_time(1)  # the computer's turns (no delay), the bot's timers
    game = game_in(env, channel)
    assert game.between_rounds, (game.status, game.match.round_no if game.match else None)
    assert game.seats[seat_of(game, room.ada)].computer
    if any(seat.is_person for seat in game.seats):
        assert game.host_id != room.ada.id  # the host's role passed on to a person still seated
    assert game.match is not None and game.match.history[-1].out == seat_of(game, room.ada), (
        "the scenario needs Ada's seat, the computer's now, to end the round"
    )
    return game


async def round_end_message(room: Room) -> Message:
    messages = [m async for m in bot_channel(room.env, room.channel).history(limit=10)]
    ends = [m for m in messages if m.embeds and m.embeds[0].title == ROUND_OVER]
    assert len(ends) == 1, [m.embeds[0].title for m in messages if m.embeds]
    return ends[0]


def assert_round_two_is_dealt(room: Room, *, by_computers: bool = False) -> None:
    """Round 2 is dealt and drawn; ``by_computers``: every seat is the computer's, which plays it
    through at once (no computer delay in these tests), so it may be over already."""
    game = game_in(room.env, room.channel)
    assert game.running, game.status
    assert game.match is not None and game.match.round_no == 2
    if by_computers:
        assert len(game.match.history) in (1, 2)
        return
    assert not game.between_rounds
    assert table_message(room.env, game).embeds[0].title == "Rommé — round 2 of 3"


async def next_round_by_the_timer(room: Room) -> None:
    """Nobody clicks: the next round comes 30 seconds after the round's end, not before."""
    env = room.env
    game = game_in(env, room.channel)
    assert game.round_deadline is not None
    await env.advance_time(NEXT_ROUND_DELAY - 5)
    assert game_in(env, room.channel).between_rounds
    await env.advance_time(6)
    assert_round_two_is_dealt(room)


async def next_round_by_bobs_click(room: Room) -> None:
    """Ada (who left) clicks Next round: refused, nothing dealt; Bob's click deals round 2."""
    env = room.env
    end = await round_end_message(room)
    refused = await room.ada.click(end, label="Next round")
    assert refused.ephemeral and game_in(env, room.channel).between_rounds
    clicked = await room.bob.click(end, label="Next round")
    assert clicked.response is not None
    assert clicked.response.content == "Round 2 has started: the table is below."
    assert_round_two_is_dealt(room)


@pytest.mark.parametrize("advance", ["click", "timer"])
@pytest.mark.parametrize(
    ("computers", "leave_at_turn"),
    [
        (0, 0),  # the host and dealer leaves before anyone moved; two seats: Bob and her computer
        (0, 2),  # she leaves at her second turn, before drawing
        (1, 5),  # three seats: her seat's computer goes out in the very turn she left at
    ],
)
@pytest.mark.slow
async def test_the_next_round_comes_after_the_leavers_seat_ended_the_round(
    room: Room, advance: str, computers: int, leave_at_turn: int
) -> None:
    options = {"computers": computers} if computers else {}
    await begin(room, room.bob, rounds=3, **options)
    await play_until_the_round_ends(room, leave_at_turn=leave_at_turn)
    if advance == "click":
        await next_round_by_bobs_click(room)
    else:
        await next_round_by_the_timer(room)


async def test_the_only_person_leaves_and_the_computers_play_every_round(room: Room) -> None:
    env, channel = room.env, room.channel
    await begin(room, rounds=3, computers=2)
    await room.ada.slash(channel, "romme leave")
    game = game_in(env, channel)
    assert not any(seat.is_person for seat in game.seats)
    for _ in range(3000):
        if not game.running:
            break
        await env.advance_time(5)
    assert game.status is GameStatus.FINISHED and not game.ended_early
    assert game.match is not None and len(game.match.history) >= 3


@pytest.mark.slow
async def test_the_last_person_leaves_between_the_rounds(room: Room) -> None:
    """Ada's computer seat ends the round; then Bob, the last person, leaves between the rounds:
    nobody can click Next round any more, the timer deals it."""
    await begin(room, room.bob, rounds=3)
    await play_until_the_round_ends(room, leave_at_turn=0)
    await room.env.advance_time(10)
    left = await room.bob.slash(room.channel, "romme leave")
    assert left.response is not None
    game = game_in(room.env, room.channel)
    assert game.between_rounds and not any(seat.is_person for seat in game.seats)
    await room.env.advance_time(NEXT_ROUND_DELAY - 10 - 1)
    assert game_in(room.env, room.channel).match.round_no == 1  # type: ignore[union-attr]
    await room.env.advance_time(2)
    assert_round_two_is_dealt(room, by_computers=True)


@pytest.mark.slow
@pytest.mark.parametrize("when", ["after_the_leave", "between_the_rounds"])
@pytest.mark.parametrize("advance", ["click", "timer"])
async def test_a_restart_keeps_the_next_round_coming(
    room: Room, database_path: Path, when: str, advance: str
) -> None:
    env = room.env
    await begin(room, room.bob, rounds=3)
    old_bot = env.bot
    new_bot = seeded_bot(database_path)
    try:
        if when == "after_the_leave":
            await room.ada.slash(room.channel, "romme leave")
            await env.restart_bot(new_bot)
            await old_bot.close()
            await play_until_the_round_ends(room)
        else:
            await play_until_the_round_ends(room, leave_at_turn=0)
            await env.advance_time(10)
            await env.restart_bot(new_bot)
            await old_bot.close()
            # The saved deadline stands: 30 seconds after the round's end, not after the restart.
            game = game_in(env, room.channel)
            assert game.between_rounds and game.round_deadline is not None
            if advance == "timer":
                await env.advance_time(NEXT_ROUND_DELAY - 10 + 1)
                assert_round_two_is_dealt(room)
                return
        if advance == "click":
            await next_round_by_bobs_click(room)
        else:
            await next_round_by_the_timer(room)
    finally:
        await new_bot.close()


@pytest.mark.slow
async def test_the_bot_down_past_the_deadline_deals_at_once_when_it_is_back(
    room: Room, database_path: Path
) -> None:
    """The bot stops between the rounds and is down for two minutes: the saved deadline has passed
    when it comes back, and the next round is dealt at once."""
    env = room.env
    await begin(room, room.bob, rounds=3)
    await play_until_the_round_ends(room, leave_at_turn=0)
    old_bot = env.bot
    await old_bot.close()
    await env.advance_time(120)
    new_bot = seeded_bot(database_path)
    try:
        await env.restart_bot(new_bot)
        await env.advance_time(1)
        assert_round_two_is_dealt(room)
    finally:
        await new_bot.close()


@pytest.mark.slow
async def test_the_leaver_left_proposed_melds_behind(room: Room) -> None:
    """Ada leaves in the middle of her turn with melds proposed for her opening and not laid (R13):
    her seat's computer takes them back, plays on, and the next round comes after the round's end."""
    env, channel = room.env, room.channel
    await begin(room, room.bob, rounds=3)
    ada, bob = Player(env, room.ada, channel), Player(env, room.bob, channel)
    left = False
    for _ in range(600):
        game = game_in(env, channel)
        if not game.running or game.between_rounds:
            break
        seat = game.to_play
        assert seat is not None and game.match is not None
        if left or game.seats[seat].user_id != room.ada.id:
            if game.seats[seat].computer:
                await env.advance_time(1)
            else:
                await bob.play_turn()
            continue
        await ada.open_hand()
        while game_in(env, channel).to_play == seat:
            await ada.play(ada.next_move())
            match = game_in(env, channel).match
            assert match is not None
            if match.round.pending(match.round_seat(seat)):
                await room.ada.slash(channel, "romme leave")
                left = True
                break
    assert left, "Ada never proposed a meld before going out"
    game = game_in(env, channel)
    assert game.between_rounds
    await next_round_by_the_timer(room)


@pytest.mark.slow
async def test_at_the_bots_own_pace(room: Room, database_path: Path) -> None:
    """As a live bot paces a table: 1.5 s between computer moves, a turn timer (the merging of table
    edits is left off: under SimCord it costs a second of real time per edit); the round ends at the
    computer's turn right after Ada's leave."""
    env = room.env
    old_bot = env.bot
    paced = create_bot(seeded_bot(database_path).settings, computer_delay=1.5)
    try:
        await env.restart_bot(paced)
        await old_bot.close()
        await begin(room, room.bob, rounds=3, computers=1, turn_timeout=60)
        await play_until_the_round_ends(room, leave_at_turn=5)
        await next_round_by_the_timer(room)
    finally:
        await paced.close()
