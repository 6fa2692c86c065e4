"""The bot: discord.py client, command tree with one error handler, and start-up."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from .budget import RequestBudget
from .guild_settings import GuildSettings
from .guild_settings import load_all as load_guild_settings
from .i18n import CatalogTranslator, t
from .manager import GameManager
from .metrics import Metrics
from .publishing import publish_commands
from .settings import Settings
from .storage import Repository, open_repository

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.wizard",)

# Interactions reach the bot whatever its intents. It needs only the servers (for their language),
# not the message events that Intents.default() adds: every message in every channel it can see,
# each parsed and cached, which the load benchmark measured at a sixth of the bot's CPU. No
# privileged intent is asked for.
INTENTS = discord.Intents.none()
INTENTS.guilds = True


class WizardTree(app_commands.CommandTree["WizardBot"]):
    """Turns any error escaping a slash command into a private message, and logs it once."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        locale = str(interaction.locale)
        if isinstance(error, app_commands.NoPrivateMessage):
            text = t(locale, "error.guild_only")
        elif isinstance(error, app_commands.TransformerError):
            # A value the synced schema no longer offers (Discord checks options against the schema
            # it was given: one synced by an older version of the bot may offer other choices).
            text = t(locale, "error.bad_option", value=error.value)
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s failed", command, exc_info=error)
            text = t(locale, "error.internal")
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class WizardBot(commands.Bot):
    """Runs Wizard games. Nothing happens at import time; `setup_hook` does the start-up work."""

    def __init__(
        self, settings: Settings, *, sync_commands: bool = False, metrics: Metrics | None = None, **options: Any
    ) -> None:
        # Served on METRICS_PORT by `python -m bot`; counted whether or not anyone reads them.
        self.metrics = metrics if metrics is not None else Metrics()
        # Every REST request waits for this process's share of Discord's global budget.
        self.budget = RequestBudget(settings.rest_share)
        trace = self.metrics.http_trace()  # every REST request, 429s and interaction answers
        trace.on_request_start.append(self._pace)
        # An answer, or a failure: from then on the request counts for one second more (bot/budget.py).
        trace.on_request_end.append(self._answered)
        trace.on_request_exception.append(self._answered)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            tree_cls=WizardTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=trace,
            **options,
        )
        self.settings = settings
        # --sync: publish the slash commands even if they are published as they are.
        self.sync_commands = sync_commands
        self.manager = GameManager()
        self.repository: Repository | None = None
        # Each server's settings for new games (/wizard settings), kept in step with the database.
        self.guild_settings: dict[int, GuildSettings] = {}

    async def _pace(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams
    ) -> None:
        context.counted = await self.budget.pace(params.url.path)

    async def _answered(self, session: aiohttp.ClientSession, context: SimpleNamespace, params: object) -> None:
        if getattr(context, "counted", False):
            context.counted = False
            self.budget.answered()

    async def setup_hook(self) -> None:
        # Command descriptions and choices in every language of bot/locales, sent with each sync.
        await self.tree.set_translator(CatalogTranslator())
        # A damaged or newer database stops the bot here (StorageError) instead of being overwritten.
        # PostgreSQL at DATABASE_URL, else SQLite; with SHARD_IDS only this process's servers' games
        # are restored (the other processes restore theirs).
        self.repository = self.metrics.time_writes(await open_repository(self.settings))
        self.guild_settings = await load_guild_settings(self.repository)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.metrics.watch(self.manager)
        restored = await self.manager.load(self.repository)
        self.metrics.restored.inc(len(restored))
        cog = self.get_cog("Wizard")
        if cog is not None:
            self.metrics.watch_reconciler_backlog(cog.presenter.backlog)  # type: ignore[attr-defined]
            cog.presenter.restore(restored)  # type: ignore[attr-defined]
            cog.presenter.restore_lobbies(self.manager.unshown_lobbies())  # type: ignore[attr-defined]

    async def login(self, token: str) -> None:
        # Logging in reads the application (its id) and runs setup_hook, which builds the command
        # tree; then the commands are published where they belong (DEV_GUILD_ID's server, else
        # globally) if they changed, or with --sync.
        await super().login(token)
        if self.repository is not None and self.application_id is not None:
            await publish_commands(
                self.tree,
                self.repository,
                self.application_id,
                guild_id=self.settings.dev_guild_id,
                force=self.sync_commands,
            )

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.metrics.interaction_received(interaction.id)

    def gateway_connected(self) -> bool:
        """Whether the bot is logged in to the gateway now (not between a drop and the reconnect)."""
        return self.is_ready() and not self.is_closed() and self.ws is not None and self.ws.open

    async def health(self) -> str | None:
        """None when the bot can play: the gateway connected and the database answering; else what is wrong."""
        if not self.gateway_connected():
            return "not connected to the Discord gateway"
        if self.repository is None:
            return "the database is not open yet"
        try:
            await self.repository.schema_version()
        except Exception as error:  # whatever the backend raises, the database does not answer
            return f"the database does not answer ({type(error).__name__})"
        return None

    async def close(self) -> None:
        self.manager.close()
        await super().close()
        if self.repository is not None:
            await self.repository.close()


class ShardedWizardBot(WizardBot, commands.AutoShardedBot):
    """The bot over several gateway shards (SHARD_COUNT), of which this process runs SHARD_IDS.

    A server's events all arrive on its shard, so its games live in the process that runs it;
    the database (PostgreSQL when processes share it) holds the leaderboards of all of them.
    """

    def __init__(self, settings: Settings, *, sync_commands: bool = False, metrics: Metrics | None = None) -> None:
        super().__init__(
            settings,
            sync_commands=sync_commands,
            metrics=metrics,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
        )

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) on shards %s of %s, in %d servers",
            self.user,
            getattr(self.user, "id", "?"),
            sorted(self.shards),
            self.shard_count,
            len(self.guilds),
        )

    def gateway_connected(self) -> bool:
        return (
            self.is_ready()
            and not self.is_closed()
            and bool(self.shards)
            and not any(shard.is_closed() for shard in self.shards.values())
        )


def make_bot(settings: Settings, *, sync_commands: bool = False, metrics: Metrics | None = None) -> WizardBot:
    """A sharded bot when SHARD_COUNT is set, else a plain one (a single connection to Discord)."""
    if settings.shard_count is None:
        return WizardBot(settings, sync_commands=sync_commands, metrics=metrics)
    return ShardedWizardBot(settings, sync_commands=sync_commands, metrics=metrics)
