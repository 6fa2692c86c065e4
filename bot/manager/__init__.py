"""The game manager: the live lobbies and games, one lock per game, and what changed.

This is the only stateful async layer. It speaks in user ids and engine objects, never in
Discord objects, so it is tested with pytest-asyncio alone. The presentation layer subscribes
with a `Listener` and turns each event into messages.

`GameManager` is put together from its parts, one module each, over the state they share
(`_core`): lobbies (`_lobbies`), running games (`_games`), timers and computer players
(`_turns`), what is stored and restored (`_persistence`), which process runs each game
(`_runners`), what ends with a place that is gone (`_places`), the servers' seasons
(`_seasons`) and the coach (`_coach`). The data it holds and the events it emits are in `_model`.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from ..clock import Clock, SystemClock
from ..storage import Repository
from ._coach import Coach
from ._games import MISSES_BEFORE_AWAY, Games
from ._lobbies import LOBBY_IDLE_SECONDS, Lobbies
from ._model import (
    CATCH_UP_REFUSALS,
    CHANNEL_GONE,
    COMPUTER_LEVELS,
    DEFAULT_TURN_TIMER,
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    PLACE_GONE,
    SERVER_GONE,
    ActionApplied,
    Event,
    GameAdopted,
    GameRefused,
    GameStarted,
    GameStopped,
    Listener,
    Lobby,
    LobbyAdopted,
    LobbyClosed,
    Player,
    PresenceChanged,
    Refusal,
    SeasonEnded,
    Table,
    TurnReminder,
    computer_player,
    placings,
)
from ._persistence import Persistence
from ._places import Places
from ._runners import ADOPT_AT_ONCE, RUNNER_BEAT_SECONDS, RUNNER_LEASE_SECONDS, Runners
from ._seasons import Seasons
from ._turns import ABANDON_SECONDS, COMPUTER_PACE_SECONDS, STAND_IN_LEVEL, Turns

__all__ = [
    "ABANDON_SECONDS",
    "ADOPT_AT_ONCE",
    "CATCH_UP_REFUSALS",
    "CHANNEL_GONE",
    "COMPUTER_LEVELS",
    "COMPUTER_PACE_SECONDS",
    "DEFAULT_TURN_TIMER",
    "LOBBY_IDLE_SECONDS",
    "MAX_TURN_TIMER",
    "MIN_TURN_TIMER",
    "MISSES_BEFORE_AWAY",
    "PLACE_GONE",
    "RUNNER_BEAT_SECONDS",
    "RUNNER_LEASE_SECONDS",
    "SERVER_GONE",
    "STAND_IN_LEVEL",
    "ActionApplied",
    "Event",
    "GameAdopted",
    "GameManager",
    "GameRefused",
    "GameStarted",
    "GameStopped",
    "Listener",
    "Lobby",
    "LobbyAdopted",
    "LobbyClosed",
    "Player",
    "PresenceChanged",
    "Refusal",
    "SeasonEnded",
    "Table",
    "TurnReminder",
    "computer_player",
    "placings",
]


class GameManager(Lobbies, Games, Turns, Persistence, Runners, Places, Seasons, Coach):
    """Owns every lobby and game; at most one of either per channel."""

    def __init__(
        self,
        repository: Repository | None = None,
        *,
        lobby_idle_seconds: float = LOBBY_IDLE_SECONDS,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        computer_pace: float = COMPUTER_PACE_SECONDS,
        abandon_seconds: float = ABANDON_SECONDS,
        turn_timer_range: tuple[float, float] = (MIN_TURN_TIMER, MAX_TURN_TIMER),
        runner_beat: float = RUNNER_BEAT_SECONDS,
        runner_lease: float = RUNNER_LEASE_SECONDS,
        clock: Clock | None = None,
    ) -> None:
        self.repository = repository
        self.clock = clock if clock is not None else SystemClock()
        self._lobbies = {}
        self._tables = {}
        self._by_channel = {}
        self._opening = set()
        self._listeners = []
        self._lobby_idle_seconds = lobby_idle_seconds
        self._seed_source = seed_source
        self._computer_pace = computer_pace
        self._abandon_seconds = abandon_seconds
        self._turn_timer_range = turn_timer_range
        self._tasks = set()
        self._closed = False
        self._turn_pings = {}
        self.runner = secrets.token_hex(8)
        self._runner_beat = runner_beat
        self._runner_lease = runner_lease
        self._reviews = {}
        # One review is worked out at a time: each keeps a core busy for seconds, and the game moves
        # (computer players, the event loop) must keep their share of the CPU.
        self._reviewing = asyncio.Lock()

    def close(self) -> None:
        """Cancel the timers; the bot calls this when it shuts down."""
        self._closed = True
        for lobby in self._lobbies.values():
            self._cancel_expiry(lobby)
        for table in self._tables.values():
            self._cancel_timers(table)
        for task in self._tasks:
            task.cancel()
