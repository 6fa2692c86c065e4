"""What the bot stores, backend-neutral: the records, and `Repository`, the interface of every backend.

Two backends implement `Repository`: `bot.storage.sqlite` (aiosqlite, one file, the default) and
`bot.storage.postgres` (asyncpg, a server several bot processes share). `Repository.open` picks one
from where the database is: a path, or a ``postgresql://`` URL.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import ratings

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Where global slash commands are published, in `Repository.published_commands` (servers by their id).
GLOBALLY = 0


def is_postgres_url(target: Path | str) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class StorageError(Exception):
    """The database cannot be used as it is; the message says why and what to do."""


class StorageConflict(Exception):
    """Another process recorded this game's next action first: the copy in memory is behind."""


class SeasonOver(Exception):
    """The season a finished game was to count for has ended meanwhile: nothing was recorded."""


MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def migrations(dialect: str = "sqlite") -> list[tuple[int, str, str]]:
    """The migration files of a dialect as (number, name, SQL), in order: ``0001_initial.sql`` is number 1.

    SQLite's are in ``bot/migrations``, PostgreSQL's in ``bot/migrations/postgres``, under the same
    numbers and names: migration N makes the same change in both.
    """
    # Files beside the code (the bot runs from its clone): importlib.resources, which would also read
    # them from a zip, was a tenth of the bot's own import time.
    folder = MIGRATIONS_DIR if dialect == "sqlite" else MIGRATIONS_DIR / dialect
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number = int(entry.name.split("_", 1)[0])
            found.append((number, entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    if [number for number, _, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migration numbers must run 1, 2, 3… without gaps: {[name for _, name, _ in found]}")
    return found


# -- records -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    user_id: int
    name: str
    dm_channel_id: int | None = None
    hand_message_id: int | None = None
    hand_round: int | None = None
    dm_closed: bool = False
    computer: str | None = None  # the level of a computer player; None for a person
    missed: int = 0  # turns in a row that ran out of time
    away: bool = False  # the computer keeps the seat until the player is back
    ping_message_id: int | None = None  # the player's open turn ping, in the seat's DM channel
    ping_turn: str | None = None  # the turn that ping is for


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A lobby or a running game as stored: enough to rebuild it exactly after a restart."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str  # "lobby" or "running" for the ones restored
    seed: int | None
    options: dict[str, Any]
    turn_timer: float
    lobby_message_id: int | None
    table_message_id: int | None
    table_round: int | None
    turn_deadline: float | None
    updated_at: float
    seats: tuple[SeatRecord, ...]
    actions: tuple[tuple[int, dict[str, Any]], ...]  # (seat, action JSON) in order
    # What the channel has been shown: the score pads of this many rounds (None: a game from before
    # this was stored, taken as all shown), and the message that shows how the game ended (the
    # standings, or the closed table of a stopped game; None while owed).
    pads_shown: int | None = None
    final_message_id: int | None = None
    # Why a game ended before its last round ("stopped", "abandoned", "channel_gone", "server_gone");
    # None for one that did not, or that was stopped before this was stored.
    end_reason: str | None = None


@dataclass(frozen=True, slots=True)
class FinalSeat:
    """One player's result in a finished game."""

    seat: int
    user_id: int
    name: str
    score: int
    place: int
    won: bool
    rounds: tuple[tuple[int, int, int, int], ...]  # (round, bid, tricks, points)
    computer: bool = False  # computer players have results but no statistics


@dataclass(frozen=True, slots=True)
class GuildSettingsRecord:
    """A server's defaults for new games as stored; `bot.guild_settings.GuildSettings` gives them meaning."""

    options: dict[str, Any]  # the engine's Options as JSON
    turn_timer: float
    computer_level: str
    language: str | None  # None: the server's Discord locale
    channels: tuple[int, ...]  # where games may be started; empty: anywhere
    updated_at: float = 0.0  # set by the repository when saved


class Sort(enum.Enum):
    """What the leaderboard is ordered by."""

    RATING = "rating"
    WINS = "wins"
    AVG_SCORE = "avg_score"
    EXACT_RATE = "exact_rate"


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    name: str
    games: int
    wins: int
    avg_score: float
    exact_rate: float
    rating: float | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str
    games: int
    wins: int
    avg_score: float
    best_score: int | None
    rounds: int
    exact: int
    over: int
    under: int
    rating: float | None
    by_hand_size: tuple[tuple[int, int, int], ...]  # (hand size, rounds, exact)
    best_game: str | None = None  # the game of the best score
    streak: int = 0  # n > 0: the last n games won; n < 0: the last -n games not won


# -- seasons -------------------------------------------------------------------------------

SEASON_LENGTHS = ("none", "monthly", "quarterly")


@dataclass(frozen=True, slots=True)
class SeasonSettingsRecord:
    """How long a server's seasons last, and where their ends are announced."""

    length: str  # one of SEASON_LENGTHS
    channel_id: int | None


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a server. Times are seconds since the epoch on the game clock."""

    guild_id: int
    number: int  # 1, 2, 3 … on each server
    started_at: float
    ends_at: float | None  # when it is due to end; None: when an admin ends it
    ended_at: float | None  # None while it runs
    games: int = 0  # the games that finished in it
    channel_id: int | None = None  # where its end is announced (fixed when it ends)
    announced_id: int | None = None  # its announcement; None while owed or running, 0 when none is owed


@dataclass(frozen=True, slots=True)
class SeasonEntry:
    """What a finished game adds to a season: the season, and, for a game between people only (which
    counts for the season's ranking), everyone's season rating after it; None for other games."""

    number: int
    ratings: dict[int, tuple[float, float]] | None


@dataclass(frozen=True, slots=True)
class History:
    """A player's figures over a span: a season, or all time (every game they finished, computer
    players or not)."""

    games: int
    wins: int
    total_score: int
    rounds: int
    exact: int
    best_score: int | None
    best_game: str | None
    best_at: float | None  # when the best game finished
    streak: int  # n > 0: the last n games won; n < 0: the last -n games not won

    @property
    def avg_score(self) -> float:
        return self.total_score / self.games if self.games else 0.0

    @property
    def exact_rate(self) -> float:
        return self.exact / self.rounds if self.rounds else 0.0


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two people's games together on a server, from the first one's side."""

    user_id: int
    rival_id: int
    games: int
    ahead: int  # games the first finished above the second
    behind: int
    wins: int  # of those games, the ones the first won
    rival_wins: int
    points: int  # the first's points in them
    rival_points: int

    @property
    def level(self) -> int:
        """Games the two finished level (sharing a place)."""
        return self.games - self.ahead - self.behind


_STANDING_COLUMNS = "user_id, name, games, wins, avg_score, exact_rate, rating"


def _standing(rank: int, row: Any) -> Standing:
    return Standing(
        rank, row["user_id"], row["name"], row["games"], row["wins"], row["avg_score"], row["exact_rate"], row["rating"]
    )


def _page(rows: Sequence[Any], column: str, offset: int, first_rank: int) -> list[Standing]:
    """A leaderboard page from its rows (best first), the page's first row being at `offset` with
    rank `first_rank`: equal values share a rank, and the next value's rank counts everyone above."""
    standings: list[Standing] = []
    for index, row in enumerate(rows):
        if index == 0:
            rank = first_rank
        elif row[column] == rows[index - 1][column]:
            rank = standings[-1].rank  # a tie shares the rank
        else:
            rank = offset + index + 1
        standings.append(_standing(rank, row))
    return standings


class Repository(abc.ABC):
    """Typed access to the database, the same for every backend. Create with `await Repository.open(where)`.

    Each write is one transaction: `append_action` stores the action and the next deadline
    together, `record_finished` the result, the statistics and the last action together.
    """

    #: Which servers' games `open_games` returns (a process restores only the games of its
    #: shards); None: every server's.
    restore_filter: Callable[[int], bool] | None = None

    @classmethod
    async def open(cls, where: Path | str) -> Repository:
        """Open and migrate the database at `where`: a ``postgresql://`` URL or an SQLite file path.

        StorageError if it cannot be used. On a backend class, opens that backend.
        """
        if cls is not Repository:
            raise TypeError(f"{cls.__name__} must override open()")
        if is_postgres_url(where):
            from .postgres import PostgresRepository

            return await PostgresRepository.open(str(where))
        from .sqlite import SQLiteRepository

        return await SQLiteRepository.open(where)

    @abc.abstractmethod
    async def watch_games(self, heard: Callable[[str, int], None]) -> None:
        """Call `heard(game_id, count)` whenever any process records a game's `count`-th action, so
        that a process holding the game catches up."""

    def restores(self, guild_id: int) -> bool:
        """Whether `open_games` returns the games of this server."""
        return self.restore_filter is None or self.restore_filter(guild_id)

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    # -- lobbies and games ---------------------------------------------------------------

    @abc.abstractmethod
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
        """A new lobby; `runner` (a process and until when) holds it from this commit on."""

    @abc.abstractmethod
    async def update_lobby(self, game_id: str, host_id: int, seats: Sequence[SeatRecord]) -> None:
        """Store who is in a lobby now; this also restarts its idle clock."""

    @abc.abstractmethod
    async def update_lobby_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Store the house rules the host chose in the lobby; this also restarts its idle clock."""

    @abc.abstractmethod
    async def set_lobby_message(self, game_id: str, message_id: int) -> None: ...

    @abc.abstractmethod
    async def close_lobby(self, game_id: str) -> None: ...

    @abc.abstractmethod
    async def start_game(
        self, game_id: str, seed: int, turn_deadline: float | None = None, runner: tuple[str, float] | None = None
    ) -> None:
        """A lobby's game begins; `runner` (a process and until when) runs it from this commit on."""

    @abc.abstractmethod
    async def append_action(
        self, game_id: str, index: int, seat: int, action: dict[str, Any], turn_deadline: float | None = None
    ) -> None:
        """Record the `index`-th action of a game and when the next turn runs out, in one commit."""

    @abc.abstractmethod
    async def set_turn_deadline(self, game_id: str, turn_deadline: float | None) -> None: ...

    @abc.abstractmethod
    async def set_presence(self, game_id: str, seat: int, missed: int, away: bool) -> None:
        """Store how many turns in a row a player missed, and whether the computer keeps their seat."""

    @abc.abstractmethod
    async def set_table_message(self, game_id: str, message_id: int | None, round_number: int | None) -> None: ...

    @abc.abstractmethod
    async def set_hand_message(
        self, game_id: str, seat: int, channel_id: int | None, message_id: int | None, round_number: int | None
    ) -> None: ...

    @abc.abstractmethod
    async def set_ping_message(self, game_id: str, seat: int, message_id: int | None, turn: str | None) -> None:
        """Store a player's open turn ping (in the seat's DM channel) and the turn it is for; None: none."""

    @abc.abstractmethod
    async def set_dm_closed(self, game_id: str, seat: int) -> None: ...

    @abc.abstractmethod
    async def set_pads_shown(self, game_id: str, count: int) -> None:
        """Note that the score pads of a game's first `count` rounds are posted."""

    @abc.abstractmethod
    async def set_final_message(self, game_id: str, message_id: int) -> None:
        """Note that the message showing how a game ended (`message_id`) is shown."""

    @abc.abstractmethod
    async def stop_game(self, game_id: str, reason: str = "stopped") -> bool:
        """End a running game before its last round, for `reason` (see `GameRecord.end_reason`); False
        if it was not running any more (it ended meanwhile, in another process)."""

    # Which process runs each lobby and running game: its timers, computer players and messages (the
    # games' `runner` columns). A process holds its claims under a lease it renews; when it dies, its
    # lease runs out and another process adopts its lobbies and games, until the process of their
    # server takes them back.

    @abc.abstractmethod
    async def claim_games(
        self, runner: str, game_ids: Sequence[str], now: float, until: float, *, starting: bool = False
    ) -> set[str]:
        """Claim for `runner`, until `until`, these lobbies and games of its servers: those with no claim, or
        whose claim ran out by `now`, or `runner`'s own; returns their ids. A live claim of a process
        that adopted the game is asked back instead (its holder hands it over at its next beat:
        `hand_over`). A live claim of another process of the game's server is left to it — unless
        `runner` is `starting`: then that process is most likely the one it replaces (a restart
        after a crash, or a deploy), and the claim is taken (the other lets go at its next beat)."""

    @abc.abstractmethod
    async def renew_runs(self, runner: str, until: float) -> dict[str, bool]:
        """Extend `runner`'s claim on the lobbies and running games it runs to `until`; returns their ids, each
        with whether another process asked for it back (a game missing was taken over meanwhile)."""

    @abc.abstractmethod
    async def hand_over(self, runner: str, game_ids: Sequence[str], until: float) -> None:
        """Give these games of `runner` to the processes that asked for them back, claimed until `until`."""

    @abc.abstractmethod
    async def adopt_orphans(self, runner: str, now: float, until: float, limit: int) -> list[str]:
        """Claim for `runner`, until `until`, at most `limit` lobbies and running games whose runner's claim ran
        out by `now` (its process died) or that have none, as their adopter; returns their ids. Of
        two processes adopting at once, each game goes to one of them."""

    @abc.abstractmethod
    async def open_games(self) -> list[GameRecord]:
        """Every lobby and running game (of the servers `restores`), with seats and actions: what a restart
        restores; and every ended game whose ending (standings, or closed table) is still owed to its channel."""

    @abc.abstractmethod
    async def load_game(self, game_id: str) -> GameRecord | None:
        """One game in any state, finished ones included (for its record or a rematch)."""

    @abc.abstractmethod
    async def actions(self, game_id: str) -> list[tuple[int, dict[str, Any]]]: ...

    # -- finished games, statistics and ratings --------------------------------------------

    @abc.abstractmethod
    async def ratings(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        """The stored (mu, sigma) of those players who have a rating on this server."""

    @abc.abstractmethod
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
        """Store a finished game and fold it into the players' statistics, in one transaction.

        `last_action` (index, seat, action JSON), the action that ended the game, is recorded in
        the same transaction, so a game is never left with all its actions but no result. The
        game counts for `season` as well, which must still be running, else nothing is stored
        (SeasonOver). `finished_at`: when it finished, on the game clock (now if not given).
        """

    @abc.abstractmethod
    async def leaderboard(
        self, guild_id: int, sort: Sort, offset: int, limit: int, season: int | None = None
    ) -> list[Standing]:
        """One page of a server's leaderboard: all time, or a `season`'s ranking; equal values share a rank."""

    @abc.abstractmethod
    async def standing(self, guild_id: int, user_id: int, sort: Sort, season: int | None = None) -> Standing | None:
        """A player's own place on the leaderboard (all time, or a `season`'s), wherever it is."""

    @abc.abstractmethod
    async def ranked_players(self, guild_id: int, sort: Sort, season: int | None = None) -> int: ...

    @abc.abstractmethod
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None: ...

    @abc.abstractmethod
    async def history(self, guild_id: int, user_id: int, season: int | None = None) -> History | None:
        """A player's figures on a server in a `season`, or all time; None if they finished no game in it."""

    @abc.abstractmethod
    async def head_to_head(
        self, guild_id: int, user_id: int, rival_id: int, season: int | None = None
    ) -> HeadToHead | None:
        """Two people's games together in a `season`, or all time, from `user_id`'s side; None if none."""

    @abc.abstractmethod
    async def season_ratings(
        self, guild_id: int, season: int, user_ids: Sequence[int]
    ) -> dict[int, tuple[int, float, float]]:
        """Each player's latest season rating up to `season`, as (season, mu, sigma): this season's
        own if they have one, else their last earlier season's (to carry over); absent if neither."""

    # -- seasons -------------------------------------------------------------------------

    @abc.abstractmethod
    async def season_settings(self, guild_id: int) -> SeasonSettingsRecord | None:
        """A server's season length and announcement channel; None when it never set them."""

    @abc.abstractmethod
    async def save_season_settings(self, guild_id: int, settings: SeasonSettingsRecord) -> None: ...

    @abc.abstractmethod
    async def current_season(self, guild_id: int) -> SeasonRecord | None:
        """The season running on a server, if one is."""

    @abc.abstractmethod
    async def season(self, guild_id: int, number: int) -> SeasonRecord | None: ...

    @abc.abstractmethod
    async def last_season(self, guild_id: int) -> SeasonRecord | None:
        """A server's latest season, running or ended."""

    @abc.abstractmethod
    async def start_season(self, guild_id: int, number: int, started_at: float, ends_at: float | None) -> bool:
        """Begin season `number` of a server; False if it exists, or another season runs (another
        process began it first)."""

    @abc.abstractmethod
    async def end_season(
        self,
        guild_id: int,
        number: int,
        ended_at: float,
        channel_id: int | None,
        following: tuple[float, float | None] | None = None,
    ) -> bool:
        """End a running season, to be announced in `channel_id` (nothing is owed without a channel,
        or without a ranked game), and begin the `following` one (started, due to end) in the same
        transaction; False if it had ended already (another process ended it first)."""

    @abc.abstractmethod
    async def set_season_end(self, guild_id: int, number: int, ends_at: float | None) -> None:
        """Change when a running season is due to end (its server chose another length)."""

    @abc.abstractmethod
    async def due_seasons(self, now: float) -> list[SeasonRecord]:
        """The running seasons, of every server, due to end by `now`."""

    @abc.abstractmethod
    async def owed_announcements(self) -> list[tuple[int, int]]:
        """(server, season) of every ended season whose end is still to be announced."""

    @abc.abstractmethod
    async def claim_announcement(
        self, guild_id: int, number: int, runner: str, now: float, until: float
    ) -> SeasonRecord | None:
        """Claim the announcement of a season's end for `runner` until `until` (real time): the season,
        if it is still owed and no other process holds a claim on it that holds at `now` (`runner`'s
        own is renewed)."""

    @abc.abstractmethod
    async def set_announced(self, guild_id: int, number: int, message_id: int) -> None:
        """Note that a season's end is announced (`message_id`; 0: given up, nothing will be)."""

    # -- server settings -----------------------------------------------------------------

    @abc.abstractmethod
    async def turn_pings(self, user_ids: Sequence[int]) -> set[int]:
        """Of these people, those who asked for a DM when their move comes."""

    @abc.abstractmethod
    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        """Store whether a person wants a DM when their move comes."""

    @abc.abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettingsRecord | None:
        """A server's stored settings; None when it never changed any."""

    @abc.abstractmethod
    async def all_guild_settings(self) -> dict[int, GuildSettingsRecord]:
        """Every server's stored settings by server id: what start-up loads."""

    @abc.abstractmethod
    async def save_guild_settings(self, guild_id: int, settings: GuildSettingsRecord) -> None:
        """Store a server's settings in place of any it had (`updated_at` is set to now)."""

    # -- the coach's reviews -------------------------------------------------------------

    @abc.abstractmethod
    async def last_finished_game(self, guild_id: int, user_id: int) -> str | None:
        """The id of the game a person finished last on a server; None when they finished none there."""

    @abc.abstractmethod
    async def review(self, game_id: str, seat: int) -> dict[str, Any] | None:
        """The stored review (`bot.review.Review.to_json`) of a seat of a game; None until one is stored."""

    @abc.abstractmethod
    async def save_review(self, game_id: str, seat: int, review: dict[str, Any]) -> None:
        """Store the review of a seat of a game, in place of any stored before."""

    # -- the slash commands as published -------------------------------------------------

    @abc.abstractmethod
    def publishing_commands(self) -> AbstractAsyncContextManager[None]:
        """Held while a process compares its slash commands with those published, and publishes
        them: processes sharing the database do it one at a time, so one publishes a change."""

    @abc.abstractmethod
    async def published_commands(self, application_id: int) -> dict[int, str]:
        """The digest of what an application's commands were last published as, by place: a
        server's id, or `GLOBALLY` (0)."""

    @abc.abstractmethod
    async def save_published_commands(self, application_id: int, guild_id: int, digest: str | None) -> None:
        """Record what the commands were published as in a place; None: they were taken back from it."""


def exact_over_under(rounds: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int]:
    """How many of a player's rounds (round, bid, tricks, points) were bid exactly, over and under."""
    exact = sum(1 for _, bid, won, _ in rounds if bid == won)
    over = sum(1 for _, bid, won, _ in rounds if won > bid)
    under = sum(1 for _, bid, won, _ in rounds if won < bid)
    return exact, over, under


def stats_row(
    guild_id: int, seat: FinalSeat, new_ratings: dict[int, tuple[float, float]] | None, game_id: str
) -> tuple[Any, ...]:
    """What one finished game adds to a player's statistics, in the order of the backends' upsert:
    guild, user, name, wins, total score, best score, rounds, exact, over, under, mu, sigma, rating,
    best game, streak (this game's: 1 won, -1 not).

    The rating shown and sorted by is `ratings.shown`.
    """
    exact, over, under = exact_over_under(seat.rounds)
    mu, sigma = (new_ratings or {}).get(seat.user_id, (None, None))
    rating = None if mu is None or sigma is None else ratings.shown((mu, sigma))
    return (
        guild_id,
        seat.user_id,
        seat.name,
        int(seat.won),
        seat.score,
        seat.score,
        len(seat.rounds),
        exact,
        over,
        under,
        mu,
        sigma,
        rating,
        game_id,
        streak_after(0, seat.won),
    )


def season_rows(
    guild_id: int, season: SeasonEntry, seat: FinalSeat, game_id: str
) -> tuple[tuple[Any, ...], tuple[Any, ...] | None]:
    """What one finished game adds to a player's figures of a season, in the order of the backends'
    upserts: their own (every game), and the season's ranking (None unless the game counts for it)."""
    exact, _, _ = exact_over_under(seat.rounds)
    rounds = len(seat.rounds)
    own = (
        guild_id,
        season.number,
        seat.user_id,
        seat.name,
        int(seat.won),
        seat.score,
        seat.score,
        game_id,
        rounds,
        exact,
        streak_after(0, seat.won),
    )
    if season.ratings is None or seat.user_id not in season.ratings:
        return own, None
    mu, sigma = season.ratings[seat.user_id]
    ranked = (
        guild_id,
        season.number,
        seat.user_id,
        seat.name,
        int(seat.won),
        seat.score,
        rounds,
        exact,
        float(seat.score),
        exact / rounds if rounds else 0.0,
        mu,
        sigma,
        ratings.shown((mu, sigma)),
    )
    return own, ranked


def streak_after(streak: int, won: bool) -> int:
    """A player's streak after one more game (see `History.streak`)."""
    if won:
        return streak + 1 if streak > 0 else 1
    return streak - 1 if streak < 0 else -1


def rival_rows(guild_id: int, season: int, seats: Sequence[FinalSeat]) -> list[tuple[Any, ...]]:
    """What one finished game adds to head-to-head, in the order of the backends' upsert: one row for
    each pair of people in it, the lower user id first (season 0: all time)."""
    people = sorted((s for s in seats if not s.computer), key=lambda s: s.user_id)
    return [
        (
            guild_id,
            season,
            a.user_id,
            b.user_id,
            int(a.place < b.place),
            int(b.place < a.place),
            int(a.won),
            int(b.won),
            a.score,
            b.score,
        )
        for index, a in enumerate(people)
        for b in people[index + 1 :]
    ]


# -- migrations that SQL alone cannot make -------------------------------------------------

# Migration 0005 (both dialects) clears the stored ratings; in the same transaction each backend then
# reads the finished games with its own SQL and stores what `replayed_ratings` makes of them.
RATINGS_REPLAYED = 5


def replayed_ratings(results: Sequence[tuple[int, str, int, int, bool]]) -> list[tuple[float, float, float, int, int]]:
    """The ratings the finished games give, as the rows (mu, sigma, rating, guild, user) to store.

    `results` are (guild, game, user, place, computer) for every seat of every finished game, in
    the order the games finished. As when a game ends, only games between people are rated, each
    server on its own.
    """
    games: dict[tuple[int, str], list[tuple[int, int, bool]]] = {}
    for guild, game, user, place, computer in results:
        games.setdefault((guild, game), []).append((user, place, computer))
    by_guild: dict[int, list[tuple[list[int], list[int]]]] = {}
    for (guild, _), seats in games.items():
        if not any(computer for _, _, computer in seats):
            by_guild.setdefault(guild, []).append(([user for user, _, _ in seats], [place for _, place, _ in seats]))
    return [
        (mu, sigma, ratings.shown((mu, sigma)), guild, user)
        for guild, played in by_guild.items()
        for user, (mu, sigma) in ratings.replay(played).items()
    ]


# Migration 0010 (both dialects) adds each player's best game and current streak, and head-to-head;
# in the same transaction each backend fills them in from the finished games (`filled_history`).
HISTORY_FILLED = 10


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """A seat of a finished game, as migration 0010 reads them."""

    guild_id: int
    game_id: str
    user_id: int
    place: int
    won: bool
    score: int
    computer: bool


def filled_history(
    results: Sequence[FinishedSeat],
) -> tuple[list[tuple[str, int, int, int]], list[tuple[Any, ...]]]:
    """From every seat of every finished game, in the order the games finished: each person's best
    game and streak as the rows (best game, streak, guild, user) to store, and the all-time
    head-to-head rows (as `rival_rows` makes them, summed)."""
    best: dict[tuple[int, int], tuple[int, str]] = {}
    streaks: dict[tuple[int, int], int] = {}
    games: dict[tuple[int, str], list[FinalSeat]] = {}
    for seat in results:
        if seat.computer:
            continue
        key = (seat.guild_id, seat.user_id)
        if key not in best or seat.score > best[key][0]:
            best[key] = (seat.score, seat.game_id)
        streaks[key] = streak_after(streaks.get(key, 0), seat.won)
        games.setdefault((seat.guild_id, seat.game_id), []).append(
            FinalSeat(0, seat.user_id, "", seat.score, seat.place, seat.won, ())
        )
    pairs: dict[tuple[int, int, int, int], list[int]] = {}
    for (guild, _), seats in games.items():
        for row in rival_rows(guild, 0, seats):
            totals = pairs.setdefault(row[:4], [0] * 7)
            for index, value in enumerate((1, *row[4:])):
                totals[index] += value
    return (
        [(game, streaks[key], *key) for key, (_, game) in best.items()],
        [(*key, *totals) for key, totals in pairs.items()],
    )
