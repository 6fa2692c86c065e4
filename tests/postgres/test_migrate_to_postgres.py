"""`python -m bot.migrate_to_postgres`: an SQLite database copied into PostgreSQL reads back the same."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.migrate_to_postgres import copy
from bot.storage import (
    GuildSettingsRecord,
    Repository,
    SeasonEntry,
    SeasonSettingsRecord,
    SeatRecord,
    Sort,
    StorageError,
)
from tests.manager.support import CHANNEL, GUILD
from tests.storage.support import final_seat, running_game

OTHER_GUILD = 2


async def filled(path: Path) -> None:
    """A database with a bit of everything: a lobby, a running game, finished games, ratings, settings."""
    repository = await Repository.open(path)
    try:
        seats = [SeatRecord(0, 11, "Ann", dm_channel_id=5, hand_message_id=6, hand_round=2), SeatRecord(1, 12, "Bo")]
        await repository.create_lobby("lobby", GUILD, CHANNEL, 11, {"hidden_bids": True}, 120.5, seats)
        await running_game(repository, "running", [11, 12, 13])
        await repository.append_action("running", 0, 1, {"bid": 2}, turn_deadline=1e9 + 0.25)
        await repository.set_presence("running", 2, missed=2, away=True)
        await repository.set_dm_closed("running", 0)
        await repository.save_season_settings(GUILD, SeasonSettingsRecord("monthly", 8))
        await repository.start_season(GUILD, 1, 1e9, 1e9 + 86_400)
        for game, guild in (("done1", GUILD), ("done2", GUILD), ("done3", OTHER_GUILD)):
            await running_game(repository, game, [11, 12], guild=guild)
            await repository.record_finished(
                game,
                guild,
                [
                    final_seat(0, 11, [(1, 1, 1, 30), (2, 0, 1, -10)], won=True),
                    final_seat(1, 12, [(1, 0, 0, 20), (2, 1, 1, 30)], place=2),
                ],
                {11: (27.5, 7.25), 12: (22.0, 8.0)},
                season=SeasonEntry(1, {11: (26.0, 7.0), 12: (24.0, 7.5)}) if guild == GUILD else None,
            )
        await repository.end_season(GUILD, 1, 1e9 + 86_400, 8, (1e9 + 86_400, 1e9 + 2 * 86_400))
        await repository.save_guild_settings(
            GUILD, GuildSettingsRecord({"hidden_bids": True}, 60.0, "hard", "cs", (7,))
        )
        await repository.save_review("done1", 1, {"version": 1, "game": "done1", "seat": 1, "rounds": []})
        await repository.save_published_commands(77, 0, "the digest of the global commands")
    finally:
        await repository.close()


async def snapshot(repository: Repository) -> dict[str, object]:
    """Everything the bot reads, through the interface both backends share."""
    return {
        "open": await repository.open_games(),
        "finished": [await repository.load_game(game) for game in ("done1", "done2", "done3")],
        "stats": [await repository.player_stats(guild, user) for guild in (GUILD, OTHER_GUILD) for user in (11, 12)],
        "boards": [await repository.leaderboard(GUILD, sort, 0, 10) for sort in Sort],
        "ratings": await repository.ratings(GUILD, [11, 12, 13]),
        "settings": await repository.all_guild_settings(),
        "review": await repository.review("done1", 1),
        "published": await repository.published_commands(77),
        "last": [await repository.last_finished_game(guild, 11) for guild in (GUILD, OTHER_GUILD)],
        "seasons": [
            await repository.season_settings(GUILD),
            await repository.season(GUILD, 1),
            await repository.current_season(GUILD),
            await repository.owed_announcements(),
        ],
        "season boards": [await repository.leaderboard(GUILD, sort, 0, 10, season=1) for sort in Sort],
        "histories": [await repository.history(GUILD, user, season) for user in (11, 12) for season in (None, 1)],
        "rivals": [
            await repository.head_to_head(guild, 11, 12, season)
            for guild in (GUILD, OTHER_GUILD)
            for season in (None, 1)
        ],
    }


async def test_a_copied_database_reads_back_the_same(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "wizard.db"
    await filled(path)
    source = await Repository.open(path)
    try:
        expected = await snapshot(source)
    finally:
        await source.close()

    counts = await copy(path, postgres_url)

    assert counts["games"] == 5
    assert counts["actions"] == 1
    target = await Repository.open(postgres_url)
    try:
        assert await snapshot(target) == expected
        # And the bot carries on there: the running game takes its next action.
        await target.append_action("running", 1, 2, {"bid": 0})
        assert len(await target.actions("running")) == 2
    finally:
        await target.close()


async def test_copying_into_a_database_that_holds_games_is_refused(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "wizard.db"
    await filled(path)
    await copy(path, postgres_url)

    with pytest.raises(StorageError, match="already holds games"):
        await copy(path, postgres_url)


def test_the_command_copies_and_reports(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "wizard.db"
    asyncio.run(filled(path))
    command = [sys.executable, "-m", "bot.migrate_to_postgres", str(path), postgres_url]
    environ = os.environ | {"PYTHONPATH": os.getcwd()}

    result = subprocess.run(command, capture_output=True, text=True, env=environ, check=False, timeout=60)

    assert result.returncode == 0, result.stderr
    assert "games: 5 rows" in result.stdout
    again = subprocess.run(command, capture_output=True, text=True, env=environ, check=False, timeout=60)
    assert again.returncode == 2
    assert "already holds" in again.stderr
