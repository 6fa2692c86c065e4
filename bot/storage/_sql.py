"""What the two SQL backends share: every statement written once, and the `Repository` methods built on them.

The statements are written in SQL that SQLite and PostgreSQL both read, with SQLite's ``?``
placeholders; `numbered` rewrites them once, at import, into PostgreSQL's ``$1, $2, …``.
`SQLRepository` implements every method whose SQL is the same on both, the rows written and the
records read back included; a backend supplies its connections and transactions (`_reading`,
`_writing`, `_statement`), and keeps what it does its own way: opening and migrating, hearing other
processes (LISTEN/NOTIFY), how two processes are kept apart, and the queries over a list of ids.
"""

from __future__ import annotations

import abc
import itertools
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Protocol

from .base import (
    _STANDING_COLUMNS,
    FinalSeat,
    FinishedSeat,
    GameRecord,
    GuildSettingsRecord,
    HeadToHead,
    History,
    PlayerStats,
    Repository,
    SeasonEntry,
    SeasonOver,
    SeasonRecord,
    SeasonSettingsRecord,
    SeatRecord,
    Sort,
    Standing,
    StorageConflict,
    _page,
    _standing,
    filled_history,
    replayed_ratings,
    rival_rows,
    season_rows,
    stats_row,
)


def _number(sql: str) -> str:
    """`sql` with PostgreSQL's placeholders: its ``?`` (outside quoted text) become ``$1``, ``$2``, … in order."""
    count = itertools.count(1)
    # Split at the quotes, the even pieces are outside quoted text.
    return "'".join(
        "".join(f"${next(count)}" if char == "?" else char for char in piece) if index % 2 == 0 else piece
        for index, piece in enumerate(sql.split("'"))
    )


def _by_sort(statement: Callable[[str], str]) -> Mapping[Sort, str]:
    """One statement for each leaderboard order, from the statement about its column."""
    return {sort: statement(sort.value) for sort in Sort}


def _ranked(column: str) -> str:
    """Who is on the leaderboard ordered by `column`: everyone, but for the rating those who have one."""
    return "guild_id = ?" + (" AND rating IS NOT NULL" if column == Sort.RATING.value else "")


# The lobbies and running games whose runner's claim ran out by a time (its process died), or that have
# none. `lock` ends the inner SELECT: how a backend keeps two adopting processes from taking the same game.
ADOPT_ORPHANS = (
    "UPDATE games SET runner = ?, runner_until = ?, runner_adopted = TRUE, runner_wanted = NULL"
    " WHERE id IN (SELECT id FROM games"
    " WHERE status IN ('lobby', 'running') AND (runner_until IS NULL OR runner_until < ?) LIMIT ?{lock}) RETURNING id"
)
# Lobbies are claimed as running games are: a process holds a lobby under the same lease.
# The statements about a list of game ids: `ids` is how a backend takes one list as one parameter
# ("id IN (SELECT value FROM json_each(?))" of a JSON text in SQLite, "id = ANY(?::text[])" in PostgreSQL).
# See `Repository.claim_games` and `Repository.hand_over`: which claims a process of the game's
# server takes, which it asks back from their adopter, and the handover.
CLAIM_GAMES = (
    "UPDATE games SET runner = ?, runner_until = ?, runner_adopted = FALSE, runner_wanted = NULL"
    " WHERE {ids} AND status IN ('lobby', 'running') AND (runner IS NULL OR runner = ? OR runner_until IS NULL"
    " OR runner_until < ? OR (? AND NOT runner_adopted)) RETURNING id"
)
ASK_BACK = (
    "UPDATE games SET runner_wanted = ?"
    " WHERE {ids} AND status IN ('lobby', 'running') AND runner_adopted AND runner <> ?"
)
HAND_OVER = (
    "UPDATE games SET runner = runner_wanted, runner_until = ?, runner_adopted = FALSE, runner_wanted = NULL"
    " WHERE {ids} AND runner = ? AND runner_wanted IS NOT NULL"
)
SQLITE_IDS = "id IN (SELECT value FROM json_each(?))"


# Parts of the upserts of a player's figures (see `add_player_stats`): the best score and its game,
# and the streak.
BEST = """best_score = CASE WHEN p.best_score IS NULL OR excluded.best_score > p.best_score
                              THEN excluded.best_score ELSE p.best_score END,
            best_game = CASE WHEN p.best_score IS NULL OR excluded.best_score > p.best_score
                             THEN excluded.best_game ELSE p.best_game END,"""
STREAK = """streak = CASE WHEN excluded.streak > 0 THEN CASE WHEN p.streak > 0 THEN p.streak + 1 ELSE 1 END
                          ELSE CASE WHEN p.streak < 0 THEN p.streak - 1 ELSE -1 END END"""


