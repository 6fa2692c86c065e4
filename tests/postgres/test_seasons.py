"""tests/storage/test_seasons.py against PostgreSQL, and PostgreSQL's plans of the leaderboards."""

from __future__ import annotations

import asyncpg

import tests.storage.test_seasons as shared
from bot.storage import Repository, Sort
from bot.storage.postgres import PostgresRepository

from .support import backend_neutral

globals().update(backend_neutral(shared))


async def test_every_leaderboard_page_is_read_in_index_order_without_a_sort(postgres_url: str) -> None:
    """PostgreSQL's plans, on tables of a server with many players (SQLite's: tests/storage/test_seasons.py)."""
    await (await Repository.open(postgres_url)).close()
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute(
            "INSERT INTO player_stats (guild_id, user_id, name, rating, wins, avg_score, exact_rate)"
            " SELECT 1, g, 'x', CASE WHEN g % 10 = 0 THEN NULL ELSE random() END, g % 50, random(), random()"
            " FROM generate_series(1, 20000) g"
        )
        await connection.execute(
            "INSERT INTO season_standings SELECT 1, 1 + g % 3, g, 'x', 1, g % 50, 1, 1, 1, random(), random(), 1, 1,"
            " random() FROM generate_series(1, 20000) g"
        )
        await connection.execute("ANALYZE")
        plans = {}
        for sort in Sort:
            for name, sql, args in (
                ("all time", PostgresRepository.SQL.leaderboard[sort], (1, 10, 5000)),
                ("season", PostgresRepository.SQL.season_leaderboard[sort], (1, 2, 10, 2000)),
            ):
                plan = [row[0] for row in await connection.fetch(f"EXPLAIN {sql}", *args)]
                plans[(name, sort.value)] = [step for step in plan if "Sort" in step or "Seq Scan" in step]
    finally:
        await connection.close()
    assert plans == {key: [] for key in plans}
