"""The repository on a real database file: migrations, refusing unusable files, and every typed read and write."""

from __future__ import annotations

import asyncio
import hashlib
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.storage.postgres
import bot.storage.sqlite
from bot import ratings
from bot.storage import (
    FinalSeat,
    GameRecord,
    PlayerStats,
    Repository,
    SeatRecord,
    Sort,
    Standing,
    StorageConflict,
    StorageError,
    migrations,
)
from tests.manager.support import CHANNEL, GUILD, OTHER_CHANNEL

from .support import final_seat, peek, reads_beside, running_game, seats_of, sqlite_only, tables_in, user_version

OTHER_GUILD = 2
ANN, BO, CY, DI = 101, 102, 103, 104


def migrate_with_stdlib(path: Path, count: int) -> None:
    """Bring a database to schema `count` the way the bot did when it knew only that many migrations."""
    with sqlite3.connect(path, isolation_level=None) as connection:
        for number, _, sql in migrations()[:count]:
            connection.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    connection.close()


def listing(directory: Path) -> dict[str, str]:
    """Every file in a directory with a digest of its bytes: what 'left untouched' compares."""
    return {entry.name: hashlib.sha256(entry.read_bytes()).hexdigest() for entry in sorted(directory.iterdir())}


async def filled_database(path: Path, journal_mode: str) -> None:
    """A database written by the bot with a few pages of data, left in the given journal mode."""
    repository = await Repository.open(path)
    for number in range(30):
        await repository.create_lobby(
            f"lobby{number}", GUILD, number, ANN, {"note": "x" * 200}, 300, [SeatRecord(0, ANN, "A" * 100)]
        )
    await repository.close()
    if journal_mode != "wal":
        # A backup made with VACUUM INTO, or a file copied from elsewhere, is in rollback-journal mode.
        with sqlite3.connect(path) as connection:
            connection.execute(f"PRAGMA journal_mode = {journal_mode}")
        connection.close()


# -- opening and migrating ---------------------------------------------------------------------


@sqlite_only
async def test_a_new_database_gets_every_migration(repository: Repository, db_path: Path) -> None:
    assert await repository.schema_version() == len(migrations())
    assert user_version(db_path) == len(migrations())


@sqlite_only
async def test_a_new_database_is_in_wal_mode(repository: Repository, db_path: Path) -> None:
    assert peek(db_path, "PRAGMA journal_mode") == [("wal",)]


@sqlite_only
async def test_opening_creates_the_missing_directories(tmp_path: Path) -> None:
    path = tmp_path / "not" / "yet" / "there.db"
    repository = await Repository.open(path)
    await repository.close()
    assert user_version(path) == len(migrations())


@pytest.mark.parametrize(
    "write",
    [
        lambda repository: repository.append_action("no-such-game", 0, 0, {"bid": 1}),
        lambda repository: repository.record_finished(
            "no-such-game", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], None
        ),
    ],
    ids=["an action", "a result"],
)
async def test_foreign_keys_are_enforced(
    repository: Repository, write: Callable[[Repository], object], integrity_error: type[Exception]
) -> None:
    with pytest.raises(integrity_error, match=r"(?i)FOREIGN KEY"):
        await write(repository)  # type: ignore[misc]


@sqlite_only
@pytest.mark.parametrize("applied", range(len(migrations()) + 1), ids=lambda k: f"at schema {k}")
async def test_an_older_database_migrates_forward_keeping_its_data(db_path: Path, applied: int) -> None:
    migrate_with_stdlib(db_path, applied)
    with sqlite3.connect(db_path) as connection:
        # Once there is a games table (at schema 0 a table would make it another program's file): a
        # table of no migration's concern, and a lobby.
        if applied >= 1:
            connection.execute("CREATE TABLE keepsake (word TEXT)")
            connection.execute("INSERT INTO keepsake VALUES ('kept')")
            connection.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at,"
                " updated_at) VALUES ('old', ?, ?, ?, 'lobby', '{}', 300, 1.0, 2.0)",
                (GUILD, CHANNEL, ANN),
            )
            connection.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES ('old', 0, ?, 'Ann')", (ANN,))
    connection.close()

    repository = await Repository.open(db_path)
    try:
        assert await repository.schema_version() == len(migrations())
        games = await repository.open_games()
    finally:
        await repository.close()
    if applied >= 1:
        assert peek(db_path, "SELECT word FROM keepsake") == [("kept",)]
    expected = [("old", (SeatRecord(0, ANN, "Ann"),))] if applied >= 1 else []
    assert [(game.id, game.seats) for game in games] == expected


