"""Issue 36: one outcome per match. What happened in a finished match (each seat's place, who won,
what it counts for its person) is decided once, and every surface says the same: the match-end
embed, ``/romme score`` (the game's standings and ``user:``), ``/romme profile``, ``/romme history``
and the stored rating. Played through the real bot in SimCord.

The match: Ada, Bob and Cy end the one planned round 100, 100 and 99 (the stored game the bot
brings back at its start), so Ada and Bob play a tie-break round (R6); Bob leaves at its start and
the computer playing his seat wins it: Bob 217, Ada 98, Cy 99. The places are Ada 1 (the only one
who stayed in the race for the top, R6: Cy was out of it, whatever his total), Cy 2, Bob 3 (a
leaver ranks below everyone who stayed, however far ahead on points); Ada wins; each of the three
has one match counted, his seat left or not.

Before the outcome the four rules gave four answers: the embed named Bob the winner and listed
Bob, Cy, Ada; the rating ranked Cy, Ada, Bob; the statistics counted no win and no match for Bob.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import RommeBot
from bot.engine.match import Match
from bot.engine.outcome import Outcome
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.i18n import t
from bot.service.game import Game, GameStatus, Seat
from bot.storage import Save
from tests.discord.play_helpers import Player, Room, bot_channel, game_in, romme_bot, texts
from tests.realserver.hold_up import bot_on
from tests.robustness.broken_tables import virtual_only

RULES = RuleSet(rounds=1, opening=0)
POST = ("POST", "/channels/*/messages")
EDIT = ("PATCH", "/channels/*/messages/*")


def tied_after_the_planned_round(room: Room, game_id: int) -> Game:
    """The game as saved when its one planned round ended 100, 100, 99: a tie-break round among
    Ada and Bob (seats 0 and 1) dealt by Bob, Cy sitting out (R6)."""
    rng = random.Random(7)  # the computer playing for Bob wins the tie-break
    scores = (100, 100, 99)
    result = RoundResult(out=2, melded=scores, in_hand=(0, 0, 0), scores=scores, hand_romme=False)
    match = Match(
        n_seats=3,
        rules=RULES,
        rng=rng,
        dealer=1,
        round_no=2,
        round_seats=[0, 1],
        finished=[result],
        current=Round.deal(2, rules=RULES, dealer=1, rng=rng),
    )
    seats = [Seat(person.id, person.name, own_moves=12) for person in (room.ada, room.bob, room.cy)]
    return Game(
        id=game_id,
        guild_id=room.guild.id,
        channel_id=room.channel.id,
        host_id=room.ada.id,
        status=GameStatus.PLAYING,
        rules=RULES,
        seats=seats,
        match=match,
        recorded_rounds=1,
    )


async def play_the_tiebreak(
    room: Room, database_path: Path, *, posts_refused: bool = False
) -> tuple[RommeBot, Game]:
    """The stored tie-break brought back by a restarted bot; Bob leaves, Ada plays it out (the
    computer playing for Bob makes its last move). ``posts_refused``: from Bob's leave on, Discord
    refuses every channel post and edit (500): the bot stops between the save that ends the match
    and its announcement."""
    env = room.env
    old = romme_bot(env)
    game_id = await old.storage.create_game(
        guild_id=room.guild.id,
        channel_id=room.channel.id,
        host_id=room.ada.id,
        snapshot=tied_after_the_planned_round(room, 0).to_snapshot(),
        status=GameStatus.PLAYING,
    )
    snapshot = tied_after_the_planned_round(room, game_id).to_snapshot()
    await old.storage.save_game(Save(game_id, snapshot, GameStatus.PLAYING, expected_version=1))
    fresh = bot_on(database_path)
    await env.restart_bot(fresh)
    await old.close()
    game = game_in(env, room.channel)
    assert game.id == game_id and game.match is not None and game.match.tiebreak
    left = await room.bob.slash(room.channel, "romme leave")
    assert left.response is not None
    if posts_refused:
        env.inject_error(*POST, status=500, times=None)
        env.inject_error(*EDIT, status=500, times=None)
    ada = Player(env, room.ada, room.channel)
    for _ in range(600):
        game = game_in(env, room.channel)
        if not game.running:
            break
        if game.between_rounds:  # a second tie-break
            await env.advance_time(30)
        elif game.to_play == 0:
            await ada.play_turn()
        else:
            await env.advance_time(1)
    assert game.status is GameStatus.FINISHED and not game.ended_early
    await env.advance_time(5)  # the announcement delivered (or not, posts refused)
    return fresh, game


def match_ends(room: Room) -> list[discord.Message]:
    """The channel's match-end announcements."""
    return [
        message
        for message in room.channel.history()
        if not message.flags.ephemeral and any(e.title == t("match_end.title") for e in message.embeds)
    ]


