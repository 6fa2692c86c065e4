"""Refit the normal level's card values (`bot/ai/values.py`) to self-play.

    python -m bot.simulate.calibrate --players 3,4,5,6 --games 3000 --iterations 2

Each iteration plays games between normal players bidding with the current values, records for
every hand the count of each card category (`policy.value_category`) and the tricks it took, and
solves per round context (`policy.value_context`) the least-squares fit tricks ~ sum of values,
pulled towards the current values (ridge) so rare categories stay put. The bids steer the play, so
the fit is iterated to a fixed point; the exact-bid rate is printed to judge it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from bot.ai import NormalPlayer, policy
from bot.ai.players import known_cards
from bot.ai.values import VALUES
from bot.engine import Game, Phase

CATEGORIES = 28
DEFAULT_ROW = (0.95, 0.0, *([0.3] * 13), *([0.15] * 13))
Context = tuple[int, int, int]
# Per context: the normal equations (X'X, X'y) and the number of hands.
Sums = dict[Context, tuple[list[list[float]], list[float], list[int]]]


def collect(players: int, games: int, seed: int, sums: Sums) -> tuple[int, int]:
    """Play `games` games of normal players; add each hand's categories and tricks to `sums`.

    Returns the exact bids and the hands seen."""
    exact = hands = 0
    for number in range(games):
        game = Game(players, seed + number)
        seats = [NormalPlayer(random.Random(seed * 31 + number * 7 + seat)) for seat in range(players)]
        rows: dict[int, tuple[Context, list[int]]] = {}
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            observation = game.observation(seat)
            if observation.phase is Phase.BID:
                known = known_cards(observation)
                counts = [0] * CATEGORIES
                for card in observation.hand:
                    counts[policy.value_category(card, observation.trump, known)] += 1
                rows[seat] = (policy.value_context(players, observation.round, observation.trump), counts)
            finished = len(game.history)
            game.apply(seats[seat].choose(observation), by=seat)
            if len(game.history) == finished:
                continue
            result = game.history[-1]
            for other, (context, counts) in rows.items():
                tricks = result.tricks[other]
                exact += result.bids[other] == tricks
                hands += 1
                gram, moments, count = sums.setdefault(
                    context, ([[0.0] * CATEGORIES for _ in range(CATEGORIES)], [0.0] * CATEGORIES, [0])
                )
                present = [(i, n) for i, n in enumerate(counts) if n]
                for i, n in present:
                    moments[i] += n * tricks
                    for j, m in present:
                        gram[i][j] += n * m
                count[0] += 1
            rows = {}
    return exact, hands


def solve(gram: list[list[float]], moments: list[float], prior: Sequence[float], ridge: float) -> list[float]:
    """Minimise |y - X v|^2 + ridge |v - prior|^2 by Gauss-Jordan elimination."""
    size = len(moments)
    rows = [
        [gram[i][j] + (ridge if i == j else 0.0) for j in range(size)] + [moments[i] + ridge * prior[i]]
        for i in range(size)
    ]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col] / rows[col][col]
                for k in range(col, size + 1):
                    rows[r][k] -= factor * rows[col][k]
    return [rows[i][size] / rows[i][i] for i in range(size)]


HEADER = '''"""Card values for the normal estimate of a hand's tricks, fitted to self-play.

Keyed by (players, cards per player, 1 with trump or 0 without; rounds without trump are grouped,
see `policy.value_context`); each row holds the expected tricks of a Wizard, a Jester, a trump of
effective rank 1-13 and a card of another suit of effective rank 1-13 (`policy.value_category`:
the rank among the cards not yet seen, so a queen with the king seen counts as a king).

They were fitted by least squares (ridge-regularised) of the tricks each hand took in thousands of
games between normal players bidding with the previous values, refitted until the exact-bid rate
settled (`python -m bot.simulate.calibrate`). They are regression coefficients, not chances: some
fall below 0 or above 1, and only their sum over a hand means anything.
"""
'''


def render(values: Mapping[Context, Sequence[float]]) -> str:
    lines = [HEADER, "# fmt: off", "VALUES: dict[tuple[int, int, int], tuple[float, ...]] = {"]
    for context in sorted(values):
        row = values[context]
        lines.append(f"    {context!r}: (")
        lines.append("        " + ", ".join(f"{v:.3f}" for v in row[:15]) + ",")
        lines.append("        " + ", ".join(f"{v:.3f}" for v in row[15:]) + ",")
        lines.append("    ),")
    lines += ["}", "# fmt: on", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.simulate.calibrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="3,4,5,6", help="player counts to fit, comma-separated")
    parser.add_argument("--games", type=int, default=3000, help="games per player count and iteration")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--ridge", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, default=Path(policy.__file__).with_name("values.py"))
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    for iteration in range(args.iterations):
        sums: Sums = {}
        for players in counts:
            exact, hands = collect(players, args.games, args.seed * 100_000 + iteration * 10_000 + players, sums)
            print(f"iteration {iteration + 1}, {players} players: {exact / hands:.1%} exact bids in {hands} hands")
        for context, (gram, moments, _) in sums.items():
            prior = VALUES.get(context, DEFAULT_ROW)
            VALUES[context] = tuple(round(v, 3) for v in solve(gram, moments, prior, args.ridge))
    args.output.write_text(render(VALUES), encoding="utf-8")
    print(f"wrote {len(VALUES)} contexts to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
