"""The live hand panel through Discord: it follows the game without its owner's clicks, there is one
per person, a plain turn takes three clicks, the round-end message and the table stay true."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import simcord
from simcord.results import to_discord_message

from bot.service.game import Game, GameStatus
from tests.discord.play_helpers import (
    Message,
    Player,
    Room,
    bot_channel,
    component,
    components,
    enabled,
    game_in,
    romme_bot,
    table_message,
    texts,
)


def kept(env: simcord.Env, game: Game, message_id: int) -> Message:
    """A panel message as Discord holds it now (what its owner sees, without clicking)."""
    return to_discord_message(env, env.backend.get_message(game.channel_id, message_id))


def hand_codes(game: Game, seat: int) -> list[str]:
    assert game.match is not None
    return [str(card) for card in game.match.seat_view(seat).round.hand]


class CountingPlayer(Player):
    """A player who counts every click and select, and discards with the panel's discard select."""

    clicks: int = 0

    async def click(self, label: str) -> simcord.InteractionResult:
        self.clicks += 1
        return await super().click(label)

    async def choose(self, codes: list[str]) -> simcord.InteractionResult:
        self.clicks += 1
        return await super().choose(codes)

    async def target(self, value: str) -> simcord.InteractionResult:
        self.clicks += 1
        return await super().target(value)

    async def open_hand(self) -> Message:
        self.clicks += 1
        return await super().open_hand()

    async def discard(self, code: str) -> simcord.InteractionResult:
        """One choice in the discard select: the card is discarded, the turn ends (R11)."""
        assert self.panel is not None
        self.clicks += 1
        select = component(self.panel, action="drop")
        values = [o["value"] for o in select["options"] if o["value"].split("#")[0] == code][:1]
        assert values, f"{code} is not offered for discarding"
        result = await self.actor.select(self.panel, values, custom_id=select["custom_id"])
        if result.response is not None and result.response.ephemeral:
            self.panel = result.response
        return result


async def alone_with_a_computer(room: Room, **options: Any) -> None:
    """Ada opens a table with one computer player and starts it."""
    result = await room.ada.slash(room.channel, "romme start", computers=1, **options)
    assert result.response is not None
    await room.ada.click(result.response, label="Start")


@pytest.mark.slow
async def test_an_open_panel_follows_the_turns_and_shows_the_round_and_match_end(room: Room) -> None:
    env, channel = room.env, room.channel
    await alone_with_a_computer(room, rounds=1, opening=0)
    ada = CountingPlayer(env, room.ada, channel)
    game = game_in(env, channel)
    seat = ada.seat()
    assert game.to_play == seat  # the computer plays at once when it begins
    panel_id = (await ada.open_hand()).id
    turns = 0
    for _ in range(200):
        game = game_in(env, channel)
        if not game.running:
            break
        assert game.to_play == seat
        # Without any click of Ada's since her last turn, her panel says it is her turn again.
        ada.panel = kept(env, game, panel_id)
        assert "Your turn" in texts(ada.panel) and enabled(ada.panel, "Draw"), texts(ada.panel)
        turns += 1
        while True:
            move = ada.next_move()
            if move.kind == "discard":
                await ada.discard(str(move.card))
            else:
                await ada.play(move)
            assert ada.panel is not None and ada.panel.id == panel_id  # still the one panel
            if move.kind == "discard" or not game_in(env, channel).running:
                break  # the computer's turn is played at once, then Ada's comes back
    assert turns > 2, "the computer played between Ada's turns"
    game = game_in(env, channel)
    assert game.status is GameStatus.FINISHED
    # The round's and the match's end reached the panel: what Ada scored, and who won.
    final = kept(env, game, panel_id)
    assert "The match is over." in texts(final) and "You scored" in texts(final)
    # Who won, in the second person when it is Ada herself (never "ada wins").
    winner = game.match.winner  # type: ignore[union-attr]
    if winner == seat:
        assert "🏆 You win with" in texts(final) and "wins" not in texts(final)
    else:
        assert f"🏆 {game.seats[winner].name} wins with" in texts(final)  # type: ignore[index]
    assert not any(enabled(final, label) for label in ("Draw", "Discard", "Meld"))
    assert ada.clicks >= 2 * turns  # Ada clicked only to play: My hand once, never again