def places_in(text: str, pattern: str) -> list[str]:
    """The names in ``text`` in the order ``pattern`` (a regex with the groups place and name) finds them."""
    return [f"{m['place']}:{m['name']}" for m in re.finditer(pattern, text)]


async def test_one_place_one_winner_one_count_on_every_surface(room: Room, database_path: Path) -> None:
    # R6: the tie-break decides the top among the tied seats; a leaver ranks below those who stayed.
    bot, game = await play_the_tiebreak(room, database_path)
    try:
        assert game.match is not None
        env = room.env
        totals = game.match.totals
        assert totals == [98, 217, 99]
        expected = ["1:ada", "2:cy", "3:bob"]

        # The match-end embed in the channel: the winner and the final standings.
        messages = [m async for m in bot_channel(env, room.channel).history(limit=20)]
        end = next(m for m in messages if m.embeds and m.embeds[-1].title == t("match_end.title"))
        shown = texts(end)
        assert t("match_end.winner", name="ada", points=totals[0]) in shown, shown
        assert places_in(shown, r"(?P<place>\d)\. \*\*(?P<name>\w+)\*\* —") == expected, shown

        # /romme score: the game's standings.
        score = await room.ada.slash(room.channel, "romme score")
        assert score.response is not None
        standings = texts(score.response)
        assert places_in(standings, r"(?P<place>\d)\. \*\*(?P<name>\w+)\*\* —") == expected, standings

        # /romme history: the match's players by place.
        history = await room.ada.slash(room.channel, "romme history")
        assert history.response is not None
        listed = texts(history.response)
        assert places_in(listed, r"(?P<place>\d)\. (?P<name>\w+) \(") == expected, listed

        # The outcome the save that ended the match wrote, in its snapshot: what every surface reads.
        saved = await bot.storage.get_game(game.id)
        assert saved is not None
        stored = Outcome.of(saved.snapshot["recorded_outcome"])
        assert stored.places == (1, 3, 2) and stored.winners == (0,) and stored.over
        assert [row.left for row in stored.seats] == [False, True, False]

        # The stored rating: the same places, Ada's the one win.
        (rated,) = await bot.storage.rated_matches(room.guild.id)
        by_person = {seat.user_id: seat for seat in rated.seats}
        assert [by_person[p.id].place for p in (room.ada, room.cy, room.bob)] == [1, 2, 3]
        assert by_person[room.bob.id].left and not by_person[room.ada.id].left

        # /romme score user: and /romme profile count one match each, Ada's the only win.
        for person, wins in ((room.ada, 1), (room.bob, 0), (room.cy, 0)):
            record = await room.dee.slash(room.channel, "romme score", user=person)
            assert record.response is not None
            body = texts(record.response)
            assert "Matches: 1\n" in body and f"Wins: {wins}\n" in body, (person.name, body)
            profile = await room.dee.slash(room.channel, "romme profile", member=person)
            assert profile.response is not None
            shown_profile = texts(profile.response)
            assert "Matches: 1\n" in shown_profile, (person.name, shown_profile)
            assert f"Wins: {wins} (" in shown_profile, (person.name, shown_profile)
    finally:
        await bot.close()


async def test_the_match_end_posted_after_a_restart_keeps_its_rating_line(
    room: Room, database_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The refused posts' retries fire on SimCord's clock only: on a loaded machine their real-clock
    # fallback kept the first bot busy past the restart's settling (a model of the clock, not of the
    # bot: see virtual_only).
    monkeypatch.setattr(simcord.Env, "_schedule_timer", virtual_only(simcord.Env._schedule_timer))
    # Saved and rated, never posted (Discord refused every post until the bot was gone): the next
    # bot posts the match's end with the rating line of the stored rating rows, as the first would.
    env = room.env
    bot, game = await play_the_tiebreak(room, database_path, posts_refused=True)
    assert match_ends(room) == []
    (rated,) = await bot.storage.rated_matches(room.guild.id)
    env.backend.faults.clear()
    again = bot_on(database_path)
    await env.restart_bot(again)
    await bot.close()
    try:
        await env.advance_time(30)
        (end,) = match_ends(room)
        shown = texts(end)
        assert t("match_end.winner", name="ada", points=98) in shown, shown
        changes = {change.user_id: change for change, _ in await again.storage.game_rating_changes(game.id)}
        assert set(changes) == {room.ada.id, room.bob.id, room.cy.id}
        assert t("match_end.ratings") in shown, shown
        lines = re.findall(r"\*\*(\w+)\*\*: ([+−]\d+) → ([\d,]+) \(provisional\)", shown)
        assert [name for name, _, _ in lines] == ["ada", "cy", "bob"], shown  # by place
        assert lines[0][1].startswith("+") and lines[2][1].startswith("−"), shown
        assert await again.storage.rated_matches(room.guild.id) == [rated]  # not rated twice
    finally:
        await again.close()
