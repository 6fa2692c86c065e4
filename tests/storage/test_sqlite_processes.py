"""Two processes on one SQLite file, each reading while it writes: SQLite refuses at once ("database
is locked", without waiting its busy timeout) a write on a connection that still holds a read
snapshot older than the other process's last commit. A read must therefore never stay open across
an await, where the same connection's next write could start."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.sqlite import SQLiteRepository


async def test_reads_beside_writes_never_meet_a_locked_database(tmp_path: Path) -> None:
    path = tmp_path / "wizard.db"
    first = await SQLiteRepository.open(path)
    second = await SQLiteRepository.open(path)
    try:
        people = list(range(1, 6))

        async def writes(repository: SQLiteRepository, on: bool) -> None:
            for turn in range(300):
                await repository.set_turn_ping(people[turn % len(people)], on)

        async def reads(repository: SQLiteRepository) -> None:
            for _ in range(300):
                await repository.turn_pings(people)

        # Each process reads and writes at once, as its beats, clicks and timers do.
        await asyncio.gather(writes(first, True), reads(first), writes(second, False), reads(second))
        assert await first.turn_pings(people) == await second.turn_pings(people)
    finally:
        await first.close()
        await second.close()
