"""Every level plays whole games legally, deterministically for a seed, from an Observation only."""

from __future__ import annotations

import ast
import inspect
import random
import typing
from pathlib import Path

import pytest

import bot.ai
from bot.ai import EasyPlayer, HardPlayer, Level, NormalPlayer, Player, RandomPlayer, make_player
from bot.engine import Action, Game, Observation, Options

from .support import LEVELS, play_game, small_player


@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL])
@pytest.mark.parametrize(("players", "seed", "variant"), [(3, 1, False), (4, 2, True), (5, 3, False), (6, 4, True)])
def test_whole_games_are_legal(level: Level, players: int, seed: int, variant: bool) -> None:
    game = Game(players, seed, Options(bids_may_not_add_up=variant))
    play_game(game, [small_player(level, seed * 10 + seat) for seat in range(players)])
    assert game.is_over


@pytest.mark.parametrize(("players", "seed", "variant"), [(3, 5, True), (4, 6, False), (6, 7, True)])
def test_hard_plays_late_rounds_legally(players: int, seed: int, variant: bool) -> None:
    # The last round deals the whole deck and turns nothing up.
    rounds = 60 // players
    game = Game(players, seed, Options(bids_may_not_add_up=variant), start_round=rounds)
    seats = [small_player(LEVELS[seat % 3], seed + seat) for seat in range(players)]
    seats[0] = HardPlayer(random.Random(seed), budget=400, min_worlds=2, max_worlds=4)
    play_game(game, seats)
    assert game.is_over


@pytest.mark.parametrize("seed", [11, 12])
def test_hard_plays_a_short_game_legally(seed: int) -> None:
    game = Game(4, seed, Options(bids_may_not_add_up=True), start_round=14)
    play_game(
        game, [HardPlayer(random.Random(seed + seat), budget=500, min_worlds=2, max_worlds=6) for seat in range(4)]
    )


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_choices(level: Level) -> None:
    def run() -> list[tuple[int, Action]]:
        start = 13 if level is Level.HARD else 1
        game = Game(4, 21, Options(bids_may_not_add_up=True), start_round=start)
        seats = [small_player(level if seat == 0 else Level.NORMAL, 100 + seat) for seat in range(4)]
        return play_game(game, seats)

    assert run() == run()


def test_make_player_builds_each_level_with_its_own_generator() -> None:
    assert isinstance(make_player("easy", 1), EasyPlayer)
    assert isinstance(make_player(Level.NORMAL, 1), NormalPlayer)
    hard = make_player("hard", 1)
    assert isinstance(hard, HardPlayer)
    assert hard.rng.random() == random.Random(1).random()
    with pytest.raises(ValueError, match="impossible"):
        make_player("impossible", 1)
    assert [level.value for level in Level] == ["easy", "normal", "hard"]


@pytest.mark.parametrize("cls", [RandomPlayer, EasyPlayer, NormalPlayer, HardPlayer])
def test_a_player_is_given_its_observation_and_nothing_else(cls: type) -> None:
    signature = inspect.signature(cls.choose)
    assert list(signature.parameters) == ["self", "observation"]
    hints = typing.get_type_hints(cls.choose)
    assert hints["observation"] is Observation
    player = cls(random.Random(0))
    assert isinstance(player, Player)  # structurally: the protocol's one method
    assert list(inspect.signature(Player.choose).parameters) == ["self", "observation"]


def test_an_observation_shows_no_other_hand() -> None:
    game = Game(4, 3)
    observation = game.observation(game.to_move or 0)
    others = {card for seat, hand in enumerate(game.hands) if seat != observation.seat for card in hand}
    assert not others & set(observation.hand)
    assert not any(isinstance(value, Game) for value in vars_of(observation))


def vars_of(observation: Observation) -> list[object]:
    return [getattr(observation, name) for name in observation.__slots__]


FORBIDDEN = {"discord", "asyncio", "aiosqlite", "sqlite3", "io", "os", "pathlib", "socket", "subprocess", "threading"}


@pytest.mark.parametrize("path", sorted(Path(bot.ai.__file__).parent.glob("*.py")), ids=lambda p: p.name)
def test_the_players_are_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "open", "input"}, f"{path.name} calls {node.func.id}"
