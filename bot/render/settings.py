"""The private panels of ``/romme settings`` and ``/romme preferences``, the numbers' modal, and
``/romme help``.

The panels' components carry ids of their own (``romme-set:<server>:<what>``,
``romme-pref:<member>:<what>``), outside the ``romme:`` ids of the games: a click names the server
or the member it was drawn for, and the cog checks it is clicked there, by them. Every label and
option stays within Discord's limits (25 options, 100 characters a label, 45 a modal's label).

>>> from bot.service.settings import ServerSettings, MemberPreferences
>>> server = ServerSettings(threads=True)
>>> embed, view = settings_panel(server, guild_id=5, turn_timeout=120, lobby_timeout=900)
>>> [item.custom_id for item in view.children]
['romme-set:5:pick', 'romme-set:5:channels', 'romme-set:5:role', 'romme-set:5:numbers', 'romme-set:5:reset']
>>> embed, view = preferences_panel(MemberPreferences(cards="text"), user_id=7)
>>> [item.custom_id for item in view.children], len(view.children[0].options)
(['romme-pref:7:pick'], 10)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.rules import Flag, OneOf
from bot.i18n import has, language_name, t
from bot.render.common import check_embed, house_rule_lines, new_embed
from bot.render.ids import Family
from bot.render.summary import rule_book_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.service.settings import MemberPreferences, ServerSettings, Setting

SETTINGS_PREFIX = "romme-set"
PREFERENCES_PREFIX = "romme-pref"
_OWNER = "[0-9]{1,20}"


def _panel_id(found: re.Match[str]) -> tuple[str, int, str]:
    return found.string.split(":", 1)[0], int(found["owner"]), found["what"]


def _panel_family(
    name: str, prefix: str, what: tuple[str, ...], kind: discord.ComponentType
) -> Family[tuple[str, int, str]]:
    """A family of a private panel's components: ``<prefix>:<owner>:<what>``, read as
    ``(prefix, owner, what)``."""
    return Family(
        name, prefix + ":{owner}:{what}", {"owner": _OWNER, "what": what}, kinds=(kind,), read=_panel_id
    )


SETTINGS_PICK = _panel_family(
    "settings_pick", SETTINGS_PREFIX, ("pick",), discord.ComponentType.string_select
)
"""The settings panel's list of choices."""
SETTINGS_CHANNELS = _panel_family(
    "settings_channels", SETTINGS_PREFIX, ("channels",), discord.ComponentType.channel_select
)
"""The channels games may start in."""
SETTINGS_ROLE = _panel_family("settings_role", SETTINGS_PREFIX, ("role",), discord.ComponentType.role_select)
"""The game-master role."""
SETTINGS_BUTTONS = _panel_family(
    "settings_button", SETTINGS_PREFIX, ("numbers", "reset"), discord.ComponentType.button
)
"""Numbers… (the modal, whose own id is ``romme-set:<server>:numbers`` too) and Reset all."""
PREFERENCES_PICK = _panel_family(
    "preferences_pick", PREFERENCES_PREFIX, ("pick",), discord.ComponentType.string_select
)
"""The preferences panel's list of choices."""
PANEL_FAMILIES = (SETTINGS_PICK, SETTINGS_CHANNELS, SETTINGS_ROLE, SETTINGS_BUTTONS, PREFERENCES_PICK)
"""Every family of the private panels' components."""
NUMBERS_MODAL = "numbers"
TYPED_LENGTH = 4
"""Characters an input of the numbers' modal takes."""
HELP_HOOKS = ("help.seasons", "help.early_end")
"""Catalog keys the help shows, at its end, once a feature adds them (the ratings' seasons, how a
match stopped early is rated)."""


def parse_panel_id(custom_id: str) -> tuple[str, int, str] | None:
    """``(prefix, owner id, what)`` of a panel component's id; ``None`` for any other id.

    >>> parse_panel_id("romme-set:12:role"), parse_panel_id("romme-pref:7:pick")
    (('romme-set', 12, 'role'), ('romme-pref', 7, 'pick'))
    >>> parse_panel_id("romme:1:join") is None
    True
    """
    for family in PANEL_FAMILIES:
        found = family.parse(custom_id)
        if found is not None:
            return found
    return None


