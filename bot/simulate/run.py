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
clock runs ahead, the CPU time is what one core of its own would take. Under the table, each
level's rounds are split where hard changes how it bids (`LONG_ROUND`).

`--save FILE` keeps each level's lead per deal seed; a later run on the same deals with
`--paired FILE` (another version of the code, say) prints the change deal seed by deal seed; a run
of fewer games pairs with the earlier run's first deal seeds.

`--decision-seeds` reseeds each seat's generator before each of its decisions from the deal seed,
the seat, the round and the decision's place in the round, instead of letting one generator run
through the game. A round's deal never depends on the play (the engine draws it from the game's
seed), and no level reads the scores of earlier rounds, so a round then plays the same whatever
happened before it: a change to one kind of round leaves every other round of a paired run as it
was, and the paired change splits exactly into the short and the long rounds' parts. Without it,
a changed decision changes every later draw, and the rounds after it carry their own noise.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.ai import Level, Player, RandomPlayer
from bot.ai.players import LONG_ROUND, EasyPlayer, HardPlayer, NormalPlayer, is_long_round
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
    pimc_worlds: int | None = None
    rounds: int | None = None  # only the game's first rounds (the shortest), else all
    decision_seeds: bool = False  # reseed each seat before each decision (`decision_seed`)


@dataclass
class GameRecord:
    levels: tuple[str, ...]  # by seat
    scores: tuple[int, ...]
    # Per round played: the cards each seat was dealt; the bids, tricks and points by seat.
    played: list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]
    times: dict[str, list[float]] = field(default_factory=dict)  # decision seconds by level, wall clock
    cpu: dict[str, list[float]] = field(default_factory=dict)  # and CPU time of this process

    @property
    def rounds(self) -> int:
        return len(self.played)

    def exact(self, seat: int) -> int:
        """The rounds in which `seat` took exactly the tricks it bid."""
        return sum(1 for _, bids, tricks, _ in self.played if bids[seat] == tricks[seat])


def build_player(
    level: str,
    rng: random.Random | int,
    budget: int | None,
    pimc_budget: int | None = None,
    pimc_worlds: int | None = None,
) -> Player:
    """A player of `level` drawing from `rng` (a generator, or the seed of a new one)."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    if level == "random":
        return RandomPlayer(rng)
    if level == "baseline":
        return BaselinePlayer(rng)
    if level == "pimc":
        options: dict[str, int] = {}
        if pimc_budget is not None:
            options.update(budget=pimc_budget, min_worlds=1)
        if pimc_worlds is not None:
            options.update(max_worlds=pimc_worlds)
        return PimcPlayer(rng, **options)
    if level == Level.EASY.value:
        return EasyPlayer(rng)
    if level == Level.NORMAL.value:
        return NormalPlayer(rng)
    if budget is not None:
        return HardPlayer(rng, budget=budget, min_worlds=1)
    return HardPlayer(rng)


# A game has at most 20 rounds (3 players); a round at most 6 bids, 60 card plays and a trump choice.
ROUNDS_BOUND = 64
STEPS_BOUND = 128


def decision_seed(seat_seed: int, round_index: int, step: int) -> int:
    """The seed of a seat's generator for its decision at `step` (the actions taken so far in the
    round, by anyone) of the game's `round_index`-th round (from 0), with `--decision-seeds`: a
    different one for every decision of the game."""
    return (seat_seed * ROUNDS_BOUND + round_index) * STEPS_BOUND + step


def play_game(index: int, settings: Settings) -> GameRecord:
    """Game `index`: block index // players gives the deal seed, index % players the seat rotation."""
    players = settings.players
    block, rotation = divmod(index, players)
    seed = settings.seed * 1_000_003 + block
    levels = tuple(settings.seats[(seat - rotation) % players] for seat in range(players))
    seat_seeds = [seed * 7919 + seat * 104729 + 1 for seat in range(players)]
    rngs = [random.Random(seat_seed) for seat_seed in seat_seeds]
    seats = [
        build_player(level, rngs[seat], settings.budget, settings.pimc_budget, settings.pimc_worlds)
        for seat, level in enumerate(levels)
    ]
    game = Game(players, seed, Options(rounds=settings.rounds, bids_may_not_add_up=settings.variant))
    step = 0
    times: dict[str, list[float]] = {level: [] for level in levels}
    cpu: dict[str, list[float]] = {level: [] for level in levels}
    clock = time.perf_counter
    cpu_clock = time.process_time
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        observation = game.observation(seat)
        finished = len(game.history)
        if settings.decision_seeds:
            rngs[seat].seed(decision_seed(seat_seeds[seat], finished, step))
        started = clock()
        cpu_started = cpu_clock()
        action = seats[seat].choose(observation)
        cpu[levels[seat]].append(cpu_clock() - cpu_started)
        times[levels[seat]].append(clock() - started)
        game.apply(action, by=seat)
        step = 0 if len(game.history) > finished else step + 1
    played = [(r.round, r.bids, r.tricks, r.points) for r in game.history]
    return GameRecord(levels, tuple(game.scores), played, times, cpu)


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


