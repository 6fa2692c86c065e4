"""/wizard settings: a server's defaults for new games and where games may start, for its managers.

The command is a subcommand of the /wizard group, which `WizardCog` defines. A cog cannot declare
a subcommand of another cog's group in its class body (discord.py binds the group's commands to
the cog that defines the group), so this cog builds the command from its own bound method — that
makes the cog the command's binding — and adds it to the group when it loads. Discord keeps
default member permissions on top-level commands only, so the Manage Server check is made here,
in the callback, and a member without it is refused in their language.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import guild_settings
from bot.engine import rules
from bot.guild_settings import DEFAULTS, TURN_TIMERS, GuildSettings, Problem, SettingsError
from bot.i18n import LANGUAGES, command_text, duration, duration_text, language_of, t, text, tn
from bot.manager import COMPUTER_LEVELS, GameRefused
from bot.storage import SEASON_LENGTHS, SeasonRecord, SeasonSettingsRecord

from . import _errors, _permissions
from ._look import COLOUR
from ._stats import season_period

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

GROUP = "wizard"
NAME = "settings"
SERVER_LANGUAGE = "server"  # the language choice that follows the server's Discord locale
MOST_ROUNDS = rules.round_count(rules.MIN_PLAYERS)

TIMER_CHOICES = [app_commands.Choice(name=duration_text(seconds), value=seconds) for seconds in TURN_TIMERS]
LEVEL_CHOICES = [app_commands.Choice(name=command_text(f"level.{level}"), value=level) for level in COMPUTER_LEVELS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=command_text("language.server"), value=SERVER_LANGUAGE),
    *(app_commands.Choice(name=command_text(f"language.{language}"), value=language) for language in LANGUAGES),
]
SEASON_LENGTH_CHOICES = [
    app_commands.Choice(name=command_text(f"season.length.{length}"), value=length) for length in SEASON_LENGTHS
]
SEASON_ACTIONS = ("start", "end")
SEASON_ACTION_CHOICES = [
    app_commands.Choice(name=command_text(f"season.action.{action}"), value=action) for action in SEASON_ACTIONS
]


# -- texts ------------------------------------------------------------------------------------


def explain(locale: str | None, error: SettingsError) -> str:
    """Refused settings as a sentence in `locale`."""
    details = dict(error.details)
    if error.problem is Problem.TIMER:
        for name in ("low", "high"):
            value = details.get(name)
            if isinstance(value, int | float):
                details[name] = duration(locale, round(value))
    return text(locale, f"settings.error.{error.problem.value}", **details)


def channels_text(locale: str | None, settings: GuildSettings) -> str:
    """Where games may be started: "Any channel", or the channels as mentions."""
    if not settings.channels:
        return t(locale, "settings.channels.any")
    return ", ".join(f"<#{channel}>" for channel in settings.channels)


def channel_refusal(locale: str | None, settings: GuildSettings) -> str:
    """What someone reads who tries to start a game in a channel the server's settings leave out."""
    return t(locale, "settings.channel_refused", channels=channels_text(locale, settings))


def _switch(locale: str | None, on: bool) -> str:
    return t(locale, "settings.on" if on else "settings.off")


def rules_text(locale: str | None, settings: GuildSettings) -> str:
    """The default house rules, one per line."""
    options = settings.options
    rounds = t(locale, "settings.rounds.all") if options.rounds is None else str(options.rounds)
    switch = {
        "bids_may_not_add_up": options.bids_may_not_add_up,
        "bids_may_add_up_in_round_one": options.bids_may_add_up_in_round_one,
        "hidden_bids": options.hidden_bids,
        "rounds": None,
        "even_rounds": options.schedule == "even",
        "blind_first_round": options.blind_first_round,
    }
    lines = [
        t(locale, f"settings.rule.{name}", value=rounds if on is None else _switch(locale, on))
        for name, on in switch.items()
    ]
    return "\n".join(lines)


def language_text(locale: str | None, settings: GuildSettings, guild_locale: str | None) -> str:
    """The language of channel messages: the one chosen, or the server's (and which that is now)."""
    if settings.language is not None:
        return t(locale, f"language.{settings.language}")
    return t(locale, "settings.language.server", language=t(locale, f"language.{language_of(guild_locale)}"))


