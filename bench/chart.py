"""How long the end-of-game chart takes to draw.

python bench/chart.py [--charts 10]

Draws `--charts` charts of each kind below one after another, as the bot does once a game is over
(`totals_chart`, which it runs in a thread), and prints each kind's first chart apart from the rest:
the very first pays for importing matplotlib and registering the fonts, and the first with a new
set of Korean (CJK) characters for cutting them out of Noto Sans CJK at its Regular weight (the
English 6-player games have a Korean name, the Korean ones Korean texts), which runs in a child
process. Wall-clock and CPU time (the child's included) are both printed, since other work on the
machine skews the wall clock.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import RoundResult, rules
from bot.i18n import t
from cogs.wizard._chart import totals_chart


def history(players: int, rounds: int, seed: int) -> list[RoundResult]:
    """Running totals of a plausible game: each round a seat makes its bid or misses it."""
    rng = random.Random(seed)
    totals = [0] * players
    results = []
    zeros = (0,) * players
    for number in range(1, rounds + 1):
        for seat in range(players):
            totals[seat] += rng.choice((20, 30, 40, -10, -20))
        results.append(RoundResult(number, zeros, zeros, zeros, tuple(totals)))
    return results


def cpu() -> float:
    """CPU seconds used so far by this process and its finished children."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def names(players: int, locale: str) -> list[str]:
    humans = ["Alexandra Konstantinopoulou", "Анна Петрова", "dave 😀👍🏽", "김민준"]
    computers = [t(locale, "computer.name", number=n, level=t(locale, "level.hard")) for n in (1, 2, 3)]
    return [*humans, *computers][:players]


KINDS = [("en", 3), ("en", 6), ("ko", 6)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--charts", type=int, default=10)
    args = parser.parse_args()
    for number, (locale, players) in enumerate(KINDS):
        rounds = rules.round_count(players)
        walls, cpus = [], []
        for seed in range(args.charts):
            wall, used = time.perf_counter(), cpu()
            totals_chart(names(players, locale), history(players, rounds, seed), range(1, rounds + 1), locale)
            walls.append(time.perf_counter() - wall)
            cpus.append(cpu() - used)
        first = " (the first chart drawn)" if number == 0 else ""
        print(
            f"{locale}, {players} players, {rounds} rounds: first {walls[0] * 1000:.0f} ms wall, "
            f"{cpus[0] * 1000:.0f} ms CPU{first}; the other {len(walls) - 1}: median "
            f"{statistics.median(walls[1:]) * 1000:.0f} ms wall, {statistics.median(cpus[1:]) * 1000:.0f} ms CPU"
        )


if __name__ == "__main__":
    main()
