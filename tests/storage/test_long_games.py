"""Games that last for days, across restarts: the deadlines are moments on the game clock, stored,
so a restart neither gives a turn its time again nor a silent game its wait."""

from __future__ import annotations

import asyncio

from bot.engine import Options
from bot.manager import MISSES_BEFORE_AWAY, ActionApplied, GameStopped, Table
from tests.clock import DAY, MovableClock
from tests.manager.support import CHANNEL, GUILD, PEOPLE, Recorder, mover, reach

from .support import Boot, Site

HOUR = 60 * 60.0
SHORT = Options(rounds=3)


async def settle() -> None:
    await reach(asyncio.get_running_loop().time() + 0.1)


def persons_turn(table: Table) -> bool:
    return not table.game.is_over and mover(table).is_person


async def alone_with_computers(boot: Boot) -> Table:
    lobby = await boot.manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], SHORT, DAY, computers=["easy", "easy"])
    return await boot.manager.start(lobby.id, lobby.host_id)


async def restart(site: Site, boot: Boot, clock: MovableClock) -> Boot:
    """The process dies (its timers with it) and another starts on the same database and clock."""
    await site.crash(boot)
    boot.manager.close()
    return await site.boot(clock=clock, computer_pace=0.0)


async def timeout(table: Table, clock: MovableClock, recorder: Recorder) -> None:
    """Let the person's turn, due now, run out: a day passes."""
    await recorder.wait_for(lambda _: persons_turn(table))
    before = sum(1 for event in recorder.of(ActionApplied) if event.by == "timeout")
    clock.advance(DAY)
    await recorder.wait_for(lambda _: sum(1 for e in recorder.of(ActionApplied) if e.by == "timeout") > before)


async def test_a_one_day_turn_runs_out_after_a_restart_when_its_stored_day_is_over(site: Site) -> None:
    clock = MovableClock()
    first = await site.boot(clock=clock, computer_pace=0.0)
    table = await alone_with_computers(first)
    await first.recorder.wait_for(lambda _: persons_turn(table))
    deadline = table.turn_deadline
    clock.advance(20 * HOUR)

    second = await restart(site, first, clock)
    [restored] = second.restored
    assert restored.turn_deadline == deadline
    clock.advance(3 * HOUR)
    await settle()
    assert not any(e.by == "timeout" for e in second.recorder.of(ActionApplied))
    clock.advance(HOUR)
    await second.recorder.wait_for(lambda e: isinstance(e, ActionApplied) and e.by == "timeout")


async def test_a_turn_whose_day_ended_while_the_bot_was_down_runs_out_at_the_restart(site: Site) -> None:
    clock = MovableClock()
    first = await site.boot(clock=clock, computer_pace=0.0)
    table = await alone_with_computers(first)
    await first.recorder.wait_for(lambda _: persons_turn(table))
    await site.crash(first)
    first.manager.close()
    clock.advance(DAY + HOUR)  # while no process runs

    second = await site.boot(clock=clock, computer_pace=0.0)
    moved, _ = await second.recorder.wait_for(lambda e: isinstance(e, ActionApplied) and e.by == "timeout")
    assert isinstance(moved, ActionApplied)


async def test_the_wait_of_a_game_whose_people_are_all_away_is_not_restarted_by_a_restart(site: Site) -> None:
    clock = MovableClock()
    first = await site.boot(clock=clock, computer_pace=0.0)
    table = await alone_with_computers(first)
    for _ in range(MISSES_BEFORE_AWAY):
        await timeout(table, clock, first.recorder)
    assert PEOPLE[0].user_id in table.away
    clock.advance(12 * HOUR)

    second = await restart(site, first, clock)
    [restored] = second.restored
    assert PEOPLE[0].user_id in restored.away
    clock.advance(11 * HOUR)
    await settle()
    assert second.recorder.of(GameStopped) == []
    clock.advance(HOUR + 60)
    ended, _ = await second.recorder.wait_for(lambda e: isinstance(e, GameStopped))
    assert isinstance(ended, GameStopped)
    assert ended.reason == "abandoned"
    third = await restart(site, second, clock)
    assert [ended.stopped for ended in third.restored] == [True]  # only to show its closed table, if owed
    assert third.manager.in_channel(CHANNEL) is None
