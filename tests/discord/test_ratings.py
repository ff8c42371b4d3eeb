"""Ratings through Discord: two people and a computer play matches to the end by clicks; the match
end names each person's rating change, ``/romme score`` shows the season's leaderboard by rating and
``/romme profile`` the profile with its chart, in English, German and Indonesian; the leaderboard
pages with its buttons, which another server cannot use; ``/romme season`` needs Manage Server."""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.i18n import t
from bot.playground.session import interaction_locales
from bot.render.ratings import CHART_NAME, CHART_SIZE, MAX_ATTACHMENT
from bot.service.game import Game, GameStatus
from bot.storage import RatedSeat
from tests.discord.play_helpers import Player, Room, bot_channel, component, game_in, romme_bot, texts
from tests.robustness.robust_helpers import answers, fire


@pytest.fixture
def locales() -> Iterator[dict[int, str]]:
    """``{user_id or guild_id: locale}``: the interactions of that member (server) carry it."""
    chosen: dict[int, str] = {}
    with interaction_locales(chosen):
        yield chosen


async def play_match(room: Room) -> Game:
    """Ada opens a one-round lobby with a hard computer, Bob joins, both play by clicks to the end."""
    env, channel = room.env, room.channel
    lobby = await room.ada.slash(
        channel, "romme start", computers=1, rounds=1, opening=0, computer_level="hard"
    )
    assert lobby.response is not None
    await room.bob.click(lobby.response, label="Join")
    await room.ada.click(lobby.response, label="Start")
    players = {room.ada.id: Player(env, room.ada, channel), room.bob.id: Player(env, room.bob, channel)}
    for _ in range(400):
        game = game_in(env, channel)
        if not game.running:
            break
        seat = game.to_play
        assert seat is not None
        await players[game.seats[seat].user_id].play_turn()  # type: ignore[index]
    game = game_in(env, channel)
    assert game.status is GameStatus.FINISHED
    return game


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "de", "id"])
async def test_matches_to_the_end_then_score_and_profile_show_the_ratings(
    room: Room, locales: dict[int, str], language: str
) -> None:
    env, channel = room.env, room.channel
    # The matches are played in English (the test's players click the English labels) …
    for _ in range(2):
        game = await play_match(room)
    assert game.match is not None and game.match.winner is not None

    # The match end names each person's change: "+23 → 1,412".
    messages = [m async for m in bot_channel(env, channel).history(limit=30)]
    ends = [m for m in messages if m.embeds and m.embeds[-1].title == t("match_end.title", "en")]
    assert len(ends) == 2
    last = ends[0].embeds[-1]
    (field,) = [f for f in last.fields if f.name == t("match_end.ratings", "en")]
    shifts = game.rating_shifts
    assert set(shifts) == {room.ada.id, room.bob.id}
    for shift in shifts.values():
        sign = "+" if shift.delta >= 0 else "−"
        assert f"{sign}{abs(shift.delta)} → {shift.after:,}" in (field.value or "")

    # … and the members and the server then speak the language of the test.
    for who in (room.ada.id, room.bob.id, room.guild.id):
        locales[who] = language

    # /romme score scope:server: the season's leaderboard by rating, in the server's language.
    board = await room.bob.slash(channel, "romme score", scope="server")
    assert board.response is not None and not board.ephemeral
    embed = board.response.embeds[0]
    assert embed.title == t("board.title", language, season=1)
    text = texts(board.response)
    assert "**ada**" in text and "**bob**" in text
    for shift in shifts.values():
        assert f"{shift.after:,}".replace(",", t("number.group.rating", language)) in text
    assert t("rating.provisional", language) in text  # two matches: still provisional
    labels = [c["label"] for c in board.response.components[0]["components"]]
    assert labels == [t("button.board.previous", language), t("button.board.next", language)]

    # /romme profile: the rating, the statistics and the chart, one PNG within Discord's limits.
    shown = await room.bob.slash(channel, "romme profile", member=room.ada)
    assert shown.response is not None
    profile = shown.response.embeds[0]
    assert profile.title == t("profile.title", language, name="ada")
    body = "\n".join(f.value or "" for f in profile.fields)
    assert [f.name for f in profile.fields][:2] == [
        t("profile.rating", language, season=1),
        t("profile.stats", language),
    ]
    assert f"{shifts[room.ada.id].after:,}".replace(",", t("number.group.rating", language)) in body
    (chart,) = shown.response.attachments
    assert chart.filename == CHART_NAME and chart.size <= MAX_ATTACHMENT
    assert profile.image.url == f"attachment://{CHART_NAME}"
    data = await chart.read()
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == CHART_SIZE and len(data) == chart.size
    assert len(profile) <= 6000