@sqlite_only
@pytest.mark.parametrize("journal_mode", ["wal", "delete"], ids=["written by the bot", "a VACUUM INTO backup"])
async def test_a_database_from_a_newer_version_is_refused_and_left_untouched(db_path: Path, journal_mode: str) -> None:
    await filled_database(db_path, journal_mode)
    with sqlite3.connect(db_path) as connection:
        connection.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    connection.close()
    before = listing(db_path.parent)

    with pytest.raises(StorageError, match="newer version") as refused:
        await Repository.open(db_path)

    assert str(db_path) in str(refused.value)
    assert listing(db_path.parent) == before


def random_bytes(data: bytes) -> bytes:
    return random.Random(1).randbytes(len(data))


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def page_overwritten(data: bytes) -> bytes:
    page = 4096
    return data[: 2 * page] + random.Random(2).randbytes(page) + data[3 * page :]


def header_wiped(data: bytes) -> bytes:
    return bytes(100) + data[100:]


def rewrite(path: Path, damage: Callable[[bytes], bytes]) -> None:
    path.write_bytes(damage(path.read_bytes()))


@sqlite_only
@pytest.mark.parametrize("journal_mode", ["wal", "delete"], ids=["written by the bot", "a VACUUM INTO backup"])
@pytest.mark.parametrize("damage", [random_bytes, truncated, page_overwritten, header_wiped])
async def test_a_damaged_file_is_refused_and_left_untouched(
    db_path: Path, damage: Callable[[bytes], bytes], journal_mode: str
) -> None:
    await filled_database(db_path, journal_mode)
    rewrite(db_path, damage)
    before = listing(db_path.parent)

    with pytest.raises(StorageError, match="damaged") as refused:
        await Repository.open(db_path)

    assert str(db_path) in str(refused.value)
    assert listing(db_path.parent) == before


BROKEN_MIGRATIONS = {
    # Each one does some work before it fails, so a half-applied migration would show.
    "a syntax error": "CREATE TABLE half_done (x INTEGER);\nINSERT INTO half_done VALUES (1);\nTHIS IS NOT SQL;\n",
    "a constraint": "CREATE TABLE half_done (x INTEGER NOT NULL);\nINSERT INTO half_done VALUES (NULL);\n",
}


# How many good migrations come before the broken one, and whether they were applied by an earlier start.
MIGRATION_STARTS = [
    pytest.param(good, already, id=f"{good} good{', applied earlier' if already else ''}")
    for good in range(len(migrations()) + 1)
    for already in ([False, True] if good else [False])
]


@sqlite_only
@pytest.mark.parametrize("sql", BROKEN_MIGRATIONS.values(), ids=BROKEN_MIGRATIONS.keys())
@pytest.mark.parametrize(("good", "already"), MIGRATION_STARTS)
async def test_a_failing_migration_leaves_the_previous_version_and_nothing_half_applied(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, sql: str, good: int, already: bool
) -> None:
    if already:
        migrate_with_stdlib(db_path, good)
    good_ones = migrations()[:good]
    broken = (good + 1, f"{good + 1:04d}_broken.sql", sql)
    monkeypatch.setattr(bot.storage.sqlite, "migrations", lambda: [*good_ones, broken])

    with pytest.raises(StorageError, match=broken[1]):
        await Repository.open(db_path)

    assert user_version(db_path) == good
    assert "half_done" not in tables_in(db_path)
    assert ("games" in tables_in(db_path)) == (good >= 1)


# -- lobbies and running games -------------------------------------------------------------


async def test_open_games_returns_a_lobby_as_written(repository: Repository) -> None:
    before = time.time()
    await repository.create_lobby("g1", GUILD, CHANNEL, ANN, {"bids_may_not_add_up": True}, 120, seats_of([ANN]))
    await repository.set_lobby_message("g1", 5001)
    after = time.time()

    [record] = await repository.open_games()

    assert before <= record.updated_at <= after
    assert record == GameRecord(
        id="g1",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANN,
        status="lobby",
        seed=None,
        options={"bids_may_not_add_up": True},
        turn_timer=120,
        lobby_message_id=5001,
        table_message_id=None,
        table_round=None,
        turn_deadline=None,
        updated_at=record.updated_at,
        seats=(SeatRecord(0, ANN, f"Player {ANN}"),),
        actions=(),
    )