def levels_of(records: Sequence[GameRecord]) -> list[str]:
    """The levels that played, in the order of `LEVELS`."""
    return sorted({level for r in records for level in r.levels}, key=LEVELS.index)


def report(records: Sequence[GameRecord], players: int) -> str:
    levels = levels_of(records)
    blocks = by_block(records, players)
    lines = [
        f"{len(records)} games, {players} players, {len(blocks)} deal seeds x {players} seat rotations; "
        "95% CI over deal seeds",
        f"{'level':<7} {'seats':>5} {'points/game':>17} {'diff vs others':>17} {'win rate':>9} "
        f"{'exact bids':>10} {'decisions':>9}   wall ms p50/p95/max     CPU ms p50/p95/max",
    ]
    for level in levels:
        seat_count = sum(1 for lv in records[0].levels if lv == level)
        points_per_block = [
            statistics.fmean(s for r in block for s, lv in zip(r.scores, r.levels, strict=True) if lv == level)
            for block in blocks
        ]
        diffs_per_block = block_diffs(records, players, level)
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
                    exact += r.exact(seat)
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
    lines.extend(report_rounds(records, players, levels))
    return "\n".join(lines)


def by_block(records: Sequence[GameRecord], players: int) -> list[list[GameRecord]]:
    """The games of each deal seed: one per seat rotation."""
    return [list(records[start : start + players]) for start in range(0, len(records), players)]


def block_diffs(records: Sequence[GameRecord], players: int, level: str, long: bool | None = None) -> list[float]:
    """Per deal seed, the mean points a game of `level`'s seats above the other seats', in the
    whole game or, with `long`, in its long (True) or short (False) rounds alone
    (`players.is_long_round`): the two parts add up to the whole."""
    diffs: list[float] = []
    for block in by_block(records, players):
        games = []
        for r in block:
            scores = r.scores if long is None else part_scores(r, players, long)
            own = [s for s, lv in zip(scores, r.levels, strict=True) if lv == level]
            rest = [s for s, lv in zip(scores, r.levels, strict=True) if lv != level]
            if own and rest:
                games.append(statistics.fmean(own) - statistics.fmean(rest))
        if games:
            diffs.append(statistics.fmean(games))
    return diffs


def part_scores(record: GameRecord, players: int, long: bool) -> list[int]:
    """Each seat's points in the game's long (True) or short (False) rounds."""
    totals = [0] * players
    for cards, _, _, points in record.played:
        if is_long_round(players, cards) is long:
            totals = [total + scored for total, scored in zip(totals, points, strict=True)]
    return totals


PARTS = {"short": False, "long": True}


def report_rounds(records: Sequence[GameRecord], players: int, levels: Sequence[str]) -> list[str]:
    """Each level's rounds split where hard changes how it bids (`players.is_long_round`), with
    points, exact bids, bids and tricks a round."""
    lines = [f"by round: long = {LONG_ROUND} card plays or more (hard bids by the normal rule there)"]
    for level in levels:
        for long in (False, True):
            count = points = exact = bids = tricks = 0
            for r in records:
                for cards, bid, took, scored in r.played:
                    if is_long_round(players, cards) is not long:
                        continue
                    for seat, lv in enumerate(r.levels):
                        if lv == level:
                            count += 1
                            points += scored[seat]
                            exact += bid[seat] == took[seat]
                            bids += bid[seat]
                            tricks += took[seat]
            if count:
                lines.append(
                    f"{level:<7} {'long' if long else 'short':<5} {count:>6} rounds {points / count:7.2f} points "
                    f"{exact / count:7.1%} exact  bid {bids / count:5.2f}  took {tricks / count:5.2f}"
                )
    return lines


def same_deals(settings: Settings, games: int, earlier: dict[str, object]) -> str | None:
    """Why an earlier run saved with `--save` played other deals than this one; None if it did not.

    A run of fewer games pairs with the first deal seeds of a longer one (deal seeds follow the
    block index alone), so a quick check can be paired with a long saved run; its blocks must then
    be whole, or its last deal seed would be compared on fewer seat rotations than the earlier's."""
    same = {
        "players": settings.players,
        "seed": settings.seed,
        "variant": settings.variant,
        "rounds": settings.rounds,
        "decision_seeds": settings.decision_seeds,
    }
    for key, value in same.items():
        # Runs saved before `--decision-seeds` existed let one generator run through each game.
        then = earlier.get(key, False if key == "decision_seeds" else None)
        if then != value:
            return f"the earlier run played other deals: its {key} is {then}, not {value}"
    before = earlier.get("games")
    if not isinstance(before, int) or games > before or (games < before and games % settings.players):
        return (
            f"the earlier run played other deals: its games are {before}; pair {before} games, "
            f"or fewer in whole blocks of {settings.players}"
        )
    return None


