"""How fast the bot comes back: importing it, its memory at rest, and kill → first accepted click.

    python bench/recovery.py [--kills 7] [--imports 7]

The real bot (`python -m bot`, a process as an admin runs it) against the Discord stand-in of the
e2e tests on 127.0.0.1. Three people play a game; at each kill the bot is SIGKILLed the moment
someone's turn is shown, started again, and that person clicks their move as soon as the gateway
is back (the click waits for the stand-in's READY): the figure is the time from starting the
process to the acknowledgement of the accepted click. The reference is a minimal discord.py bot
(bench/_minimal_bot.py: log in, answer any button) killed and clicked the same way, so the part
of the figure that is Python, discord.py and the gateway shows beside the bot's own.

Printed: medians and ranges. Also: importing the bot (what `python -m bot` imports, timed inside a
fresh interpreter), and the resident memory of the bot at rest
(logged in, no game) and of the minimal bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e._play import Players, open_game, three_people  # noqa: E402
from tests.e2e._process import launch  # noqa: E402
from tests.e2e.standin import DiscordStandin, Driver  # noqa: E402

MINIMAL = ROOT / "bench" / "_minimal_bot.py"
DEVNULL = open(os.devnull, "wb")  # noqa: SIM115 -- the bot's log, for the whole run
# Python as an installed bot runs: it writes and then reuses bytecode (.pyc). A development shell
# may set PYTHONDONTWRITEBYTECODE, which makes every start compile every module again; empty means
# unset to Python.
BYTECODE = {"PYTHONDONTWRITEBYTECODE": ""}


# What `python -m bot` imports, and what the minimal bot imports (the reference).
BOT_MODULES = "bot.__main__, bot.client, cogs.wizard"
MINIMAL_MODULES = "discord, discord.ext.commands"


def import_seconds(runs: int, modules: str) -> list[float]:
    """Importing `modules`, timed inside fresh interpreters (their start and their teardown, which
    a whole-process timing would add, left out)."""
    code = f"import time; t = time.perf_counter(); import {modules}; print(time.perf_counter() - t)"
    env = {**os.environ, **BYTECODE}
    run = [sys.executable, "-c", code]
    times = [
        float(subprocess.run(run, check=True, cwd=ROOT, env=env, capture_output=True, text=True).stdout)
        for _ in range(runs + 1)
    ]
    return times[1:]  # the first run writes the bytecode the others (and a restarted bot) read


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def start_process(
    standin: DiscordStandin, folder: Path, minimal: bool, *, sync: bool = False
) -> asyncio.subprocess.Process:
    """The bot (or the minimal one); `sync`: publish the commands first, as an admin does once."""
    environ = {"DISCORD_TOKEN": standin.token, "LOG_LEVEL": "WARNING", **BYTECODE}
    if minimal:
        env = {**os.environ, **environ, "PYTHONPATH": str(ROOT)}
        return await asyncio.create_subprocess_exec(
            sys.executable, str(MINIMAL), standin.base_url, standin.ws_url, cwd=folder, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    return await launch(standin, folder, environ, *(["--sync"] if sync else []), log=DEVNULL)


async def measure(kills: int, *, minimal: bool) -> tuple[list[float], float]:
    """Kill → accepted click, `kills` times; and the resident memory at rest."""
    with tempfile.TemporaryDirectory() as folder:
        async with DiscordStandin() as standin:
            channel, people = three_people(standin, "Recovery")
            driver = Driver(standin, require_synced=not minimal)
            process = await start_process(standin, Path(folder), minimal, sync=True)
            await standin.wait_for(lambda: standin.gateway_ready, 60, "the bot to log in")
            await standin.wait_for(lambda: minimal or standin.commands.get(None), 60, "the commands")
            rest = rss_mib(process.pid)
            times: list[float] = []
            players = Players(standin, driver, channel, people)
            if minimal:
                board = standin.create_message(
                    channel,
                    {"content": "x", "components": [{"type": 1, "components": [
                        {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]},
                    author=standin.bot_user,
                )  # fmt: skip
            else:
                await open_game(driver, channel, people)
            for _ in range(kills):
                if minimal:
                    user, message, custom_id = people[0], board, "go"
                else:
                    found = await standin.wait_for(players.next_move, 30, "a move")
                    user, message, custom_id, _card = found
                    tables = [m for m in driver.channel_view(channel) if "Wizard — round" in m.text()]
                    players.seen = (tables[-1].id, tables[-1].edits)  # the table as the move was read
                process.kill()
                await process.wait()
                await standin.wait_for(lambda: not standin.gateway_ready, 10, "the gateway to close")
                started = time.monotonic()
                process = await start_process(standin, Path(folder), minimal)
                record = await driver.click(user, message, custom_id, timeout=60)
                await record.wait_acked(60)
                assert record.acked_at is not None
                if not minimal and record.callback_types != [7]:  # answered, but not with the move taken
                    reply = await record.wait_response()
                    print(f"  a click was refused after a restart: {reply.text()!r}; not counted")
                    players.seen = None  # read the table afresh
                    continue
                times.append(record.acked_at - started)
            process.kill()
            await process.wait()
    return times, rest


def summary(values: list[float], unit: str = "s") -> str:
    low, high, middle = min(values), max(values), statistics.median(values)
    return f"median {middle:.2f} {unit} (min {low:.2f}, max {high:.2f}, n={len(values)})"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--kills", type=int, default=7)
    parser.add_argument("--imports", type=int, default=7)
    args = parser.parse_args()
    print(f"importing the bot:          {summary(import_seconds(args.imports, BOT_MODULES))}")
    print(f"importing discord.py alone: {summary(import_seconds(args.imports, MINIMAL_MODULES))}")
    bot_times, bot_rest = await measure(args.kills, minimal=False)
    ref_times, ref_rest = await measure(args.kills, minimal=True)
    print(f"kill -> first accepted click, the bot:      {summary(bot_times)}")
    print(f"kill -> first accepted click, minimal bot:  {summary(ref_times)}")
    print(f"memory at rest: the bot {bot_rest:.0f} MiB, minimal bot {ref_rest:.0f} MiB")
    print(f"load averages: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    asyncio.run(main())
