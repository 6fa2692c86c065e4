"""Logging set-up: colours only on a terminal, plain text in files and container logs, or JSON lines."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

import discord

# discord.py's own layout, without its colours.
TEXT_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: time, level, logger, message (and the traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # json.dumps escapes newlines inside strings: a traceback stays on its line.
        return json.dumps(entry, ensure_ascii=False)


def setup_logging(level: int, log_format: str) -> None:
    """Log to stderr at `level`: JSON lines, or text coloured only when stderr is a terminal."""
    # The bot never joins a voice channel: the warnings that voice support is missing (PyNaCl,
    # davey) on every start are noise. discord.py warns once per process, on these flags.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    formatter: logging.Formatter
    if log_format == "json":
        formatter = JsonFormatter()
    elif sys.stderr.isatty():
        formatter = discord.utils.MISSING  # discord.py's choice: coloured
    else:
        # discord.py would also colour a pipe inside a Docker container; colour codes in a log
        # file or a container log are only noise.
        formatter = logging.Formatter(TEXT_FORMAT, DATE_FORMAT, style="{")
    discord.utils.setup_logging(level=level, formatter=formatter)
