"""Which process runs each game: a process that dies leaves its games' timers and computer players
to another, which adopts them once the dead process's claim runs out; the process of the game's
server takes the game back when it is up again. tests/postgres runs these on PostgreSQL too."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.engine import Options
from bot.manager import ActionApplied, Event, GameAdopted, GameManager, Table
from bot.storage import Repository
from tests.manager.support import CHANNEL, GUILD, PEOPLE, start_with

from .support import Site, process, seats_of

# A beat and a lease far shorter than the bot's, so that a death is noticed within the test.
QUICK = {"runner_beat": 0.05, "runner_lease": 0.25, "turn_timer_range": (0.1, 600.0)}
TURN = 0.5  # seconds: a person's turn timer


def adopted(event: Event) -> bool:
    return isinstance(event, GameAdopted)


def game_over(event: Event) -> bool:
    return isinstance(event, ActionApplied) and event.applied.game_over


async def test_a_game_whose_process_dies_goes_on_in_another_process(site: Site) -> None:
    """A person and two computer players; the process running the game dies at its start. Another
    process, which never held the game, adopts it: the person's turn runs out there, and the
    computer players play on to the end."""
    person = PEOPLE[0]
    async with process(site.path, runs_server=False, computer_pace=0.0, **QUICK) as (other, events):
        async with process(site.path, computer_pace=0.0, **QUICK) as (first, _):
            lobby = await first.open_lobby(GUILD, CHANNEL, person, Options(rounds=2), TURN, computers=["easy", "easy"])
            started = await first.start(lobby.id, person.user_id)
        # The first process is dead: its timers stopped with it, and nothing was tidied up.

        event, _ = await events.wait_for(adopted)
        assert isinstance(event, GameAdopted)
        table = event.table
        assert table.id == started.id
        assert not table.guest
        assert other.in_channel(CHANNEL) is table  # it runs the game now, channel and all
        await events.wait_for(game_over)

        # The person's turns ran out, then the computer kept their seat; the computer players played on.
        assert {event.by for event in events.of(ActionApplied)} == {"timeout", "away", "computer"}
        stored = await other.repository.actions(table.id)  # type: ignore[union-attr]
        assert len(stored) == len(table.game.log)  # every move recorded once, by the process that made it


@asynccontextmanager
async def adopted_after_a_death(site: Site) -> AsyncIterator[tuple[GameManager, Table]]:
    """A game of three people (nothing moves by itself for ten minutes) whose process died, and the
    process that adopted it."""
    async with process(site.path, runs_server=False, **QUICK) as (other, events):
        async with process(site.path, **QUICK) as (first, _):
            await start_with(first, 3, turn_timer=600)
        event, _ = await events.wait_for(adopted)
        assert isinstance(event, GameAdopted)
        yield other, event.table


async def test_the_games_own_process_takes_it_back_and_the_adopter_lets_go(site: Site) -> None:
    async with adopted_after_a_death(site) as (other, table), process(site.path, **QUICK) as (back, _):
        held = back.in_channel(CHANNEL)
        assert isinstance(held, Table)
        assert not held.guest

        await other._renew_and_adopt()  # its next beat

        assert table.guest  # it still takes clicks that reach it, and no longer runs the game
        assert other.in_channel(CHANNEL) is None
        assert not table._timers


async def test_a_process_that_keeps_renewing_keeps_its_games(site: Site) -> None:
    async with process(site.path, **QUICK) as (first, _):
        table = await start_with(first, 3, turn_timer=600)
        async with process(site.path, runs_server=False, **QUICK) as (other, events):
            # Beats of both, more than a lease's worth: the game stays with the first process.
            for _ in range(3):
                await first._renew_and_adopt()
                await other._renew_and_adopt()
            assert not table.guest
            assert not any(adopted(event) for event in events.events)


async def test_each_orphan_goes_to_one_process_and_a_claim_that_holds_is_left(database: Path | str) -> None:
    first, second = await Repository.open(database), await Repository.open(database)
    try:
        now = time.time()
        claims = {
            "dead-1": ("gone", now - 1),
            "dead-2": ("gone", now - 1),
            "unclaimed": None,
            "alive": ("up", now + 60),
        }
        for game_id, runner in claims.items():
            await first.create_lobby(game_id, GUILD, CHANNEL, 1, {}, 300, seats_of([1, 2, 3]))
            await first.start_game(game_id, 7, runner=runner)

        got = await asyncio.gather(*(repository.adopt_orphans(name, now, now + 60, 2) for repository, name in
                                     ((first, "first"), (second, "second"))))  # fmt: skip

        assert set(got[0]).isdisjoint(got[1])
        assert set(got[0]) | set(got[1]) == {"dead-1", "dead-2", "unclaimed"}
        assert await first.renew_runs("first", now + 120) == set(got[0])
        assert await first.renew_runs("up", now + 120) == {"alive"}
    finally:
        await first.close()
        await second.close()


async def test_renewing_leaves_the_games_that_ended(database: Path | str) -> None:
    repository = await Repository.open(database)
    try:
        for game_id in ("playing", "stopped"):
            await repository.create_lobby(game_id, GUILD, CHANNEL, 1, {}, 300, seats_of([1, 2, 3]))
            await repository.start_game(game_id, 7, runner=("me", time.time() + 60))
        await repository.stop_game("stopped")

        assert await repository.renew_runs("me", time.time() + 60) == {"playing"}
    finally:
        await repository.close()


async def test_a_process_too_slow_to_renew_takes_its_servers_game_back(site: Site) -> None:
    """The first process misses its beats (a long pause) and its claim runs out: another adopts
    the game, and the first takes it back at its next beat, for the game is of its server."""
    slow = QUICK | {"runner_beat": 600.0}  # one beat at start, then none during the test
    async with process(site.path, **slow) as (first, _):
        table = await start_with(first, 3, turn_timer=600)
        async with process(site.path, runs_server=False, **QUICK) as (other, events):
            event, _ = await events.wait_for(adopted)
            assert isinstance(event, GameAdopted)

            await first._renew_and_adopt()  # its beat, late
            await other._renew_and_adopt()

            assert not table.guest
            assert event.table.guest
