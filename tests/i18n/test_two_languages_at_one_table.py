"""A German server's table, played through Discord by a German and an Indonesian member: each one's
hand panel, hints and refusals in their own language (``interaction.locale``), the lobby, the table
and the results in the table's language (German, the server's), the commands' answers likewise."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import simcord

from bot.i18n import t
from bot.i18n.en import MESSAGES as EN
from tests.discord.play_helpers import Player, Room, bot_channel, first_button, game_in, table_message, texts
from tests.i18n.words import english_words

BUTTONS = {text: key for key, text in EN.items() if key.startswith("button.")}
"""A button's English label -> its catalog key (the shared Player clicks by English label)."""


@dataclass
class LocalPlayer(Player):
    """A :class:`Player` who reads the bot in ``locale``: it clicks the labels its panel shows, and
    "My hand" on the table in the table's language; every panel it gets is checked for its language."""

    locale: str = "en"
    table_locale: str = "en"
    panels: int = 0
    """Hand panels received (each checked: in ``locale``, no English word)."""

    def _check(self, message: simcord.ResponseMessage | None) -> None:
        if message is None or not message.embeds:
            return
        text = texts(message)
        title = message.embeds[0].title or ""
        if title.startswith(t("panel.title", self.locale, count=0).split("—")[0].strip()):
            self.panels += 1
        assert english_words(text, self.locale) == [] or self.locale == "en", text

    async def open_hand(self) -> simcord.ResponseMessage:
        label = t("button.hand", self.table_locale)
        result = await self.actor.click(table_message(self.env, self.game()), label=label)
        assert result.ephemeral and result.response is not None
        self.panel = result.response
        self._check(self.panel)
        assert (self.panel.embeds[0].title or "").startswith(
            t("panel.title", self.locale, count=2).split("—")[0]
        )
        return self.panel

    async def click(self, label: str) -> simcord.InteractionResult:
        assert self.panel is not None
        result = await self.actor.click(self.panel, label=t(BUTTONS[label], self.locale))
        if result.response is not None and result.response.ephemeral:
            self.panel = result.response
            self._check(self.panel)
        return result


async def start(room: Room, *joiners: simcord.MemberActor, **options: object) -> simcord.ResponseMessage:
    result = await room.ada.slash(room.channel, "romme start", **options)
    assert not result.ephemeral and result.response is not None
    lobby = result.response
    for person in joiners:
        await person.click(lobby, label=t("button.join", "de"))
    return lobby


@pytest.mark.slow
async def test_a_german_and_an_indonesian_member_play_a_round_at_a_german_table(
    room: Room, locales: dict[int, str]
) -> None:
    env, channel = room.env, room.channel
    locales.update({room.guild.id: "de", room.ada.id: "de", room.bob.id: "id"})
    lobby = await start(room, room.bob, rounds=1, opening=0)
    # The lobby: German, the server's language, and it says so (no language: was given).
    lobby_text = texts(lobby)
    assert lobby.embeds[0].title == "Rommé — eine neue Partie" and "Sprache: Deutsch" in lobby_text
    game = game_in(env, channel)
    assert game.language == "de"
    await room.ada.click(lobby, label="Starten")
    table = table_message(env, game_in(env, channel))
    assert table.embeds[0].title == "Rommé — Runde 1 von 1"  # R4's house rule: rounds=1

    ada = LocalPlayer(env, room.ada, channel, locale="de", table_locale="de")
    bob = LocalPlayer(env, room.bob, channel, locale="id", table_locale="de")
    players = {room.ada.id: ada, room.bob.id: bob}

    # The one not on turn opens the panel (in their language) and clicks Draw on the German table:
    # refused, privately, in their language; nothing changes.
    game = game_in(env, channel)
    waiting = next(p for p in players.values() if p.seat() != game.to_play)
    await waiting.open_hand()
    refused = await waiting.actor.click(table_message(env, game), label="Ziehen")
    assert refused.ephemeral and refused.response is not None
    expected = t("error.turn.not_your_turn", waiting.locale)
    assert refused.response.content == t("refusal", waiting.locale, text=expected)
    assert game_in(env, channel).version == game.version

    for _ in range(400):
        game = game_in(env, channel)
        if not game.running:
            break
        seat = game.to_play
        assert seat is not None
        await players[game.seats[seat].user_id].play_turn()  # type: ignore[index]
        # After every turn the public table is German, whoever clicked.
        game = game_in(env, channel)
        if game.running:
            text = texts(table_message(env, game))
            assert english_words(text, "de") == [], text
    game = game_in(env, channel)
    assert not game.running and game.match is not None and game.match.over
    assert ada.panels > 3 and bob.panels > 3
    assert {"draw", "discard"} <= set(ada.moves) & set(bob.moves)
    # The round and match end are public: German.
    messages = [m async for m in bot_channel(env, channel).history(limit=10)]
    ends = [m for m in messages if m.embeds and m.embeds[0].title == "Runde 1 ist vorbei"]
    assert len(ends) == 1 and ends[0].embeds[-1].title == "Die Partie ist vorbei"
    assert first_button(ends[0]).label == "Neue Partie"
    # /romme score in the channel is public: the game's German; /romme rules is private: the member's.
    score = await room.bob.slash(channel, "romme score")
    assert score.response is not None and (score.response.embeds[0].title or "").startswith("Punktestand")
    rules = await room.bob.slash(channel, "romme rules")
    assert rules.ephemeral and rules.response is not None
    assert rules.response.embeds[0].title == "Rommé — aturan singkat"
    assert "tumpukan undian" in (rules.response.embeds[0].description or "")
    rules = await room.ada.slash(channel, "romme rules")
    assert rules.response is not None and rules.response.embeds[0].title == "Rommé — die Regeln in Kürze"


async def test_the_language_option_wins_over_the_servers_and_a_computer_is_named_in_it(
    room: Room, locales: dict[int, str]
) -> None:
    env, channel = room.env, room.channel
    locales.update({room.guild.id: "de", room.ada.id: "en-GB"})
    lobby = await start(room, language="id", computers=1)
    assert lobby.embeds[0].title == "Rommé — permainan baru"
    assert "2. Komputer 1" in texts(lobby) and "Bahasa: Bahasa Indonesia" in texts(lobby)
    # The host reads English privately: a second start points to this game, in English.
    again = await room.ada.slash(channel, "romme start")
    assert again.ephemeral and again.response is not None
    assert again.response.content.startswith("⚠️ This channel already has a game")
    assert game_in(env, channel).language == "id"


async def test_a_server_in_another_language_gets_english_tables(room: Room, locales: dict[int, str]) -> None:
    locales.update({room.guild.id: "fr", room.ada.id: "fr"})
    lobby = await start(room)
    assert lobby.embeds[0].title == "Rommé — a new game" and "Language: English" in texts(lobby)
    joined = await room.bob.slash(room.channel, "romme join")
    assert joined.ephemeral and joined.response is not None
    assert joined.response.content.startswith("You took a seat")
