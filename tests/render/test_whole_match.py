"""Every message of a whole seeded match, rendered after every move: within Discord's limits, every
id parsing back, each panel holding exactly its own seat's hand (R19)."""

from __future__ import annotations

import random
from collections import Counter

import discord

from bot.engine.cards import card_codes
from bot.engine.computer import ComputerPlayer
from bot.engine.match import Match
from bot.engine.rules import RuleSet
from bot.render.common import check_embed
from bot.render.ids import cards_from_option_values, parse_custom_id
from bot.render.panel import hand_panel
from bot.render.results import match_end, round_end
from bot.render.scores import standings
from bot.render.table import table
from bot.service.game import Game, GameStatus
from tests.render.render_helpers import components, make_seats, selects


def check_ids(view: discord.ui.View) -> None:
    for item in components(view):
        assert parse_custom_id(item["custom_id"]) is not None, item["custom_id"]


def test_a_whole_match_renders_cleanly_at_every_step() -> None:
    n = 3
    rules = RuleSet(rounds=2)
    game = Game(
        id=77,
        guild_id=1,
        channel_id=2,
        host_id=100,
        status=GameStatus.PLAYING,
        rules=rules,
        seats=make_seats(n),
    )
    game.match = Match.new(n, rules=rules, rng=random.Random(11))
    player = ComputerPlayer(random.Random(3))
    moves = 0
    while True:
        match = game.match
        if match.round.over:
            check_embed(round_end(game)[0])
            check_embed(standings(game))
            if match.over:
                break
            match.next_round()
            continue
        seat = match.round_seats[match.round.to_play]
        match.play(seat, player.next_move(match.seat_view(seat).round))
        moves += 1
        game.version += 1
        embed, view = table(game)
        check_embed(embed)
        check_ids(view)
        for other in range(n):
            hand = card_codes(match.seat_view(other).round.hand)
            selected = hand[:3]
            embed, view = hand_panel(game, other, selected=selected)
            check_embed(embed)
            check_ids(view)
            if not hand or match.round.over:
                # No card select once the round is over: the panel shows the result only.
                assert all(s["custom_id"].split(":")[2] != "select" for s in selects(view))
            else:
                select = selects(view)[0]
                # The options are exactly this seat's hand, nothing more (R19).
                values = [option["value"] for option in select["options"]]
                assert Counter(cards_from_option_values(values)) == Counter(hand)
                chosen = [o["value"] for o in select["options"] if o.get("default")]
                assert Counter(cards_from_option_values(chosen)) == Counter(selected)
        assert moves < 3000
    embed, view = match_end(game)
    check_embed(embed)
    check_ids(view)
    assert game.match.winner is not None
