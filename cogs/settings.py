"""``/romme settings``, ``/romme preferences`` and ``/romme help``: what their commands and their
panels' components do.

A server's settings are changed by a member with Manage Server or the server's game-master role,
asked again at every click (a role taken away meanwhile stops the next change). The game-master role
itself only by Manage Server, and never to @everyone, a managed role or one at or above the bot's own
(:meth:`~bot.service.settings.ServerSettings.with_game_master`): a game master cannot hand the right
on. A click names the server (or the member) its panel was drawn for: it is refused elsewhere. Every
change is checked by :mod:`bot.service.settings` before it is saved; a refusal says what was wrong
and changes nothing; a saved change is said in one line above the panel, redrawn.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.publish.panels import as_member
from bot.render import refusal, refusal_for
from bot.render.common import house_rule_lines
from bot.render.settings import (
    NUMBERS_MODAL,
    PREFERENCES_PREFIX,
    SETTINGS_PREFIX,
    game_lines,
    help_embed,
    numbers_modal,
    parse_panel_id,
    place_lines,
    preferences_panel,
    season_line,
    setting_name,
    settings_panel,
)
from bot.service import TableError
from bot.service.numbers import snowflake
from bot.service.settings import (
    LISTED_CHOICES,
    PREFERENCE_CHOICES,
    ROLE_SETTING,
    RULE_SETTINGS,
    SETTING_NAMES,
    TYPED_SETTINGS,
    MemberPreferences,
    PickedRole,
    ServerSettings,
)
from cogs.clicks import answer_privately

if TYPE_CHECKING:
    from bot.client import RommeBot
    from bot.service.settings import SettingsBook

log = logging.getLogger(__name__)

LINE_ORDER = (*RULE_SETTINGS, "language", "turn_timeout", "lobby_timeout", "computer_level", "threads")


def role_ids(member: object) -> list[int]:
    """The ids of a member's roles (none for a user outside a server).

    >>> role_ids(object())
    []
    """
    roles = getattr(member, "roles", None) or []
    return [role.id for role in roles]


def manages_server(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member has Manage Server (as Discord sends it with the interaction, which a
    forged component cannot change)."""
    return interaction.permissions.manage_guild


def picked_role(guild: discord.Guild, values: Sequence[str]) -> PickedRole | None:
    """The role a game-master role select chose (``None``: none), as the facts the service rules on.
    Refused: anything but one role id (``settings.bad_value``), a role the server does not have (any
    more: ``settings.role_gone``)."""
    ids = [snowflake(value) for value in values]
    if len(ids) > 1 or None in ids:
        raise TableError("settings.bad_value", setting=ROLE_SETTING)
    if not ids:
        return None
    role = guild.get_role(ids[0] or 0)
    if role is None:
        raise TableError("settings.role_gone")
    me = guild.me
    return PickedRole(
        role.id,
        everyone=role.is_default(),
        managed=role.managed,
        # Without its own member the bot cannot tell: refused as if above.
        above_bot=me is None or role >= me.top_role,
    )


