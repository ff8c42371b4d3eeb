"""The register of custom ids (issue 36): every family declared once and routed once, and the wire
format of the ids already on sent messages unchanged.

Buttons on messages sent before this change must keep working, so the grammars are checked against
what the bot accepted before it: the templates as they were (copied here as text, the last version
with one hand-written grammar per ``DynamicItem`` class), every id the pinned drawings carry
(``pinned_drawings.json`` pins their bytes), and a literal sample of every family's ids as the old
builders spelled them.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.render import ids
from bot.render.ids import FAMILIES, CustomId, PanelState, panel_id, parse_custom_id, public_id
from bot.render.ratings import BOARD_PAGE, board_id
from bot.render.replay import REPLAY_STEP, export_id, parse_replay_id, replay_id, round_select_id
from bot.render.settings import numbers_modal, parse_panel_id, preferences_panel, settings_panel
from bot.service.settings import MemberPreferences, ServerSettings
from cogs.components import REGISTER, Component, route_of
from tests.render.pinned_states import drawings, pinned_games

_N = r"(?:0|[1-9][0-9]{0,11})"
OLD_TEMPLATES = {
    "public": rf"^romme:(?P<game_id>{_N}):(?P<action>join|leave|add_computer|start|cancel|hand|draw|take"
    r"|next|again|stop_yes)\Z",
    "panel": rf"^romme:(?P<game_id>{_N}):(?P<action>p_draw|p_take|meld|layoff|swap|discard|takeback|hint"
    rf"|sort|select|target|drop):(?P<version>{_N})(?::(?P<sort>[sr])(?P<mode>[lw]?)\."
    r"(?P<cards>(?:[A2-9TJQK][SHDC]|JK){0,25}))?\Z",
    "replay_step": rf"^romme:(?P<game_id>{_N}):rv:(?P<step>{_N}):(?P<tag>[fpntlo])\Z",
    "replay_round": rf"^romme:(?P<game_id>{_N}):rr\Z",
    "replay_export": rf"^romme:(?P<game_id>{_N}):rx\Z",
    "board": r"rommelb:(?P<guild>[0-9]{1,20}):(?P<season>[0-9]{1,6}):(?P<page>[0-9]{1,6})",
    "settings": r"romme-set:(?P<owner>[0-9]{1,20}):(?P<what>pick|channels|role|numbers|reset)",
    "preferences": r"romme-pref:(?P<owner>[0-9]{1,20}):(?P<what>pick)",
}
"""Every custom-id grammar the bot accepted before the register (the union is what sent messages
may carry)."""

SAMPLES: dict[str, tuple[str, Any]] = {
    # family: (an id as the old builders wrote it, what the family reads of it)
    "join": ("romme:12:join", CustomId(12, "join")),
    "leave": ("romme:12:leave", CustomId(12, "leave")),
    "add_computer": ("romme:12:add_computer", CustomId(12, "add_computer")),
    "start": ("romme:12:start", CustomId(12, "start")),
    "cancel": ("romme:12:cancel", CustomId(12, "cancel")),
    "hand": ("romme:12:hand", CustomId(12, "hand")),
    "table_move": ("romme:0:take", CustomId(0, "take")),
    "round_end": ("romme:12:next", CustomId(12, "next")),
    "match_end": ("romme:999999999999:again", CustomId(999_999_999_999, "again")),
    "stop": ("romme:12:stop_yes", CustomId(12, "stop_yes")),
    "panel_button": ("romme:12:layoff:7:rl.THJKTH", CustomId(12, "layoff", 7, "rl.THJKTH")),
    "panel_select": ("romme:12:select:0", CustomId(12, "select", 0)),
    "replay_step": ("romme:12:rv:57:t", (12, 57, "t")),
    "replay_round": ("romme:12:rr", 12),
    "replay_export": ("romme:12:rx", 12),
    "board_page": ("rommelb:5:2:1", (5, 2, 1)),
    "settings_pick": ("romme-set:5:pick", ("romme-set", 5, "pick")),
    "settings_channels": ("romme-set:5:channels", ("romme-set", 5, "channels")),
    "settings_role": ("romme-set:5:role", ("romme-set", 5, "role")),
    "settings_button": ("romme-set:5:reset", ("romme-set", 5, "reset")),
    "preferences_pick": ("romme-pref:7:pick", ("romme-pref", 7, "pick")),
}
SAMPLES_BEFORE = frozenset(
    {
        "join",
        "leave",
        "add_computer",
        "start",
        "cancel",
        "hand",
        "table_move",
        "round_end",
        "match_end",
        "stop",
        "panel_button",
        "panel_select",
        "replay_step",
        "replay_round",
        "replay_export",
        "board_page",
        "settings_pick",
        "settings_channels",
        "settings_role",
        "settings_button",
        "preferences_pick",
    }
)
"""The families of issue 36, whose ids are exactly those the old grammars accepted; a family added
after it gets a sample in :data:`SAMPLES`, not a name here."""
MORE_SAMPLES = [
    "romme:3:draw",
    "romme:3:p_draw:9",
    "romme:3:p_take:9:s.",
    "romme:3:meld:12:s.THJKTH",
    "romme:3:swap:1:rw.JK",
    "romme:3:discard:1:s.AS",
    "romme:3:takeback:1:s.",
    "romme:3:hint:1:r.",
    "romme:3:sort:1:r.2C3C",
    "romme:3:target:2:sl.QD",
    "romme:3:drop:2:s.",
    "romme:3:rv:0:o",
    "romme:3:rv:4:f",
    "romme:3:rv:4:p",
    "romme:3:rv:4:n",
    "romme:3:rv:4:l",
    "romme-set:12345678901234567890:numbers",
]


def test_every_family_is_declared_once_and_routed_once() -> None:
    routed = [route.family for route in REGISTER]
    assert len({family.name for family in FAMILIES}) == len(FAMILIES)
    assert sorted(f.name for f in routed) == sorted(f.name for f in FAMILIES)
    assert set(SAMPLES) == {family.name for family in FAMILIES}, "a family without a sample here"


def test_a_sample_of_every_family_is_read_by_it_alone() -> None:
    for name, (custom_id, read) in SAMPLES.items():
        matching = [route.family.name for route in REGISTER if route.family.match(custom_id)]
        assert matching == [name], custom_id
        route = route_of(custom_id)
        assert route is not None and route.family.parse(custom_id) == read


def test_the_builders_write_the_ids_as_before() -> None:
    assert public_id(12, "add_computer") == "romme:12:add_computer"
    assert ids.JOIN.build(game_id=12) == "romme:12:join"
    assert panel_id(12, "layoff", 7, PanelState("rank", "lay_off", ("10H", "JK", "10H"))) == (
        "romme:12:layoff:7:rl.THJKTH"
    )
    assert replay_id(12, 57, "t") == "romme:12:rv:57:t"
    assert (round_select_id(12), export_id(12), board_id(5, 2, 1)) == (
        "romme:12:rr",
        "romme:12:rx",
        "rommelb:5:2:1",
    )
    assert REPLAY_STEP.build(game_id=3, step=0, tag="o") == "romme:3:rv:0:o"
    assert BOARD_PAGE.build(guild=5, season=2, page=1) == "rommelb:5:2:1"
    _, view = settings_panel(ServerSettings(), guild_id=5, turn_timeout=120, lobby_timeout=900)
    drawn = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert drawn == [SAMPLES[n][0] for n in ("settings_pick", "settings_channels", "settings_role")] + [
        "romme-set:5:numbers",
        "romme-set:5:reset",
    ]
    assert numbers_modal(ServerSettings(), guild_id=5).custom_id == "romme-set:5:numbers"
    _, preferences = preferences_panel(MemberPreferences(), user_id=7)
    assert [item.custom_id for item in preferences.children] == ["romme-pref:7:pick"]  # type: ignore[attr-defined]
    for item in [*view.children, *preferences.children]:
        route = route_of(item.custom_id)  # type: ignore[attr-defined]
        assert route is not None and item.type in route.family.kinds, item
    with pytest.raises(ValueError, match="would not parse back"):
        replay_id(12, -1, "t")


def test_the_old_readers_read_as_before() -> None:
    assert parse_custom_id("romme:12:layoff:7:rl.THJKTH") == SAMPLES["panel_button"][1]
    assert parse_replay_id("romme:12:rv:57:t") == (12, 57, "t")
    assert parse_panel_id("romme-set:5:numbers") == ("romme-set", 5, "numbers")
    assert parse_panel_id("romme-pref:7:role") is None


def test_every_sample_id_is_accepted_as_before() -> None:
    old = [re.compile(template) for template in OLD_TEMPLATES.values()]
    for custom_id in [sample for sample, _ in SAMPLES.values()] + MORE_SAMPLES:
        assert any(pattern.fullmatch(custom_id) for pattern in old), custom_id
        assert route_of(custom_id) is not None, custom_id


def test_every_id_of_the_pinned_drawings_is_read_and_written_back() -> None:
    seen: set[str] = set()
    for game in pinned_games():
        found = drawings(game)
        parts = [found["table"], *found["panels"].values()]
        for part in parts:
            for row in part["components"]:
                for component in row["components"]:
                    custom_id = component.get("custom_id")
                    if custom_id is None:
                        continue
                    route = route_of(custom_id)
                    assert route is not None, custom_id
                    assert component["type"] in {kind.value for kind in route.family.kinds}, custom_id
                    read = route.family.parse(custom_id)
                    assert isinstance(read, CustomId) and str(read) == custom_id
                    seen.add(route.family.name)
    assert seen == {"hand", "table_move", "panel_button", "panel_select"}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(OLD_TEMPLATES.values())).flatmap(lambda t: st.from_regex(t, fullmatch=True)))
def test_an_id_the_old_grammars_accepted_is_read_the_same_way(custom_id: str) -> None:
    if len(custom_id) > ids.MAX_CUSTOM_ID:
        return  # Discord never sends one; the old parser refused it too
    route = route_of(custom_id)
    assert route is not None, custom_id
    [old] = [m for t in OLD_TEMPLATES.values() if (m := re.fullmatch(t, custom_id))]
    new = route.family.match(custom_id)
    assert new is not None
    assert {k: v for k, v in old.groupdict().items() if k in new.groupdict()} == new.groupdict()


FAMILIES_BEFORE = [family for family in FAMILIES if family.name in SAMPLES_BEFORE]
"""The families that split the old grammars (a family added later is a new wire format)."""


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FAMILIES_BEFORE).flatmap(lambda family: st.from_regex(family.template, fullmatch=True))
)
def test_an_id_a_family_accepts_the_old_grammars_accepted(custom_id: str) -> None:
    assert any(re.fullmatch(template, custom_id) for template in OLD_TEMPLATES.values()), custom_id


def test_the_bot_registers_one_generic_component_for_every_id() -> None:
    assert Component.__discord_ui_compiled_template__.fullmatch("anything: romme:²:join")
    assert route_of("romme:12:join:3") is None and route_of("romme-set:5:pick" + "0" * 100) is None


async def test_an_id_on_another_kind_of_component_is_read_as_nothing() -> None:
    button = discord.ui.Button[Any](custom_id="romme-set:5:pick")
    match = Component.__discord_ui_compiled_template__.fullmatch("romme-set:5:pick")
    assert match is not None
    item = await Component.from_custom_id(None, button, match)  # type: ignore[arg-type]
    assert item.route is not None and item.route.family.name == "settings_pick" and item.read is None
    select = discord.ui.Select[Any](custom_id="romme-set:5:pick")
    item = await Component.from_custom_id(None, select, match)  # type: ignore[arg-type]
    assert item.read == ("romme-set", 5, "pick")


def test_every_action_word_the_handlers_name_is_a_declared_one() -> None:
    from bot.render.actions import _PILE_MOVES
    from bot.render.ids import MODE_OF_ACTION, PANEL_ACTIONS, PUBLIC_ACTIONS
    from cogs.clicks import PANEL_VIEW_ONLY, PRIVATE_ACTIONS

    named = set(_PILE_MOVES) | set(PANEL_VIEW_ONLY) | set(MODE_OF_ACTION) | PRIVATE_ACTIONS
    assert named <= set(PUBLIC_ACTIONS) | set(PANEL_ACTIONS)
    assert set(PANEL_VIEW_ONLY) | set(MODE_OF_ACTION) <= set(PANEL_ACTIONS)
