"""The error the stand-in answers with, shaped like Discord's (status, JSON ``code``, ``message``, ``errors``)."""

from __future__ import annotations

import json
from typing import Any


class DiscordError(Exception):
    """Raised inside handlers; turned into a Discord-style JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def __str__(self) -> str:
        # The errors tree names the refused field: show it when a test calls the validator directly.
        head = f"{self.status} {self.code} {self.message}"
        return f"{head} {json.dumps(self.errors, ensure_ascii=False)}" if self.errors else head
