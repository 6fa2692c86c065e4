"""Helpers shared by the storage tests: a database file used by one bot process after another,
reading the file with the standard library, and finished games made to order."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.manager import GameManager, Table
from bot.storage import FinalSeat, Repository, SeatRecord
from tests.manager.support import CHANNEL, GUILD, SEED, Recorder

# Tests that look into or change the SQLite file itself; tests/postgres runs every other test of
# tests/storage against PostgreSQL.
sqlite_only = pytest.mark.sqlite_only

T = TypeVar("T")

QUIET_IDLE = 60.0  # long enough that no lobby expires during a test that is not about expiry


def peek(path: Path | str, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows read from the database file through a connection of its own, as the bot's is not ours to use."""
    with closing(sqlite3.connect(path)) as connection:
        return [tuple(row) for row in connection.execute(sql, parameters).fetchall()]


def tables_in(path: Path) -> set[str]:
    return {name for (name,) in peek(path, "SELECT name FROM sqlite_master WHERE type = 'table'")}


def user_version(path: Path) -> int:
    [(version,)] = peek(path, "PRAGMA user_version")
    return int(version)


@dataclass
class Boot:
    """One run of the bot: its manager, repository, the events it emitted and the games it restored."""

    manager: GameManager
    repository: Repository
    recorder: Recorder
    restored: list[Table]


class Site:
    """A database file and the bot processes that use it one after another."""

    def __init__(self, path: Path | str) -> None:
        self.path = path  # an SQLite file, or a PostgreSQL URL
        self._boots: list[Boot] = []

    async def boot(self, *, lobby_idle_seconds: float = QUIET_IDLE, seed: int = SEED, **options: Any) -> Boot:
        """Start the bot on the file: open the repository and restore what it holds. `options` go to the manager."""
        repository = await Repository.open(self.path)
        manager = GameManager(seed_source=lambda: seed, lobby_idle_seconds=lobby_idle_seconds, **options)
        recorder = Recorder()
        manager.subscribe(recorder)
        boot = Boot(manager, repository, recorder, [])
        self._boots.append(boot)
        boot.restored = await manager.load(repository)
        return boot

    async def crash(self, boot: Boot) -> None:
        """The process dies: its connection goes away and nothing else is tidied up."""
        await boot.repository.close()

    async def restart(self, boot: Boot, **kwargs: Any) -> Boot:
        await self.crash(boot)
        return await self.boot(**kwargs)

    async def shut_down(self) -> None:
        for boot in self._boots:
            boot.manager.close()
            await boot.repository.close()


@asynccontextmanager
async def process(
    where: Path | str, *, runs_server: bool = True, computer_pace: float = 1.5, **options: Any
) -> AsyncIterator[tuple[GameManager, Recorder]]:
    """Another bot process on the database at `where`, running alongside: its manager (restoring
    what the database holds) and the events it emits. `runs_server`: the test servers are on its
    shards (else it restores none of their games, and holds one only as a guest). `options` go to
    the manager. Leaving the block is the process dying: nothing is tidied up in the database."""
    repository = await Repository.open(where)
    repository.restore_filter = lambda guild_id: runs_server
    manager = GameManager(seed_source=lambda: SEED, computer_pace=computer_pace, **options)
    recorder = Recorder()
    manager.subscribe(recorder)
    try:
        await manager.load(repository)
        yield manager, recorder
    finally:
        manager.close()
        await repository.close()


def seats_of(user_ids: Sequence[int]) -> list[SeatRecord]:
    return [SeatRecord(seat, user_id, f"Player {user_id}") for seat, user_id in enumerate(user_ids)]


async def running_game(repository: Repository, game_id: str, user_ids: Sequence[int], guild: int = GUILD) -> None:
    """A game row for `record_finished` to finish, as the manager leaves it when the last action is in."""
    await repository.create_lobby(game_id, guild, CHANNEL, user_ids[0], {}, 300, seats_of(user_ids))
    await repository.start_game(game_id, SEED)


async def reads_beside(write: asyncio.Future[Any], read: Callable[[], Awaitable[T]]) -> list[T]:
    """What `read` returns, again and again until `write` is done: each read goes in while a
    statement of the write is under way, as a command answered beside another click's write would.
    The caller awaits `write` for its outcome."""
    seen = [await read()]
    while not write.done():
        seen.append(await read())
    return seen


def final_seat(
    seat: int,
    user_id: int,
    rounds: Sequence[tuple[int, int, int, int]],
    *,
    place: int = 1,
    won: bool = False,
    name: str | None = None,
) -> FinalSeat:
    """A player's result whose score is the sum of the points of `rounds` ((round, bid, tricks, points) each)."""
    return FinalSeat(
        seat,
        user_id,
        f"Player {user_id}" if name is None else name,
        sum(points for *_, points in rounds),
        place,
        won,
        tuple(rounds),
    )


def poke(path: Path | str, sql: str, parameters: Sequence[Any] = ()) -> None:
    """Change the database file behind the bot's back, as happens while it is not running."""
    with closing(sqlite3.connect(path)) as connection:
        connection.execute(sql, parameters)
        connection.commit()
