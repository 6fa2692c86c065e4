"""How fast /leaderboard and /stats answer on a server with a million stored games, in seasons.

    nice -n 19 python bench/seasons.py [--games 1000000] [--players 20000] [--seasons 36] [--queries 2000]
                                       [--database-url postgresql://…]

Fills a fresh database (SQLite in a temporary folder; with --database-url a database of its own on
that PostgreSQL server, dropped at the end) with one server's finished 4-player games over monthly
seasons, the last one running: the games, their seats and results, and every running total the bot
keeps as a game ends (all time and per season: statistics, hand sizes, a season's ranking, best
game and streak, head-to-head). Players have clubs: most games are among a club's dozen members,
the rest among anyone. Ratings are drawn at random (the queries do not care how they were made).
The games' round results and actions, which neither command reads, are left out: a million games
would hold 60 million round rows and half a billion actions.

Then it times the repository's reads as the commands make them, over random players, sorts,
pages and seasons, and the storing of a finished game into these tables:

- /leaderboard (current season): the count of ranked players, its first page of 10, the viewer's own rank;
- /leaderboard season:N, and all_time:True: the same over a past season, and over all time;
- a page button: the same for a random page of one of them (the last pages read the most);
- /stats: the season running, the player's totals and hand sizes, their season's and all time's
  figures; /stats vs: head-to-head for the season and all time;
- a game's end: `record_finished` of a 4-player game between people, in the running season.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from a clone: the bot's own packages

from bot.storage import FinalSeat, Repository, SeasonEntry, Sort  # noqa: E402

GUILD = 1
PLAYERS_AT_A_TABLE = 4
ROUNDS = 15  # a 4-player game
CLUB = 12  # players in a club
IN_CLUB = 0.8  # the share of games played within a club
CHUNK = 50_000  # games generated and written at a time
SEASON_SECONDS = 30 * 86_400.0
START = 1_700_000_000.0

Row = tuple[Any, ...]


class Totals:
    """The running totals the bot keeps, summed over the games as they are generated."""

    def __init__(self) -> None:
        # (season or 0 for all time, user): games, wins, total, best, best game, rounds, exact, over, under, streak
        self.players: dict[tuple[int, int], list[Any]] = {}
        self.sizes: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])  # (user, size): rounds, exact
        # (season or 0, user a, user b): games, a ahead, b ahead, a wins, b wins, a points, b points
        self.rivals: dict[tuple[int, int, int], list[int]] = {}

    def add(self, season: int, game_id: str, seats: Sequence[tuple[int, int, int, bool, int, int, int]]) -> None:
        """One game's seats: (user, score, place, won, exact rounds, over rounds, under rounds)."""
        for span in (0, season):
            for user, score, _, won, exact, over, under in seats:
                totals = self.players.get((span, user))
                if totals is None:
                    totals = self.players[(span, user)] = [0, 0, 0, None, None, 0, 0, 0, 0, 0]
                totals[0] += 1
                totals[1] += won
                totals[2] += score
                if totals[3] is None or score > totals[3]:
                    totals[3], totals[4] = score, game_id
                totals[5] += ROUNDS
                totals[6] += exact
                totals[7] += over
                totals[8] += under
                streak = totals[9]
                totals[9] = (streak + 1 if streak > 0 else 1) if won else (streak - 1 if streak < 0 else -1)
            people = sorted(seats)
            for index, a in enumerate(people):
                for b in people[index + 1 :]:
                    pair = self.rivals.get((span, a[0], b[0]))
                    if pair is None:
                        pair = self.rivals[(span, a[0], b[0])] = [0] * 7
                    pair[0] += 1
                    pair[1] += a[2] < b[2]
                    pair[2] += b[2] < a[2]
                    pair[3] += a[3]
                    pair[4] += b[3]
                    pair[5] += a[1]
                    pair[6] += b[1]


