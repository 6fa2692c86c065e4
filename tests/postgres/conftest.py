"""The storage tests against PostgreSQL: the server at TEST_DATABASE_URL, emptied before each test.

`python -m pytest` leaves this directory out (it needs a server); `.ci/run` starts a throwaway
server and runs ``python -m pytest -n 0 tests/postgres`` with TEST_DATABASE_URL set. Without it these
tests fail at once, saying so: they are never silently skipped.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Repository, migrations
from bot.storage._sql import _number
from bot.storage.postgres import PostgresRepository
from tests.storage.support import Site


@pytest.fixture(scope="session")
def database_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.fail(
            "TEST_DATABASE_URL is not set: tests/postgres needs a PostgreSQL database it may empty "
            "(`bash .ci/run` starts one), such as postgresql://postgres@127.0.0.1:5433/wizard_test",
            pytrace=False,
        )
    # Each test empties the one database first: tests in parallel processes would empty it under
    # each other (pyproject.toml runs three; `-n 0` runs one).
    if os.environ.get("PYTEST_XDIST_WORKER"):
        pytest.fail("tests/postgres share one database: run them in one process, with -n 0", pytrace=False)
    return url


async def empty(url: str) -> None:
    """Drop everything the bot made, so that each test starts from an empty database."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await connection.close()


@pytest.fixture
async def postgres_url(database_url: str) -> str:
    await empty(database_url)
    return database_url


@pytest.fixture
async def repository(postgres_url: str) -> AsyncIterator[Repository]:
    opened = await Repository.open(postgres_url)
    assert isinstance(opened, PostgresRepository)
    yield opened
    await opened.close()


@pytest.fixture
async def site(postgres_url: str) -> AsyncIterator[Site]:
    made = Site(postgres_url)
    yield made
    await made.shut_down()


@pytest.fixture
def integrity_error() -> type[Exception]:
    return asyncpg.IntegrityConstraintViolationError


@pytest.fixture
def database(postgres_url: str) -> Path | str:
    return postgres_url


@pytest.fixture
def set_schema_version() -> Callable[[Path | str, int], Awaitable[None]]:
    async def set_version(url: Path | str, version: int) -> None:
        connection = await asyncpg.connect(str(url))
        try:
            await connection.execute("UPDATE schema_version SET version = $1", version)
        finally:
            await connection.close()

    return set_version


@pytest.fixture
def old_database(postgres_url: str) -> Callable[[int, Sequence[tuple[str, Sequence[Any]]]], Awaitable[None]]:
    async def make(count: int, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        connection = await asyncpg.connect(postgres_url)
        try:
            await connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            for _, _, sql in migrations("postgres")[:count]:
                await connection.execute(sql)
            await connection.execute("INSERT INTO schema_version (version) VALUES ($1)", count)
            for sql, arguments in statements:
                await connection.execute(_number(sql), *arguments)
        finally:
            await connection.close()

    return make