def _on_off(value: bool) -> str:
    return t("settings.on" if value else "settings.off")


def game_lines(settings: ServerSettings, *, turn_timeout: float, lobby_timeout: float) -> list[str]:
    """The settings of a server's games that are not house rules, one line each; ``turn_timeout``
    and ``lobby_timeout`` (seconds) are the bot's, shown where the server keeps the bot's.

    >>> from bot.service.settings import ServerSettings
    >>> game_lines(ServerSettings(turn_timeout=90), turn_timeout=120, lobby_timeout=900)[1:3]
    ['Turn timer: 90 s', 'An unstarted lobby closes after 15 min']
    """
    language = language_name(settings.language) if settings.language else t("settings.language.server")
    turn = settings.turn_timeout if settings.turn_timeout is not None else round(turn_timeout)
    lobby = settings.lobby_timeout if settings.lobby_timeout is not None else round(lobby_timeout / 60)
    return [
        t("settings.line.language", language=language),
        t("settings.line.turn_timeout", seconds=turn),
        t("settings.line.lobby_timeout", minutes=lobby),
        t("settings.line.computer_level", level=t(f"settings.level.{settings.computer_level}")),
        t("settings.line.threads", value=_on_off(settings.threads)),
    ]


def place_lines(settings: ServerSettings) -> list[str]:
    """Where games may start and who runs them.

    >>> from bot.service.settings import ServerSettings
    >>> place_lines(ServerSettings(channels=(5,), game_master_role=7))
    ['Games may start in: <#5>', 'Game-master role: <@&7>']
    """
    channels = " ".join(f"<#{channel}>" for channel in settings.channels) or t("settings.channels.all")
    role = f"<@&{settings.game_master_role}>" if settings.game_master_role else t("settings.role.none")
    return [t("settings.line.channels", channels=channels), t("settings.line.role", role=role)]


def season_line(settings: ServerSettings) -> str:
    """How long the server's ratings' seasons last.

    >>> from bot.service.settings import ServerSettings
    >>> season_line(ServerSettings()), season_line(ServerSettings(season_length=7))
    ('Seasons: a calendar month (UTC) each', 'Seasons: 7 days each')
    """
    length = settings.season_length
    if length is None:
        words = t("settings.season.manual")
    elif length == "monthly":
        words = t("settings.season.monthly")
    else:
        words = t("settings.season.days", count=length)
    return t("settings.line.season_length", length=words)


_LABELS: dict[str, Callable[[str], str]] = {
    "language": lambda code: t(
        "settings.line.language",
        language=t("settings.language.server") if code == "default" else language_name(code),
    ),
    "computer_level": lambda level: t("settings.line.computer_level", level=t(f"settings.level.{level}")),
    "threads": lambda value: t("settings.line.threads", value=_on_off(value == "true")),
    "season_length": lambda kind: t("settings.line.season_length", length=t(f"settings.season.{kind}")),
}
"""The list's label of each value of a setting that is not a house rule."""


def _label(setting: Setting, value: str) -> str:
    """The list's label of ``setting=value``. A house rule's is its line of the rules: a flag's
    ``rules.<name>.on``/``.off``, a number's ``rules.<name>`` with its ``count``, a word's
    ``rules.<name>.<word>``."""
    if not setting.rule:
        return _LABELS[setting.name](value)
    if isinstance(setting.bound, Flag):
        return t(f"rules.{setting.name}.{'on' if value == 'true' else 'off'}")
    if isinstance(setting.bound, OneOf) and all(isinstance(v, int) for v in setting.bound.values):
        return t(f"rules.{setting.name}", count=int(value))
    return t(f"rules.{setting.name}.{value}")