def seasons_text(locale: str | None, settings: SeasonSettingsRecord, current: SeasonRecord | None) -> str:
    """How long the server's seasons last, the one running, and where their ends are announced."""
    length = {name: t(locale, f"season.length.{name}") for name in SEASON_LENGTHS}[settings.length]
    lines = [
        t(locale, "settings.seasons.length", length=length),
        season_period(locale, current) if current is not None else t(locale, "settings.seasons.none"),
        t(locale, "settings.seasons.channel", channel=f"<#{settings.channel_id}>")
        if settings.channel_id is not None
        else t(locale, "settings.seasons.no_channel"),
    ]
    return "\n".join(lines)


def settings_embed(
    settings: GuildSettings,
    locale: str | None,
    *,
    server: str,
    guild_locale: str | None,
    saved: bool,
    seasons: tuple[SeasonSettingsRecord, SeasonRecord | None] | None = None,
    notes: tuple[str, ...] = (),
) -> discord.Embed:
    """The readable summary of a server's settings, in the reader's language; `notes` come after the
    first line (what a season command did, a channel the bot cannot post in)."""
    embed = discord.Embed(
        title=t(locale, "settings.title", server=server),
        description="\n".join([t(locale, "settings.saved" if saved else "settings.intro"), *notes]),
        colour=COLOUR,
    )
    embed.add_field(name=t(locale, "settings.field.rules"), value=rules_text(locale, settings), inline=False)
    embed.add_field(
        name=t(locale, "settings.field.timer"), value=duration(locale, round(settings.turn_timer)), inline=True
    )
    embed.add_field(
        name=t(locale, "settings.field.level"), value=t(locale, f"level.{settings.computer_level}"), inline=True
    )
    embed.add_field(
        name=t(locale, "settings.field.language"), value=language_text(locale, settings, guild_locale), inline=False
    )
    embed.add_field(name=t(locale, "settings.field.channels"), value=channels_text(locale, settings), inline=False)
    if seasons is not None:
        embed.add_field(name=t(locale, "settings.field.seasons"), value=seasons_text(locale, *seasons), inline=False)
    embed.set_footer(text=t(locale, "settings.footer"))
    return embed


# -- the command --------------------------------------------------------------------------------


