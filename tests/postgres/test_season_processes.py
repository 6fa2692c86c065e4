"""A season's end announced once by two bot processes on one PostgreSQL: the real `python -m bot`,
both running every shard (as in a deploy that overlaps), both started after the season ended."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg

from tests.e2e.test_restart import Bot
from tests.e2e.test_season_end import HOUR, League, a_bot, a_league, monthly_season_with_a_game, utc


async def seasons(postgres_url: str) -> list[tuple[int, float | None, int | None]]:
    """Every season as (number, ended_at, announced message)."""
    connection = await asyncpg.connect(postgres_url)
    try:
        rows = await connection.fetch("SELECT number, ended_at, announced_id FROM seasons ORDER BY number")
    finally:
        await connection.close()
    return [(row["number"], row["ended_at"], row["announced_id"]) for row in rows]


async def noted_within(postgres_url: str, message_id: int, seconds: float) -> None:
    """Wait until the database notes season 1's end as announced in `message_id`: another process writes
    it, so there is nothing to wait on but the database itself, read every 50 ms."""
    async with asyncio.timeout(seconds):
        while (await seasons(postgres_url))[0][2] != message_id:  # noqa: ASYNC110
            await asyncio.sleep(0.05)


async def both_up(league: League, first: Bot, second: Bot) -> None:
    """Start the two processes at once and wait until both have logged in (each has looked after the
    seasons by then: a process does so as it starts, before it connects)."""
    logins = len(league.standin.identify_payloads)
    await asyncio.gather(first.start(), second.start())
    await league.standin.wait_for(
        lambda: len(league.standin.identify_payloads) >= logins + 2, 60, "both processes to log in"
    )


async def both_down(league: League, first: Bot, second: Bot) -> None:
    for bot in (first, second):
        assert bot.process is not None
        bot.process.kill()
        await bot.process.wait()
    await league.standin.wait_for(lambda: not league.standin.gateway_ready, 10, "the gateway to close")


async def test_two_processes_started_after_a_season_ended_announce_it_once(postgres_url: str, tmp_path: Path) -> None:
    async with a_league(tmp_path, utc(2027, 3, 31, 21)) as league:
        environ = {"DATABASE_URL": postgres_url}
        first = a_bot(league, tmp_path / "first", **environ)
        second = a_bot(league, tmp_path / "second", **environ)
        try:
            await first.start()
            await monthly_season_with_a_game(league)
            await first.kill()
            league.clock.advance(4 * HOUR)  # the season ended while no process ran

            # Both start at once, and both find the season due to end and its end owed.
            await both_up(league, first, second)
            [posted] = await league.standin.wait_for(league.announcements, 30, "the season's end")

            await noted_within(postgres_url, posted.id, 10)
            [(one, ended, _), (two, running, owed)] = await seasons(postgres_url)
            assert (one, ended, two, running, owed) == (1, utc(2027, 4, 1), 2, None, None)

            # Both, started again, look once more as they start: nothing is owed.
            await both_down(league, first, second)
            await both_up(league, first, second)
            assert len(league.announcements()) == 1
        finally:
            await first.stop()
            await second.stop()
