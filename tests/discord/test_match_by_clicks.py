"""A whole match through Discord: /romme start, the lobby buttons, every move by clicks and selects,
the round-end and match-end messages, /romme score. Two people and one computer player."""

from __future__ import annotations

import pytest

from bot.service.game import GameStatus
from tests.discord.play_helpers import Player, Room, bot_channel, first_button, game_in, table_message


async def start_match(room: Room, **options: object) -> None:
    """Ada opens a lobby with one computer, Bob joins with the button, Ada starts (R3)."""
    result = await room.ada.slash(room.channel, "romme start", **options)
    assert not result.ephemeral and result.response is not None
    lobby = result.response
    assert lobby.embeds[0].title == "Rommé — a new game"
    await room.bob.click(lobby, label="Join")
    await room.ada.click(lobby, label="Start")


@pytest.mark.slow
async def test_two_people_and_a_computer_play_a_match_to_the_end(room: Room) -> None:
    env, channel = room.env, room.channel
    await start_match(room, computers=1, rounds=1, opening=0)
    game = game_in(env, channel)
    assert game.status is GameStatus.PLAYING
    # The lobby message became the table message, edited in place: still one message.
    table = table_message(env, game)
    assert table.embeds[0].title == "Rommé — round 1 of 1"  # R4's house rule: rounds=1
    players = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    for _ in range(400):
        game = game_in(env, channel)
        if not game.running:
            break
        seat = game.to_play
        assert seat is not None, "a one-round match has no break between rounds"
        owner = game.seats[seat]
        assert owner.user_id in players, "the computer's turns happen without any click"
        await players[owner.user_id].play_turn()
    game = game_in(env, channel)
    assert game.status is GameStatus.FINISHED and game.match is not None and game.match.over
    moves = players[room.ada.id].moves + players[room.bob.id].moves
    assert {"draw", "meld", "discard"} <= set(moves)
    # The match end is public, with the winner and Play again; the results are in the statistics.
    messages = [m async for m in bot_channel(env, channel).history(limit=20)]
    ends = [m for m in messages if m.embeds and m.embeds[-1].title == "The match is over"]
    assert len(ends) == 1 and ends[0].components
    # The table says the match is over and links the results message (its jump URL).
    await env.advance_time(2)
    after = table_message(env, game_in(env, channel))
    assert channel.guild is not None
    url = f"https://discord.com/channels/{channel.guild.id}/{channel.id}/{ends[0].id}"
    description = after.embeds[0].description or ""
    assert f"**The match is over:** [see the results]({url})" in description, description
    assert "My hand" not in (after.embeds[0].footer.text or "")
    score = await room.ada.slash(channel, "romme score")
    assert score.response is not None and "Standings" in (score.response.embeds[0].title or "")
    board = await room.bob.slash(channel, "romme score", scope="server")
    assert board.response is not None
    text = "\n".join(field.value or "" for field in board.response.embeds[0].fields)
    # Named as at the table (the members are not in the client's cache), not as raw mentions.
    assert "**ada**" in text and "**bob**" in text, text
    assert f"<@{room.ada.id}>" not in text and f"<@{room.bob.id}>" not in text
    assert "1 match ·" in text  # counted words: "1 match", not "1 matches"


@pytest.mark.slow
async def test_the_round_end_is_public_and_next_round_deals_the_next_round(room: Room) -> None:
    env, channel = room.env, room.channel
    await start_match(room, rounds=2, opening=0)
    players = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    for _ in range(400):
        game = game_in(env, channel)
        if game.between_rounds:
            break
        await players[game.seats[game.to_play].user_id].play_turn()  # type: ignore[index]
    messages = [m async for m in bot_channel(env, channel).history(limit=5)]
    ends = [m for m in messages if m.embeds and m.embeds[0].title == "Round 1 is over"]
    assert len(ends) == 1
    button = first_button(ends[0])
    assert button.label == "Next round" and not button.disabled
    await room.dee.click(ends[0], label="Next round")  # not seated: refused, nothing dealt
    assert game_in(env, channel).between_rounds
    clicked = await room.bob.click(ends[0], label="Next round")
    # The round-end message loses its button and says that the next round has begun.
    assert (
        clicked.response is not None
        and clicked.response.content == "Round 2 has started: the table is below."
    )
    assert not clicked.response.components
    (embed,) = clicked.response.embeds  # the scores stay, without the line about the next round
    assert embed.title == "Round 1 is over" and embed.fields
    assert "next round" not in (embed.description or "").lower(), embed.description
    game = game_in(env, channel)
    assert not game.between_rounds and game.match.round_no == 2  # type: ignore[union-attr]
    assert table_message(env, game).embeds[0].title == "Rommé — round 2 of 2"  # R4's house rule: rounds=2


@pytest.mark.slow
async def test_the_next_round_starts_by_itself_after_thirty_seconds(room: Room) -> None:
    env, channel = room.env, room.channel
    await start_match(room, rounds=2, opening=0, computers=1)
    players = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    for _ in range(400):
        game = game_in(env, channel)
        if game.between_rounds:
            break
        await players[game.seats[game.to_play].user_id].play_turn()  # type: ignore[index]
    await env.advance_time(31)
    game = game_in(env, channel)
    assert game.match.round_no == 2 and not game.between_rounds  # type: ignore[union-attr]