async def test_open_games_returns_a_running_game_as_written(repository: Repository) -> None:
    seed = 2**63 - 1  # the largest seed the manager draws
    actions: list[tuple[int, dict[str, Any]]] = [
        (1, {"bid": 0}),
        (2, {"bid": 1}),
        (0, {"trump": "H"}),
        (1, {"play": "W1"}),
        (2, {"play": "J4"}),
    ]
    await repository.create_lobby("g1", GUILD, CHANNEL, ANN, {}, 300, seats_of([ANN, BO]))
    await repository.update_lobby("g1", BO, [SeatRecord(0, BO, "Bo"), SeatRecord(1, CY, "Cy"), SeatRecord(2, DI, "Di")])
    await repository.set_lobby_message("g1", 5001)
    await repository.start_game("g1", seed)
    for index, (seat, action) in enumerate(actions):
        await repository.append_action("g1", index, seat, action, turn_deadline=1000.0 + index)
    await repository.set_table_message("g1", 6001, 2)
    await repository.set_hand_message("g1", 0, 7000, 7001, 2)
    await repository.set_hand_message("g1", 1, 7100, 7101, 1)
    await repository.set_hand_message("g1", 2, 7200, 7201, 2)
    await repository.set_dm_closed("g1", 2)
    await repository.set_presence("g1", 1, missed=2, away=True)
    await repository.set_pads_shown("g1", 1)

    [record] = await repository.open_games()

    assert record == GameRecord(
        id="g1",
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=BO,
        status="running",
        seed=seed,
        options={},
        turn_timer=300,
        lobby_message_id=5001,
        table_message_id=6001,
        table_round=2,
        turn_deadline=1000.0 + len(actions) - 1,
        updated_at=record.updated_at,
        seats=(
            SeatRecord(0, BO, "Bo", 7000, 7001, 2),
            SeatRecord(1, CY, "Cy", 7100, 7101, 1, missed=2, away=True),
            SeatRecord(2, DI, "Di", dm_closed=True),
        ),
        actions=tuple(actions),
        pads_shown=1,
    )
    assert await repository.actions("g1") == actions


async def test_updating_a_lobby_restarts_its_idle_clock(repository: Repository) -> None:
    await repository.create_lobby("g1", GUILD, CHANNEL, ANN, {}, 300, seats_of([ANN]))
    before = time.time()
    await repository.update_lobby("g1", ANN, seats_of([ANN, BO]))

    [record] = await repository.open_games()

    assert record.updated_at >= before


async def end_by_closing(repository: Repository, game_id: str) -> None:
    await repository.close_lobby(game_id)


async def end_by_stopping(repository: Repository, game_id: str) -> None:
    await repository.start_game(game_id, 7)
    await repository.stop_game(game_id)
    await repository.set_final_message(game_id, 9001)  # the channel has been shown its closed table


async def end_by_finishing(repository: Repository, game_id: str) -> None:
    await repository.start_game(game_id, 7)
    await repository.record_finished(game_id, GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], None)
    await repository.set_final_message(game_id, 9001)  # the channel has been shown its end


@pytest.mark.parametrize(
    "end", [end_by_closing, end_by_stopping, end_by_finishing], ids=["closed", "stopped", "finished"]
)
async def test_ended_games_are_not_open(repository: Repository, end: Callable[[Repository, str], object]) -> None:
    await repository.create_lobby("waiting", GUILD, CHANNEL, ANN, {}, 300, seats_of([ANN]))
    await repository.create_lobby("playing", GUILD, OTHER_CHANNEL, BO, {}, 300, seats_of([BO, CY, DI]))
    await repository.start_game("playing", 5)
    await repository.create_lobby("ended", GUILD, 30, ANN, {}, 300, seats_of([ANN]))

    await end(repository, "ended")  # type: ignore[misc]

    assert sorted(game.id for game in await repository.open_games()) == ["playing", "waiting"]


async def finish(repository: Repository, game_id: str) -> None:
    await repository.record_finished(game_id, GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], None)


async def stop(repository: Repository, game_id: str) -> None:
    await repository.stop_game(game_id)


@pytest.mark.parametrize(("end", "status"), [(finish, "finished"), (stop, "stopped")])
async def test_an_ended_game_is_open_until_its_ending_is_shown(
    repository: Repository, end: Callable[[Repository, str], Awaitable[None]], status: str
) -> None:
    await running_game(repository, "g1", [ANN, BO, CY])
    await end(repository, "g1")

    [owed] = await repository.open_games()
    assert (owed.id, owed.status, owed.final_message_id) == ("g1", status, None)

    await repository.set_final_message("g1", 9001)
    assert await repository.open_games() == []
    shown = await repository.load_game("g1")
    assert shown is not None
    assert shown.final_message_id == 9001


async def test_an_action_cannot_be_recorded_twice(repository: Repository) -> None:
    await running_game(repository, "g1", [ANN, BO, CY])
    await repository.append_action("g1", 0, 1, {"bid": 0})

    # Another process recorded this index first: the manager catches up from the database.
    with pytest.raises(StorageConflict):
        await repository.append_action("g1", 0, 1, {"bid": 1})

    assert await repository.actions("g1") == [(1, {"bid": 0})]


# -- finished games, statistics and ratings --------------------------------------------------


