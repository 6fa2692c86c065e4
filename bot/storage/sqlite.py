"""The SQLite backend: every read and write of the bot's SQLite database, and its migrations.

One aiosqlite connection, in WAL mode with foreign keys on; numbered migration files in
`bot/migrations/` are applied in order, each in one transaction, and the schema version is kept in
``PRAGMA user_version``. The queries are `bot.storage._sql`'s, shared with PostgreSQL; one process
writes the file, one write at a time.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, closing
from pathlib import Path
from typing import Any

import aiosqlite

from ._sql import SQLITE, SQLRepository
from .base import HISTORY_FILLED, RATINGS_REPLAYED, StorageError, migrations

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
# Marks a database file as this bot's (PRAGMA application_id, "WIZD"): a file with another id, or
# with tables and none of ours, belongs to another program and is left as it is.
APPLICATION_ID = 0x57495A44


def _check_path(target: Path) -> None:
    """A database path must name a file, in a folder that exists or can be made."""
    if target.is_dir():
        raise StorageError(f"{target} is a folder: DATABASE_PATH must name a file, such as data/wizard.db")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageError(f"cannot make the folder {target.parent} ({error.strerror})") from error


def _cause(path: str, error: sqlite3.Error) -> str:
    """What an SQLite error at start-up says about the file, in words an admin can act on."""
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith("SQLITE_CANTOPEN"):
        return f"cannot open {path} ({error}): check that its folder exists and that this user may write there"
    if name.startswith("SQLITE_READONLY"):
        return (
            f"{path} is read-only for this user ({error}): the file and its folder must be writable (SQLite "
            "keeps a -wal file beside it)"
        )
    if name.startswith("SQLITE_FULL"):
        return f"the disk that holds {path} is full: free some space and start again"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return f"{path} is in use by another program or another bot process ({error}): one process per SQLite file"
    if name.startswith("SQLITE_IOERR"):
        return f"cannot read or write {path} ({error}): check the disk"
    return (
        f"the database {path} is damaged or not a database ({error}); restore it from a backup "
        "or move it away to start with an empty one"
    )


def _ours(
    owner: int,
    version: int,
    holds_anything: bool,
    columns: dict[str, tuple[str, ...]],
    known: Sequence[tuple[int, str, str]],
) -> bool:
    """Whether a database file is this bot's: marked as ours (`APPLICATION_ID`); or new and empty; or,
    written before the mark (which its first start adds), holding at its `user_version` the tables
    and columns our migrations make up to that version. Table names alone are not enough: another
    program's file may have a `games` table of its own."""
    if owner == APPLICATION_ID:
        return True
    if owner != 0:
        return False
    if not holds_anything:
        return version == 0
    # Each migration sets user_version in its own transaction, so a file of ours with tables is at 1
    # or more; every version that knew more migrations than this one marks its files.
    if not 0 < version <= len(known):
        return False
    expected = _schema(tuple(sql for _, _, sql in known[:version]))
    return all(columns.get(table) == made for table, made in expected.items())


