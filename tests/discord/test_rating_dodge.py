"""Issue 35, defect 2: no way of ending a match lets a person escape a loss or take a gain from
whoever is ahead. Played through the real bot in SimCord, by clicks and slash commands.

- A seated player who stops the match (``/romme stop``, the host) is ranked below everyone who
  stayed, and the match is rated on the standings so far (also before any round has ended).
- A member who is not seated (Manage Server, the game-master role) who stops it: rated on the
  standings so far once a round has ended, unrated before.
- A game nobody played for ``IDLE_GAME_TIMEOUT`` ends itself: rated as a member not seated stops it.
- The stopped table's message (its match-end embed) says whether and how the match was rated, and
  ``Ratings.recompute`` gives the stored numbers again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import simcord

from bot.client import RommeBot
from bot.i18n import t
from bot.playground.session import interaction_locales
from bot.service.game import Game, GameStatus
from bot.service.ratings import DEFAULT_MU
from tests.discord.play_helpers import Player, Room, components, game_in, table_message, texts
from tests.realserver.hold_up import bot_on

SEED = 1
IDLE = 300


@pytest.fixture
def admin(room: Room) -> simcord.MemberActor:
    """Dee has Manage Server (a role that grants it) and sits at no table: a moderator."""
    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.dee.id, role.id)
    return room.dee


async def open_match(room: Room, host: simcord.MemberActor, guest: simcord.MemberActor) -> Game:
    """``host`` opens a three-round lobby without opening points, ``guest`` joins, the match starts."""
    lobby = await host.slash(room.channel, "romme start", rounds=3, opening=0)
    assert lobby.response is not None
    await guest.click(lobby.response, label="Join")
    await host.click(lobby.response, label="Start")
    game = game_in(room.env, room.channel)
    assert game.running
    return game


async def play_round(room: Room, *people: simcord.MemberActor) -> Game:
    """``people`` play the round by clicks until it ends (the match goes on, between rounds)."""
    players = {person.id: Player(room.env, person, room.channel) for person in people}
    for _ in range(400):
        game = game_in(room.env, room.channel)
        if game.between_rounds or not game.running:
            return game
        seat = game.to_play
        assert seat is not None
        await players[game.seats[seat].user_id].play_turn()  # type: ignore[index]
    raise AssertionError("the round did not end")


async def stop(member: simcord.MemberActor, room: Room, consequence: str) -> str:
    """``member`` runs ``/romme stop``, is told how the match would be rated (the catalog's
    ``consequence``), and confirms; what the confirmation then says."""
    asked = await member.slash(room.channel, "romme stop")
    assert asked.ephemeral and asked.response is not None, asked
    assert asked.response.content == t("stop.confirm") + "\n" + t(consequence)
    done = await member.click(asked.response, label=t("button.stop_yes"))
    assert done.response is not None and done.response.ephemeral
    return str(done.response.content)


async def ratings_of(bot: RommeBot, guild_id: int) -> dict[int, tuple[float, float]]:
    """Every stored rating of the server's running season, by person."""
    season = await bot.tables.ratings.current_season(guild_id)
    board = await bot.storage.season_board(guild_id, season.number, 0, 100)
    return {line.rating.user_id: (line.rating.mu, line.rating.sigma) for line in board}


@pytest.fixture
async def bot(room: Room, database_path: Path) -> AsyncIterator[RommeBot]:
    """The bot again on the room's database with the deal of seed 1 (after its first round Bob leads
    Ada, who hosts, 113 to 25), its games ending after 300 s without a person's move."""
    env = room.env
    old = env.bot
    fresh = bot_on(database_path, game_seed=SEED, idle_game_timeout=IDLE)
    await env.restart_bot(fresh)
    await old.close()
    try:
        yield fresh
    finally:
        await fresh.close()


async def restarted(room: Room, database_path: Path, bot: RommeBot) -> RommeBot:
    """The bot started again on the same database (closed by the caller)."""
    again = bot_on(database_path, game_seed=SEED, idle_game_timeout=IDLE)
    await room.env.restart_bot(again)
    await bot.close()
    return again


def shown_text(room: Room, game: Game) -> str:
    """What the stopped game's table message (its match-end embed) says."""
    return texts(table_message(room.env, game_in(room.env, room.channel)))


