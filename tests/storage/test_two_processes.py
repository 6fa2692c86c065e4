"""Two bot processes on one database hold the same game (an overlapping deploy, or a click that
reached the process that does not run the game): the one that is behind catches up from the
database when its write meets the other's, instead of failing, answering from a stale copy, or
trying again forever."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest

from bot.engine import NotYourTurnError, Options, RuleError, action_to_json
from bot.manager import ActionApplied, GameManager, Table
from tests.manager.support import CHANNEL, GUILD, PEOPLE, Recorder, current, mover, start_with

from .support import Site, process


def held(manager: GameManager) -> Table:
    table = manager.in_channel(CHANNEL)
    assert isinstance(table, Table)
    return table


@dataclass
class Both:
    """A game of three started in the first process, and the second process started after it."""

    first: GameManager
    table: Table  # the first process's copy
    second: GameManager
    stale: Table  # the second process's copy, which will fall behind
    events: Recorder  # what the second process emits


@asynccontextmanager
async def a_game_in_two_processes(site: Site) -> AsyncIterator[Both]:
    async with process(site.path) as (first, _):
        table = await start_with(first, 3)
        async with process(site.path) as (second, events):
            yield Both(first, table, second, held(second), events)


async def test_a_process_behind_catches_up_and_takes_the_next_click(site: Site) -> None:
    async with a_game_in_two_processes(site) as both:
        first, table, second, stale, events = both.first, both.table, both.second, both.stale, both.events
        bidder = mover(table)
        await first.act(table.id, bidder.user_id, table.game.legal_actions()[0], **current(table))

        # The next bid reaches the second process, whose copy lacks the first bid.
        after = mover(table)
        bid = table.game.legal_actions()[0]
        # Read before the click: on PostgreSQL the first process may hear of the second bid (its
        # notification) before the assertions below, and its copy is then as far as the second's.
        before = list(table.game.log)
        applied = await second.act(stale.id, after.user_id, bid, **current(table))

        assert applied.action == bid
        assert stale.game.log == [*before, (applied.seat, bid)]
        stored = await second.repository.actions(stale.id)  # type: ignore[union-attr]
        assert len(stored) == 2
        # The bid it caught up with is announced, so this process shows it too.
        assert [e.by for e in events.of(ActionApplied)] == ["elsewhere", "player"]


async def test_the_same_click_reaching_both_processes_counts_once(site: Site) -> None:
    """The second process answers with the move the first recorded, if its copy was behind when
    the click came; if it had already heard of the move (PostgreSQL tells it), it refuses the
    click as it refuses a double click ("not your turn"). Either way the move counts once."""
    async with a_game_in_two_processes(site) as both:
        first, table, second, stale = both.first, both.table, both.second, both.stale
        bidder = mover(table)
        bid = table.game.legal_actions()[0]
        where = current(table)
        here = await first.act(table.id, bidder.user_id, bid, **where)
        try:
            there = await second.act(stale.id, bidder.user_id, bid, **where)
            assert (there.seat, there.action) == (here.seat, here.action)
        except NotYourTurnError:
            pass
        assert stale.game.log == table.game.log == [(here.seat, bid)]


async def test_a_click_the_caught_up_game_no_longer_allows_is_refused_as_stale(site: Site) -> None:
    async with a_game_in_two_processes(site) as both:
        first, table, second, stale = both.first, both.table, both.second, both.stale
        bidder = mover(table)
        where = current(table)
        bids = table.game.legal_actions()
        await first.act(table.id, bidder.user_id, bids[0], **where)
        with pytest.raises(RuleError):  # not their turn any more
            await second.act(stale.id, bidder.user_id, bids[1], **where)
        assert stale.game.log == table.game.log


async def test_computer_players_in_two_processes_make_each_move_once_without_errors(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    """A person and two computer players; both processes run the computers, and the person's clicks
    go to each process in turn, so that a click meets a copy that is behind. Every move is recorded
    once, neither copy ever differs from the database's game, and nothing logs an error."""
    caplog.set_level(logging.INFO)
    person = PEOPLE[0]
    async with process(site.path, computer_pace=0.0) as (first, first_events):
        lobby = await first.open_lobby(GUILD, CHANNEL, person, Options(rounds=2), 300, computers=["easy", "easy"])
        table = await first.start(lobby.id, person.user_id)
        seat = table.seat_of(person.user_id)
        async with process(site.path, computer_pace=0.0) as (second, second_events):
            copies = [table, held(second)]

            def waiting(event: object) -> bool:
                """The person's turn (nobody else can move then) or the end, as a process saw it."""
                return isinstance(event, ActionApplied) and (
                    event.table.game.is_over or seat in event.table.game.waiting_for()
                )

            clicks = 0
            while True:
                # The process that made the last move knows the game is at the person's turn.
                latest = max(copies, key=lambda copy: len(copy.game.log))
                if latest.game.is_over:
                    break
                if seat not in latest.game.waiting_for():
                    await (first_events if latest is copies[0] else second_events).wait_for(waiting)
                    continue
                # Each click to the process that did not make the last move: its copy is behind.
                manager = second if latest is copies[0] else first
                await manager.act(table.id, person.user_id, latest.game.legal_actions()[0], **current(latest))
                clicks += 1
                assert clicks < 100, "the game did not end"

            stored = await second.repository.actions(table.id)  # type: ignore[union-attr]
            assert [(seat, action_to_json(action)) for seat, action in latest.game.log] == stored
            for copy in copies:
                assert copy.game.log == latest.game.log[: len(copy.game.log)]
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []
    assert any("caught up" in record.getMessage() for record in caplog.records)
