"""A game whose channel cannot show it waits: no move, no timer, no computer, until it resumes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from bot.manager import ActionApplied, GameManager, GameRefused, Refusal, Table, TurnReminder

from .support import PEOPLE, SEED, Recorder, current, mover, open_with, reach

QUICK = 0.05  # seconds: a turn timer that runs out during a test
LACKING = ("send_messages",)


@pytest.fixture
async def manager() -> AsyncIterator[GameManager]:
    made = GameManager(seed_source=lambda: SEED, computer_pace=0.0, turn_timer_range=(0.01, 86400.0))
    yield made
    made.close()


async def started(manager: GameManager, *, turn_timer: float, computers: int = 0) -> Table:
    lobby = await open_with(manager, 3 - computers, turn_timer=turn_timer)  # type: ignore[arg-type]
    for _ in range(computers):
        await manager.add_computer(lobby.id, lobby.host_id, "easy")
    return await manager.start(lobby.id, lobby.host_id)


async def test_a_paused_game_refuses_moves_and_is_unchanged(manager: GameManager) -> None:
    table = await started(manager, turn_timer=300)
    manager.pause(table.id, LACKING)
    log = list(table.game.log)
    with pytest.raises(GameRefused) as refused:
        await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))
    assert refused.value.refusal is Refusal.PAUSED
    assert table.game.log == log


async def test_a_paused_game_refuses_coming_back(manager: GameManager) -> None:
    table = await started(manager, turn_timer=300)
    table.away.add(PEOPLE[1].user_id)
    manager.pause(table.id, LACKING)
    with pytest.raises(GameRefused) as refused:
        await manager.back(table.id, PEOPLE[1].user_id)
    assert refused.value.refusal is Refusal.PAUSED
    assert PEOPLE[1].user_id in table.away


async def test_no_turn_runs_out_while_a_game_is_paused(manager: GameManager) -> None:
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await started(manager, turn_timer=QUICK)
    manager.pause(table.id, LACKING)
    await reach(asyncio.get_running_loop().time() + 4 * QUICK)
    assert recorder.of(ActionApplied) == []
    assert recorder.of(TurnReminder) == []


async def test_no_computer_moves_while_a_game_is_paused(manager: GameManager) -> None:
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await started(manager, turn_timer=300, computers=2)
    # Play the person's moves until a computer is to move, then pause before it can.
    while table.players[table.game.to_move or 0].is_person:
        await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))
    manager.pause(table.id, LACKING)
    moves = len(table.game.log)
    await reach(asyncio.get_running_loop().time() + 4 * QUICK)
    assert len(table.game.log) == moves


async def test_resuming_gives_the_player_to_move_a_full_turn_and_the_timers_run_again(manager: GameManager) -> None:
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await started(manager, turn_timer=300)
    manager.pause(table.id, LACKING)
    table.turn_deadline = time.time() - 1  # the old deadline passed while the game waited
    await manager.resume(table.id)
    assert table.paused_for == ()
    assert table.turn_deadline == pytest.approx(time.time() + 300, abs=5)
    await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))
    assert [event.by for event in recorder.of(ActionApplied)] == ["player"]


async def test_a_resumed_game_times_out_as_usual(manager: GameManager) -> None:
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await started(manager, turn_timer=QUICK)
    manager.pause(table.id, LACKING)
    seat = table.game.to_move
    await manager.resume(table.id)
    moved, _ = await recorder.wait_for(lambda event: isinstance(event, ActionApplied))
    assert isinstance(moved, ActionApplied)
    assert (moved.applied.seat, moved.by) == (seat, "timeout")
