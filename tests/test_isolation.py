"""The tests never use the user's own bot, whatever the environment and the clone's `.env` hold:
no setting of theirs reaches a test, no bot a test starts reads the clone's `.env`, and nothing
reaches Discord (`tests/_isolation.py`, applied by `tests/conftest.py`)."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from bot.settings import Settings
from tests import _isolation
from tests.e2e._process import launch
from tests.e2e.standin import DiscordStandin


def test_no_setting_of_the_bot_reaches_a_test() -> None:
    assert _isolation.setting_names() >= {"DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "REST_SHARE"}
    assert sorted(_isolation.setting_names() & os.environ.keys()) == []


@pytest.mark.parametrize("host", ["discord.com", "gateway.discord.gg", "cdn.discordapp.com", "DISCORD.COM."])
def test_a_test_cannot_reach_discord(host: str) -> None:
    with pytest.raises(socket.gaierror, match="the tests talk to the Discord stand-in only"):
        socket.getaddrinfo(host, 443)
    # And the test that tried fails (tests/conftest.py); this one has seen that it would.
    assert _isolation.refused == [f"looked up {host!r}"]
    _isolation.refused.clear()


def test_a_test_cannot_make_the_bot_read_the_clones_env() -> None:
    with pytest.raises(AssertionError, match="the clone's"):
        Settings.load(_isolation.CLONE, {})
    assert _isolation.refused == [f"read {_isolation.CLONE / '.env'}"]
    _isolation.refused.clear()


def test_the_guard_lets_the_stand_in_and_other_folders_through(tmp_path: Path) -> None:
    assert socket.getaddrinfo("127.0.0.1", 443)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\n")
    assert Settings.load(tmp_path, {}).token == "abc"


async def test_a_bot_started_beside_a_clone_with_a_token_in_its_env_does_not_read_it(tmp_path: Path) -> None:
    # A clone of the bot whose .env holds a working token (the stand-in's), as an admin sets it up;
    # the bot started from another folder, as the tests start it. (Before, python-dotenv looked for
    # a .env upward from bot/__main__.py and found the clone's, and the bot logged in with it.)
    clone = tmp_path / "clone"
    clone.mkdir()
    for package in ("bot", "cogs", "tests"):
        (clone / package).symlink_to(_isolation.CLONE / package)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with DiscordStandin() as standin:
        (clone / ".env").write_text(f"DISCORD_TOKEN={standin.token}\n")
        process = await launch(standin, elsewhere, {"PYTHONPATH": str(clone)})
        ended = asyncio.ensure_future(process.communicate())
        logged_in = asyncio.ensure_future(standin.wait_for(lambda: standin.rest_log, 60, "the bot to log in"))
        await asyncio.wait({ended, logged_in}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        logged_in.cancel()
        if not ended.done():
            process.kill()
        _, stderr = await ended
        assert standin.rest_log == [], "the bot read the clone's .env, and logged in with its token"
    assert process.returncode == 2, stderr.decode()
    assert f"DISCORD_TOKEN is not set, and there is no {elsewhere / '.env'}" in stderr.decode()
