"""The bot as a separate process, as an admin runs it, pointed at the stand-in from outside."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import IO

from tests.e2e.standin import DiscordStandin

# Points discord.py at the stand-in, then runs the bot's own entry point: the product has no hook.
# With TEST_GAME_SEED set, every game the process starts deals from that seed (the bot draws a
# random one), so a test can run the same game twice, or choose a game with a trump choice. With
# TEST_LOBBY_IDLE, a lobby nobody touches closes after that many seconds instead of 15 minutes.
LAUNCHER = """
import os, sys, yarl, discord.http, discord.gateway
discord.http.Route.BASE = sys.argv[1]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
if os.environ.get("TEST_GAME_SEED"):
    import bot.manager
    seed = int(os.environ["TEST_GAME_SEED"])
    bot.manager.GameManager.__init__.__kwdefaults__["seed_source"] = lambda: seed
if os.environ.get("TEST_LOBBY_IDLE"):
    import bot.manager
    bot.manager.GameManager.__init__.__kwdefaults__["lobby_idle_seconds"] = float(os.environ["TEST_LOBBY_IDLE"])
from bot.__main__ import main
sys.argv = ["python -m bot", *sys.argv[3:]]
raise SystemExit(main())
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