@pytest.mark.slow
async def test_a_plain_turn_takes_three_clicks_and_a_meld_or_lay_off_turn_a_few_more(room: Room) -> None:
    env, channel = room.env, room.channel
    await alone_with_a_computer(room, rounds=2, opening=0)
    ada = CountingPlayer(env, room.ada, channel)
    turns: list[tuple[int, int, int]] = []  # (melds, lay-offs, clicks) of each turn that discarded
    for _ in range(400):
        game = game_in(env, channel)
        if not game.running:
            break
        if game.between_rounds:
            await env.advance_time(31)  # the next round deals itself
            continue
        assert game.to_play == ada.seat()
        ada.clicks, kinds = 0, Counter[str]()
        await ada.open_hand()  # every turn from the table, as if no panel were open
        while True:
            move = ada.next_move()
            kinds[move.kind] += 1
            if move.kind == "discard":
                await ada.discard(str(move.card))
            else:
                await ada.play(move)
            after = game_in(env, channel)
            if move.kind == "discard" or not after.running or after.between_rounds:
                break
        if kinds["discard"] and set(kinds) <= {"draw", "meld", "lay_off", "discard"}:
            turns.append((kinds["meld"], kinds["lay_off"], ada.clicks))
    # My hand, Draw, the discard select (R11); each meld adds the card select and Meld, each lay-off
    # the card select, Lay off and the meld to lay off on (the counts in the README).
    assert all(clicks == 3 + 2 * melds + 3 * lay_offs for melds, lay_offs, clicks in turns), turns
    assert (0, 0, 3) in turns and (1, 0, 5) in turns  # a plain turn, a turn with one meld
    assert any(melds == 0 and lay_offs for melds, lay_offs, _ in turns)  # a turn with lay-offs


async def test_a_second_my_hand_leaves_one_live_panel(room: Room) -> None:
    env, channel = room.env, room.channel
    await alone_with_a_computer(room, opening=0)
    ada = Player(env, room.ada, channel)
    first = await ada.open_hand()
    second = await ada.open_hand()
    game = game_in(env, channel)
    old = kept(env, game, first.id)
    assert "moved" in (old.content or "") and not old.embeds and not components(old)
    assert components(kept(env, game, second.id))
    assert romme_bot(env).publisher.panels.open == 1
    # A change for Ada's seat edits the new panel only.
    await ada.click("Draw")
    assert "moved" in (kept(env, game, first.id).content or "")


@pytest.mark.slow
async def test_a_panel_edit_of_one_seat_never_carries_another_seats_hand(room: Room) -> None:
    env, channel = room.env, room.channel
    result = await room.ada.slash(channel, "romme start", opening=0)
    assert result.response is not None
    await room.bob.click(result.response, label="Join")
    await room.ada.click(result.response, label="Start")
    players = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    ids = {user_id: (await player.open_hand()).id for user_id, player in players.items()}
    owner_of = {message_id: user_id for user_id, message_id in ids.items()}
    start = len(env.http_requests)
    for _ in range(6):  # three turns each, played from the live panels
        game = game_in(env, channel)
        person = players[game.seats[game.to_play].user_id]  # type: ignore[index]
        person.panel = kept(env, game, ids[person.actor.id])
        while game_in(env, channel).to_play == person.seat():
            await person.play(person.next_move())
    game = game_in(env, channel)
    edits = [r for r in env.http_requests[start:] if r.method == "PATCH" and "/webhooks/" in r.path]
    assert edits, "the panels of the seat whose turn came were edited"
    for user_id, message_id in ids.items():
        seat = game.seat_of(user_id)
        assert seat is not None
        panel = kept(env, game, message_id)
        shown = [
            value.split("#")[0]
            for value in (o["value"] for o in component(panel, action="select")["options"])
        ]
        assert sorted(shown) == sorted(hand_codes(game, seat))  # R19: its own cards, all of them
        others = [m.id for m in channel.history(viewer=other(room, user_id))]
        assert message_id not in others  # nobody else sees it
    for request in edits:
        message_id = int(request.path.rsplit("/", 1)[1])
        assert message_id in owner_of, "only kept panels are edited through a token"


