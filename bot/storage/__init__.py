"""The bot's storage: the records, the `Repository` interface, and its two backends.

Nothing else in the bot writes SQL. `Repository.open(where)` (or `open_repository(settings)`)
opens SQLite for a file path and PostgreSQL for a ``postgresql://`` URL; both apply the same
numbered migrations (`bot/migrations/` and `bot/migrations/postgres/`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import (
    GLOBALLY,
    SEASON_LENGTHS,
    FinalSeat,
    GameRecord,
    GuildSettingsRecord,
    HeadToHead,
    History,
    PlayerStats,
    Repository,
    SeasonEntry,
    SeasonOver,
    SeasonRecord,
    SeasonSettingsRecord,
    SeatRecord,
    Sort,
    Standing,
    StorageConflict,
    StorageError,
    is_postgres_url,
    migrations,
)
from .sqlite import SQLiteRepository

if TYPE_CHECKING:
    from bot.settings import Settings

__all__ = [
    "GLOBALLY",
    "SEASON_LENGTHS",
    "FinalSeat",
    "GameRecord",
    "GuildSettingsRecord",
    "HeadToHead",
    "History",
    "PlayerStats",
    "Repository",
    "SQLiteRepository",
    "SeasonEntry",
    "SeasonOver",
    "SeasonRecord",
    "SeasonSettingsRecord",
    "SeatRecord",
    "Sort",
    "Standing",
    "StorageConflict",
    "StorageError",
    "is_postgres_url",
    "migrations",
    "open_repository",
]


async def open_repository(settings: Settings) -> Repository:
    """The repository the settings name: PostgreSQL at DATABASE_URL, else SQLite at DATABASE_PATH.

    It restores only the games of the servers on the process's shards.
    """
    repository = await Repository.open(settings.database_url or settings.database_path)
    if settings.shard_count is not None and settings.shard_ids is not None:
        repository.restore_filter = settings.owns_guild
    return repository