@dataclass(frozen=True)
class Statements:
    """The statements both backends run. As written here they have SQLite's ``?`` placeholders (`SQLITE`);
    `numbered` gives PostgreSQL's."""

    # -- lobbies and games
    create_lobby: str = (
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at, updated_at,"
        " runner, runner_until) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)"
    )
    update_lobby: str = "UPDATE games SET host_id = ?, updated_at = ? WHERE id = ?"
    delete_seats: str = "DELETE FROM seats WHERE game_id = ?"
    insert_seat: str = (
        "INSERT INTO seats (game_id, seat, user_id, name, dm_channel_id, hand_message_id, hand_round, dm_closed,"
        " computer, missed, away) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    update_lobby_options: str = "UPDATE games SET options = ?, updated_at = ? WHERE id = ?"
    set_lobby_message: str = "UPDATE games SET lobby_message_id = ? WHERE id = ?"
    close_lobby: str = "UPDATE games SET status = 'closed', updated_at = ? WHERE id = ?"
    start_game: str = (
        "UPDATE games SET status = 'running', seed = ?, turn_deadline = ?, pads_shown = 0, updated_at = ?,"
        " runner = ?, runner_until = ? WHERE id = ?"
    )
    insert_action: str = "INSERT INTO actions (game_id, idx, seat, action) VALUES (?, ?, ?, ?)"
    set_turn_deadline: str = "UPDATE games SET turn_deadline = ? WHERE id = ?"
    set_presence: str = "UPDATE seats SET missed = ?, away = ? WHERE game_id = ? AND seat = ?"
    set_table_message: str = "UPDATE games SET table_message_id = ?, table_round = ? WHERE id = ?"
    set_hand_message: str = (
        "UPDATE seats SET dm_channel_id = ?, hand_message_id = ?, hand_round = ? WHERE game_id = ? AND seat = ?"
    )
    set_ping_message: str = "UPDATE seats SET ping_message_id = ?, ping_turn = ? WHERE game_id = ? AND seat = ?"
    set_dm_closed: str = (
        "UPDATE seats SET dm_closed = TRUE, dm_channel_id = NULL, hand_message_id = NULL, hand_round = NULL"
        " WHERE game_id = ? AND seat = ?"
    )
    set_pads_shown: str = "UPDATE games SET pads_shown = ? WHERE id = ?"
    set_final_message: str = "UPDATE games SET final_message_id = ? WHERE id = ?"
    stop_game: str = (
        "UPDATE games SET status = 'stopped', end_reason = ?, finished_at = ? WHERE id = ? AND status = 'running'"
        " RETURNING id"
    )
    renew_runs: str = (
        "UPDATE games SET runner_until = ? WHERE runner = ? AND status IN ('lobby', 'running')"
        " RETURNING id, runner_wanted IS NOT NULL AS asked"
    )
    adopt_orphans: str = ADOPT_ORPHANS.format(lock="")
    claim_games: str = CLAIM_GAMES.format(ids=SQLITE_IDS)
    ask_back: str = ASK_BACK.format(ids=SQLITE_IDS)
    hand_over: str = HAND_OVER.format(ids=SQLITE_IDS)
    # What a restart restores, and the endings (standings, or closed table) still owed to a channel.
    open_games: str = (
        "SELECT * FROM games WHERE status IN ('lobby', 'running')"
        " OR (status IN ('finished', 'stopped') AND final_message_id IS NULL) ORDER BY created_at, id"
    )
    game: str = "SELECT * FROM games WHERE id = ?"
    seats: str = "SELECT * FROM seats WHERE game_id = ? ORDER BY seat"
    actions: str = "SELECT seat, action FROM actions WHERE game_id = ? ORDER BY idx"
    # -- finished games, statistics and ratings
    finish_game: str = "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?"
    insert_result: str = "INSERT INTO results (game_id, seat, user_id, score, place, won) VALUES (?, ?, ?, ?, ?, ?)"
    insert_round: str = (
        "INSERT INTO round_results (game_id, round, seat, bid, tricks, points) VALUES (?, ?, ?, ?, ?, ?)"
    )
    # The arguments are `stats_row`'s. "over" is quoted: PostgreSQL reserves the word. The best score
    # is the higher of the stored one (none before the first game) and this game's, with its game
    # (the first, on a tie); the streak grows while the games go the same way, and starts again at
    # 1 or -1 (this game's `streak`) when one goes the other way. Every expression of the SET reads
    # the row as it was.
    add_player_stats: str = f"""
        INSERT INTO player_stats AS p (guild_id, user_id, name, games, wins, total_score, best_score,
                                       rounds, exact, "over", under, mu, sigma, rating, best_game, streak)
        VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, user_id) DO UPDATE SET
            name = excluded.name,
            games = p.games + 1,
            wins = p.wins + excluded.wins,
            total_score = p.total_score + excluded.total_score,
            {BEST}
            rounds = p.rounds + excluded.rounds,
            exact = p.exact + excluded.exact,
            "over" = p."over" + excluded."over",
            under = p.under + excluded.under,
            mu = coalesce(excluded.mu, p.mu),
            sigma = coalesce(excluded.sigma, p.sigma),
            rating = coalesce(excluded.rating, p.rating),
            {STREAK}
        """
    update_averages: str = (
        "UPDATE player_stats SET avg_score = 1.0 * total_score / games,"
        " exact_rate = CASE WHEN rounds > 0 THEN 1.0 * exact / rounds ELSE 0 END"
        " WHERE guild_id = ? AND user_id = ?"
    )
    add_hand_size: str = """
        INSERT INTO player_hand_sizes AS h (guild_id, user_id, hand_size, rounds, exact) VALUES (?, ?, ?, 1, ?)
        ON CONFLICT (guild_id, user_id, hand_size) DO UPDATE SET rounds = h.rounds + 1, exact = h.exact + excluded.exact
        """
    # A season's figures: a player's own (`season_rows`' first row: every game), and the season's
    # ranking (its second: games between people only), with the season rating after the game.
    add_season_stats: str = f"""
        INSERT INTO season_stats AS p (guild_id, season, user_id, name, games, wins, total_score, best_score,
                                       best_game, rounds, exact, streak)
        VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, season, user_id) DO UPDATE SET
            name = excluded.name,
            games = p.games + 1,
            wins = p.wins + excluded.wins,
            total_score = p.total_score + excluded.total_score,
            {BEST}
            rounds = p.rounds + excluded.rounds,
            exact = p.exact + excluded.exact,
            {STREAK}
        """
    add_season_standing: str = """
        INSERT INTO season_standings AS p (guild_id, season, user_id, name, games, wins, total_score, rounds, exact,
                                           avg_score, exact_rate, mu, sigma, rating)
        VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, season, user_id) DO UPDATE SET
            name = excluded.name,
            games = p.games + 1,
            wins = p.wins + excluded.wins,
            total_score = p.total_score + excluded.total_score,
            rounds = p.rounds + excluded.rounds,
            exact = p.exact + excluded.exact,
            avg_score = 1.0 * (p.total_score + excluded.total_score) / (p.games + 1),
            exact_rate = CASE WHEN p.rounds + excluded.rounds > 0
                              THEN 1.0 * (p.exact + excluded.exact) / (p.rounds + excluded.rounds) ELSE 0 END,
            mu = excluded.mu,
            sigma = excluded.sigma,
            rating = excluded.rating
        """
    # The arguments are `rival_rows`'.
    add_rivals: str = """
        INSERT INTO rivals AS r (guild_id, season, user_a, user_b, games, a_ahead, b_ahead, a_wins, b_wins,
                                 a_points, b_points)
        VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id, season, user_a, user_b) DO UPDATE SET
            games = r.games + 1,
            a_ahead = r.a_ahead + excluded.a_ahead,
            b_ahead = r.b_ahead + excluded.b_ahead,
            a_wins = r.a_wins + excluded.a_wins,
            b_wins = r.b_wins + excluded.b_wins,
            a_points = r.a_points + excluded.a_points,
            b_points = r.b_points + excluded.b_points
        """
    # The game counts for a season only while it runs: no row, and the transaction is given up.
    count_in_season: str = (
        "UPDATE seasons SET games = games + 1 WHERE guild_id = ? AND number = ? AND ended_at IS NULL RETURNING number"
    )
    leaderboard: Mapping[Sort, str] = field(
        default_factory=lambda: _by_sort(
            lambda column: (
                f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE {_ranked(column)}"
                f" ORDER BY {column} DESC NULLS LAST, user_id LIMIT ? OFFSET ?"
            )
        )
    )
    # A value's rank: one more than the players with a better value.
    rank: Mapping[Sort, str] = field(
        default_factory=lambda: _by_sort(
            lambda column: f"SELECT 1 + count(*) FROM player_stats WHERE guild_id = ? AND {column} > ?"
        )
    )
    ranked_players: Mapping[Sort, str] = field(
        default_factory=lambda: _by_sort(lambda column: f"SELECT count(*) FROM player_stats WHERE {_ranked(column)}")
    )
    standing: str = f"SELECT {_STANDING_COLUMNS} FROM player_stats WHERE guild_id = ? AND user_id = ?"
    # The same for a season's ranking; everyone in it has a rating.
    season_leaderboard: Mapping[Sort, str] = field(
        default_factory=lambda: _by_sort(
            lambda column: (
                f"SELECT {_STANDING_COLUMNS} FROM season_standings WHERE guild_id = ? AND season = ?"
                f" ORDER BY {column} DESC, user_id LIMIT ? OFFSET ?"
            )
        )
    )
    season_rank: Mapping[Sort, str] = field(
        default_factory=lambda: _by_sort(
            lambda column: (
                f"SELECT 1 + count(*) FROM season_standings WHERE guild_id = ? AND season = ? AND {column} > ?"
            )
        )
    )
    season_ranked_players: str = "SELECT count(*) FROM season_standings WHERE guild_id = ? AND season = ?"
    season_standing: str = (
        f"SELECT {_STANDING_COLUMNS} FROM season_standings WHERE guild_id = ? AND season = ? AND user_id = ?"
    )
    player_stats: str = "SELECT * FROM player_stats WHERE guild_id = ? AND user_id = ?"
    history: str = (
        "SELECT p.*, g.finished_at AS best_at FROM player_stats p LEFT JOIN games g ON g.id = p.best_game"
        " WHERE p.guild_id = ? AND p.user_id = ?"
    )
    season_history: str = (
        "SELECT p.*, g.finished_at AS best_at FROM season_stats p LEFT JOIN games g ON g.id = p.best_game"
        " WHERE p.guild_id = ? AND p.season = ? AND p.user_id = ?"
    )
    rivals: str = "SELECT * FROM rivals WHERE guild_id = ? AND season = ? AND user_a = ? AND user_b = ?"
    # A player's latest season rating up to a season (their own of it, else the one to carry over).
    season_rating: str = (
        "SELECT season, mu, sigma FROM season_standings WHERE guild_id = ? AND user_id = ? AND season <= ?"
        " ORDER BY season DESC LIMIT 1"
    )
    hand_sizes: str = (
        "SELECT hand_size, rounds, exact FROM player_hand_sizes WHERE guild_id = ? AND user_id = ? ORDER BY hand_size"
    )
    # Migration 0005: every seat of every finished game, in the order the games finished.
    finished_seats: str = (
        "SELECT g.guild_id, g.id, r.user_id, r.place, s.computer IS NOT NULL AS computer FROM games g"
        " JOIN results r ON r.game_id = g.id JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
        " WHERE g.status = 'finished' ORDER BY g.finished_at, g.id, r.seat"
    )
    set_rating: str = "UPDATE player_stats SET mu = ?, sigma = ?, rating = ? WHERE guild_id = ? AND user_id = ?"
    # Migration 0010: every seat of every finished game, in the order the games finished.
    finished_results: str = (
        "SELECT g.guild_id, g.id, r.user_id, r.place, r.won, r.score, s.computer IS NOT NULL AS computer FROM games g"
        " JOIN results r ON r.game_id = g.id JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat"
        " WHERE g.status = 'finished' ORDER BY g.finished_at, g.id, r.seat"
    )
    set_best_and_streak: str = "UPDATE player_stats SET best_game = ?, streak = ? WHERE guild_id = ? AND user_id = ?"
    insert_rivals: str = (
        "INSERT INTO rivals (guild_id, season, user_a, user_b, games, a_ahead, b_ahead, a_wins, b_wins, a_points,"
        " b_points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    # -- seasons
    season_settings: str = "SELECT length, channel_id FROM season_settings WHERE guild_id = ?"
    save_season_settings: str = """
        INSERT INTO season_settings (guild_id, length, channel_id, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (guild_id) DO UPDATE SET
            length = excluded.length, channel_id = excluded.channel_id, updated_at = excluded.updated_at
        """
    current_season: str = "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL"
    season: str = "SELECT * FROM seasons WHERE guild_id = ? AND number = ?"
    last_season: str = "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1"
    # DO NOTHING: the season exists, or another one runs (the one-running index): another process
    # began it first.
    start_season: str = (
        "INSERT INTO seasons (guild_id, number, started_at, ends_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING RETURNING number"
    )
    # Nothing is owed (0) without a channel, or when nobody is ranked in the season.
    end_season: str = (
        "UPDATE seasons SET ended_at = ?, channel_id = ?, announced_id = CASE WHEN ? OR NOT EXISTS"
        " (SELECT 1 FROM season_standings WHERE guild_id = ? AND season = ?) THEN 0 END"
        " WHERE guild_id = ? AND number = ? AND ended_at IS NULL RETURNING number"
    )
    set_season_end: str = "UPDATE seasons SET ends_at = ? WHERE guild_id = ? AND number = ? AND ended_at IS NULL"
    due_seasons: str = "SELECT * FROM seasons WHERE ended_at IS NULL AND ends_at <= ? ORDER BY ends_at"
    owed_announcements: str = (
        "SELECT guild_id, number FROM seasons WHERE ended_at IS NOT NULL AND announced_id IS NULL"
        " ORDER BY guild_id, number"
    )
    claim_announcement: str = (
        "UPDATE seasons SET announcer = ?, announcer_until = ? WHERE guild_id = ? AND number = ?"
        " AND ended_at IS NOT NULL AND announced_id IS NULL"
        " AND (announcer_until IS NULL OR announcer_until < ? OR announcer = ?) RETURNING *"
    )
    set_announced: str = "UPDATE seasons SET announced_id = ? WHERE guild_id = ? AND number = ?"
    # -- a person's turn pings
    turn_ping: str = "SELECT user_id FROM turn_pings WHERE user_id = ?"
    turn_ping_on: str = (
        "INSERT INTO turn_pings (user_id, updated_at) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET updated_at = excluded.updated_at"
    )
    turn_ping_off: str = "DELETE FROM turn_pings WHERE user_id = ?"
    # -- server settings
    guild_settings: str = "SELECT * FROM guild_settings WHERE guild_id = ?"
    all_guild_settings: str = "SELECT * FROM guild_settings ORDER BY guild_id"
    save_guild_settings: str = """
        INSERT INTO guild_settings (guild_id, options, turn_timer, computer_level, language, channels, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (guild_id) DO UPDATE SET
            options = excluded.options,
            turn_timer = excluded.turn_timer,
            computer_level = excluded.computer_level,
            language = excluded.language,
            channels = excluded.channels,
            updated_at = excluded.updated_at
        """
    # -- the coach's reviews
    last_finished_game: str = (
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id"
        " WHERE s.user_id = ? AND s.computer IS NULL AND g.guild_id = ? AND g.status = 'finished'"
        " ORDER BY g.finished_at DESC, g.id DESC LIMIT 1"
    )
    review: str = "SELECT review FROM reviews WHERE game_id = ? AND seat = ?"
    save_review: str = (
        "INSERT INTO reviews (game_id, seat, review, created_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, seat) DO UPDATE SET review = excluded.review, created_at = excluded.created_at"
    )
    # -- the slash commands as published
    published_commands: str = "SELECT guild_id, digest FROM published_commands WHERE application_id = ?"
    save_published_commands: str = (
        "INSERT INTO published_commands (application_id, guild_id, digest, published_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (application_id, guild_id) DO UPDATE SET digest = excluded.digest,"
        " published_at = excluded.published_at"
    )
    forget_published_commands: str = "DELETE FROM published_commands WHERE application_id = ? AND guild_id = ?"


SQLITE = Statements()


def numbered(statements: Statements) -> Statements:
    """The same statements with PostgreSQL's placeholders (see `_number`)."""
    changes: dict[str, Any] = {}
    for statement in fields(statements):
        value = getattr(statements, statement.name)
        changes[statement.name] = (
            _number(value) if isinstance(value, str) else {key: _number(sql) for key, sql in value.items()}
        )
    return replace(statements, **changes)


class Session(Protocol):
    """A connection as the shared methods use it: asyncpg's calls, which the SQLite backend adapts.

    Rows are read by column name (``row["seat"]``) or position (``row[0]``).
    """

    async def execute(self, sql: str, *args: Any) -> Any: ...

    async def executemany(self, sql: str, args: Iterable[Sequence[Any]]) -> Any: ...

    async def fetch(self, sql: str, *args: Any) -> list[Any]: ...

    async def fetchrow(self, sql: str, *args: Any) -> Any: ...

    async def fetchval(self, sql: str, *args: Any) -> Any: ...


class SQLRepository(Repository):
    """A `Repository` on SQL: every method whose SQL both backends share, written once on `Session`s."""

    #: The backend's statements: `SQLITE`, or those with PostgreSQL's placeholders.
    SQL: ClassVar[Statements]

    @abc.abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Session]:
        """A connection to read with; the reads of one block see one connection."""

    @abc.abstractmethod
    def _writing(self) -> AbstractAsyncContextManager[Session]:
        """A connection in a transaction: it commits when the block ends, and rolls back if it raises."""

    @abc.abstractmethod
    def _statement(self) -> AbstractAsyncContextManager[Session]:
        """A connection for one statement that writes: it commits when the block ends."""

    @abc.abstractmethod
    def _id_list(self, ids: Sequence[str]) -> Any:
        """A list of game ids as the one parameter the backend's statements about a list take."""

    @abc.abstractmethod
    def _duplicate(self, error: Exception) -> bool:
        """Whether an error of a write is the primary key refusing a row stored before."""

    async def _write(self, sql: str, *args: Any) -> None:
        """Run one statement that writes; it commits on its own."""
        async with self._statement() as db:
            await db.execute(sql, *args)

    async def _recorded(self, db: Session, game_id: str, count: int) -> None:
        """Part of the transaction of a game's `count`-th action: tell the other processes, if there are any."""

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
        runner: tuple[str, float] | None = None,
    ) -> None:
        now = time.time()
        name, until = runner or (None, None)
        async with self._writing() as db:
            await db.execute(
                self.SQL.create_lobby,
                game_id,
                guild_id,
                channel_id,
                host_id,
                json.dumps(options),
                turn_timer,
                now,
                now,
                name,
                until,
            )
            await self._write_seats(db, game_id, seats)

    async def update_lobby(self, game_id: str, host_id: int, seats: Sequence[SeatRecord]) -> None:
        async with self._writing() as db:
            await db.execute(self.SQL.update_lobby, host_id, time.time(), game_id)
            await db.execute(self.SQL.delete_seats, game_id)
            await self._write_seats(db, game_id, seats)

    async def _write_seats(self, db: Session, game_id: str, seats: Iterable[SeatRecord]) -> None:
        await db.executemany(
            self.SQL.insert_seat,
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

    async def update_lobby_options(self, game_id: str, options: dict[str, Any]) -> None:
        await self._write(self.SQL.update_lobby_options, json.dumps(options), time.time(), game_id)

    async def set_lobby_message(self, game_id: str, message_id: int) -> None:
        await self._write(self.SQL.set_lobby_message, message_id, game_id)

    async def close_lobby(self, game_id: str) -> None:
        await self._write(self.SQL.close_lobby, time.time(), game_id)

    async def start_game(
        self, game_id: str, seed: int, turn_deadline: float | None = None, runner: tuple[str, float] | None = None
    ) -> None:
        name, until = runner or (None, None)
        await self._write(self.SQL.start_game, seed, turn_deadline, time.time(), name, until, game_id)

    async def append_action(
        self, game_id: str, index: int, seat: int, action: dict[str, Any], turn_deadline: float | None = None
    ) -> None:
        async with self._writing() as db:
            await self._insert_action(db, game_id, index, seat, action)
            await db.execute(self.SQL.set_turn_deadline, turn_deadline, game_id)

    async def _insert_action(self, db: Session, game_id: str, index: int, seat: int, action: dict[str, Any]) -> None:
        """Part of a transaction: the primary key refuses an index recorded before (StorageConflict)."""
        try:
            await db.execute(self.SQL.insert_action, game_id, index, seat, json.dumps(action))
        except Exception as error:
            if not self._duplicate(error):
                raise
            raise StorageConflict(f"game {game_id}: action {index} was recorded first elsewhere") from error
        await self._recorded(db, game_id, index + 1)

    async def set_turn_deadline(self, game_id: str, turn_deadline: float | None) -> None:
        await self._write(self.SQL.set_turn_deadline, turn_deadline, game_id)

    async def set_presence(self, game_id: str, seat: int, missed: int, away: bool) -> None:
        await self._write(self.SQL.set_presence, missed, bool(away), game_id, seat)

    async def set_table_message(self, game_id: str, message_id: int | None, round_number: int | None) -> None:
        await self._write(self.SQL.set_table_message, message_id, round_number, game_id)

    async def set_hand_message(
        self, game_id: str, seat: int, channel_id: int | None, message_id: int | None, round_number: int | None
    ) -> None:
        await self._write(self.SQL.set_hand_message, channel_id, message_id, round_number, game_id, seat)

    async def set_ping_message(self, game_id: str, seat: int, message_id: int | None, turn: str | None) -> None:
        await self._write(self.SQL.set_ping_message, message_id, turn, game_id, seat)

    async def set_dm_closed(self, game_id: str, seat: int) -> None:
        await self._write(self.SQL.set_dm_closed, game_id, seat)

    async def set_pads_shown(self, game_id: str, count: int) -> None:
        await self._write(self.SQL.set_pads_shown, count, game_id)

    async def set_final_message(self, game_id: str, message_id: int) -> None:
        await self._write(self.SQL.set_final_message, message_id, game_id)

    async def stop_game(self, game_id: str, reason: str = "stopped") -> bool:
        async with self._statement() as db:
            return bool(await db.fetch(self.SQL.stop_game, reason, time.time(), game_id))

    async def claim_games(
        self, runner: str, game_ids: Sequence[str], now: float, until: float, *, starting: bool = False
    ) -> set[str]:
        ids = self._id_list(game_ids)
        async with self._writing() as db:
            rows = await db.fetch(self.SQL.claim_games, runner, until, ids, runner, now, starting)
            await db.execute(self.SQL.ask_back, runner, ids, runner)
        return {row["id"] for row in rows}

    async def renew_runs(self, runner: str, until: float) -> dict[str, bool]:
        async with self._statement() as db:
            return {row["id"]: bool(row["asked"]) for row in await db.fetch(self.SQL.renew_runs, until, runner)}

    async def hand_over(self, runner: str, game_ids: Sequence[str], until: float) -> None:
        await self._write(self.SQL.hand_over, until, self._id_list(game_ids), runner)

    async def adopt_orphans(self, runner: str, now: float, until: float, limit: int) -> list[str]:
        # One statement; the backend's `adopt_orphans` statement keeps a second process out.
        async with self._statement() as db:
            return [row["id"] for row in await db.fetch(self.SQL.adopt_orphans, runner, until, now, limit)]

    async def open_games(self) -> list[GameRecord]:
        async with self._reading() as db:
            games = await db.fetch(self.SQL.open_games)
            return [await self._record(db, game) for game in games if self.restores(game["guild_id"])]

    async def load_game(self, game_id: str) -> GameRecord | None:
        async with self._reading() as db:
            game = await db.fetchrow(self.SQL.game, game_id)
            return None if game is None else await self._record(db, game)

    async def _record(self, db: Session, game: Any) -> GameRecord:
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
                row["ping_message_id"],
                row["ping_turn"],
            )
            for row in await db.fetch(self.SQL.seats, game["id"])
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
            end_reason=game["end_reason"],
        )

    async def actions(self, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        async with self._reading() as db:
            return await self._actions(db, game_id)

    async def _actions(self, db: Session, game_id: str) -> list[tuple[int, dict[str, Any]]]:
        return [(row["seat"], json.loads(row["action"])) for row in await db.fetch(self.SQL.actions, game_id)]

    # -- finished games, statistics and ratings --------------------------------------------

    async def record_finished(
        self,
        game_id: str,
        guild_id: int,
        seats: Sequence[FinalSeat],
        new_ratings: dict[int, tuple[float, float]] | None,
        last_action: tuple[int, int, dict[str, Any]] | None = None,
        season: SeasonEntry | None = None,
        finished_at: float | None = None,
    ) -> None:
        async with self._writing() as db:
            if season is not None and await db.fetchval(self.SQL.count_in_season, guild_id, season.number) is None:
                raise SeasonOver(f"server {guild_id}: season {season.number} has ended")
            if last_action is not None:
                await self._insert_action(db, game_id, *last_action)
            await db.execute(self.SQL.finish_game, time.time() if finished_at is None else finished_at, game_id)
            await db.executemany(
                self.SQL.insert_result, [(game_id, s.seat, s.user_id, s.score, s.place, bool(s.won)) for s in seats]
            )
            await db.executemany(
                self.SQL.insert_round,
                [(game_id, r, s.seat, bid, won, pts) for s in seats for r, bid, won, pts in s.rounds],
            )
            for s in seats:
                if s.computer:
                    continue
                await db.execute(self.SQL.add_player_stats, *stats_row(guild_id, s, new_ratings, game_id))
                await db.execute(self.SQL.update_averages, guild_id, s.user_id)
                await db.executemany(
                    self.SQL.add_hand_size, [(guild_id, s.user_id, r, int(bid == won)) for r, bid, won, _ in s.rounds]
                )
                if season is not None:
                    own, ranked = season_rows(guild_id, season, s, game_id)
                    await db.execute(self.SQL.add_season_stats, *own)
                    if ranked is not None:
                        await db.execute(self.SQL.add_season_standing, *ranked)
            spans = (0,) if season is None else (0, season.number)
            rows = [row for span in spans for row in rival_rows(guild_id, span, seats)]
            if rows:
                await db.executemany(self.SQL.add_rivals, rows)

    async def _replay_ratings(self, db: Session) -> None:
        """Store the ratings the finished games give (migration 0005 cleared them), in its transaction."""
        rows = await db.fetch(self.SQL.finished_seats)
        await db.executemany(
            self.SQL.set_rating, replayed_ratings([(row[0], row[1], row[2], row[3], bool(row[4])) for row in rows])
        )

    async def _fill_history(self, db: Session) -> None:
        """Fill in each player's best game and streak, and head-to-head, from the finished games
        (migration 0010 added them), in its transaction."""
        rows = await db.fetch(self.SQL.finished_results)
        best, rivals = filled_history(
            [FinishedSeat(row[0], row[1], row[2], row[3], bool(row[4]), row[5], bool(row[6])) for row in rows]
        )
        await db.executemany(self.SQL.set_best_and_streak, best)
        await db.executemany(self.SQL.insert_rivals, rivals)

    async def leaderboard(
        self, guild_id: int, sort: Sort, offset: int, limit: int, season: int | None = None
    ) -> list[Standing]:
        async with self._reading() as db:
            if season is None:
                rows = await db.fetch(self.SQL.leaderboard[sort], guild_id, limit, offset)
            else:
                rows = await db.fetch(self.SQL.season_leaderboard[sort], guild_id, season, limit, offset)
            if not rows:
                return []
            return _page(rows, sort.value, offset, await self._rank(db, guild_id, sort, rows[0][sort.value], season))

    async def _rank(self, db: Session, guild_id: int, sort: Sort, value: float, season: int | None = None) -> int:
        if season is None:
            count = await db.fetchval(self.SQL.rank[sort], guild_id, value)
        else:
            count = await db.fetchval(self.SQL.season_rank[sort], guild_id, season, value)
        return int(count) if count is not None else 1

    async def standing(self, guild_id: int, user_id: int, sort: Sort, season: int | None = None) -> Standing | None:
        async with self._reading() as db:
            if season is None:
                row = await db.fetchrow(self.SQL.standing, guild_id, user_id)
            else:
                row = await db.fetchrow(self.SQL.season_standing, guild_id, season, user_id)
            if row is None or row[sort.value] is None:
                return None
            return _standing(await self._rank(db, guild_id, sort, row[sort.value], season), row)

    async def ranked_players(self, guild_id: int, sort: Sort, season: int | None = None) -> int:
        async with self._reading() as db:
            if season is None:
                return int(await db.fetchval(self.SQL.ranked_players[sort], guild_id))
            return int(await db.fetchval(self.SQL.season_ranked_players, guild_id, season))

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        async with self._reading() as db:
            row = await db.fetchrow(self.SQL.player_stats, guild_id, user_id)
            if row is None:
                return None
            sizes = await db.fetch(self.SQL.hand_sizes, guild_id, user_id)
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
            best_game=row["best_game"],
            streak=row["streak"],
        )

    async def history(self, guild_id: int, user_id: int, season: int | None = None) -> History | None:
        async with self._reading() as db:
            if season is None:
                row = await db.fetchrow(self.SQL.history, guild_id, user_id)
            else:
                row = await db.fetchrow(self.SQL.season_history, guild_id, season, user_id)
        if row is None:
            return None
        return History(
            games=row["games"],
            wins=row["wins"],
            total_score=row["total_score"],
            rounds=row["rounds"],
            exact=row["exact"],
            best_score=row["best_score"],
            best_game=row["best_game"],
            best_at=row["best_at"],
            streak=row["streak"],
        )

    async def head_to_head(
        self, guild_id: int, user_id: int, rival_id: int, season: int | None = None
    ) -> HeadToHead | None:
        first, second = sorted((user_id, rival_id))
        async with self._reading() as db:
            row = await db.fetchrow(self.SQL.rivals, guild_id, season or 0, first, second)
        if row is None:
            return None
        a = (row["a_ahead"], row["a_wins"], row["a_points"])
        b = (row["b_ahead"], row["b_wins"], row["b_points"])
        mine, theirs = (a, b) if user_id == first else (b, a)
        return HeadToHead(user_id, rival_id, row["games"], mine[0], theirs[0], mine[1], theirs[1], mine[2], theirs[2])

    async def season_ratings(
        self, guild_id: int, season: int, user_ids: Sequence[int]
    ) -> dict[int, tuple[int, float, float]]:
        found = {}
        async with self._reading() as db:
            for user_id in user_ids:
                row = await db.fetchrow(self.SQL.season_rating, guild_id, user_id, season)
                if row is not None:
                    found[user_id] = (row["season"], row["mu"], row["sigma"])
        return found

    # -- seasons -------------------------------------------------------------------------

    async def season_settings(self, guild_id: int) -> SeasonSettingsRecord | None:
        async with self._reading() as db:
            row = await db.fetchrow(self.SQL.season_settings, guild_id)
        return None if row is None else SeasonSettingsRecord(row["length"], row["channel_id"])

    async def save_season_settings(self, guild_id: int, settings: SeasonSettingsRecord) -> None:
        await self._write(self.SQL.save_season_settings, guild_id, settings.length, settings.channel_id, time.time())

    async def current_season(self, guild_id: int) -> SeasonRecord | None:
        async with self._reading() as db:
            return _maybe_season(await db.fetchrow(self.SQL.current_season, guild_id))

    async def season(self, guild_id: int, number: int) -> SeasonRecord | None:
        async with self._reading() as db:
            return _maybe_season(await db.fetchrow(self.SQL.season, guild_id, number))

    async def last_season(self, guild_id: int) -> SeasonRecord | None:
        async with self._reading() as db:
            return _maybe_season(await db.fetchrow(self.SQL.last_season, guild_id))

    async def start_season(self, guild_id: int, number: int, started_at: float, ends_at: float | None) -> bool:
        async with self._statement() as db:
            return await db.fetchval(self.SQL.start_season, guild_id, number, started_at, ends_at) is not None

    async def end_season(
        self,
        guild_id: int,
        number: int,
        ended_at: float,
        channel_id: int | None,
        following: tuple[float, float | None] | None = None,
    ) -> bool:
        async with self._writing() as db:
            ended = await db.fetchval(
                self.SQL.end_season, ended_at, channel_id, channel_id is None, guild_id, number, guild_id, number
            )
            if ended is None:
                return False
            if following is not None:
                await db.fetchval(self.SQL.start_season, guild_id, number + 1, *following)
        return True

    async def set_season_end(self, guild_id: int, number: int, ends_at: float | None) -> None:
        await self._write(self.SQL.set_season_end, ends_at, guild_id, number)

    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        async with self._reading() as db:
            return [_season(row) for row in await db.fetch(self.SQL.due_seasons, now)]

    async def owed_announcements(self) -> list[tuple[int, int]]:
        async with self._reading() as db:
            return [(row["guild_id"], row["number"]) for row in await db.fetch(self.SQL.owed_announcements)]

    async def claim_announcement(
        self, guild_id: int, number: int, runner: str, now: float, until: float
    ) -> SeasonRecord | None:
        async with self._statement() as db:
            return _maybe_season(
                await db.fetchrow(self.SQL.claim_announcement, runner, until, guild_id, number, now, runner)
            )

    async def set_announced(self, guild_id: int, number: int, message_id: int) -> None:
        await self._write(self.SQL.set_announced, message_id, guild_id, number)

    # -- a person's turn pings ----------------------------------------------------------

    async def turn_pings(self, user_ids: Sequence[int]) -> set[int]:
        found = set()
        async with self._reading() as db:
            for user_id in user_ids:  # a game's people: a handful
                if await db.fetchrow(self.SQL.turn_ping, user_id) is not None:
                    found.add(user_id)
        return found

    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        if on:
            await self._write(self.SQL.turn_ping_on, user_id, time.time())
        else:
            await self._write(self.SQL.turn_ping_off, user_id)

    # -- server settings -----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        async with self._reading() as db:
            row = await db.fetchrow(self.SQL.guild_settings, guild_id)
        return None if row is None else _settings_record(row)

    async def all_guild_settings(self) -> dict[int, GuildSettingsRecord]:
        async with self._reading() as db:
            rows = await db.fetch(self.SQL.all_guild_settings)
        return {row["guild_id"]: _settings_record(row) for row in rows}

    async def save_guild_settings(self, guild_id: int, settings: GuildSettingsRecord) -> None:
        await self._write(
            self.SQL.save_guild_settings,
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
        async with self._reading() as db:
            game_id = await db.fetchval(self.SQL.last_finished_game, user_id, guild_id)
        return None if game_id is None else str(game_id)

    async def review(self, game_id: str, seat: int) -> dict[str, Any] | None:
        async with self._reading() as db:
            stored = await db.fetchval(self.SQL.review, game_id, seat)
        return None if stored is None else dict(json.loads(stored))

    async def save_review(self, game_id: str, seat: int, review: dict[str, Any]) -> None:
        await self._write(self.SQL.save_review, game_id, seat, json.dumps(review), time.time())

    # -- the slash commands as published -------------------------------------------------

    async def published_commands(self, application_id: int) -> dict[int, str]:
        async with self._reading() as db:
            rows = await db.fetch(self.SQL.published_commands, application_id)
        return {row["guild_id"]: row["digest"] for row in rows}

    async def save_published_commands(self, application_id: int, guild_id: int, digest: str | None) -> None:
        if digest is None:
            await self._write(self.SQL.forget_published_commands, application_id, guild_id)
        else:
            await self._write(self.SQL.save_published_commands, application_id, guild_id, digest, time.time())


def _season(row: Any) -> SeasonRecord:
    return SeasonRecord(
        guild_id=row["guild_id"],
        number=row["number"],
        started_at=row["started_at"],
        ends_at=row["ends_at"],
        ended_at=row["ended_at"],
        games=row["games"],
        channel_id=row["channel_id"],
        announced_id=row["announced_id"],
    )


def _maybe_season(row: Any) -> SeasonRecord | None:
    return None if row is None else _season(row)


def _settings_record(row: Any) -> GuildSettingsRecord:
    return GuildSettingsRecord(
        options=json.loads(row["options"]),
        turn_timer=row["turn_timer"],
        computer_level=row["computer_level"],
        language=row["language"],
        channels=tuple(int(channel) for channel in json.loads(row["channels"])),
        updated_at=row["updated_at"],
    )
