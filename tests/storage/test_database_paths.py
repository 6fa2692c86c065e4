"""A DATABASE_PATH the bot cannot use is refused at start-up with its true cause, and left as it was.

Permissions do not bind root, as whom CI runs: a read-only file or folder is made so with the
immutable attribute then.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import Repository, StorageError, migrations
from bot.storage.sqlite import APPLICATION_ID

from .support import sqlite_only
from .test_repository import migrate_with_stdlib

pytestmark = sqlite_only


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of a folder, by name, with its bytes."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


async def refusal(path: Path) -> str:
    with pytest.raises(StorageError) as refused:
        await Repository.open(path)
    return str(refused.value)


async def test_a_folder_is_refused(tmp_path: Path) -> None:
    assert "is a folder: DATABASE_PATH must name a file" in await refusal(tmp_path)


def another_programs_database(path: Path, *, application_id: int = 0) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE invoices (number INTEGER)")
        connection.execute("INSERT INTO invoices VALUES (7)")
        connection.execute(f"PRAGMA application_id = {application_id}")
    connection.close()


@pytest.mark.parametrize("application_id", [0, 0x12345678], ids=["unmarked", "marked by its program"])
async def test_another_programs_database_is_refused_byte_for_byte_untouched(
    tmp_path: Path, application_id: int
) -> None:
    path = tmp_path / "wizard.db"
    another_programs_database(path, application_id=application_id)
    before = snapshot(tmp_path)

    text = await refusal(path)

    assert "another program's SQLite database (tables: invoices)" in text
    assert "damaged" not in text
    assert snapshot(tmp_path) == before  # not switched to WAL, no table of ours added


def clashing_database(path: Path, *, user_version: int) -> None:
    """Another program's file whose tables have our names (`games`, `seats`), and columns of its own."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT, platform TEXT)")
        connection.execute("INSERT INTO games (title, platform) VALUES ('Tetris', 'Game Boy')")
        connection.execute("CREATE TABLE seats (row TEXT, number INTEGER)")
        connection.execute(f"PRAGMA user_version = {user_version}")  # some programs number their schema too
    connection.close()


@pytest.mark.parametrize("user_version", [0, 1, 3], ids=lambda v: f"user_version {v}")
async def test_another_programs_database_with_a_games_table_is_refused_byte_for_byte_untouched(
    tmp_path: Path, user_version: int
) -> None:
    path = tmp_path / "wizard.db"
    clashing_database(path, user_version=user_version)
    before = snapshot(tmp_path)

    text = await refusal(path)

    assert text == (
        f"{path} is another program's SQLite database (tables: games, seats); set DATABASE_PATH to a file of its own"
    )
    assert snapshot(tmp_path) == before


async def test_a_file_with_our_tables_but_no_schema_version_is_another_programs(tmp_path: Path) -> None:
    # Our first migration's tables, made by hand: the bot's own files record the version with them.
    path = tmp_path / "wizard.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(migrations()[0][2])
    connection.close()
    before = snapshot(tmp_path)
    assert "another program's SQLite database" in await refusal(path)
    assert snapshot(tmp_path) == before


async def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "wizard.db"
    path.write_text("my shopping list\n" * 300)
    before = snapshot(tmp_path)
    assert "damaged or not a database" in await refusal(path)
    assert snapshot(tmp_path) == before


async def test_a_new_database_is_marked_as_the_bots(tmp_path: Path) -> None:
    path = tmp_path / "wizard.db"
    await (await Repository.open(path)).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    connection.close()


async def test_a_database_from_before_the_mark_is_recognised_and_marked(tmp_path: Path) -> None:
    path = tmp_path / "wizard.db"
    await (await Repository.open(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA application_id = 0")  # as versions before the mark left it
    connection.close()
    repository = await Repository.open(path)
    await repository.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    connection.close()


@pytest.mark.parametrize("version", range(1, len(migrations()) + 1), ids=lambda v: f"at schema {v}")
async def test_a_database_of_ours_from_before_the_mark_opens_upgraded_and_marked(tmp_path: Path, version: int) -> None:
    path = tmp_path / "wizard.db"
    migrate_with_stdlib(path, version)  # as a version of the bot that knew that many migrations left it
    repository = await Repository.open(path)
    try:
        assert await repository.schema_version() == len(migrations())
    finally:
        await repository.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
    connection.close()


# -- read-only files and folders ----------------------------------------------------------------


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """Make a file or folder read-only for the bot: for root, whom permissions do not bind, with the
    immutable attribute (chattr); for anyone else, with the permission bits."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o755 if path.is_dir() else 0o644)


async def healthy(folder: Path) -> Path:
    path = folder / "wizard.db"
    await (await Repository.open(path)).close()
    return path


async def test_a_read_only_database_file_is_refused_as_read_only(tmp_path: Path) -> None:
    path = await healthy(tmp_path)
    before = snapshot(tmp_path)
    with read_only(path):
        text = await refusal(path)
    assert f"{path} is read-only for this user" in text
    assert "damaged" not in text
    assert path.read_bytes() == before[path.name]  # (SQLite may leave its empty -wal and -shm beside it)


async def test_a_healthy_database_in_a_read_only_folder_is_not_called_damaged(tmp_path: Path) -> None:
    path = await healthy(tmp_path)
    before = snapshot(tmp_path)
    with read_only(tmp_path):  # SQLite cannot make its -wal and -shm files beside the database
        text = await refusal(path)
    assert "damaged" not in text
    assert "read-only" in text or "cannot open" in text
    assert snapshot(tmp_path) == before


async def test_a_missing_database_in_a_read_only_folder_is_refused_with_the_cause(tmp_path: Path) -> None:
    path = tmp_path / "wizard.db"
    with read_only(tmp_path):
        text = await refusal(path)
    assert "damaged" not in text
    assert f"cannot open {path}" in text or "read-only" in text
    assert snapshot(tmp_path) == {}
