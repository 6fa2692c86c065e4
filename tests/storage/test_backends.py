"""Choosing the backend and the shards from the settings, and restoring only the games of this process's shards."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, shard_of
from bot.storage import Repository, SQLiteRepository, open_repository
from tests.manager.support import CHANNEL

from .support import seats_of

URL = "postgresql://bot:pw@db.example/wizard"


def test_postgres_and_shards_are_read_from_the_environment() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "a", "DATABASE_URL": URL, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert (settings.database_url, settings.shard_count, settings.shard_ids) == (URL, 4, (1, 3))
    assert "pw" not in repr(settings)


def test_without_those_settings_there_is_one_process_on_sqlite() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "a"})
    assert (settings.database_url, settings.shard_count, settings.shard_ids) == (None, None, None)
    assert settings.owns_guild(123 << 22)


@pytest.mark.parametrize(
    ("environ", "complaint"),
    [
        ({"DATABASE_URL": "mysql://x"}, "DATABASE_URL"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2", "DATABASE_URL": URL}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0", "DATABASE_URL": URL}, "different"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a", "DATABASE_URL": URL}, "commas"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, "DATABASE_URL"),
    ],
)
def test_a_bad_database_or_shard_setting_is_explained(environ: dict[str, str], complaint: str) -> None:
    with pytest.raises(SettingsError, match=complaint):
        Settings.from_env({"DISCORD_TOKEN": "a", **environ})


def test_all_shards_in_one_process_may_use_sqlite() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "a", "SHARD_COUNT": "2", "SHARD_IDS": "0,1"})
    assert settings.shard_ids == (0, 1)


def test_a_server_belongs_to_the_shard_of_discords_formula() -> None:
    assert [shard_of(guild << 22, 3) for guild in range(6)] == [0, 1, 2, 0, 1, 2]
    settings = Settings(token="a", database_url=URL, shard_count=2, shard_ids=(1,))
    assert not settings.owns_guild(4 << 22)
    assert settings.owns_guild(5 << 22)


async def test_without_database_url_the_repository_is_sqlite_at_database_path(tmp_path: Path) -> None:
    repository = await open_repository(Settings(token="a", database_path=tmp_path / "w.db"))
    try:
        assert isinstance(repository, SQLiteRepository)
        assert (tmp_path / "w.db").is_file()
    finally:
        await repository.close()


async def test_a_process_restores_only_the_games_of_its_shards(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    writer = await Repository.open(path)
    for guild in range(1, 7):
        await writer.create_lobby(f"g{guild}", guild << 22, CHANNEL + guild, 11, {}, 300, seats_of([11]))
    await writer.close()

    found = {}
    for shard in (0, 1):
        settings = Settings(token="a", database_path=path, shard_count=2, shard_ids=(shard,))
        repository = await open_repository(settings)
        found[shard] = [record.id for record in await repository.open_games()]
        await repository.close()

    assert found == {0: ["g2", "g4", "g6"], 1: ["g1", "g3", "g5"]}
