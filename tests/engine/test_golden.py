"""A recorded game with known final scores: replaying its log must reach the same scores.

The file tests/data/golden_game.json was made once by `python -m tests.engine.test_golden` (4
players, seed 20261129, each action chosen by `random.Random(7).choice(game.legal_actions())`).
Do not regenerate it to make a failing test pass: a difference means the engine now plays or
scores the same game differently, which also breaks every saved game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Card, Game, Options, Phase, Suit, action_from_json, action_to_json

GOLDEN = Path(__file__).parent.parent / "data" / "golden_game.json"
PLAYERS, SEED, CHOOSER_SEED = 4, 20261129, 7


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def replayed(golden: dict[str, Any]) -> Game:
    log = [(seat, action_from_json(action)) for seat, action in golden["log"]]
    return Game.replay(golden["players"], golden["seed"], Options.from_json(golden["options"]), log)


def test_golden_file_describes_the_recorded_game(golden: dict[str, Any]) -> None:
    assert (golden["players"], golden["seed"], golden["chooser_seed"]) == (PLAYERS, SEED, CHOOSER_SEED)
    assert golden["options"] == {"bids_may_not_add_up": False}
    assert len(golden["history"]) == 15


def test_golden_replay_reaches_the_stored_final_scores(golden: dict[str, Any], replayed: Game) -> None:
    assert replayed.phase is Phase.GAME_OVER
    assert replayed.scores == golden["final_scores"]


def test_golden_replay_reaches_the_stored_round_results(golden: dict[str, Any], replayed: Game) -> None:
    history = [
        {
            "round": r.round,
            "bids": list(r.bids),
            "tricks": list(r.tricks),
            "points": list(r.points),
            "totals": list(r.totals),
        }
        for r in replayed.history
    ]
    assert history == golden["history"]


def test_golden_replay_has_the_stored_winners(golden: dict[str, Any], replayed: Game) -> None:
    assert replayed.winners() == golden["winners"]


def test_golden_replay_has_the_stored_first_dealer(golden: dict[str, Any], replayed: Game) -> None:
    assert replayed.first_dealer == golden["first_dealer"]


def test_golden_first_round_deal_is_the_stored_one(golden: dict[str, Any]) -> None:
    game = Game(golden["players"], golden["seed"])
    assert [[card.code for card in hand] for hand in game.hands] == golden["round_1"]["hands"]
    assert game.turned_up is Card.parse(golden["round_1"]["turned_up"])


def test_golden_round_1_worked_out_by_hand(golden: dict[str, Any]) -> None:
    # Round 1, worked out by hand from the rules rather than by the engine. Seat 0 deals and a
    # Wizard (W3) is turned up, so seat 0 names trump: diamonds. Seat 1 bids first and leads.
    # Hands: seat 0 S11, seat 1 D2, seat 2 C5, seat 3 H6.
    # Bids (seats 1, 2, 3, 0): 0, 1, 0, 0.
    # The trick: D2 (led, and trump), C5, H6, S11. No Wizard; the only trump is D2, so seat 1 wins
    # it with the lowest card on the table.
    # Points: seat 0 bid 0 took 0: 20. Seat 1 bid 0 took 1: -10. Seat 2 bid 1 took 0: -10.
    # Seat 3 bid 0 took 0: 20.
    assert golden["round_1"] == {"hands": [["S11"], ["D2"], ["C5"], ["H6"]], "turned_up": "W3"}
    assert golden["first_dealer"] == 0
    assert golden["log"][:9] == [
        [0, {"trump": Suit.DIAMONDS.value}],
        [1, {"bid": 0}],
        [2, {"bid": 1}],
        [3, {"bid": 0}],
        [0, {"bid": 0}],
        [1, {"play": "D2"}],
        [2, {"play": "C5"}],
        [3, {"play": "H6"}],
        [0, {"play": "S11"}],
    ]
    assert golden["history"][0] == {
        "round": 1,
        "bids": [0, 0, 1, 0],
        "tricks": [0, 1, 0, 0],
        "points": [20, -10, -10, 20],
        "totals": [20, -10, -10, 20],
    }


def test_golden_final_scores_are_the_sum_of_the_round_points(golden: dict[str, Any]) -> None:
    sums = [sum(result["points"][seat] for result in golden["history"]) for seat in range(PLAYERS)]
    assert sums == golden["final_scores"]


def record_golden() -> dict[str, Any]:
    """Play the golden game; used once to write the file."""
    game = Game(PLAYERS, SEED)
    round_1 = {"hands": [[card.code for card in hand] for hand in game.hands], "turned_up": str(game.turned_up)}
    chooser = random.Random(CHOOSER_SEED)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()), by=game.to_move)
    return {
        "about": "A recorded game of Wizard; see tests/engine/test_golden.py. Never regenerate to fix a test.",
        "players": PLAYERS,
        "seed": SEED,
        "chooser_seed": CHOOSER_SEED,
        "options": game.options.to_json(),
        "first_dealer": game.first_dealer,
        "round_1": round_1,
        "final_scores": game.scores,
        "winners": game.winners(),
        "history": [
            {"round": r.round, "bids": r.bids, "tricks": r.tricks, "points": r.points, "totals": r.totals}
            for r in game.history
        ],
        "log": [[seat, action_to_json(action)] for seat, action in game.log],
    }


def golden_text(data: dict[str, Any]) -> str:
    """JSON with one log entry or round result per line, so that diffs of the file stay readable."""
    lines = ["{"]
    items = list(data.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], list | dict):
            lines.append(f"  {json.dumps(key)}: [")
            lines.extend(f"    {json.dumps(item)}{',' if i < len(value) - 1 else ''}" for i, item in enumerate(value))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(golden_text(record_golden()), encoding="utf-8")
