"""Computer players, turn timers, away players and games that end themselves."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

import pytest

from bot.engine import Game, Options
from bot.manager import (
    MISSES_BEFORE_AWAY,
    ActionApplied,
    GameManager,
    GameRefused,
    GameStopped,
    PresenceChanged,
    Refusal,
    Table,
    TurnReminder,
)

from .support import CHANNEL, GUILD, PEOPLE, SEED, STANDARD, Recorder, current, mover, open_with

QUICK = 0.05  # seconds: a turn timer short enough to run out during a test


@pytest.fixture
async def quick() -> AsyncIterator[Callable[..., GameManager]]:
    """Managers whose computers move at once and whose turn timers may be very short."""
    made: list[GameManager] = []

    def make(**kwargs: float) -> GameManager:
        options: dict[str, object] = {
            "seed_source": lambda: SEED,
            "computer_pace": 0.0,
            "turn_timer_range": (0.01, 86400.0),
        }
        manager = GameManager(**(options | kwargs))  # type: ignore[arg-type]
        made.append(manager)
        return manager

    yield make
    for manager in made:
        manager.close()


async def test_the_host_seats_computer_players_of_each_level(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    lobby = await open_with(manager, 1)
    for level in ("easy", "normal", "hard"):
        await manager.add_computer(lobby.id, lobby.host_id, level)
    assert [player.computer for player in lobby.players] == [None, "easy", "normal", "hard"]
    assert len({player.user_id for player in lobby.players}) == 4
    assert all(player.user_id < 0 for player in lobby.players[1:])


async def test_only_the_host_seats_or_removes_computer_players(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    lobby = await open_with(manager, 2)
    with pytest.raises(GameRefused) as refused:
        await manager.add_computer(lobby.id, PEOPLE[1].user_id, "easy")
    assert refused.value.refusal is Refusal.NOT_HOST
    await manager.add_computer(lobby.id, lobby.host_id, "easy")
    with pytest.raises(GameRefused) as refused:
        await manager.remove_computer(lobby.id, PEOPLE[1].user_id)
    assert refused.value.refusal is Refusal.NOT_HOST


async def test_removing_takes_out_the_last_computer_and_refuses_when_there_is_none(
    quick: Callable[..., GameManager],
) -> None:
    manager = quick()
    lobby = await open_with(manager, 1)
    await manager.add_computer(lobby.id, lobby.host_id, "easy")
    await manager.add_computer(lobby.id, lobby.host_id, "hard")
    await manager.remove_computer(lobby.id, lobby.host_id)
    assert [player.computer for player in lobby.players] == [None, "easy"]
    await manager.remove_computer(lobby.id, lobby.host_id)
    with pytest.raises(GameRefused) as refused:
        await manager.remove_computer(lobby.id, lobby.host_id)
    assert refused.value.refusal is Refusal.NO_COMPUTER


async def test_a_start_command_can_fill_seats_with_computers(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], STANDARD, 300, computers=["normal", "hard"])
    assert [player.computer for player in lobby.players] == [None, "normal", "hard"]


async def test_computers_alone_do_not_keep_a_lobby_open(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], STANDARD, 300, computers=["normal"])
    await manager.leave(lobby.id, PEOPLE[0].user_id)
    assert manager.in_channel(CHANNEL) is None


async def test_when_the_host_leaves_the_next_person_hosts_not_a_computer(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], STANDARD, 300, computers=["normal"])
    await manager.join(lobby.id, PEOPLE[1])
    await manager.leave(lobby.id, PEOPLE[0].user_id)
    assert lobby.host_id == PEOPLE[1].user_id


async def test_one_person_and_two_computers_play_a_whole_game(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    # The hard level thinks for up to a quarter second a move: too slow for a whole game here.
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], STANDARD, 300, computers=["easy", "normal"])
    table = await manager.start(lobby.id, lobby.host_id)
    while not table.game.is_over:
        # The game changes only with an event, so the condition is checked as each one arrives.
        await recorder.wait_for(lambda _: table.game.is_over or mover(table).is_person)
        if not table.game.is_over:
            await manager.act(table.id, PEOPLE[0].user_id, table.game.legal_actions()[0], **current(table))
    by = {event.by for event in recorder.of(ActionApplied)}
    assert by == {"player", "computer"}
    replay = Game.replay(3, SEED, STANDARD, table.game.log)
    assert replay.scores == table.game.scores


async def test_a_computer_never_moves_for_a_person_in_time(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await await_start(manager, turn_timer=300)
    await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))
    assert [event.by for event in recorder.of(ActionApplied)] == ["player"]
    assert table.turn_deadline is not None
    assert table.turn_deadline == pytest.approx(time.time() + 300, abs=5)


async def await_start(manager: GameManager, turn_timer: float, count: int = 3) -> Table:
    lobby = await open_with(manager, count, turn_timer=turn_timer)  # type: ignore[arg-type]
    return await manager.start(lobby.id, lobby.host_id)


async def test_a_person_is_reminded_at_half_time_then_the_computer_moves_for_them(
    quick: Callable[..., GameManager],
) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await await_start(manager, turn_timer=4 * QUICK)
    seat = table.game.to_move
    reminder, reminded_at = await recorder.wait_for(lambda e: isinstance(e, TurnReminder))
    moved, moved_at = await recorder.wait_for(lambda e: isinstance(e, ActionApplied))
    assert isinstance(reminder, TurnReminder)
    assert reminder.seat == seat
    assert isinstance(moved, ActionApplied)
    assert (moved.applied.seat, moved.by) == (seat, "timeout")
    assert reminded_at < moved_at
    assert table.stand_in == (seat, "timeout")


async def test_after_missed_turns_in_a_row_the_computer_keeps_the_seat_until_back(
    quick: Callable[..., GameManager],
) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    # The others move in time (a game whose people are all away makes no move: see below).
    table = await await_start(manager, turn_timer=10 * QUICK)
    sleeper = PEOPLE[0]
    seat = table.seat_of(sleeper.user_id)

    def played_away(event: object) -> bool:
        return isinstance(event, ActionApplied) and event.applied.seat == seat and event.by == "away"

    async def others_play_until(done: Callable[[], bool]) -> None:
        while not done():
            await recorder.wait_for(lambda _: done() or mover(table).user_id != sleeper.user_id)
            if not done() and mover(table).user_id != sleeper.user_id:
                await manager.act(table.id, mover(table).user_id, table.game.legal_actions()[0], **current(table))

    await others_play_until(lambda: sleeper.user_id in table.away)
    timeouts = [e for e in recorder.of(ActionApplied) if e.applied.seat == seat and e.by == "timeout"]
    assert len(timeouts) == MISSES_BEFORE_AWAY
    assert [e.away for e in recorder.of(PresenceChanged) if e.seat == seat] == [True]
    # Away: the computer now plays this seat at its own pace, with no timer.
    await others_play_until(lambda: any(played_away(e) for e in recorder.events))
    await manager.back(table.id, sleeper.user_id)
    assert sleeper.user_id not in table.away
    assert table.missed[sleeper.user_id] == 0


async def test_back_is_refused_for_someone_who_is_not_away(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    table = await await_start(manager, turn_timer=300)
    with pytest.raises(GameRefused) as refused:
        await manager.back(table.id, PEOPLE[1].user_id)
    assert refused.value.refusal is Refusal.NOT_AWAY


async def test_a_person_away_who_moves_is_back(quick: Callable[..., GameManager]) -> None:
    manager = quick(computer_pace=60.0)  # the computer waits, so the person can move first
    table = await await_start(manager, turn_timer=300)
    person = mover(table)
    table.away.add(person.user_id)
    await manager.act(table.id, person.user_id, table.game.legal_actions()[0], **current(table))
    assert person.user_id not in table.away


async def test_a_game_whose_people_are_all_away_ends_itself(quick: Callable[..., GameManager]) -> None:
    manager = quick(computer_pace=60.0, abandon_seconds=QUICK)
    recorder = Recorder()
    manager.subscribe(recorder)
    table = await await_start(manager, turn_timer=QUICK)
    ended, _ = await recorder.wait_for(lambda e: isinstance(e, GameStopped))
    assert isinstance(ended, GameStopped)
    assert (ended.by, ended.reason) == (None, "abandoned")
    assert manager.in_channel(CHANNEL) is None
    assert table.stopped


async def test_under_hidden_bids_a_person_plays_a_whole_game_with_computers(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    options = Options(hidden_bids=True, rounds=6)
    lobby = await manager.open_lobby(GUILD, CHANNEL, PEOPLE[0], options, 300, computers=["normal", "hard"])
    table = await manager.start(lobby.id, lobby.host_id)
    seat = table.seat_of(PEOPLE[0].user_id)
    while not table.game.is_over:
        await recorder.wait_for(lambda _: table.game.is_over or seat in table.game.waiting_for())
        if not table.game.is_over:
            action = table.game.legal_actions_for(seat)[0]
            await manager.act(table.id, PEOPLE[0].user_id, action, **current(table))
    assert table.game.rounds == 6
    assert Game.replay(3, SEED, options, table.game.log).scores == table.game.scores


async def test_under_hidden_bids_the_timer_bids_for_everyone_who_did_not(quick: Callable[..., GameManager]) -> None:
    manager = quick()
    recorder = Recorder()
    manager.subscribe(recorder)
    lobby = await open_with(manager, 3, options=Options(hidden_bids=True), turn_timer=QUICK)  # type: ignore[arg-type]
    table = await manager.start(lobby.id, lobby.host_id)
    waiting = table.game.waiting_for()
    assert len(waiting) == 3  # everyone bids at once
    first = waiting[1]
    await manager.act(table.id, table.players[first].user_id, table.game.legal_actions_for(first)[0], **current(table))
    await recorder.wait_for(lambda _: not table.game.pending_bidders())
    timed_out = sorted(e.applied.seat for e in recorder.of(ActionApplied) if e.by == "timeout")
    assert timed_out == sorted(set(waiting) - {first})


async def test_a_shortened_game_longer_than_the_deck_allows_is_refused_at_start(
    quick: Callable[..., GameManager],
) -> None:
    manager = quick()
    lobby = await open_with(manager, 6, options=Options(rounds=12))
    with pytest.raises(GameRefused) as refused:
        await manager.start(lobby.id, lobby.host_id)
    assert refused.value.refusal is Refusal.TOO_MANY_ROUNDS
    assert refused.value.details == {"n": 10}
