"""The bot as a separate process, as an admin runs it, pointed at the stand-in from outside."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import IO

from tests.clock import write_offset
from tests.e2e.standin import DiscordStandin

# Points discord.py at the stand-in, then runs the bot's own entry point: the product has no hook.
# Like the tests' own process, it can reach neither Discord nor the clone's .env (tests/_isolation.py).
# With TEST_GAME_SEED set, every game the process starts deals from that seed (the bot draws a
# random one), so a test can run the same game twice, or choose a game with a trump choice. With
# TEST_LOBBY_IDLE, a lobby nobody touches closes after that many seconds instead of 15 minutes. With
# TEST_CLOCK_FILE set, the bot's game clock runs that file's offset ahead of real time
# (tests/clock.py; the test moves it, and the stand-in's with it: see `WorldClock`), and so does
# the clock discord.py ages interaction tokens by. With TEST_EXTENSIONS (modules separated by
# commas), the bot loads those extensions too: a newer version of the bot, say, with another
# slash command.
LAUNCHER = """
import os, sys, yarl, discord.http, discord.gateway, discord.utils
from tests import _isolation
_isolation.refuse_discord()
_isolation.refuse_clone_env()
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
if os.environ.get("TEST_GAME_SEED"):
    import bot.manager
    seed = int(os.environ["TEST_GAME_SEED"])
    bot.manager.GameManager.__init__.__kwdefaults__["seed_source"] = lambda: seed
if os.environ.get("TEST_LOBBY_IDLE"):
    import bot.manager
    bot.manager.GameManager.__init__.__kwdefaults__["lobby_idle_seconds"] = float(os.environ["TEST_LOBBY_IDLE"])
if os.environ.get("TEST_CLOCK_FILE"):
    import pathlib, bot.manager, tests.clock
    clock = tests.clock.MovableClock(file=pathlib.Path(os.environ["TEST_CLOCK_FILE"]))
    bot.manager.GameManager.__init__.__kwdefaults__["clock"] = clock
    discord.utils.utcnow = clock.utcnow
if os.environ.get("TEST_EXTENSIONS"):
    import bot.client
    bot.client.EXTENSIONS += tuple(os.environ["TEST_EXTENSIONS"].split(","))
import runpy
sys.argv = ["python -m bot", *sys.argv[3:]]
runpy.run_module("bot", run_name="__main__", alter_sys=True)  # as `python -m bot` runs it
"""


async def launch(
    standin: DiscordStandin, folder: Path, environ: dict[str, str], *args: str, log: IO[bytes] | None = None
) -> asyncio.subprocess.Process:
    """Start `python -m bot` in `folder` (its database is there); its stderr goes to `log`, or a pipe."""
    env = {key: value for key, value in os.environ.items() if key not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    env |= {"PYTHONPATH": os.getcwd(), "DATABASE_PATH": str(folder / "wizard.db")} | environ
    output: IO[bytes] | int = log if log is not None else asyncio.subprocess.PIPE
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", LAUNCHER, standin.base_url, standin.ws_url, *args,
        cwd=folder, env=env, stdout=output, stderr=output,
    )  # fmt: skip


class WorldClock:
    """Time for the bot processes of a test and for the stand-in at once: `advance` lets hours or days
    pass for all of them (the processes read `file`, see LAUNCHER's TEST_CLOCK_FILE)."""

    def __init__(self, standin: DiscordStandin, folder: Path, offset: float = 0.0) -> None:
        self.standin = standin
        self.file = folder / "clock"
        self.offset = 0.0
        write_offset(self.file, 0.0)
        self.advance(offset)

    @property
    def environ(self) -> dict[str, str]:
        return {"TEST_CLOCK_FILE": str(self.file)}

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.standin.advance_clock(seconds)
        self.offset += seconds
        write_offset(self.file, self.offset)
