"""What an operator watches: Prometheus metrics and a health check, served on METRICS_PORT.

`Metrics` holds the counters of one bot, in a registry of its own (so two bots in one test
process do not add up). The bot feeds it from three places that need no change to the game
code: the manager's events (moves), discord.py's HTTP trace (every REST request, 429s and the
interaction answers), and the repository's write methods (database latency). `StatusServer`
serves ``/metrics`` in Prometheus' text format and ``/health``, which answers 200 only while the
gateway is connected and the database answers.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from .manager import ActionApplied, Event, GameManager
from .storage import Repository

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger(__name__)

# Discord expects an interaction answer within 3 s: buckets fine below 100 ms, where the bot
# normally answers, and around the limit.
ANSWER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
WRITE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

# The repository's writes (each one transaction), timed by operation.
REPOSITORY_WRITES = (
    "create_lobby",
    "update_lobby",
    "update_lobby_options",
    "set_lobby_message",
    "close_lobby",
    "start_game",
    "append_action",
    "set_turn_deadline",
    "set_presence",
    "set_table_message",
    "set_hand_message",
    "set_ping_message",
    "set_dm_closed",
    "set_pads_shown",
    "set_final_message",
    "stop_game",
    "record_finished",
    "save_review",
    "save_season_settings",
    "start_season",
    "end_season",
    "set_season_end",
    "set_announced",
    "set_turn_ping",
    "save_guild_settings",
)

# Interactions received but not answered yet; an interaction never answered must not stay
# forever, so the oldest are forgotten past this many.
PENDING_LIMIT = 10_000

_API_PREFIX = re.compile(r"^/api(/v\d+)?")
# A route's own words: "channels", "@me", "oauth2". Tokens are far longer.
_WORD = re.compile(r"^[a-z@_-]{1,20}\d?$")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback$")


def route_of(path: str) -> str:
    """A REST path as a route template: ids become {id}, anything else not a plain word {token}.

    Interaction and webhook tokens are path segments: they must never reach a label.
    """
    parts = []
    for segment in _API_PREFIX.sub("", path).split("/"):
        if not segment or _WORD.match(segment):
            parts.append(segment)
        elif segment.isdigit():
            parts.append("{id}")
        else:
            parts.append("{token}")
    return "/".join(parts)


class Metrics:
    """The bot's counters, gauges and histograms, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._manager: GameManager | None = None
        self._pending: OrderedDict[int, float] = OrderedDict()
        self.lobbies = Gauge("wizard_lobbies", "Lobbies open, waiting for players.", registry=self.registry)
        self.lobbies.set_function(lambda: len(self._manager.lobbies()) if self._manager else 0)
        self.games = Gauge("wizard_games", "Games running (including paused ones).", registry=self.registry)
        self.games.set_function(lambda: len(self._manager.tables()) if self._manager else 0)
        self._backlog: Callable[[], int] = lambda: 0
        self.backlog = Gauge(
            "wizard_reconciler_backlog", "Messages still to bring in line with their games (queued or to retry).",
            registry=self.registry,
        )  # fmt: skip
        self.backlog.set_function(lambda: self._backlog())
        self.moves = Counter(
            "wizard_moves", "Moves applied (bids, trump choices, cards), by who decided them.", ["by"],
            registry=self.registry,
        )  # fmt: skip
        self.restored = Counter(
            "wizard_games_restored", "Games restored from the database at start-up.", registry=self.registry
        )
        self.answer_seconds = Histogram(
            "wizard_interaction_answer_seconds",
            "From reading an interaction to Discord accepting its answer (Discord allows 3 s).",
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self.requests = Counter(
            "wizard_discord_requests", "REST requests to Discord, by method, route and status.",
            ["method", "route", "status"], registry=self.registry,
        )  # fmt: skip
        self.rate_limited = Counter(
            "wizard_discord_rate_limited", "REST requests Discord answered 429, by route and scope.",
            ["route", "scope"], registry=self.registry,
        )  # fmt: skip
        self.write_seconds = Histogram(
            "wizard_database_write_seconds", "Database writes (one transaction each), by operation.", ["operation"],
            buckets=WRITE_BUCKETS, registry=self.registry,
        )  # fmt: skip

    # -- the game manager -----------------------------------------------------------------

    def watch(self, manager: GameManager) -> None:
        """Count `manager`'s moves and report its lobbies and games."""
        self._manager = manager
        manager.subscribe(self._on_event)

    def _on_event(self, event: Event) -> None:
        if isinstance(event, ActionApplied) and event.by != "elsewhere":  # the other process counts those
            self.moves.labels(event.by).inc()

    def watch_reconciler_backlog(self, backlog: Callable[[], int]) -> None:
        """Report `backlog()` as ``wizard_reconciler_backlog``: the messages still to bring in line
        with the games (the presenter's queued and retried jobs). The latest call counts (each
        start-up attempt makes a new presenter)."""
        self._backlog = backlog

    # -- the database ---------------------------------------------------------------------

    def time_writes(self, repository: Repository) -> Repository:
        """Time `repository`'s writes (the same object, its write methods wrapped)."""
        for name in REPOSITORY_WRITES:
            setattr(repository, name, self._timed(name, getattr(repository, name)))
        return repository

    def _timed(self, name: str, write: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        histogram = self.write_seconds.labels(name)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await write(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - start)

        return timed

    # -- Discord --------------------------------------------------------------------------

    def interaction_received(self, interaction_id: int) -> None:
        """Note when an interaction arrived; its answer's request ends the measurement."""
        self._pending[interaction_id] = time.perf_counter()
        if len(self._pending) > PENDING_LIMIT:
            self._pending.popitem(last=False)

    def http_trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's session: every REST request, interaction answers included."""
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._on_request_end)
        return trace

    async def _on_request_end(
        self, session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        status = params.response.status
        if status == 101:  # the gateway's websocket, not a REST request
            return
        path = params.url.path
        route = route_of(path)
        self.requests.labels(params.method, route, str(status)).inc()
        if status == 429:
            self.rate_limited.labels(route, params.response.headers.get("X-RateLimit-Scope", "unknown")).inc()
        answered = _CALLBACK.search(path)
        if answered is not None and status < 400:
            start = self._pending.pop(int(answered.group(1)), None)
            if start is not None:
                self.answer_seconds.observe(time.perf_counter() - start)

    def scrape(self) -> bytes:
        """Everything, in Prometheus' text format."""
        return generate_latest(self.registry)


# A health check that takes longer than this counts as failed (a stuck database).
HEALTH_TIMEOUT = 5.0

HealthCheck = Callable[[], Awaitable[str | None]]


class StatusServer:
    """``GET /metrics`` (Prometheus text format) and ``GET /health`` (200 "ok", or 503 and why)."""

    def __init__(self, metrics: Metrics, health: HealthCheck) -> None:
        self._metrics = metrics
        self._health = health
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, host: str, port: int) -> None:
        """Listen on `host`:`port` (port 0: any free port, then in `self.port`)."""
        # aiohttp's server half is imported only here: most installations set no METRICS_PORT, and
        # importing it costs a restart ~30 ms before the first click can be taken.
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        app.router.add_get("/health", self._check)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("metrics on http://%s:%d/metrics, health on /health", host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _scrape(self, request: web.Request) -> web.Response:
        from aiohttp import web

        response = web.Response(body=self._metrics.scrape())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    async def _check(self, request: web.Request) -> web.Response:
        from aiohttp import web

        try:
            problem = await asyncio.wait_for(self._health(), HEALTH_TIMEOUT)
        except TimeoutError:
            problem = f"the health check took longer than {HEALTH_TIMEOUT:.0f} s"
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{problem}\n")
