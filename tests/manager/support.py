"""Helpers shared by the manager tests: players, lobbies, an event recorder and stepping a game."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypedDict, TypeVar

from bot.engine import Action, Applied, Game, Options
from bot.manager import Event, GameManager, Lobby, Player, Table

T = TypeVar("T")

SEED = 1234
GUILD = 1
CHANNEL = 10
OTHER_CHANNEL = 20
STRANGER = 999
STANDARD = Options()  # no house rules
WAIT = 2.0  # seconds: the longest any test waits for something that should happen at once
# asyncio may fire a timer up to its clock resolution early; a millisecond covers it generously.
CLOCK_TOLERANCE = 0.001

# Seven people, so that one more than a full table can try to join.
PEOPLE = [Player(100 + i, f"Player {i}") for i in range(7)]


class Recorder:
    """A listener that keeps every event with the loop time it arrived, and can wait for one."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, Event]] = []
        self._arrived = asyncio.Event()

    def __call__(self, event: Event) -> None:
        self.seen.append((asyncio.get_running_loop().time(), event))
        self._arrived.set()

    @property
    def events(self) -> list[Event]:
        return [event for _, event in self.seen]

    def of(self, kind: type[T]) -> list[T]:
        return [event for event in self.events if isinstance(event, kind)]

    async def wait_for(self, predicate: Callable[[Event], bool]) -> tuple[Event, float]:
        """The first event (seen or still to come, within `WAIT` seconds) matching `predicate`, and when."""

        async def scan() -> tuple[Event, float]:
            checked = 0
            while True:
                for at, event in self.seen[checked:]:
                    if predicate(event):
                        return event, at
                checked = len(self.seen)
                self._arrived.clear()
                await self._arrived.wait()

        return await asyncio.wait_for(scan(), WAIT)


async def reach(when: float) -> None:
    """Wait until the loop clock reaches `when` (a timer callback sets an event; no sleeps)."""
    loop = asyncio.get_running_loop()
    due = asyncio.Event()
    handle = loop.call_at(when, due.set)
    try:
        await asyncio.wait_for(due.wait(), max(0.0, when - loop.time()) + WAIT)
    finally:
        handle.cancel()


async def open_with(
    manager: GameManager,
    count: int,
    *,
    channel: int = CHANNEL,
    guild: int = GUILD,
    people: list[Player] | None = None,
    options: Options = STANDARD,
    turn_timer: int = 300,
) -> Lobby:
    """A lobby opened by the first of `people` and joined by the next ones, `count` in all."""
    people = PEOPLE if people is None else people
    lobby = await manager.open_lobby(guild, channel, people[0], options, turn_timer)
    for person in people[1:count]:
        await manager.join(lobby.id, person)
    return lobby


async def start_with(manager: GameManager, count: int, **kwargs: Any) -> Table:
    """A started game of `count` players; the first of them is the host."""
    lobby = await open_with(manager, count, **kwargs)
    return await manager.start(lobby.id, lobby.host_id)


class Where(TypedDict):
    """The round and trick a button carries, as keywords for `GameManager.act`."""

    round: int
    trick: int


def current(table: Table) -> Where:
    """The round and trick a button pressed now carries (for a player who has not played to the trick)."""
    return {"round": table.game.round, "trick": len(table.game.tricks)}


def mover(table: Table) -> Player:
    player = table.player_to_move()
    assert player is not None
    return player


def not_moving(table: Table) -> list[Player]:
    return [player for player in table.players if player is not mover(table)]


async def step(manager: GameManager, table: Table, rng: random.Random) -> Applied:
    """The player to move takes a random legal action through the manager."""
    action: Action = rng.choice(table.game.legal_actions())
    return await manager.act(table.id, mover(table).user_id, action, **current(table))


async def advance(manager: GameManager, table: Table, until: Callable[[Game], bool], rng: random.Random) -> None:
    """Take random legal actions until `until(game)` holds; fail if the game ends first."""
    while not until(table.game):
        assert not table.game.is_over, "the game ended before the wanted position"
        await step(manager, table, rng)


async def flagged(started: asyncio.Event, work: Awaitable[T]) -> T:
    """Run `work`, setting `started` first: once the test sees it set, `work` is parked at its first wait."""
    started.set()
    return await work
