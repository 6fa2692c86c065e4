"""The bot's settings, read once from the environment and `.env` into one frozen object.

The `.env` file read is the one in the folder the bot is started from (the default DATABASE_PATH
is relative to that folder too), never one found elsewhere: a process started in another folder,
such as a test's, does not read the clone's `.env`. A variable the environment sets wins over the
file's; an empty one counts as unset.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from dotenv import dotenv_values

ENV_FILE = ".env"
DEFAULT_DATABASE_PATH = "data/wizard.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
LOG_FORMATS = ("text", "json")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to (its gateway sharding formula)."""
    return (guild_id >> 22) % shard_count


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. The token is kept out of repr and logs."""

    token: str = field(repr=False)
    database_path: Path = Path(DEFAULT_DATABASE_PATH)
    log_level: int = logging.INFO
    dev_guild_id: int | None = None
    # PostgreSQL instead of the SQLite file at database_path; it may hold a password.
    database_url: str | None = field(default=None, repr=False)
    shard_count: int | None = None  # None: no sharding (one plain connection to Discord)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: all of them
    log_format: str = "text"  # or "json": one JSON object per line
    metrics_port: int | None = None  # None: no /metrics and /health
    metrics_host: str = "127.0.0.1"
    # This process's share of Discord's global request budget, in requests a second (see bot/budget.py):
    # with its bursts, 40 keeps any second at Discord's end to 48 of its 50; processes sharing a token
    # split 40 between them.
    rest_share: float = 40.0
    # The .env file the token came from; None: the environment. Named when Discord rejects the token.
    token_file: Path | None = field(default=None, compare=False)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the shard of that server (and so restores its games)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @classmethod
    def load(cls, folder: Path, environ: Mapping[str, str] = os.environ) -> Settings:
        """The settings of a bot started in `folder`: the environment's, over those of `folder`'s `.env`."""
        env_file = folder.absolute() / ENV_FILE
        # An empty variable means unset, in the environment as in the file.
        merged = read_env_file(env_file) | {key: value for key, value in environ.items() if value.strip()}
        settings = cls.from_env(merged, env_file=env_file)
        if not environ.get("DISCORD_TOKEN", "").strip():
            settings = replace(settings, token_file=env_file)
        return settings

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, *, env_file: Path | None = None) -> Settings:
        """The settings `environ` holds. `env_file` is the .env that was looked for, for the messages."""
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(_no_token(env_file))
        level_name = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        level = logging.getLevelNamesMapping().get(level_name)
        if level is None:
            raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level_name!r}.")
        guild = environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (a number), not {guild!r}.")
        url = environ.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(POSTGRES_SCHEMES):
            raise SettingsError("DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/database).")
        if url is not None and not _has_asyncpg():
            raise SettingsError(
                "DATABASE_URL is set but the PostgreSQL driver is not installed: "
                "pip install -r requirements.txt, or pip install -e '.[postgres]'."
            )
        log_format = environ.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        port_text = environ.get("METRICS_PORT", "").strip()
        if port_text and (not port_text.isdigit() or not 0 < int(port_text) < 65536):
            raise SettingsError(f"METRICS_PORT must be a port number (1 to 65535), not {port_text!r}.")
        count_text = environ.get("SHARD_COUNT", "").strip()
        if count_text and (not count_text.isdigit() or int(count_text) < 1):
            raise SettingsError(f"SHARD_COUNT must be a whole number of at least 1, not {count_text!r}.")
        shard_count = int(count_text) if count_text else None
        shard_ids = _shard_ids(environ.get("SHARD_IDS", "").strip(), shard_count)
        if shard_count is not None and shard_ids is not None and len(shard_ids) < shard_count and url is None:
            raise SettingsError(
                "SHARD_IDS leaves shards to other processes, which must share one database: set DATABASE_URL "
                "to a PostgreSQL database (an SQLite file is for one process)."
            )
        share_text = environ.get("REST_SHARE", "").strip()
        try:
            rest_share = float(share_text) if share_text else 40.0
        except ValueError:
            rest_share = 0.0
        if not 0 < rest_share < 50:  # one request of burst on top must stay within Discord's 50
            raise SettingsError(
                f"REST_SHARE must be this process's requests a second, above 0 and below 50, not {share_text!r}."
            )
        return cls(
            token=token,
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            database_url=url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            log_format=log_format,
            metrics_port=int(port_text) if port_text else None,
            metrics_host=environ.get("METRICS_HOST", "").strip() or "127.0.0.1",
            rest_share=rest_share,
        )


def read_env_file(path: Path) -> dict[str, str]:
    """The variables a .env file sets; none if there is no such file."""
    if not path.is_file():
        return {}
    try:
        return {key: value for key, value in dotenv_values(path).items() if value is not None}
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"cannot read {path}: {error}") from error


def _no_token(env_file: Path | None) -> str:
    """What to do when no token is set, about the file the bot looked in."""
    where = "Discord Developer Portal → your application → Bot → Reset Token"
    if env_file is None:
        return f"DISCORD_TOKEN is not set: set it to your bot's token ({where})."
    if env_file.is_file():
        return f"DISCORD_TOKEN is not set in {env_file}: put your bot's token after DISCORD_TOKEN= there ({where})."
    return (
        f"DISCORD_TOKEN is not set, and there is no {env_file} (the bot reads the .env of the folder it is "
        f"started from): copy .env.example to .env there and put your bot's token in it ({where}), "
        "or set DISCORD_TOKEN in the environment."
    )


def _has_asyncpg() -> bool:
    """Whether the optional PostgreSQL driver (the `postgres` extra) is installed."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return False
    return True


def _shard_ids(text: str, shard_count: int | None) -> tuple[int, ...] | None:
    if not text:
        return None
    if shard_count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards of all processes together.")
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise SettingsError(f"SHARD_IDS must be shard numbers separated by commas (such as 0,1), not {text!r}.")
    ids = tuple(int(part) for part in parts)
    if len(set(ids)) != len(ids) or any(shard >= shard_count for shard in ids):
        raise SettingsError(
            f"SHARD_IDS must be different numbers from 0 to {shard_count - 1} (SHARD_COUNT is {shard_count}), "
            f"not {text!r}."
        )
    return tuple(sorted(ids))