def games(
    count: int, players: int, seasons: int, rng: random.Random, totals: Totals
) -> Iterator[tuple[list[Row], list[Row], list[Row], list[Row]]]:
    """The games in chunks, as rows of games, seats, results and hand sizes (hand sizes only at the end)."""
    clubs = [list(range(start, min(start + CLUB, players + 1))) for start in range(1, players + 1, CLUB)]
    per_season = count / seasons
    game_rows: list[Row] = []
    seat_rows: list[Row] = []
    result_rows: list[Row] = []
    for number in range(count):
        game_id = f"{number:08x}"
        season = min(seasons, 1 + int(number / per_season))
        finished = START + (season - 1) * SEASON_SECONDS + (number % per_season) / per_season * SEASON_SECONDS
        if rng.random() < IN_CLUB:
            club = rng.choice(clubs)
            seated = rng.sample(club, min(PLAYERS_AT_A_TABLE, len(club)))
        else:
            seated = rng.sample(range(1, players + 1), PLAYERS_AT_A_TABLE)
        while len(seated) < PLAYERS_AT_A_TABLE:  # a short last club
            extra = rng.randint(1, players)
            if extra not in seated:
                seated.append(extra)
        scores, bids = [], []
        for user in seated:
            exact = sum(rng.random() < 0.45 for _ in range(ROUNDS))
            over = (ROUNDS - exact) // 2
            scores.append(20 * exact + 10 * rng.randint(exact, 3 * exact + 5) - 10 * (ROUNDS - exact))
            bids.append((exact, over, ROUNDS - exact - over))
            for size in range(1, ROUNDS + 1):
                counted = totals.sizes[(user, size)]
                counted[0] += 1
                counted[1] += rng.random() < 0.45
        best = max(scores)
        seats = []
        for seat, user in enumerate(seated):
            place = 1 + sum(other > scores[seat] for other in scores)
            seats.append((user, scores[seat], place, scores[seat] == best, *bids[seat]))
            seat_rows.append((game_id, seat, user, f"player {user}", None))
            result_rows.append((game_id, seat, user, scores[seat], place, scores[seat] == best))
        totals.add(season, game_id, seats)
        game_rows.append(
            (game_id, GUILD, 10, seated[0], "finished", number, "{}", 300.0, finished, finished, finished, 0)
        )
        if len(game_rows) == CHUNK:
            yield game_rows, seat_rows, result_rows, []
            game_rows, seat_rows, result_rows = [], [], []
    yield (
        game_rows,
        seat_rows,
        result_rows,
        [(GUILD, user, size, n, exact) for (user, size), (n, exact) in totals.sizes.items()],
    )


def total_rows(totals: Totals, seasons: int, rng: random.Random) -> dict[str, tuple[list[str], list[Row]]]:
    """The running totals' tables: (columns, rows) by table."""
    player_stats, season_stats, standings = [], [], []
    for (span, user), (g, w, total, best, best_game, rounds, exact, over, under, streak) in totals.players.items():
        mu = 25 + rng.gauss(0, 5)
        sigma = max(1.0, 8.0 - g / 40)
        if span == 0:
            player_stats.append(
                (
                    GUILD,
                    user,
                    f"player {user}",
                    g,
                    w,
                    total,
                    best,
                    rounds,
                    exact,
                    over,
                    under,
                    mu,
                    sigma,
                    mu - 3 * sigma,
                    total / g,
                    exact / rounds,
                    best_game,
                    streak,
                )
            )
            continue
        season_stats.append((GUILD, span, user, f"player {user}", g, w, total, best, best_game, rounds, exact, streak))
        standings.append(
            (
                GUILD,
                span,
                user,
                f"player {user}",
                g,
                w,
                total,
                rounds,
                exact,
                total / g,
                exact / rounds,
                mu,
                sigma,
                mu - 3 * sigma,
            )
        )
    seasons_rows = [
        (
            GUILD,
            number,
            START + (number - 1) * SEASON_SECONDS,
            START + number * SEASON_SECONDS,
            None if number == seasons else START + number * SEASON_SECONDS,
            0,
            None,
            None if number == seasons else 0,
        )
        for number in range(1, seasons + 1)
    ]
    return {
        "player_stats": (
            [
                "guild_id",
                "user_id",
                "name",
                "games",
                "wins",
                "total_score",
                "best_score",
                "rounds",
                "exact",
                "over",
                "under",
                "mu",
                "sigma",
                "rating",
                "avg_score",
                "exact_rate",
                "best_game",
                "streak",
            ],
            player_stats,
        ),
        "season_stats": (
            [
                "guild_id",
                "season",
                "user_id",
                "name",
                "games",
                "wins",
                "total_score",
                "best_score",
                "best_game",
                "rounds",
                "exact",
                "streak",
            ],
            season_stats,
        ),
        "season_standings": (
            [
                "guild_id",
                "season",
                "user_id",
                "name",
                "games",
                "wins",
                "total_score",
                "rounds",
                "exact",
                "avg_score",
                "exact_rate",
                "mu",
                "sigma",
                "rating",
            ],
            standings,
        ),
        "rivals": (
            [
                "guild_id",
                "season",
                "user_a",
                "user_b",
                "games",
                "a_ahead",
                "b_ahead",
                "a_wins",
                "b_wins",
                "a_points",
                "b_points",
            ],
            [(GUILD, *key, *values) for key, values in totals.rivals.items()],
        ),
        "seasons": (
            ["guild_id", "number", "started_at", "ends_at", "ended_at", "games", "channel_id", "announced_id"],
            seasons_rows,
        ),
        "season_settings": (["guild_id", "length", "channel_id", "updated_at"], [(GUILD, "monthly", None, START)]),
    }


