"""This process's share of Discord's global request budget, spent by priority.

Discord lets a bot token make 50 requests a second across all its processes ("global rate limit";
interaction endpoints — answers, follow-ups and edits through an interaction's token — are not
bound to it). Each process paces its own REST calls to a configured share (`REST_SHARE`), so a
burst never earns a global 429. What waits for the budget goes in priority order:

1. interaction answers: exempt, never wait;
2. tables (every public message: tables, score pads, standings, lobbies);
3. DM hands (dealing, a steady hand brought up to date, a turn form taken back);
4. *turn edits* (a DM hand put in its "your move" form): never wait and never take what the
   others may need — one goes only while the bucket holds more than `reserve` and nothing waits
   (no request, no turn edit put off before it), else it is put off (the hand keeps its steady
   form, which is still correct, and the table names the mover). `when_room` queues it: as soon
   as the bucket has room, in the order they were put off, each is handed its request already
   paid for — handed, not merely told, so that the room cannot be taken by another request
   between the telling and the sending (which put off edits again and again, to the back of the
   queue, and lost two in three of them at 200 games). A turn edit whose turn has passed by then
   gives its request back (`give_back`).

A token bucket: a burst of a tenth of the share (at most what the share leaves of Discord's 50) goes
at once, a sustained rate above the share waits. Within any one second the bucket lets through at
most its capacity plus a second's refill — 44 of Discord's 50 at the default share of 40, never more
than 50 — since Discord counts a sliding second; the rest is margin for requests that leave
together but arrive bunched (the load benchmark saw a few global 429s with a burst of a fifth). The
priority of a request is set by the code that makes it (`priority`); the bot's HTTP session asks
the budget before each request it sends (`pace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar

DISCORD_GLOBAL_RATE = 50.0  # requests a second per bot token, Discord's default
BURST_SHARE = 0.1  # the bucket's capacity, as a share of a second's requests
# The part of the bucket turn edits leave alone: what the tables and hands of a burst need at once.
RESERVE_SHARE = 0.25


class Priority(enum.IntEnum):
    TABLE = 0
    HAND = 1
    TURN = 2


_current: ContextVar[Priority | None] = ContextVar("request_priority", default=Priority.TABLE)


@contextlib.contextmanager
def priority(level: Priority | None) -> Iterator[None]:
    """The requests made inside (in this task) are of `level`; None: already paid for (`try_take`)."""
    token = _current.set(level)
    try:
        yield
    finally:
        _current.reset(token)


def exempt(path: str) -> bool:
    """Whether a request path is outside the global budget: not the REST API (the gateway's
    websocket), or an interaction endpoint (a callback, or a webhook call with an interaction token)."""
    return "/api/v" not in path or "/interactions/" in path or "/webhooks/" in path


class RequestBudget:
    """A token bucket of `rate` requests a second, handed out by priority."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("the request rate must be positive")
        self.rate = rate
        # A burst never takes the second past Discord's 50: capacity + rate ≤ 50.
        self.capacity = max(1.0, min(rate * BURST_SHARE, DISCORD_GLOBAL_RATE - rate))
        self.reserve = self.capacity * RESERVE_SHARE
        self._clock = clock
        self._tokens = self.capacity
        self._at = clock()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        # Turn edits put off, to be told (in order) when the bucket holds more than the reserve again.
        self._room_waiting: deque[Callable[[], None]] = deque()
        self._room_timer: asyncio.TimerHandle | None = None
        # Requests let through, by priority; turn edits put off for want of budget (each once), those
        # handed their room since, and of those the ones whose turn had passed by then (given back).
        self.sent: Counter[Priority] = Counter()
        self.skipped = 0
        self.handed = 0
        self.given_back = 0

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._at) * self.rate)
        self._at = now

    async def take(self, level: Priority) -> None:
        """Wait until a request of `level` may go (behind any waiting request of a higher priority)."""
        self._refill()
        if not self._waiting and self._tokens >= 1:
            self._tokens -= 1
            self.sent[level] += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(level), next(self._order), future))
        self._schedule()
        try:
            await future
        except asyncio.CancelledError:
            if not future.done() or future.cancelled():
                self._waiting = [entry for entry in self._waiting if entry[2] is not future]
                heapq.heapify(self._waiting)
            raise
        self.sent[level] += 1

    def try_take(self) -> bool:
        """A turn edit: True (and a request paid for) only if nothing waits — no request, no turn edit
        put off earlier — and the bucket holds more than the reserve; else False, counted as put off."""
        self._refill()
        if not self._waiting and not self._room_waiting and self._tokens >= 1 + self.reserve:
            self._tokens -= 1
            self.sent[Priority.TURN] += 1
            return True
        self.skipped += 1
        return False

    def when_room(self, callback: Callable[[], None]) -> None:
        """Call `callback` once a turn edit may go (nothing waits and the bucket holds more than the
        reserve), with its request already paid for: the callback sends it, or gives it back
        (`give_back`) if it is no longer wanted. In the order they came, one request each."""
        self._room_waiting.append(callback)
        self._schedule_room()

    def give_back(self) -> None:
        """A turn edit paid for (by `when_room`) that will not be sent: its request is free again."""
        self._tokens = min(self.capacity, self._tokens + 1)
        self.sent[Priority.TURN] -= 1
        self.given_back += 1
        self._schedule_room()

    def _schedule_room(self) -> None:
        if self._room_timer is not None or not self._room_waiting:
            return
        self._refill()
        # Waiting requests go first: the room comes a request's time after them at the earliest.
        short = max(1 + self.reserve - self._tokens, 1.0 if self._waiting else 0.0)
        self._room_timer = asyncio.get_running_loop().call_later(short / self.rate, self._room)

    def _room(self) -> None:
        self._room_timer = None
        self._refill()
        while self._room_waiting and not self._waiting and self._tokens >= 1 + self.reserve:
            # Paid before it is handed out: the callback's edit cannot lose the room to anyone.
            self._tokens -= 1
            self.sent[Priority.TURN] += 1
            self.handed += 1
            self._room_waiting.popleft()()
        self._schedule_room()

    def _schedule(self) -> None:
        if self._wake is None and self._waiting:
            delay = max(0.0, (1 - self._tokens) / self.rate)
            self._wake = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self._wake = None
        self._refill()
        while self._waiting and self._tokens >= 1:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                self._tokens -= 1
                future.set_result(None)
        self._schedule()

    async def pace(self, path: str) -> None:
        """Called before each HTTP request the bot sends: wait for the budget unless it is exempt or
        already paid for."""
        level = _current.get()
        if level is None or exempt(path):
            return
        await self.take(level)
