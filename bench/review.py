"""How long the coach takes to review a whole game, and how much the event loop notices.

python bench/review.py [--games 3] [--players 4]

Each game is played to the end through the game manager by four normal computer players standing
in for people, stored in a throwaway SQLite file; then every seat's review is asked for through
`GameManager.review`, as `/wizard review` does: worked out in a thread and stored. Meanwhile a
heartbeat task measures how late the event loop wakes it (what a click waiting for an answer would
feel). Each seat's review is timed on the wall clock and in CPU time (the process's, which the
thread's work is part of: on a busy machine the wall clock waits for the CPU too). Finally each
review is asked again, read from storage. Run it under `nice -n 19` on a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run as `python bench/<name>.py` from a clone: the bot is imported from the clone, not installed.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ai import NormalPlayer  # noqa: E402
from bot.engine import Options  # noqa: E402
from bot.manager import GameManager, Player  # noqa: E402
from bot.storage import Repository  # noqa: E402

GUILD, CHANNEL = 1, 10
BEAT = 0.005  # seconds between heartbeats


async def play_game(manager: GameManager, players: int, seed: int) -> tuple[str, list[int]]:
    """A whole game played through the manager; its id and the people's user ids."""
    people = [Player(1000 + seat, f"Person {seat}") for seat in range(players)]
    lobby = await manager.open_lobby(GUILD, CHANNEL, people[0], Options(), 300)
    for person in people[1:]:
        await manager.join(lobby.id, person)
    table = await manager.start(lobby.id, people[0].user_id)
    brains = [NormalPlayer(random.Random(seed * 10 + seat)) for seat in range(players)]
    while not table.game.is_over:
        seat = table.game.waiting_for()[0]
        action = brains[seat].choose(table.game.observation(seat))
        trick = table.next_trick(seat)
        await manager.act(table.id, people[seat].user_id, action, round=table.game.round, trick=trick)
    return table.id, [person.user_id for person in people]


async def heartbeat(lags: list[float], stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(BEAT)
        lags.append(loop.time() - start - BEAT)


def late(lags: list[float]) -> str:
    """Percentiles of the heartbeat's lateness, in milliseconds."""
    ms = sorted(lag * 1000 for lag in lags)
    return f"p50 {ms[len(ms) // 2]:.1f} / p99 {ms[int(len(ms) * 0.99)]:.1f} / max {ms[-1]:.1f} ms"


async def run(games: int, players: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repository = await Repository.open(Path(folder) / "bench.db")
        manager = GameManager(repository, seed_source=iter(range(1, 1000)).__next__, computer_pace=0)
        try:
            # The loop's lateness with nothing else to do, on this machine now, to compare with.
            lags: list[float] = []
            stop = asyncio.Event()
            beating = asyncio.create_task(heartbeat(lags, stop))
            await asyncio.sleep(3)
            stop.set()
            await beating
            print(f"idle: loop late by {late(lags)}")
            for number in range(games):
                game_id, people = await play_game(manager, players, number)
                lags = []
                stop = asyncio.Event()
                beating = asyncio.create_task(heartbeat(lags, stop))
                seats, seats_cpu = [], []
                cpu = time.process_time()
                whole = time.perf_counter()
                for user_id in people:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    await manager.review(user_id, GUILD, game_id)
                    seats.append(time.perf_counter() - start)
                    seats_cpu.append(time.process_time() - start_cpu)
                whole = time.perf_counter() - whole
                cpu = time.process_time() - cpu
                stop.set()
                await beating
                start = time.perf_counter()
                for user_id in people:
                    await manager.review(user_id, GUILD, game_id)
                stored = (time.perf_counter() - start) / len(people)
                print(
                    f"game {number + 1} ({game_id}, {players} players): whole game {whole:.2f} s wall, {cpu:.2f} s CPU;"
                    f" per seat {' / '.join(f'{s:.2f}' for s in seats)} s (mean {statistics.mean(seats):.2f}),"
                    f" CPU {' / '.join(f'{s:.2f}' for s in seats_cpu)} s;"
                    f" stored read {stored * 1000:.1f} ms; loop late by {late(lags)}"
                )
        finally:
            manager.close()
            await repository.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.players))


if __name__ == "__main__":
    main()