@functools.cache
def _schema(scripts: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """The tables, with their columns in order, that these migration scripts make in an empty database."""
    with closing(sqlite3.connect(":memory:")) as scratch:
        for script in scripts:
            scratch.executescript(script)
        tables = [name for (name,) in scratch.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            table: tuple(name for (name,) in scratch.execute("SELECT name FROM pragma_table_info(?)", (table,)))
            for table in tables
        }


class _Session:
    """The aiosqlite connection with asyncpg's calls, which the shared queries use (`bot.storage._sql.Session`)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    async def execute(self, sql: str, *args: Any) -> None:
        await self._db.execute(sql, args)

    async def executemany(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, args)

    # A query runs to its end in one call to aiosqlite's thread. A cursor read across an await
    # keeps its statement, and so a read snapshot, open on the connection; a write of this process
    # in between, after another process committed, is refused at once ("database is locked")
    # instead of waiting the busy timeout, as SQLite cannot move an open snapshot forward.
    async def fetch(self, sql: str, *args: Any) -> list[sqlite3.Row]:
        return list(await self._db.execute_fetchall(sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> sqlite3.Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return None if row is None else row[0]


class SQLiteRepository(SQLRepository):
    """The SQLite backend: one aiosqlite connection to one file. Create with `await SQLiteRepository.open(path)`."""

    # `adopt_orphans` adds no lock: it is one statement, and SQLite's write lock keeps a second
    # process out until it commits.
    SQL = SQLITE

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._session = _Session(connection)
        # Held by each write from its first statement to its commit, by each read, and by close().
        # One connection holds the write's open transaction, so a read let in between its
        # statements would see rows not yet committed, or rolled back after; and the bot may stop
        # while a click it already answered is still writing, and closing between that write's
        # statements would fail its commit.
        self._lock = asyncio.Lock()
        self._publishing = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> SQLiteRepository:
        """Open (creating if needed) and migrate the database; StorageError, saying why, if it cannot be
        used. A file that is refused is left byte for byte as it was."""
        if str(path) != ":memory:":
            _check_path(Path(path))
        try:
            connection = await aiosqlite.connect(path)
        except sqlite3.Error as error:
            raise StorageError(_cause(str(path), error)) from error
        connection.row_factory = sqlite3.Row
        repository = cls(connection)
        try:
            await repository._prepare(str(path))
        except BaseException:
            await connection.close()
            raise
        return repository

    async def _prepare(self, path: str) -> None:
        db = self._db
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA foreign_keys = ON")
            async with db.execute("PRAGMA quick_check") as cursor:
                check = [row[0] for row in await cursor.fetchall()]
            async with db.execute("PRAGMA user_version") as cursor:
                row = await cursor.fetchone()
            async with db.execute("PRAGMA application_id") as cursor:
                owner = (await cursor.fetchone() or (0,))[0]
            # Everything the file holds (tables, indexes, views, triggers) but SQLite's own.
            async with db.execute(
                "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            ) as cursor:
                held = [(kind, name) for kind, name in await cursor.fetchall()]
            tables = {name for kind, name in held if kind == "table"}
            columns = {}
            for table in tables:
                async with db.execute("SELECT name FROM pragma_table_info(?)", (table,)) as cursor:
                    columns[table] = tuple(name for (name,) in await cursor.fetchall())
        except sqlite3.DatabaseError as error:
            raise StorageError(_cause(path, error)) from error
        if check != ["ok"]:
            raise StorageError(f"the database {path} is damaged ({'; '.join(check[:3])}); restore it from a backup")
        version = row[0] if row else 0
        known = migrations()
        # Nothing is written before this: a file of another program is left byte for byte as it was.
        if not _ours(owner, version, bool(held), columns, known):
            raise StorageError(
                f"{path} is another program's SQLite database (tables: {', '.join(sorted(tables)) or 'none'}); "
                "set DATABASE_PATH to a file of its own"
            )
        if version > len(known):
            raise StorageError(
                f"the database {path} is from a newer version of the bot (schema {version}, this one knows "
                f"{len(known)}); update the bot or use a backup"
            )
        try:
            # A write that changes nothing: a read-only file, folder or full disk shows now, with its
            # true cause, not at the first player's click. Only then, the file known to be ours and
            # sound, is anything changed: switching the journal rewrites its header.
            await db.execute("BEGIN IMMEDIATE")
            await db.execute(f"PRAGMA user_version = {version}")
            await db.rollback()
            await db.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL keeps every commit through a crash of the bot; only a power cut can
            # lose the last moments.
            await db.execute("PRAGMA synchronous = NORMAL")
            if owner == 0:
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except sqlite3.Error as error:
            raise StorageError(_cause(path, error)) from error
        for number, name, sql in known[version:]:
            log.info("applying migration %s", name)
            try:
                # One transaction per migration, with its Python step if it has one: it applies whole
                # or not at all.
                await db.executescript(f"BEGIN;\n{sql}")
                if number == RATINGS_REPLAYED:
                    await self._replay_ratings(self._session)
                if number == HISTORY_FILLED:
                    await self._fill_history(self._session)
                await db.execute(f"PRAGMA user_version = {number}")
                await db.commit()
            except sqlite3.Error as error:
                await db.rollback()
                if getattr(error, "sqlite_errorname", "").startswith(
                    ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR")
                ):
                    raise StorageError(_cause(path, error)) from error
                raise StorageError(f"migration {name} failed: {error}") from error

    async def watch_games(self, heard: Callable[[str, int], None]) -> None:
        """Nothing to hear: the file has one process, which made every change itself."""

    def publishing_commands(self) -> AbstractAsyncContextManager[None]:
        # The file has one process: the publishers to keep apart are in this one.
        return self._publishing

    async def close(self) -> None:
        async with self._lock:
            await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[_Session]:
        # Between writes, never inside one (see `_lock`): it sees every committed write and nothing else.
        async with self._lock:
            yield self._session

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[_Session]:
        async with self._lock:
            try:
                yield self._session
                await self._db.commit()
            except BaseException:
                # Cut short by an error or a cancellation: none of its statements may come with the
                # next write's commit.
                await self._db.rollback()
                raise

    @asynccontextmanager
    async def _statement(self) -> AsyncIterator[_Session]:
        # No rollback: a statement that fails changes nothing; and a rollback started by a write
        # cancelled at shutdown (the claims renewed every beat) could outlive the event loop.
        async with self._lock:
            yield self._session
            await self._db.commit()

    def _duplicate(self, error: Exception) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error)

    def _id_list(self, ids: Sequence[str]) -> str:
        return json.dumps(list(ids))

    async def ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        marks = ",".join("?" * len(user_ids))
        async with self._reading() as db:
            rows = await db.fetch(
                f"SELECT user_id, mu, sigma FROM player_stats WHERE guild_id = ? AND user_id IN ({marks})"
                " AND mu IS NOT NULL",
                guild_id,
                *user_ids,
            )
        return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}
