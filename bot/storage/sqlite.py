"""The SQLite backend: every read and write of the bot's SQLite database, and its migrations.

One aiosqlite connection, in WAL mode with foreign keys on; numbered migration files in
`bot/migrations/` are applied in order, each in one transaction, and the schema version is kept in
``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiosqlite

from .base import (
    _STANDING_COLUMNS,
    RATINGS_REPLAYED,
    FinalSeat,
    GameRecord,
    GuildSettingsRecord,
    PlayerStats,
    Repository,
    SeatRecord,
    Sort,
    Standing,
    StorageConflict,
    StorageError,
    _page,
    _standing,
    migrations,
    replayed_ratings,
    stats_row,
)

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


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _one_write_at_a_time(
    method: Callable[Concatenate[SQLiteRepository, _P], Coroutine[Any, Any, _T]],
) -> Callable[Concatenate[SQLiteRepository, _P], Coroutine[Any, Any, _T]]:
    """Run a write method under the repository's write lock (see `SQLiteRepository.__init__`)."""

    async def write(self: SQLiteRepository, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        async with self._writing:
            return await method(self, *args, **kwargs)

    write.__doc__ = method.__doc__
    return write


class SQLiteRepository(Repository):
    """The SQLite backend: one aiosqlite connection to one file. Create with `await SQLiteRepository.open(path)`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        # Held by each write from its first statement to its commit, and by close(): the bot may
        # stop while a click it already answered is still writing, and closing between that
        # write's statements would fail its commit.
        self._writing = asyncio.Lock()

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
            async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cursor:
                tables = {table for (table,) in await cursor.fetchall()}
        except sqlite3.DatabaseError as error:
            raise StorageError(_cause(path, error)) from error
        if check != ["ok"]:
            raise StorageError(f"the database {path} is damaged ({'; '.join(check[:3])}); restore it from a backup")
        version = row[0] if row else 0
        # Ours: marked so; or, from before the mark, holding our tables; or new and empty.
        if owner not in (0, APPLICATION_ID) or (owner == 0 and tables and "games" not in tables):
            raise StorageError(
                f"{path} is another program's SQLite database (tables: {', '.join(sorted(tables)) or 'none'}); "
                "set DATABASE_PATH to a file of its own"
            )
        known = migrations()
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
                    await self._replay_ratings()
                await db.execute(f"PRAGMA user_version = {number}")
                await db.commit()
            except sqlite3.Error as error:
                await db.rollback()
                if getattr(error, "sqlite_errorname", "").startswith(
                    ("SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR")
                ):
                    raise StorageError(_cause(path, error)) from error
                raise StorageError(f"migration {name} failed: {error}") from error

    async def _replay_ratings(self) -> None:
        """Store the ratings the finished games give (migration 0005 cleared them), in its transaction."""
        async with self._db.execute(
            "SELECT g.guild_id, g.id, r.user_id, r.place, s.computer IS NOT NULL FROM games g"
            " JOIN results r ON r.game_id = g.id JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
            " WHERE g.status = 'finished' ORDER BY g.finished_at, g.id, r.seat"
        ) as cursor:
            rows = [(row[0], row[1], row[2], row[3], bool(row[4])) for row in await cursor.fetchall()]
        await self._db.executemany(
            "UPDATE player_stats SET mu = ?, sigma = ?, rating = ? WHERE guild_id = ? AND user_id = ?",
            replayed_ratings(rows),
        )

    async def watch_games(self, heard: Callable[[str, int], None]) -> None:
        """Nothing to hear: the file has one process, which made every change itself."""

    async def close(self) -> None:
        async with self._writing:
            await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # -- lobbies and games ---------------------------------------------------------------

    @_one_write_at_a_time
    async def create_lobby(
        self,
        game_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        options: dict[str, Any],
        turn_timer: float,
        seats: Sequence[SeatRecord],
    ) -> None:
        now = time.time()
        await self._db.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
            (game_id, guild_id, channel_id, host_id, json.dumps(options), turn_timer, now, now),
        )
        await self._write_seats(game_id, seats)
        await self._db.commit()

    @_one_write_at_a_time
    async def update_lobby(self, game_id: str, host_id: int, seats: Sequence[SeatRecord]) -> None:
        """Store who is in a lobby now; this also restarts its idle clock."""
        await self._db.execute(
            "UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?", (host_id, time.time(), game_id)
        )
        await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._write_seats(game_id, seats)
        await self._db.commit()

    @_one_write_at_a_time
    async def update_lobby_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Store the house rules the host chose in the lobby; this also restarts its idle clock."""
        await self._db.execute(
            "UPDATE games SET options = ?, updated_at = ? WHERE id = ?", (json.dumps(options), time.time(), game_id)
        )
        await self._db.commit()

    async def _write_seats(self, game_id: str, seats: Iterable[SeatRecord]) -> None:
        await self._db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, dm_channel_id, hand_message_id, hand_round, dm_closed,"
            " computer, missed, away) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    s.seat,
                    s.user_id,
                    s.name,
                    s.dm_channel_id,
                    s.hand_message_id,
                    s.hand_round,
                    s.dm_closed,
                    s.computer,
                    s.missed,
                    s.away,
                )
                for s in seats
            ],
        )

    @_one_write_at_a_time
    async def set_lobby_message(self, game_id: str, message_id: int) -> None:
        await self._db.execute("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))
        await self._db.commit()

    @_one_write_at_a_time
    async def close_lobby(self, game_id: str) -> None:
        await self._db.execute(
            "UPDATE games SET status = 'closed', updated_at = ? WHERE id = ?", (time.time(), game_id)
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def start_game(
        self, game_id: str, seed: int, turn_deadline: float | None = None, runner: tuple[str, float] | None = None
    ) -> None:
        name, until = runner or (None, None)
        await self._db.execute(
            "UPDATE games SET status = 'running', seed = ?, turn_deadline = ?, pads_shown = 0, updated_at = ?,"
            " runner = ?, runner_until = ? WHERE id = ?",
            (seed, turn_deadline, time.time(), name, until, game_id),
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def append_action(
        self, game_id: str, index: int, seat: int, action: dict[str, Any], turn_deadline: float | None = None
    ) -> None:
        """Record the `index`-th action of a game and when the next turn runs out, in one commit."""
        try:
            await self._insert_action(game_id, index, seat, action)
            await self._db.execute("UPDATE games SET turn_deadline = ? WHERE id = ?", (turn_deadline, game_id))
            await self._db.commit()
        except BaseException:
            await self._db.rollback()
            raise

    async def _insert_action(self, game_id: str, index: int, seat: int, action: dict[str, Any]) -> None:
        """Part of a write: the primary key refuses an index recorded before (StorageConflict)."""
        try:
            await self._db.execute(
                "INSERT INTO actions (game_id, idx, seat, action) VALUES (?, ?, ?, ?)",
                (game_id, index, seat, json.dumps(action)),
            )
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error):
                raise
            raise StorageConflict(f"game {game_id}: action {index} was recorded first elsewhere") from error

    @_one_write_at_a_time
    async def set_turn_deadline(self, game_id: str, turn_deadline: float | None) -> None:
        await self._db.execute("UPDATE games SET turn_deadline = ? WHERE id = ?", (turn_deadline, game_id))
        await self._db.commit()

    @_one_write_at_a_time
    async def set_presence(self, game_id: str, seat: int, missed: int, away: bool) -> None:
        """Store how many turns in a row a player missed, and whether the computer keeps their seat."""
        await self._db.execute(
            "UPDATE seats SET missed = ?, away = ? WHERE game_id = ? AND seat = ?", (missed, away, game_id, seat)
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def set_table_message(self, game_id: str, message_id: int | None, round_number: int | None) -> None:
        await self._db.execute(
            "UPDATE games SET table_message_id = ?, table_round = ? WHERE id = ?", (message_id, round_number, game_id)
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def set_hand_message(
        self, game_id: str, seat: int, channel_id: int | None, message_id: int | None, round_number: int | None
    ) -> None:
        await self._db.execute(
            "UPDATE seats SET dm_channel_id = ?, hand_message_id = ?, hand_round = ? WHERE game_id = ? AND seat = ?",
            (channel_id, message_id, round_number, game_id, seat),
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def set_dm_closed(self, game_id: str, seat: int) -> None:
        await self._db.execute(
            "UPDATE seats SET dm_closed = 1, dm_channel_id = NULL, hand_message_id = NULL, hand_round = NULL"
            " WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def set_pads_shown(self, game_id: str, count: int) -> None:
        await self._db.execute("UPDATE games SET pads_shown = ? WHERE id = ?", (count, game_id))
        await self._db.commit()

    @_one_write_at_a_time
    async def set_final_message(self, game_id: str, message_id: int) -> None:
        await self._db.execute("UPDATE games SET final_message_id = ? WHERE id = ?", (message_id, game_id))
        await self._db.commit()

    @_one_write_at_a_time
    async def stop_game(self, game_id: str) -> None:
        await self._db.execute(
            "UPDATE games SET status = 'stopped', finished_at = ? WHERE id = ?", (time.time(), game_id)
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def claim_games(self, runner: str, game_ids: Sequence[str], until: float) -> None:
        await self._db.executemany(
            "UPDATE games SET runner = ?, runner_until = ? WHERE id = ?", [(runner, until, id_) for id_ in game_ids]
        )
        await self._db.commit()

    @_one_write_at_a_time
    async def renew_runs(self, runner: str, until: float) -> set[str]:
        async with self._db.execute(
            "UPDATE games SET runner_until = ? WHERE runner = ? AND status = 'running' RETURNING id", (until, runner)
        ) as cursor:
            renewed = {row[0] for row in await cursor.fetchall()}
        await self._db.commit()
        return renewed

    @_one_write_at_a_time
    async def adopt_orphans(self, runner: str, now: float, until: float, limit: int) -> list[str]:
        # One statement: SQLite's write lock keeps a second process out until it commits.
        async with self._db.execute(
            "UPDATE games SET runner = ?, runner_until = ? WHERE id IN (SELECT id FROM games"
            " WHERE status = 'running' AND (runner_until IS NULL OR runner_until < ?) LIMIT ?) RETURNING id",
            (runner, until, now, limit),
        ) as cursor:
            adopted = [row[0] for row in await cursor.fetchall()]
        await self._db.commit()
        return adopted

    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game, with its seats and actions: what a restart restores."""
        async with self._db.execute(
            "SELECT * FROM games WHERE status IN ('lobby', 'running')"
            " OR (status IN ('finished', 'stopped') AND final_message_id IS NULL) ORDER BY created_at"
        ) as cursor:
            games = await cursor.fetchall()
        return [await self._record(game) for game in games if self.restores(game["guild_id"])]

    async def load_game(self, game_id: str) -> GameRecord | None:
        """One game in any state, finished ones included (for its record or a rematch)."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            game = await cursor.fetchone()
        return None if game is None else await self._record(game)

    async def _record(self, game: sqlite3.Row) -> GameRecord:
        db = self._db
        async with db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game["id"],)) as cursor:
            seats = tuple(
                SeatRecord(
                    row["seat"],
                    row["user_id"],
                    row["name"],
                    row["dm_channel_id"],
                    row["hand_message_id"],
                    row["hand_round"],
                    bool(row["dm_closed"]),
                    row["computer"],
                    row["missed"],
                    bool(row["away"]),
                )
                for row in await cursor.fetchall()
            )
        return GameRecord(
            id=game["id"],
            guild_id=game["guild_id"],
            channel_id=game["channel_id"],
            host_id=game["host_id"],
            status=game["status"],
            seed=game["seed"],
            options=json.loads(game["options"]),
            turn_timer=game["turn_timer"],
            lobby_message_id=game["lobby_message_id"],
            table_message_id=game["table_message_id"],
            table_round=game["table_round"],
            turn_deadline=game["turn_deadline"],
            updated_at=game["updated_at"],
            seats=seats,
            actions=tuple(await self.actions(game["id"])),
            pads_shown=game["pads_shown"],
            final_message_id=game["final_message_id"],
        )

    async def actions(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        async with self._db.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY idx", (game_id,)
        ) as cur:
            return [(row["seat"], json.loads(row["action"])) for row in await cur.fetchall()]

    # -- finished games, statistics and ratings --------------------------------------------

    async def ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        """The stored (mu, sigma) of those players who have a rating on this server."""
        marks = ",".join("?" * len(user_ids))
        async with self._db.execute(
            f"SELECT user_id, mu, sigma FROM player_stats WHERE guild_id = ? AND user_id IN ({marks})"
            " AND mu IS NOT NULL",
            (guild_id, *user_ids),
        ) as cursor:
            return {row["user_id"]: (row["mu"], row["sigma"]) for row in await cursor.fetchall()}

    @_one_write_at_a_time
    async def record_finished(
        self,
        game_id: str,
        guild_id: int,
        seats: Sequence[FinalSeat],
        new_ratings: dict[int, tuple[float, float]] | None,
        last_action: tuple[int, int, dict[str, Any]] | None = None,
    ) -> None:
        """Store a finished game and fold it into the players' statistics, in one transaction.

        `last_action` (index, seat, action JSON), the action that ended the game, is recorded in
        the same transaction, so a game is never left with all its actions but no result.
        """
        db = self._db
        now = time.time()
        try:
            if last_action is not None:
                await self._insert_action(game_id, *last_action)
            await db.execute("UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?", (now, game_id))
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, score, place, won) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.score, s.place, s.won) for s in seats],
            )
            await db.executemany(
                "INSERT INTO round_results (game_id, round, seat, bid, tricks, points) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, r, s.seat, bid, won, pts) for s in seats for r, bid, won, pts in s.rounds],
            )
            for s in seats:
                if s.computer:
                    continue
                await db.execute(
                    """
                    INSERT INTO player_stats (guild_id, user_id, name, games, wins, total_score, best_score,
                                              rounds, exact, over, under, mu, sigma, rating)
                    VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (guild_id, user_id) DO UPDATE SET
                        name = excluded.name,
                        games = games + 1,
                        wins = wins + excluded.wins,
                        total_score = total_score + excluded.total_score,
                        best_score = max(coalesce(best_score, excluded.best_score), excluded.best_score),
                        rounds = rounds + excluded.rounds,
                        exact = exact + excluded.exact,
                        over = over + excluded.over,
                        under = under + excluded.under,
                        mu = coalesce(excluded.mu, mu),
                        sigma = coalesce(excluded.sigma, sigma),
                        rating = coalesce(excluded.rating, rating)
                    """,
                    stats_row(guild_id, s, new_ratings),
                )
                await db.execute(
                    "UPDATE player_stats SET avg_score = 1.0 * total_score / games,"
                    " exact_rate = CASE WHEN rounds > 0 THEN 1.0 * exact / rounds ELSE 0 END"
                    " WHERE guild_id = ? AND user_id = ?",
                    (guild_id, s.user_id),
                )
                await db.executemany(
                    """
                    INSERT INTO player_hand_sizes (guild_id, user_id, hand_size, rounds, exact) VALUES (?, ?, ?, 1, ?)
                    ON CONFLICT (guild_id, user_id, hand_size) DO UPDATE SET
                        rounds = rounds + 1, exact = exact + excluded.exact
                    """,
                    [(guild_id, s.user_id, r, int(bid == won)) for r, bid, won, _ in s.rounds],
                )
            await db.commit()
        except BaseException:
            await db.rollback()
            raise

    async def leaderboard(self, guild_id: int, sort: Sort, offset: int, limit: int) -> list[Standing]:
        """One page of a server's leaderboard; equal values share a rank."""
        column = sort.value
        where = "guild_id = ?" + (" AND rating IS NOT NULL" if sort is Sort.RATING else "")
        async with self._db.execute(
            f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE {where}"
            f" ORDER BY {column} DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        ) as cursor:
            rows = list(await cursor.fetchall())
        if not rows:
            return []
        return _page(rows, column, offset, await self._rank(guild_id, sort, rows[0][column]))

    async def _rank(self, guild_id: int, sort: Sort, value: float) -> int:
        async with self._db.execute(
            f"SELECT 1 + count(*) FROM player_stats WHERE guild_id = ? AND {sort.value} > ?", (guild_id, value)
        ) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 1

    async def standing(self, guild_id: int, user_id: int, sort: Sort) -> Standing | None:
        """A player's own place on the leaderboard, wherever it is."""
        async with self._db.execute(
            f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None or row[sort.value] is None:
            return None
        return _standing(await self._rank(guild_id, sort, row[sort.value]), row)

    async def ranked_players(self, guild_id: int, sort: Sort) -> int:
        where = "guild_id = ?" + (" AND rating IS NOT NULL" if sort is Sort.RATING else "")
        async with self._db.execute(f"SELECT count(*) FROM player_stats WHERE {where}", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        db = self._db
        async with db.execute(
            "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with db.execute(
            "SELECT hand_size, rounds, exact FROM player_hand_sizes WHERE guild_id = ? AND user_id = ?"
            " ORDER BY hand_size",
            (guild_id, user_id),
        ) as cursor:
            sizes = tuple((r["hand_size"], r["rounds"], r["exact"]) for r in await cursor.fetchall())
        return PlayerStats(
            user_id=user_id,
            name=row["name"],
            games=row["games"],
            wins=row["wins"],
            avg_score=row["avg_score"],
            best_score=row["best_score"],
            rounds=row["rounds"],
            exact=row["exact"],
            over=row["over"],
            under=row["under"],
            rating=row["rating"],
            by_hand_size=sizes,
        )

    # -- server settings -----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        """A server's stored settings; None when it never changed any."""
        async with self._db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else self._settings_record(row)

    async def all_guild_settings(self) -> dict[int, GuildSettingsRecord]:
        """Every server's stored settings by server id: what start-up loads."""
        async with self._db.execute("SELECT * FROM guild_settings ORDER BY guild_id") as cursor:
            return {row["guild_id"]: self._settings_record(row) for row in await cursor.fetchall()}

    @_one_write_at_a_time
    async def save_guild_settings(self, guild_id: int, settings: GuildSettingsRecord) -> None:
        """Store a server's settings in place of any it had (`updated_at` is set to now)."""
        await self._db.execute(
            """
            INSERT INTO guild_settings (guild_id, options, turn_timer, computer_level, language, channels, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (guild_id) DO UPDATE SET
                options = excluded.options,
                turn_timer = excluded.turn_timer,
                computer_level = excluded.computer_level,
                language = excluded.language,
                channels = excluded.channels,
                updated_at = excluded.updated_at
            """,
            (
                guild_id,
                json.dumps(settings.options),
                settings.turn_timer,
                settings.computer_level,
                settings.language,
                json.dumps(list(settings.channels)),
                time.time(),
            ),
        )
        await self._db.commit()

    @staticmethod
    def _settings_record(row: sqlite3.Row) -> GuildSettingsRecord:
        return GuildSettingsRecord(
            options=json.loads(row["options"]),
            turn_timer=row["turn_timer"],
            computer_level=row["computer_level"],
            language=row["language"],
            channels=tuple(int(channel) for channel in json.loads(row["channels"])),
            updated_at=row["updated_at"],
        )

    # -- the coach's reviews -------------------------------------------------------------

    async def last_finished_game(self, guild_id: int, user_id: int) -> str | None:
        """The id of the game a person finished last on a server; None when they finished none there."""
        async with self._db.execute(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = ? AND s.computer IS NULL AND g.guild_id = ? AND g.status = 'finished'"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT 1",
            (user_id, guild_id),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else str(row[0])

    async def review(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review of a seat of a game; None until one is stored."""
        async with self._db.execute(
            "SELECT review FROM reviews WHERE game_id = ? AND seat = ?", (game_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else dict(json.loads(row[0]))

    @_one_write_at_a_time
    async def save_review(self, game_id: str, seat: int, review: dict[str, Any]) -> None:
        """Store the review of a seat of a game, in place of any stored before."""
        await self._db.execute(
            "INSERT INTO reviews (game_id, seat, review, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET review = excluded.review, created_at = excluded.created_at",
            (game_id, seat, json.dumps(review), time.time()),
        )
        await self._db.commit()
