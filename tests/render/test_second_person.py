"""The reader named in the second person: a panel says "You went out" and "You win" to the seat
that did, in every language, and the other seats' panels name that seat."""

from __future__ import annotations

import pytest

from bot.engine.rules import RuleSet
from bot.i18n import speaking
from bot.render.panel import hand_panel
from bot.service.game import Seat
from tests.render.render_helpers import GameFactory, embed_text
from tests.render.test_results import finished_round

# Anna (seat 0) goes out and, in a one-round match, wins with 18 points (R17, R20).
YOU = {
    "en": ("You went out.", "🏆 You win with 18 points."),
    "de": ("Du hast ausgemacht.", "🏆 Du gewinnst mit 18 Punkten."),
    "id": ("Kamu telah mengosongkan tanganmu.", "🏆 Kamu menang dengan 18 poin."),
}
THEY = {
    "en": ("you went out.", "🏆 you wins with 18 points."),
    "de": ("you hat ausgemacht.", "🏆 you gewinnt mit 18 Punkten."),
    "id": ("you telah mengosongkan tangannya.", "🏆 you menang dengan 18 poin."),
}


def you_and_ben() -> list[Seat]:
    # The playground's person is called "you": the name must not make the sentence.
    return [Seat(user_id=1, name="you"), Seat(user_id=2, name="Ben")]


@pytest.mark.parametrize("locale", ["en", "de", "id"])
def test_the_seat_that_went_out_and_won_reads_it_in_the_second_person(
    game_at: GameFactory, locale: str
) -> None:
    game = game_at(finished_round(RuleSet(opening=0, rounds=1)), seats=you_and_ben())
    assert game.match is not None and game.match.over and game.match.winner == 0
    with speaking(locale):
        own = embed_text(hand_panel(game, 0)[0])
        other = embed_text(hand_panel(game, 1)[0])
    went_out, wins = YOU[locale]
    assert went_out in own and wins in own
    named_out, named_wins = THEY[locale]
    assert named_out not in own and named_wins not in own
    # Ben's panel names the seat (whose name happens to be "you") in the third person.
    assert named_out in other and named_wins in other
    assert went_out not in other and wins not in other


def test_a_round_that_is_not_the_last_says_only_who_went_out(game_at: GameFactory) -> None:
    game = game_at(finished_round(RuleSet(opening=0, rounds=2)), seats=you_and_ben())
    assert game.match is not None and not game.match.over
    own = embed_text(hand_panel(game, 0)[0])
    assert "You went out." in own and "win" not in own.lower()
    assert "you went out." in embed_text(hand_panel(game, 1)[0])