GAME_COLUMNS = [
    "id",
    "guild_id",
    "channel_id",
    "host_id",
    "status",
    "seed",
    "options",
    "turn_timer",
    "created_at",
    "updated_at",
    "finished_at",
    "final_message_id",
]
SEAT_COLUMNS = ["game_id", "seat", "user_id", "name", "computer"]
RESULT_COLUMNS = ["game_id", "seat", "user_id", "score", "place", "won"]
SIZE_COLUMNS = ["guild_id", "user_id", "hand_size", "rounds", "exact"]

Write = Callable[[str, list[str], list[Row]], Awaitable[None]]


async def fill(write: Write, count: int, players: int, seasons: int) -> None:
    rng = random.Random(1)
    totals = Totals()
    for game_rows, seat_rows, result_rows, size_rows in games(count, players, seasons, rng, totals):
        await write("games", GAME_COLUMNS, game_rows)
        await write("seats", SEAT_COLUMNS, seat_rows)
        await write("results", RESULT_COLUMNS, result_rows)
        if size_rows:
            await write("player_hand_sizes", SIZE_COLUMNS, size_rows)
    for table, (columns, rows) in total_rows(totals, seasons, rng).items():
        await write(table, columns, rows)


def sqlite_writer(path: Path) -> tuple[Write, Callable[[], None]]:
    db = sqlite3.connect(path)

    async def write(table: str, columns: list[str], rows: list[Row]) -> None:
        quoted = ", ".join(f'"{column}"' for column in columns)
        with db:
            db.executemany(f"INSERT INTO {table} ({quoted}) VALUES ({', '.join('?' * len(columns))})", rows)

    def done() -> None:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()

    return write, done


async def postgres_writer(url: str) -> tuple[Write, Callable[[], Awaitable[None]]]:
    import asyncpg

    connection = await asyncpg.connect(url)

    async def write(table: str, columns: list[str], rows: list[Row]) -> None:
        if rows:
            await connection.copy_records_to_table(table, records=rows, columns=columns)

    async def done() -> None:
        # What autovacuum does to a table that has grown: without it PostgreSQL would visit the table's
        # rows to count them (the visibility map is made by VACUUM), and plan without statistics.
        await connection.execute("VACUUM ANALYZE")
        await connection.close()

    return write, done


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p50 = statistics.median(samples)
    p95 = samples[int(0.95 * (len(samples) - 1))]
    return f"p50 {p50 * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms   max {samples[-1] * 1000:7.2f} ms"