async def test_the_leaderboard_pages_and_shows_the_callers_own_line(room: Room) -> None:
    env, channel = room.env, room.channel
    ratings = romme_bot(env).tables.ratings
    guild = room.guild.id
    season = await ratings.current_season(guild)
    # 24 rated persons, each in a match of their own against an easy computer; Dee lost hers.
    for n in range(24):
        won = n != 23
        person = room.dee.id if n == 23 else 10_000 + n
        seats = (RatedSeat(0, person, None, 1 if won else 2), RatedSeat(1, None, "easy", 2 if won else 1))
        await ratings._record(900 + n, guild, season.number, datetime.now(UTC), seats)
    first = await room.dee.slash(channel, "romme score", scope="server")
    assert first.response is not None
    text = texts(first.response)
    # Her own line, below the first page (a member never seen at a table is named by a mention).
    assert f"\n…\n24. <@{room.dee.id}>" in text and "\n11." not in text
    assert "Page 1 of 3 · 24 rated" in text
    assert component(first.response, label="Previous").get("disabled") is True
    second = await room.dee.click(first.response, label="Next")
    assert second.response is not None
    assert "Page 2 of 3" in texts(second.response) and "\n11. " in texts(second.response)

    # A new season: the leaderboard starts empty; season 1's final standings stay, under season:1.
    await ratings.start_season(guild, room.ada.id)
    now = await room.dee.slash(channel, "romme score", scope="server")
    assert now.response is not None and now.response.embeds[0].title == "Season 2 leaderboard"
    assert "Nobody has a rating in this season yet" in texts(now.response)
    past = await room.dee.slash(channel, "romme score", season=1)
    assert past.response is not None and past.response.embeds[0].title == "Season 1: final standings"
    assert texts(past.response).replace("Season 1: final standings", "") == text.replace(
        "Season 1 leaderboard", ""
    )
    unknown = await room.dee.slash(channel, "romme score", season=7)
    assert unknown.ephemeral and unknown.response is not None
    assert "no season 7" in unknown.response.content

    # A page button naming another server is refused where it is clicked, and changes nothing.
    other = env.create_guild("Other")
    eve = other.add_member(env.create_user("eve"))
    lounge = other.create_text_channel("lounge")
    elsewhere = await eve.slash(lounge, "romme score", scope="server")
    assert elsewhere.response is not None
    before = texts(elsewhere.response)
    mark = len(env.http_requests)
    result = await fire(eve, elsewhere.response, f"rommelb:{guild}:1:1")
    got = answers(env, result, since=mark)
    assert len(got) == 1 and got[0].ephemeral and "another server" in got[0].content, got
    assert texts(elsewhere.response) == before


async def test_a_new_season_needs_manage_server_and_says_what_resets(room: Room) -> None:
    refused = await room.bob.slash(room.channel, "romme season")
    assert refused.ephemeral and refused.response is not None
    assert "Manage Server" in refused.response.content
    assert await romme_bot(room.env).storage.seasons(room.guild.id) == []
    owner = room.env.create_user("olga")
    guild = room.env.create_guild("Olga's", owner=owner)
    olga = guild.add_member(owner)
    channel = guild.create_text_channel("romme")
    started = await olga.slash(channel, "romme season")
    assert started.response is not None and not started.ephemeral
    assert (
        started.response.content.startswith("Season 1 has begun")
        and t("help.seasons") in started.response.content
    )
    again = await olga.slash(channel, "romme season")
    assert again.response is not None and again.response.content.startswith("Season 2 has begun")
    assert [s.number for s in await romme_bot(room.env).storage.seasons(guild.id)] == [1, 2]