@sqlite_only
async def test_a_finished_game_stores_its_results_and_rounds(repository: Repository, db_path: Path) -> None:
    await running_game(repository, "g1", [ANN, BO, CY])
    seats = [
        final_seat(0, ANN, [(1, 1, 1, 30), (2, 0, 1, -10)], place=1, won=True),
        final_seat(1, BO, [(1, 0, 0, 20), (2, 1, 1, 30)], place=1, won=True),
        final_seat(2, CY, [(1, 0, 1, -10), (2, 2, 0, -20)], place=3),
    ]

    await repository.record_finished("g1", GUILD, seats, None)

    assert peek(db_path, "SELECT status FROM games WHERE id = 'g1'") == [("finished",)]
    assert peek(db_path, "SELECT seat, user_id, score, place, won FROM results ORDER BY seat") == [
        (0, ANN, 20, 1, 1),
        (1, BO, 50, 1, 1),
        (2, CY, -30, 3, 0),
    ]
    assert peek(db_path, "SELECT round, seat, bid, tricks, points FROM round_results ORDER BY round, seat") == [
        (1, 0, 1, 1, 30),
        (1, 1, 0, 0, 20),
        (1, 2, 0, 1, -10),
        (2, 0, 0, 1, -10),
        (2, 1, 1, 1, 30),
        (2, 2, 2, 0, -20),
    ]


@sqlite_only
async def test_player_stats_add_up_over_games(repository: Repository, db_path: Path) -> None:
    await running_game(repository, "g1", [ANN, BO, CY])
    await running_game(repository, "g2", [ANN, BO, CY])
    # Game 1: exact, over, under. Game 2: exact, exact, over, under.
    first = final_seat(0, ANN, [(1, 1, 1, 30), (2, 0, 1, -10), (3, 2, 1, -10)], won=True)
    second = final_seat(2, ANN, [(1, 0, 0, 20), (2, 1, 1, 30), (3, 1, 2, -10), (4, 2, 0, -20)], place=2)

    await repository.record_finished("g1", GUILD, [first], None)
    await repository.record_finished("g2", GUILD, [second], None)

    assert await repository.player_stats(GUILD, ANN) == PlayerStats(
        user_id=ANN,
        name=f"Player {ANN}",
        games=2,
        wins=1,
        avg_score=15.0,
        best_score=20,
        rounds=7,
        exact=3,
        over=2,
        under=2,
        rating=None,
        by_hand_size=((1, 2, 2), (2, 2, 1), (3, 2, 0), (4, 1, 0)),
        best_game="g2",
        streak=-1,  # won g1, not g2
    )
    standing = await repository.standing(GUILD, ANN, Sort.EXACT_RATE)
    assert standing is not None
    assert standing.exact_rate == pytest.approx(3 / 7)
    assert peek(db_path, "SELECT total_score FROM player_stats WHERE user_id = ?", (ANN,)) == [(30,)]


@pytest.mark.parametrize(("scores", "best"), [((10, 20), 20), ((20, 10), 20), ((-30, -50), -30), ((-50, 0), 0)])
async def test_the_best_score_is_the_highest_of_all_games(
    repository: Repository, scores: tuple[int, ...], best: int
) -> None:
    for number, score in enumerate(scores):
        await running_game(repository, f"g{number}", [ANN])
        await repository.record_finished(f"g{number}", GUILD, [final_seat(0, ANN, [(1, 0, 0, score)])], None)

    stats = await repository.player_stats(GUILD, ANN)

    assert stats is not None
    assert stats.best_score == best


async def test_the_name_shown_is_the_one_of_the_latest_game(repository: Repository) -> None:
    for number, name in enumerate(["Ann", "Annie"]):
        await running_game(repository, f"g{number}", [ANN])
        await repository.record_finished(f"g{number}", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)], name=name)], None)

    stats = await repository.player_stats(GUILD, ANN)

    assert stats is not None
    assert stats.name == "Annie"


async def test_stats_are_kept_per_server(repository: Repository) -> None:
    await running_game(repository, "g1", [ANN], guild=GUILD)
    await running_game(repository, "g2", [ANN], guild=OTHER_GUILD)
    await repository.record_finished("g1", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], {ANN: (30.0, 5.0)})
    await repository.record_finished("g2", OTHER_GUILD, [final_seat(0, ANN, [(1, 1, 0, -10)])], None)

    here = await repository.player_stats(GUILD, ANN)
    there = await repository.player_stats(OTHER_GUILD, ANN)

    assert here is not None
    assert there is not None
    assert (here.games, here.best_score, here.rating) == (1, 20, 15.0)
    assert (there.games, there.best_score, there.rating) == (1, -10, None)


