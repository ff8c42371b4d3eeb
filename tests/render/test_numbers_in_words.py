"""Numbers in each language's words (issue 41, the review of 2026-12): a round score of one point is
"1 Punkt", not "1 Punkte"; a German rating has no thousands separator ("1412"), a count keeps one;
a share is "42 %" in German and "42%" in English and Indonesian (PUEBI)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine.cards import parse_cards
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.i18n import speaking
from bot.render.panel import hand_panel
from bot.render.ratings import profile, rating_change, season_board
from bot.service.game import Seat
from bot.service.ratings import Board, Line, Profile, Shift
from bot.storage.records import ProfileCounts, Season
from tests.render.render_helpers import GameFactory, embed_text


def ben_scores_one_point() -> Round:
    """Ben melds 2♣ 3♣ 4♣ (9) and keeps 8♦ (8): 1 point (R20); Anna goes out with 5♥ 6♥ 7♥ (18)."""
    rnd = Round.from_position(["5H 6H 7H", "2C 3C 4C 8D"], "10D 10C KS", "3S", rules=RuleSet(opening=0))
    rnd.draw(0, "stock")
    rnd.discard(0, parse_cards("10D")[0])
    rnd.draw(1, "stock")
    rnd.meld(1, parse_cards("2C 3C 4C"))
    rnd.discard(1, parse_cards("10C")[0])
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    rnd.discard(0, parse_cards("KS")[0])
    assert rnd.phase == "over"
    return rnd


@pytest.mark.parametrize(
    ("locale", "anna", "ben"),
    [
        (
            "en",
            "You scored 18 points this round; your total is 18.",
            "You scored 1 point this round; your total is 1.",
        ),
        ("de", "Diese Runde: 18 Punkte · insgesamt: 18", "Diese Runde: 1 Punkt · insgesamt: 1"),
        ("id", "Skormu ronde ini 18 poin; totalmu 18.", "Skormu ronde ini 1 poin; totalmu 1."),
    ],
)
def test_the_round_score_on_the_panel_takes_its_plural_form(
    game_at: GameFactory, locale: str, anna: str, ben: str
) -> None:
    game = game_at(ben_scores_one_point(), seats=[Seat(user_id=1, name="Anna"), Seat(user_id=2, name="Ben")])
    with speaking(locale):
        assert anna in embed_text(hand_panel(game, 0)[0])
        assert ben in embed_text(hand_panel(game, 1)[0])


def test_a_german_round_score_is_no_fetched_points(game_at: GameFactory) -> None:
    game = game_at(ben_scores_one_point(), seats=[Seat(user_id=1, name="Anna"), Seat(user_id=2, name="Ben")])
    with speaking("de"):
        text = embed_text(hand_panel(game, 1)[0])
    assert "geholt" not in text and "1 Punkte" not in text


SEASON = Season(1, 3, datetime(2026, 12, 1, tzinfo=UTC))
COUNTS = ProfileCounts(12, 5, 1.8, 36, 9, 1, 64, 180, frozenset({"easy"}))
"""5 wins of 12 matches (42 %), out in 9 of 36 rounds (25 %)."""


@pytest.mark.parametrize(
    ("locale", "rating", "change", "shares", "size"),
    [
        ("en", "**1,412**", "+1,023 → 1,412", ("(42%)", "25%"), "1,200"),
        ("de", "**1412**", "+1023 → 1412", ("(42 %)", "25 %"), "1.200"),
        ("id", "**1.412**", "+1.023 → 1.412", ("(42%)", "25%"), "1.200"),
    ],
)
def test_ratings_and_shares_are_written_as_the_language_writes_them(
    locale: str, rating: str, change: str, shares: tuple[str, str], size: str
) -> None:
    line = Line(1, 101, 1412, False, 12, 5)
    with speaking(locale):
        embed, _ = profile(Profile(101, SEASON, line, 1200, COUNTS, []), "Anna")
        text = embed_text(embed)
        board, _ = season_board(Board(SEASON, [line], None, 1200, 0, False), {101: "Anna"})
        board_text = embed_text(board)
        shift = rating_change(Shift(101, 389, 1412, provisional=False))
    assert rating in text and all(share in text for share in shares)
    assert f"— {rating.strip('*')} ·" in board_text
    # The number of players is a count, grouped in every language.
    assert size in text and size in board_text
    assert shift == change
