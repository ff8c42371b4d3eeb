"""Screens a newcomer stumbled on (issue 30): the card menu after a meld, and Hint in one place."""

from __future__ import annotations

from tests.discord.play_helpers import Player, Room, begin, component, game_in, texts


async def test_after_a_meld_the_card_menu_selects_nothing(room: Room) -> None:
    # R13: with no opening needed, a meld goes straight to the table and its cards leave the hand.
    await begin(room, room.bob, opening=0)
    players = {
        room.ada.id: Player(room.env, room.ada, room.channel),
        room.bob.id: Player(room.env, room.bob, room.channel),
    }
    for _ in range(40):
        game = game_in(room.env, room.channel)
        assert game.match is not None and game.to_play is not None
        player = next(p for p in players.values() if p.seat() == game.to_play)
        await player.open_hand()
        while game_in(room.env, room.channel).to_play == player.seat():
            move = player.next_move()
            result = await player.play(move)
            assert result.acknowledged
            if move.kind == "meld":
                assert player.panel is not None
                menu = component(player.panel, action="select")
                assert [o["value"] for o in menu["options"] if o.get("default")] == []
                assert "Selected:" not in texts(player.panel)
                return
            if move.kind == "discard":
                break
    raise AssertionError("nobody melded in 40 turns")


async def test_hint_shows_in_the_panel_and_never_piles_up(room: Room) -> None:
    await begin(room, room.bob)
    bob = Player(room.env, room.bob, room.channel)
    panel = await bob.open_hand()
    for _ in range(3):
        result = await bob.click("Hint")
        assert result.response is not None and result.response.id == panel.id
        assert result.followups == []
    assert bob.panel is not None
    titles = [embed.title for embed in bob.panel.embeds]
    assert titles[1:] == ["Hint"]  # one hint, below the hand
    assert "Your melds make" in texts(bob.panel) or "No meld in your hand yet." in texts(bob.panel)
    # The next click on the panel redraws it without the hint.
    await bob.click("Sort")
    assert [embed.title for embed in bob.panel.embeds][1:] == []
