"""``/romme preferences``, ``/romme help`` and the first panel's tip, through the real bot in SimCord;
and the server's settings and a member's preferences across a restart of the bot.

A member's preferences hold on every server and in every panel of theirs, the live edits included:
cards as text (no emoji face anywhere in their panels, which a screen reader reads as "8♣"), the
hand's order, the language of private answers, whether the table calls them by a mention.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from discord import app_commands
from simcord.results import InteractionResult

from bot.client import RommeBot
from bot.i18n import t
from bot.playground.session import interaction_locales
from bot.render.ids import parse_custom_id
from tests.discord.play_helpers import (
    Player,
    Room,
    components,
    game_in,
    romme_bot,
    seeded_bot,
    sent_select,
    service,
    table_message,
    texts,
)

LOCALES = ("en", "de", "id")
Restart = Callable[[], Awaitable[RommeBot]]


@pytest.fixture(params=LOCALES)
def locale(request: pytest.FixtureRequest, room: Room) -> Iterator[str]:
    """Every member of the room speaks this language (Discord's locale of their interactions)."""
    chosen = {member.id: request.param for member in (room.ada, room.bob, room.cy, room.dee)}
    with interaction_locales(chosen):
        yield request.param


@pytest.fixture
async def restart(room: Room, database_path: Path) -> AsyncIterator[Restart]:
    """``await restart()``: a new bot process on the same database (the old one closed)."""
    started: list[RommeBot] = []

    async def again() -> RommeBot:
        old = room.env.bot
        bot = seeded_bot(database_path)
        started.append(bot)
        await room.env.restart_bot(bot)
        await old.close()
        return bot

    yield again
    for bot in started:
        await bot.close()


async def prefer(room: Room, member: simcord.MemberActor, *choices: str) -> InteractionResult:
    """``member`` opens /romme preferences and makes each choice (``name=value``) in its list."""
    result = await member.slash(room.channel, "romme preferences")
    assert result.ephemeral and result.response is not None
    for choice in choices:
        result = await member.select(result.response, [choice])
        assert result.response is not None
    return result


def faces_in(message: Any) -> list[str]:
    """Every emoji face ``message`` carries: inline in its text, or as a component's emoji."""
    found = [part for part in texts(message).split() if "<:" in part]
    for item in components(message):
        found += [str(item["emoji"])] if item.get("emoji") else []
        found += [str(option["emoji"]) for option in item.get("options", []) if option.get("emoji")]
    return found


async def alone_with_a_computer(room: Room, host: simcord.MemberActor) -> None:
    result = await host.slash(room.channel, "romme start", computers=1, rounds=1, opening=0)
    assert result.response is not None
    await host.click(result.response, label=t("button.start", "en"))


# ---------------------------------------------------------------------- cards as text


async def test_with_text_cards_no_panel_of_the_member_carries_a_face(room: Room, locale: str) -> None:
    env = room.env
    saved = await prefer(room, room.bob, "cards=text")
    assert saved.response is not None and saved.response.content.startswith("✅")
    await alone_with_a_computer(room, room.bob)
    game = game_in(env, room.channel)
    assert faces_in(table_message(env, game)), "the public table shows faces (the bot has them)"
    bob = Player(env, room.bob, room.channel)
    panel = await bob.open_hand()
    assert faces_in(panel) == []
    hand = game.match.round.hand(bob.seat())  # type: ignore[union-attr]
    assert all(card.symbol.rstrip("\ufe0e") in texts(panel) for card in hand)  # read as "8♣"
    panel_id = panel.id
    # Two turns: every answer and every live edit of Bob's panel stays text.
    for _ in range(2):
        game = game_in(env, room.channel)
        assert game.running and game.to_play == bob.seat()
        await bob.click(t("button.draw", locale))  # the panel speaks Bob's language
        assert bob.panel is not None and faces_in(bob.panel) == []
        card = str(game_in(env, room.channel).match.round.hand(bob.seat())[0])  # type: ignore[union-attr]
        await bob.choose([card])
        await bob.click(t("button.discard", locale))  # the computer plays, Bob's panel follows
        kept = env.backend.get_message(room.channel.id, panel_id)
        assert "<:" not in str(kept.embeds) and "'emoji'" not in str(kept.components)
        assert bob.panel is not None and faces_in(bob.panel) == []


async def test_with_faces_each_panel_face_is_an_emoji_named_by_its_card(room: Room) -> None:
    env = room.env
    await alone_with_a_computer(room, room.ada)
    panel = await Player(env, room.ada, room.channel).open_hand()
    faces = faces_in(panel)
    assert faces
    words = ("spades", "hearts", "diamonds", "clubs", "joker")
    assert all(any(word in face for word in words) for face in faces)


# ---------------------------------------------------------------------- each preference


async def test_the_sort_preference_orders_a_new_panel(room: Room, locale: str) -> None:
    await prefer(room, room.bob, "sort=rank")
    await alone_with_a_computer(room, room.bob)
    panel = await Player(room.env, room.bob, room.channel).open_hand()
    states = [parse_custom_id(item.get("custom_id")) for item in components(panel)]
    # Every component carries the panel's order; Sort carries the one it switches to.
    sorts = {cid.action: cid.panel_state().sort for cid in states if cid is not None and cid.is_panel}
    assert sorts.pop("sort") == "suit" and set(sorts.values()) == {"rank"}


async def test_the_language_preference_wins_over_discords(room: Room, locale: str) -> None:
    chosen = "id" if locale != "id" else "de"
    result = await prefer(room, room.bob, f"language={chosen}")
    assert result.response is not None
    assert result.response.content.startswith(t("settings.saved", chosen, what="").strip())
    refused = await room.bob.slash(room.channel, "romme hand")
    assert refused.response is not None
    assert refused.response.content == "⚠️ " + t("error.game.none_here", chosen)
    # Back to Discord's: the member's own locale again.
    await prefer(room, room.bob, "language=default")
    refused = await room.bob.slash(room.channel, "romme hand")
    assert refused.response is not None and refused.response.content == "⚠️ " + t(
        "error.game.none_here", locale
    )


async def test_without_mentions_the_table_names_the_member_on_turn(room: Room, locale: str) -> None:
    await alone_with_a_computer(room, room.bob)
    game = game_in(room.env, room.channel)
    assert f"<@{room.bob.id}>" in (table_message(room.env, game).content or "")
    await prefer(room, room.bob, "mention=false")
    await Player(room.env, room.bob, room.channel).open_hand()  # any change redraws the table
    await room.bob.click(table_message(room.env, game), label=t("button.draw", "en"))
    content = table_message(room.env, game_in(room.env, room.channel)).content or ""
    assert f"<@{room.bob.id}>" not in content and "bob" in content


async def test_a_bad_value_and_another_members_panel_are_refused(room: Room, locale: str) -> None:
    result = await room.bob.slash(room.channel, "romme preferences")
    panel = result.response
    mine, dees = f"romme-pref:{room.bob.id}:pick", f"romme-pref:{room.dee.id}:pick"
    bad = sent_select(room.bob, panel, mine, ["cards=huge"], only_component=True)
    await room.env.settle()
    assert bad.response is not None
    setting = t("settings.name.cards", locale)
    assert bad.response.content == "⚠️ " + t("error.settings.bad_value", locale, setting=setting)
    other = sent_select(room.bob, panel, dees, ["cards=text"], only_component=True)
    await room.env.settle()
    assert other.response is not None
    assert other.response.content == "⚠️ " + t("error.settings.not_yours", locale)
    book = service(room.env).book
    assert (await book.member(room.bob.id)).cards == "faces" and (
        await book.member(room.dee.id)
    ).cards == "faces"


# ---------------------------------------------------------------------- help and the tip


async def test_help_in_the_members_language(room: Room, locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    result = await room.ada.slash(room.channel, "romme help")
    assert result.ephemeral and result.response is not None
    (embed,) = result.response.embeds
    assert embed.title == t("help.title", locale)
    shown = texts(result.response)
    for button in ("hand", "draw", "take", "meld", "lay_off", "discard"):
        assert t(f"button.{button}", locale) in shown
    # Every subcommand of /romme, as the bot registers them, is named.
    (group,) = [c for c in romme_bot(room.env).tree.get_commands() if c.name == "romme"]
    assert isinstance(group, app_commands.Group)
    missing = [c.name for c in group.commands if f"/romme {c.name}" not in shown]
    assert len(group.commands) >= 14 and missing == [], missing
    assert {"en": "docs/rules.md", "de": "docs/rules.de.md", "id": "docs/rules.id.md"}[locale] in shown
    # What resets at a new season and what carries over (the ratings' ``help.seasons``), and how a
    # match stopped early is rated (``help.early_end``, proved by tests/discord/test_rating_dodge.py).
    assert len(embed.fields) == 5 and t("help.seasons", locale) in shown
    assert embed.fields[-1].name == t("help.early_end.title", locale)
    assert t("help.early_end", locale) in shown


async def test_the_first_my_hand_carries_one_line_of_tip_and_never_again(
    room: Room, locale: str, restart: Restart
) -> None:
    await alone_with_a_computer(room, room.bob)
    first = await Player(room.env, room.bob, room.channel).open_hand()
    assert first.content == t("help.tip", locale) and len(first.content.splitlines()) == 1
    second = await Player(room.env, room.bob, room.channel).open_hand()
    assert not second.content
    await restart()
    third = await Player(room.env, room.bob, room.channel).open_hand()
    assert not third.content


# ---------------------------------------------------------------------- a restart


async def test_settings_and_preferences_survive_a_restart(room: Room, restart: Restart) -> None:
    import discord

    role = room.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    room.env.backend.add_member_role(room.guild.id, room.ada.id, role.id)
    panel = (await room.ada.slash(room.channel, "romme settings")).response
    assert panel is not None
    pick = next(item["custom_id"] for item in components(panel) if item["custom_id"].endswith(":pick"))
    await room.ada.select(panel, ["jokers=6"], custom_id=pick)
    await prefer(room, room.bob, "cards=text")
    await restart()
    await alone_with_a_computer(room, room.bob)
    game = game_in(room.env, room.channel)
    assert game.rules.jokers == 6 and game.server_rules
    assert faces_in(await Player(room.env, room.bob, room.channel).open_hand()) == []
