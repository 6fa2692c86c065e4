"""Full random-legal games per second through the engine's public API, on one core.

python bench/engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# Run as `python bench/<name>.py` from a clone: the bot is imported from the clone, not installed.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import Game, Options  # noqa: E402


def play_games(players: int, seconds: float, options: Options) -> tuple[int, float]:
    """Play random legal games for about `seconds`; return the games played and the time taken."""
    # A uniform pick with one call to random(), which is C; random.choice adds two Python calls
    # per move, which belong to the random player rather than to the engine being measured.
    pick = random.Random(1).random
    games = 0
    start = time.perf_counter()
    while True:
        game = Game(players, seed=games, options=options)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(pick() * len(legal))])
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count")
    parser.add_argument("--variant", action="store_true", help='with "bids may not add up"')
    args = parser.parse_args()
    options = Options(bids_may_not_add_up=args.variant)
    for players in range(3, 7):
        games, elapsed = play_games(players, args.seconds, options)
        print(f"{players} players: {games / elapsed:8.0f} games/s ({games} games in {elapsed:.1f} s)")


if __name__ == "__main__":
    main()
