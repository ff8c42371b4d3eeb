"""Playing at the table through Discord: privacy, refusals, stale panels, REST calls, stop."""

from __future__ import annotations

from bot.i18n import t
from bot.service.game import GameStatus
from tests.discord.play_helpers import Player, Room, begin, component, game_in, table_message, texts


async def test_the_hand_panel_is_private_and_shows_only_its_owner_cards(room: Room) -> None:
    table = await begin(room, room.bob)
    game = game_in(room.env, room.channel)
    assert game.match is not None
    for person, seat in ((room.ada, 0), (room.bob, 1)):
        result = await person.click(table, label="My hand")
        assert result.ephemeral and result.response is not None
        hand = sorted(game.match.view(seat)["hand"])
        options = component(result.response, action="select")["options"]
        shown = sorted(option["value"].split("#")[0] for option in options)
        assert shown == hand  # R19: one's own cards, all of them
    # The public table never shows a hand: its only select-free text names counts (R19).
    assert "13 cards" in texts(table_message(room.env, game))


async def test_clicks_of_others_act_only_for_themselves_or_are_refused(room: Room) -> None:
    table = await begin(room, room.bob)
    version = game_in(room.env, room.channel).version
    # Bob is on turn (the seat after the dealer, R4); Ada's Draw is for Ada, so it is refused (R11).
    result = await room.ada.click(table, label="Draw")
    assert result.response is not None
    assert result.ephemeral and "It is not your turn." in result.response.content
    # Dee has no seat: My hand and Draw are refused with the reason.
    for label in ("My hand", "Draw"):
        result = await room.dee.click(table, label=label)
        assert result.response is not None
        assert result.ephemeral and "You have no seat in this game." in result.response.content
    assert game_in(room.env, room.channel).version == version


async def test_an_illegal_meld_is_refused_with_its_rule_and_changes_nothing(room: Room) -> None:
    await begin(room, room.bob, opening=0)
    bob = Player(room.env, room.bob, room.channel)
    await bob.open_hand()
    await bob.click("Draw")
    game = game_in(room.env, room.channel)
    hand = game.match.view(1)["hand"]  # type: ignore[union-attr]
    # Three cards of three suits and three ranks can never be a meld (R7, R8).
    picked: list[str] = []
    for code in hand:
        if code != "JK" and all(code[-1] != c[-1] and code[:-1] != c[:-1] for c in picked):
            picked.append(code)
        if len(picked) == 3:
            break
    await bob.choose(picked)
    version = game_in(room.env, room.channel).version
    panel_id = bob.panel.id  # type: ignore[union-attr]
    result = await bob.click("Meld")
    # The refusal is shown inside the panel it came from (edited in place), not as a new message.
    assert result.response is not None and result.response.ephemeral and result.response.id == panel_id
    # The refusal says the rule in words (R7/R8), without an id the player cannot look up.
    words = [t(f"error.{code}") for code in ("meld.mixed_suits", "meld.mixed_ranks", "meld.invalid")]
    assert any(text in result.response.content for text in words), result.response.content
    assert "(rule R" not in result.response.content and result.followups == []
    after = game_in(room.env, room.channel)
    assert after.version == version and after.match.view(1)["hand"] == hand  # type: ignore[union-attr]


async def test_a_stale_panel_is_refused_and_replaced_by_a_fresh_one(room: Room) -> None:
    table = await begin(room, room.bob)
    bob = Player(room.env, room.bob, room.channel)
    old = await bob.open_hand()
    # The old panel's token has expired (Discord: 50027), so it cannot be told that it moved below.
    room.env.inject_error("PATCH", "/webhooks/*/*/messages/*", status=401, code=50027)
    await room.bob.click(table, label="Draw")  # the game moves on: the old panel is out of date
    game = game_in(room.env, room.channel)
    version = game.version
    result = await room.bob.click(old, label="Draw")
    assert result.response is not None and "out of date" in result.response.content
    # The same message now is a fresh panel: drawn at Bob's current seat version, Draw off (drawn).
    fresh = component(result.response, label="Draw")
    seat = game.seat_of(room.bob.id)
    assert seat is not None
    assert fresh["custom_id"].split(":")[3] == str(game.seat_version(seat)) and fresh["disabled"]
    assert game_in(room.env, room.channel).version == version


async def test_one_human_move_costs_at_most_two_rest_calls(room: Room) -> None:
    table = await begin(room, room.bob)
    bob = Player(room.env, room.bob, room.channel)
    env = room.env
    costs = []
    start = len(env.http_requests)
    result = await room.bob.click(table, label="Draw")  # the answer is Bob's panel
    bob.panel = result.response
    costs.append(len(env.http_requests) - start)
    game = game_in(env, room.channel)
    card = game.match.view(1)["hand"][0]  # type: ignore[union-attr]
    for step in ("select", "Discard"):
        start = len(env.http_requests)
        if step == "select":
            await bob.choose([card])
        else:
            await bob.click("Discard")
        costs.append(len(env.http_requests) - start)
    assert costs[0] == 2 and costs[1] == 1 and costs[2] == 2, costs
    assert all(entry.method in ("POST", "PATCH") for entry in env.http_requests[-2:])


async def test_a_second_start_points_to_the_running_game(room: Room) -> None:
    await begin(room, room.bob)
    game = game_in(room.env, room.channel)
    result = await room.cy.slash(room.channel, "romme start")
    assert result.ephemeral
    assert result.response is not None
    assert f"game {game.id}" in result.response.content
    assert str(game.table_message_id) in result.response.content


async def test_stop_needs_the_host_or_manage_server_and_a_confirmation(room: Room) -> None:
    await begin(room, room.bob)
    refused = await room.bob.slash(room.channel, "romme stop")
    assert refused.response is not None
    assert refused.ephemeral and "Only the host" in refused.response.content
    asked = await room.ada.slash(room.channel, "romme stop")
    assert asked.ephemeral and game_in(room.env, room.channel).running
    assert asked.response is not None
    done = await room.ada.click(asked.response, label="Stop the game")
    assert done.response is not None and "stopped" in done.response.content
    game = game_in(room.env, room.channel)
    assert game.status is GameStatus.FINISHED
    assert "stopped" in texts(table_message(room.env, game))


async def test_leaving_mid_game_hands_the_seat_to_the_computer(room: Room) -> None:
    await begin(room, room.bob)
    result = await room.bob.slash(room.channel, "romme leave")
    assert result.ephemeral
    game = game_in(room.env, room.channel)
    assert game.running and game.seats[1].has_left
    # The computer played Bob's turn at once; Ada is on turn now, and Bob's clicks are refused.
    assert game.to_play == 0
    refused = await room.bob.click(table_message(room.env, game), label="My hand")
    assert refused.response is not None
    assert refused.ephemeral and "no seat" in refused.response.content


async def test_score_of_one_member_and_of_a_channel_without_a_game(room: Room) -> None:
    record = await room.ada.slash(room.channel, "romme score", user=room.bob)
    assert record.response is not None and "has not finished a match" in texts(record.response)
    none = await room.ada.slash(room.channel, "romme score")
    assert none.response is not None
    assert none.ephemeral and "no game in this channel" in none.response.content
