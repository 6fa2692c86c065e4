"""The real Wizard bot, logged in to the local Discord stand-in, with a server full of people."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest_asyncio

from bot.client import WizardBot
from bot.manager import GameManager
from bot.settings import Settings
from tests.e2e.standin import Channel, DiscordStandin, Driver, Guild, User, run_bot
from tests.e2e.standin.driver import BotRunner

GAME_SEED = 20261129


@dataclass
class World:
    standin: DiscordStandin
    driver: Driver
    bot: WizardBot
    runner: BotRunner
    guild: Guild
    channel: Channel
    people: list[User]  # people[0] can manage the server
    closed_dms: User
    outsider: User


@contextlib.asynccontextmanager
async def open_world(tmp_path: Path, prepare: Callable[[DiscordStandin], None] | None = None) -> AsyncIterator[World]:
    """The stand-in with its server and people, and the bot logged in to it; `prepare` changes the
    stand-in before the bot starts (say, what Discord holds of the application already)."""
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        admins = standin.create_role(guild, "Admins", discord.Permissions(manage_guild=True))
        people = [standin.create_user(name) for name in ("alice", "bob", "carol", "dave", "erin", "frank")]
        closed = standin.create_user("gina", dms_closed=True)
        outsider = standin.create_user("olga")
        standin.add_member(guild, people[0], roles=[admins])
        for person in [*people[1:], closed, outsider]:
            standin.add_member(guild, person)
        if prepare is not None:
            prepare(standin)
        bot = WizardBot(Settings(token=standin.token, database_path=tmp_path / "wizard.db"), sync_commands=True)
        # A fixed seed, so a game's deal is known to the test; computer players move at once.
        bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
        async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")) as runner:
            yield World(
                standin, Driver(standin, require_synced=True), bot, runner, guild, channel, people, closed, outsider
            )
        assert standin.unknown_routes == []
        assert standin.failures == []
        assert standin.slow_acks(3.0) == []
        assert standin.global_refusals == 0  # the bot paces itself under Discord's 50 requests a second
        assert standin.route_refusals == []  # and waits for each channel's buckets as Discord announces them


@pytest_asyncio.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path) as opened:
        yield opened
