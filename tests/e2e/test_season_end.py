"""A season's end is an event: its final standings and champion are posted once in the channel the
server picked, even when the bot was down as the season ended — the real `python -m bot` process,
its clock and the stand-in's moved past the turnover while no process ran. tests/postgres runs the
same with two processes (test_season_processes.py)."""

from __future__ import annotations

import contextlib
import datetime
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord

from tests.e2e._play import Players, messages_of, open_game
from tests.e2e._process import WorldClock
from tests.e2e.standin import Channel, DiscordStandin, Driver, StoredMessage, User
from tests.e2e.test_restart import Bot

HOUR = 3600.0
SEASON_OVER = "Season 1 is over"


def utc(*parts: int) -> float:
    return datetime.datetime(*parts, tzinfo=datetime.UTC).timestamp()


@dataclass
class League:
    """A server that plays monthly seasons, whose ends are announced in #standings."""

    standin: DiscordStandin
    driver: Driver
    clock: WorldClock
    channel: Channel  # where games are played
    standings: Channel  # where seasons' ends are announced
    people: list[User]  # people[0] can manage the server

    def announcements(self) -> list[StoredMessage]:
        return messages_of(self.driver, self.standings, SEASON_OVER)


@contextlib.asynccontextmanager
async def a_league(folder: Path, moment: float) -> AsyncIterator[League]:
    """The stand-in and a server of three people, its clock (and every bot process's) at `moment`."""
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        standings = standin.create_text_channel(guild, "standings")
        managers = standin.create_role(guild, "Managers", discord.Permissions(manage_guild=True))
        people = [standin.create_user(name) for name in ("alice", "bob", "carol")]
        standin.add_member(guild, people[0], roles=[managers])
        for person in people[1:]:
            standin.add_member(guild, person)
        clock = WorldClock(standin, folder)
        clock.advance(moment - clock.now())
        yield League(standin, Driver(standin), clock, channel, standings, people)
        assert standin.global_refusals == 0


def a_bot(league: League, folder: Path, **environ: str) -> Bot:
    """The bot process, on the league's clock."""
    guild_id = league.channel.guild_id or 0
    bot = Bot(league.standin, folder, guild_id, seed=20261201)
    bot.environ |= league.clock.environ | environ
    return bot


async def monthly_season_with_a_game(league: League) -> None:
    """The admin asks for monthly seasons announced in #standings; the three play a one-round game."""
    driver, admin = league.driver, league.people[0]
    options = {"season_length": "monthly", "season_channel": league.standings}
    reply = await (await driver.slash(admin, league.channel, "wizard settings", options=options)).wait_response()
    assert "Season 1: since" in reply.text()
    assert "<#" in reply.text()
    await open_game(driver, league.channel, league.people, rounds=1)
    players = Players(league.standin, driver, league.channel, league.people)
    while await players.move():
        pass
    await league.standin.wait_for(players.finished, 30, "the final standings")


def announced(database: Path) -> int | None:
    """The message that announced season 1's end, as the database has it."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        row = db.execute("SELECT announced_id FROM seasons WHERE number = 1").fetchone()
    return None if row is None else row[0]


async def test_a_season_that_ends_while_the_bot_is_down_is_announced_once_after_the_restart(tmp_path: Path) -> None:
    async with a_league(tmp_path, utc(2027, 3, 31, 21)) as league:
        bot = a_bot(league, tmp_path / "bot")
        try:
            await bot.start()
            await monthly_season_with_a_game(league)
            await bot.kill()
            league.clock.advance(4 * HOUR)  # 1 April, 01:00 UTC: the season ended while no bot ran
            assert league.announcements() == []

            await bot.start()
            [posted] = await league.standin.wait_for(league.announcements, 30, "the season's end")
            database = tmp_path / "bot" / "wizard.db"
            await league.standin.wait_for(lambda: announced(database) == posted.id, 10, "the announcement noted")
            text = posted.text()
            assert "Season 1 is over — Wizard Guild" in text
            assert "🏆 Champion" in text
            assert sum(line[:1].isdigit() for line in text.splitlines()) == 3  # the final standings
            assert "Season 2 has begun" in text

            # Another restart owes nothing: the end was shown once.
            await bot.kill()
            await bot.start()
            board = await (await league.driver.slash(league.people[1], league.channel, "leaderboard")).wait_response()
            assert "season 2" in board.text()
            assert len(league.announcements()) == 1
        finally:
            await bot.stop()


async def test_the_leaderboard_after_the_turnover_shows_the_new_season_the_past_one_and_all_time(
    tmp_path: Path,
) -> None:
    async with a_league(tmp_path, utc(2027, 3, 31, 21)) as league:
        bot = a_bot(league, tmp_path / "bot")
        try:
            await bot.start()
            await monthly_season_with_a_game(league)
            league.clock.advance(4 * HOUR)  # the turnover passes while the bot runs
            await league.standin.wait_for(league.announcements, 30, "the season's end")
            driver, bob = league.driver, league.people[1]

            async def board(**options: object) -> str:
                record = await driver.slash(bob, league.channel, "leaderboard", options=options or None)
                return (await record.wait_response()).text()

            now, past, ever = await board(), await board(season=1), await board(all_time=True)
            assert "season 2" in now
            assert "No game of this season counts for its ranking yet." in now
            assert "season 1" in past
            assert "Season 1: from" in past
            assert sum(line[:1].isdigit() for line in past.splitlines()) == 3
            assert "season" not in ever.splitlines()[0]
            assert sum(line[:1].isdigit() for line in ever.splitlines()) == 3
            missing = await (
                await driver.slash(bob, league.channel, "leaderboard", options={"season": 9})
            ).wait_response()
            assert missing.ephemeral
            assert missing.text() == "This server has no season 9: its seasons so far are 1 to 2."
            assert len(league.announcements()) == 1
        finally:
            await bot.stop()