class SettingsCog(commands.Cog, name="Settings"):
    """/wizard settings: the server's defaults for new games, for members who can manage it."""

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot
        # One change at a time, so two managers saving at once cannot undo each other's change.
        self._lock = asyncio.Lock()
        self.command: app_commands.Command[SettingsCog, ..., None] = app_commands.Command(
            name=NAME, description=command_text("command.wizard.settings"), callback=self.settings
        )

    def _group(self) -> app_commands.Group:
        group = self.bot.tree.get_command(GROUP)
        if not isinstance(group, app_commands.Group):
            raise RuntimeError(f"/{GROUP} settings needs the /{GROUP} group: load the Wizard cog first")
        return group

    async def cog_load(self) -> None:
        self._group().add_command(self.command)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command(GROUP)
        if isinstance(group, app_commands.Group):
            group.remove_command(NAME)

    @app_commands.describe(
        bids_may_not_add_up=command_text("command.wizard.settings.bids_may_not_add_up"),
        bids_may_add_up_in_round_one=command_text("command.wizard.settings.bids_may_add_up_in_round_one"),
        hidden_bids=command_text("command.wizard.settings.hidden_bids"),
        rounds=command_text("command.wizard.settings.rounds"),
        even_rounds=command_text("command.wizard.settings.even_rounds"),
        blind_first_round=command_text("command.wizard.settings.blind_first_round"),
        turn_timer=command_text("command.wizard.settings.turn_timer"),
        computer_level=command_text("command.wizard.settings.computer_level"),
        language=command_text("command.wizard.settings.language"),
        allow_channel=command_text("command.wizard.settings.allow_channel"),
        forbid_channel=command_text("command.wizard.settings.forbid_channel"),
        any_channel=command_text("command.wizard.settings.any_channel"),
        season_length=command_text("command.wizard.settings.season_length"),
        season_channel=command_text("command.wizard.settings.season_channel"),
        season=command_text("command.wizard.settings.season"),
    )
    @app_commands.choices(turn_timer=TIMER_CHOICES)
    @app_commands.choices(computer_level=LEVEL_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.choices(season_length=SEASON_LENGTH_CHOICES, season=SEASON_ACTION_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        bids_may_not_add_up: bool | None = None,
        bids_may_add_up_in_round_one: bool | None = None,
        hidden_bids: bool | None = None,
        rounds: app_commands.Range[int, 0, MOST_ROUNDS] | None = None,
        even_rounds: bool | None = None,
        blind_first_round: bool | None = None,
        turn_timer: app_commands.Choice[int] | None = None,
        computer_level: app_commands.Choice[str] | None = None,
        language: app_commands.Choice[str] | None = None,
        allow_channel: discord.TextChannel | None = None,
        forbid_channel: discord.TextChannel | None = None,
        any_channel: bool | None = None,
        season_length: app_commands.Choice[str] | None = None,
        season_channel: discord.TextChannel | None = None,
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show the server's settings for new games, or change them: every option is optional."""
        locale = str(interaction.locale)
        guild_id = interaction.guild_id
        if guild_id is None:
            await interaction.response.send_message(t(locale, "error.guild_only"), ephemeral=True)
            return
        if not interaction.permissions.manage_guild:
            await interaction.response.send_message(t(locale, "settings.refused"), ephemeral=True)
            return
        changes: dict[str, Any] = guild_settings.option_overrides(
            bids_may_not_add_up=bids_may_not_add_up,
            bids_may_add_up_in_round_one=bids_may_add_up_in_round_one,
            hidden_bids=hidden_bids,
            rounds=rounds,
            even_rounds=even_rounds,
            blind_first_round=blind_first_round,
        )
        if turn_timer is not None:
            changes["turn_timer"] = turn_timer.value
        if computer_level is not None:
            changes["computer_level"] = computer_level.value
        if language is not None:
            changes["language"] = None if language.value == SERVER_LANGUAGE else language.value
        allow = allow_channel.id if allow_channel is not None else None
        forbid = forbid_channel.id if forbid_channel is not None else None
        clear = bool(any_channel)
        given = bool(changes) or allow is not None or forbid is not None or clear
        seasons_given = season_length is not None or season_channel is not None or season is not None
        notes: list[str] = []
        async with self._lock:
            settings = self.bot.guild_settings.get(guild_id, DEFAULTS)
            if given:
                try:
                    settings = settings.with_changes(**changes).with_channels(allow=allow, forbid=forbid, clear=clear)
                except SettingsError as error:
                    await interaction.response.send_message(explain(locale, error), ephemeral=True)
                    return
                assert self.bot.repository is not None
                await guild_settings.save(self.bot.repository, guild_id, settings)
                self.bot.guild_settings[guild_id] = settings
                log.info("server %s changed its settings: %s", guild_id, settings.to_json())
            if seasons_given:
                try:
                    notes = await self._change_seasons(guild_id, locale, season_length, season_channel, season)
                except GameRefused as error:
                    await interaction.response.send_message(_errors.explain(locale, error), ephemeral=True)
                    return
        manager = self.bot.manager
        seasons = (await manager.season_settings(guild_id), await manager.current_season(guild_id))
        embed = settings_embed(
            settings,
            locale,
            server=interaction.guild.name if interaction.guild is not None else "",
            guild_locale=str(interaction.guild_locale) if interaction.guild_locale else None,
            saved=given or seasons_given,
            seasons=seasons,
            notes=tuple(notes),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _change_seasons(
        self,
        guild_id: int,
        locale: str,
        length: app_commands.Choice[str] | None,
        channel: discord.TextChannel | None,
        action: app_commands.Choice[str] | None,
    ) -> list[str]:
        """Carry out the season options; returns what to tell the manager about them."""
        manager = self.bot.manager
        notes = []
        if length is not None or channel is not None:
            await manager.change_season_settings(
                guild_id,
                length=None if length is None else length.value,
                channel_id=None if channel is None else channel.id,
            )
            log.info("server %s changed its seasons: %s %s", guild_id, length and length.value, channel and channel.id)
        if channel is not None:
            lacking = _permissions.blocking(_permissions.in_cache(self.bot, guild_id, channel.id) or ())
            if lacking:
                notes.append(
                    tn(
                        locale,
                        "settings.seasons.cannot_post",
                        len(lacking),
                        channel=channel.id,
                        permissions=_permissions.names(locale, lacking),
                    )
                )
        if action is not None and action.value == "start":
            begun = await manager.start_season(guild_id)
            notes.append(t(locale, "settings.seasons.started", number=begun.number))
        elif action is not None and action.value == "end":
            ended = await manager.end_season(guild_id)
            notes.append(t(locale, "settings.seasons.ended", number=ended.number))
        return notes