async def test_the_host_far_behind_stops_and_is_ranked_last_the_leader_gains(
    room: Room, bot: RommeBot, database_path: Path
) -> None:
    game = await open_match(room, room.ada, room.bob)
    game = await play_round(room, room.ada, room.bob)
    assert game.match is not None and game.match.totals == [25, 113]  # Ada hosts, far behind
    said = await stop(room.ada, room, "stop.confirm.leaver")
    assert said == t("stop.done") + "\n" + t("match_end.rated.leaver", count=1, name="ada")
    game = game_in(room.env, room.channel)
    assert game.status is GameStatus.FINISHED and game.stopped_by == room.ada.id

    (match,) = await bot.storage.rated_matches(room.guild.id)
    ada, bob = match.seats
    assert (ada.user_id, ada.place, ada.left) == (room.ada.id, 2, True)
    assert (bob.user_id, bob.place, bob.left) == (room.bob.id, 1, False)
    rated = await ratings_of(bot, room.guild.id)
    assert rated[room.bob.id][0] > DEFAULT_MU > rated[room.ada.id][0]
    # First place counts as a win in the season's count, and in the statistics: one outcome for both
    # (issue 36), Ada's stop a match lost.
    season = await bot.tables.ratings.current_season(room.guild.id)
    wins = {
        line.rating.user_id: line.rating.wins
        for line in await bot.storage.season_board(room.guild.id, season.number, 0, 10)
    }
    assert wins == {room.bob.id: 1, room.ada.id: 0}
    stats = {
        row.user_id: (row.matches_played, row.matches_won)
        for row in await bot.storage.leaderboard(room.guild.id)
    }
    assert stats == {room.bob.id: (1, 1), room.ada.id: (1, 0)}

    # The table's match-end message says how the match was rated, and each change.
    text = shown_text(room, game)
    assert t("match_end.rated.leaver", count=1, name="ada") in text, text
    assert "Rated on the standings after 1 round; ada stopped the match and is ranked last." in text
    assert t("match_end.ratings") in text

    # A recompute from what is stored gives the stored numbers; a restart rates nothing again.
    assert await bot.tables.ratings.recompute(room.guild.id) == 1
    assert await ratings_of(bot, room.guild.id) == rated
    again = await restarted(room, database_path, bot)
    try:
        assert await again.storage.rated_matches(room.guild.id) == [match]
        assert await ratings_of(again, room.guild.id) == rated
    finally:
        await again.close()


async def test_the_host_who_stops_before_any_round_ended_is_ranked_last_too(
    room: Room, bot: RommeBot
) -> None:
    await open_match(room, room.ada, room.bob)
    for person in (room.bob, room.ada):  # a turn each; the round goes on
        await Player(room.env, person, room.channel).play_turn()
    game = game_in(room.env, room.channel)
    assert game.match is not None and not game.match.history
    await stop(room.ada, room, "stop.confirm.leaver")
    (match,) = await bot.storage.rated_matches(room.guild.id)
    assert [(seat.place, seat.left) for seat in match.seats] == [(2, True), (1, False)]
    rated = await ratings_of(bot, room.guild.id)
    assert rated[room.bob.id][0] > DEFAULT_MU > rated[room.ada.id][0]
    assert t("match_end.rated.leaver_no_round", name="ada") in shown_text(room, game)


async def test_a_moderator_who_stops_before_any_round_ended_leaves_the_match_unrated(
    room: Room, bot: RommeBot, admin: simcord.MemberActor, database_path: Path
) -> None:
    await open_match(room, room.ada, room.bob)
    for person in (room.bob, room.ada):
        await Player(room.env, person, room.channel).play_turn()
    said = await stop(admin, room, "stop.confirm.unrated")
    assert said == t("stop.done") + "\n" + t("match_end.unrated.no_round")
    game = game_in(room.env, room.channel)
    assert game.status is GameStatus.FINISHED and game.stopped_by == admin.id
    assert await ratings_of(bot, room.guild.id) == {}
    assert game.rating_shifts == {}
    text = shown_text(room, game)
    assert t("match_end.unrated.no_round") in text and t("match_end.ratings") not in text
    # The next start looks at it once and rates nothing.
    again = await restarted(room, database_path, bot)
    try:
        assert await ratings_of(again, room.guild.id) == {}
        assert await again.tables.ratings.rate_missed(again.tables.owns) == 0
    finally:
        await again.close()


