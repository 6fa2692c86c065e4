"""A dead process's lobbies are adopted like its games: two real bot processes share the shards of
one bot and a PostgreSQL database, against the Discord stand-in. Shard 1's process holds a lobby and
is killed; shard 0's adopts the lobby, keeps its idle clock (closing it on time, its message saying
so) and hands it back when shard 1's process is up again, which then starts the game from it. In each
test a game in a server of shard 0 plays on unaffected, and no process logs an error or repeats a
warning."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from cogs.wizard import _ids
from tests.e2e._play import Players, has_hand_button, open_game
from tests.e2e._process import launch
from tests.e2e.standin import Channel, DiscordStandin, Driver, StoredMessage, User
from tests.e2e.test_places import repeated
from tests.e2e.test_standin_routing import guild_on_shard

IDLE = 20.0  # seconds a lobby nobody touches stays open (TEST_LOBBY_IDLE), instead of 15 minutes
# The database is another process's to change: it is read again this often, until a timeout.
POLL_SECONDS = 0.2


@dataclass
class Shards:
    standin: DiscordStandin
    driver: Driver
    here: Channel  # in a server of shard 1
    people: list[User]
    there: Channel  # in a server of shard 0: its game plays on
    others: list[User]
    url: str
    folder: Path
    processes: list[asyncio.subprocess.Process | None]  # by shard

    async def start(self, shard: int) -> None:
        environ = {"DISCORD_TOKEN": self.standin.token, "DATABASE_URL": self.url, "SHARD_COUNT": "2",
                   "SHARD_IDS": str(shard), "LOG_LEVEL": "WARNING", "TEST_LOBBY_IDLE": str(IDLE)}  # fmt: skip
        log = (self.folder / f"shard{shard}.log").open("ab")
        logins = len(self.standin.identify_payloads)
        process = await launch(self.standin, self.folder, environ, *(("--sync",) if shard == 0 else ()), log=log)
        self.processes[shard] = process
        await self.standin.wait_for(
            lambda: len(self.standin.identify_payloads) > logins and self.standin.gateway_ready_for(self.here.guild_id
            if shard == 1 else self.there.guild_id), 60, f"shard {shard}'s process to log in")  # fmt: skip

    async def kill(self, shard: int) -> None:
        process = self.processes[shard]
        assert process is not None
        process.kill()
        await process.wait()
        self.processes[shard] = None

    async def lobby_row(self, lobby_id: str) -> asyncpg.Record:
        connection = await asyncpg.connect(self.url)
        try:
            row = await connection.fetchrow("SELECT status, runner, runner_adopted FROM games WHERE id = $1", lobby_id)
        finally:
            await connection.close()
        assert row is not None
        return row

    async def until(self, condition: Callable[[], Awaitable[bool]], within: float, what: str) -> None:
        deadline = time.monotonic() + within
        while not await condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {within}s waiting for {what}")
            await asyncio.sleep(POLL_SECONDS)

    def log_problems(self) -> tuple[list[str], list[str]]:
        errors, warnings = [], []
        for shard in (0, 1):
            lines = (self.folder / f"shard{shard}.log").read_text(errors="replace").splitlines()
            errors += [line for line in lines if "[ERROR" in line or "[CRITICAL" in line or "Traceback" in line]
            warnings += [
                f"shard {shard}: " + line.split("] ", 2)[-1]
                for line in lines
                if "[WARNING" in line and "voice will NOT be supported" not in line
            ]
        return errors, repeated(warnings)


@asynccontextmanager
async def two_shards(postgres_url: str, tmp_path: Path) -> AsyncIterator[Shards]:
    async with DiscordStandin() as standin:
        there = guild_on_shard(standin, "Shard 0", 0, 2)
        here = guild_on_shard(standin, "Shard 1", 1, 2)
        people = [standin.create_user(name) for name in ("alice", "bob", "carol")]
        others = [standin.create_user(name) for name in ("erin", "frank", "gina")]
        for person in people:
            standin.add_member(here, person)
        for person in others:
            standin.add_member(there, person)
        shards = Shards(
            standin,
            Driver(standin),
            standin.create_text_channel(here, "wizard"),
            people,
            standin.create_text_channel(there, "wizard"),
            others,
            postgres_url,
            tmp_path,
            [None, None],
        )
        try:
            await shards.start(0)
            await shards.start(1)
            yield shards
        finally:
            for process in shards.processes:
                if process is not None and process.returncode is None:
                    process.kill()
                    await process.wait()


async def a_lobby(shards: Shards) -> tuple[StoredMessage, str]:
    """alice opens a lobby in the server of shard 1, bob joins: its message, and its id."""
    alice, bob, _ = shards.people
    lobby = await (await shards.driver.slash(alice, shards.here, "wizard start")).wait_response()
    await (await shards.driver.click(bob, lobby, "Join")).wait_acked(3)
    button = _ids.parse(str((lobby.find_component("Join") or {}).get("custom_id")))
    assert isinstance(button, _ids.LobbyId)
    return lobby, button.game


async def adopted(shards: Shards, lobby_id: str) -> None:
    """Shard 1's process dies: shard 0's adopts the lobby once its claim runs out."""
    await shards.kill(1)

    async def taken() -> bool:
        return bool((await shards.lobby_row(lobby_id))["runner_adopted"])

    await shards.until(taken, 30, "shard 0's process to adopt the lobby")


async def test_a_dead_processs_lobby_is_adopted_and_closes_on_time_there(postgres_url: str, tmp_path: Path) -> None:
    async with two_shards(postgres_url, tmp_path) as shards:
        standin, driver = shards.standin, shards.driver
        await open_game(driver, shards.there, shards.others, rounds=2)
        elsewhere = Players(standin, driver, shards.there, shards.others)
        assert await elsewhere.move()
        lobby, lobby_id = await a_lobby(shards)
        await adopted(shards, lobby_id)
        assert await elsewhere.move()  # shard 0's own game goes on meanwhile

        # Nobody can touch the lobby now (its server's process is down): its idle clock runs out in
        # shard 0's process, which closes it and says so on its message.
        await standin.wait_for(lambda: "Nobody touched this lobby" in lobby.text(), IDLE + 30, "the lobby closed")
        assert lobby.find_component("Join") is None
        assert (await shards.lobby_row(lobby_id))["status"] == "closed"

        await shards.start(1)
        again = await (await driver.slash(shards.people[2], shards.here, "wizard start")).wait_response()
        assert again.find_component("Join") is not None  # the channel is free
        while await elsewhere.move():
            pass
        await standin.wait_for(elsewhere.finished, 30, "shard 0's game to its standings")
    assert shards.log_problems() == ([], [])


async def test_a_dead_processs_lobby_goes_back_to_it_and_starts_there(postgres_url: str, tmp_path: Path) -> None:
    async with two_shards(postgres_url, tmp_path) as shards:
        standin, driver = shards.standin, shards.driver
        alice, _, carol = shards.people
        await open_game(driver, shards.there, shards.others, rounds=2)
        elsewhere = Players(standin, driver, shards.there, shards.others)
        assert await elsewhere.move()
        lobby, lobby_id = await a_lobby(shards)
        await adopted(shards, lobby_id)

        await shards.start(1)

        async def handed_back() -> bool:
            return not (await shards.lobby_row(lobby_id))["runner_adopted"]

        await shards.until(handed_back, 30, "the lobby handed back to shard 1's process")
        await (await driver.click(carol, lobby, "Join")).wait_acked(3)
        assert "Carol" in lobby.text()
        started = await driver.click(alice, lobby, "Start")
        await started.wait_acked(3)
        assert started.callback_types == [7]
        await standin.wait_for(lambda: any(has_hand_button(m) for m in driver.channel_view(shards.here)), 30,
                               "the table of the game started from the lobby")  # fmt: skip
        while await elsewhere.move():
            pass
        await standin.wait_for(elsewhere.finished, 30, "shard 0's game to its standings")
    assert shards.log_problems() == ([], [])
