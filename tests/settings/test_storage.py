"""Server settings in the database: defaults without a row, saving and reading back, the migration
that adds them, a row that is no longer valid, and loading every server's settings at start-up."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from bot import guild_settings
from bot.client import WizardBot
from bot.engine import Options
from bot.guild_settings import DEFAULTS, GuildSettings
from bot.settings import Settings
from bot.storage import GuildSettingsRecord, Repository, migrations
from tests.storage.support import peek, tables_in, user_version

GUILD, OTHER_GUILD = 1, 2
SETTINGS = GuildSettings(
    options=Options(hidden_bids=True, rounds=6),
    turn_timer=120,
    computer_level="hard",
    language="pl",
    channels=(1234567890123456789, 77),
)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "wizard.db"


async def test_a_server_without_settings_gets_the_defaults(db_path: Path) -> None:
    repository = await Repository.open(db_path)
    try:
        assert await repository.guild_settings(GUILD) is None
        assert await repository.all_guild_settings() == {}
        assert await guild_settings.load(repository, GUILD) == DEFAULTS
        assert await guild_settings.load_all(repository) == {}
    finally:
        await repository.close()


async def test_saved_settings_read_back_the_same_after_a_restart(db_path: Path) -> None:
    repository = await Repository.open(db_path)
    before = time.time()
    await guild_settings.save(repository, GUILD, SETTINGS)
    await repository.close()

    repository = await Repository.open(db_path)
    try:
        assert await guild_settings.load(repository, GUILD) == SETTINGS
        assert await guild_settings.load(repository, OTHER_GUILD) == DEFAULTS
        assert await guild_settings.load_all(repository) == {GUILD: SETTINGS}
        record = await repository.guild_settings(GUILD)
    finally:
        await repository.close()
    assert record is not None
    assert record.updated_at >= before
    assert record.channels == (1234567890123456789, 77)
    [(options, channels, language)] = peek(db_path, "SELECT options, channels, language FROM guild_settings")
    assert json.loads(options) == SETTINGS.options.to_json()
    assert json.loads(channels) == [1234567890123456789, 77]
    assert language == "pl"


async def test_saving_again_replaces_a_servers_settings_and_leaves_the_others(db_path: Path) -> None:
    repository = await Repository.open(db_path)
    try:
        await guild_settings.save(repository, GUILD, SETTINGS)
        await guild_settings.save(repository, OTHER_GUILD, GuildSettings(turn_timer=60))
        changed = SETTINGS.with_changes(language=None, channels=(), hidden_bids=False)
        await guild_settings.save(repository, GUILD, changed)
        assert await guild_settings.load_all(repository) == {GUILD: changed, OTHER_GUILD: GuildSettings(turn_timer=60)}
    finally:
        await repository.close()
    assert peek(db_path, "SELECT count(*) FROM guild_settings") == [(2,)]
    assert peek(db_path, "SELECT language FROM guild_settings WHERE guild_id = ?", (GUILD,)) == [(None,)]


async def test_the_repository_stores_records_as_given(db_path: Path) -> None:
    record = GuildSettingsRecord({"hidden_bids": True}, 45.5, "easy", None, (3, 2, 1))
    repository = await Repository.open(db_path)
    try:
        await repository.save_guild_settings(GUILD, record)
        stored = await repository.guild_settings(GUILD)
    finally:
        await repository.close()
    assert stored is not None
    assert (stored.options, stored.turn_timer, stored.computer_level, stored.language, stored.channels) == (
        {"hidden_bids": True},
        45.5,
        "easy",
        None,
        (3, 2, 1),
    )


def migrate_with_stdlib(path: Path, count: int) -> None:
    with closing(sqlite3.connect(path, isolation_level=None)) as connection:
        for number, _, sql in migrations()[:count]:
            connection.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")


async def test_a_database_at_schema_2_gets_the_settings_table_and_keeps_its_games(db_path: Path) -> None:
    migrate_with_stdlib(db_path, 2)
    with closing(sqlite3.connect(db_path)) as connection, connection:
        connection.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at,"
            " updated_at) VALUES ('old', ?, 5, 101, 'lobby', '{}', 300, 1.0, 2.0)",
            (GUILD,),
        )
        connection.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES ('old', 0, 101, 'Ann')")
    assert "guild_settings" not in tables_in(db_path)

    repository = await Repository.open(db_path)
    try:
        assert await repository.schema_version() == len(migrations()) >= 3
        assert [game.id for game in await repository.open_games()] == ["old"]
        assert await guild_settings.load_all(repository) == {}
        await guild_settings.save(repository, GUILD, SETTINGS)
        assert await guild_settings.load(repository, GUILD) == SETTINGS
    finally:
        await repository.close()
    assert "guild_settings" in tables_in(db_path)
    assert user_version(db_path) == len(migrations())


def test_the_settings_migration_is_number_3() -> None:
    [(number, name, sql)] = [migration for migration in migrations() if "guild_settings" in migration[2]]
    assert (number, name) == (3, "0003_guild_settings.sql")
    assert "CREATE TABLE guild_settings" in sql


async def test_a_stored_row_no_longer_valid_keeps_what_still_is(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repository = await Repository.open(db_path)
    try:
        # Say a language's catalog was removed and a computer level renamed since the row was written.
        await repository.save_guild_settings(
            GUILD, GuildSettingsRecord({"hidden_bids": True}, 120, "godlike", "xx", (5, 6))
        )
        await repository.save_guild_settings(
            OTHER_GUILD, GuildSettingsRecord({"hidden_bids": True, "bids_may_not_add_up": True}, 60, "easy", "cs", ())
        )
        with caplog.at_level(logging.WARNING, logger="bot.guild_settings"):
            loaded = await guild_settings.load_all(repository)
    finally:
        await repository.close()
    assert loaded == {
        GUILD: GuildSettings(options=Options(hidden_bids=True), turn_timer=120, channels=(5, 6)),
        OTHER_GUILD: GuildSettings(turn_timer=60, computer_level="easy", language="cs"),
    }
    assert len([r for r in caplog.records if "stored settings are not all valid" in r.getMessage()]) == 2


async def test_the_bot_loads_every_servers_settings_at_start_up(db_path: Path) -> None:
    repository = await Repository.open(db_path)
    await guild_settings.save(repository, GUILD, SETTINGS)
    await guild_settings.save(repository, OTHER_GUILD, GuildSettings(language="ko"))
    await repository.close()

    bot = WizardBot(Settings(token="not-used", database_path=db_path))
    assert bot.guild_settings == {}
    try:
        await bot.setup_hook()
        assert bot.guild_settings == {GUILD: SETTINGS, OTHER_GUILD: GuildSettings(language="ko")}
        wizard = bot.tree.get_command("wizard")
        assert wizard is not None
        assert "settings" in [command.name for command in wizard.commands]  # type: ignore[union-attr]
    finally:
        await bot.close()