async def test_a_moderator_who_stops_after_a_round_rates_the_standings_so_far(
    room: Room, bot: RommeBot, admin: simcord.MemberActor
) -> None:
    await open_match(room, room.ada, room.bob)
    game = await play_round(room, room.ada, room.bob)
    await stop(admin, room, "stop.confirm.standings")
    (match,) = await bot.storage.rated_matches(room.guild.id)
    assert [(seat.user_id, seat.place, seat.left) for seat in match.seats] == [
        (room.ada.id, 2, False),
        (room.bob.id, 1, False),
    ]
    rated = await ratings_of(bot, room.guild.id)
    assert rated[room.bob.id][0] > DEFAULT_MU > rated[room.ada.id][0]
    text = shown_text(room, game)
    assert t("match_end.rated.standings", count=1) in text and t("match_end.ratings") in text


async def test_a_game_master_who_stops_for_a_friend_is_a_moderator_not_a_way_out(
    room: Room, bot: RommeBot, admin: simcord.MemberActor
) -> None:
    """The game-master role (``/romme settings``) stops Ada's match for her, far behind after round
    1: the match is rated on the standings so far all the same."""
    masters = room.guild.create_role("Game masters")
    room.env.backend.add_member_role(room.guild.id, room.cy.id, masters.id)
    panel = await admin.slash(room.channel, "romme settings")
    assert panel.response is not None
    (role_select,) = [c for c in components(panel.response) if str(c.get("custom_id")).endswith(":role")]
    chosen = await admin.select(panel.response, [masters], custom_id=role_select["custom_id"])
    assert chosen.response is not None and f"<@&{masters.id}>" in chosen.response.content
    await open_match(room, room.ada, room.bob)
    await play_round(room, room.ada, room.bob)
    await stop(room.cy, room, "stop.confirm.standings")
    rated = await ratings_of(bot, room.guild.id)
    assert rated[room.bob.id][0] > DEFAULT_MU > rated[room.ada.id][0]


async def test_an_idle_close_after_a_round_rates_the_standings_so_far(room: Room, bot: RommeBot) -> None:
    await open_match(room, room.ada, room.bob)
    await play_round(room, room.ada, room.bob)
    await room.env.advance_time(IDLE + 10)  # nobody makes a move: the game ends by itself
    game = game_in(room.env, room.channel)
    assert game.status is GameStatus.FINISHED and game.closed_by == "idle"
    (match,) = await bot.storage.rated_matches(room.guild.id)
    assert [(seat.place, seat.left) for seat in match.seats] == [(2, False), (1, False)]
    rated = await ratings_of(bot, room.guild.id)
    assert rated[room.bob.id][0] > DEFAULT_MU > rated[room.ada.id][0]
    text = shown_text(room, game)
    assert t("match_end.idle") in text and t("match_end.rated.standings", count=1) in text


async def test_an_idle_close_before_any_round_ended_is_unrated(room: Room, bot: RommeBot) -> None:
    await open_match(room, room.ada, room.bob)
    for person in (room.bob, room.ada):
        await Player(room.env, person, room.channel).play_turn()
    await room.env.advance_time(IDLE + 10)
    game = game_in(room.env, room.channel)
    assert game.status is GameStatus.FINISHED and game.closed_by == "idle"
    assert game.match is not None and not game.match.history
    assert await ratings_of(bot, room.guild.id) == {}
    assert t("match_end.unrated.no_round") in shown_text(room, game)


@pytest.mark.parametrize("language", ["de", "id"])
async def test_the_stop_says_how_it_is_rated_in_the_members_language(
    room: Room, bot: RommeBot, language: str
) -> None:
    await open_match(room, room.ada, room.bob)
    for person in (room.bob, room.ada):
        await Player(room.env, person, room.channel).play_turn()
    with interaction_locales({room.ada.id: language}):
        asked = await room.ada.slash(room.channel, "romme stop")
        assert asked.response is not None
        assert asked.response.content == t("stop.confirm", language) + "\n" + t(
            "stop.confirm.leaver", language
        )
        done = await room.ada.click(asked.response, label=t("button.stop_yes", language))
    assert done.response is not None
    line = t("match_end.rated.leaver_no_round", language, name="ada")
    assert done.response.content == t("stop.done", language) + "\n" + line
    assert line != t("match_end.rated.leaver_no_round", "en", name="ada")  # said in the language
