"""How fast /leaderboard and /stats answer on a large server.

    python bench/storage.py [--games 100000] [--players 5000] [--queries 2000]

Fills a fresh database (in a temporary folder) with finished 4-player games on one server —
results, per-round bids and tricks, and the per-player totals the bot keeps — then times the
repository's leaderboard, own-rank and statistics queries over random players and pages.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

# Run as `python bench/<name>.py` from a clone: the bot is imported from the clone, not installed.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage import Repository, Sort  # noqa: E402

GUILD = 1


def fill(path: Path, games: int, players: int, seed: int = 1) -> None:
    """Write `games` random finished games straight into the schema the repository created."""
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, -(10**9), 0, 0, 0, 0])
    sizes: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
    game_rows, result_rows, round_rows = [], [], []
    for number in range(games):
        game_id = f"{number:08x}"
        seated = rng.sample(range(1, players + 1), 4)
        scores = []
        for seat, user in enumerate(seated):
            score = 0
            for round_number in range(1, 16):
                bid = rng.randint(0, min(round_number, 4))
                took = max(0, min(round_number, bid + rng.choice((-1, 0, 0, 0, 1))))
                points = 20 + 10 * took if bid == took else -10 * abs(bid - took)
                score += points
                round_rows.append((game_id, round_number, seat, bid, took, points))
                stats = totals[user]
                stats[4] += 1
                stats[5] += bid == took
                stats[6] += took > bid
                stats[7] += took < bid
                size = sizes[(user, round_number)]
                size[0] += 1
                size[1] += bid == took
            scores.append(score)
        best = max(scores)
        for seat, user in enumerate(seated):
            place = 1 + sum(1 for other in scores if other > scores[seat])
            result_rows.append((game_id, seat, user, scores[seat], place, scores[seat] == best))
            stats = totals[user]
            stats[0] += 1
            stats[1] += scores[seat] == best
            stats[2] += scores[seat]
            stats[3] = max(stats[3], scores[seat])
        game_rows.append((game_id, GUILD, 10, seated[0], "finished", number, "{}", 300, 0.0, 0.0, 0.0))
    with db:
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, seed, options, turn_timer,"
            " created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_rows,
        )
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)", result_rows)
        db.executemany("INSERT INTO round_results VALUES (?, ?, ?, ?, ?, ?)", round_rows)
        db.executemany(
            "INSERT INTO player_stats (guild_id, user_id, name, games, wins, total_score, best_score, rounds, exact,"
            " over, under, mu, sigma, rating, avg_score, exact_rate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?)",
            [
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
                    8.0 - g / 1000,
                    mu - 3 * (8.0 - g / 1000),
                    total / g,
                    exact / rounds,
                )
                for user, (g, w, total, best, rounds, exact, over, under) in totals.items()
                for mu in (25 + rng.gauss(0, 5),)
            ],
        )
        db.executemany(
            "INSERT INTO player_hand_sizes VALUES (?, ?, ?, ?, ?)",
            [(GUILD, user, size, n, exact) for (user, size), (n, exact) in sizes.items()],
        )
    db.close()


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    p50 = statistics.median(samples)
    p95 = samples[int(0.95 * (len(samples) - 1))]
    return f"p50 {p50 * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   max {samples[-1] * 1000:6.2f} ms"


async def measure(path: Path, players: int, queries: int) -> None:
    repository = await Repository.open(path)
    rng = random.Random(2)
    ranked = await repository.ranked_players(GUILD, Sort.RATING)
    pages = (ranked + 9) // 10
    timings: dict[str, list[float]] = defaultdict(list)
    for _ in range(queries):
        sort = rng.choice(list(Sort))
        user = rng.randint(1, players)
        start = time.perf_counter()
        await repository.ranked_players(GUILD, sort)
        await repository.leaderboard(GUILD, sort, rng.randrange(pages) * 10, 10)
        await repository.standing(GUILD, user, sort)
        timings["/leaderboard (count, a page of 10, own rank)"].append(time.perf_counter() - start)
        start = time.perf_counter()
        await repository.player_stats(GUILD, user)
        timings["/stats"].append(time.perf_counter() - start)
    await repository.close()
    for name, samples in timings.items():
        print(f"{name:48} {percentiles(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000, help="distinct players on the server")
    parser.add_argument("--queries", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        asyncio.run(_create(path))
        start = time.perf_counter()
        fill(path, args.games, args.players)
        size = path.stat().st_size / 1e6
        print(
            f"filled {args.games} games, {args.players} players, {size:.0f} MB in {time.perf_counter() - start:.0f} s"
        )
        asyncio.run(measure(path, args.players, args.queries))


async def _create(path: Path) -> None:
    repository = await Repository.open(path)
    await repository.close()


if __name__ == "__main__":
    main()
