"""A game clock a test moves forward: real time plus an offset, with timers that go off once the
moved time reaches them (the bot's `bot.clock.Clock`).

In the test's own process the test calls `advance`. A bot run as a separate process (see
tests/e2e/_process.py) reads its offset from a file the test rewrites (`write_offset`): the
clock looks at the file whenever it is asked the time, and a few times a second for its timers.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DAY = 24 * 60 * 60.0
FILE_POLL_SECONDS = 0.05


def write_offset(path: Path, offset: float) -> None:
    """Set the offset of the clocks reading `path` (written whole, then renamed: never read half-written)."""
    draft = path.with_suffix(".tmp")
    draft.write_text(repr(float(offset)), encoding="ascii")
    draft.replace(path)


class MovableClock:
    """Real time plus `offset` seconds; `advance` moves it forward, and the timers now due go off."""

    def __init__(self, offset: float = 0.0, *, file: Path | None = None) -> None:
        self.offset = offset
        self._file = file
        self._seen: int | None = None  # the file's modification time when last read
        self._timers: set[_Timer] = set()
        self._watch: asyncio.Task[None] | None = None

    def now(self) -> float:
        self._read()
        return time.time() + self.offset

    def utcnow(self) -> datetime.datetime:
        """`discord.utils.utcnow` on this clock: interaction tokens age with it."""
        return datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=self.now() - time.time())

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> _Timer:
        timer = _Timer(self, when, callback, args)
        self._timers.add(timer)
        timer.arm()
        if self._file is not None and self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self._poll())
        return timer

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` forward; every timer now due goes off."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.offset += seconds
        self._rearm()

    def _rearm(self) -> None:
        for timer in list(self._timers):
            timer.arm()

    def _read(self) -> None:
        if self._file is None:
            return
        try:
            stamp = self._file.stat().st_mtime_ns
        except FileNotFoundError:
            return
        if stamp != self._seen:
            self._seen = stamp
            offset = float(self._file.read_text(encoding="ascii"))
            if offset != self.offset:
                self.offset = offset
                self._rearm()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(FILE_POLL_SECONDS)
            self._read()


class _Timer:
    def __init__(self, clock: MovableClock, when: float, callback: Callable[..., object], args: tuple[Any, ...]):
        self.clock = clock
        self.when = when
        self.callback = callback
        self.args = args
        self._handle: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        delay = max(0.0, self.when - (time.time() + self.clock.offset))
        self._handle = asyncio.get_running_loop().call_later(delay, self._due)

    def _due(self) -> None:
        self._handle = None
        if self.when > time.time() + self.clock.offset:
            self.arm()  # the loop's timer went off a hair early
            return
        self.clock._timers.discard(self)
        self.callback(*self.args)

    def cancel(self) -> None:
        self.clock._timers.discard(self)
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
