"""Lobbies: opening, joining, leaving, cancelling, starting, the turn timer and the idle clock."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.engine import Options
from bot.manager import (
    DEFAULT_TURN_TIMER,
    MAX_TURN_TIMER,
    MIN_TURN_TIMER,
    GameManager,
    GameRefused,
    GameStarted,
    Lobby,
    LobbyClosed,
    Refusal,
    Table,
)

from .support import (
    CHANNEL,
    CLOCK_TOLERANCE,
    GUILD,
    OTHER_CHANNEL,
    PEOPLE,
    SEED,
    STRANGER,
    Recorder,
    open_with,
    reach,
    start_with,
)

HOST = PEOPLE[0]
LEAST, MOST = MIN_TURN_TIMER, MAX_TURN_TIMER

# -- opening ---------------------------------------------------------------------------------


async def test_open_seats_the_host(manager: GameManager) -> None:
    lobby = await manager.open_lobby(GUILD, CHANNEL, HOST, Options())
    assert lobby.players == [HOST]
    assert lobby.host_id == HOST.user_id
    assert (lobby.guild_id, lobby.channel_id) == (GUILD, CHANNEL)
    assert lobby.turn_timer == DEFAULT_TURN_TIMER
    assert manager.in_channel(CHANNEL) is lobby
    assert manager.lobby(lobby.id) is lobby


async def test_open_keeps_the_options_and_turn_timer(manager: GameManager) -> None:
    options = Options(bids_may_not_add_up=True)
    lobby = await manager.open_lobby(GUILD, CHANNEL, HOST, options, 90)
    assert lobby.options == options
    assert lobby.turn_timer == 90


@pytest.mark.parametrize("started", [False, True], ids=["lobby", "running game"])
async def test_second_open_in_a_busy_channel_is_refused(manager: GameManager, started: bool) -> None:
    existing: Lobby | Table = await open_with(manager, 3)
    if started:
        existing = await manager.start(existing.id, HOST.user_id)
    with pytest.raises(GameRefused) as refused:
        await manager.open_lobby(GUILD, CHANNEL, PEOPLE[4], Options())
    assert refused.value.refusal is Refusal.CHANNEL_BUSY
    assert refused.value.details["game"] is existing
    assert manager.in_channel(CHANNEL) is existing


async def test_lobbies_in_different_channels_are_independent(manager: GameManager) -> None:
    first = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], Options())
    second = await manager.open_lobby(GUILD, OTHER_CHANNEL, PEOPLE[1], Options())
    assert first.id != second.id
    assert manager.in_channel(CHANNEL) is first
    assert manager.in_channel(OTHER_CHANNEL) is second


@pytest.mark.parametrize("turn_timer", [LEAST - 1, MOST + 1, 0, -LEAST])
async def test_turn_timer_outside_the_bounds_is_refused(manager: GameManager, turn_timer: int) -> None:
    with pytest.raises(GameRefused) as refused:
        await manager.open_lobby(GUILD, CHANNEL, HOST, Options(), turn_timer)
    assert refused.value.refusal is Refusal.BAD_TIMER
    assert refused.value.details == {"low": LEAST, "high": MOST}
    assert manager.in_channel(CHANNEL) is None


@pytest.mark.parametrize("turn_timer", [LEAST, DEFAULT_TURN_TIMER, MOST])
async def test_turn_timer_within_the_bounds_is_accepted(manager: GameManager, turn_timer: int) -> None:
    lobby = await manager.open_lobby(GUILD, CHANNEL, HOST, Options(), turn_timer)
    assert lobby.turn_timer == turn_timer


def test_turn_timer_bounds_are_30_seconds_to_a_day() -> None:
    assert (LEAST, MOST) == (30, 24 * 60 * 60)


# -- joining and leaving ---------------------------------------------------------------------


async def test_join_adds_players_in_order(manager: GameManager) -> None:
    lobby = await open_with(manager, 1)
    for person in PEOPLE[1:4]:
        assert await manager.join(lobby.id, person) is lobby
    assert lobby.players == PEOPLE[:4]


@pytest.mark.parametrize("who", [0, 1], ids=["host", "joined player"])
async def test_joining_twice_is_refused(manager: GameManager, who: int) -> None:
    lobby = await open_with(manager, 2)
    with pytest.raises(GameRefused) as refused:
        await manager.join(lobby.id, PEOPLE[who])
    assert refused.value.refusal is Refusal.ALREADY_JOINED
    assert lobby.players == PEOPLE[:2]


async def test_seventh_player_is_refused(manager: GameManager) -> None:
    lobby = await open_with(manager, 6)
    with pytest.raises(GameRefused) as refused:
        await manager.join(lobby.id, PEOPLE[6])
    assert refused.value.refusal is Refusal.LOBBY_FULL
    assert refused.value.details == {"n": 6}
    assert lobby.players == PEOPLE[:6]


async def test_leave_takes_the_player_out(manager: GameManager, recorder: Recorder) -> None:
    lobby = await open_with(manager, 3)
    assert await manager.leave(lobby.id, PEOPLE[1].user_id) is lobby
    assert lobby.players == [PEOPLE[0], PEOPLE[2]]
    assert lobby.host_id == HOST.user_id
    assert manager.in_channel(CHANNEL) is lobby
    assert recorder.events == []


async def test_leaving_when_not_in_the_lobby_is_refused(manager: GameManager) -> None:
    lobby = await open_with(manager, 2)
    with pytest.raises(GameRefused) as refused:
        await manager.leave(lobby.id, STRANGER)
    assert refused.value.refusal is Refusal.NOT_IN_GAME
    assert lobby.players == PEOPLE[:2]


async def test_a_player_who_left_may_join_again_at_the_end(manager: GameManager) -> None:
    lobby = await open_with(manager, 3)
    await manager.leave(lobby.id, PEOPLE[1].user_id)
    await manager.join(lobby.id, PEOPLE[1])
    assert lobby.players == [PEOPLE[0], PEOPLE[2], PEOPLE[1]]


async def test_host_leaving_passes_host_to_the_next_player(manager: GameManager) -> None:
    lobby = await open_with(manager, 3)
    await manager.leave(lobby.id, HOST.user_id)
    assert lobby.host_id == PEOPLE[1].user_id
    await manager.leave(lobby.id, PEOPLE[1].user_id)
    assert lobby.host_id == PEOPLE[2].user_id
    assert lobby.players == [PEOPLE[2]]


async def test_new_host_may_start_and_the_old_one_may_not(manager: GameManager) -> None:
    lobby = await open_with(manager, 4)
    await manager.leave(lobby.id, HOST.user_id)
    with pytest.raises(GameRefused) as refused:
        await manager.start(lobby.id, HOST.user_id)
    assert refused.value.refusal is Refusal.NOT_HOST
    table = await manager.start(lobby.id, PEOPLE[1].user_id)
    assert table.host_id == PEOPLE[1].user_id
    assert table.players == PEOPLE[1:4]


async def test_last_player_leaving_closes_the_lobby(manager: GameManager, recorder: Recorder) -> None:
    lobby = await open_with(manager, 2)
    await manager.leave(lobby.id, PEOPLE[1].user_id)
    await manager.leave(lobby.id, HOST.user_id)
    assert recorder.events == [LobbyClosed(lobby, "empty")]
    assert manager.in_channel(CHANNEL) is None
    with pytest.raises(GameRefused) as refused:
        manager.lobby(lobby.id)
    assert refused.value.refusal is Refusal.NO_GAME
    reopened = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[1], Options())
    assert manager.in_channel(CHANNEL) is reopened


# -- cancelling ------------------------------------------------------------------------------


async def test_cancel_by_host_closes_the_lobby(manager: GameManager, recorder: Recorder) -> None:
    lobby = await open_with(manager, 3)
    assert await manager.cancel(lobby.id, HOST.user_id) is lobby
    assert recorder.events == [LobbyClosed(lobby, "cancelled")]
    assert manager.in_channel(CHANNEL) is None
    with pytest.raises(GameRefused) as refused:
        await manager.join(lobby.id, PEOPLE[4])
    assert refused.value.refusal is Refusal.NO_GAME


@pytest.mark.parametrize("user_id", [PEOPLE[1].user_id, STRANGER], ids=["joined player", "stranger"])
async def test_cancel_by_anyone_but_the_host_is_refused(manager: GameManager, recorder: Recorder, user_id: int) -> None:
    lobby = await open_with(manager, 3)
    with pytest.raises(GameRefused) as refused:
        await manager.cancel(lobby.id, user_id)
    assert refused.value.refusal is Refusal.NOT_HOST
    assert manager.in_channel(CHANNEL) is lobby
    assert recorder.events == []


# -- starting --------------------------------------------------------------------------------


@pytest.mark.parametrize("user_id", [PEOPLE[1].user_id, STRANGER], ids=["joined player", "stranger"])
async def test_start_by_anyone_but_the_host_is_refused(manager: GameManager, recorder: Recorder, user_id: int) -> None:
    lobby = await open_with(manager, 3)
    with pytest.raises(GameRefused) as refused:
        await manager.start(lobby.id, user_id)
    assert refused.value.refusal is Refusal.NOT_HOST
    assert manager.in_channel(CHANNEL) is lobby
    assert manager.tables() == []
    assert recorder.events == []


@pytest.mark.parametrize("count", [1, 2])
async def test_start_needs_three_players(manager: GameManager, recorder: Recorder, count: int) -> None:
    lobby = await open_with(manager, count)
    with pytest.raises(GameRefused) as refused:
        await manager.start(lobby.id, HOST.user_id)
    assert refused.value.refusal is Refusal.NOT_ENOUGH_PLAYERS
    assert refused.value.details == {"n": 3}
    assert manager.in_channel(CHANNEL) is lobby
    assert recorder.events == []


@pytest.mark.parametrize("count", [3, 4, 5, 6])
async def test_start_seats_players_in_join_order(manager: GameManager, recorder: Recorder, count: int) -> None:
    options = Options(bids_may_not_add_up=True)
    lobby = await open_with(manager, count, options=options, turn_timer=120)
    table = await manager.start(lobby.id, HOST.user_id)
    assert recorder.events == [GameStarted(table)]
    assert table.id == lobby.id
    assert table.players == PEOPLE[:count]
    assert [table.seat_of(person.user_id) for person in PEOPLE[:count]] == list(range(count))
    assert (table.guild_id, table.channel_id, table.host_id) == (GUILD, CHANNEL, HOST.user_id)
    assert table.turn_timer == 120
    assert (table.game.players, table.game.seed, table.game.options) == (count, SEED, options)
    assert table.game.log == []


async def test_started_game_keeps_the_channel_busy(manager: GameManager) -> None:
    table = await start_with(manager, 3)
    assert manager.in_channel(CHANNEL) is table
    assert manager.table(table.id) is table
    assert manager.tables() == [table]


@pytest.mark.parametrize(
    "request_",
    [
        lambda manager, lobby_id: manager.join(lobby_id, PEOPLE[5]),
        lambda manager, lobby_id: manager.leave(lobby_id, PEOPLE[1].user_id),
        lambda manager, lobby_id: manager.cancel(lobby_id, HOST.user_id),
        lambda manager, lobby_id: manager.start(lobby_id, HOST.user_id),
    ],
    ids=["join", "leave", "cancel", "start"],
)
async def test_lobby_requests_on_a_started_game_are_refused(
    manager: GameManager, request_: Callable[[GameManager, str], Awaitable[object]]
) -> None:
    table = await start_with(manager, 3)
    with pytest.raises(GameRefused):
        await request_(manager, table.id)
    assert table.players == PEOPLE[:3]
    assert manager.in_channel(CHANNEL) is table


async def test_joining_a_started_game_is_refused_as_already_started(manager: GameManager) -> None:
    table = await start_with(manager, 3)
    with pytest.raises(GameRefused) as refused:
        await manager.join(table.id, PEOPLE[5])
    assert refused.value.refusal is Refusal.ALREADY_STARTED


@pytest.mark.parametrize(
    "request_",
    [
        lambda manager: manager.join("nosuchid", PEOPLE[1]),
        lambda manager: manager.leave("nosuchid", HOST.user_id),
        lambda manager: manager.cancel("nosuchid", HOST.user_id),
        lambda manager: manager.start("nosuchid", HOST.user_id),
    ],
    ids=["join", "leave", "cancel", "start"],
)
async def test_lobby_requests_on_an_unknown_id_are_refused(
    manager: GameManager, request_: Callable[[GameManager], Awaitable[object]]
) -> None:
    with pytest.raises(GameRefused) as refused:
        await request_(manager)
    assert refused.value.refusal is Refusal.NO_GAME


async def test_lobby_message_id_is_kept(manager: GameManager) -> None:
    lobby = await open_with(manager, 1)
    await manager.set_lobby_message(lobby.id, 555)
    assert lobby.message_id == 555


# -- the idle clock --------------------------------------------------------------------------


def closed(lobby: Lobby) -> Callable[[object], bool]:
    return lambda event: isinstance(event, LobbyClosed) and event.lobby is lobby


async def test_idle_lobby_closes_itself(make_manager: Callable[[float], GameManager]) -> None:
    idle = 0.05
    manager = make_manager(idle)
    recorder = Recorder()
    manager.subscribe(recorder)
    loop = asyncio.get_running_loop()
    before = loop.time()
    lobby = await open_with(manager, 2)
    event, at = await recorder.wait_for(closed(lobby))
    assert event == LobbyClosed(lobby, "expired")
    assert at >= before + idle - CLOCK_TOLERANCE
    assert manager.in_channel(CHANNEL) is None
    with pytest.raises(GameRefused) as refused:
        manager.lobby(lobby.id)
    assert refused.value.refusal is Refusal.NO_GAME


async def touch_by_joining(manager: GameManager, lobby: Lobby) -> None:
    await manager.join(lobby.id, PEOPLE[5])


async def touch_by_leaving(manager: GameManager, lobby: Lobby) -> None:
    await manager.leave(lobby.id, PEOPLE[1].user_id)


@pytest.mark.parametrize("touch", [touch_by_joining, touch_by_leaving], ids=["join", "leave"])
async def test_touching_a_lobby_restarts_its_idle_clock(
    make_manager: Callable[[float], GameManager], touch: Callable[[GameManager, Lobby], Awaitable[None]]
) -> None:
    # The touch comes halfway to the first deadline: a stall of the loop shorter than idle / 2
    # cannot make the lobby expire before it.
    idle = 0.4
    manager = make_manager(idle)
    recorder = Recorder()
    manager.subscribe(recorder)
    loop = asyncio.get_running_loop()
    lobby = await open_with(manager, 3)
    opened = loop.time()  # every deadline set so far is no later than opened + idle

    await reach(opened + idle / 2)
    touched = loop.time()
    await touch(manager, lobby)
    assert recorder.events == [], "the lobby closed before it was touched"

    event, at = await recorder.wait_for(closed(lobby))
    assert event == LobbyClosed(lobby, "expired")
    assert at >= touched + idle - CLOCK_TOLERANCE, "the touch did not restart the idle clock"
    assert at > opened + idle
    assert recorder.events == [event]


async def cancel_it(manager: GameManager, lobby: Lobby) -> None:
    await manager.cancel(lobby.id, HOST.user_id)


async def empty_it(manager: GameManager, lobby: Lobby) -> None:
    for person in list(lobby.players):
        await manager.leave(lobby.id, person.user_id)


async def start_it(manager: GameManager, lobby: Lobby) -> None:
    await manager.start(lobby.id, HOST.user_id)


@pytest.mark.parametrize("end", [cancel_it, empty_it, start_it], ids=["cancelled", "emptied", "started"])
async def test_a_lobby_that_ended_does_not_expire(
    make_manager: Callable[[float], GameManager], end: Callable[[GameManager, Lobby], Awaitable[None]]
) -> None:
    idle = 0.05
    manager = make_manager(idle)
    recorder = Recorder()
    manager.subscribe(recorder)
    lobby = await open_with(manager, 3)
    await end(manager, lobby)
    ended = list(recorder.events)
    # A probe lobby opened afterwards expires after the ended one would have: once it has,
    # the ended lobby's timer, had it survived, would have fired too.
    probe = await open_with(manager, 1, channel=OTHER_CHANNEL, people=[PEOPLE[6]])
    await recorder.wait_for(closed(probe))
    assert recorder.events == [*ended, LobbyClosed(probe, "expired")]


async def test_started_game_stays_after_its_lobby_would_have_expired(
    make_manager: Callable[[float], GameManager],
) -> None:
    manager = make_manager(0.05)
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await start_with(manager, 3)
    probe = await open_with(manager, 1, channel=OTHER_CHANNEL, people=[PEOPLE[6]])
    await recorder.wait_for(closed(probe))
    assert manager.in_channel(CHANNEL) is table
    assert manager.table(table.id) is table


async def test_close_cancels_the_idle_clocks(make_manager: Callable[[float], GameManager]) -> None:
    manager = make_manager(0.05)
    recorder = Recorder()
    manager.subscribe(recorder)
    lobby = await open_with(manager, 2)
    manager.close()
    # A second manager's lobby, opened later with the same idle time, is the probe.
    other = make_manager(0.05)
    other.subscribe(recorder)
    probe = await open_with(other, 1, people=[PEOPLE[6]])
    await recorder.wait_for(closed(probe))
    assert recorder.events == [LobbyClosed(probe, "expired")]
    assert manager.in_channel(CHANNEL) is lobby