async def measure(where: Path | str, players: int, seasons: int, queries: int, ends: int) -> None:
    repository = await Repository.open(where)
    rng = random.Random(2)
    timings: dict[str, list[float]] = defaultdict(list)

    async def leaderboard(season: int | None, *, page: int | None = 0) -> None:
        """The command's reads: ranked players, a page (None: a random one, as a page button asks), own rank."""
        sort = rng.choice(list(Sort))
        ranked = await repository.ranked_players(GUILD, sort, season)
        shown = rng.randrange(max(1, (ranked + 9) // 10)) if page is None else page
        await repository.leaderboard(GUILD, sort, shown * 10, 10, season)
        await repository.standing(GUILD, rng.randint(1, players), sort, season)

    for _ in range(queries):
        start = time.perf_counter()
        current = await repository.current_season(GUILD)
        assert current is not None
        await leaderboard(current.number)
        timings["/leaderboard (the current season)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        await leaderboard(rng.randint(1, seasons - 1))
        timings["/leaderboard season:N (a past season)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        await leaderboard(None)
        timings["/leaderboard all_time:True"].append(time.perf_counter() - start)
        start = time.perf_counter()
        await leaderboard(rng.choice([current.number, rng.randint(1, seasons - 1), None]), page=None)
        timings["a page button (a random page of one of them)"].append(time.perf_counter() - start)
        user, rival = rng.randint(1, players), rng.randint(1, players)
        if rng.random() < 0.5:  # half of them ask about someone of their club, who they mostly play
            rival = (user - 1) // CLUB * CLUB + 1 + rng.randrange(CLUB)
        start = time.perf_counter()
        current = await repository.current_season(GUILD)
        assert current is not None
        await repository.player_stats(GUILD, user)
        await repository.history(GUILD, user, current.number)
        await repository.history(GUILD, user)
        timings["/stats"].append(time.perf_counter() - start)
        start = time.perf_counter()
        current = await repository.current_season(GUILD)
        assert current is not None
        await repository.head_to_head(GUILD, user, rival, current.number)
        await repository.head_to_head(GUILD, user, rival)
        timings["/stats vs:"].append(time.perf_counter() - start)
    for index in range(ends):
        game_id = f"bench{index:06x}"
        seated = rng.sample(range(1, players + 1), PLAYERS_AT_A_TABLE)
        await repository.create_lobby(game_id, GUILD, 10, seated[0], {}, 300, [])
        await repository.start_game(game_id, index)
        current = await repository.current_season(GUILD)
        assert current is not None
        found = await repository.season_ratings(GUILD, current.number, seated)
        seats = [
            FinalSeat(
                seat,
                user,
                f"player {user}",
                10 * seat,
                PLAYERS_AT_A_TABLE - seat,
                seat == 3,
                tuple((r, 1, 1, 30) for r in range(1, ROUNDS + 1)),
            )
            for seat, user in enumerate(seated)
        ]
        season = SeasonEntry(current.number, {user: found.get(user, (0, 25.0, 8.3))[1:] for user in seated})
        start = time.perf_counter()
        await repository.record_finished(game_id, GUILD, seats, {user: (25.0, 8.0) for user in seated}, None, season)
        timings["a game's end stored (record_finished)"].append(time.perf_counter() - start)
    await repository.close()
    for name, samples in timings.items():
        print(f"{name:46} {percentiles(samples)}   ({len(samples)} times)")


async def run(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    if args.database_url:
        import asyncpg

        name = f"wizard_seasons_{os.getpid()}"
        base = str(args.database_url).partition("?")[0].rsplit("/", 1)[0]
        admin = await asyncpg.connect(args.database_url)
        await admin.execute(f'CREATE DATABASE "{name}"')
        url = f"{base}/{name}"
        try:
            await (await Repository.open(url)).close()
            write, done = await postgres_writer(url)
            await fill(write, args.games, args.players, args.seasons)
            await done()
            size = await admin.fetchval("SELECT pg_database_size($1)", name) / 1e6
            print(
                f"PostgreSQL: filled {args.games} games, {args.players} players, {args.seasons} seasons, "
                f"{size:.0f} MB in {time.perf_counter() - began:.0f} s"
            )
            await measure(url, args.players, args.seasons, args.queries, args.ends)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        await (await Repository.open(path)).close()
        sqlite_write, sqlite_done = sqlite_writer(path)
        await fill(sqlite_write, args.games, args.players, args.seasons)
        sqlite_done()
        size = path.stat().st_size / 1e6
        print(
            f"SQLite: filled {args.games} games, {args.players} players, {args.seasons} seasons, {size:.0f} MB "
            f"in {time.perf_counter() - began:.0f} s"
        )
        await measure(path, args.players, args.seasons, args.queries, args.ends)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=20_000, help="distinct players on the server")
    parser.add_argument("--seasons", type=int, default=36, help="monthly seasons, the last one running")
    parser.add_argument("--queries", type=int, default=2_000, help="of each command")
    parser.add_argument("--ends", type=int, default=200, help="finished games stored at the end")
    parser.add_argument("--database-url", help="a PostgreSQL server to make a database on (dropped at the end)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
