"""No computer player peeks: each decides from its seat's `Observation` alone.

Every situation is dealt twice with different cards in the hands the seat cannot see (and so in
the undealt stock), after the same bids and plays: the two observations are equal, and every
level, the yardsticks included, given the same seed, takes the same decision in both.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from bot.ai import EasyPlayer, HardPlayer, NormalPlayer, Player, RandomPlayer
from bot.engine import Game, Phase
from bot.simulate.baseline import BaselinePlayer
from bot.simulate.pimc import PimcPlayer

from .support import situation

PLAYERS: dict[str, Callable[[int], Player]] = {
    "random": lambda seed: RandomPlayer(random.Random(seed)),
    "easy": lambda seed: EasyPlayer(random.Random(seed)),
    "normal": lambda seed: NormalPlayer(random.Random(seed)),
    # Capped by its plays only, so the clock cannot make the two searches differ.
    "hard": lambda seed: HardPlayer(random.Random(seed), deadline=math.inf),
    "baseline": lambda seed: BaselinePlayer(random.Random(seed)),
    "pimc": lambda seed: PimcPlayer(random.Random(seed), budget=5000),
}

# Each: the seat deciding, then the two deals (by seat) and what happened before, the same in both.
SITUATIONS: dict[str, tuple[int, list[str], list[str], dict[str, object]]] = {
    "first bid": (
        0,
        ["S13 H2 W1", "C5 D7 C9", "H3 S2 C2", "D9 C7 D5"],
        ["S13 H2 W1", "S5 H11 J2", "C12 C3 H5", "S8 D13 W3"],
        {"turned_up": "D1", "dealer": 3},
    ),
    "last bid, bids may not add up": (
        3,
        ["C5 D7 C9", "H3 S2 C2", "W2 J1 H12", "S13 H2 W1"],
        ["W4 D12 S1", "J3 J4 C1", "D3 H9 S10", "S13 H2 W1"],
        {"turned_up": "H6", "dealer": 3, "bids": [1, 0, 2], "variant": True},
    ),
    "play after a void shows": (
        2,
        ["S13 H2 W1", "C5 D7 C9", "H3 C2 J4", "D9 C7 D5"],
        ["S13 H2 W1", "C5 H11 J2", "H3 C2 J4", "S8 D13 W3"],
        {"turned_up": "D1", "dealer": 3, "bids": [1, 0, 1, 1], "plays": "S13 C5"},
    ),
    "lead of the second trick": (
        0,
        ["S13 H2 W1", "C5 D7 S9", "H3 S2 C2", "D9 C7 S5"],
        ["S13 H2 W1", "J1 J3 S9", "H3 S2 C2", "S7 W4 S5"],
        {"turned_up": "C1", "dealer": 0, "bids": [0, 1, 1, 1], "plays": "S9 S2 S5 S13"},
    ),
    "trump choice after a turned-up Wizard": (
        3,
        ["C5 D7 C9", "H3 S2 C2", "D9 C7 D5", "S13 H2 S11"],
        ["W1 H12 C1", "J1 J2 D11", "S4 H6 C13", "S13 H2 S11"],
        {"turned_up": "W3", "dealer": 3},
    ),
}


@pytest.mark.parametrize("name", SITUATIONS)
@pytest.mark.parametrize("level", PLAYERS)
def test_hidden_cards_do_not_change_the_decision(level: str, name: str) -> None:
    seat, first, second, before = SITUATIONS[name]
    games: list[Game] = [situation(deal, **before) for deal in (first, second)]  # type: ignore[arg-type]
    assert games[0].hands != games[1].hands
    observations = [game.observation(seat) for game in games]
    assert observations[0] == observations[1]
    assert len(observations[0].legal) > 1
    decisions = [PLAYERS[level](7).choose(observation) for observation in observations]
    assert decisions[0] == decisions[1]


@pytest.mark.parametrize("name", [name for name, (_, _, _, before) in SITUATIONS.items() if "bids" in before])
def test_hidden_cards_do_not_change_what_hard_makes_of_every_action(name: str) -> None:
    seat, first, second, before = SITUATIONS[name]
    observations = [situation(deal, **before).observation(seat) for deal in (first, second)]  # type: ignore[arg-type]
    assert observations[0].phase in (Phase.BID, Phase.PLAY)
    evaluations = [HardPlayer(random.Random(7), deadline=math.inf).evaluate(o) for o in observations]
    assert evaluations[0] == evaluations[1]
