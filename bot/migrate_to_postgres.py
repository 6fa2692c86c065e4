"""`python -m bot.migrate_to_postgres SQLITE_PATH DATABASE_URL`: copy the bot's SQLite database into PostgreSQL.

Everything is copied: lobbies and running games (with seats and actions), finished games and their
rounds and reviews, statistics and ratings, the servers' settings, their seasons, and what the slash
commands were last published as (so that the first start on PostgreSQL does not publish them
again). The SQLite file is first brought up to the current schema, and the PostgreSQL database is
migrated; the copy is one transaction, and it is refused if PostgreSQL already holds games,
statistics or settings. Stop the bot before copying.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import asyncpg

from .storage import StorageError
from .storage.postgres import PostgresRepository, redact
from .storage.sqlite import SQLiteRepository

# Parents before children, for the foreign keys.
TABLES = (
    "games",
    "seats",
    "actions",
    "results",
    "round_results",
    "reviews",
    "player_stats",
    "player_hand_sizes",
    "guild_settings",
    "season_settings",
    "seasons",
    "season_standings",
    "season_stats",
    "rivals",
    "published_commands",
    "turn_pings",
)


async def copy(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy every table; returns how many rows each had. StorageError if it cannot be done."""
    # Opening checks and migrates both: the same schema version on each side.
    await (await SQLiteRepository.open(sqlite_path)).close()
    await (await PostgresRepository.open(url)).close()
    with closing(sqlite3.connect(sqlite_path)) as source:
        rows = {table: source.execute(f"SELECT * FROM {table}").fetchall() for table in TABLES}
        columns = {
            table: [row[1] for row in source.execute(f"PRAGMA table_info({table})").fetchall()] for table in TABLES
        }
    target = await asyncpg.connect(url)
    try:
        async with target.transaction():
            for table in ("games", "player_stats", "guild_settings", "season_settings", "seasons"):
                if await target.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise StorageError(
                        f"the PostgreSQL database {redact(url)} already holds {table}; copy into an empty one"
                    )
            for table in TABLES:
                types = dict(
                    await target.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns"
                        " WHERE table_schema = current_schema() AND table_name = $1",
                        table,
                    )
                )
                flags = [types[column] == "boolean" for column in columns[table]]
                records = [
                    tuple(
                        bool(value) if flag and value is not None else value
                        for value, flag in zip(row, flags, strict=True)
                    )
                    for row in rows[table]
                ]
                await target.copy_records_to_table(table, records=records, columns=columns[table])
    finally:
        await target.close()
    return {table: len(found) for table, found in rows.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.migrate_to_postgres",
        description="Copy the bot's SQLite database into an empty PostgreSQL database (stop the bot first).",
    )
    parser.add_argument("sqlite_path", type=Path, help="the SQLite file, such as data/wizard.db")
    parser.add_argument("database_url", help="postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    if not args.sqlite_path.is_file():
        print(f"migrate_to_postgres: there is no SQLite database at {args.sqlite_path}", file=sys.stderr)
        return 2
    try:
        counts = asyncio.run(copy(args.sqlite_path, args.database_url))
    except StorageError as error:
        print(f"migrate_to_postgres: {error}", file=sys.stderr)
        return 2
    for table, count in counts.items():
        print(f"{table}: {count} rows")
    print(f"copied {args.sqlite_path} into {redact(args.database_url)}; set DATABASE_URL to use it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
