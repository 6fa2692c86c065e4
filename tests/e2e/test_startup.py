"""`python -m bot` as an admin runs it: a real process, pointed at the stand-in from outside."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import discord
import pytest

from tests.e2e._process import launch
from tests.e2e.standin import DiscordStandin


async def test_a_rejected_token_ends_the_process_with_one_line_and_status_2(tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        process = await launch(standin, tmp_path, {"DISCORD_TOKEN": "not-the-token"})
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    errors = stderr.decode()
    assert errors.strip().splitlines()[-1].startswith("wizard-bot: Discord rejected DISCORD_TOKEN")
    assert "Traceback" not in errors
    assert "not-the-token" not in errors


async def test_a_rejected_token_from_the_env_file_is_named_with_its_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-the-token\n")
    async with DiscordStandin() as standin:
        process = await launch(standin, tmp_path, {})
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert stderr.decode().strip().splitlines()[-1] == (
        f"wizard-bot: Discord rejected the DISCORD_TOKEN in {tmp_path / '.env'}: reset the token in the Developer "
        "Portal (your application → Bot → Reset Token) and put the new one there."
    )


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_the_bot_starts_syncs_to_the_dev_server_and_stops_on_a_signal(tmp_path: Path, signum: int) -> None:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Dev")
        process = await launch(standin, tmp_path, {"DISCORD_TOKEN": standin.token, "DEV_GUILD_ID": str(guild.id)})
        commands = await standin.wait_for(lambda: standin.commands.get(guild.id), timeout=30, what="guild sync")
        await standin.wait_for(lambda: standin.identify_payloads, timeout=30, what="gateway login")
        process.send_signal(signum)
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert sorted(command["name"] for command in commands) == ["leaderboard", "stats", "wizard"]
    assert None not in standin.commands  # with DEV_GUILD_ID, to that server alone
    intents = discord.Intents._from_value(standin.identify_payloads[0]["intents"])
    assert intents == discord.Intents(guilds=True)  # the servers, and no message events
    # No privileged intents:
    assert not intents.members
    assert not intents.presences
    assert not intents.message_content
    assert process.returncode == 0, stderr.decode()
    assert standin.token not in stderr.decode()


async def test_a_database_path_that_names_a_folder_ends_the_process_with_one_line_and_status_2(
    tmp_path: Path,
) -> None:
    async with DiscordStandin() as standin:
        environ = {"DISCORD_TOKEN": standin.token, "DATABASE_PATH": str(tmp_path)}
        process = await launch(standin, tmp_path, environ)
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    errors = stderr.decode()
    assert errors.strip().splitlines()[-1] == (
        f"wizard-bot: cannot use the database: {tmp_path} is a folder: DATABASE_PATH must name a file, "
        "such as data/wizard.db"
    )
    assert "Traceback" not in errors
