"""Measure the computer players: many full games between chosen levels, seats rotated, fixed seeds.

    python -m bot.simulate --games 400 --players 4 --seats hard,normal,normal,normal --workers 2

A seat is a level ("easy", "normal", "hard"), "random" (any legal action), or one of the two
yardsticks, which share no code with the levels: "baseline", a rule-of-thumb player
(`bot.simulate.baseline`), and "pimc", plain determinized search at about five times hard's
thinking time (`bot.simulate.pimc`).

Games go in blocks of one deal seed played once per rotation of the seats, so each level sits in
each seat equally often and meets the same cards from every seat (duplicate style). For each level
it prints the mean points per game and, when other levels play too, the difference to their mean,
each with a 95% confidence interval over the blocks; the win rate per seat (a tie shares the win);
the share of exact bids; and the time per decision (median, 95th percentile, maximum), both by
the wall clock and in CPU time of the playing process: on a machine busy with other work the wall
clock runs ahead, the CPU time is what one core of its own would take.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.ai import Level, Player, RandomPlayer
from bot.ai.players import EasyPlayer, HardPlayer, NormalPlayer
from bot.engine import Game, Options

from .baseline import BaselinePlayer
from .pimc import PimcPlayer

LEVELS = ("random", "baseline", "pimc", "easy", "normal", "hard")


@dataclass
class Settings:
    players: int
    seats: tuple[str, ...]
    seed: int
    variant: bool
    budget: int | None
    pimc_budget: int | None = None


@dataclass
class GameRecord:
    levels: tuple[str, ...]  # by seat
    scores: tuple[int, ...]
    exact: tuple[int, ...]  # exact bids by seat
    rounds: int
    times: dict[str, list[float]] = field(default_factory=dict)  # decision seconds by level, wall clock
    cpu: dict[str, list[float]] = field(default_factory=dict)  # and CPU time of this process


def build_player(level: str, seed: int, budget: int | None, pimc_budget: int | None = None) -> Player:
    rng = random.Random(seed)
    if level == "random":
        return RandomPlayer(rng)
    if level == "baseline":
        return BaselinePlayer(rng)
    if level == "pimc":
        return PimcPlayer(rng) if pimc_budget is None else PimcPlayer(rng, budget=pimc_budget, min_worlds=1)
    if level == Level.EASY.value:
        return EasyPlayer(rng)
    if level == Level.NORMAL.value:
        return NormalPlayer(rng)
    if budget is not None:
        return HardPlayer(rng, budget=budget, min_worlds=1)
    return HardPlayer(rng)


def play_game(index: int, settings: Settings) -> GameRecord:
    """Game `index`: block index // players gives the deal seed, index % players the seat rotation."""
    players = settings.players
    block, rotation = divmod(index, players)
    seed = settings.seed * 1_000_003 + block
    levels = tuple(settings.seats[(seat - rotation) % players] for seat in range(players))
    seats = [
        build_player(level, seed * 7919 + seat * 104729 + 1, settings.budget, settings.pimc_budget)
        for seat, level in enumerate(levels)
    ]
    game = Game(players, seed, Options(bids_may_not_add_up=settings.variant))
    times: dict[str, list[float]] = {level: [] for level in levels}
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    clock = time.perf_counter
    cpu_clock = time.process_time
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        observation = game.observation(seat)
        started = clock()
        cpu_started = cpu_clock()
        action = seats[seat].choose(observation)
        cpu[levels[seat]].append(cpu_clock() - cpu_started)
        times[levels[seat]].append(clock() - started)
        game.apply(action, by=seat)
    exact = tuple(sum(1 for r in game.history if r.bids[seat] == r.tricks[seat]) for seat in range(players))
    return GameRecord(levels, tuple(game.scores), exact, len(game.history), times, cpu)


