"""Hundreds of games at once in one bot process: interaction latency, REST calls, CPU, memory, loop lag.

    python bench/load.py [--games 200] [--players 4] [--rounds 3] [--seconds 300]
                         [--think 0] [--games-per-guild 5] [--bot-ref HEAD]
                         [--profile bot.prof] [--py-spy bot.txt] [--json results.json]
                         [--exp guilds-intent|gc-tune|gc-moderate|db-one-hop ...]
                         [--processes 2 --database-url postgresql://… --rest-share 20]

Two processes on two cores: this one runs the Discord stand-in of the e2e tests (bench/_load_standin.py)
and the scripted players on one core; the real bot (`python -m bot`, via bench/_load_bot.py) runs on
the other, against the stand-in on 127.0.0.1, so its CPU time and memory are its own (read from /proc).

Each game: the host types /wizard start, three people click Join, the host clicks Start; then, as
people do, the players read whose turn it is and the suit led off the table once it has changed
since their game's last click, and that player clicks a random move the rules allow on their newest
hand DM (waiting on the stand-in's per-game condition, never polling). Every game stops clicking once the
hands of round `--rounds` + 1 are dealt (`--rounds 0`: whole games), or when `--seconds` is up.
With `--think S` each move waits an exponentially distributed time of mean S first (a human pace;
the default 0 clicks as fast as the bot allows, which measures its saturation).

Printed: acknowledgement latency of the interactions (stand-in clock: gateway send to callback),
REST calls per move, per card and per round by kind, and per click by what it caused (each call of
a game put down to the game's last click before it: per card played, per bid, per round), the
bot's CPU per game and per move, its memory per live game (RSS with every game live minus RSS when
idle), the lag of its event loop (a task
in the bot process wakes every 50 ms and records how late), database write times, and the
machine's load averages and how long each process sat runnable waiting for a CPU, since other work on
the machine skews every wall-clock figure (CPU per move, REST counts and memory are the steadier ones).
For the request budget (bot/budget.py): the share of moves made from a DM that already said "your
move", why each other one did not (when its turn edit was put off, handed its room, sent, and reached
the stand-in, and how long the player thought), how long after the table the turn form arrives, and
where requests bunch — the most in any one second as the budget let them through, as the bot wrote them
and as the stand-in stamped their arrival, with both event loops' lag around each global 429. With
`--keep`, the folder keeps the timelines (stats-N.json, standin.json) for a closer look.
`--exp` tries a suggested change in the bot process only (see bench/_load_bot.py) to measure its gain.
`--bot-ref HEAD` runs the committed bot (git archive) instead of a working tree others are editing.

`--processes N` runs N bot processes, one shard each (SHARD_COUNT=N, SHARD_IDS=0 … N-1), on one
PostgreSQL (`--database-url`: the run makes a database of its own on that server and drops it at the
end); the servers are spread over the shards, and the stand-in routes as Discord does (a server's
events to its shard, DM clicks to shard 0). `--rest-share` sets each process's REST_SHARE. Printed as
well: the peak REST requests in any one second of all processes together (Discord's global limit
counts them together) and, with PostgreSQL, the statements sent to the database per move.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import math
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _load_standin import KINDS, YOUR_MOVE, LoadStandin, cpu_seconds, memory_kib, run_delay  # noqa: E402

from tests.e2e._play import has_hand_button, moves_a_person_would_make, read_turn  # noqa: E402
from tests.e2e._reading import read  # noqa: E402
from tests.e2e.standin import Channel, Driver, Guild, InteractionRecord, StoredMessage, User  # noqa: E402

MOVE_KINDS = ("bid", "play", "trump")
HAND_TITLE = "Your hand"
FINAL_TITLE = "Final standings"
ROUNDS_BY_PLAYERS = {3: 20, 4: 15, 5: 12, 6: 10}
WAIT = 120.0  # seconds a game waits for the bot before it gives up (the bot is far behind or stuck)

# -- one game and its scripted players -------------------------------------------------------


@dataclass
class Game:
    slot: int
    channel: Channel
    people: list[User]
    dm_ids: list[int]
    rng: random.Random
    rounds_done: int = 0
    moves: Counter[str] = field(default_factory=Counter)
    refused: list[str] = field(default_factory=list)
    finished: bool = False
    error: str | None = None
    started_at: float | None = None
    table_seen: tuple[int, int] | None = None  # the table (message id, edits) when this game last clicked
    turns: int = 0  # moves clicked
    turns_shown: int = 0  # of them, made from a DM hand that said "your move" by the time of the click
    # (the move's number in its round, counted from 1; whether its DM said "your move") -> moves
    turns_by_place: Counter[tuple[int, bool]] = field(default_factory=Counter)
    moves_this_round: tuple[int, int] = (0, 0)  # (round shown, moves made in it)


@dataclass
class Miss:
    """A move made from a DM that did not say "your move" yet (times: time.monotonic(), machine-wide)."""

    slot: int
    seat: int
    place: int  # the move's number in its round
    kind: str
    seen_at: float  # when the player saw on the table that it was their move
    think: float  # seconds the player thought
    clicked_at: float
    hand_id: int


@dataclass
class Click:
    phase: str  # "setup" or "play"
    kind: str  # "start", "join", "go", "bid", "play", "trump"
    record: InteractionRecord
    slot: int = -1
    ends_round: bool = False


def shown_round(message: StoredMessage) -> int:
    """The round a table or hand message shows (0: none)."""
    return read(message).round or 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


class Bench:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.folder = folder
        self.standin = LoadStandin()
        self.driver = Driver(self.standin)
        self.games: list[Game] = []
        self.clicks: list[Click] = []
        self.misses: list[Miss] = []
        # Each move: (turn seen on the table, DM hand id, the move's number in its round, game channel, seat).
        self.seen: list[tuple[float, int, int, int, int]] = []
        self.lag: list[tuple[float, float]] = []  # the stand-in's event loop: (time, how late it woke)
        self.stop = asyncio.Event()
        self.process: asyncio.subprocess.Process | None = None  # the first bot process (shard 0)
        self.processes: list[asyncio.subprocess.Process] = []
        self.database = ""  # the PostgreSQL database of this run (--database-url), made and dropped by the bench
        self.stored_actions = 0  # moves in the database once the bots have stopped
        self.py_spy: subprocess.Popen[bytes] | None = None
        self.marks: dict[str, float] = {}
        self.bot_cpu: dict[str, float] = {}
        self.bot_cpu_each: dict[str, list[float]] = {}
        self.own_cpu: dict[str, float] = {}
        self.bot_loop_cpu: dict[str, float] = {}
        self.bot_waited: dict[str, float] = {}
        self.own_waited: dict[str, float] = {}
        self.bot_mem: dict[str, dict[str, int]] = {}
        self.mem_samples: list[tuple[float, int, int]] = []  # (time, live games, RSS KiB)
        self.load: dict[str, str] = {}
        self.last_round = args.rounds or ROUNDS_BY_PLAYERS[args.players]

    # -- the world ---------------------------------------------------------------------------

    def build_world(self) -> None:
        st = self.standin
        guild = None
        for slot in range(self.args.games):
            if slot % self.args.games_per_guild == 0:
                guild = self.create_guild(slot // self.args.games_per_guild)
            assert guild is not None
            channel = st.create_text_channel(guild, f"wizard-{slot}")
            people = [st.create_user(f"p{slot}x{seat}") for seat in range(self.args.players)]
            for person in people:
                st.add_member(guild, person)
            dm_ids = [st.dm_channel_for(person).id for person in people]
            for channel_id in [channel.id, *dm_ids]:
                st.slot_of_channel[channel_id] = slot
            self.games.append(Game(slot, channel, people, dm_ids, random.Random(self.args.seed * 100_003 + slot)))

    def create_guild(self, number: int) -> Guild:
        """A server on shard `number` modulo the processes (Discord routes a server's events to the shard
        `(guild_id >> 22) % shard_count`: the id is made in a millisecond that falls on that shard)."""
        shards = self.args.processes
        if shards > 1:
            snowflake = self.standin.snowflake
            # Far enough ahead that the clock does not overtake it before the id is made.
            stamp = (snowflake._last >> 22) + 20
            while stamp % shards != number % shards:
                stamp += 1
            snowflake._last = (stamp << 22) - 1
        guild = self.standin.create_guild(f"Guild {number}")
        if (guild.id >> 22) % shards != number % shards:
            raise RuntimeError(f"guild {number} landed on the wrong shard")
        return guild

    def latest_hand(self, game: Game, seat: int) -> StoredMessage | None:
        for message in reversed(self.standin.by_channel.get(game.dm_ids[seat], [])):
            if HAND_TITLE in message.text():
                return message
        return None

    def final_posted(self, game: Game) -> bool:
        messages = self.standin.by_channel.get(game.channel.id) or []
        return any(FINAL_TITLE in m.text() for m in messages[-3:])

    # -- the bot process -----------------------------------------------------------------------

    def bot_root(self) -> Path:
        if self.args.bot_ref is None:
            return ROOT
        tree = self.folder / "bot-tree"
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", self.args.bot_ref, "bot", "cogs"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        return tree

    async def launch_bot(self) -> None:
        """Start the bot processes, one shard each (`--processes`), and wait until all have logged in."""
        root = self.bot_root()
        env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
        env |= {
            "PYTHONPATH": str(root),
            "DISCORD_TOKEN": self.standin.token,
            "DATABASE_PATH": str(self.folder / "wizard.db"),
            "LOG_LEVEL": self.args.log_level,
        }
        if self.args.database_url:
            env["DATABASE_URL"] = await self.make_database()
        if self.args.rest_share is not None:
            env["REST_SHARE"] = str(self.args.rest_share)
        self.log = (self.folder / "bot.log").open("wb")
        for shard in range(self.args.processes):
            command = [
                sys.executable,
                str(Path(__file__).with_name("_load_bot.py")),
                self.standin.base_url,
                self.standin.ws_url,
                "--stats",
                str(self.folder / f"stats-{shard}.json"),
                "--cpu",
                str(self.args.bot_cpu),
            ]
            if self.args.profile and shard == 0:
                command += ["--profile", self.args.profile]
            for name in self.args.exp:
                command += ["--exp", name]
            shards = (
                {"SHARD_COUNT": str(self.args.processes), "SHARD_IDS": str(shard)} if self.args.processes > 1 else {}
            )
            process = await asyncio.create_subprocess_exec(
                *command, cwd=self.folder, env=env | shards, stdout=self.log, stderr=self.log
            )
            self.processes.append(process)
            # One at a time, as Discord wants identifies spaced (and as the README says to start them).
            logins = len(self.standin.identify_payloads)

            def logged_in(before: int = logins) -> bool:
                return len(self.standin.identify_payloads) > before and self.standin.gateway_ready

            await self.standin.wait_for(logged_in, 60, f"bot process {shard} to log in")
        self.process = self.processes[0]
        # on_ready comes after the last GUILD_CREATE and discord.py's guild_ready_timeout (2 s); the bot
        # takes interactions before that, so nothing waits for it.

    async def make_database(self) -> str:
        """A database of its own for this run, on the server of `--database-url` (dropped at the end)."""
        import asyncpg

        self.database = f"wizard_load_{os.getpid()}"
        connection = await asyncpg.connect(self.args.database_url)
        try:
            await connection.execute(f'CREATE DATABASE "{self.database}"')
        finally:
            await connection.close()
        return self.database_url(self.database)

    def database_url(self, name: str) -> str:
        base, _, _ = str(self.args.database_url).partition("?")
        return base.rsplit("/", 1)[0] + "/" + name

    async def drop_database(self) -> None:
        if not self.database:
            return
        import asyncpg

        connection = await asyncpg.connect(self.args.database_url)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        finally:
            await connection.close()

    async def stop_bot(self) -> None:
        for process in self.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                print("a bot did not stop within 30 s of SIGTERM: killed (no loop-lag figures)", file=sys.stderr)
                process.kill()
                await process.wait()

    def snapshot(self, name: str) -> None:
        """CPU, run-queue waits and memory of the bot processes (summed), the harness's, the load."""
        self.marks[name] = time.monotonic()
        pids = [process.pid for process in self.processes]
        self.bot_cpu[name] = sum(cpu_seconds(pid) for pid in pids)
        self.bot_loop_cpu[name] = sum(cpu_seconds(f"{pid}/task/{pid}") for pid in pids)
        self.bot_cpu_each[name] = [cpu_seconds(pid) for pid in pids]
        self.own_cpu[name] = cpu_seconds()
        self.bot_waited[name] = sum(run_delay(pid) for pid in pids)
        self.own_waited[name] = run_delay()
        memories = [memory_kib(pid) for pid in pids]
        self.bot_mem[name] = {key: sum(memory[key] for memory in memories) for key in ("VmRSS", "VmHWM")}
        with open("/proc/loadavg") as file:
            self.load[name] = " ".join(file.read().split()[:3])

    async def monitor_lag(self) -> None:
        """The stand-in's loop lag (it stamps each request's arrival when its loop gets to it)."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.05)
            self.lag.append((time.monotonic(), loop.time() - before - 0.05))

    async def sample_memory(self) -> None:
        """RSS of the bots twice a second, with how many games were live then (for the report only)."""
        while True:
            live = sum(1 for g in self.games if g.started_at is not None and not g.finished and g.error is None)
            rss = sum(memory_kib(process.pid)["VmRSS"] for process in self.processes)
            self.mem_samples.append((time.monotonic(), live, rss))
            await asyncio.sleep(0.5)

    def start_py_spy(self) -> None:
        assert self.process is not None
        if not self.args.py_spy:
            return
        spy = Path(sys.executable).with_name("py-spy")
        self.py_spy = subprocess.Popen(
            [str(spy), "record", "--pid", str(self.process.pid), "--rate", "200", "--format", "raw",
             "--output", self.args.py_spy, "--nonblocking"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )  # fmt: skip
        os.sched_setaffinity(self.py_spy.pid, {self.args.driver_cpu})

    def stop_py_spy(self) -> None:
        if self.py_spy is None:
            return
        self.py_spy.send_signal(signal.SIGINT)
        try:
            self.py_spy.wait(30)
        except subprocess.TimeoutExpired:
            self.py_spy.kill()

    # -- the players -----------------------------------------------------------------------------

    async def click(self, game: Game, phase: str, kind: str, user: User, message: StoredMessage, target: str) -> Click:
        record = await self.driver.click(user, message, target)
        click = Click(phase, kind, record, game.slot)
        self.clicks.append(click)
        await self.standin.wait_game(game.slot, lambda: record.acknowledged, WAIT, f"the ack of {kind}")
        record.payload = {}  # the copy of the clicked message: not needed any more
        return click

    async def set_up(self, game: Game) -> None:
        host, *others = game.people
        slash = await self.driver.slash(host, game.channel, "wizard start")
        self.clicks.append(Click("setup", "start", slash))

        def lobby_shown() -> StoredMessage | None:
            original = slash.original
            return original if original is not None and not original.loading else None

        lobby = await self.standin.wait_game(game.slot, lobby_shown, WAIT, "the lobby")
        for person in others:
            await self.click(game, "setup", "join", person, lobby, "Join")
        go = await self.click(game, "setup", "go", host, lobby, "Start")
        if go.record.callback_types != [7]:
            raise RuntimeError(f"Start was refused: {go.record.callback_types}")
        game.started_at = time.monotonic()
        await self.standin.wait_game(
            game.slot,
            lambda: all(self.latest_hand(game, seat) for seat in range(len(game.people))),
            WAIT,
            "the first hands",
        )

    def table(self, game: Game) -> StoredMessage | None:
        """The game's live table: its newest public message with a "My hand" button."""
        for message in reversed(self.standin.by_channel.get(game.channel.id, [])):
            if message.ephemeral_to is None and has_hand_button(message):
                return message
        return None

    def turn(self, game: Game) -> tuple[int, StoredMessage, list[str]] | str | None:
        """Whose move it is (seat, hand message, moves); "over"/"limit"/"stop"; None: not yet.

        As people do: read whose turn it is and the suit led on the table, once the table has
        changed since this game's last click, and play by the rules from that player's DM (every DM
        keeps its buttons enabled while the others play).
        """
        if self.stop.is_set():
            return "stop"
        if self.final_posted(game):
            return "over"
        hands = [self.latest_hand(game, seat) for seat in range(len(game.people))]
        if any(hand is None for hand in hands):
            return None
        rounds = [shown_round(hand) for hand in hands if hand is not None]
        game.rounds_done = max(game.rounds_done, min(rounds) - 1)
        if max(rounds) > self.last_round:
            # Stop once every hand of the next round is dealt: the game's messages are then all out.
            return "limit" if min(rounds) > self.last_round else None
        table = self.table(game)
        if table is None or (table.id, table.edits) == game.table_seen:
            return None
        # Whose move it is, read off the table as people do; their DM may not offer it yet.
        names = read_turn(table).names
        seat = next((k for k, p in enumerate(game.people) if (p.global_name or p.name) in names), None)
        hand = hands[seat] if seat is not None else None
        if seat is None or hand is None or shown_round(hand) != shown_round(table):
            return None
        return seat, hand, self.moves(hand, table)

    @staticmethod
    def moves(hand: StoredMessage, table: StoredMessage) -> list[str]:
        """The moves a DM hand offers now (none until its turn edit has come)."""
        return moves_a_person_would_make(hand, read_turn(table).led) if YOUR_MOVE in hand.text() else []

    async def play(self, game: Game) -> None:
        think = self.args.think
        while True:
            found: tuple[int, StoredMessage, list[str]] | str = await self.standin.wait_game(
                game.slot, lambda: self.turn(game), WAIT, "a player's turn"
            )
            if found == "over":
                game.finished = True
                game.rounds_done = ROUNDS_BY_PLAYERS[self.args.players]
                return
            if isinstance(found, str):
                return
            seat, hand, _ = found
            seen_at, thought = time.monotonic(), 0.0
            if think > 0:
                thought = game.rng.expovariate(1 / think)
                await asyncio.sleep(thought)  # a person thinking, not a wait
                if self.stop.is_set():
                    return
            shown_table = self.table(game)
            assert shown_table is not None
            # A person who has decided looks at their DM: the move is there, or they wait for it.
            shown_now = bool(self.moves(hand, shown_table))
            buttons: list[str] = await self.standin.wait_game(
                game.slot,
                lambda hand=hand, shown=shown_table: self.moves(hand, shown),  # type: ignore[misc]
                WAIT,
                "the DM to offer the move",
            )
            custom_id = game.rng.choice(buttons)
            kind = custom_id.split(":")[1]
            table = self.table(game)
            assert table is not None
            game.table_seen = (table.id, table.edits)
            game.turns += 1
            game.turns_shown += shown_now
            round_now = shown_round(hand)
            made = game.moves_this_round[1] + 1 if game.moves_this_round[0] == round_now else 1
            game.moves_this_round = (round_now, made)
            game.turns_by_place[made, shown_now] += 1
            self.seen.append((seen_at, hand.id, made, game.channel.id, seat))
            if not shown_now:
                self.misses.append(Miss(game.slot, seat, made, kind, seen_at, thought, time.monotonic(), hand.id))
            click = await self.click(game, "play", kind, game.people[seat], hand, custom_id)
            if click.record.callback_types == [7]:
                game.moves[kind] += 1
                # The card that ended a round: its calls include the next round's new messages.
                click.ends_round = kind == "play" and "round is over" in hand.text()
            else:
                game.refused.append(custom_id)

    async def run_game(self, game: Game, ready: asyncio.Event, setups: list[int]) -> None:
        try:
            if self.args.starts_per_second:
                # Hosts typing /wizard start spread over time, not all in the same millisecond.
                await asyncio.sleep(game.slot / self.args.starts_per_second)
            await self.set_up(game)
            setups.append(game.slot)
            if len(setups) == len(self.games):
                ready.set()
            await ready.wait()
            await self.play(game)
        except Exception as error:
            game.error = f"{type(error).__name__}: {error}"
            setups.append(-1)
            if len(setups) >= len(self.games):
                ready.set()

    # -- the run -------------------------------------------------------------------------------

    async def run(self) -> None:
        await self.standin.start()
        try:
            self.build_world()
            await self.launch_bot()
            assert self.process is not None
            self.snapshot("idle")
            sampler = asyncio.get_running_loop().create_task(self.sample_memory())
            lag = asyncio.get_running_loop().create_task(self.monitor_lag())
            ready = asyncio.Event()
            setups: list[int] = []
            tasks = [asyncio.create_task(self.run_game(game, ready, setups)) for game in self.games]
            self.snapshot("setup")
            await ready.wait()
            self.snapshot("play")
            self.start_py_spy()
            timer = asyncio.get_running_loop().call_later(self.args.seconds, self._time_up)
            await asyncio.gather(*tasks)
            timer.cancel()
            self.snapshot("end")
            for process in self.processes:
                process.send_signal(signal.SIGUSR1)  # the bot counts its objects, every game still live
            self.stop_py_spy()
            sampler.cancel()
            lag.cancel()
        finally:
            await self.stop_bot()
            self.stop_py_spy()
            await self.standin.stop()
            try:
                self.stored_actions = await self.count_actions()
            finally:
                await self.drop_database()
            if hasattr(self, "log"):
                self.log.close()

    def _time_up(self) -> None:
        self.stop.set()
        for event in self.standin.game_events.values():
            event.set()

    # -- the report ------------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        a = self.args
        # The stand-in's side of the timeline, beside the bots' stats-N.json, for a closer look (--keep).
        (self.folder / "standin.json").write_text(
            json.dumps({"marks": self.marks, "arrivals": self.standin.arrivals, "lag": self.lag})
        )
        out: dict[str, Any] = {"games": a.games, "players": a.players, "rounds": a.rounds, "think": a.think}
        out |= {"bot_ref": a.bot_ref, "exp": a.exp, "load": self.load}
        play_s = self.marks["end"] - self.marks["play"]
        setup_s = self.marks["play"] - self.marks["setup"]
        errors = [g for g in self.games if g.error]
        moves = Counter[str]()
        for g in self.games:
            moves.update(g.moves)
        total_moves = sum(moves.values())
        rounds_done = sum(g.rounds_done for g in self.games if not g.error)
        refused = sum(len(g.refused) for g in self.games)
        bot = (a.bot_ref or "working tree") + "".join(f" + {name}" for name in a.exp)
        if a.processes > 1:
            bot += f"; {a.processes} processes (one shard each)"
        bot += "; PostgreSQL" if a.database_url else "; SQLite"
        print(
            f"\n== {a.games} games x {a.players} players, rounds {a.rounds or 'all'}, think {a.think:g} s; bot {bot} =="
        )
        load = self.load
        print(f"machine load averages (1/5/15 min): idle {load['idle']} · play {load['play']} · end {load['end']}")
        print(
            f"setup {setup_s:.1f} s (lobbies, joins, starts, first deal); play {play_s:.1f} s: {total_moves} moves "
            f"({moves['bid']} bids, {moves['play']} cards, {moves['trump']} trumps), {rounds_done} rounds, "
            f"{total_moves / play_s:.0f} moves/s"
        )
        if errors:
            print(f"!! {len(errors)} games failed, e.g. {errors[0].error}")
        if refused:
            print(f"!! {refused} clicks refused (answered with a message instead of the hand)")
        finished = sum(g.finished for g in self.games)
        if finished:
            print(f"{finished} games finished")
        out |= {"setup_s": setup_s, "play_s": play_s, "moves": dict(moves), "rounds_done": rounds_done}
        out |= {"failed_games": len(errors), "refused": refused}

        print("\nacknowledgement latency (ms; stand-in clock, interaction sent → callback received):")
        out["ack_ms"] = {}
        for phase, kinds in (("setup", ("start", "join", "go")), ("play", MOVE_KINDS)):
            for kind in (*kinds, "all"):
                records = [c.record for c in self.clicks if c.phase == phase and kind in ("all", c.kind)]
                if not records:
                    continue
                latencies = [r.ack_latency * 1000 for r in records if r.ack_latency is not None]
                row = {q: percentile(latencies, q) for q in (50, 95, 99, 100)}
                late = sum(1 for r in records if r.ack_latency is None or r.ack_latency > 3)
                warn = f"  !! {late} over 3 s or unanswered" if late else ""
                print(
                    f"  {phase:5} {kind:6} n={len(records):6}  p50 {row[50]:7.1f}  p95 {row[95]:7.1f}  "
                    f"p99 {row[99]:7.1f}  max {row[100]:7.1f}{warn}"
                )
                out["ack_ms"][f"{phase}.{kind}"] = row | {"n": len(records), "over_3s": late}

        counts = self.standin.rest_counter.between(self.marks["play"], self.marks["end"])
        setup_counts = self.standin.rest_counter.between(self.marks["setup"], self.marks["play"])
        total = sum(counts.values())
        besides = total - counts["interaction callback"]
        per = (max(total_moves, 1), max(moves["play"], 1), max(rounds_done, 1))
        print(f"\nREST calls during play: {total} ({total / play_s:.0f}/s, {besides / play_s:.0f}/s besides callbacks)")
        print(f"  {'kind':30} {'per move':>9} {'per card':>9} {'per round':>10} {'setup/game':>11}")
        for kind in (*KINDS, "all"):
            n = total if kind == "all" else counts[kind]
            setup_n = sum(setup_counts.values()) if kind == "all" else setup_counts[kind]
            if n or setup_n:
                print(f"  {kind:30} {n / per[0]:9.2f} {n / per[1]:9.2f} {n / per[2]:10.1f} {setup_n / a.games:11.1f}")
        if self.standin.rest_counter.other_routes:
            print(f"  other routes: {dict(self.standin.rest_counter.other_routes.most_common(5))}")
        if self.standin.rest_counter.errors:
            print(f"  !! errors: {dict(self.standin.rest_counter.errors.most_common(5))}")
        # What the global budget pays for: every REST call but the interaction endpoints (answers, and
        # edits through an interaction's token), which Discord leaves outside it.
        budgeted = total - counts["interaction callback"] - counts["webhook (followup/original)"]
        print(
            f"budgeted requests (not interaction endpoints): {budgeted / per[1]:.2f} per card, "
            f"{budgeted / per[0]:.2f} per move"
        )
        out["rest"] = {"play": dict(counts), "setup": dict(setup_counts), "per_move": total / per[0]}
        out["rest"]["budgeted_per_card"] = budgeted / per[1]
        # Turn edits are the lowest-priority requests (bot/budget.py): sent only while the budget has room.
        turns = sum(g.turns for g in self.games)
        shown = sum(g.turns_shown for g in self.games)
        peak, peak_play = self.peak_rate(), self.peak_rate(self.marks["play"], self.marks["end"])
        print(
            f"turn edits: {shown} of {turns} moves ({shown / max(turns, 1):.0%}) were made from a DM that said "
            f'"your move" by the time its player had decided; global 429s: {self.standin.global_refusals}; '
            f"per-route 429s (a channel's 5 sends or edits in 5 s): {len(self.standin.route_refusals)}; "
            f"peak REST requests in any one second, besides interaction endpoints (all processes): {peak_play} "
            f"during play, {peak} in the whole run (Discord allows 50)"
        )
        out["turns"] = {"moves": turns, "shown": shown, "global_429": self.standin.global_refusals}
        out["turns"]["route_429"] = len(self.standin.route_refusals)
        out["turns"] |= {"peak_rest": peak, "peak_rest_play": peak_play}
        by_place = Counter[tuple[int, bool]]()
        for g in self.games:
            by_place.update(g.turns_by_place)
        places = sorted({place for place, _ in by_place})
        print(
            "  by the move's number in its round (shown/moves): "
            + ", ".join(f"{p}: {by_place[p, True]}/{by_place[p, True] + by_place[p, False]}" for p in places)
        )
        out["rest"] |= {
            "per_card": total / per[1],
            "per_round": total / per[2],
            "besides_callbacks_per_s": besides / play_s,
        }

        self.report_attributed(out)
        self.report_cpu(play_s, total_moves, rounds_done, out)

        idle = self.bot_mem["idle"]["VmRSS"]
        end = self.bot_mem["end"]["VmRSS"]
        peak = self.bot_mem["end"]["VmHWM"]
        all_live = [rss for _, live, rss in self.mem_samples if live == a.games]
        live_rss = end if a.rounds and not errors else (max(all_live) if all_live else end)
        per_game = (live_rss - idle) / a.games
        print(
            f"\nbot memory: idle RSS {idle / 1024:.1f} MiB, with {a.games} games live {live_rss / 1024:.1f} MiB, "
            f"peak {peak / 1024:.1f} MiB → {per_game:.0f} KiB per live game"
        )
        out["memory"] = {"idle_kib": idle, "live_kib": live_rss, "peak_kib": peak, "per_game_kib": per_game}

        stats = self.merged_stats()
        if stats.get("budget"):
            budget = stats["budget"]
            share = f" ({a.rest_share:g} a second each)" if a.rest_share is not None else ""
            handed, given_back = budget["turn_handed"], budget["turn_given_back"]
            print(
                f"the bots' request budget{share}: sent {budget['sent']}; turn edits put off for want of budget "
                f"{budget['turn_skipped']}: handed their request once there was room {handed} (sent "
                f"{handed - given_back}, not needed by then {given_back}: the turn had passed), still waiting for "
                f"room at the end {budget['turn_skipped'] - handed}"
            )
            if len(self.processes) > 1:
                print(f"  requests let through by each process (shard 0, 1, …): {budget['sent_by_process']}")
            out["budget"] = budget
        if stats:
            self.report_misses(stats, out)
            self.report_bunching(stats, out)
            self.report_loop(stats, out)
        else:
            print("\n(no loop-lag statistics: the bot did not stop cleanly)")
        if stats.get("heap"):
            heap = stats["heap"]
            top = ", ".join(f"{name} {count}" for name, count in heap["by_type"][:12])
            print(f"objects tracked by the garbage collector at the end: {heap['tracked']} ({top})")
            out["heap"] = heap
        self.report_database(moves, stats, out)
        self.report_log()
        self.report_targets(out)
        return out

    def report_misses(self, stats: dict[str, Any], out: dict[str, Any]) -> None:
        """Why each move was made from a DM that did not say "your move" yet: when the bot put its turn
        edit off and handed it room, when the turn form reached the stand-in, and how long the player
        thought (all from the moment the player saw on the table that it was their move)."""
        owed: dict[tuple[int, int], list[float]] = {}
        delays: list[float] = []
        pending: dict[tuple[int, int], float] = {}
        for at, what, channel, seat in sorted(stats.get("turn_log", [])):
            if what == "owed":
                owed.setdefault((channel, seat), []).append(at)
                pending[channel, seat] = at
            elif (channel, seat) in pending:
                delays.append((at - pending.pop((channel, seat))) * 1000)
        if delays:
            row = {q: percentile(delays, q) for q in (50, 90, 99, 100)}
            print(
                f"\nturn edits put off: {len(delays)} handed their room after p50 {row[50]:.0f} ms, p90 {row[90]:.0f}, "
                f"p99 {row[99]:.0f}, max {row[100]:.0f} ms"
            )
            out["turn_room_ms"] = row
        # How long after the table the turn form reached the stand-in, for the moves whose DM was not
        # dealt in it: a player who clicks sooner (the think time is exponential) cannot have seen it.
        gaps: dict[str, list[float]] = {"sent at once": [], "put off": []}
        for seen_at, hand_id, place, channel, seat in self.seen:
            came = next(
                (at for at, turn in self.standin.dm_forms.get(hand_id, []) if turn and at >= seen_at - 0.5), None
            )
            if place > 1 and came is not None:
                waited = any(seen_at - 1 <= at <= came for at in owed.get((channel, seat), []))
                gaps["put off" if waited else "sent at once"].append(max(0.0, came - seen_at))
        print(
            "\nthe turn form reached the stand-in after the table showed the turn (moves whose DM was not dealt in it):"
        )
        out["turn_form_after_table_ms"] = {}
        for what, after in gaps.items():
            if not after or self.args.think <= 0:
                continue
            row = {q: percentile([gap * 1000 for gap in after], q) for q in (50, 90, 99, 100)}
            odds = sum(1 - math.exp(-gap / self.args.think) for gap in after)
            print(
                f"  turn edit {what:12}: {len(after):5} moves, p50 {row[50]:.0f} ms, p90 {row[90]:.0f}, "
                f"p99 {row[99]:.0f}, max {row[100]:.0f}; players thinking {self.args.think:g} s on average click "
                f"sooner {odds:.2f} times"
            )
            out["turn_form_after_table_ms"][what] = row | {"n": len(after), "expected_sooner": odds}
        handed = {(channel, seat) for _, what, channel, seat in stats.get("turn_log", []) if what == "handed"}
        requests = stats.get("requests", [])
        print(f'moves made from a DM not yet saying "your move": {len(self.misses)} (ms after the table showed it)')
        rows = []
        for miss in self.misses:
            game = self.games[miss.slot]
            key = (game.channel.id, miss.seat)
            put_off = [at for at in owed.get(key, []) if miss.seen_at - 1 <= at <= miss.clicked_at]
            forms = self.standin.dm_forms.get(miss.hand_id, [])
            came = next((at for at, turn in forms if turn and at >= miss.seen_at - 1), None)
            edits = [(g, h, name) for g, h, _, path, name in requests if path.endswith(f"/messages/{miss.hand_id}")]
            sent = next(((h, name) for g, h, name in sorted(edits, key=lambda e: e[1]) if h >= miss.seen_at - 1), None)

            def ms(at: float | None, since: float = miss.seen_at) -> str:
                return "—" if at is None else f"{(at - since) * 1000:.0f}"

            found: dict[str, Any] = {
                "slot": miss.slot,
                "place": miss.place,
                "kind": miss.kind,
                "think_ms": miss.think * 1000,
                "put_off_ms": ms(put_off[0]) if put_off else "—",
                "handed": key in handed and bool(put_off),
                "edit_sent_ms": ms(sent[0]) if sent else "—",
                "edit_priority": sent[1] if sent else "—",
                "turn_form_arrived_ms": ms(came),
                "clicked_ms": ms(miss.clicked_at),
            }
            rows.append(found)
            if len(rows) <= 20:
                shown = (f"{value:.0f}" if isinstance(value, float) else str(value) for value in found.values())
                print("  " + ", ".join(f"{name} {value}" for name, value in zip(found, shown, strict=True)))
        out["misses"] = rows

    def report_bunching(self, stats: dict[str, Any], out: dict[str, Any]) -> None:
        """Where requests bunch past Discord's 50 in a second: as the budget let them through, as the bot
        wrote them to the socket, as the stand-in stamped their arrival; around each global 429 too."""
        requests = [r for r in stats.get("requests", []) if r[4] != "EXEMPT"]
        paced = sorted(g for g, *_ in requests if g > 0)
        written = sorted(h for _, h, *_ in requests)
        arrived = sorted(at for at, _ in self.standin.arrivals)
        refusals = [at for at, refused in self.standin.arrivals if refused]

        def peak(times: list[float]) -> int:
            return max((bisect.bisect_left(times, at + 1.0) - i for i, at in enumerate(times)), default=0)

        def within(times: list[float], end: float) -> int:
            return bisect.bisect_right(times, end) - bisect.bisect_right(times, end - 1.0)

        levels = Counter(r[4] for r in requests)
        print(
            f"\nrequests within the global limit: bot wrote {len(written)} ({dict(levels)}), of them let through by "
            f"the budget {len(paced)}; the stand-in stamped {len(arrived)} arrivals ({len(refusals)} refused)"
        )
        print(f"  most in any one second: let through {peak(paced)}, written {peak(written)}, arrived {peak(arrived)}")
        lag = sorted(self.lag)
        bot_lag = sorted((at, late) for at, late, _ in stats.get("lag", []))
        for at in refusals[:12]:
            near = [late for t, late in lag if at - 1.0 <= t <= at + 0.1]
            bot_near = [late for t, late in bot_lag if at - 1.5 <= t <= at + 0.1]
            print(
                f"  429 at +{at - self.marks['setup']:.2f} s: in the second before, arrived {within(arrived, at)}, "
                f"written {within(written, at)} "
                f"(in the 1.2 s before {sum(1 for h in written if at - 1.2 <= h <= at)}), "
                f"let through {within(paced, at)}; stand-in loop late up to {max(near, default=0) * 1000:.0f} ms, "
                f"bot loop up to {max(bot_near, default=0) * 1000:.0f} ms"
            )
        out["bunching"] = {"paced": peak(paced), "written": peak(written), "arrived": peak(arrived)}

    def peak_rate(self, start: float = 0.0, end: float = float("inf")) -> int:
        """The most requests the stand-in received in any one second (sliding, as Discord counts) between
        `start` and `end`, besides interaction endpoints (outside Discord's global limit)."""
        exempt = ("interaction callback", "webhook (followup/original)")
        calls = self.standin.rest_counter.calls
        times = sorted(at for at, kind, _ in calls if kind not in exempt and start <= at <= end)
        return max((bisect.bisect_left(times, at + 1.0) - index for index, at in enumerate(times)), default=0)

    def report_attributed(self, out: dict[str, Any]) -> None:
        """REST calls per click: each call of a game during play is put down to the game's last click before it.

        A game waits for the table to change after each click before the next, so what a click
        causes lands before the next click of its game. A card that ends a round is counted apart:
        the round's score pad, the next table and the next hands follow it (the cost of a round).
        """
        clicks: dict[int, list[Click]] = {}
        for click in self.clicks:
            if click.phase == "play" and click.record.callback_types == [7]:
                clicks.setdefault(click.slot, []).append(click)
        times = {slot: [c.record.dispatched_at for c in found] for slot, found in clicks.items()}
        calls: dict[str, Counter[str]] = {}
        for at, kind, slot in self.standin.rest_counter.calls:
            if not self.marks["play"] <= at <= self.marks["end"] or slot not in times:
                continue
            index = bisect.bisect_right(times[slot], at) - 1
            if index < 0:
                continue
            click = clicks[slot][index]
            category = "card ending a round" if click.ends_round else click.kind
            calls.setdefault(category, Counter())[kind] += 1
        counted = Counter("card ending a round" if c.ends_round else c.kind for found in clicks.values() for c in found)
        shown = {
            "interaction callback": "callback",
            "channel message edit": "table edit",
            "DM edit": "DM edit",
            "channel message send": "channel send",
            "DM send": "DM send",
        }
        print("\nREST calls per accepted click, by what the click caused (the calls until the game's next click):")
        print(f"  {'click':20} {'n':>6} {'all':>6} " + " ".join(f"{label:>12}" for label in shown.values()))
        out["rest"]["per_click"] = {}
        for category in ("play", "bid", "trump", "card ending a round"):
            n = counted[category]
            if not n:
                continue
            kinds = calls.get(category, Counter())
            row = {kind: kinds[kind] / n for kind in KINDS}
            total = sum(kinds.values()) / n
            print(f"  {category:20} {n:6} {total:6.2f} " + " ".join(f"{row[k]:12.2f}" for k in shown))
            out["rest"]["per_click"][category] = {"n": n, "all": total} | row
        card = out["rest"]["per_click"].get("play", {}).get("all", float("nan"))
        out["rest"]["per_card_played"] = card

    def report_cpu(self, play_s: float, total_moves: int, rounds_done: int, out: dict[str, Any]) -> None:
        a = self.args
        bot_setup = self.bot_cpu["play"] - self.bot_cpu["setup"]
        bot_play = self.bot_cpu["end"] - self.bot_cpu["play"]
        loop_play = self.bot_loop_cpu["end"] - self.bot_loop_cpu["play"]
        own_play = self.own_cpu["end"] - self.own_cpu["play"]
        per_move_ms = bot_play / max(total_moves, 1) * 1000
        per_game = (bot_setup + bot_play) / a.games
        print(
            f"\nbot CPU: setup {bot_setup:.2f} s ({bot_setup / a.games * 1000:.1f} ms/game); play {bot_play:.2f} s "
            f"({bot_play / play_s:.0%} of a core; loop thread {loop_play:.2f} s, other threads "
            f"{bot_play - loop_play:.2f} s) = {per_move_ms:.2f} ms/move"
        )
        print(f"  → {per_game:.3f} s per game of {rounds_done / a.games:.1f} rounds")
        if len(self.processes) > 1:
            each = [end - start for start, end in zip(self.bot_cpu_each["play"], self.bot_cpu_each["end"], strict=True)]
            print("  by process (shard) during play: " + ", ".join(f"{n}: {cpu:.2f} s" for n, cpu in enumerate(each)))
            out["cpu"] = {"by_process_play_s": each}
        saturated = "  !! saturated: latencies include its own queueing" if own_play / play_s > 0.9 else ""
        print(f"  stand-in + players CPU during play: {own_play:.2f} s ({own_play / play_s:.0%} of a core){saturated}")
        bot_waited = self.bot_waited["end"] - self.bot_waited["play"]
        own_waited = self.own_waited["end"] - self.own_waited["play"]
        print(
            f"  waiting for a CPU (runnable, other processes on the core) during play: the bot's loop thread "
            f"{bot_waited:.2f} s ({bot_waited / play_s:.0%} of the time), the stand-in's {own_waited:.2f} s "
            f"({own_waited / play_s:.0%})"
        )
        out["cpu"] = out.get("cpu", {}) | {
            "bot_setup_s": bot_setup,
            "bot_play_s": bot_play,
            "bot_loop_play_s": loop_play,
        }
        out["cpu"] |= {"bot_util": bot_play / play_s, "ms_per_move": per_move_ms, "s_per_game": per_game}
        out["cpu"] |= {"harness_util": own_play / play_s, "bot_waited_s": bot_waited, "harness_waited_s": own_waited}

    def report_targets(self, out: dict[str, Any]) -> None:
        ack = out["ack_ms"].get("play.all", {}).get(99, float("nan"))
        own = out.get("lag_ms", {}).get("play.own", {}).get(100, float("nan"))
        raw = out.get("lag_ms", {}).get("play.all", {}).get(100, float("nan"))
        db = out.get("db_ms", {}).get("append_action", {}).get(99, float("nan"))
        stored = out["db_actions"]["stored"] == out["db_actions"]["accepted"]
        rows = [
            ("p99 acknowledgement < 100 ms", ack < 100, f"{ack:.0f} ms"),
            ("no loop stall > 100 ms", raw <= 100, f"longest {raw:.0f} ms ({own:.0f} ms own)"),
            (
                "≤ 2 REST calls per card played",
                out["rest"]["per_card_played"] <= 2,
                f"{out['rest']['per_card_played']:.2f} (all calls of the run: {out['rest']['per_card']:.2f} per card, "
                f"{out['rest']['per_move']:.2f} per move, {out['rest']['per_round']:.1f} per round)",
            ),
            (
                "< 100 KB per live game",
                out["memory"]["per_game_kib"] * 1.024 < 100,
                f"{out['memory']['per_game_kib']:.0f} KiB",
            ),
            ("database keeps up", stored and not db >= 100, f"all moves stored: {stored}; append p99 {db:.0f} ms"),
        ]
        print("\ntargets:")
        for name, met, value in rows:
            print(f"  {'met   ' if met else 'MISSED'} {name:30} {value}")
        out["targets"] = {name: {"met": met, "value": value} for name, met, value in rows}

    def window(self, samples: list[list[float]], start: str, end: str) -> list[list[float]]:
        return [s for s in samples if self.marks[start] <= s[0] <= self.marks[end]]

    def report_loop(self, stats: dict[str, Any], out: dict[str, Any]) -> None:
        print("\nbot event loop lag (ms; a task wakes every 50 ms and records how late):")
        out["lag_ms"] = {}
        print("  (own: minus the time the loop's thread sat runnable while other processes had its core)")
        for phase, (start, end) in (("setup", ("setup", "play")), ("play", ("play", "end"))):
            samples = self.window(stats["lag"], start, end)
            for what, lags in (
                ("all", [s[1] * 1000 for s in samples]),
                ("own", [max(0.0, s[1] - s[2]) * 1000 for s in samples]),
            ):
                stalls = sum(1 for lag in lags if lag > 100)
                row = {q: percentile(lags, q) for q in (50, 99, 100)}
                print(
                    f"  {phase:5} {what:3} n={len(lags):5}  p50 {row[50]:6.1f}  p99 {row[99]:6.1f}  "
                    f"max {row[100]:6.1f}  stalls over 100 ms: {stalls}"
                )
                out["lag_ms"][f"{phase}.{what}"] = row | {"stalls_over_100ms": stalls}
        collections = self.window(stats["gc"], "play", "end")
        full = [c for c in collections if c[1] == 2]
        gc_cpu = sum(c[3] for c in collections)
        longest = max((c[2] for c in full), default=0) * 1000
        longest_cpu = max((c[3] for c in full), default=0) * 1000
        print(
            f"  garbage collections during play: {len(collections)}, {gc_cpu:.2f} s CPU; {len(full)} full, "
            f"longest {longest:.0f} ms ({longest_cpu:.0f} ms CPU)"
        )
        by_generation = {
            generation: (
                sum(1 for c in collections if c[1] == generation),
                sum(c[3] for c in collections if c[1] == generation),
            )
            for generation in (0, 1, 2)
        }
        print("    by generation: " + ", ".join(f"{g}: {n} in {cpu:.2f} s" for g, (n, cpu) in by_generation.items()))
        out["gc"] = {"count": len(collections), "cpu_s": gc_cpu, "full": len(full), "longest_full_cpu_ms": longest_cpu}
        out["gc"]["by_generation"] = by_generation
        print("database writes as the bot awaits them, during play (ms):")
        out["db_ms"] = {}
        for name, samples in sorted(stats["db"].items()):
            durations = [s[1] * 1000 for s in self.window(samples, "play", "end")]
            if durations:
                row = {q: percentile(durations, q) for q in (50, 99, 100)}
                print(f"  {name:18} n={len(durations):6}  p50 {row[50]:6.2f}  p99 {row[99]:6.2f}  max {row[100]:7.2f}")
                out["db_ms"][name] = row | {"n": len(durations)}

    def merged_stats(self) -> dict[str, Any]:
        """The bot processes' statistics (bench/_load_bot.py) as one: samples pooled, counters added."""
        merged: dict[str, Any] = {}
        for shard in range(len(self.processes)):
            path = self.folder / f"stats-{shard}.json"
            if not path.exists():
                return {}  # a bot that did not stop cleanly: no figures rather than a part of them
            stats = json.loads(path.read_text())
            sent_here = sum(stats["budget"]["sent"].values())
            if not merged:
                merged = stats
                merged["budget"]["sent_by_process"] = [sent_here]
                continue
            merged["budget"]["sent_by_process"].append(sent_here)
            merged["lag"] += stats["lag"]
            merged["gc"] += stats["gc"]
            merged["db_queries"] += stats["db_queries"]
            merged["requests"] += stats["requests"]
            merged["turn_log"] += stats["turn_log"]
            for name, samples in stats["db"].items():
                merged["db"].setdefault(name, []).extend(samples)
            for key in ("turn_skipped", "turn_handed", "turn_given_back"):
                merged["budget"][key] += stats["budget"][key]
            for level, count in stats["budget"]["sent"].items():
                merged["budget"]["sent"][level] += count
        return merged

    async def count_actions(self) -> int:
        """The moves stored, read from the database once the bots have stopped."""
        if self.database:
            import asyncpg

            connection = await asyncpg.connect(self.database_url(self.database))
            try:
                return int(await connection.fetchval("SELECT count(*) FROM actions"))
            finally:
                await connection.close()
        with contextlib.closing(sqlite3.connect(self.folder / "wizard.db")) as db:
            (stored,) = db.execute("SELECT count(*) FROM actions").fetchone()
        return int(stored)

    def report_database(self, moves: Counter[str], stats: dict[str, Any], out: dict[str, Any]) -> None:
        stored = self.stored_actions
        accepted = sum(moves.values())
        differ = "" if stored == accepted else "  !! they differ"
        where = "PostgreSQL" if self.database else "SQLite"
        print(f"database ({where}): {stored} actions stored for {accepted} accepted moves{differ}")
        out["db_actions"] = {"stored": stored, "accepted": accepted}
        queries = self.window([[at] for at in stats.get("db_queries", [])], "play", "end")
        if queries:
            per_move = len(queries) / max(accepted, 1)
            print(
                f"  database round trips during play (statements sent by the bots, timers and claims included): "
                f"{len(queries)}, {per_move:.2f} per move"
            )
            out["db_actions"]["round_trips_per_move"] = per_move

    def report_log(self) -> None:
        text = re.sub(r"\x1b\[[0-9;]*m", "", (self.folder / "bot.log").read_text(errors="replace"))
        bad = [
            line
            for line in text.splitlines()
            if any(word in line for word in (" WARNING ", " ERROR ", "Traceback"))
            and "voice will NOT be supported" not in line
        ]
        if bad:
            print(f"\n!! the bot logged {len(bad)} warnings/errors, e.g.:")
            for line in bad[:5]:
                print("   ", line[:200])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games at once (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6), help="people per game (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds to play in each game; 0: whole games")
    parser.add_argument("--seconds", type=float, default=300, help="stop clicking after this long (default 300)")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player thinks before a move")
    parser.add_argument("--games-per-guild", type=int, default=5, help="games (channels) per server (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--bot-ref", help="run the bot of this git commit (default: the working tree)")
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL (default INFO)")
    parser.add_argument("--bot-cpu", type=int, default=0, help="the core of the bot processes (default 0)")
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one shard each (SHARD_COUNT, SHARD_IDS; default 1)"
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server (postgresql://…) on which the run makes a database of its own, dropped at the "
        "end (default: a SQLite file; two processes need PostgreSQL)",
    )
    parser.add_argument("--rest-share", type=float, help="REST_SHARE of each bot process (default: the bot's own)")
    parser.add_argument(
        "--starts-per-second",
        type=float,
        default=0,
        help="games set up (/wizard start) a second; play begins once all are (default 0: all at once)",
    )
    parser.add_argument("--driver-cpu", type=int, default=1, help="the core of the stand-in and players (default 1)")
    parser.add_argument("--profile", help="write a cProfile of the bot process here (slows it down)")
    parser.add_argument("--py-spy", help="record the bot during play with py-spy into this file (raw format)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument(
        "--exp",
        action="append",
        default=[],
        choices=("guilds-intent", "gc-tune", "gc-moderate", "db-one-hop"),
        help="try a suggested change in the bot process only (see bench/_load_bot.py); repeatable",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (database, bot log)")
    args = parser.parse_args()
    if args.processes > 1 and not args.database_url:
        parser.error("--processes above 1 needs --database-url: processes share PostgreSQL, never a SQLite file")

    for name in ("profile", "py_spy", "json"):
        if getattr(args, name):
            setattr(args, name, str(Path(getattr(args, name)).resolve()))
    os.sched_setaffinity(0, {args.driver_cpu})
    folder = Path(tempfile.mkdtemp(prefix="wizard-load-"))
    bench = Bench(args, folder)
    try:
        asyncio.run(bench.run())
        out = bench.report()
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2))
    finally:
        if args.keep:
            print(f"\nkept {folder}")
        else:
            subprocess.run(["rm", "-rf", str(folder)], check=False)


if __name__ == "__main__":
    main()
