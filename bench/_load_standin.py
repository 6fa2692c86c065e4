"""The Discord stand-in of the e2e tests, made to carry hundreds of games at once (for bench/load.py).

The test stand-in keeps everything for assertions: a copy of every message before each edit, every
REST body, every gateway event, and one condition that wakes every waiter on any change. With 200
games that costs the stand-in more CPU and memory than the bot under test, so this subclass

- keeps no edit history, no REST bodies and only the last gateway events;
- indexes messages by channel, so "the newest DM of a player" is not a scan of all messages;
- wakes per game: every change to a game's channel, its players' DM channels or its interactions
  notifies that game's condition only (`wait_game`), instead of every waiter of the whole stand-in.

The REST log becomes counters by kind of call (`RestCounter`), with the time of each call.
"""
# ruff: noqa: ASYNC109  -- waits take an explicit time budget (condition waits, never sleeps)

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from tests.e2e.standin import DiscordStandin, RestCall, StoredMessage
from tests.e2e.standin.server import API_PREFIX, Upload

T = TypeVar("T")
YOUR_MOVE = "▶ Your move"  # the top of a DM hand at its player's move

#: REST call kinds, in the order they are printed.
KINDS = (
    "interaction callback",
    "webhook (followup/original)",
    "channel message send",
    "channel message edit",
    "DM send",
    "DM edit",
    "DM channel creation",
    "user fetch",
    "other",
)


class RestCounter(list[RestCall]):
    """Stands in for `rest_log`: classifies each call as it is logged, keeps (time, kind) only."""

    def __init__(self, standin: LoadStandin) -> None:
        super().__init__()
        self.standin = standin
        self.calls: list[tuple[float, str, int]] = []  # (time, kind, game slot or -1)
        self.other_routes: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()

    def append(self, call: RestCall) -> None:
        kind = self.kind(call)
        self.calls.append((call.at, kind, self.slot(call)))
        if kind == "other":
            self.other_routes[f"{call.method} {call.route}"] += 1
        if call.status >= 400:
            self.errors[f"{call.status} {call.method} {call.route}"] += 1

    def kind(self, call: RestCall) -> str:
        route, method = call.route, call.method
        if "/interactions/" in route:
            return "interaction callback"
        if "/webhooks/" in route:
            return "webhook (followup/original)"
        if route.endswith("/users/@me/channels"):
            return "DM channel creation"
        if "/users/{user_id}" in route and method == "GET":
            return "user fetch"
        if (route.endswith("/messages") and method == "POST") or route.endswith("/messages/{message_id}"):
            parts = call.path.split("/")
            channel = self.standin.channels.get(int(parts[parts.index("channels") + 1]))
            where = "DM" if channel is not None and channel.is_dm else "channel message"
            if method == "POST":
                return f"{where} send"
            if method == "PATCH":
                return f"{where} edit"
        return "other"

    def slot(self, call: RestCall) -> int:
        """The game a call belongs to: by its channel, or by the interaction its token answers."""
        parts = call.path.split("/")
        channel_id = None
        if "channels" in parts and parts.index("channels") + 1 < len(parts):
            channel_id = parts[parts.index("channels") + 1]
        for marker, offset in (("interactions", 2), ("webhooks", 2)):
            if marker in parts and parts.index(marker) + offset < len(parts):
                record = self.standin.interactions_by_token.get(parts[parts.index(marker) + offset])
                channel_id = str(record.channel_id) if record is not None else None
        if channel_id is None or not channel_id.isdigit():
            return -1
        return self.standin.slot_of_channel.get(int(channel_id), -1)

    def between(self, start: float, end: float) -> Counter[str]:
        return Counter(kind for at, kind, _ in self.calls if start <= at <= end)


class LoadStandin(DiscordStandin):
    """`DiscordStandin` with per-game wake-ups, a message index and counters instead of logs."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.keep_history = False  # hundreds of games' edit histories would dominate the memory
        self.route_time_scale = 1.0  # Discord's own per-route windows: the bench measures real pacing
        self.rest_counter = RestCounter(self)
        self.rest_log = self.rest_counter
        self.gateway_events: deque[tuple[str, dict[str, Any]]] = deque(maxlen=16)  # type: ignore[assignment]
        self.by_channel: dict[int, list[StoredMessage]] = {}
        #: channel id (the game's text channel or a player's DM channel) -> game slot
        self.slot_of_channel: dict[int, int] = {}
        self.game_events: dict[int, asyncio.Event] = {}
        # Requests within Discord's global limit, as the stand-in stamps their arrival: (time, refused).
        self.arrivals: list[tuple[float, bool]] = []
        # Each DM message's edits: message id -> [(time, whether it says "your move")].
        self.dm_forms: dict[int, list[tuple[float, bool]]] = {}

    # -- per-game waiting ------------------------------------------------------------------

    def notify_channel(self, channel_id: int) -> None:
        slot = self.slot_of_channel.get(channel_id)
        if slot is not None:
            event = self.game_events.get(slot)
            if event is not None:
                event.set()

    async def wait_game(self, slot: int, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until `predicate()` is truthy, re-checking whenever something of game `slot` changes."""
        event = self.game_events.setdefault(slot, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.raise_if_failed()
            event.clear()
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"game {slot}: timed out after {timeout:.0f}s waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    def fail(self, exc: BaseException) -> None:
        super().fail(exc)
        for event in self.game_events.values():
            event.set()

    # -- cheaper bookkeeping -----------------------------------------------------------------

    def create_message(self, channel: Any, body: dict[str, Any], *args: Any, **kwargs: Any) -> StoredMessage:
        msg = super().create_message(channel, body, *args, **kwargs)
        self.by_channel.setdefault(msg.channel_id, []).append(msg)
        self.notify_channel(msg.channel_id)
        return msg

    def channel_messages(self, channel: Any, *, include_deleted: bool = False) -> list[StoredMessage]:
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m for m in self.by_channel.get(cid, []) if m.ephemeral_to is None and (include_deleted or not m.deleted)
        ]

    def _over_global_limit(self, route: str) -> bool:
        refused = super()._over_global_limit(route)
        if not route.startswith((f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")):
            self.arrivals.append((time.monotonic(), refused))
        return refused

    def edit_message(self, msg: StoredMessage, body: dict[str, Any], files: dict[int, Upload] | None = None) -> None:
        super().edit_message(msg, body, files)
        channel = self.channels.get(msg.channel_id)
        if channel is not None and channel.is_dm:
            self.dm_forms.setdefault(msg.id, []).append((time.monotonic(), YOUR_MOVE in msg.text()))
        self.notify_channel(msg.channel_id)  # wake only that game's players

    async def _callback(self, request: web.Request) -> web.Response:
        try:
            return await super()._callback(request)
        finally:
            record = self.interactions_by_token.get(request.match_info["token"])
            if record is not None:
                self.notify_channel(record.channel_id)


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU time of a whole process (all its threads), from /proc."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15 of stat)


def memory_kib(pid: int | str = "self") -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS) of a process, in KiB, from /proc."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def run_delay(pid: int | str = "self") -> float:
    """Seconds the main thread of a process has sat runnable, waiting for a CPU (/proc/PID/schedstat)."""
    with open(f"/proc/{pid}/schedstat") as file:
        return int(file.read().split()[1]) / 1e9
