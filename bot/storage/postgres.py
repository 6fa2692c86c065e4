"""The PostgreSQL backend: the same repository on a server that several bot processes share.

An asyncpg connection pool; every write is one transaction, as in the SQLite backend, and the
queries are the ones `bot.storage._sql` shares with it, with PostgreSQL's placeholders. The
numbered migration files in `bot/migrations/postgres/` (the same numbers as SQLite's) are applied
in order, each in one transaction, and the schema version is kept in the ``schema_version`` table
(``PRAGMA user_version`` is SQLite's). An advisory lock lets two processes start at once: the
second waits for the first's migrations and then finds nothing left to do.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import replace
from typing import Any

import asyncpg

from ._sql import ADOPT_ORPHANS, ASK_BACK, CLAIM_GAMES, HAND_OVER, SQLITE, Session, SQLRepository, numbered
from .base import HISTORY_FILLED, RATINGS_REPLAYED, StorageError, migrations

log = logging.getLogger(__name__)

POOL_SIZE = 5
# The channel on which each recorded action is announced to every process: "<game id>:<count>".
GAMES_CHANNEL = "wizard_games"
MIGRATION_LOCK = 0x57_49_5A_41  # "WIZA": the advisory lock held while migrating
COMMANDS_LOCK = 0x57_49_5A_43  # "WIZC": held while a process compares and publishes the slash commands


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}" if ":" in credentials else url


POSTGRES_IDS = "id = ANY(?::text[])"


class PostgresRepository(SQLRepository):
    """The PostgreSQL backend. Create with `await PostgresRepository.open(url)`."""

    # SKIP LOCKED: a game another process is adopting at this moment is left to it.
    SQL = numbered(
        replace(
            SQLITE,
            adopt_orphans=ADOPT_ORPHANS.format(lock=" FOR UPDATE SKIP LOCKED"),
            claim_games=CLAIM_GAMES.format(ids=POSTGRES_IDS),
            ask_back=ASK_BACK.format(ids=POSTGRES_IDS),
            hand_over=HAND_OVER.format(ids=POSTGRES_IDS),
        )
    )

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        # The connection held for LISTEN and its callback, see `watch_games`.
        self._listener: tuple[Any, Callable[..., None]] | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresRepository:  # type: ignore[override]
        """Connect and migrate; StorageError if the server cannot be reached or the schema is newer."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"cannot connect to the PostgreSQL database {redact(url)}: {error}") from error
        repository = cls(pool)
        try:
            await repository._migrate(redact(url))
        except BaseException:
            await pool.close()
            raise
        return repository

    async def _migrate(self, where: str) -> None:
        known = migrations("postgres")
        async with self._pool.acquire() as db:
            for number, name, sql in known:
                async with db.transaction():
                    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    version = await db.fetchval("SELECT max(version) FROM schema_version") or 0
                    if version > len(known):
                        raise StorageError(
                            f"the database {where} is from a newer version of the bot (schema {version}, this one "
                            f"knows {len(known)}); update the bot"
                        )
                    if version >= number:
                        continue
                    log.info("applying migration %s", name)
                    try:
                        await db.execute(sql)
                        if number == RATINGS_REPLAYED:
                            await self._replay_ratings(db)
                        if number == HISTORY_FILLED:
                            await self._fill_history(db)
                    except asyncpg.DuplicateTableError as error:
                        if version == 0:
                            # The transaction, schema_version's creation with it, is rolled back whole:
                            # the other program's tables are left as they were.
                            raise StorageError(
                                f"the PostgreSQL database {where} holds another program's tables ({error}); "
                                "give the bot a database of its own"
                            ) from error
                        raise StorageError(f"migration {name} failed: {error}") from error
                    except asyncpg.PostgresError as error:
                        raise StorageError(f"migration {name} failed: {error}") from error
                    await db.execute("DELETE FROM schema_version")
                    await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def close(self) -> None:
        if self._listener is not None:
            (listener, notified), self._listener = self._listener, None
            await listener.remove_listener(GAMES_CHANNEL, notified)
            await self._pool.release(listener)
        await self._pool.close()

    async def watch_games(self, heard: Callable[[str, int], None]) -> None:
        # Every action is recorded with a NOTIFY in the same transaction (`_recorded`), which
        # PostgreSQL delivers to each listening connection when, and only if, the write commits.
        def notified(connection: object, pid: int, channel: str, payload: str) -> None:
            game_id, count = payload.rsplit(":", 1)
            heard(game_id, int(count))

        listener = await self._pool.acquire()
        await listener.add_listener(GAMES_CHANNEL, notified)
        self._listener = (listener, notified)

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))

    @asynccontextmanager
    async def publishing_commands(self) -> AsyncIterator[None]:
        # A session lock on a connection of its own: the others wait for it, then find the commands
        # published. A process that dies while holding it loses its session, and the lock with it.
        async with self._pool.acquire() as db:
            await db.execute("SELECT pg_advisory_lock($1)", COMMANDS_LOCK)
            try:
                yield
            finally:
                await db.execute("SELECT pg_advisory_unlock($1)", COMMANDS_LOCK)

    def _reading(self) -> AbstractAsyncContextManager[Session]:
        connection: AbstractAsyncContextManager[Session] = self._pool.acquire()
        return connection

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Session]:
        async with self._pool.acquire() as db, db.transaction():
            yield db

    def _statement(self) -> AbstractAsyncContextManager[Session]:
        # The pool: a statement on its own commits on its own, without BEGIN and COMMIT round trips.
        return nullcontext(self._pool)

    def _duplicate(self, error: Exception) -> bool:
        return isinstance(error, asyncpg.UniqueViolationError)

    async def _recorded(self, db: Session, game_id: str, count: int) -> None:
        # What `watch_games` hears.
        await db.execute("SELECT pg_notify($1, $2)", GAMES_CHANNEL, f"{game_id}:{count}")

    def _id_list(self, ids: Sequence[str]) -> list[str]:
        return list(ids)

    async def ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        rows = await self._pool.fetch(
            "SELECT user_id, mu, sigma FROM player_stats WHERE guild_id = $1 AND user_id = ANY($2::bigint[])"
            " AND mu IS NOT NULL",
            guild_id,
            list(user_ids),
        )
        return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
