"""Bot processes sharing one PostgreSQL database publish a change of the slash commands once, however
many start at once: the first publishes, the others find the commands published."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e._process import launch
from tests.e2e.standin import DiscordStandin

PROCESSES = 3


async def start_together(standin: DiscordStandin, postgres_url: str, folder: Path, environ: dict[str, str]) -> None:
    """PROCESSES bot processes (one a shard) started at the same moment, until each has logged in; then stopped."""
    environ = {"DISCORD_TOKEN": standin.token, "DATABASE_URL": postgres_url, "SHARD_COUNT": str(PROCESSES),
               "REST_SHARE": "13", "LOG_LEVEL": "WARNING", **environ}  # fmt: skip
    logins = len(standin.identify_payloads)
    processes = []
    try:
        for shard in range(PROCESSES):
            (folder / str(shard)).mkdir(parents=True, exist_ok=True)
            log = (folder / str(shard) / "bot.log").open("ab")
            processes.append(await launch(standin, folder / str(shard), environ | {"SHARD_IDS": str(shard)}, log=log))
        await standin.wait_for(
            lambda: len(standin.identify_payloads) >= logins + PROCESSES, 60, "every process to log in"
        )
    finally:
        for process in processes:
            process.kill()
        await asyncio.gather(*(process.wait() for process in processes))


async def test_processes_started_together_publish_the_commands_once(postgres_url: str, tmp_path: Path) -> None:
    async with DiscordStandin() as standin:
        await start_together(standin, postgres_url, tmp_path / "first", {})
        assert standin.command_syncs == [None]
        await start_together(standin, postgres_url, tmp_path / "again", {})
        assert standin.command_syncs == [None]
        await start_together(
            standin, postgres_url, tmp_path / "newer", {"TEST_EXTENSIONS": "tests.e2e._another_command"}
        )
        assert standin.command_syncs == [None, None]
        assert sorted(command["name"] for command in standin.commands[None]) == [
            "leaderboard",
            "ping",
            "stats",
            "wizard",
        ]
