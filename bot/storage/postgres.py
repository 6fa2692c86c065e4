"""The PostgreSQL backend: the same repository on a server that several bot processes share.

An asyncpg connection pool; every write is one transaction, as in the SQLite backend. The
numbered migration files in `bot/migrations/postgres/` (the same numbers as SQLite's) are applied
in order, each in one transaction, and the schema version is kept in the ``schema_version`` table
(``PRAGMA user_version`` is SQLite's). An advisory lock lets two processes start at once: the
second waits for the first's migrations and then finds nothing left to do.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

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

POOL_SIZE = 5
# The channel on which each recorded action is announced to every process: "<game id>:<count>".
GAMES_CHANNEL = "wizard_games"
MIGRATION_LOCK = 0x57_49_5A_41  # "WIZA": the advisory lock held while migrating

_SEAT_COLUMNS = (
    "game_id, seat, user_id, name, dm_channel_id, hand_message_id, hand_round, dm_closed, computer, missed, away"
)


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}" if ":" in credentials else url


async def _replay_ratings(db: asyncpg.Connection) -> None:
    """Store the ratings the finished games give (migration 0005 cleared them), in its transaction."""
    rows = await db.fetch(
        "SELECT g.guild_id, g.id, r.user_id, r.place, s.computer IS NOT NULL AS computer FROM games g"
        " JOIN results r ON r.game_id = g.id JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
        " WHERE g.status = 'finished' ORDER BY g.finished_at, g.id, r.seat"
    )
    await db.executemany(
        "UPDATE player_stats SET mu = $1, sigma = $2, rating = $3 WHERE guild_id = $4 AND user_id = $5",
        replayed_ratings([(row[0], row[1], row[2], row[3], row[4]) for row in rows]),
    )


class PostgresRepository(Repository):
    """The PostgreSQL backend. Create with `await PostgresRepository.open(url)`."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        # The connection held for LISTEN and its callback, see `watch_games`.
        self._listener: tuple[Any, Callable[..., None]] | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresRepository:  # type: ignore[override]
        """Connect and migrate; StorageError if the server cannot be reached or the schema is newer."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"cannot connect to the PostgreSQL database {redact(url)}: {error}") from error
        repository = cls(pool)
        try:
            await repository._migrate(redact(url))
        except BaseException:
            await pool.close()
            raise
        return repository

    async def _migrate(self, where: str) -> None:
        known = migrations("postgres")
        async with self._pool.acquire() as db:
            for number, name, sql in known:
                async with db.transaction():
                    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    version = await db.fetchval("SELECT max(version) FROM schema_version") or 0
                    if version > len(known):
                        raise StorageError(
                            f"the database {where} is from a newer version of the bot (schema {version}, this one "
                            f"knows {len(known)}); update the bot"
                        )
                    if version >= number:
                        continue
                    log.info("applying migration %s", name)
                    try:
                        await db.execute(sql)
                        if number == RATINGS_REPLAYED:
                            await _replay_ratings(db)
                    except asyncpg.PostgresError as error:
                        raise StorageError(f"migration {name} failed: {error}") from error
                    await db.execute("DELETE FROM schema_version")
                    await db.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def close(self) -> None:
        if self._listener is not None:
            (listener, notified), self._listener = self._listener, None
            await listener.remove_listener(GAMES_CHANNEL, notified)
            await self._pool.release(listener)
        await self._pool.close()

    async def watch_games(self, heard: Callable[[str, int], None]) -> None:
        # Every action is recorded with a NOTIFY in the same transaction (`_insert_action`), which
        # PostgreSQL delivers to each listening connection when, and only if, the write commits.
        def notified(connection: object, pid: int, channel: str, payload: str) -> None:
            game_id, count = payload.rsplit(":", 1)
            heard(game_id, int(count))

        listener = await self._pool.acquire()
        await listener.add_listener(GAMES_CHANNEL, notified)
        self._listener = (listener, notified)

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))

    # -- lobbies and games ---------------------------------------------------------------

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
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at,"
                " updated_at) VALUES ($1, $2, $3, $4, 'lobby', $5, $6, $7, $8)",
                game_id,
                guild_id,
                channel_id,
                host_id,
                json.dumps(options),
                turn_timer,
                now,
                now,
            )
            await self._write_seats(db, game_id, seats)

    async def update_lobby(self, game_id: str, host_id: int, seats: Sequence[SeatRecord]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "UPDATE games SET host_id = $1, updated_at = $2 WHERE id = $3", host_id, time.time(), game_id
            )
            await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
            await self._write_seats(db, game_id, seats)

    async def update_lobby_options(self, game_id: str, options: dict[str, Any]) -> None:
        await self._pool.execute(
            "UPDATE games SET options = $1, updated_at = $2 WHERE id = $3", json.dumps(options), time.time(), game_id
        )

    @staticmethod
    async def _write_seats(db: asyncpg.Connection, game_id: str, seats: Sequence[SeatRecord]) -> None:
        await db.executemany(
            f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [
                (
                    game_id,
                    s.seat,
                    s.user_id,
                    s.name,
                    s.dm_channel_id,
                    s.hand_message_id,
                    s.hand_round,
                    bool(s.dm_closed),
                    s.computer,
                    s.missed,
                    bool(s.away),
                )
                for s in seats
            ],
        )

    async def set_lobby_message(self, game_id: str, message_id: int) -> None:
        await self._pool.execute("UPDATE games SET lobby_message_id = $1 WHERE id = $2", message_id, game_id)

    async def close_lobby(self, game_id: str) -> None:
        await self._pool.execute(
            "UPDATE games SET status = 'closed', updated_at = $1 WHERE id = $2", time.time(), game_id
        )

    async def start_game(
        self, game_id: str, seed: int, turn_deadline: float | None = None, runner: tuple[str, float] | None = None
    ) -> None:
        name, until = runner or (None, None)
        await self._pool.execute(
            "UPDATE games SET status = 'running', seed = $1, turn_deadline = $2, pads_shown = 0, updated_at = $3,"
            " runner = $4, runner_until = $5 WHERE id = $6",
            seed,
            turn_deadline,
            time.time(),
            name,
            until,
            game_id,
        )

    async def append_action(
        self, game_id: str, index: int, seat: int, action: dict[str, Any], turn_deadline: float | None = None
    ) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await _insert_action(db, game_id, index, seat, action)
            await db.execute("UPDATE games SET turn_deadline = $1 WHERE id = $2", turn_deadline, game_id)

    async def set_turn_deadline(self, game_id: str, turn_deadline: float | None) -> None:
        await self._pool.execute("UPDATE games SET turn_deadline = $1 WHERE id = $2", turn_deadline, game_id)

    async def set_presence(self, game_id: str, seat: int, missed: int, away: bool) -> None:
        await self._pool.execute(
            "UPDATE seats SET missed = $1, away = $2 WHERE game_id = $3 AND seat = $4",
            missed,
            bool(away),
            game_id,
            seat,
        )

    async def set_table_message(self, game_id: str, message_id: int | None, round_number: int | None) -> None:
        await self._pool.execute(
            "UPDATE games SET table_message_id = $1, table_round = $2 WHERE id = $3", message_id, round_number, game_id
        )

    async def set_hand_message(
        self, game_id: str, seat: int, channel_id: int | None, message_id: int | None, round_number: int | None
    ) -> None:
        await self._pool.execute(
            "UPDATE seats SET dm_channel_id = $1, hand_message_id = $2, hand_round = $3"
            " WHERE game_id = $4 AND seat = $5",
            channel_id,
            message_id,
            round_number,
            game_id,
            seat,
        )

    async def set_dm_closed(self, game_id: str, seat: int) -> None:
        await self._pool.execute(
            "UPDATE seats SET dm_closed = TRUE, dm_channel_id = NULL, hand_message_id = NULL, hand_round = NULL"
            " WHERE game_id = $1 AND seat = $2",
            game_id,
            seat,
        )

    async def set_pads_shown(self, game_id: str, count: int) -> None:
        await self._pool.execute("UPDATE games SET pads_shown = $1 WHERE id = $2", count, game_id)

    async def set_final_message(self, game_id: str, message_id: int) -> None:
        await self._pool.execute("UPDATE games SET final_message_id = $1 WHERE id = $2", message_id, game_id)

    async def stop_game(self, game_id: str) -> None:
        await self._pool.execute(
            "UPDATE games SET status = 'stopped', finished_at = $1 WHERE id = $2", time.time(), game_id
        )

    async def claim_games(self, runner: str, game_ids: Sequence[str], until: float) -> None:
        await self._pool.execute(
            "UPDATE games SET runner = $1, runner_until = $2 WHERE id = ANY($3::text[])", runner, until, list(game_ids)
        )

    async def renew_runs(self, runner: str, until: float) -> set[str]:
        rows = await self._pool.fetch(
            "UPDATE games SET runner_until = $1 WHERE runner = $2 AND status = 'running' RETURNING id", until, runner
        )
        return {row["id"] for row in rows}

    async def adopt_orphans(self, runner: str, now: float, until: float, limit: int) -> list[str]:
        # SKIP LOCKED: a game another process is adopting at this moment is left to it.
        rows = await self._pool.fetch(
            "UPDATE games SET runner = $1, runner_until = $2 WHERE id IN (SELECT id FROM games"
            " WHERE status = 'running' AND (runner_until IS NULL OR runner_until < $3)"
            " LIMIT $4 FOR UPDATE SKIP LOCKED) RETURNING id",
            runner,
            until,
            now,
            limit,
        )
        return [row["id"] for row in rows]

    async def open_games(self) -> list[GameRecord]:
        async with self._pool.acquire() as db:
            games = await db.fetch(
                "SELECT * FROM games WHERE status IN ('lobby', 'running')"
                " OR (status IN ('finished', 'stopped') AND final_message_id IS NULL) ORDER BY created_at, id"
            )
            return [await self._record(db, game) for game in games if self.restores(game["guild_id"])]

    async def load_game(self, game_id: str) -> GameRecord | None:
        async with self._pool.acquire() as db:
            game = await db.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
            return None if game is None else await self._record(db, game)

    async def _record(self, db: asyncpg.Connection, game: asyncpg.Record) -> GameRecord:
        rows = await db.fetch("SELECT * FROM seats WHERE game_id = $1 ORDER BY seat", game["id"])
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
            for row in rows
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
            actions=tuple(await self._actions(db, game["id"])),
            pads_shown=game["pads_shown"],
            final_message_id=game["final_message_id"],
        )

    async def actions(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        async with self._pool.acquire() as db:
            return await self._actions(db, game_id)

    @staticmethod
    async def _actions(db: asyncpg.Connection, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        rows = await db.fetch("SELECT seat, action FROM actions WHERE game_id = $1 ORDER BY idx", game_id)
        return [(row["seat"], json.loads(row["action"])) for row in rows]

    # -- finished games, statistics and ratings --------------------------------------------

    async def ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        rows = await self._pool.fetch(
            "SELECT user_id, mu, sigma FROM player_stats WHERE guild_id = $1 AND user_id = ANY($2::bigint[])"
            " AND mu IS NOT NULL",
            guild_id,
            list(user_ids),
        )
        return {row["user_id"]: (row["mu"], row["sigma"]) for row in rows}

    async def record_finished(
        self,
        game_id: str,
        guild_id: int,
        seats: Sequence[FinalSeat],
        new_ratings: dict[int, tuple[float, float]] | None,
        last_action: tuple[int, int, dict[str, Any]] | None = None,
    ) -> None:
        now = time.time()
        async with self._pool.acquire() as db, db.transaction():
            if last_action is not None:
                await _insert_action(db, game_id, *last_action)
            await db.execute("UPDATE games SET status = 'finished', finished_at = $1 WHERE id = $2", now, game_id)
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, score, place, won) VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, s.seat, s.user_id, s.score, s.place, bool(s.won)) for s in seats],
            )
            await db.executemany(
                "INSERT INTO round_results (game_id, round, seat, bid, tricks, points) VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, r, s.seat, bid, won, pts) for s in seats for r, bid, won, pts in s.rounds],
            )
            for s in seats:
                if s.computer:
                    continue
                await db.execute(
                    """
                    INSERT INTO player_stats AS p (guild_id, user_id, name, games, wins, total_score, best_score,
                                                   rounds, exact, "over", under, mu, sigma, rating)
                    VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                    ON CONFLICT (guild_id, user_id) DO UPDATE SET
                        name = excluded.name,
                        games = p.games + 1,
                        wins = p.wins + excluded.wins,
                        total_score = p.total_score + excluded.total_score,
                        best_score = greatest(coalesce(p.best_score, excluded.best_score), excluded.best_score),
                        rounds = p.rounds + excluded.rounds,
                        exact = p.exact + excluded.exact,
                        "over" = p."over" + excluded."over",
                        under = p.under + excluded.under,
                        mu = coalesce(excluded.mu, p.mu),
                        sigma = coalesce(excluded.sigma, p.sigma),
                        rating = coalesce(excluded.rating, p.rating)
                    """,
                    *stats_row(guild_id, s, new_ratings),
                )
                await db.execute(
                    "UPDATE player_stats SET avg_score = 1.0 * total_score / games,"
                    " exact_rate = CASE WHEN rounds > 0 THEN 1.0 * exact / rounds ELSE 0 END"
                    " WHERE guild_id = $1 AND user_id = $2",
                    guild_id,
                    s.user_id,
                )
                await db.executemany(
                    """
                    INSERT INTO player_hand_sizes AS h (guild_id, user_id, hand_size, rounds, exact)
                    VALUES ($1, $2, $3, 1, $4)
                    ON CONFLICT (guild_id, user_id, hand_size) DO UPDATE SET
                        rounds = h.rounds + 1, exact = h.exact + excluded.exact
                    """,
                    [(guild_id, s.user_id, r, int(bid == won)) for r, bid, won, _ in s.rounds],
                )

    async def leaderboard(self, guild_id: int, sort: Sort, offset: int, limit: int) -> list[Standing]:
        column = sort.value
        where = "guild_id = $1" + (" AND rating IS NOT NULL" if sort is Sort.RATING else "")
        async with self._pool.acquire() as db:
            rows = await db.fetch(
                f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE {where}"
                f" ORDER BY {column} DESC NULLS LAST, user_id LIMIT $2 OFFSET $3",
                guild_id,
                limit,
                offset,
            )
            if not rows:
                return []
            return _page(rows, column, offset, await self._rank(db, guild_id, sort, rows[0][column]))

    @staticmethod
    async def _rank(db: asyncpg.Connection, guild_id: int, sort: Sort, value: float) -> int:
        count = await db.fetchval(
            f"SELECT 1 + count(*) FROM player_stats WHERE guild_id = $1 AND {sort.value} > $2", guild_id, value
        )
        return int(count) if count is not None else 1

    async def standing(self, guild_id: int, user_id: int, sort: Sort) -> Standing | None:
        async with self._pool.acquire() as db:
            row = await db.fetchrow(
                f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            if row is None or row[sort.value] is None:
                return None
            return _standing(await self._rank(db, guild_id, sort, row[sort.value]), row)

    async def ranked_players(self, guild_id: int, sort: Sort) -> int:
        where = "guild_id = $1" + (" AND rating IS NOT NULL" if sort is Sort.RATING else "")
        return int(await self._pool.fetchval(f"SELECT count(*) FROM player_stats WHERE {where}", guild_id))

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        async with self._pool.acquire() as db:
            row = await db.fetchrow(
                "SELECT * FROM player_stats WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            if row is None:
                return None
            sizes = await db.fetch(
                "SELECT hand_size, rounds, exact FROM player_hand_sizes WHERE guild_id = $1 AND user_id = $2"
                " ORDER BY hand_size",
                guild_id,
                user_id,
            )
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
            by_hand_size=tuple((r["hand_size"], r["rounds"], r["exact"]) for r in sizes),
        )

    # -- server settings -----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        row = await self._pool.fetchrow("SELECT * FROM guild_settings WHERE guild_id = $1", guild_id)
        return None if row is None else _settings_record(row)

    async def all_guild_settings(self) -> dict[int, GuildSettingsRecord]:
        rows = await self._pool.fetch("SELECT * FROM guild_settings ORDER BY guild_id")
        return {row["guild_id"]: _settings_record(row) for row in rows}

    async def save_guild_settings(self, guild_id: int, settings: GuildSettingsRecord) -> None:
        await self._pool.execute(
            """
            INSERT INTO guild_settings (guild_id, options, turn_timer, computer_level, language, channels, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (guild_id) DO UPDATE SET
                options = excluded.options,
                turn_timer = excluded.turn_timer,
                computer_level = excluded.computer_level,
                language = excluded.language,
                channels = excluded.channels,
                updated_at = excluded.updated_at
            """,
            guild_id,
            json.dumps(settings.options),
            settings.turn_timer,
            settings.computer_level,
            settings.language,
            json.dumps(list(settings.channels)),
            time.time(),
        )

    # -- the coach's reviews -------------------------------------------------------------

    async def last_finished_game(self, guild_id: int, user_id: int) -> str | None:
        game_id = await self._pool.fetchval(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE s.user_id = $1 AND s.computer IS NULL AND g.guild_id = $2 AND g.status = 'finished'"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT 1",
            user_id,
            guild_id,
        )
        return None if game_id is None else str(game_id)

    async def review(self, game_id: str, seat: int) -> dict[str, Any] | None:
        stored = await self._pool.fetchval("SELECT review FROM reviews WHERE game_id = $1 AND seat = $2", game_id, seat)
        return None if stored is None else dict(json.loads(stored))

    async def save_review(self, game_id: str, seat: int, review: dict[str, Any]) -> None:
        await self._pool.execute(
            "INSERT INTO reviews (game_id, seat, review, created_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET review = excluded.review, created_at = excluded.created_at",
            game_id,
            seat,
            json.dumps(review),
            time.time(),
        )


def _settings_record(row: asyncpg.Record) -> GuildSettingsRecord:
    return GuildSettingsRecord(
        options=json.loads(row["options"]),
        turn_timer=row["turn_timer"],
        computer_level=row["computer_level"],
        language=row["language"],
        channels=tuple(int(channel) for channel in json.loads(row["channels"])),
        updated_at=row["updated_at"],
    )


async def _insert_action(db: Any, game_id: str, index: int, seat: int, action: dict[str, Any]) -> None:
    """Part of a transaction: the primary key refuses an index recorded before (StorageConflict)."""
    try:
        await db.execute(
            "INSERT INTO actions (game_id, idx, seat, action) VALUES ($1, $2, $3, $4)",
            game_id,
            index,
            seat,
            json.dumps(action),
        )
    except asyncpg.UniqueViolationError as error:
        raise StorageConflict(f"game {game_id}: action {index} was recorded first elsewhere") from error
    await db.execute("SELECT pg_notify($1, $2)", GAMES_CHANNEL, f"{game_id}:{index + 1}")
