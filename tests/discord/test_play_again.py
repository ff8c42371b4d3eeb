"""Play again through Discord: the new lobby keeps every setting of the lobby it follows (the house
rules, the computer seats and each one's level, the language, the thread, the turn timeout)."""

from __future__ import annotations

from bot.engine.rules import RuleSet
from bot.service.game import Game, GameStatus
from tests.discord.play_helpers import Room, service, table_message, texts

# Every option of /romme start, none at its default (the command's defaults: 4 jokers, 40 to open,
# melds, no hand Rommé, no discard to go out, a round per seat, no computer, the bot's turn timeout
# of 120 s, normal computers, the server's language, no thread).
SETTINGS = {
    "jokers": 6,
    "opening": 30,
    "scoring": "penalty",
    "hand_romme": True,
    "discard_to_go_out": True,
    "rounds": 3,
    "computers": 2,
    "turn_timeout": 90,
    "computer_level": "hard",
    "language": "de",
    "thread": True,
}


def lobby_settings(game: Game) -> dict[str, object]:
    """What a lobby holds besides its id and its moment: who sits where, at which level, and how the
    match will be played and spoken."""
    return {
        "guild": game.guild_id,
        "channel": game.channel_id,
        "host": game.host_id,
        "rules": game.rules,
        "computers": game.computers,
        "computer_level": game.computer_level,
        "turn_timeout": game.turn_timeout,
        "language": game.language,
        "seats": [(seat.user_id, seat.name, seat.computer, seat.level) for seat in game.seats],
    }


async def test_play_again_keeps_every_setting_of_the_lobby(room: Room) -> None:
    env = room.env
    started = await room.ada.slash(room.channel, "romme start", **SETTINGS)
    assert started.response is not None and not started.ephemeral
    (home,) = room.channel.threads
    (first,) = service(env).changes.games()
    assert first.channel_id == home.id
    assert first.rules == RuleSet(
        jokers=6, opening=30, scoring="penalty", hand_romme=True, discard_to_go_out=True, rounds=3
    )
    lobby = table_message(env, first)
    await room.bob.click(lobby, label="Mitspielen")
    before = lobby_settings(service(env).get(first.id))
    shown_before = texts(table_message(env, first))
    assert "Computer 1 (schwer)" in shown_before and "Computer 2 (schwer)" in shown_before
    await room.ada.click(lobby, label="Starten")
    assert service(env).get(first.id).running

    confirm = await room.ada.slash(home, "romme stop")
    assert confirm.response is not None
    await room.ada.click(confirm.response, label="Stop the game")
    ended = service(env).get(first.id)
    assert ended.status is GameStatus.FINISHED
    again = await room.ada.click(table_message(env, ended), label="Neue Partie")
    assert again.response is not None and not again.ephemeral

    game = service(env).game_in_channel(home.id)
    assert game is not None and game.id != first.id and game.status is GameStatus.LOBBY
    assert lobby_settings(game) == before
    assert [seat.level for seat in game.seats] == [None, "hard", "hard", None]
    # The new lobby reads as the first one did, in German, in the thread: the same seats with
    # their level tags, the same house rules and turn timeout; only the game's number differs.
    shown = texts(table_message(env, game))
    assert shown == shown_before.replace(f"Partie {first.id}", f"Partie {game.id}")
    assert "Computer 1 (schwer)" in shown and "Computer 2 (schwer)" in shown
    assert service(env).game_in_channel(room.channel.id) is None