def _choices(settings: ServerSettings) -> list[tuple[str, str]]:
    """``(value, label)`` of every setting chosen from a list: ``name=value``, in the settings' order
    (:meth:`Setting.choices`)."""
    return [
        (choice, _label(setting, choice.partition("=")[2]))
        for setting in settings.SETTINGS
        for choice in setting.choices()
    ]


def settings_panel(
    settings: ServerSettings, *, guild_id: int, turn_timeout: float, lobby_timeout: float
) -> tuple[discord.Embed, discord.ui.View]:
    """The panel of ``/romme settings``: the server's defaults, and the components that change them
    (see the module's example)."""
    embed = new_embed(t("settings.title"), t("settings.description"))
    embed.add_field(
        name=t("settings.house_rules"), value="\n".join(house_rule_lines(settings.rules)), inline=False
    )
    embed.add_field(
        name=t("settings.games"),
        value="\n".join(game_lines(settings, turn_timeout=turn_timeout, lobby_timeout=lobby_timeout)),
        inline=False,
    )
    embed.add_field(name=t("settings.places"), value="\n".join(place_lines(settings)), inline=False)
    embed.add_field(name=t("settings.ratings"), value=season_line(settings), inline=False)
    view = discord.ui.View(timeout=None)
    pick: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=SETTINGS_PICK.build(owner=guild_id),
        placeholder=t("settings.pick"),
        options=[discord.SelectOption(label=label[:100], value=value) for value, label in _choices(settings)],
    )
    view.add_item(pick)
    channels: discord.ui.ChannelSelect[Any] = discord.ui.ChannelSelect(
        custom_id=SETTINGS_CHANNELS.build(owner=guild_id),
        placeholder=t("settings.channels.pick"),
        channel_types=[discord.ChannelType.text],
        min_values=0,
        max_values=next(s for s in settings.SETTINGS if s.name == "channels").span.high,
        default_values=[discord.Object(id=c, type=discord.abc.GuildChannel) for c in settings.channels],
    )
    view.add_item(channels)
    role: discord.ui.RoleSelect[Any] = discord.ui.RoleSelect(
        custom_id=SETTINGS_ROLE.build(owner=guild_id),
        placeholder=t("settings.role.pick"),
        min_values=0,
        max_values=1,
        default_values=(
            [discord.Object(id=settings.game_master_role, type=discord.Role)]
            if settings.game_master_role
            else []
        ),
    )
    view.add_item(role)
    view.add_item(
        discord.ui.Button(
            custom_id=SETTINGS_BUTTONS.build(owner=guild_id, what="numbers"),
            label=t("settings.numbers"),
            style=discord.ButtonStyle.primary,
        )
    )
    view.add_item(
        discord.ui.Button(
            custom_id=SETTINGS_BUTTONS.build(owner=guild_id, what="reset"),
            label=t("settings.reset"),
            style=discord.ButtonStyle.danger,
        )
    )
    view.stop()
    return check_embed(embed), view


def numbers_modal(
    settings: ServerSettings, *, guild_id: int, make: type[discord.ui.Modal] = discord.ui.Modal
) -> discord.ui.Modal:
    """The modal of the settings typed as numbers, filled with the server's (empty: the default);
    ``make`` is the modal's class (the cog's, which handles the submission).

    >>> from bot.service.settings import ServerSettings
    >>> modal = numbers_modal(ServerSettings(turn_timeout=90), guild_id=5)
    >>> modal.custom_id, [label.component.default for label in modal.children]
    ('romme-set:5:numbers', ['40', None, '90', None, None])
    """
    modal = make(
        title=t("settings.numbers.title")[:45],
        custom_id=SETTINGS_BUTTONS.build(owner=guild_id, what=NUMBERS_MODAL),
    )
    for setting in settings.SETTINGS:
        if not setting.typed:
            continue
        value = settings.value(setting.name)
        # Numbers only: a monthly or by-hand season is chosen in the panel's list.
        shown = str(value) if isinstance(value, int) and not isinstance(value, bool) else None
        typed: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id=setting.name,
            placeholder=t(f"settings.input.{setting.name}.hint")[:100],
            default=shown,
            required=False,
            max_length=TYPED_LENGTH,
        )
        span = setting.span
        label = t(f"settings.input.{setting.name}", low=span.low, high=span.high)
        modal.add_item(discord.ui.Label(text=label[:45], component=typed))
    return modal


