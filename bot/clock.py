"""The game clock: what time it is, and timers that go off at a time.

Turn deadlines and season ends are moments (seconds since the epoch) that outlive the process:
they are stored, and a restart sets its timers from them. The game manager asks one `Clock` for
both, so that a test can move the time a game or a season lives in: a game with a one-day turn
timer, a month's season. The process's own liveness (the runners' leases, see
`bot.manager._runners`) is measured in real time, not on this clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """A timer set with `Clock.call_at`."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What time it is, and a timer for a moment."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Call `callback(*args)` on the event loop once `now()` has reached `when` (at once if it has)."""
        ...


class SystemClock:
    """The computer's clock, with the event loop's timers."""

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, when - time.time()), callback, *args)