async def test_ratings_are_stored_with_rating_mu_minus_three_sigma(repository: Repository) -> None:
    await running_game(repository, "g1", [ANN, BO])
    seats = [final_seat(0, ANN, [(1, 0, 0, 20)], won=True), final_seat(1, BO, [(1, 1, 0, -10)], place=2)]

    await repository.record_finished("g1", GUILD, seats, {ANN: (30.5, 5.25), BO: (20.0, 7.0)})

    assert await repository.ratings(GUILD, [ANN, BO]) == {ANN: (30.5, 5.25), BO: (20.0, 7.0)}
    ann, bo = await repository.player_stats(GUILD, ANN), await repository.player_stats(GUILD, BO)
    assert ann is not None
    assert bo is not None
    assert (ann.rating, bo.rating) == (30.5 - 3 * 5.25, 20.0 - 3 * 7.0)


@pytest.mark.parametrize("later", [None, {}, {BO: (21.0, 6.0)}], ids=["no ratings", "empty", "another player's"])
async def test_a_game_without_new_ratings_leaves_a_players_rating_as_it_was(
    repository: Repository, later: dict[int, tuple[float, float]] | None
) -> None:
    await running_game(repository, "g1", [ANN, BO])
    await running_game(repository, "g2", [ANN, BO])
    await repository.record_finished("g1", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], {ANN: (30.0, 5.0)})

    await repository.record_finished(
        "g2", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)]), final_seat(1, BO, [(1, 0, 0, 20)])], later
    )

    assert (await repository.ratings(GUILD, [ANN]))[ANN] == (30.0, 5.0)
    stats = await repository.player_stats(GUILD, ANN)
    assert stats is not None
    assert (stats.games, stats.rating) == (2, 15.0)


async def test_ratings_lists_only_rated_players_of_that_server(repository: Repository) -> None:
    await running_game(repository, "g1", [ANN, BO])
    await running_game(repository, "g2", [CY], guild=OTHER_GUILD)
    await repository.record_finished(
        "g1", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)]), final_seat(1, BO, [(1, 0, 0, 20)])], {ANN: (30.0, 5.0)}
    )
    await repository.record_finished("g2", OTHER_GUILD, [final_seat(0, CY, [(1, 0, 0, 20)])], {CY: (28.0, 4.0)})

    assert await repository.ratings(GUILD, [ANN, BO, CY, DI]) == {ANN: (30.0, 5.0)}
    assert await repository.ratings(GUILD, []) == {}


# Finished games (id, server, players, places) whose stored ratings migration 5 computes again: the
# tie of issue 18, a shared win, another server, and a game with computer players (negative ids),
# which is not rated.
RATED_AGAIN = [
    ("g1", GUILD, [ANN, BO, CY, DI, 105, 106], [3, 1, 2, 6, 3, 5]),
    ("g2", GUILD, [BO, ANN, CY], [1, 1, 3]),
    ("g3", OTHER_GUILD, [ANN, BO, CY], [1, 2, 3]),
    ("g4", GUILD, [DI, -1, -2], [1, 2, 3]),
]