def _run(args: tuple[int, Settings]) -> GameRecord:
    return play_game(*args)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def report(records: Sequence[GameRecord], players: int) -> str:
    levels = sorted({level for r in records for level in r.levels}, key=LEVELS.index)
    blocks: dict[int, list[GameRecord]] = {}
    for index, record in enumerate(records):
        blocks.setdefault(index // players, []).append(record)
    lines = [
        f"{len(records)} games, {players} players, {len(blocks)} deal seeds x {players} seat rotations; "
        "95% CI over deal seeds",
        f"{'level':<7} {'seats':>5} {'points/game':>17} {'diff vs others':>17} {'win rate':>9} "
        f"{'exact bids':>10} {'decisions':>9}   wall ms p50/p95/max     CPU ms p50/p95/max",
    ]
    for level in levels:
        seat_count = sum(1 for lv in records[0].levels if lv == level)
        points_per_block: list[float] = []
        diffs_per_block: list[float] = []
        for block in blocks.values():
            mine: list[float] = []
            diffs: list[float] = []
            for r in block:
                own = [s for s, lv in zip(r.scores, r.levels, strict=True) if lv == level]
                rest = [s for s, lv in zip(r.scores, r.levels, strict=True) if lv != level]
                mine.append(statistics.fmean(own))
                if rest:
                    diffs.append(statistics.fmean(own) - statistics.fmean(rest))
            points_per_block.append(statistics.fmean(mine))
            if diffs:
                diffs_per_block.append(statistics.fmean(diffs))
        points, points_ci = mean_ci(points_per_block)
        if diffs_per_block:
            diff, diff_ci = mean_ci(diffs_per_block)
            diff_text = f"{diff:+8.1f} ±{diff_ci:6.1f}"
        else:
            diff_text = "-"
        wins = 0.0
        exact = 0
        rounds = 0
        for r in records:
            top = max(r.scores)
            winners = [s for s, score in enumerate(r.scores) if score == top]
            for seat, lv in enumerate(r.levels):
                if lv == level:
                    exact += r.exact[seat]
                    rounds += r.rounds
                    if seat in winners:
                        wins += 1 / len(winners)
        times = [t for r in records for t in r.times.get(level, [])]
        cpu = [t for r in records for t in r.cpu.get(level, [])]
        lines.append(
            f"{level:<7} {seat_count:>5} {points:8.1f} ±{points_ci:6.1f} {diff_text:>17} "
            f"{wins / (len(records) * seat_count):>9.1%} {exact / rounds:>10.1%} {len(times):>9} "
            f"{spread(times):>22} {spread(cpu):>22}"
        )
    return "\n".join(lines)


def spread(seconds: Sequence[float]) -> str:
    """Median, 95th percentile and maximum, in milliseconds."""
    values = (percentile(seconds, 0.5), percentile(seconds, 0.95), max(seconds))
    return "/".join(f"{1000 * value:.1f}" for value in values)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games to play (best a multiple of --players)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seats", default="hard,normal,normal,normal", help=f"a level per seat: {', '.join(LEVELS)}")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes to play games in")
    parser.add_argument("--variant", action="store_true", help='play with "bids may not add up"')
    parser.add_argument("--budget", type=int, default=None, help="the hard level's card plays per decision")
    parser.add_argument("--pimc-budget", type=int, default=None, help="the search yardstick's card plays per decision")
    args = parser.parse_args(argv)
    seats = tuple(level.strip() for level in args.seats.split(","))
    if len(seats) != args.players:
        parser.error(f"--seats names {len(seats)} levels for {args.players} players")
    unknown = [level for level in seats if level not in LEVELS]
    if unknown:
        parser.error(f"unknown levels {unknown}; choose from {', '.join(LEVELS)}")
    settings = Settings(args.players, seats, args.seed, args.variant, args.budget, args.pimc_budget)
    started = time.perf_counter()
    jobs = [(index, settings) for index in range(args.games)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            records = pool.map(_run, jobs, chunksize=1)
    else:
        records = [_run(job) for job in jobs]
    print(report(records, args.players))
    print(
        f"{time.perf_counter() - started:.1f} s wall, {args.workers} worker(s)"
        + (", variant: bids may not add up" if args.variant else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
