"""`python -m bot` run as a service: its logs in a pipe, its health check, and a start without Discord."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp

from tests.e2e._process import launch
from tests.e2e.standin import DiscordStandin

# discord.py's layout without colours: "[2026-11-30 12:00:00] [INFO    ] discord.client: logging in …"
TEXT_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[(DEBUG|INFO|WARNING|ERROR|CRITICAL) *\] [\w.]+: ")
VOICE_WARNING = "voice will NOT be supported"
UNREACHABLE = "cannot reach Discord"
# The bot is another process: its health is read by asking it again, this often, until a timeout.
POLL_SECONDS = 0.1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def logs_of_a_start(standin: DiscordStandin, folder: Path, environ: dict[str, str]) -> str:
    """Start the bot, wait until it is on the gateway, stop it with SIGTERM: what it wrote to stderr."""
    standin.create_guild("G")
    process = await launch(standin, folder, {"DISCORD_TOKEN": standin.token, **environ})
    await standin.wait_for(lambda: standin.gateway_ready, timeout=30, what="gateway login")
    process.send_signal(signal.SIGTERM)
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()
    return stderr.decode()


async def test_piped_text_logs_have_no_colour_codes(tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        logs = await logs_of_a_start(standin, tmp_path, {})
    lines = logs.splitlines()
    assert "\x1b[" not in logs
    assert [line for line in lines if not TEXT_LINE.match(line)] == []
    assert any("logging in" in line for line in lines)


async def test_json_logs_are_one_object_per_line(tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        logs = await logs_of_a_start(standin, tmp_path, {"LOG_FORMAT": "json"})
    entries = [json.loads(line) for line in logs.splitlines()]
    assert entries
    assert {tuple(sorted(entry)) for entry in entries} == {("level", "logger", "message", "time")}
    assert any(entry["logger"] == "discord.client" and "logging in" in entry["message"] for entry in entries)


async def test_the_voice_warnings_are_silenced_and_the_token_not_logged(tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        logs = await logs_of_a_start(standin, tmp_path, {})
    assert VOICE_WARNING not in logs
    assert standin.token not in logs


async def health(port: int) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/health") as response:
        return response.status, await response.text()


async def health_becomes(port: int, status: int, within: float = 60) -> str:
    """Ask /health until it answers `status`; its text."""

    async def ask() -> str:
        while True:
            try:
                answered, text = await health(port)
            except aiohttp.ClientConnectionError:  # the bot is not listening yet
                answered, text = 0, ""
            if answered == status:
                return text
            await asyncio.sleep(POLL_SECONDS)

    return await asyncio.wait_for(ask(), within)


async def test_health_fails_while_the_gateway_is_down_and_recovers_after(tmp_path: Path) -> None:
    port = free_port()
    async with DiscordStandin() as standin:
        standin.create_guild("G")
        process = await launch(standin, tmp_path, {"DISCORD_TOKEN": standin.token, "METRICS_PORT": str(port)})
        try:
            assert await health_becomes(port, 200) == "ok\n"
            await standin.close_gateway()
            assert await health_becomes(port, 503) == "not connected to the Discord gateway\n"
            standin.open_gateway()
            assert await health_becomes(port, 200) == "ok\n"
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, stderr.decode()


async def read_lines_until(
    stream: asyncio.StreamReader, enough: Callable[[list[str]], bool], within: float
) -> list[str]:
    """Lines of `stream` until `enough(lines)` holds."""
    lines: list[str] = []

    async def read() -> list[str]:
        while not enough(lines):
            line = await stream.readline()
            assert line, f"the bot ended: {lines}"
            lines.append(line.decode())
        return lines

    return await asyncio.wait_for(read(), within)


async def test_a_start_without_discord_retries_and_runs_once_it_is_reachable(tmp_path: Path) -> None:
    standin = DiscordStandin()
    standin.port = free_port()  # nothing listens there yet: the connection is refused, as with no network
    process = await launch(standin, tmp_path, {"DISCORD_TOKEN": standin.token})
    try:
        assert process.stderr is not None
        lines = await read_lines_until(process.stderr, lambda lines: sum(UNREACHABLE in x for x in lines) >= 2, 60)
        await standin.start(standin.port)
        standin.create_guild("G")
        await standin.wait_for(lambda: standin.gateway_ready, timeout=60, what="gateway login after the retries")
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
        await standin.stop()
    assert process.returncode == 0, stderr.decode()
    retries = [line for line in lines if UNREACHABLE in line]
    assert "trying again in 1 s" in retries[0]
    assert "trying again in 2 s" in retries[1]  # waiting longer each time
    assert "Traceback" not in "".join(lines) + stderr.decode()