def other(room: Room, user_id: int) -> simcord.MemberActor:
    return room.bob if user_id == room.ada.id else room.ada


async def test_an_expired_token_stops_the_edits_and_the_next_click_refreshes_the_panel(room: Room) -> None:
    env, channel = room.env, room.channel
    result = await room.ada.slash(channel, "romme start", opening=0)
    assert result.response is not None
    await room.bob.click(result.response, label="Join")
    await room.ada.click(result.response, label="Start")
    game = game_in(env, channel)
    people = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    on_turn = people[game.seats[game.to_play].user_id]  # type: ignore[index]
    waiting = people[room.bob.id if on_turn.actor is room.ada else room.ada.id]
    stale = await waiting.open_hand()
    await on_turn.open_hand()
    # Discord refuses the waiting person's panel edit: its token is dead (50027).
    env.inject_error("PATCH", f"/webhooks/*/*/messages/{stale.id}", status=401, code=50027)
    while game_in(env, channel).to_play == on_turn.seat():
        await on_turn.play(on_turn.next_move())
    assert romme_bot(env).publisher.panels.open == 1  # only the mover's panel is kept now
    waiting.panel = kept(env, game, stale.id)
    assert not enabled(waiting.panel, "Draw")  # the edit never reached it
    refreshed = await waiting.click("Sort")  # a click brings a fresh interaction, and a fresh panel
    assert refreshed.response is not None and refreshed.response.id == stale.id
    assert enabled(refreshed.response, "Draw") and "Your turn" in texts(refreshed.response)
    assert romme_bot(env).publisher.panels.open == 2


@pytest.mark.slow
async def test_the_round_end_message_and_the_table_stay_true_when_the_next_round_starts(room: Room) -> None:
    env, channel = room.env, room.channel
    await alone_with_a_computer(room, rounds=2, opening=0)
    ada = Player(env, room.ada, channel)
    first_table = game_in(env, channel).table_message_id
    for _ in range(400):
        game = game_in(env, channel)
        if game.between_rounds:
            break
        await ada.play_turn()
    ends = [m async for m in bot_channel(env, channel).history(limit=5)]
    end = next(m for m in ends if m.embeds and m.embeds[0].title == "Round 1 is over")
    assert component(end, label="Next round")
    await env.advance_time(31)  # the next round deals itself
    game = game_in(env, channel)
    assert game.match is not None and game.match.round_no == 2
    end = to_discord_message(env, env.backend.get_message(channel.id, end.id))
    assert end.content == "Round 2 has started: the table is below." and not components(end)
    # Its scores stay; the line about when the next round starts goes (it would read "31 seconds ago").
    assert end.embeds[0].title == "Round 1 is over" and end.embeds[0].fields
    assert "next round" not in (end.embeds[0].description or "").lower(), end.embeds[0].description
    # The table of round 2 is a fresh message below; the old one is a short line without buttons.
    assert game.table_message_id != first_table and first_table is not None
    old = to_discord_message(env, env.backend.get_message(channel.id, first_table))
    assert "Round 1 was played here" in (old.content or "") and not components(old) and not old.embeds
    assert table_message(env, game).embeds[0].title == "Rommé — round 2 of 2"
    assert game.table_message_id is not None and game.table_message_id > end.id


