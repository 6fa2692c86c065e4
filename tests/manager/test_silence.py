"""Games that last for days: deadlines on the game clock, and what a long silence does.

The manager's clock is a `tests.clock.MovableClock`: a day passes when the test says so.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from bot.manager import (
    ABANDON_SECONDS,
    MISSES_BEFORE_AWAY,
    ActionApplied,
    GameManager,
    GameStopped,
    Table,
    TurnReminder,
)
from tests.clock import DAY, MovableClock

from .support import CHANNEL, GUILD, PEOPLE, SEED, STANDARD, Recorder, current, mover, reach

HOUR = 60 * 60.0
# Long enough for whatever is due at once (a computer's move at pace 0, a timer the clock passed) to happen.
SETTLE = 0.1


async def settle() -> None:
    await reach(asyncio.get_running_loop().time() + SETTLE)


@pytest.fixture
async def clocked() -> AsyncIterator[Callable[..., tuple[GameManager, MovableClock, Recorder]]]:
    """Managers on a clock of their own; computer players move at once."""
    made: list[GameManager] = []

    def make(**kwargs: float) -> tuple[GameManager, MovableClock, Recorder]:
        clock = MovableClock()
        manager = GameManager(seed_source=lambda: SEED, computer_pace=0.0, clock=clock, **kwargs)  # type: ignore[arg-type]
        recorder = Recorder()
        manager.subscribe(recorder)
        made.append(manager)
        return manager, clock, recorder

    yield make
    for manager in made:
        manager.close()


async def alone_with_computers(manager: GameManager, turn_timer: float = DAY) -> Table:
    """One person and two computer players: the person being away is everyone being away."""
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], STANDARD, turn_timer, computers=["easy", "easy"])
    return await manager.start(lobby.id, lobby.host_id)


def persons_turn(table: Table) -> bool:
    return not table.game.is_over and mover(table).is_person


def timeouts(recorder: Recorder) -> int:
    return sum(1 for event in recorder.of(ActionApplied) if event.by == "timeout")


async def away_by_timeouts(table: Table, clock: MovableClock, recorder: Recorder) -> None:
    """Let the person's turns run out, a day each, until the computer keeps their seat."""
    for missed in range(MISSES_BEFORE_AWAY):
        await recorder.wait_for(lambda _: persons_turn(table))
        clock.advance(DAY)
        await recorder.wait_for(lambda _, missed=missed: timeouts(recorder) > missed)
    assert PEOPLE[0].user_id in table.away


async def test_a_one_day_turn_is_reminded_at_half_time_and_runs_out_after_a_day(
    clocked: Callable[..., tuple[GameManager, MovableClock, Recorder]],
) -> None:
    manager, clock, recorder = clocked()
    table = await alone_with_computers(manager)
    await recorder.wait_for(lambda _: persons_turn(table))
    seat = table.game.to_move
    clock.advance(11 * HOUR)
    await settle()
    assert recorder.of(TurnReminder) == []
    clock.advance(2 * HOUR)
    reminder, _ = await recorder.wait_for(lambda e: isinstance(e, TurnReminder))
    assert isinstance(reminder, TurnReminder)
    assert reminder.seat == seat
    assert reminder.left == DAY / 2
    assert not any(e.by == "timeout" for e in recorder.of(ActionApplied))
    clock.advance(11 * HOUR)
    moved, _ = await recorder.wait_for(lambda e: isinstance(e, ActionApplied) and e.by == "timeout")
    assert isinstance(moved, ActionApplied)
    assert moved.applied.seat == seat


async def test_while_everyone_is_away_nobody_plays_for_them(
    clocked: Callable[..., tuple[GameManager, MovableClock, Recorder]],
) -> None:
    manager, clock, recorder = clocked()
    table = await alone_with_computers(manager)
    await away_by_timeouts(table, clock, recorder)
    moves = len(table.game.log)
    clock.advance(DAY - HOUR)
    await settle()  # the computer players would have moved at once (pace 0)
    assert len(table.game.log) == moves
    assert not any(e.by == "away" for e in recorder.of(ActionApplied))


async def test_a_game_whose_people_are_all_away_waits_one_turn_time_at_a_long_timer_then_ends(
    clocked: Callable[..., tuple[GameManager, MovableClock, Recorder]],
) -> None:
    manager, clock, recorder = clocked()
    table = await alone_with_computers(manager)
    await away_by_timeouts(table, clock, recorder)
    clock.advance(ABANDON_SECONDS + 60)
    await settle()
    assert recorder.of(GameStopped) == []
    assert manager.in_channel(CHANNEL) is table
    clock.advance(DAY)
    ended, _ = await recorder.wait_for(lambda e: isinstance(e, GameStopped))
    assert isinstance(ended, GameStopped)
    assert (ended.by, ended.reason) == (None, "abandoned")
    assert table.stopped
    assert manager.in_channel(CHANNEL) is None


async def test_at_a_short_timer_the_wait_is_ten_minutes(
    clocked: Callable[..., tuple[GameManager, MovableClock, Recorder]],
) -> None:
    manager, clock, recorder = clocked()
    table = await alone_with_computers(manager, turn_timer=60)
    await recorder.wait_for(lambda _: persons_turn(table))
    for _ in range(MISSES_BEFORE_AWAY):
        await recorder.wait_for(lambda _: persons_turn(table))
        clock.advance(60)
        await recorder.wait_for(lambda _: PEOPLE[0].user_id in table.away or not persons_turn(table))
    await recorder.wait_for(lambda _: PEOPLE[0].user_id in table.away)
    clock.advance(ABANDON_SECONDS - 60)
    await settle()
    assert recorder.of(GameStopped) == []
    clock.advance(61)
    await recorder.wait_for(lambda e: isinstance(e, GameStopped))


async def test_someone_back_before_the_wait_runs_out_plays_on(
    clocked: Callable[..., tuple[GameManager, MovableClock, Recorder]],
) -> None:
    manager, clock, recorder = clocked()
    table = await alone_with_computers(manager)
    await away_by_timeouts(table, clock, recorder)
    clock.advance(DAY - HOUR)
    await manager.back(table.id, PEOPLE[0].user_id)
    # Their move now, with a full day for it; the computers play theirs.
    await recorder.wait_for(lambda _: persons_turn(table))
    assert table.turn_deadline == pytest.approx(clock.now() + DAY, abs=60)
    clock.advance(2 * HOUR)  # past when the game would have ended itself
    await manager.act(table.id, PEOPLE[0].user_id, table.game.legal_actions()[0], **current(table))
    assert recorder.of(GameStopped) == []
    assert not table.stopped