def setting_name(name: str) -> str:
    """A setting's name in words, for a refusal or a confirmation.

    >>> setting_name("turn_timeout")
    'turn timer'
    """
    return t(f"settings.name.{name}")


def _preference_label(setting: Setting, value: str) -> str:
    """The preferences list's label of ``setting=value``: ``preferences.<name>.<value>`` (a flag's
    ``.on``/``.off``); the language's names the language."""
    if setting.name == "language":
        language = t("preferences.language.discord") if value == "default" else language_name(value)
        return t("preferences.language", language=language)
    if isinstance(setting.bound, Flag):
        value = "on" if value == "true" else "off"
    return t(f"preferences.{setting.name}.{value}")


def _preference_options(preferences: MemberPreferences) -> list[tuple[str, str]]:
    """``(value, label)`` of every choice of the preferences panel's list: ``name=value``."""
    return [
        (choice, _preference_label(setting, choice.partition("=")[2]))
        for setting in preferences.SETTINGS
        for choice in setting.choices()
    ]


def preferences_panel(
    preferences: MemberPreferences, *, user_id: int
) -> tuple[discord.Embed, discord.ui.View]:
    """The panel of ``/romme preferences``: the member's choices and one list to change them (see
    the module's example)."""
    language = (
        language_name(preferences.language) if preferences.language else t("preferences.language.discord")
    )
    lines = [
        t(f"preferences.cards.{preferences.cards}"),
        t(f"preferences.sort.{preferences.sort}"),
        t("preferences.language", language=language),
        t("preferences.mention.on" if preferences.mention else "preferences.mention.off"),
    ]
    embed = new_embed(t("preferences.title"), t("preferences.description") + "\n\n" + "\n".join(lines))
    options = _preference_options(preferences)
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=PREFERENCES_PICK.build(owner=user_id),
            placeholder=t("preferences.pick"),
            options=[discord.SelectOption(label=label[:100], value=value) for value, label in options],
        )
    )
    view.stop()
    return check_embed(embed), view


def help_embed(book_url: str | None = None) -> discord.Embed:
    """``/romme help``: Rommé in three lines, a turn in five steps with the buttons' names, the
    commands, and where the rule book is (linked in the language spoken when ``book_url``, the
    books' folder ``RULES_URL``, is known), in the language spoken.

    >>> embed = help_embed()
    >>> embed.title, len(embed.fields), "**Draw**" in embed.fields[0].value
    ('Rommé: how to play', 5, True)
    """
    buttons = {key: t(f"button.{key}") for key in ("hand", "draw", "take", "meld", "lay_off", "discard")}
    embed = new_embed(t("help.title"), t("help.about"))
    embed.add_field(name=t("help.turn"), value=t("help.turn.steps", **buttons), inline=False)
    embed.add_field(name=t("help.commands"), value=t("help.commands.list"), inline=False)
    embed.add_field(name=t("help.rule_book"), value=rule_book_line(book_url), inline=False)
    # Hooks of features landing beside this one (the ratings' seasons): shown once the key exists.
    for key in HELP_HOOKS:
        if has(key):
            embed.add_field(name=t(f"{key}.title"), value=t(key), inline=False)
    return check_embed(embed)


__all__ = [
    "HELP_HOOKS",
    "PANEL_FAMILIES",
    "PREFERENCES_PICK",
    "PREFERENCES_PREFIX",
    "SETTINGS_BUTTONS",
    "SETTINGS_CHANNELS",
    "SETTINGS_PICK",
    "SETTINGS_PREFIX",
    "SETTINGS_ROLE",
    "game_lines",
    "help_embed",
    "numbers_modal",
    "parse_panel_id",
    "place_lines",
    "preferences_panel",
    "season_line",
    "setting_name",
    "settings_panel",
]
