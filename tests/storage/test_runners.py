"""Which process runs each game: a process that dies leaves its games' timers and computer players
to another, which adopts them once the dead process's claim runs out; the process of the game's
server asks for the game back when it is up again, and the adopter hands it over once it has
stopped running it — never two processes at once. Lobbies are held, adopted and handed back the
same way. tests/postgres runs these on PostgreSQL too."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Options
from bot.manager import (
    ActionApplied,
    Event,
    GameAdopted,
    GameManager,
    GameRefused,
    LobbyAdopted,
    LobbyClosed,
    Table,
)
from bot.storage import Repository
from tests.manager.support import CHANNEL, GUILD, PEOPLE, current, open_with, start_with

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
    computer players play on with the person, who is back, to the end."""
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
        await events.wait_for(lambda event: isinstance(event, ActionApplied) and event.by == "timeout")
        while not table.game.is_over:
            await events.wait_for(lambda _: table.game.is_over or table.game.to_move == 0)
            if not table.game.is_over:
                await other.act(table.id, person.user_id, table.game.legal_actions()[0], **current(table))

        # The person's turn ran out, then they played on with the computer players.
        assert {event.by for event in events.of(ActionApplied)} == {"timeout", "player", "computer"}
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


async def test_the_games_own_process_gets_it_back_once_the_adopter_has_let_go(site: Site) -> None:
    async with adopted_after_a_death(site) as (other, table), process(site.path, **QUICK) as (back, events):
        # Whether the adopter still ran the game when the server's process began to: never.
        adopter_ran: list[bool] = []
        back.subscribe(lambda event: adopter_ran.append(not table.guest) if adopted(event) else None)

        event, _ = await events.wait_for(adopted)  # within a few beats: asked, handed over, taken

        assert isinstance(event, GameAdopted)
        assert back.in_channel(CHANNEL) is event.table
        assert not event.table.guest
        assert adopter_ran == [False]
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
        assert await first.renew_runs("first", now + 120) == dict.fromkeys(got[0], False)
        assert await first.renew_runs("up", now + 120) == {"alive": False}
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

        assert await repository.renew_runs("me", time.time() + 60) == {"playing": False}
    finally:
        await repository.close()


async def test_a_process_too_slow_to_renew_gets_its_servers_game_back(site: Site) -> None:
    """The first process misses its beats (a long pause) and its claim runs out: another adopts
    the game. At the first's next beat it stops running the game and asks for it back; the adopter
    hands it over at its own next beat, and the first runs the game again from its following one."""
    slow = QUICK | {"runner_beat": 600.0}  # one beat at start, then none but those the test makes
    async with process(site.path, **slow) as (first, _):
        table = await start_with(first, 3, turn_timer=600)
        async with process(site.path, runs_server=False, **QUICK) as (other, events):
            event, _ = await events.wait_for(adopted)
            assert isinstance(event, GameAdopted)

            await first._renew_and_adopt()  # its beat, late: the game is another's now
            assert table.guest
            assert not event.table.guest

            await other._renew_and_adopt()  # asked back: handed over
            assert event.table.guest
            await first._renew_and_adopt()

            assert not table.guest
            assert first.in_channel(CHANNEL) is table


# Claims as the database holds them before a process of the game's server claims it: (runner,
# seconds the claim still holds, adopted); whether the claiming process is starting; and what becomes
# of the game: taken at once, asked back from its adopter, or left to another process of its server.
CLAIMS = [
    pytest.param(None, False, "taken", id="unclaimed"),
    pytest.param(("gone", -1.0, True), False, "taken", id="run-out"),
    pytest.param(("gone", -1.0, False), False, "taken", id="run-out-not-adopted"),
    pytest.param(("me", 60.0, False), False, "taken", id="own"),
    pytest.param(("adopter", 60.0, True), False, "asked", id="adopter-alive"),
    pytest.param(("adopter", 60.0, True), True, "asked", id="adopter-alive-starting"),
    pytest.param(("sibling", 60.0, False), False, "left", id="same-server-alive"),
    pytest.param(("sibling", 60.0, False), True, "taken", id="same-server-alive-starting"),
]


@pytest.mark.parametrize(("claim", "starting", "outcome"), CLAIMS)
async def test_claiming_a_servers_game(
    database: Path | str, claim: tuple[str, float, bool] | None, starting: bool, outcome: str
) -> None:
    repository = await Repository.open(database)
    try:
        now = time.time()
        await repository.create_lobby("game", GUILD, CHANNEL, 1, {}, 300, seats_of([1, 2, 3]))
        await repository.start_game("game", 7)
        if claim is not None:
            runner, left, adopted_it = claim
            if adopted_it:
                assert await repository.adopt_orphans(runner, now, now + left, 1) == ["game"]
            else:
                assert await repository.claim_games(runner, ["game"], now, now + left) == {"game"}

        claimed = await repository.claim_games("me", ["game"], now, now + 60, starting=starting)

        holder = "me" if outcome == "taken" else claim[0]  # type: ignore[index]
        assert claimed == ({"game"} if outcome == "taken" else set())
        assert await repository.renew_runs(holder, now + 60) == {"game": outcome == "asked"}
        await repository.hand_over(holder, ["game"], now + 60)
        # Handed over to the process that asked, and only then; no one asked for a game taken or left.
        assert await repository.renew_runs("me", now + 60) == ({"game": False} if outcome != "left" else {})
    finally:
        await repository.close()


