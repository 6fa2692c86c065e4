"""tests/storage/test_repository.py against PostgreSQL (all but its tests of the SQLite file), and
PostgreSQL's own migrations."""

from __future__ import annotations

import asyncpg
import pytest

import bot.storage.postgres
import tests.storage.test_repository as shared
from bot.storage import Repository, StorageError, migrations

from .support import backend_neutral

globals().update(backend_neutral(shared))


def test_both_dialects_have_the_same_migrations() -> None:
    assert [name for _, name, _ in migrations("postgres")] == [name for _, name, _ in migrations("sqlite")]


async def test_a_new_database_gets_every_migration(repository: Repository, postgres_url: str) -> None:
    assert await repository.schema_version() == len(migrations("postgres"))
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT version FROM schema_version") == len(migrations("postgres"))
    finally:
        await connection.close()


async def test_opening_again_applies_nothing_and_keeps_the_data(postgres_url: str) -> None:
    first = await Repository.open(postgres_url)
    await first.create_lobby("g1", 1, 2, 3, {}, 300, [])
    await first.close()

    second = await Repository.open(postgres_url)
    try:
        assert await second.schema_version() == len(migrations("postgres"))
        assert [game.id for game in await second.open_games()] == ["g1"]
    finally:
        await second.close()


async def test_a_database_from_a_newer_version_is_refused(postgres_url: str) -> None:
    opened = await Repository.open(postgres_url)
    await opened.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("UPDATE schema_version SET version = $1", len(migrations("postgres")) + 1)
    finally:
        await connection.close()

    with pytest.raises(StorageError, match="newer version"):
        await Repository.open(postgres_url)


async def test_a_failing_migration_is_rolled_back_whole(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    good = migrations("postgres")
    broken = (len(good) + 1, f"{len(good) + 1:04d}_broken.sql", "CREATE TABLE half_done (x INTEGER);\nNOT SQL;")
    monkeypatch.setattr(bot.storage.postgres, "migrations", lambda dialect: [*good, broken])

    with pytest.raises(StorageError, match=broken[1]):
        await Repository.open(postgres_url)

    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT version FROM schema_version") == len(good)
        assert await connection.fetchval("SELECT to_regclass('half_done')") is None
    finally:
        await connection.close()


async def test_an_unreachable_server_is_a_storage_error() -> None:
    with pytest.raises(StorageError, match="cannot connect"):
        await Repository.open("postgresql://nobody:secret@127.0.0.1:1/none")


async def test_a_database_with_another_programs_games_table_is_refused_and_left_as_it_was(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("CREATE TABLE games (id SERIAL PRIMARY KEY, title TEXT)")
        await connection.execute("INSERT INTO games (title) VALUES ('Tetris')")
        with pytest.raises(StorageError, match=r"holds another program's tables \(relation \"games\" already exists\)"):
            await Repository.open(postgres_url)
        tables = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        assert [row["tablename"] for row in tables] == ["games"]  # no schema_version, nothing of ours
        assert await connection.fetch("SELECT * FROM games") == [(1, "Tetris")]
    finally:
        await connection.close()
