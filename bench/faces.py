"""Card faces: what drawing them costs at a first start, naming them at every start, and drawing a
table or a hand panel with faces against text.

``python bench/faces.py [ROUNDS]`` (default 200): medians in milliseconds, side by side in one run.
Prints one JSON object as its last line.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.match import Match
from bot.engine.round import Round
from bot.publish.emojis import face_names, painted_faces
from bot.render.faces import Face, set_faces
from bot.render.faces.paint import FACE_CODES
from bot.render.panel import hand_panel
from bot.render.table import table
from bot.service.game import Game, GameStatus, Seat

FULL_RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"


def big_game() -> Game:
    """Six seats, eight long runs and a set on the table, a full hand each."""
    melds = [(seat % 6, FULL_RUN.replace("S", suit)) for seat, suit in enumerate("SHDC" * 2)]
    rnd = Round.from_position([FULL_RUN] * 6, "10D 9D", "3C", table=melds)
    match = Match(
        n_seats=6,
        rules=rnd.rules,
        rng=random.Random(0),
        dealer=rnd.dealer,
        round_no=1,
        round_seats=list(range(6)),
        finished=[],
        current=rnd,
    )
    seats = [Seat(100 + n, f"Player {n}") for n in range(6)]
    return Game(
        id=1,
        guild_id=1,
        channel_id=2,
        host_id=100,
        status=GameStatus.PLAYING,
        rules=rnd.rules,
        seats=seats,
        match=match,
        version=1,
    )


def median_ms(action: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 3)


def main(rounds: int) -> None:
    start = time.perf_counter()
    painted_faces(FACE_CODES)
    first_start_draw = round((time.perf_counter() - start) * 1000, 1)
    names = median_ms(face_names, 20)
    game = big_game()
    result: dict[str, float] = {"draw_53_faces_ms": first_start_draw, "face_names_ms": names}
    faces = {
        code: Face(code, name, 1456074443980800082 + n) for n, (code, name) in enumerate(face_names().items())
    }
    for style in ("text", "emoji"):
        set_faces(faces if style == "emoji" else None)
        result[f"table_{style}_ms"] = median_ms(lambda: table(game), rounds)
        result[f"panel_{style}_ms"] = median_ms(lambda: hand_panel(game, 0), rounds)
        result[f"table_{style}_chars"] = len(table(game)[0])
    set_faces(None)
    result["table_emoji_over_text"] = round(result["table_emoji_ms"] / result["table_text_ms"], 2)
    result["panel_emoji_over_text"] = round(result["panel_emoji_ms"] / result["panel_text_ms"], 2)
    print(json.dumps(result))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
