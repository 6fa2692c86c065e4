"""The real bot on the Discord stand-in: a server with two channels, one member who can manage it, two who cannot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest_asyncio

from bot.client import WizardBot
from bot.manager import GameManager
from bot.settings import Settings
from tests.e2e.standin import Channel, DiscordStandin, Driver, Guild, StoredMessage, User, run_bot


@dataclass
class Server:
    standin: DiscordStandin
    driver: Driver
    bot: WizardBot
    guild: Guild
    games: Channel  # the channel the managers allow games in
    general: Channel
    admin: User  # can manage the server
    bob: User
    carol: User

    async def settings(self, user: User, locale: str | None = None, **options: object) -> StoredMessage:
        """`user` runs /wizard settings in #general with these options; the bot's reply."""
        record = await self.driver.slash(user, self.general, "wizard settings", options=options or None, locale=locale)
        return await record.wait_response()

    async def start(self, user: User, channel: Channel, **options: object) -> StoredMessage:
        """`user` runs /wizard start in `channel`; the bot's reply."""
        record = await self.driver.slash(user, channel, "wizard start", options=options or None)
        return await record.wait_response()


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        games = standin.create_text_channel(guild, "games")
        general = standin.create_text_channel(guild, "general")
        managers = standin.create_role(guild, "Managers", discord.Permissions(manage_guild=True))
        admin, bob, carol = (standin.create_user(name) for name in ("alice", "bob", "carol"))
        standin.add_member(guild, admin, roles=[managers])
        standin.add_member(guild, bob)
        standin.add_member(guild, carol)
        bot = WizardBot(Settings(token=standin.token, database_path=tmp_path / "wizard.db"), sync_commands=True)
        bot.manager = GameManager(seed_source=lambda: 7, computer_pace=0.0)
        async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")):
            yield Server(standin, Driver(standin, require_synced=True), bot, guild, games, general, admin, bob, carol)
        assert standin.unknown_routes == []
        assert standin.failures == []
