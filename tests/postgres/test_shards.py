"""Two real bot processes share the shards of one bot and one PostgreSQL database, against the
Discord stand-in, which routes as Discord does: a server's events to the shard of its id, every
DM click to shard 0. A game in a server of shard 1 is played to the end by DM clicks only; and
when shard 1's process dies, shard 0's runs its games (their timers, computer players, messages)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.engine import Game, Options, action_from_json
from tests.e2e._play import Players, messages_of, open_game, three_people
from tests.e2e._process import launch
from tests.e2e.standin import Channel, DiscordStandin, Driver, User
from tests.e2e.test_standin_routing import guild_on_shard


@dataclass
class Shards:
    standin: DiscordStandin
    driver: Driver
    channel: Channel
    people: list[User]
    processes: list[asyncio.subprocess.Process]  # by shard


@asynccontextmanager
async def two_shards(postgres_url: str, tmp_path: Path) -> AsyncIterator[Shards]:
    """Shard 0's and shard 1's processes logged in, and three people in a server of shard 1."""
    async with DiscordStandin() as standin:
        guild_on_shard(standin, "Shard 0", 0, 2)
        guild = guild_on_shard(standin, "Shard 1", 1, 2)
        channel = standin.create_text_channel(guild, "wizard")
        _, people = three_people(standin)  # a server of their own, for the names; they join ours too
        for person in people:
            standin.add_member(guild, person)
        environ = {"DISCORD_TOKEN": standin.token, "DATABASE_URL": postgres_url, "SHARD_COUNT": "2",
                   "LOG_LEVEL": "WARNING", "DEV_GUILD_ID": str(guild.id)}  # fmt: skip
        processes: list[asyncio.subprocess.Process] = []
        try:
            for shard in (0, 1):
                folder = tmp_path / f"shard{shard}"
                folder.mkdir()
                log = (folder / "bot.log").open("wb")
                processes.append(await launch(standin, folder, environ | {"SHARD_IDS": str(shard)}, log=log))
                logged_in = len(processes)
                await standin.wait_for(
                    lambda: len(standin.identify_payloads) >= logged_in and standin.gateway_ready,  # noqa: B023
                    60,
                    f"shard {shard}'s process to log in",
                )
            yield Shards(standin, Driver(standin), channel, people, processes)
        finally:
            for process in processes:
                if process.returncode is None:
                    process.kill()
                    await process.wait()


async def stored_game(postgres_url: str, players: int, rounds: int) -> Game:
    """The finished game as the database holds it, replayed by the engine."""
    connection = await asyncpg.connect(postgres_url)
    try:
        seed = await connection.fetchval("SELECT seed FROM games WHERE status = 'finished'")
        rows = await connection.fetch("SELECT seat, action FROM actions ORDER BY idx")
    finally:
        await connection.close()
    log = [(row["seat"], action_from_json(json.loads(row["action"]))) for row in rows]
    return Game.replay(players, seed, Options(rounds=rounds), log)


async def test_a_game_on_shard_1_is_played_to_the_end_by_dm_clicks_that_reach_shard_0(
    postgres_url: str, tmp_path: Path
) -> None:
    async with two_shards(postgres_url, tmp_path) as shards:
        standin, driver, channel, people = shards.standin, shards.driver, shards.channel, shards.people
        await open_game(driver, channel, people, rounds=2)
        players = Players(standin, driver, channel, people)
        clicks_before = len(standin.interactions)
        while await players.move():
            pass
        await standin.wait_for(players.finished, 10, "the final standings")
        clicks = list(standin.interactions.values())[clicks_before:]
        assert clicks, "no DM clicks"
        assert all(click.guild_id is None for click in clicks)  # every one of them reached shard 0
        assert standin.slow_acks(3.0) == []
        assert all(c.rejected_callbacks == [] for c in clicks)
        assert len(messages_of(driver, channel, "Final standings")) == 1
    assert (await stored_game(postgres_url, 3, rounds=2)).is_over  # every move once, in order


async def test_when_the_process_running_a_game_dies_another_runs_its_timers_and_computer(
    postgres_url: str, tmp_path: Path
) -> None:
    """Shard 1's process runs the game (its server is on shard 1) and made the last move; it is
    killed while a person's turn timer runs. Shard 0's process adopts the game: the turn runs out
    there, it shows that on the table, the computer player moves, and the people play on by DM
    to the final standings, shown once."""
    async with two_shards(postgres_url, tmp_path) as shards:
        standin, driver, channel, people = shards.standin, shards.driver, shards.channel, shards.people
        options = {"rounds": 1, "turn_timer": 30, "computer_players": 1, "computer_level": "easy"}
        await open_game(driver, channel, people, **options)
        players = Players(standin, driver, channel, people)
        await standin.wait_for(players.next_move, 30, "a person's turn")
        shard_1 = shards.processes[1]
        shard_1.kill()
        await shard_1.wait()

        def ran_out() -> bool:
            return any("ran out of time" in message.text() for message in driver.channel_view(channel))

        # The turn timer (30 s) runs out in shard 0's process, which adopted the game once shard 1's
        # claim on it lapsed (within seconds); the computer's move and the clicks follow.
        await standin.wait_for(ran_out, 60, "the timeout shown on the table")
        while await players.move():
            pass
        await standin.wait_for(players.finished, 30, "the final standings")
        assert len(messages_of(driver, channel, "Final standings")) == 1
        assert standin.slow_acks(3.0) == []

    assert (await stored_game(postgres_url, 4, rounds=1)).is_over