async def runs_games(book: SettingsBook, interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may change the server's settings and stop any of its games: Manage
    Server, or the server's game-master role."""
    if interaction.permissions.manage_guild:
        return True
    if interaction.guild_id is None:
        return False
    settings = await book.server(interaction.guild_id)
    return settings.runs_games(role_ids(interaction.user))


NAMED_SETTINGS = frozenset((*SETTING_NAMES, "cards", "sort", "mention"))
"""The settings and preferences a refusal names in words; any other name (a forged one) is "setting"."""


def _named(exc: TableError) -> TableError:
    """The refusal with the setting's code name put in words (a name that is none of ours, forged,
    as the word "setting": no catalog entry is looked up by a forged name).

    >>> _named(TableError("settings.bad_value", setting="nope")).params
    {'setting': 'setting'}
    """
    setting = exc.params.get("setting")
    if isinstance(setting, str):
        named = setting_name(setting if setting in NAMED_SETTINGS else "?")
        return TableError(exc.code, **{**exc.params, "setting": named})
    return exc


def offered(choice: str, choices: frozenset[str]) -> str:
    """The setting named by ``choice``, a list's value, if the list offers it; a refusal naming the
    setting otherwise (a list gives only its options: any other value is forged).

    >>> offered("jokers=6", frozenset({"jokers=6"}))
    'jokers'
    >>> offered("jokers=²", frozenset({"jokers=6"}))
    Traceback (most recent call last):
    ...
    bot.service.errors.TableError: settings.bad_value {'setting': 'jokers'}
    """
    name = choice.partition("=")[0]
    if choice not in choices:
        raise TableError("settings.bad_value", setting=name)
    return name


class Panels:
    """The handlers of the settings' and the preferences' panels over ``bot``."""

    def __init__(self, bot: RommeBot) -> None:
        self.bot = bot

    @property
    def book(self) -> SettingsBook:
        """The servers' settings and the members' preferences."""
        return self.bot.tables.book

    async def member(self, interaction: discord.Interaction[Any]) -> MemberPreferences:
        """The member's preferences (read once per process, then kept)."""
        return await self.book.known(interaction.user.id)

    def _panel(self, settings: ServerSettings, guild_id: int) -> tuple[discord.Embed, discord.ui.View]:
        return settings_panel(
            settings,
            guild_id=guild_id,
            turn_timeout=self.bot.settings.turn_timeout,
            lobby_timeout=self.bot.settings.lobby_timeout,
        )

    def _line(self, settings: ServerSettings, name: str) -> str:
        """What one setting is now, in the words of the panel."""
        lines = dict(
            zip(
                LINE_ORDER,
                [
                    *house_rule_lines(settings.rules),
                    *game_lines(
                        settings,
                        turn_timeout=self.bot.settings.turn_timeout,
                        lobby_timeout=self.bot.settings.lobby_timeout,
                    ),
                ],
                strict=True,
            )
        )
        channels, role = place_lines(settings)
        lines |= {"channels": channels, "game_master_role": role, "season_length": season_line(settings)}
        return lines[name]

    # ------------------------------------------------------------------ the commands

    async def open_settings(self, interaction: discord.Interaction[Any]) -> None:
        """``/romme settings``: the panel, or a short refusal for a member without the right."""
        preferences = await self.member(interaction)
        with as_member(preferences, interaction.locale):
            guild_id = interaction.guild_id or 0
            if not await runs_games(self.book, interaction):
                await answer_privately(interaction, refusal(t("error.settings.not_allowed")))
                return
            settings = await self.book.server(guild_id)
            embed, view = self._panel(settings, guild_id)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def open_preferences(self, interaction: discord.Interaction[Any]) -> None:
        """``/romme preferences``: the member's own panel."""
        preferences = await self.book.member(interaction.user.id)
        with as_member(preferences, interaction.locale):
            embed, view = preferences_panel(preferences, user_id=interaction.user.id)
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def open_help(self, interaction: discord.Interaction[Any]) -> None:
        """``/romme help``, in the member's language."""
        with as_member(await self.member(interaction), interaction.locale):
            embed = help_embed(self.bot.settings.rules_url)
            await interaction.response.send_message(embed=embed, ephemeral=True)

    # ------------------------------------------------------------------ the panels' components

    async def click(
        self,
        interaction: discord.Interaction[Any],
        parsed: tuple[str, int, str] | None,
        values: Sequence[str],
    ) -> None:
        """A component of either panel, its id read as ``(prefix, owner, what)`` (``None``: forged);
        every outcome is answered."""
        preferences = await self.member(interaction)
        with as_member(preferences, interaction.locale):
            try:
                if parsed is None:
                    raise TableError("settings.bad_value", setting="?")
                prefix, owner, what = parsed
                if prefix == PREFERENCES_PREFIX:
                    await self._preference(interaction, owner, values, preferences)
                else:
                    await self._setting(interaction, owner, what, values)
            except TableError as exc:
                await answer_privately(interaction, refusal_for(_named(exc)))

    async def _preference(
        self,
        interaction: discord.Interaction[Any],
        owner: int,
        values: Sequence[str],
        preferences: MemberPreferences,
    ) -> None:
        if owner != interaction.user.id:
            raise TableError("settings.not_yours")
        choice = values[0] if len(values) == 1 else ""
        offered(choice, PREFERENCE_CHOICES)
        name, _, value = choice.partition("=")
        changed = preferences.changed(name, value)
        await self.book.save_member(interaction.user.id, changed)
        # The answer already speaks the language just chosen, with the cards just chosen.
        with as_member(changed, interaction.locale):
            embed, view = preferences_panel(changed, user_id=owner)
            line = t("settings.saved", what=t(f"preferences.name.{name}"))
            await interaction.response.edit_message(content=line, embed=embed, view=view)

    async def _setting(
        self, interaction: discord.Interaction[Any], owner: int, what: str, values: Sequence[str]
    ) -> None:
        guild = interaction.guild
        if guild is None or owner != guild.id:
            raise TableError("settings.other_server")
        if not await runs_games(self.book, interaction):
            raise TableError("settings.not_allowed")
        settings = await self.book.server(guild.id)
        if what == "numbers":
            modal = numbers_modal(settings, guild_id=guild.id)
            # Not kept by discord.py (which keeps one modal per custom id, until it is submitted):
            # every submission, also one after a restart or a second admin's, is read by
            # :meth:`submitted`.
            modal.stop()
            await interaction.response.send_modal(modal)
            return
        if what in ("channels", "role") and any(snowflake(value) is None for value in values):
            # A channel or a role is chosen by its id: anything else is forged (ASCII digits only).
            setting = "channels" if what == "channels" else "game_master_role"
            raise TableError("settings.bad_value", setting=setting)
        if what == "reset":
            changed = settings.reset(manages_server=manages_server(interaction))
            kept = changed.game_master_role is not None
            what_changed = t("settings.reset.kept_role") if kept else t("settings.reset.done")
            await self.save_and_refresh(interaction, guild.id, changed, [], what=what_changed)
            return
        if what == "pick":
            choice = values[0] if len(values) == 1 else ""
            offered(choice, LISTED_CHOICES)
            name, _, value = choice.partition("=")
            changed = settings.changed(name, value)
        elif what == "channels":
            name = "channels"
            ids = [int(v) for v in values]  # ids (checked above)
            for channel_id in ids:
                if guild.get_channel(channel_id) is None:
                    raise TableError("settings.channel_elsewhere", channel=f"<#{channel_id}>")
            changed = settings.changed("channels", ids)
        else:  # the game-master role
            name = ROLE_SETTING
            if not manages_server(interaction):
                raise TableError("settings.role_needs_manage_server")
            changed = settings.with_game_master(picked_role(guild, values))
        await self.save_and_refresh(interaction, guild.id, changed, [name])

    async def save_and_refresh(
        self,
        interaction: discord.Interaction[Any],
        guild_id: int,
        changed: ServerSettings,
        names: Sequence[str],
        *,
        what: str | None = None,
    ) -> None:
        """Save the server's settings, and redraw the panel with one line saying what changed (the
        ``names`` settings as they are now, or ``what``). Whoever may not change the game-master role
        is refused if ``changed`` does (:meth:`SettingsBook.save_server`)."""
        await self.book.save_server(guild_id, changed, manages_server=manages_server(interaction))
        what = what or " · ".join(self._line(changed, name) for name in names) or t("settings.reset.done")
        embed, view = self._panel(changed, guild_id)
        line = t("settings.saved", what=what)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(content=line, embed=embed, view=view)
        else:
            await interaction.response.send_message(line, embed=embed, view=view, ephemeral=True)

    async def numbers(
        self, interaction: discord.Interaction[Any], guild_id: int, typed: Mapping[str, str]
    ) -> None:
        """The numbers' modal submitted: every value checked, then all saved at once, or none."""
        with as_member(await self.member(interaction), interaction.locale):
            try:
                guild = interaction.guild
                if guild is None or guild.id != guild_id:
                    raise TableError("settings.other_server")
                if not await runs_games(self.book, interaction):
                    raise TableError("settings.not_allowed")
                before = await self.book.server(guild_id)
                changed = before.typed(typed)
                names = [name for name in TYPED_SETTINGS if changed.value(name) != before.value(name)]
                await self.save_and_refresh(interaction, guild_id, changed, names)
            except TableError as exc:
                await answer_privately(interaction, refusal_for(_named(exc)))

    async def submitted(self, interaction: discord.Interaction[Any]) -> None:
        """A modal submitted (the bot's one modal is the numbers' form, ``romme-set:<server>:numbers``):
        read from what Discord sent, so it is answered whether or not this process showed it; any
        other modal is refused. Every outcome is answered."""
        data: Mapping[str, object] = interaction.data or {}
        found = parse_panel_id(str(data.get("custom_id", "")))
        try:
            if found is None or found[0] != SETTINGS_PREFIX or found[2] != NUMBERS_MODAL:
                with as_member(await self.member(interaction), interaction.locale):
                    await answer_privately(interaction, refusal(t("error.bad_form")))
                return
            await self.numbers(interaction, found[1], typed_values(data))
        except discord.HTTPException as exc:
            log.warning("could not answer the modal %s: %s", interaction.id, exc)
        except Exception as exc:
            log.error("the settings' numbers failed", exc_info=exc)
            await answer_privately(interaction, refusal(t("error.unexpected")))


def typed_values(data: Mapping[str, object]) -> dict[str, str]:
    """The text inputs of a modal's submission, ``{custom_id: value}``, as Discord sends them (each
    in a label or an action row); anything else in it is left out.

    >>> typed_values({"components": [{"type": 18, "component": {"type": 4, "custom_id": "rounds",
    ...     "value": "3"}}, {"type": 1, "components": [{"type": 4, "custom_id": "opening", "value": 5}]}]})
    {'rounds': '3'}
    """
    typed: dict[str, str] = {}
    given = data.get("components")
    nodes: list[object] = list(given) if isinstance(given, list) else []
    while nodes:
        node = nodes.pop(0)
        if not isinstance(node, dict):
            continue
        custom_id, value = node.get("custom_id"), node.get("value")
        if node.get("type") == discord.ComponentType.text_input.value:
            if isinstance(custom_id, str) and isinstance(value, str):
                typed.setdefault(custom_id, value)
            continue
        inner = node.get("components")
        nodes += inner if isinstance(inner, list) else []
        nodes += [node["component"]] if isinstance(node.get("component"), dict) else []
    return typed


async def panel_click(
    interaction: discord.Interaction[Any], parsed: tuple[str, int, str] | None, values: Sequence[str]
) -> None:
    """A component of either panel, as the register hands it over: ``parsed`` is ``(prefix, owner,
    what)`` (``None``: the id came on another kind of component, which only a forged message has)."""
    await Panels(interaction.client).click(interaction, parsed, values)
