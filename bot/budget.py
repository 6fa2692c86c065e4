"""This process's share of Discord's global request budget, spent by priority.

Discord lets a bot token make 50 requests a second across all its processes ("global rate limit";
interaction endpoints — answers, follow-ups and edits through an interaction's token — are not
bound to it). Each process paces its own REST calls to a configured share (`REST_SHARE`), so a
burst never earns a global 429. What waits for the budget goes in priority order:

1. interaction answers: exempt, never wait;
2. tables (every public message: tables, score pads, standings, lobbies);
3. DM hands (dealing a round's hands, closing the last round's);
4. *turn edits* (a DM hand brought up to date after a move with the bot's own token: the trick,
   the bids, whose move it is, and at its player's move the moves they may make): never wait and
   never take what the others may need. They leave the bucket (below) to tables and hands — a bucket of a few requests
   put off a third of them at 200 games at a human pace, while the process averaged half its share
   — and one goes while nothing waits (no request, no turn edit put off before it) and the last
   second holds fewer than the share: the window keeps the bucket's burst (`reserve`) free for the
   tables and hands that may come at once. Else it is put off (the table names the mover
   meanwhile), and `when_room` queues it: as soon as
   it may go, in the order they were put off, each is handed its request already paid for —
   handed, not merely told, so that the room cannot be taken by another request between the
   telling and the sending (which put off edits again and again, to the back of the queue, and
   lost two in three of them at 200 games). A turn edit no longer needed by then (the hand was
   drawn meanwhile through its player's interaction token) gives its request back (`give_back`).

A token bucket: a burst of a fifth of the share (at most what the share leaves of Discord's 50) goes
at once, a sustained rate above the share waits. Within any one second the bucket lets through at
most its capacity plus a second's refill (`limit`: 48 of Discord's 50 at the default share of 40).
But Discord counts the requests that *arrive* in any one second, and requests paced apart can
arrive bunched: the load benchmark saw requests the bucket let through 25 ms apart stamped by the
Discord stand-in up to half a second late while its event loop was busy, then counted with prompt
ones, 60 in one second. The network, or this process's own event loop between letting a request
through and writing it, can do the same. So the budget also holds a window: a request counts from
when it is let through until one second after its answer (or failure) comes back, and a request goes
only while fewer than `limit` count. A request arrives somewhere between those two moments, so no
second at Discord's end can hold more than `limit` of them, however they were delayed on the way;
the price is paid only when answers are late (at a steady share of 40 a second, answers later than
0.2 s hold it back). The priority of a request is set by the code that makes it (`priority`); the
bot's HTTP session asks the budget before each request it sends (`pace`) and tells it of each answer
(`answered`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import heapq
import itertools
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextvars import ContextVar

DISCORD_GLOBAL_RATE = 50.0  # requests a second per bot token, Discord's default
BURST_SHARE = 0.2  # the bucket's capacity, as a share of a second's requests
WINDOW = 1.0  # seconds: Discord counts the requests of any one second


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
    """A token bucket of `rate` requests a second and a window of `limit` requests a second as
    Discord receives them, handed out by priority."""

    def __init__(self, rate: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0:
            raise ValueError("the request rate must be positive")
        self.rate = rate
        # A burst never takes the second past Discord's 50: capacity + rate ≤ 50.
        self.capacity = max(1.0, min(rate * BURST_SHARE, DISCORD_GLOBAL_RATE - rate))
        # The most requests that may count at once (see `_window_room`), never more than Discord's 50.
        self.limit = max(1, min(int(DISCORD_GLOBAL_RATE), math.floor(self.capacity + rate)))
        # The part of the window turn edits leave alone: what the tables and hands of a burst take at once.
        self.reserve = self.capacity
        self._clock = clock
        self._tokens = self.capacity
        self._at = clock()
        self._flying = 0  # requests let through (or paid for) whose answer has not come back
        self._answered: deque[float] = deque()  # when each answer of the last second came back
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._wake: asyncio.TimerHandle | None = None
        # Turn edits put off, to be handed (in order) their room when the window has more than the reserve.
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

    def _window_room(self) -> int:
        """How many more requests may go now: each one counts until a second after its answer (it
        arrived at Discord before that answer), so that no second there holds more than `limit`."""
        edge = self._clock() - WINDOW
        while self._answered and self._answered[0] <= edge:
            self._answered.popleft()
        return self.limit - self._flying - len(self._answered)

    def _may_go(self, need: float) -> bool:
        """Whether `need` requests' worth is free in both the bucket and the window."""
        self._refill()
        return self._tokens >= need and self._window_room() >= need

    def _turn_may_go(self) -> bool:
        """Whether a turn edit may go: nothing waits, and the window has room beyond the reserve."""
        return not self._waiting and self._window_room() >= 1 + self.reserve

    def _delay(self, need: float, *, bucket: bool = True) -> float | None:
        """Seconds until `need` requests' worth is free (in the window, and in the bucket unless not
        `bucket`); None: not before an answer comes back."""
        self._refill()
        wait = max(0.0, (need - self._tokens) / self.rate) if bucket else 0.0
        short = math.ceil(need - self._window_room())
        if short <= 0:
            return wait
        if short > len(self._answered):
            return None  # the window is full of requests still on their way: `answered` wakes it
        return max(wait, self._answered[short - 1] + WINDOW - self._clock())

    def answered(self) -> None:
        """A request this budget let through (`pace` said it counts) has its answer, or failed."""
        self._flying = max(0, self._flying - 1)
        self._answered.append(self._clock())
        self._schedule()
        self._schedule_room()

    async def take(self, level: Priority) -> None:
        """Wait until a request of `level` may go (behind any waiting request of a higher priority)."""
        if not self._waiting and self._may_go(1):
            self._tokens -= 1
            self._flying += 1
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
            else:
                self._flying -= 1  # let through, but it will not be sent: its place is free again
            raise
        self.sent[level] += 1

    def try_take(self) -> bool:
        """A turn edit: True (and a request paid for) only if nothing waits — no request, no turn edit
        put off earlier — and the window has room beyond the reserve; else False, counted as put off."""
        if not self._room_waiting and self._turn_may_go():
            self._flying += 1
            self.sent[Priority.TURN] += 1
            return True
        self.skipped += 1
        return False

    def when_room(self, callback: Callable[[], None]) -> None:
        """Call `callback` once a turn edit may go (nothing waits and the window has room beyond the
        reserve), with its request already paid for: the callback sends it, or gives it back
        (`give_back`) if it is no longer wanted. In the order they came, one request each."""
        self._room_waiting.append(callback)
        self._schedule_room()

    def give_back(self) -> None:
        """A turn edit paid for (by `when_room`) that will not be sent: its request is free again."""
        self._flying -= 1
        self.sent[Priority.TURN] -= 1
        self.given_back += 1
        self._schedule_room()

    def _schedule_room(self) -> None:
        if self._room_timer is not None or not self._room_waiting:
            return
        delay = self._delay(1 + self.reserve, bucket=False)
        if delay is None:
            return
        # Waiting requests go first: the room comes a request's time after them at the earliest.
        delay = max(delay, 1 / self.rate if self._waiting else 0.0)
        self._room_timer = asyncio.get_running_loop().call_later(delay, self._room)

    def _room(self) -> None:
        self._room_timer = None
        while self._room_waiting and self._turn_may_go():
            # Paid before it is handed out: the callback's edit cannot lose the room to anyone.
            self._flying += 1
            self.sent[Priority.TURN] += 1
            self.handed += 1
            self._room_waiting.popleft()()
        self._schedule_room()

    def _schedule(self) -> None:
        if self._wake is None and self._waiting:
            delay = self._delay(1)
            if delay is not None:
                self._wake = asyncio.get_running_loop().call_later(delay, self._release)

    def _release(self) -> None:
        self._wake = None
        while self._waiting and self._may_go(1):
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                self._tokens -= 1
                self._flying += 1
                future.set_result(None)
        self._schedule()

    async def pace(self, path: str) -> bool:
        """Called before each HTTP request the bot sends: wait for the budget unless it is exempt or
        already paid for. True if the request counts: its end must be told (`answered`)."""
        if exempt(path):
            return False
        level = _current.get()
        if level is None:
            # Paid for once: if discord.py sends the same call again (after a 5xx or a 429), that
            # request pays like any other, last.
            _current.set(Priority.TURN)
            return True
        await self.take(level)
        return True
