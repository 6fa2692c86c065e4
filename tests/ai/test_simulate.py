"""The strength-measuring tool runs and prints its table."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.ai.players import LONG_ROUND, HardPlayer, is_long_round
from bot.engine import Action, Observation
from bot.simulate import mean_ci, percentile, run
from bot.simulate.pimc import PimcPlayer
from bot.simulate.run import ROUNDS_BOUND, STEPS_BOUND, Settings, build_player, decision_seed, play_game


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


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.simulate", *args], capture_output=True, text=True, timeout=120
    )  # fmt: skip


SMALL = ("--games", "6", "--players", "3", "--seats", "hard,pimc,normal", "--budget", "300", "--pimc-budget", "400")
SPLIT_LINE = f"by round: long = {LONG_ROUND} card plays or more (hard bids by the normal rule there)"


def short_rounds(players: int, rounds: int) -> int:
    """How many of a game's first `rounds` rounds (of 1, 2, ... cards) are short; the short come first."""
    return sum(1 for cards in range(1, rounds + 1) if not is_long_round(players, cards))


def test_simulate_splits_each_levels_rounds_where_hard_changes_how_it_bids() -> None:
    result = simulate(*SMALL)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    split = lines.index(SPLIT_LINE)
    rows = [line.split() for line in lines[split + 1 : split + 7]]
    # A game of three plays 20 rounds, of 1 to 20 cards each.
    short = short_rounds(3, 20)
    assert {(row[0], row[1], row[2]) for row in rows} == {
        (level, kind, str(6 * count))
        for level in ("hard", "pimc", "normal")
        for kind, count in (("short", short), ("long", 20 - short))
    }


def test_a_run_paired_with_itself_differs_by_nothing(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    first = simulate(*SMALL, "--save", str(saved))
    assert first.returncode == 0, first.stderr
    again = simulate(*SMALL, "--paired", str(saved))
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("paired with the earlier run"))
    rows = {line.split()[0]: line.split()[1:3] for line in lines[start + 1 : start + 4]}
    assert rows == {level: ["+0.0", "±"] for level in ("hard", "pimc", "normal")}
    # A different hard is told apart deal seed by deal seed. (A world is three playouts of each
    # candidate, so 300 plays and 900 both make most decisions a single world: ten times as many.)
    other = simulate(*[arg if arg != "300" else "3000" for arg in SMALL], "--paired", str(saved))
    changed = {line.split()[0]: line.split()[1] for line in other.stdout.split("paired with")[1].splitlines()[1:]}
    assert changed["hard"] != "+0.0"


