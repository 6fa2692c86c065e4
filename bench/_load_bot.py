"""The bot process of bench/load.py: `python -m bot`, pointed at the stand-in, with outside measurements.

    python bench/_load_bot.py BASE_URL WS_URL --stats FILE [--cpu N] [--profile FILE]

Like the launcher of tests/e2e/_process.py it points discord.py at the stand-in and runs the bot's own
entry point (settings from the environment). Being bench code it may also, without touching the
product:

- pin itself to one CPU (`--cpu`), and die with its parent (PR_SET_PDEATHSIG);
- run a task in the bot's event loop that wakes every 50 ms and records how late it woke (loop lag);
- time each `Repository` write as the bot awaits it (queueing in aiosqlite's thread included);
- time each garbage collection;
- record each REST request's moment let through by the request budget and written to the socket,
  and each turn edit put off and handed its room (by game channel and seat);
- profile the whole run with cProfile (`--profile`).

Everything is written as JSON to `--stats` when the bot stops (SIGTERM closes it cleanly).

`--exp NAME` (repeatable) tries a change the report suggests, by patching the product in this process
only, to measure its gain before anyone makes it for real:

- `guilds-intent`: connect with the `guilds` intent only (no message events, so no message cache);
- `db-one-hop`: `Repository.append_action` as one call into aiosqlite's thread instead of three;
- `gc-tune`: `gc.set_threshold(50_000, 20, 10)` (the bot freezes its start-up objects itself), so
  short-lived views and embeds die young instead of reaching the oldest generation; `gc-moderate`: the same with
  `gc.set_threshold(10_000, 50, 1000)`, for shorter young-generation pauses;
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import functools
import gc
import json
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

LAG_INTERVAL = 0.05
TIMED_WRITES = (
    "append_action",
    "record_finished",
    "set_hand_message",
    "set_table_message",
    "start_game",
    "create_lobby",
    "update_lobby",
    "set_lobby_message",
    "set_presence",
    "set_turn_deadline",
)


class Stats:
    def __init__(self) -> None:
        # (time.monotonic() at wake-up, lateness in s, of which the loop's thread waited for a CPU)
        self.lag: list[tuple[float, float, float]] = []
        self.db: dict[str, list[tuple[float, float]]] = {}  # write -> (end time, duration)
        self.gc: list[tuple[float, int, float, float]] = []  # (end time, generation, wall s, CPU s)
        self._gc_start = (0.0, 0.0)
        self.heap: dict[str, Any] = {}
        self.budgets: list[Any] = []  # the bot's request budget (bot/budget.py), for its counters
        self.db_queries: list[float] = []  # time.monotonic() of each statement sent to PostgreSQL
        # Each REST request: (let through by the budget, its headers written to the socket, method, path,
        # priority, or PAID (a turn edit paid for beforehand) or EXEMPT), to tell where requests bunch.
        self.requests: list[tuple[float, float, str, str, str]] = []
        # Turn edits put off and handed their room: (time, "owed"/"handed", channel id, seat).
        self.turns: list[tuple[float, str, int, int]] = []

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = time.perf_counter() - self._gc_start[0], time.thread_time() - self._gc_start[1]
            self.gc.append((time.monotonic(), int(info["generation"]), wall, cpu))

    async def monitor_lag(self) -> None:
        """Wake every 50 ms; record how late, and how much of that the thread sat runnable but off-CPU.

        The second figure (the run-queue delay, from /proc/thread-self/schedstat) is the machine's
        share: other processes on the bot's core. What is left is the bot's own work holding the loop.
        """
        loop = asyncio.get_running_loop()
        with open("/proc/thread-self/schedstat") as schedstat:  # noqa: ASYNC230 -- procfs, never blocks
            while True:
                before = loop.time()
                schedstat.seek(0)
                waited_before = int(schedstat.read().split()[1])
                await asyncio.sleep(LAG_INTERVAL)
                late = loop.time() - before - LAG_INTERVAL
                schedstat.seek(0)
                waited = (int(schedstat.read().split()[1]) - waited_before) / 1e9
                self.lag.append((time.monotonic(), late, waited))

    def time_writes(self, cls: type) -> None:
        for name in TIMED_WRITES:
            method = getattr(cls, name, None)
            if method is None:
                continue
            setattr(cls, name, self._timed(name, method))

    def _timed(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        samples = self.db.setdefault(name, [])

        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                samples.append((time.monotonic(), time.perf_counter() - start))

        return timed

    def count_queries(self) -> None:
        """Record each statement asyncpg sends (one round trip each; BEGIN, COMMIT and the pool's reset
        included; a statement's first preparation on a connection is one more, not counted)."""
        from asyncpg.connection import Connection

        queries = self.db_queries
        execute, run, run_many = Connection.execute, Connection._execute, Connection._executemany

        async def counted_execute(connection: Connection, query: str, *args: Any, **kwargs: Any) -> Any:
            if not args:  # a simple query; with arguments it goes through `_execute`, counted there
                queries.append(time.monotonic())
            return await execute(connection, query, *args, **kwargs)

        async def counted_run(connection: Connection, *args: Any, **kwargs: Any) -> Any:
            queries.append(time.monotonic())
            return await run(connection, *args, **kwargs)

        async def counted_run_many(connection: Connection, *args: Any, **kwargs: Any) -> Any:
            queries.append(time.monotonic())
            return await run_many(connection, *args, **kwargs)

        Connection.execute = counted_execute
        Connection._execute = counted_run
        Connection._executemany = counted_run_many

    def census(self) -> None:
        """On SIGUSR1 (bench/load.py sends it while every game is live): the objects the collector tracks."""
        objects = gc.get_objects()
        by_type = Counter(type(o).__qualname__ for o in objects)
        self.heap = {"tracked": len(objects), "by_type": by_type.most_common(25)}
        del objects

    def dump(self, path: str) -> None:
        from bot.budget import Priority

        with open(path, "w") as file:
            budget = {
                "sent": {level.name: sum(b.sent[level] for b in self.budgets) for level in Priority},
                "turn_skipped": sum(b.skipped for b in self.budgets),
                "turn_handed": sum(b.handed for b in self.budgets),
                "turn_given_back": sum(b.given_back for b in self.budgets),
            }
            json.dump(
                {"lag": self.lag, "db": self.db, "gc": self.gc, "heap": self.heap, "budget": budget}
                | {"db_queries": self.db_queries, "requests": self.requests, "turn_log": self.turns},
                file,
            )


def watch_requests(stats: Stats) -> None:
    """Record when the budget lets each request through and when its headers go out (an aiohttp trace
    added to the bot's), and each turn edit put off and handed its room (by game channel and seat)."""
    import contextvars

    from bot.budget import RequestBudget, _current, exempt
    from bot.metrics import Metrics
    from cogs.wizard._feed import Feed

    granted: contextvars.ContextVar[float] = contextvars.ContextVar("granted", default=0.0)
    pace = RequestBudget.pace

    async def timed_pace(budget: RequestBudget, path: str) -> bool:
        counted = await pace(budget, path)
        granted.set(time.monotonic())  # the same task sends the request: its context carries this
        return counted

    async def headers_sent(session: Any, context: Any, params: Any) -> None:
        path = params.url.path
        level = _current.get()
        name = "EXEMPT" if exempt(path) else "PAID" if level is None else level.name
        stats.requests.append((granted.get(), time.monotonic(), params.method, path, name))

    trace = Metrics.http_trace

    def traced(metrics: Metrics) -> Any:
        config = trace(metrics)
        config.on_request_headers_sent.append(headers_sent)
        return config

    owing: list[tuple[int, int]] = []
    owe, when_room = Feed._owe, RequestBudget.when_room

    def logged_owe(feed: Any, seat: int) -> None:
        owing.append((feed.table.channel_id, seat))
        try:
            owe(feed, seat)
        finally:
            owing.pop()

    def logged_when_room(budget: RequestBudget, callback: Callable[[], None]) -> None:
        channel, seat = owing[-1] if owing else (0, -1)
        stats.turns.append((time.monotonic(), "owed", channel, seat))

        def handed() -> None:
            stats.turns.append((time.monotonic(), "handed", channel, seat))
            callback()

        when_room(budget, handed)

    RequestBudget.pace = timed_pace  # type: ignore[method-assign,assignment]
    Metrics.http_trace = traced  # type: ignore[method-assign,assignment]
    Feed._owe = logged_owe  # type: ignore[method-assign,assignment]
    RequestBudget.when_room = logged_when_room  # type: ignore[method-assign,assignment]


def guilds_intent() -> None:
    import discord

    discord.Intents.default = classmethod(lambda cls: cls(guilds=True))  # type: ignore[assignment,method-assign]


def db_one_hop() -> None:
    from bot.storage import SQLiteRepository as Repository

    async def append_action(
        self: Repository,
        game_id: str,
        index: int,
        seat: int,
        action: dict[str, Any],
        turn_deadline: float | None = None,
    ) -> None:
        db: Any = self.__dict__["_db"]  # the aiosqlite connection of the SQLite repository (at the time of writing)

        def write() -> None:
            conn = db._conn
            try:
                conn.execute(
                    "INSERT INTO actions (game_id, idx, seat, action) VALUES (?, ?, ?, ?)",
                    (game_id, index, seat, json.dumps(action)),
                )
                conn.execute("UPDATE games SET turn_deadline = ? WHERE id = ?", (turn_deadline, game_id))
                conn.commit()
            except BaseException:
                conn.rollback()
                raise

        await db._execute(write)

    Repository.append_action = append_action  # type: ignore[method-assign,assignment]


def gc_tune() -> None:
    gc.set_threshold(50_000, 20, 10)


def gc_moderate() -> None:
    gc.set_threshold(10_000, 50, 1000)


EXPERIMENTS: dict[str, Callable[[], None]] = {
    "gc-tune": gc_tune,
    "gc-moderate": gc_moderate,
    "guilds-intent": guilds_intent,
    "db-one-hop": db_one_hop,
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("ws")
    parser.add_argument("--stats", required=True)
    parser.add_argument("--cpu", type=int)
    parser.add_argument("--profile")
    parser.add_argument("--exp", action="append", default=[], choices=sorted(EXPERIMENTS))
    args = parser.parse_args()

    # Never outlive bench/load.py, however it ends.
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})  # threads started later (aiosqlite's) inherit it

    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = args.base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.ws)

    from bot import __main__ as entry
    from bot.budget import RequestBudget
    from bot.storage import SQLiteRepository
    from bot.storage.postgres import PostgresRepository

    for name in args.exp:
        EXPERIMENTS[name]()
    stats = Stats()
    if os.environ.get("DATABASE_URL"):
        stats.time_writes(PostgresRepository)
        stats.count_queries()
    else:
        stats.time_writes(SQLiteRepository)
    made = RequestBudget.__init__

    def counted(budget: RequestBudget, *args: Any, **kwargs: Any) -> None:
        made(budget, *args, **kwargs)
        stats.budgets.append(budget)

    RequestBudget.__init__ = counted  # type: ignore[method-assign,assignment]
    watch_requests(stats)
    gc.callbacks.append(stats.on_gc)
    run = entry._run

    async def measured_run(settings: Any, *, sync: bool) -> None:
        loop = asyncio.get_running_loop()
        monitor = loop.create_task(stats.monitor_lag())
        loop.add_signal_handler(signal.SIGUSR1, stats.census)
        try:
            await run(settings, sync=sync)
        finally:
            monitor.cancel()

    entry._run = measured_run
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    try:
        # The players run /wizard start, which Discord (and the stand-in's driver) offers only once synced.
        return entry.main(["--sync"])
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
        stats.dump(args.stats)


if __name__ == "__main__":
    sys.exit(main())
