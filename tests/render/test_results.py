"""Round end, match end, standings, leaderboard, a player's record, the lobby, hints and rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine.cards import parse_cards
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.i18n import speaking
from bot.render.hint import hint
from bot.render.lobby import lobby
from bot.render.results import match_end, round_end
from bot.render.scores import leaderboard, player_record, standings
from bot.render.summary import rules_summary
from bot.service.game import Game, GameStatus, Seat
from bot.storage.records import PlayerStats
from tests.render.render_helpers import (
    GameFactory,
    by_label,
    embed_text,
    make_seats,
    our_id,
    present,
    visible,
)


def finished_round(rules: RuleSet) -> Round:
    """Anna draws 10♦, melds 5♥ 6♥ 7♥ and goes out discarding 10♦; Ben keeps K♦ K♣ 2♦ (22 in hand)."""
    rnd = Round.from_position(["5H 6H 7H", "KD KC 2D"], "10D 10C", "3C", rules=rules)
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    rnd.discard(0, parse_cards("10D")[0])
    assert rnd.phase == "over"
    return rnd


def test_round_end_shows_every_column_and_next_round(game_at: GameFactory) -> None:
    # R20: melds minus hand.
    game = game_at(finished_round(RuleSet(opening=0)), n_seats=2)
    game.round_deadline = 1_700_000_030.0
    embed, view = round_end(game)
    text = embed_text(embed)
    assert embed.title == "Round 1 is over"
    assert "Anna went out." in text
    assert "**Anna**: melded 18 · in hand 0 · round 18 · total 18" in text
    assert "**Ben**: melded 0 · in hand 22 · round -22 · total -22" in text
    assert "<t:1700000030:R>" in text
    (button,) = by_label(view).values()
    assert button["label"] == "Next round" and not button["disabled"]
    assert our_id(button["custom_id"]).action == "next"


def test_match_end_names_the_winner_and_offers_play_again(game_at: GameFactory) -> None:
    # R6: after the last round the highest total wins.
    game = game_at(finished_round(RuleSet(opening=0, rounds=1)))
    assert game.match is not None and game.match.over
    _, view = round_end(game)
    assert by_label(view)["Next round"]["disabled"]
    embed, view = match_end(game)
    text = embed_text(embed)
    assert "🏆 Anna wins with 18 points." in text
    assert text.index("1. **Anna** — 18 points") < text.index("2. **Ben** — -22 points")
    assert "Tie-break" not in text
    (button,) = by_label(view).values()
    assert button["label"] == "Play again" and our_id(button["custom_id"]).action == "again"


def test_tiebreak_rounds_are_noted_at_the_end(game_at: GameFactory) -> None:
    # R6: tied leaders play on; the tie-break rounds are counted.
    tied = RoundResult(out=0, melded=(20, 20, 0), in_hand=(0, 0, 5), scores=(20, 20, -5), hand_romme=False)
    rnd = finished_round(RuleSet(opening=0, rounds=1))
    game = game_at(rnd, n_seats=3, round_seats=[0, 1], round_no=2, finished=[tied])
    assert game.match is not None and game.match.over
    text = embed_text(match_end(game)[0])
    assert "Tie-break rounds played: 1" in text and "(R6)" not in text  # no id outside /romme rules
    end = embed_text(round_end(game)[0])
    assert "Tie-break round 1 is over" in end  # the first tie-break is numbered 1, not 2
    assert "**Cleo**: sits out the tie-break · Total -5" in end
    table = present(standings(game).description)
    assert "R1" in table and "T1" in table and "T2" not in table and "Anna" in table


def test_standings_round_by_round(game_at: GameFactory) -> None:
    game = game_at(finished_round(RuleSet(opening=0)), n_seats=2)
    embed = standings(game)
    assert present(embed.description).splitlines()[2].split() == ["R1", "18", "-22"]
    assert present(embed.description).splitlines()[3].split() == ["=", "18", "-22"]
    assert "1. **Anna** — 18 points" in embed_text(embed)


def test_standings_before_any_round_ended(game_at: GameFactory) -> None:
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C")
    assert standings(game_at(rnd)).description == "No round has ended yet."


def test_leaderboard_and_record() -> None:
    rows = [PlayerStats(1, 7, 5, 3, 120, 45), PlayerStats(1, 8, 2, 0, -30, None)]
    text = embed_text(leaderboard(rows))
    assert "1. <@7> — 5 matches · 3 wins · 120 points · best round 45" in text
    assert "2. <@8> — 2 matches · 0 wins · -30 points · best round —" in text
    assert "Nobody" in embed_text(leaderboard([]))
    assert "Matches: 5\nWins: 3\nPoints: 120\nBest round: 45" in embed_text(player_record(rows[0]))
    assert "<@9> has not finished a match" in embed_text(player_record(None, 9))
    # A known member is named: a mention in an embed can show raw.
    assert "**Dee** has not finished a match" in embed_text(player_record(None, 9, name="Dee"))
    assert embed_text(player_record(rows[0], name="Gus")).startswith("Player record\n**Gus**\nMatches: 5")


def test_a_long_leaderboard_stays_within_limits() -> None:
    rows = [PlayerStats(1, 10**18 + n, 999, 999, 10**9, 10**6) for n in range(200)]
    embed = leaderboard(rows)
    assert len(embed) <= 6000 and "20. " in embed_text(embed) and "21. " not in embed_text(embed)


def lobby_game(seats: int) -> Game:
    return Game(id=9, guild_id=1, channel_id=2, host_id=100, seats=make_seats(seats, computers=[1]))


def test_lobby_labels_ids_and_states() -> None:
    embed, view = lobby(lobby_game(1))
    buttons = by_label(view)
    assert list(buttons) == ["Join", "Leave", "Add computer", "Start", "Cancel"]
    assert [our_id(b["custom_id"]).action for b in buttons.values()] == [
        "join",
        "leave",
        "add_computer",
        "start",
        "cancel",
    ]
    assert buttons["Start"]["disabled"]  # R3: two seats at least
    text = embed_text(embed)
    assert "Host: **Anna**" in text and "1. Anna\n" in text and "Opening: 40 points" in text
    assert not re.search(r"\bR\d", text)  # rule ids only in /romme rules, which lists them
    buttons = by_label(lobby(lobby_game(2))[1])
    assert not buttons["Start"]["disabled"]
    assert "2. Computer 1\n" in embed_text(lobby(lobby_game(2))[0])  # not "Computer 1 (computer)"
    buttons = by_label(lobby(lobby_game(6))[1])  # R3: six seats at most
    assert buttons["Join"]["disabled"] and buttons["Add computer"]["disabled"]
    assert not buttons["Leave"]["disabled"]


def test_a_started_or_cancelled_lobby_has_every_button_off() -> None:
    for status in (GameStatus.PLAYING, GameStatus.CANCELLED):
        game = lobby_game(3)
        game.status = status
        assert all(b["disabled"] for b in by_label(lobby(game)[1]).values())


def test_hint_shows_the_best_melds_and_the_opening(game_at: GameFactory) -> None:
    rnd = Round.from_position(["QS QH QD 5H 6H 7H 2C", "KD KC QC"], "10D", "3C")
    text = embed_text(hint(game_at(rnd), 0))
    assert "Q♠ Q♥ Q♦ (30)" in text and "5♥ 6♥ 7♥ (18)" in text
    # R13: 48 ≥ 40, and the hint says what the melds make, not only what the opening needs
    assert "Your melds make 48 points: enough for your opening, which needs 40." in text
    rnd = Round.from_position(["5H 6H 7H 2C", "KD KC QC"], "10D", "3C")
    assert "Not enough for your opening yet: 18 of 40 points." in embed_text(hint(game_at(rnd), 0))


def test_rules_summary_with_house_rules(game_at: GameFactory) -> None:
    rnd = Round.from_position(["5H 6H 7H 2C", "KD KC QC"], "10D", "3C")
    game = game_at(rnd)
    game.rules = RuleSet(jokers=6, opening=60, scoring="penalty", hand_romme=True, rounds=5)
    text = embed_text(rules_summary(game))
    for line in ("Jokers: 6", "Opening: 60 points (R13)", "penalty", "Hand-Rommé doubles", "Rounds: 5"):
        assert line in text
    assert "must be worth 60 points" in text
    assert "Opening: 40 points" in embed_text(rules_summary(None))


def test_the_rules_summary_points_to_the_rule_book(game_at: GameFactory) -> None:
    # R9: the summary says what the rule book says; every id it cites is one of the book's.
    embed = rules_summary(None)
    text = embed_text(embed)
    assert "two or more jokers needs at least two natural cards" in text
    # The book is named in the description (a footer draws neither code nor links), with no backtick.
    assert "docs/rules.md in the bot's source code" in present(embed.description)
    assert "`" not in present(embed.description) and embed.footer.text is None
    book = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in sorted(set(re.findall(r"\bR\d{1,2}\b", text))):
        assert f"### {rule} " in book, rule


def test_the_rules_summary_links_the_rule_book_in_the_readers_language() -> None:
    base = "https://example.org/romme/docs"
    for locale, page in (("en", "rules.md"), ("de", "rules.de.md"), ("id", "rules.id.md")):
        with speaking(locale):
            description = present(rules_summary(None, base).description)
        assert description.endswith(f"]({base}/{page}).")
        assert "`" not in description


def test_away_and_computer_seats_in_lobby() -> None:
    game = Game(
        id=9, guild_id=1, channel_id=2, host_id=100, seats=[Seat(100, "Anna"), Seat(101, "Ben", away=True)]
    )
    assert "2. Ben (away)" in embed_text(lobby(game)[0])


def test_the_leaderboard_shows_display_names_and_says_one_match() -> None:
    rows = [PlayerStats(1, 7, 1, 1, 10, 10)]
    text = embed_text(leaderboard(rows, {7: "Ada"}))
    assert "1. **Ada** — 1 match · 1 win · 10 points" in text


@pytest.mark.parametrize("locale", ["en", "de", "id"])
def test_romme_rules_lists_the_rule_ids_in_every_language(locale: str) -> None:
    # /romme rules is where a player can follow a rule id: every language cites the same ones.
    with speaking("en"):
        english = embed_text(rules_summary(None))
    with speaking(locale):
        text = embed_text(rules_summary(None))
    ids = set(re.findall(r"R\d+", text))
    assert ids == set(re.findall(r"R\d+", english))
    assert {"R1", "R2", "R11", "R12", "R13", "R17", "R20", "R22"} <= ids
    for line in ("(R13)", "(R20)", "(R22)", "(R17)", "(R4)"):  # the house rules, each with its id
        assert line in text


def test_the_table_of_a_finished_match_links_the_results(game_at: GameFactory) -> None:
    from bot.render.table import results_url, table_embed

    game = game_at(finished_round(RuleSet(opening=0, rounds=1)), status=GameStatus.FINISHED)
    url = results_url(game, 555)
    assert url == "https://discord.com/channels/1/2/555"
    assert "[see the results]" not in (table_embed(game).description or "")  # not posted yet
    for locale, words in (("en", "see the results"), ("de", "zu den Ergebnissen"), ("id", "lihat hasilnya")):
        with speaking(locale):
            embed = table_embed(game, results=url)
        assert f"[{words}]({url})" in (embed.description or "")


def test_round_end_shows_the_cards_each_seat_was_left_holding(game_at: GameFactory) -> None:
    # R20: Ben's 22 hand points are K♦ K♣ 2♦; Anna went out with an empty hand.
    game = game_at(finished_round(RuleSet(opening=0)), n_seats=2)
    for locale, name in (("en", "Ben: cards left in hand"), ("de", "Ben: Karten auf der Hand")):
        with speaking(locale):
            embed, _ = round_end(game)
        fields = {field.name: field.value for field in embed.fields}
        assert set(visible(present(fields[name])).split()) == {"K♦", "K♣", "2♦"}
        assert not any(present(key).startswith("Anna") for key in fields)  # nothing left, no field
