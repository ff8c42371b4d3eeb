"""Every screen of two seeded matches drawn in each language: no English word on a German or
Indonesian screen (a key falling back to English, or English written into a renderer, shows here).

The matches are the rendering tests' seeded ones (``tests.render.pinned_states``), played to their
end by the computer: the lobby in each of its states, the table and the hand panel after every move
and deal, the five panel variants and the hint at the states the pinned drawings pick, the round
ends, the standings, the match end (won, stopped, ended by itself), the rules, every refusal, the
leaderboard and a player's record.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime

import discord
import pytest

from bot.engine.errors import IllegalMove
from bot.engine.rules import RuleSet
from bot.i18n import LOCALES, speaking, t
from bot.i18n.en import MESSAGES as EN
from bot.render import (
    hand_panel,
    hint,
    leaderboard,
    lobby,
    match_end,
    player_record,
    refusal,
    refusal_for,
    round_end,
    rules_summary,
    standings,
    stop_confirm,
    table,
    table_content,
)
from bot.render.ratings import profile, season_board
from bot.render.settings import help_embed, numbers_modal, preferences_panel, settings_panel
from bot.service import TABLE_ERROR_CODES, TableError
from bot.service.game import Game, GameStatus, Seat, TurnEvent
from bot.service.ratings import Board, Line, Profile
from bot.service.settings import MemberPreferences, ServerSettings
from bot.storage.records import PlayerStats, ProfileCounts, RatingChange, Season
from tests.i18n.words import english_words
from tests.render.pinned_states import _picked, drawings, played_states
from tests.render.render_helpers import components, embed_text, visible

Screen = tuple[str, str]
"""(what it is, all its visible text)."""

NAMES = ["Anna", "Bartholomäus", "Computer 2", "Dewi", "Eko", "Computer 5"]
"""Seat names that are no English words (the seeded seats are partly English sentences)."""


def view_text(view: discord.ui.View) -> str:
    parts = []
    for item in components(view):
        parts += [item.get("label") or "", item.get("placeholder") or ""]
        parts += [option["label"] for option in item.get("options", [])]
    return visible("\n".join(parts))


def drawn(
    what: str, embeds: list[discord.Embed], view: discord.ui.View | None = None, content: str = ""
) -> Screen:
    text = "\n".join([content, *(embed_text(embed) for embed in embeds), view_text(view) if view else ""])
    return what, text


def message(what: str, embed_and_view: tuple[discord.Embed, discord.ui.View]) -> Screen:
    embed, view = embed_and_view
    return drawn(what, [embed], view)


def renamed(game: Game) -> Game:
    game.seats = [replace(seat, name=NAMES[index]) for index, seat in enumerate(game.seats)]
    return game


def matches() -> list[list[Game]]:
    four = played_states(3, 4, RuleSet(rounds=2))
    three = played_states(
        11, 3, RuleSet(jokers=6, opening=30, scoring="penalty", discard_to_go_out=True, rounds=1)
    )
    return [[renamed(game) for game in states] for states in (four, three)]


def lobbies() -> Iterator[Game]:
    game = Game(id=5, guild_id=1, channel_id=2, host_id=101, computers=2, turn_timeout=90, language="de")
    game.seats = [
        Seat(101, "Anna"),
        Seat(None, "Computer 1", computer=True),
        Seat(None, "Computer 2", computer=True),
    ]
    yield game
    full = copy.deepcopy(game)
    full.seats += [Seat(104, "Dewi"), Seat(105, "Eko"), Seat(None, "Computer 3", computer=True)]
    full.rules = RuleSet(
        jokers=6, opening=0, scoring="penalty", hand_romme=True, discard_to_go_out=True, rounds=3
    )
    yield full
    yield replace(game, status=GameStatus.CANCELLED)
    yield replace(game, status=GameStatus.CANCELLED, closed_by="lobby_timeout")
    yield replace(game, status=GameStatus.PLAYING)


def with_things_that_happened(game: Game) -> Game:
    """The state with the events no seeded computer game has: a timeout, away, back, left."""
    game = copy.deepcopy(game)
    game.last_turn = [
        TurnEvent(seat=0, kind="timeout", auto=True),
        TurnEvent(seat=0, kind="draw", source="stock", auto=True),
        TurnEvent(seat=0, kind="discard", card="7H", auto=True),
        TurnEvent(seat=1, kind="away"),
        TurnEvent(seat=3, kind="left"),
        TurnEvent(seat=4 % len(game.seats), kind="back"),
    ]
    return game


def screens() -> Iterator[Screen]:
    """Every screen, drawn in the language being spoken."""
    for game in lobbies():
        yield message(f"lobby {game.status}", lobby(game))
    for states in matches():
        picked = {id(game) for game in _picked(states)}
        for game in states:
            assert game.match is not None
            embed, view = table(game)
            yield drawn(f"table {game.id}v{game.version}", [embed], view, table_content(game) or "")
            seat = game.to_play if game.to_play is not None else game.match.round_seats[0]
            yield message(f"panel {game.id}v{game.version}", hand_panel(game, seat))
            if id(game) in picked:
                found = drawings(game)
                for name, panel in found["panels"].items():
                    embed = discord.Embed.from_dict(panel["embed"])
                    options = [
                        option["label"]
                        for row in panel["components"]
                        for item in row["components"]
                        for option in item.get("options", [])
                    ]
                    labels = [
                        item.get("label") or item.get("placeholder") or ""
                        for row in panel["components"]
                        for item in row["components"]
                    ]
                    yield (
                        f"panel {name} {game.id}v{game.version}",
                        "\n".join([embed_text(embed), *labels, *options]),
                    )
                for other in game.match.round_seats:
                    yield drawn(f"hint {other} {game.id}v{game.version}", [hint(game, other)])
                happened = with_things_that_happened(game)
                yield drawn(f"table events {game.id}v{game.version}", [table(happened)[0]])
            if game.match.round.over:
                yield drawn(f"round end {game.id}v{game.version}", [round_end(game)[0]], round_end(game)[1])
                yield drawn(f"standings {game.id}v{game.version}", [standings(game)])
        last = states[-1]
        yield message(f"match end {last.id}", match_end(last))
        stopped = replace(last, stopped_by=101)
        yield drawn(f"match stopped {last.id}", [match_end(stopped)[0]], match_end(stopped)[1])
        idle = replace(last, closed_by="idle")
        yield drawn(f"match idle {last.id}", [match_end(idle)[0]])
        yield drawn(f"rules {last.id}", [rules_summary(last)])
    yield drawn("rules", [rules_summary(None)])
    yield drawn("standings, no round", [standings(Game(id=9, guild_id=1, channel_id=2, host_id=1))])
    params = {
        "game_id": 9,
        "seats": 3,
        "permissions": t("permission.embed_links"),
        "link": "https://discord.com/x",
        # The settings' refusals: the setting in words, the value, its range, the channels.
        "setting": t("settings.name.turn_timeout"),
        "value": 5,
        "low": 30,
        "high": 600,
        "channel": "<#1>",
        "channels": "<#1> <#2>",
        "role": "<@&3>",  # a role refused as the game-master role
    }
    # The server's settings, a member's preferences, the help, the first panel's tip. Their lists
    # offer each language by its own name ("English" among them), as /romme start's option does.
    server = ServerSettings(channels=(1, 2), game_master_role=3, threads=True).changed("language", "de")
    panels = {
        "settings": settings_panel(server, guild_id=1, turn_timeout=120, lobby_timeout=900),
        "settings, defaults": settings_panel(
            ServerSettings(), guild_id=1, turn_timeout=120, lobby_timeout=900
        ),
        "preferences": preferences_panel(MemberPreferences(cards="text", mention=False), user_id=1),
        "preferences, defaults": preferences_panel(MemberPreferences(), user_id=1),
    }
    for what, panel in panels.items():
        name, text = message(what, panel)
        yield name, text.replace(t("language.name", "en"), "")
    yield drawn("help", [help_embed()])
    yield "tip", t("help.tip")
    yield "saved", t("settings.saved", what=t("settings.reset.done"))
    modal = numbers_modal(server, guild_id=1)
    sent = modal.to_components()  # what Discord gets: a label around each text input
    assert len(sent) == 5  # the opening, the rounds, the two timeouts, a season's days
    lines = [f"{box['label']} {box['component'].get('placeholder', '')}" for box in sent]
    yield "numbers", "\n".join([modal.title, *lines])
    for code in TABLE_ERROR_CODES:
        yield f"refusal {code}", refusal_for(TableError(code, **params))
    for key, english in EN.items():
        code = key.removeprefix("error.")
        if not key.startswith("error.") or code in (*TABLE_ERROR_CODES, "rule"):
            continue
        if "{" in english:  # a refusal with words of its own (the bot's missing permissions)
            yield f"refusal {key}", refusal(t(key, None, **params))
        else:  # an engine refusal, with its rule
            yield f"refusal {key}", refusal_for(IllegalMove(code, "R7"))
    question, view = stop_confirm(9)
    yield drawn("stop", [], view, question)
    yield "stopped", t("stop.done")
    for key in ("command.joined", "command.left", "command.left.running"):
        yield key, t(key, game_id=9)
    row = PlayerStats(guild_id=1, user_id=101, matches_played=3, matches_won=1, points=180, best_round=64)
    yield drawn("leaderboard", [leaderboard([row, replace(row, user_id=102, best_round=None)])])
    yield drawn("leaderboard empty", [leaderboard([])])
    yield drawn("record", [player_record(row, 101, name="Anna")])
    yield drawn("record none", [player_record(None, 102, name="Dewi")])
    yield from rating_screens()


def rating_screens() -> Iterator[Screen]:
    """The season's leaderboard (with the caller's own line, and empty), a profile with its chart's
    title, the season's start and what it resets, the ratings' refusals."""
    season = Season(1, 3, datetime(2026, 12, 1, tzinfo=UTC))
    lines = [Line(1, 101, 1412, False, 12, 5), Line(2, 102, 1020, True, 3, 1)]
    names = {101: "Anna", 102: "Dewi"}
    yield message(
        "season board",
        season_board(Board(season, lines, Line(31, 103, 990, True, 1, 0), 40, 0, False), names),
    )
    yield message("past season board", season_board(Board(season, [], None, 0, 0, True), names))
    change = RatingChange(
        1,
        101,
        1,
        3,
        datetime(2026, 12, 2, tzinfo=UTC),
        1,
        3,
        True,
        False,
        25.0,
        8.3,
        27.0,
        7.9,
        120,
        3,
        1,
        1,
        64,
        "easy,hard",
    )
    counts = ProfileCounts(12, 5, 1.8, 36, 9, 1, 64, 180, frozenset({"easy", "hard"}))
    embed, _ = profile(Profile(101, season, lines[0], 40, counts, [change, change]), "Anna")
    yield drawn("profile", [embed])
    yield drawn(
        "profile none", [profile(Profile(102, season, None, 40, replace(counts, matches=0), []), "Dewi")[0]]
    )
    yield "season started", t("season.started", season=4) + "\n" + t("help.seasons")
    for key in ("season.unknown", "season.not_allowed", "board.elsewhere"):
        yield key, t(key, season=7)


def drawn_in(locale: str) -> list[Screen]:
    with speaking(locale):
        return list(screens())


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_no_english_word_on_any_screen(locale: str) -> None:
    found = drawn_in(locale)
    assert len(found) > 400
    leaks = {what: words for what, text in found if (words := english_words(text, locale))}
    assert leaks == {}, f"{len(leaks)} of {len(found)} screens have English words"


def test_the_same_screens_in_english_are_full_of_english() -> None:
    # The check can fail: drawn in English, nearly every screen has the words it looks for.
    found = drawn_in("en")
    hits = [what for what, text in found if english_words(text, "de")]
    assert len(hits) > 0.95 * len(found)


def test_every_language_draws_the_same_screens() -> None:
    counts = {locale: len(drawn_in(locale)) for locale in LOCALES}
    assert len(set(counts.values())) == 1, counts


def test_a_german_table_names_its_cards_piles_and_moves_in_german() -> None:
    # R1, R5: the stock and the discard pile; R11: the moves of a turn.
    states = matches()[0]
    game = next(g for g in states if any(e.kind == "lay_off" for e in g.last_turn))
    with speaking("de"):
        text = drawn("table", [table(game)[0]])[1]
    assert "Stapel:" in text and "Ablagestapel:" in text and "legte" in text and " an " in text
    with speaking("id"):
        text = drawn("table", [table(game)[0]])[1]
    assert "Tumpukan undian:" in text and "Tumpukan buangan:" in text and "menambahkan" in text
    assert "Komputer 2" in text and "Computer 2" not in text