async def test_migration_5_rates_the_finished_games_again(
    database: Path | str,
    set_schema_version: Callable[[Path | str, int], Awaitable[None]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repository = await Repository.open(database)
    try:
        for game_id, guild, players, places in RATED_AGAIN:
            seats = [
                SeatRecord(seat, user, f"Player {user}", computer="easy" if user < 0 else None)
                for seat, user in enumerate(players)
            ]
            await repository.create_lobby(game_id, guild, CHANNEL, players[0], {}, 300, seats)
            await repository.start_game(game_id, 1)
            finals = [
                FinalSeat(seat, user, f"Player {user}", 0, place, place == 1, ((1, 0, 0, 0),), computer=user < 0)
                for seat, (user, place) in enumerate(zip(players, places, strict=True))
            ]
            # Ratings as a wrong model might have left them; none for the game with computer players.
            wrong = (
                None
                if min(players) < 0
                else {user: (40.0 - place, 2.0) for user, place in zip(players, places, strict=True)}
            )
            await repository.record_finished(game_id, guild, finals, wrong)
    finally:
        await repository.close()
    await set_schema_version(database, 4)
    # Migration 5 runs again, and only it: the later ones' changes are in the database already.
    for backend in (bot.storage.sqlite, bot.storage.postgres):
        monkeypatch.setattr(backend, "migrations", lambda dialect="sqlite": migrations(dialect)[:5])

    repository = await Repository.open(database)
    try:
        here = await repository.ratings(GUILD, [ANN, BO, CY, DI, 105, 106])
        there = await repository.ratings(OTHER_GUILD, [ANN, BO, CY])
        board = await repository.leaderboard(GUILD, Sort.RATING, 0, 10)
    finally:
        await repository.close()

    # Floats go into both databases and come back bit for bit.
    assert here == ratings.replay([(players, places) for _, _, players, places in RATED_AGAIN[:2]])
    assert there == ratings.replay([(RATED_AGAIN[2][2], RATED_AGAIN[2][3])])
    assert [standing.rating for standing in board] == sorted(map(ratings.shown, here.values()), reverse=True)


def everything(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """The content of every table, for checking that a failed write changed nothing."""
    return {table: sorted(peek(path, f"SELECT * FROM {table}"), key=repr) for table in sorted(tables_in(path))}


GOOD_GAME = [final_seat(0, ANN, [(1, 1, 1, 30)], won=True), final_seat(1, BO, [(1, 0, 1, -10)], place=2)]

FAILING_RESULTS: dict[str, tuple[str, list[FinalSeat]]] = {
    "the same game again": ("g1", GOOD_GAME),
    "a round twice": (
        "g2",
        [final_seat(0, ANN, [(1, 0, 0, 20)]), final_seat(1, BO, [(1, 0, 0, 20), (1, 1, 1, 30)])],
    ),
    # The last seat's statistics row cannot be written, after the first seat's was.
    "a player without a name": (
        "g2",
        [final_seat(0, ANN, [(1, 0, 0, 20)]), FinalSeat(1, BO, None, 20, 1, True, ((1, 0, 0, 20),))],  # type: ignore[arg-type]
    ),
}


@sqlite_only
@pytest.mark.parametrize(("game_id", "seats"), FAILING_RESULTS.values(), ids=FAILING_RESULTS.keys())
async def test_a_failed_record_finished_changes_nothing(
    repository: Repository, db_path: Path, game_id: str, seats: list[FinalSeat]
) -> None:
    await running_game(repository, "g1", [ANN, BO])
    await running_game(repository, "g2", [ANN, BO])
    await repository.record_finished("g1", GUILD, GOOD_GAME, {ANN: (30.0, 5.0), BO: (20.0, 5.0)})
    before = everything(db_path)

    with pytest.raises(sqlite3.IntegrityError):
        await repository.record_finished(game_id, GUILD, seats, {ANN: (40.0, 4.0), BO: (10.0, 4.0)})
    # The next write commits; nothing of the failed one may come with it.
    await repository.create_lobby("later", GUILD, CHANNEL, CY, {}, 300, seats_of([CY]))

    after = everything(db_path)
    after["games"] = [row for row in after["games"] if row[0] != "later"]
    after["seats"] = [row for row in after["seats"] if row[0] != "later"]
    assert after == before


async def test_the_repository_works_after_a_failed_record_finished(
    repository: Repository, integrity_error: type[Exception]
) -> None:
    await running_game(repository, "g1", [ANN, BO])
    await running_game(repository, "g2", [ANN, BO])
    await repository.record_finished("g1", GUILD, GOOD_GAME, None)
    with pytest.raises(integrity_error):
        await repository.record_finished("g1", GUILD, GOOD_GAME, None)

    await repository.record_finished("g2", GUILD, GOOD_GAME, None)

    stats = await repository.player_stats(GUILD, ANN)
    assert stats is not None
    assert stats.games == 2


async def test_a_read_beside_a_finished_game_being_stored_sees_all_of_it_or_none(repository: Repository) -> None:
    await running_game(repository, "g1", [ANN, BO])

    async def games() -> list[tuple[int, int]]:
        return [(s.user_id, s.games) for s in await repository.leaderboard(GUILD, Sort.WINS, 0, 10)]

    write = asyncio.ensure_future(repository.record_finished("g1", GUILD, GOOD_GAME, None))
    seen = await reads_beside(write, games)
    await write
    assert {tuple(board) for board in seen} <= {(), ((ANN, 1), (BO, 1))}
    assert seen[-1] == [(ANN, 1), (BO, 1)]


async def test_a_read_beside_a_write_that_fails_sees_none_of_it(
    repository: Repository, integrity_error: type[Exception]
) -> None:
    await running_game(repository, "g1", [ANN, BO])
    await running_game(repository, "g2", [ANN, BO])
    await repository.record_finished("g1", GUILD, GOOD_GAME, None)
    before = await repository.player_stats(GUILD, ANN)
    # The first seat's rows are written before the second seat's name is refused (see FAILING_RESULTS).
    game_id, seats = FAILING_RESULTS["a player without a name"]

    write = asyncio.ensure_future(repository.record_finished(game_id, GUILD, seats, None))
    seen = await reads_beside(write, lambda: repository.player_stats(GUILD, ANN))
    with pytest.raises(integrity_error):
        await write
    assert seen == [before] * len(seen)
    assert await repository.player_stats(GUILD, ANN) == before


# Lobby writes that fail after their first statement: the seat numbers repeat.
FAILING_LOBBY_WRITES: dict[str, Callable[[Repository], Awaitable[None]]] = {
    "create_lobby": lambda repository: repository.create_lobby(
        "g2", GUILD, CHANNEL, BO, {}, 300, [SeatRecord(0, BO, "Bo"), SeatRecord(0, CY, "Cy")]
    ),
    "update_lobby": lambda repository: repository.update_lobby(
        "g1", BO, [SeatRecord(0, BO, "Bo"), SeatRecord(0, CY, "Cy")]
    ),
}


@pytest.mark.parametrize("write", FAILING_LOBBY_WRITES.values(), ids=FAILING_LOBBY_WRITES.keys())
async def test_a_failed_lobby_write_changes_nothing(
    repository: Repository, integrity_error: type[Exception], write: Callable[[Repository], Awaitable[None]]
) -> None:
    await repository.create_lobby("g1", GUILD, CHANNEL, ANN, {}, 300, seats_of([ANN]))
    before = await repository.open_games()

    with pytest.raises(integrity_error):
        await write(repository)
    # The next write commits; nothing of the failed one may come with it.
    await repository.create_lobby("later", GUILD, CHANNEL, DI, {}, 300, seats_of([DI]))

    assert [game for game in await repository.open_games() if game.id != "later"] == before


@pytest.mark.parametrize(("guild", "user"), [(GUILD, DI), (OTHER_GUILD, ANN)], ids=["unknown player", "other server"])
async def test_a_player_without_games_has_no_stats_and_no_standing(
    repository: Repository, guild: int, user: int
) -> None:
    await running_game(repository, "g1", [ANN])
    await repository.record_finished("g1", GUILD, [final_seat(0, ANN, [(1, 0, 0, 20)])], {ANN: (30.0, 5.0)})

    assert await repository.player_stats(guild, user) is None
    assert [await repository.standing(guild, user, sort) for sort in Sort] == [None] * len(Sort)


# -- a person's choices ----------------------------------------------------------------------


async def test_turn_pings_are_kept_per_person_until_turned_off(repository: Repository) -> None:
    assert await repository.turn_pings([ANN, BO]) == set()
    await repository.set_turn_ping(ANN, True)
    await repository.set_turn_ping(ANN, True)  # a second click of an old message: still on, once
    await repository.set_turn_ping(CY, True)
    assert await repository.turn_pings([ANN, BO, CY]) == {ANN, CY}
    await repository.set_turn_ping(ANN, False)
    await repository.set_turn_ping(BO, False)  # off when it was never on: nothing to do
    assert await repository.turn_pings([ANN, BO, CY, DI]) == {CY}


# -- the leaderboard -------------------------------------------------------------------------

BOARD_GAMES = 3
ROUNDS_PER_GAME = 2


@dataclass(frozen=True)
class Figures:
    """What one player of the made-up leaderboard did, over `BOARD_GAMES` games."""

    user_id: int
    wins: int
    score: int  # in every game, so also the average
    exact: int  # of the BOARD_GAMES * ROUNDS_PER_GAME rounds
    rating: tuple[float, float] | None

    def value(self, sort: Sort) -> float | None:
        if sort is Sort.RATING:
            return None if self.rating is None else self.rating[0] - 3 * self.rating[1]
        if sort is Sort.WINS:
            return self.wins
        if sort is Sort.AVG_SCORE:
            return self.score
        return self.exact / (BOARD_GAMES * ROUNDS_PER_GAME)

    def seat(self, seat: int, game: int) -> FinalSeat:
        rounds = []
        for number in range(1, ROUNDS_PER_GAME + 1):
            exact = game * ROUNDS_PER_GAME + number - 1 < self.exact
            rounds.append((number, 1, 1 if exact else 2, self.score if number == 1 else 0))
        return final_seat(seat, self.user_id, rounds, won=game < self.wins)


# Many equal values on purpose, and every fifth player unrated.
PLAYERS = [
    Figures(
        1000 + i,
        wins=i % 4,
        score=10 * ((i * 7) % 5) - 10,
        exact=(i * 3) % 7,
        rating=None if i % 5 == 4 else (20.0 + i % 3, 2.0 + i % 2),
    )
    for i in range(24)
]
# Better at everything, on another server; some of them share user ids with PLAYERS.
ELSEWHERE = [Figures(1000 + i, wins=3, score=500, exact=6, rating=(50.0, 1.0)) for i in range(0, 30, 7)]


def expected_board(sort: Sort) -> list[tuple[int, int]]:
    """(rank, user id) in board order: by value, then user id; a rank is 1 + the number of better values."""
    values: dict[int, float] = {}
    for player in PLAYERS:
        value = player.value(sort)
        if value is not None:
            values[player.user_id] = value
    ordered = sorted(values, key=lambda user_id: (-values[user_id], user_id))
    return [(1 + sum(1 for other in values.values() if other > values[user_id]), user_id) for user_id in ordered]


async def record_board(repository: Repository, guild: int, players: list[Figures]) -> None:
    user_ids = [player.user_id for player in players]
    for game in range(BOARD_GAMES):
        game_id = f"board-{guild}-{game}"
        await running_game(repository, game_id, user_ids, guild=guild)
        rated = {player.user_id: player.rating for player in players if player.rating is not None}
        await repository.record_finished(
            game_id,
            guild,
            [player.seat(seat, game) for seat, player in enumerate(players)],
            rated if game == 0 else None,
        )


@pytest.fixture
async def board(repository: Repository) -> Repository:
    await record_board(repository, GUILD, PLAYERS)
    await record_board(repository, OTHER_GUILD, ELSEWHERE)
    return repository


@pytest.mark.parametrize("sort", list(Sort), ids=lambda sort: sort.value)
async def test_the_leaderboard_is_ordered_by_the_chosen_figure(board: Repository, sort: Sort) -> None:
    standings = await board.leaderboard(GUILD, sort, 0, 100)

    assert [(standing.rank, standing.user_id) for standing in standings] == expected_board(sort)


async def test_equal_values_share_a_rank_and_the_next_rank_counts_them(repository: Repository) -> None:
    scores = {ANN: 30, BO: 20, CY: 20, DI: 10}
    for number, (user, score) in enumerate(scores.items()):
        await running_game(repository, f"g{number}", [user])
        await repository.record_finished(f"g{number}", GUILD, [final_seat(0, user, [(1, 0, 0, score)])], None)

    standings = await repository.leaderboard(GUILD, Sort.AVG_SCORE, 0, 10)

    assert [(standing.rank, standing.user_id) for standing in standings] == [(1, ANN), (2, BO), (2, CY), (4, DI)]


async def test_a_standing_shows_the_players_figures(board: Repository) -> None:
    player = PLAYERS[7]
    assert player.rating is not None

    standings = await board.leaderboard(GUILD, Sort.WINS, 0, 100)

    [standing] = [standing for standing in standings if standing.user_id == player.user_id]
    assert standing == Standing(
        rank=standing.rank,
        user_id=player.user_id,
        name=f"Player {player.user_id}",
        games=BOARD_GAMES,
        wins=player.wins,
        avg_score=player.score,
        exact_rate=pytest.approx(player.exact / (BOARD_GAMES * ROUNDS_PER_GAME)),  # type: ignore[arg-type]
        rating=player.rating[0] - 3 * player.rating[1],
    )


@pytest.mark.parametrize("limit", [1, 7])
@pytest.mark.parametrize("sort", list(Sort), ids=lambda sort: sort.value)
async def test_the_pages_of_the_leaderboard_make_up_the_whole_board(board: Repository, sort: Sort, limit: int) -> None:
    pages = []
    offset = 0
    while page := await board.leaderboard(GUILD, sort, offset, limit):
        assert len(page) <= limit
        pages.extend(page)
        offset += limit

    assert pages == await board.leaderboard(GUILD, sort, 0, 100)
    assert len(pages) == len(expected_board(sort))


@pytest.mark.parametrize("position", [-1, -2, len(PLAYERS) // 2], ids=["last", "next to last", "middle"])
@pytest.mark.parametrize("sort", list(Sort), ids=lambda sort: sort.value)
async def test_a_players_standing_is_their_place_on_the_whole_board(
    board: Repository, sort: Sort, position: int
) -> None:
    board_order = expected_board(sort)
    rank, user_id = board_order[position]

    standing = await board.standing(GUILD, user_id, sort)

    assert standing is not None
    assert (standing.rank, standing.user_id) == (rank, user_id)
    assert standing == (await board.leaderboard(GUILD, sort, 0, 100))[position]


@pytest.mark.parametrize("sort", list(Sort), ids=lambda sort: sort.value)
async def test_ranked_players_counts_the_players_on_the_board(board: Repository, sort: Sort) -> None:
    assert await board.ranked_players(GUILD, sort) == len(expected_board(sort))
    assert await board.ranked_players(OTHER_GUILD, sort) == len(ELSEWHERE)


async def test_unrated_players_are_not_on_the_rating_board(board: Repository) -> None:
    unrated = [player.user_id for player in PLAYERS if player.rating is None]
    assert unrated

    rating_board = {standing.user_id for standing in await board.leaderboard(GUILD, Sort.RATING, 0, 100)}
    wins_board = {standing.user_id for standing in await board.leaderboard(GUILD, Sort.WINS, 0, 100)}

    assert rating_board.isdisjoint(unrated)
    assert set(unrated) <= wins_board
    assert [await board.standing(GUILD, user, Sort.RATING) for user in unrated] == [None] * len(unrated)
