"""Computer players for Wizard: pure like the engine (standard library only, no I/O).

A player is built with `make_player(level, seed)` and asked `player.choose(observation)` on its
turn; it sees nothing but that seat's `Observation`.
"""

from . import policy
from .players import EasyPlayer, HardPlayer, Level, NormalPlayer, Player, RandomPlayer, make_player

__all__ = ["EasyPlayer", "HardPlayer", "Level", "NormalPlayer", "Player", "RandomPlayer", "make_player", "policy"]
