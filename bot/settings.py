"""The bot's settings, read once from the environment (and `.env`) into one frozen object."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE_PATH = "data/wizard.db"


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. The token is kept out of repr and logs."""

    token: str = field(repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    log_level: int = logging.INFO
    dev_guild_id: int | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token in it "
                "(Discord Developer Portal → your application → Bot → Reset Token)."
            )
        level_name = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        level = logging.getLevelNamesMapping().get(level_name)
        if level is None:
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level_name!r}.")
        guild = environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (a number), not {guild!r}.")
        return cls(
            token=token,
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
        )
