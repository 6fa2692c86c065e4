"""The strength-measuring tool runs and prints its table."""

from __future__ import annotations

import subprocess
import sys

from bot.simulate import mean_ci, percentile


def test_simulate_prints_a_row_per_level() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.simulate", "--games", "3", "--players", "3", "--seats", "hard,normal,random",
         "--budget", "50", "--variant"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 games, 3 players")
    for column in ("points/game", "diff vs others", "win rate", "exact bids", "wall ms p50/p95/max", "CPU ms"):
        assert column in lines[1]
    rows = {line.split()[0]: line for line in lines[2:5]}
    assert set(rows) == {"random", "normal", "hard"}


def test_simulate_seats_the_baseline_yardstick() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.simulate", "--games", "3", "--players", "3", "--seats", "baseline,normal,easy"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = {line.split()[0] for line in result.stdout.splitlines()[2:5]}
    assert rows == {"baseline", "normal", "easy"}


def test_simulate_seats_the_search_yardstick() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.simulate", "--games", "3", "--players", "3", "--seats", "pimc,normal,baseline",
         "--pimc-budget", "200"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    rows = {line.split()[0] for line in result.stdout.splitlines()[2:5]}
    assert rows == {"pimc", "normal", "baseline"}


def test_simulate_rejects_a_seat_count_that_does_not_match() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot.simulate", "--games", "1", "--players", "4", "--seats", "easy,normal"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert "--seats" in result.stderr


def test_statistics() -> None:
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert 1.2 < half < 1.3
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.95) == 5.0
