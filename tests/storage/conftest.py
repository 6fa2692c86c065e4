"""Fixtures for the storage tests: a database file in the test's own directory, and the repository on it."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Repository, migrations

from .support import Site, poke


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "wizard.db"


@pytest.fixture
async def repository(db_path: Path) -> AsyncIterator[Repository]:
    opened = await Repository.open(db_path)
    yield opened
    await opened.close()


@pytest.fixture
async def site(db_path: Path) -> AsyncIterator[Site]:
    made = Site(db_path)
    yield made
    await made.shut_down()


@pytest.fixture
def integrity_error() -> type[Exception]:
    """What the backend raises when a write breaks a key or constraint."""
    return sqlite3.IntegrityError


@pytest.fixture
def database(db_path: Path) -> Path | str:
    """Where the backend's database is, as `Repository.open` takes it."""
    return db_path


@pytest.fixture
def set_schema_version() -> Callable[[Path | str, int], Awaitable[None]]:
    """Mark the database (the bot not running) as being at an earlier schema, so a migration runs again."""

    async def set_version(database: Path | str, version: int) -> None:
        poke(database, f"PRAGMA user_version = {version}")

    return set_version


OldDatabase = Callable[[int, Sequence[tuple[str, Sequence[Any]]]], Awaitable[None]]


@pytest.fixture
def old_database(db_path: Path) -> OldDatabase:
    """Make the database as a bot that knew only the first `count` migrations left it, holding what
    `statements` (SQL with ``?`` placeholders, and their arguments) put in it."""

    async def make(count: int, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        with closing(sqlite3.connect(db_path, isolation_level=None)) as connection:
            for number, _, sql in migrations()[:count]:
                connection.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
            for sql, arguments in statements:
                connection.execute(sql, arguments)

    return make
