"""Fixtures for the manager tests: a manager with a fixed seed and a recorder of its events."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.manager import GameManager

from .support import SEED, Recorder

QUIET_IDLE = 60.0  # long enough that no lobby expires during a test that is not about expiry


@pytest.fixture
def make_manager() -> Iterator[Callable[[float], GameManager]]:
    """Managers with a fixed seed and the given lobby idle time; their timers are cancelled afterwards."""
    made: list[GameManager] = []

    def make(lobby_idle_seconds: float = QUIET_IDLE) -> GameManager:
        manager = GameManager(seed_source=lambda: SEED, lobby_idle_seconds=lobby_idle_seconds)
        made.append(manager)
        return manager

    yield make
    for manager in made:
        manager.close()


@pytest.fixture
def manager(make_manager: Callable[[float], GameManager]) -> GameManager:
    return make_manager(QUIET_IDLE)


@pytest.fixture
def recorder(manager: GameManager) -> Recorder:
    recorder = Recorder()
    manager.subscribe(recorder)
    return recorder
