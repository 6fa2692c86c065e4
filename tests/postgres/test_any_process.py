"""A click that reaches a process which does not run the game's server (Discord sends every DM
click to shard 0's process): that process loads the game from the database as a guest, takes the
click, and the process of the game's server hears of it (PostgreSQL's NOTIFY), catches up, shows
it and keeps the game's timers; the guest runs no timers and shows nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine import Options
from bot.manager import ActionApplied, GameRefused, Refusal
from tests.manager.support import CHANNEL, GUILD, PEOPLE, Recorder, current, mover, start_with
from tests.storage.support import process


def elsewhere(kind: Callable[[ActionApplied], bool] = lambda event: True) -> Callable[[object], bool]:
    return lambda event: isinstance(event, ActionApplied) and event.by == "elsewhere" and kind(event)


async def test_a_click_reaching_another_process_is_taken_there_and_shown_by_the_games_own(postgres_url: str) -> None:
    async with process(postgres_url) as (owner, owner_events):
        table = await start_with(owner, 3)
        async with process(postgres_url, runs_server=False) as (other, _):
            bidder = mover(table)
            bid = table.game.legal_actions()[0]
            guest = await other.find_table(table.id)
            applied = await other.act(table.id, bidder.user_id, bid, **current(guest))

            assert guest.guest
            assert other.in_channel(CHANNEL) is None  # the channel's commands are the owner's
            # The owner hears of the bid, catches up, and announces it so that it is shown.
            event, _ = await owner_events.wait_for(elsewhere())
            assert isinstance(event, ActionApplied)
            assert (event.applied.seat, event.applied.action) == (applied.seat, bid)
            assert table.game.log == guest.game.log
            assert table.turn_deadline is not None  # the owner keeps the next turn's timer


async def until(recorder: Recorder, condition: Callable[[], bool]) -> None:
    """Wait until `condition()` holds, looking again at each event the process emits."""
    while not condition():
        seen = len(recorder.events)
        await recorder.wait_for(lambda event, seen=seen: event not in recorder.events[:seen])


async def test_a_guest_runs_no_timers_and_catches_up_with_the_owners_moves(postgres_url: str) -> None:
    """A person and two computer players, whose moves only the owner makes; the person clicks in
    the guest, whose copy follows the owner's moves through the notifications."""
    person = PEOPLE[0]
    async with process(postgres_url, computer_pace=0.0) as (owner, owner_events):
        lobby = await owner.open_lobby(GUILD, CHANNEL, person, Options(rounds=1), 300, computers=["easy", "easy"])
        table = await owner.start(lobby.id, person.user_id)
        seat = table.seat_of(person.user_id)
        async with process(postgres_url, runs_server=False, computer_pace=0.0) as (other, other_events):
            guest = await other.find_table(table.id)
            while True:
                await until(owner_events, lambda: table.game.is_over or seat in table.game.waiting_for())
                if table.game.is_over:
                    break
                await until(other_events, lambda: guest.game.log == table.game.log)
                await other.act(table.id, person.user_id, guest.game.legal_actions()[0], **current(guest))
                made = len(guest.game.log)
                await until(owner_events, lambda: len(table.game.log) >= made)  # noqa: B023 -- awaited here

            await until(other_events, lambda: guest.game.log == table.game.log)
            assert {event.by for event in other_events.of(ActionApplied)} <= {"player", "elsewhere"}  # no timers
            with pytest.raises(GameRefused) as ended:
                await other.find_table(table.id)  # finished: no process holds it now
            assert ended.value.refusal is Refusal.NO_GAME
