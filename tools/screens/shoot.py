"""Screenshots of the drawn pages in headless Chromium (Debian's `chromium` package).

One browser serves every shot, driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
JSON messages ending in a NUL byte on file descriptors 3 and 4 of the browser), so the page's full
height is measured after its fonts and images are ready, and each shot is exactly that tall.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import theme

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--allow-file-access-from-files",  # the pages' fonts are files beside them
    "--remote-debugging-pipe",
)

_MEASURE = """
document.fonts.ready
  .then(() => Promise.all([...document.images].map(i => i.decode().catch(() => null))))
  .then(() => JSON.stringify({
    height: Math.ceil(document.documentElement.getBoundingClientRect().height),
    messages: [...document.querySelectorAll(".messages.focus-only > .msg")].map(e => ({
      id: e.dataset.messageId, top: Math.round(e.offsetTop), height: Math.round(e.getBoundingClientRect().height)})),
    screen: [...document.querySelectorAll(".messages.with-context > .msg")].filter(e => {
      const r = e.getBoundingClientRect(), chat = document.querySelector(".chat").getBoundingClientRect();
      return r.bottom > chat.top && r.top < chat.bottom; }).map(e => ({id: e.dataset.messageId,
      whole: e.getBoundingClientRect().top >= document.querySelector(".chat").getBoundingClientRect().top})),
  }))
"""


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class Shot:
    """One screenshot and what was measured on its page."""

    path: Path
    width: int
    height: int
    measured: dict[str, Any]


class Browser:
    """A headless Chromium taking screenshots of local pages."""

    def __init__(self, binary: str | None = None, *, timeout: float = 60.0) -> None:
        binary = binary or find_chromium()
        if binary is None:
            raise RuntimeError("no Chromium found: apt-get install -y chromium (see docs/screens.md)")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="wizard-screens-chromium-")
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def plumb() -> None:  # in the child: the browser reads fd 3 and writes fd 4
            high_read = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
            high_write = fcntl.fcntl(answers_write, fcntl.F_DUPFD, 10)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - the browser writes to it while it runs
        self.process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
            pass_fds=(3, 4),
            preexec_fn=plumb,  # the browser's pipe must be its fds 3 and 4
        )
        os.close(commands_read)
        os.close(answers_write)
        self._buffer = b""
        self._next = 0
        self._events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError, TimeoutError):
            self.call("Browser.close")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        for fd in (self._commands, self._answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._log.close()
        self._profile.cleanup()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- the protocol ----------------------------------------------------------------------------
    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            if "method" in answer:
                self._events.append(answer)

    def wait_event(self, method: str) -> dict[str, Any]:
        while True:
            for index, event in enumerate(self._events):
                if event["method"] == method:
                    del self._events[index]
                    return event
            self._events.append(self._read())

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._answers], [], [], max(left, 0))
            if not ready:
                raise TimeoutError(f"Chromium did not answer within {self.timeout} s{self._tail()}")
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                raise RuntimeError(f"Chromium closed its pipe{self._tail()}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def _tail(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip().splitlines()[-5:]
        return (": " + " | ".join(text)) if text else ""

    # -- shots -----------------------------------------------------------------------------------
    def shoot(self, page: Path, target: Path, *, width: int, theme_name: str, screen: bool, scale: float = 1) -> Shot:
        """A PNG of `page` at `width` CSS px in a theme: the whole page, or a phone's screen (`screen`)."""
        height = theme.PHONE_HEIGHT if screen else 800
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=scale,
            mobile=width < theme.PHONE_BREAK,
        )
        query = f"?theme={theme_name}" + ("&frame=screen" if screen else "")
        self.call("Page.navigate", session=True, url=page.resolve().as_uri() + query)
        self.wait_event("Page.loadEventFired")
        result = self.call("Runtime.evaluate", session=True, expression=_MEASURE, awaitPromise=True, returnByValue=True)
        measured: dict[str, Any] = json.loads(result["result"]["value"])
        if not screen:
            height = max(int(measured["height"]), 1)
        clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        shot = self.call("Page.captureScreenshot", session=True, format="png", clip=clip, captureBeyondViewport=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(shot["data"]))
        return Shot(target, width, height, measured)