def test_a_run_can_play_only_the_short_rounds_and_pairs_only_with_one_that_did(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    result = simulate(*SMALL, "--rounds", "4", "--save", str(saved))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert short_rounds(3, 4) == 4
    split = lines.index(SPLIT_LINE)
    rows = [line.split() for line in lines[split + 1 : split + 4]]
    assert {(row[0], row[1], row[2]) for row in rows} == {
        (level, "short", str(6 * 4)) for level in ("hard", "pimc", "normal")
    }
    assert simulate(*SMALL, "--rounds", "4", "--paired", str(saved)).returncode == 0
    whole = simulate(*SMALL, "--paired", str(saved))
    assert whole.returncode == 2
    assert "its rounds is 4, not None" in whole.stderr
    too_many = simulate(*SMALL, "--rounds", "21")
    assert too_many.returncode == 2
    assert "--rounds" in too_many.stderr


def test_a_shorter_run_pairs_with_the_first_deal_seeds_of_a_longer_one(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert simulate(*SMALL, "--save", str(saved)).returncode == 0
    # SMALL is two deal seeds of three games; the first alone is the same games again.
    first = simulate(*[arg if arg != "6" else "3" for arg in SMALL], "--paired", str(saved))
    assert first.returncode == 0, first.stderr
    lines = first.stdout.split("paired with the earlier run")[1].splitlines()[1:4]
    assert {line.split()[0]: line.split()[1] for line in lines} == {"hard": "+0.0", "pimc": "+0.0", "normal": "+0.0"}
    assert all(line.endswith("(1 deal seeds)") for line in lines)
    for games in ("4", "9"):
        refused = simulate(*[arg if arg != "6" else games for arg in SMALL], "--paired", str(saved))
        assert refused.returncode == 2
        assert "its games are 6" in refused.stderr


def test_a_run_on_other_deals_is_not_paired(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert simulate(*SMALL, "--save", str(saved)).returncode == 0
    result = simulate(*SMALL, "--seed", "2", "--paired", str(saved))
    assert result.returncode == 2
    assert "its seed is 1, not 2" in result.stderr
    missing = simulate(*SMALL, "--paired", str(tmp_path / "none.json"))
    assert missing.returncode == 2
    assert "--paired" in missing.stderr


def test_the_search_yardstick_can_be_made_cheaper() -> None:
    player = build_player("pimc", 1, None, 20_000, 100)
    assert isinstance(player, PimcPlayer)
    assert (player.budget, player.max_worlds) == (20_000, 100)


class ShortRoundsChanged:
    """Hard with ten times the budget in the short rounds only, drawing from one generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.short = HardPlayer(rng, budget=3000, min_worlds=1)
        self.long = HardPlayer(rng, budget=300, min_worlds=1)

    def choose(self, observation: Observation) -> Action:
        long = is_long_round(observation.players, observation.round)
        return (self.long if long else self.short).choose(observation)


def test_decision_seeds_leave_the_rounds_a_change_does_not_touch_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(3, ("hard", "normal", "easy"), 1, False, 300, rounds=12)
    short = short_rounds(3, 12)
    assert 0 < short < 12
    seeded = replace(settings, decision_seeds=True)
    before = [play_game(0, kind).played for kind in (settings, seeded)]

    def changed(level: str, rng: random.Random | int, *args: object) -> object:
        if level == "hard":
            assert isinstance(rng, random.Random)
            return ShortRoundsChanged(rng)
        return build_player(level, rng, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(run, "build_player", changed)
    after = [play_game(0, kind).played for kind in (settings, seeded)]
    for old, new in zip(before, after, strict=True):
        assert new[:short] != old[:short]
    # The long rounds play as before only when each decision has its own seed.
    assert after[0][short:] != before[0][short:]
    assert after[1][short:] == before[1][short:]


def test_every_decision_of_a_game_has_its_own_seed() -> None:
    seeds = {decision_seed(5, round_index, step) for round_index in range(ROUNDS_BOUND) for step in range(STEPS_BOUND)}
    assert len(seeds) == ROUNDS_BOUND * STEPS_BOUND
    assert not seeds & {decision_seed(6, 0, step) for step in range(STEPS_BOUND)}


SEEDED = (*SMALL, "--rounds", "12", "--decision-seeds")


def test_a_run_with_decision_seeds_splits_its_pairing_into_short_and_long_rounds(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert simulate(*SEEDED, "--save", str(saved)).returncode == 0
    kept = json.loads(saved.read_text())
    assert kept["decision_seeds"] is True
    for level, whole in kept["diffs"].items():
        parts = [kept["parts"][name][level] for name in ("short", "long")]
        assert [round(a + b, 6) for a, b in zip(*parts, strict=True)] == [round(w, 6) for w in whole]
    assert 0 < short_rounds(3, 12) < 12
    assert any(kept["parts"]["long"]["hard"])
    assert any(kept["parts"]["short"]["hard"])
    other = simulate(*[arg if arg != "300" else "3000" for arg in SEEDED], "--paired", str(saved))
    assert other.returncode == 0, other.stderr
    lines = other.stdout.split("paired with the earlier run")[1].splitlines()
    assert any(line.startswith("hard") and line.endswith("of it in the short rounds") for line in lines)
    assert any(line.startswith("hard") and line.endswith("of it in the long rounds") for line in lines)


def test_a_run_pairs_only_with_one_seeded_the_same_way(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert simulate(*SMALL, "--save", str(saved)).returncode == 0
    refused = simulate(*SMALL, "--decision-seeds", "--paired", str(saved))
    assert refused.returncode == 2
    assert "its decision_seeds is False, not True" in refused.stderr


def test_a_run_saved_before_decision_seeds_existed_counts_as_one_without_them(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    assert simulate(*SMALL, "--save", str(saved)).returncode == 0
    kept = json.loads(saved.read_text())
    del kept["decision_seeds"], kept["parts"]
    saved.write_text(json.dumps(kept))
    assert simulate(*SMALL, "--paired", str(saved)).returncode == 0
    refused = simulate(*SMALL, "--decision-seeds", "--paired", str(saved))
    assert "its decision_seeds is False, not True" in refused.stderr
