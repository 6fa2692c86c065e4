"""`python -m bot`: read the settings, set up logging, run the bot until stopped."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sys
from pathlib import Path

import aiohttp
import discord

from .client import WizardBot, make_bot
from .logs import setup_logging
from .metrics import Metrics, StatusServer
from .settings import Settings, SettingsError
from .storage import StorageError

log = logging.getLogger("bot")

# Discord cannot be reached: no network, DNS failing, a connection refused or timing out, Discord
# answering 5xx. The bot says so in one line and tries again, waiting twice as long each time up
# to a minute. (Once connected, discord.py reconnects the gateway by itself.)
UNREACHABLE = (OSError, aiohttp.ClientError, TimeoutError, discord.DiscordServerError)
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0


def _fail(message: str) -> int:
    print(f"wizard-bot: {message}", file=sys.stderr)
    return 2


async def _run(settings: Settings, *, sync: bool) -> None:
    # Ctrl-C, and the SIGTERM a host sends before a restart, close the bot cleanly. Cancelling
    # the running task instead (asyncio.run's default for Ctrl-C) can be swallowed by the
    # gateway's read and leave the process hanging.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # not on Windows
            loop.add_signal_handler(signum, stop.set)
    metrics = Metrics()  # one set of counters for the process, whatever the start-up attempts
    bot: WizardBot | None = None

    async def health() -> str | None:
        return "starting" if bot is None else await bot.health()

    status = StatusServer(metrics, health)
    if settings.metrics_port is not None:
        await status.start(settings.metrics_host, settings.metrics_port)
    try:
        delay = RETRY_FIRST_SECONDS
        while not stop.is_set():
            # Each attempt is a fresh bot: a failed one is closed whole (its database too).
            async with make_bot(settings, sync_commands=sync, metrics=metrics) as bot:
                closer = loop.create_task(_close_on(stop, bot))
                try:
                    await bot.login(settings.token)  # runs setup_hook: the cogs, the games restored
                except UNREACHABLE as error:
                    reason = " ".join(str(error).split()) or type(error).__name__
                    log.warning("cannot reach Discord (%s); trying again in %.0f s", reason, delay)
                else:
                    # What exists now (modules, discord.py, the command tree: ~100,000 objects) lives
                    # as long as the process: set it aside so that full garbage collections, which
                    # pause every game, scan only what came later (200 games under load: the
                    # longest went from 77 ms to 12 ms).
                    gc.collect()
                    gc.freeze()
                    await bot.connect()
                    return
                finally:
                    if stop.is_set():
                        # It is closing the bot: its close (the database's among it) must end before
                        # the event loop does, or a database call is left running on a closed loop.
                        await closer
                    else:
                        closer.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(delay * 2, RETRY_MAX_SECONDS)
    finally:
        await status.stop()


async def _close_on(stop: asyncio.Event, bot: WizardBot) -> None:
    await stop.wait()
    await bot.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Wizard Discord bot.")
    parser.add_argument(
        "--sync",
        action="store_true",
        help="publish the slash commands even if unchanged (the bot publishes them by itself when they change)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.load(Path.cwd())
    except SettingsError as error:
        return _fail(str(error))
    setup_logging(settings.log_level, settings.log_format)
    try:
        asyncio.run(_run(settings, sync=args.sync))
    except discord.LoginFailure:
        if settings.token_file is None:
            where, there = "DISCORD_TOKEN (set in the environment)", "set the new one there"
        else:
            where, there = f"the DISCORD_TOKEN in {settings.token_file}", "put the new one there"
        return _fail(
            f"Discord rejected {where}: reset the token in the Developer Portal (your application → Bot → "
            f"Reset Token) and {there}."
        )
    except StorageError as error:
        return _fail(f"cannot use the database: {error}")
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord refused the requested intents; this bot needs no privileged intents.")
    except KeyboardInterrupt:
        log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
