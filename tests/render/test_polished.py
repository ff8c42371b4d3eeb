"""Screens a German, an Indonesian reader and a newcomer stumbled on (issue 30): every meld in the
panel, whole computer names in the standings, the sitting-out panel, and no "1 points"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.engine.cards import parse_cards
from bot.engine.round import Round
from bot.engine.rules import RuleSet
from bot.engine.scoring import RoundResult
from bot.i18n import speaking
from bot.publish.emojis import face_names
from bot.render.faces import Face, set_faces
from bot.render.panel import hand_panel
from bot.render.scores import leaderboard, standings
from bot.render.table import table
from bot.service.game import Seat
from bot.storage.records import PlayerStats
from tests.render.render_helpers import GameFactory, embed_text, present, selects

BIG_ID = 1456074443980800082


@pytest.fixture
def faces() -> Iterator[None]:
    """Cards as their emoji faces (36-39 characters each), as a live bot shows them."""
    set_faces({code: Face(code, name, BIG_ID + n) for n, (code, name) in enumerate(face_names().items())})
    yield
    set_faces(None)


def eight_melds() -> Round:
    runs = ["2S 3S 4S 5S", "6H 7H 8H 9H", "10D JD QD KD", "AC 2C 3C 4C", "5S 6S 7S 8S", "9H 10H JH QH"]
    melds = [(n % 2, cards) for n, cards in enumerate([*runs, "KS KH KD", "QS QH QC JK"])]
    rnd = Round.from_position(
        ["2D 3D 4D 9C 9D", "5D 6D 8D 9S"], "10C 10S", "3H", table=melds, opened=[True, True]
    )
    rnd.draw(0, "stock")
    return rnd


def test_the_panel_lists_every_table_meld_beyond_m7(game_at: GameFactory, faces: None) -> None:
    # R19: the seat sees every meld on the table; with faces eight melds pass one field's 1,024.
    embed, _ = hand_panel(game_at(eight_melds()), 0)
    table_fields = [f for f in embed.fields if f.name in ("On the table", "Melds on the table (continued)")]
    shown = "\n".join(present(field.value) for field in table_fields)
    for number in range(1, 9):
        assert f"`m{number}`" in shown, number
    assert "…" not in shown
    # The public table shows the same eight.
    public = embed_text(table(game_at(eight_melds()))[0])
    assert all(f"`m{number}`" in public for number in range(1, 9))


def test_the_standings_grid_names_two_computers_whole(game_at: GameFactory) -> None:
    seats = [
        Seat(100, "Anna"),
        Seat(None, "Computer 1", computer=True),
        Seat(None, "Computer 2", computer=True),
    ]
    rnd = Round.from_position(["5H 6H 7H", "KD KC 2D", "3S"], "10D 10C", "3C", rules=RuleSet(opening=0))
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    rnd.discard(0, parse_cards("10D")[0])
    game = game_at(rnd, seats=seats)
    grid = present(standings(game).description)
    assert "Computer 1" in grid and "Computer 2" in grid and "Compute…" not in grid
    with speaking("id"):
        grid = present(standings(game).description)
    assert "Komputer 1" in grid and "Komputer 2" in grid


def test_the_standings_grid_rows_speak_the_readers_language(game_at: GameFactory) -> None:
    # R6: the first tie-break row is 1, in each language's own initial.
    tied = RoundResult(out=0, melded=(20, 20, 0), in_hand=(0, 0, 5), scores=(20, 20, -5), hand_romme=False)
    rnd = Round.from_position(["5H 6H 7H", "KD KC 2D"], "10D 10C", "3C", rules=RuleSet(opening=0, rounds=1))
    rnd.draw(0, "stock")
    rnd.meld(0, parse_cards("5H 6H 7H"))
    rnd.discard(0, parse_cards("10D")[0])
    game = game_at(rnd, n_seats=3, round_seats=[0, 1], round_no=2, finished=[tied])
    rows = {}
    for locale in ("en", "de", "id"):
        with speaking(locale):
            lines = present(standings(game).description).splitlines()
        rows[locale] = [line.split()[0] for line in lines[2:-1]]
    assert rows == {"en": ["R1", "T1", "="], "de": ["R1", "S1", "="], "id": ["R1", "P1", "="]}


def test_a_seat_sitting_out_is_told_only_that(game_at: GameFactory) -> None:
    # R6: a seat out of the race has no hand this round; its panel asks it to choose nothing.
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C")
    game = game_at(rnd, n_seats=3, round_seats=[0, 2], round_no=4)
    embed, view = hand_panel(game, 1)
    text = embed_text(embed)
    assert "You sit out this tie-break round." in text
    assert "Rommé — tie-break round 1 (after 3 rounds)" in text
    for wrong in ("Select cards", "Your hand is empty", "Your hand —", "Opening:"):
        assert wrong not in text, wrong
    assert selects(view) == []


@pytest.mark.parametrize(
    ("locale", "wrong"), [("en", "1 points"), ("en", "1 rounds"), ("de", "1 Punkte"), ("de", "1 Runden")]
)
def test_a_text_with_two_numbers_says_one_in_the_singular(
    game_at: GameFactory, locale: str, wrong: str
) -> None:
    # The plural follows the counted number, not the place or the round's number beside it.
    tied = RoundResult(out=0, melded=(1, 1, 0), in_hand=(0, 0, 5), scores=(1, 1, -5), hand_romme=False)
    rnd = Round.from_position(["2S 3S 4S", "KD KC QD"], "10D", "3C", rules=RuleSet(rounds=1))
    game = game_at(rnd, n_seats=3, round_seats=[0, 1], round_no=2, finished=[tied])
    row = PlayerStats(1, 7, 1, 0, 1, 1)
    with speaking(locale):
        texts = [
            embed_text(table(game)[0]),
            embed_text(standings(game)),
            embed_text(leaderboard([row], {7: "Ada"})),
        ]
    joined = "\n".join(texts)
    assert wrong not in joined
    assert {"en": "after 1 round)", "de": "nach 1 Runde)"}[locale] in joined
