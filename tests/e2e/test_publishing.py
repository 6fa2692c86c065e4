"""The slash commands are published at start-up without a separate step: once, and again only when
they changed, in one place (the development server, or globally). The stand-in counts every sync."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections import deque
from pathlib import Path

import pytest

from bot.client import WizardBot
from bot.settings import Settings
from tests.e2e._process import launch
from tests.e2e.standin import DiscordStandin, run_bot
from tests.e2e.standin.server import DAILY_COMMAND_CREATES

COMMANDS = ["leaderboard", "stats", "wizard"]


def names(standin: DiscordStandin, guild_id: int | None) -> list[str]:
    return sorted(command["name"] for command in standin.commands.get(guild_id, []))


async def start_and_stop(standin: DiscordStandin, folder: Path, environ: dict[str, str], *args: str) -> None:
    """`python -m bot` as the README runs it, until it has logged in to the gateway; then Ctrl-C."""
    logins = len(standin.identify_payloads)
    with (folder / "bot.log").open("ab") as log:
        process = await launch(standin, folder, {"DISCORD_TOKEN": standin.token, **environ}, *args, log=log)
        try:
            # The commands are published (or not) before the bot connects to the gateway.
            await standin.wait_for(lambda: len(standin.identify_payloads) > logins, 60, "the bot to log in")
        finally:
            process.send_signal(signal.SIGINT)
            await asyncio.wait_for(process.wait(), 60)
    assert process.returncode == 0, (folder / "bot.log").read_text()


async def test_the_run_command_publishes_the_commands_once_and_again_after_they_change(tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        await start_and_stop(standin, tmp_path, {})
        assert standin.command_syncs == [None]  # globally: no DEV_GUILD_ID
        assert names(standin, None) == COMMANDS

        await start_and_stop(standin, tmp_path, {})
        assert standin.command_syncs == [None]  # unchanged: nothing sent

        # A newer version of the bot, with one more command.
        await start_and_stop(standin, tmp_path, {"TEST_EXTENSIONS": "tests.e2e._another_command"})
        assert standin.command_syncs == [None, None]
        assert names(standin, None) == sorted([*COMMANDS, "ping"])

        await start_and_stop(standin, tmp_path, {"TEST_EXTENSIONS": "tests.e2e._another_command"})
        assert standin.command_syncs == [None, None]

        # --sync publishes them however they stand.
        await start_and_stop(standin, tmp_path, {"TEST_EXTENSIONS": "tests.e2e._another_command"}, "--sync")
        assert standin.command_syncs == [None, None, None]


async def start_in_process(standin: DiscordStandin, database: Path, dev_guild_id: int | None = None) -> None:
    """The bot in this process, from its start to ready, then closed."""
    bot = WizardBot(Settings(token=standin.token, database_path=database, dev_guild_id=dev_guild_id))
    async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")):
        pass


@pytest.fixture
def published(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """What the bot logs about publishing its commands."""
    caplog.set_level(logging.INFO, logger="bot.publishing")
    return caplog


async def test_with_a_dev_server_the_commands_go_there_alone_and_are_taken_back_when_it_is_unset(
    tmp_path: Path, published: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "wizard.db"
    async with DiscordStandin() as standin:
        dev = standin.create_guild("Dev")
        other = standin.create_guild("Another dev server")
        await start_in_process(standin, database, dev_guild_id=dev.id)
        assert standin.command_syncs == [dev.id]
        assert names(standin, dev.id) == COMMANDS
        assert None not in standin.commands  # nothing global: the server would show each command twice

        await start_in_process(standin, database, dev_guild_id=dev.id)
        assert standin.command_syncs == [dev.id]

        # Another development server: the first one's copy is taken back.
        await start_in_process(standin, database, dev_guild_id=other.id)
        assert standin.command_syncs == [dev.id, dev.id, other.id]
        assert (names(standin, dev.id), names(standin, other.id)) == ([], COMMANDS)

        # Published for everyone: the copy is taken back, the commands go global.
        await start_in_process(standin, database)
        assert standin.command_syncs == [dev.id, dev.id, other.id, other.id, None]
        assert (names(standin, other.id), names(standin, None)) == ([], COMMANDS)
        assert f"took back the copy of the slash commands published to the server {other.id}" in published.messages

        await start_in_process(standin, database)
        assert len(standin.command_syncs) == 5


async def test_a_sync_discord_refuses_is_tried_again_at_the_next_start_and_the_bot_runs_meanwhile(
    tmp_path: Path, published: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "wizard.db"
    async with DiscordStandin() as standin:
        # Discord's daily limit on new commands, used up by something else today.
        standin.command_creates[None] = deque([time.monotonic()] * DAILY_COMMAND_CREATES)
        await start_in_process(standin, database)
        assert standin.command_syncs == []
        assert any("could not publish the slash commands globally" in line and "30034" in line
                   for line in published.messages)  # fmt: skip

        standin.command_creates.clear()  # a day later
        await start_in_process(standin, database)
        assert standin.command_syncs == [None]
        assert names(standin, None) == COMMANDS


@pytest.mark.parametrize("status", [403, 404])
async def test_a_dev_server_out_of_reach_is_given_up_and_the_commands_go_global(
    tmp_path: Path, published: pytest.LogCaptureFixture, status: int
) -> None:
    database = tmp_path / "wizard.db"
    async with DiscordStandin() as standin:
        dev = standin.create_guild("Dev")
        await start_in_process(standin, database, dev_guild_id=dev.id)
        # The bot was removed from the server since (Missing Access), or the server is gone.
        code = {403: 50001, 404: 10004}[status]
        standin.inject_error("PUT", rf"/guilds/{dev.id}/commands$", status=status, code=code)
        await start_in_process(standin, database)
        assert standin.command_syncs == [dev.id, None]
        assert any(f"the server {dev.id} is out of the bot's reach" in line for line in published.messages)

        await start_in_process(standin, database)  # and it is not tried again
        assert standin.command_syncs == [dev.id, None]