@pytest.mark.slow
async def test_score_after_play_again_shows_the_match_just_finished(room: Room) -> None:
    env, channel = room.env, room.channel
    await alone_with_a_computer(room, rounds=1, opening=0)
    ada = Player(env, room.ada, channel)
    for _ in range(400):
        if not game_in(env, channel).running:
            break
        await ada.play_turn()
    finished = game_in(env, channel)
    messages = [m async for m in bot_channel(env, channel).history(limit=10)]
    end = next(m for m in messages if m.embeds and m.embeds[-1].title == "The match is over")
    await room.ada.click(end, label="Play again")
    assert game_in(env, channel).status is GameStatus.LOBBY
    score = await room.ada.slash(channel, "romme score")
    assert score.response is not None
    assert score.response.embeds[0].title == f"Standings — game {finished.id}"
    table = table_message(env, finished)
    assert "the match is over" in (table.embeds[0].footer.text or "")


@pytest.mark.parametrize(
    "status,code,retried",
    [(500, 0, True), (429, 0, True), (404, 10008, False), (404, 10062, False), (401, 50027, False)],
    ids=["a Discord error", "a rate limit", "the panel was dismissed", "unknown interaction", "dead token"],
)
@pytest.mark.slow
async def test_a_refused_panel_edit_is_retried_or_given_up_as_the_fault_says(
    room: Room, status: int, code: int, retried: bool
) -> None:
    env, channel = room.env, room.channel
    result = await room.ada.slash(channel, "romme start", opening=0)
    assert result.response is not None
    await room.bob.click(result.response, label="Join")
    await room.ada.click(result.response, label="Start")
    game = game_in(env, channel)
    people = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    on_turn = people[game.seats[game.to_play].user_id]  # type: ignore[index]
    waiting = people[room.bob.id if on_turn.actor is room.ada else room.ada.id]
    panel = await waiting.open_hand()
    await on_turn.open_hand()
    path = f"/webhooks/*/*/messages/{panel.id}"
    env.inject_error("PATCH", path, status=status, code=code, times=1)
    while game_in(env, channel).to_play == on_turn.seat():
        await on_turn.play(on_turn.next_move())
    await env.advance_time(5)  # past the first retry's pause (2 s)
    tries = [r for r in env.http_requests if r.method == "PATCH" and r.path.endswith(f"/messages/{panel.id}")]
    shown = kept(env, game, panel.id)
    if retried:
        assert len(tries) >= 2 and enabled(shown, "Draw"), "the edit was tried again and went through"
        assert romme_bot(env).publisher.panels.open == 2
    else:
        assert len(tries) == 1 and not enabled(shown, "Draw"), "a panel out of reach is not tried again"
        assert romme_bot(env).publisher.panels.open == 1


async def test_after_the_token_life_the_panel_is_let_be(room: Room) -> None:
    env, channel = room.env, room.channel
    result = await room.ada.slash(channel, "romme start", opening=0, turn_timeout=600)
    assert result.response is not None
    await room.bob.click(result.response, label="Join")
    await room.ada.click(result.response, label="Start")
    game = game_in(env, channel)
    people = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    waiting = people[room.bob.id if game.seats[game.to_play].user_id == room.ada.id else room.ada.id]  # type: ignore[index]
    panel = await waiting.open_hand()

    def edits() -> int:
        return sum(
            1 for r in env.http_requests if r.method == "PATCH" and r.path.endswith(f"/messages/{panel.id}")
        )

    # Nobody clicks: the turn timer (10 minutes) plays the other seat's turn, and the waiting
    # person's panel shows that their turn has come: its token still lives.
    await env.advance_time(605)
    assert edits() == 1 and enabled(kept(env, game, panel.id), "Draw")
    # Two more turns pass by the timer, after the token's 15 minutes: the panel is let be.
    version = game_in(env, channel).version
    await env.advance_time(1200)
    assert game_in(env, channel).version > version and game_in(env, channel).running
    assert edits() == 1 and romme_bot(env).publisher.panels.open == 0