async def test_a_starting_process_of_the_server_takes_the_game_and_the_one_it_replaces_lets_go(site: Site) -> None:
    """A deploy that overlaps: a second process of the same server starts while the first still
    runs the game. The second runs it; the first lets go at its next beat and does not take it back
    while the second lives — and takes it again once the second has died and its claim ran out."""
    async with process(site.path, **QUICK) as (first, first_events):
        table = await start_with(first, 3, turn_timer=600)
        async with process(site.path, **QUICK) as (second, _):
            taken = second.in_channel(CHANNEL)
            assert isinstance(taken, Table)
            assert not taken.guest
            for _ in range(3):  # beats of both, more than a lease's worth
                await first._renew_and_adopt()
                await second._renew_and_adopt()
            assert table.guest
            assert not taken.guest
            assert not any(adopted(event) for event in first_events.events)
        # The second process is dead: once its claim runs out, the first runs the game again.
        await first_events.wait_for(adopted)
        assert not table.guest
        assert first.in_channel(CHANNEL) is table


# -- lobbies ---------------------------------------------------------------------------------


def lobby_adopted(event: Event) -> bool:
    return isinstance(event, LobbyAdopted)


async def test_a_lobby_whose_process_dies_is_adopted_and_closes_when_idle_there(site: Site) -> None:
    """Nobody touches the lobby of a dead process: the process that adopted it keeps its idle clock,
    and closes it on time (the channel is free again when the lobby's own process is back)."""
    idle = QUICK | {"lobby_idle_seconds": 1.0}
    async with process(site.path, runs_server=False, **idle) as (other, events):
        async with process(site.path, **idle) as (first, _):
            lobby = await open_with(first, 2)
        event, _ = await events.wait_for(lobby_adopted)
        assert isinstance(event, LobbyAdopted)
        assert event.lobby.id == lobby.id
        assert event.lobby.players == lobby.players

        closed, _ = await events.wait_for(lambda event: isinstance(event, LobbyClosed))
        assert closed == LobbyClosed(event.lobby, "expired")
        stored = await other.repository.load_game(lobby.id)  # type: ignore[union-attr]
        assert stored is not None
        assert stored.status == "closed"


async def test_a_lobbys_own_process_gets_it_back_from_its_adopter_and_starts_it(site: Site) -> None:
    async with process(site.path, runs_server=False, **QUICK) as (other, other_events):
        async with process(site.path, **QUICK) as (first, _):
            lobby = await open_with(first, 2)
        await other_events.wait_for(lobby_adopted)
        async with process(site.path, **QUICK) as (back, events):
            assert back.in_channel(CHANNEL) is None  # asked back: held by the adopter still

            event, _ = await events.wait_for(lobby_adopted)  # handed over at the adopter's next beat

            assert isinstance(event, LobbyAdopted)
            assert back.in_channel(CHANNEL) is event.lobby
            assert other.lobbies() == []
            await back.join(lobby.id, PEOPLE[2])
            table = await back.start(lobby.id, PEOPLE[0].user_id)
            assert table.players == PEOPLE[:3]


async def test_a_lobby_opened_while_the_claims_are_renewed_stays(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """The renewal runs while a new lobby is being stored: its claim is not in the renewal's answer, yet
    the lobby is this process's."""
    async with process(site.path, **QUICK) as (first, _):
        repository = first.repository
        assert repository is not None
        storing, go_on = asyncio.Event(), asyncio.Event()
        create = repository.create_lobby

        async def held_create(*args: Any, **kwargs: Any) -> None:
            storing.set()
            await go_on.wait()
            await create(*args, **kwargs)

        monkeypatch.setattr(repository, "create_lobby", held_create)
        opening = asyncio.create_task(open_with(first, 1))
        await asyncio.wait_for(storing.wait(), 2)
        await first._renew_and_adopt()
        go_on.set()
        lobby = await opening
        await first._renew_and_adopt()

        assert first.in_channel(CHANNEL) is lobby
        assert await repository.renew_runs(first.runner, time.time() + 60) == {lobby.id: False}


async def test_a_click_takes_a_lobby_handed_back_before_the_next_beat(site: Site) -> None:
    """Handed back between two beats of its server's process, a lobby is taken at the first click."""
    # The adopter beats only when the test says: a beat of its own between the two clicks below
    # would hand the lobby over before the first one (as it did under load on PostgreSQL).
    async with process(site.path, runs_server=False, **(QUICK | {"runner_beat": 600.0})) as (other, other_events):
        async with process(site.path, **QUICK) as (first, _):
            lobby = await open_with(first, 2)
        for _ in range(40):  # beats by hand until the dead process's lease has run out: 10 s at most
            await other._renew_and_adopt()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(other_events.wait_for(lobby_adopted), QUICK["runner_lease"])
                break
        else:
            raise AssertionError("the dead process's lobby was never adopted")
        async with process(site.path, **(QUICK | {"runner_beat": 600.0})) as (back, _):
            with pytest.raises(GameRefused):
                await back.find_lobby(lobby.id)  # asked back: the adopter holds it still
            await other._renew_and_adopt()  # the adopter's beat: handed over

            found = await back.find_lobby(lobby.id)

            assert back.in_channel(CHANNEL) is found
            assert (await back.join(lobby.id, PEOPLE[2])).players == PEOPLE[:3]