def paired(records: Sequence[GameRecord], players: int, earlier: dict[str, object]) -> str:
    """The difference, deal seed by deal seed, between this run's lead of each level over the
    others and that of an earlier run on the same deals (`same_deals`)."""
    lines = ["paired with the earlier run, on the same deal seeds (this run less that one):"]
    before = earlier["diffs"]
    assert isinstance(before, dict)
    for level, diffs in _diffs(records, players).items():
        if level not in before:
            continue
        # The earlier run may be longer (`same_deals`): this run's deal seeds are its first ones.
        change = [now - then for now, then in zip(diffs, before[level][: len(diffs)], strict=True)]
        mean, half = mean_ci(change)
        lines.append(f"{level:<7} {mean:+8.1f} ±{half:6.1f} points a game above the others ({len(change)} deal seeds)")
    parts = earlier.get("parts")
    if isinstance(parts, dict):
        for name, long in PARTS.items():
            for level, diffs in _diffs(records, players, long).items():
                then = parts.get(name, {}).get(level)
                if then is None:
                    continue
                change = [now - was for now, was in zip(diffs, then[: len(diffs)], strict=True)]
                mean, half = mean_ci(change)
                lines.append(f"{level:<7} {mean:+8.1f} ±{half:6.1f} of it in the {name} rounds")
    return "\n".join(lines)


def _diffs(records: Sequence[GameRecord], players: int, long: bool | None = None) -> dict[str, list[float]]:
    found = {level: block_diffs(records, players, level, long) for level in levels_of(records)}
    return {level: diffs for level, diffs in found.items() if diffs}


def saved(records: Sequence[GameRecord], settings: Settings, games: int) -> dict[str, object]:
    """What `--save` writes: the deals played and each level's lead per deal seed."""
    return {
        "players": settings.players,
        "seed": settings.seed,
        "variant": settings.variant,
        "rounds": settings.rounds,
        "decision_seeds": settings.decision_seeds,
        "games": games,
        "seats": list(settings.seats),
        "diffs": _diffs(records, settings.players),
        "parts": {name: _diffs(records, settings.players, long) for name, long in PARTS.items()},
    }


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
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="play only each game's first ROUNDS rounds, the shortest (default: all)",
    )
    parser.add_argument("--budget", type=int, default=None, help="the hard level's card plays per decision")
    parser.add_argument("--pimc-budget", type=int, default=None, help="the search yardstick's card plays per decision")
    parser.add_argument("--pimc-worlds", type=int, default=None, help="the most deals the search yardstick samples")
    parser.add_argument(
        "--decision-seeds",
        action="store_true",
        help="reseed each seat before each decision, so that a round plays alike whatever came before it",
    )
    parser.add_argument("--save", type=Path, help="write each level's lead per deal seed to this JSON file")
    parser.add_argument("--paired", type=Path, help="compare, deal seed by deal seed, with a run saved by --save")
    args = parser.parse_args(argv)
    seats = tuple(level.strip() for level in args.seats.split(","))
    if len(seats) != args.players:
        parser.error(f"--seats names {len(seats)} levels for {args.players} players")
    unknown = [level for level in seats if level not in LEVELS]
    if unknown:
        parser.error(f"unknown levels {unknown}; choose from {', '.join(LEVELS)}")
    try:
        Options(rounds=args.rounds).round_numbers(args.players)
    except ValueError as error:
        parser.error(f"--rounds: {error}")
    settings = Settings(
        args.players,
        seats,
        args.seed,
        args.variant,
        args.budget,
        args.pimc_budget,
        args.pimc_worlds,
        args.rounds,
        args.decision_seeds,
    )
    earlier = None
    if args.paired:
        try:
            earlier = json.loads(args.paired.read_text())
        except (OSError, ValueError) as error:
            parser.error(f"--paired {args.paired}: {error}")
    if earlier is not None:
        mismatch = same_deals(settings, args.games, earlier)
        if mismatch:
            parser.error(mismatch)
    started = time.perf_counter()
    jobs = [(index, settings) for index in range(args.games)]
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            records = pool.map(_run, jobs, chunksize=1)
    else:
        records = [_run(job) for job in jobs]
    print(report(records, args.players))
    if earlier is not None:
        print(paired(records, args.players, earlier))
    if args.save:
        args.save.write_text(json.dumps(saved(records, settings, args.games), indent=1) + "\n")
    print(
        f"{time.perf_counter() - started:.1f} s wall, {args.workers} worker(s)"
        + (", variant: bids may not add up" if args.variant else "")
        + (", decision seeds" if args.decision_seeds else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
