"""The manager with a repository: what a restart restores, what a finished game records, and failed writes."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from openskill.models import BradleyTerryFull

from bot.engine import Action, ChooseTrump, Game, Options, action_to_json
from bot.manager import (
    ActionApplied,
    GameManager,
    GameRefused,
    GameStarted,
    GameStopped,
    Lobby,
    LobbyClosed,
    Refusal,
    Table,
)
from bot.storage import Repository
from tests.manager.support import (
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    PEOPLE,
    SEED,
    current,
    mover,
    open_with,
    start_with,
    step,
)

from .support import QUIET_IDLE, Boot, Site, peek, poke, sqlite_only

HOUSE_RULES = Options(bids_may_not_add_up=True)
DEFAULT_MU = BradleyTerryFull().rating().mu
Played = list[tuple[int, Action]]


async def play(
    manager: GameManager, table: Table, rng: random.Random, played: Played, until: Callable[[Game], bool]
) -> None:
    """Take random legal actions until `until(game)` holds, noting each in `played`; fail if the game ends first."""
    while not until(table.game):
        assert not table.game.is_over, "the game ended before the wanted position"
        applied = await step(manager, table, rng)
        played.append((applied.seat, applied.action))


async def play_to_the_end(manager: GameManager, table: Table, rng: random.Random, played: Played) -> None:
    while not table.game.is_over:
        applied = await step(manager, table, rng)
        played.append((applied.seat, applied.action))


def stored(played: Played) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, action_to_json(action)) for seat, action in played]


def fail_once(monkeypatch: pytest.MonkeyPatch, repository: Repository, method: str) -> list[tuple[Any, ...]]:
    """Make the next call of a repository method fail as a full or broken disk would; later calls go through."""
    original = getattr(repository, method)
    failed: list[tuple[Any, ...]] = []

    async def failing(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(args)
            raise sqlite3.OperationalError("disk I/O error")
        return await original(*args, **kwargs)

    monkeypatch.setattr(repository, method, failing)
    return failed


# -- lobbies across a restart ----------------------------------------------------------------


async def lobby_of_the_host_alone(manager: GameManager) -> Lobby:
    return await open_with(manager, 1, options=HOUSE_RULES, turn_timer=90)


async def lobby_of_three(manager: GameManager) -> Lobby:
    return await open_with(manager, 3, options=HOUSE_RULES, turn_timer=90)


async def lobby_the_host_left(manager: GameManager) -> Lobby:
    lobby = await open_with(manager, 3, options=HOUSE_RULES, turn_timer=90)
    return await manager.leave(lobby.id, PEOPLE[0].user_id)


async def lobby_someone_left(manager: GameManager) -> Lobby:
    lobby = await open_with(manager, 4, options=HOUSE_RULES, turn_timer=90)
    return await manager.leave(lobby.id, PEOPLE[2].user_id)


LOBBY_HISTORIES = [lobby_of_the_host_alone, lobby_of_three, lobby_the_host_left, lobby_someone_left]


def lobby_state(lobby: Lobby) -> tuple[Any, ...]:
    return (
        lobby.id,
        lobby.guild_id,
        lobby.channel_id,
        lobby.host_id,
        lobby.options,
        lobby.turn_timer,
        list(lobby.players),
        lobby.message_id,
    )


@pytest.mark.parametrize("history", LOBBY_HISTORIES, ids=lambda history: history.__name__)
async def test_a_lobby_survives_a_restart(site: Site, history: Callable[[GameManager], Awaitable[Lobby]]) -> None:
    first = await site.boot()
    lobby = await history(first.manager)
    await first.manager.set_lobby_message(lobby.id, 4242)

    second = await site.restart(first)

    restored = second.manager.in_channel(CHANNEL)
    assert isinstance(restored, Lobby)
    assert lobby_state(restored) == lobby_state(lobby)
    assert second.restored == []


async def test_the_channel_of_a_restored_lobby_is_busy(site: Site) -> None:
    first = await site.boot()
    await open_with(first.manager, 2)

    second = await site.restart(first)

    with pytest.raises(GameRefused) as refused:
        await second.manager.open_lobby(GUILD, CHANNEL, PEOPLE[5], Options())
    assert refused.value.refusal is Refusal.CHANNEL_BUSY


async def test_a_restored_lobby_can_be_joined_and_the_join_is_kept(site: Site) -> None:
    first = await site.boot()
    lobby = await open_with(first.manager, 2)
    second = await site.restart(first)

    await second.manager.join(lobby.id, PEOPLE[2])
    third = await site.restart(second)

    restored = third.manager.lobby(lobby.id)
    assert restored.players == PEOPLE[:3]


async def test_a_restored_lobby_can_be_started(site: Site) -> None:
    first = await site.boot()
    lobby = await open_with(first.manager, 3, options=HOUSE_RULES)
    second = await site.restart(first)

    table = await second.manager.start(lobby.id, PEOPLE[0].user_id)

    assert second.recorder.events == [GameStarted(table)]
    assert (table.players, table.game.options, table.game.seed) == (PEOPLE[:3], HOUSE_RULES, SEED)


@sqlite_only
async def test_a_lobby_whose_idle_time_ran_out_while_the_bot_was_down_closes_after_the_restart(site: Site) -> None:
    first = await site.boot()
    lobby = await open_with(first.manager, 2)
    await site.crash(first)
    poke(site.path, "UPDATE games SET updated_at = ?", (time.time() - 2 * QUIET_IDLE,))

    second = await site.boot(lobby_idle_seconds=QUIET_IDLE)

    event, _ = await second.recorder.wait_for(lambda event: isinstance(event, LobbyClosed))
    assert isinstance(event, LobbyClosed)
    assert (event.lobby.id, event.reason) == (lobby.id, "expired")
    assert second.manager.in_channel(CHANNEL) is None
    assert await second.repository.open_games() == []


@sqlite_only
async def test_a_restored_lobby_closes_when_the_rest_of_its_idle_time_runs_out(site: Site) -> None:
    idle = 1.0
    left = 0.2
    first = await site.boot(lobby_idle_seconds=idle)
    lobby = await open_with(first.manager, 2)
    await site.crash(first)
    poke(site.path, "UPDATE games SET updated_at = ?", (time.time() - (idle - left),))

    second = await site.boot(lobby_idle_seconds=idle)
    loaded_at = asyncio.get_running_loop().time()
    assert second.manager.in_channel(CHANNEL) is not None

    event, closed_at = await second.recorder.wait_for(lambda event: isinstance(event, LobbyClosed))
    assert isinstance(event, LobbyClosed)
    assert (event.lobby.id, event.reason) == (lobby.id, "expired")
    # Well before a whole new idle period: the clock went on from the last change.
    assert closed_at - loaded_at < (idle + left) / 2


# -- running games across a restart ----------------------------------------------------------

RESTART_POINTS: dict[str, Callable[[Game], bool]] = {
    "before any action": lambda game: True,
    "after the first bid": lambda game: len(game.log) == 1,
    "in the middle of a trick": lambda game: game.round == 3 and len(game.tricks) == 1 and len(game.trick) == 2,
    "between two rounds": lambda game: len(game.history) == 4,
    "after a trump choice": lambda game: bool(game.log) and isinstance(game.log[-1][1], ChooseTrump),
    "before the last card": lambda game: game.round == game.rounds and sum(map(len, game.hands)) == 1,
}
LARGEST_SEED = 2**63 - 1
RESTARTS = [pytest.param(3, SEED, point, id=f"3 players, {point}") for point in RESTART_POINTS] + [
    pytest.param(4, LARGEST_SEED, point, id=f"4 players, largest seed, {point}")
    for point in ("in the middle of a trick", "between two rounds")
]


@pytest.mark.parametrize(("players", "seed", "point"), RESTARTS)
async def test_a_running_game_survives_a_restart_and_plays_on_to_the_end(
    site: Site, players: int, seed: int, point: str
) -> None:
    rng = random.Random(5)
    played: Played = []
    first = await site.boot(seed=seed)
    table = await start_with(first.manager, players, options=HOUSE_RULES)
    await play(first.manager, table, rng, played, RESTART_POINTS[point])

    second = await site.restart(first, seed=7)  # a restored game keeps the seed it was started with

    [restored] = second.restored
    assert second.manager.in_channel(CHANNEL) is restored
    assert (restored.id, restored.guild_id, restored.host_id, restored.turn_timer, restored.players) == (
        table.id,
        table.guild_id,
        table.host_id,
        table.turn_timer,
        table.players,
    )
    assert restored.game.snapshot() == table.game.snapshot()

    await play_to_the_end(second.manager, restored, rng, played)

    assert restored.game.snapshot() == Game.replay(players, seed, HOUSE_RULES, played).snapshot()
    assert await second.repository.actions(table.id) == stored(played)


async def test_message_ids_survive_a_restart(site: Site) -> None:
    rng = random.Random(6)
    first = await site.boot()
    table = await start_with(first.manager, 4)
    manager = first.manager
    await manager.set_table_message(table, 9001)
    for seat, player in enumerate(table.players):
        await manager.set_hand_message(table, player.user_id, 8000 + seat, 8100 + seat)
    await play(manager, table, rng, [], lambda game: len(game.history) == 1)
    await manager.set_table_message(table, 9002)
    await manager.set_hand_message(table, PEOPLE[0].user_id, 8000, 8200)
    await manager.mark_dm_closed(table, PEOPLE[2].user_id)

    second = await site.restart(first)

    [restored] = second.restored
    assert (restored.table_message_id, restored.table_round) == (9002, 2)
    assert restored.hand_messages == {
        PEOPLE[0].user_id: (8000, 8200, 2),
        PEOPLE[1].user_id: (8001, 8101, 1),
        PEOPLE[3].user_id: (8003, 8103, 1),
    }
    assert restored.dm_closed == {PEOPLE[2].user_id}


async def test_open_turn_pings_survive_a_restart_and_a_forgotten_one_stays_gone(site: Site) -> None:
    first = await site.boot()
    table = await start_with(first.manager, 3)
    manager = first.manager
    for seat, player in enumerate(table.players):
        await manager.set_hand_message(table, player.user_id, 8000 + seat, 8100 + seat)
    await manager.set_ping_message(table, PEOPLE[0].user_id, ("1.0", 8000, 8300))
    await manager.set_ping_message(table, PEOPLE[1].user_id, ("1b", 8001, 8301))
    await manager.set_ping_message(table, PEOPLE[1].user_id, None)
    await manager.set_ping_message(table, PEOPLE[2].user_id, None)  # none open: nothing to forget

    second = await site.restart(first)

    [restored] = second.restored
    assert restored.ping_messages == {PEOPLE[0].user_id: ("1.0", 8000, 8300)}


async def test_closed_dms_are_reported_only_once_across_a_restart(site: Site) -> None:
    first = await site.boot()
    table = await start_with(first.manager, 3)
    assert await first.manager.mark_dm_closed(table, PEOPLE[1].user_id)

    second = await site.restart(first)

    [restored] = second.restored
    assert not await second.manager.mark_dm_closed(restored, PEOPLE[1].user_id)


# -- finished and stopped games --------------------------------------------------------------


async def finished_game(boot: Boot, rng: random.Random, count: int = 3) -> Table:
    table = await start_with(boot.manager, count)
    await play_to_the_end(boot.manager, table, rng, [])
    return table


@sqlite_only
async def test_a_finished_game_records_every_players_result(site: Site) -> None:
    boot = await site.boot()

    table = await finished_game(boot, random.Random(7))

    scores = table.game.scores
    assert peek(
        site.path, "SELECT seat, user_id, score, place, won FROM results WHERE game_id = ? ORDER BY seat", (table.id,)
    ) == [
        (
            seat,
            player.user_id,
            scores[seat],
            1 + sum(other > scores[seat] for other in scores),
            scores[seat] == max(scores),
        )
        for seat, player in enumerate(table.players)
    ]
    assert peek(
        site.path,
        "SELECT round, seat, bid, tricks, points FROM round_results WHERE game_id = ? ORDER BY round, seat",
        (table.id,),
    ) == [
        (result.round, seat, result.bids[seat], result.tricks[seat], result.points[seat])
        for result in table.game.history
        for seat in range(len(table.players))
    ]
    assert peek(site.path, "SELECT status FROM games WHERE id = ?", (table.id,)) == [("finished",)]


async def test_a_finished_game_frees_its_channel_for_good(site: Site) -> None:
    first = await site.boot()
    table = await finished_game(first, random.Random(7))

    second = await site.restart(first)

    # No presentation layer showed its end here: it comes back once, to be shown, not to be played.
    [owed] = second.restored
    assert (owed.id, owed.game.is_over, owed.game.scores) == (table.id, True, table.game.scores)
    assert second.manager.in_channel(CHANNEL) is None
    await second.manager.set_final_message(owed, 9001)
    third = await site.restart(second)
    assert third.restored == []
    assert third.manager.in_channel(CHANNEL) is None


async def test_a_finished_game_adds_to_every_players_stats(site: Site) -> None:
    boot = await site.boot()

    table = await finished_game(boot, random.Random(8))

    game = table.game
    for seat, player in enumerate(table.players):
        stats = await boot.repository.player_stats(GUILD, player.user_id)
        assert stats is not None
        bids = [(result.bids[seat], result.tricks[seat]) for result in game.history]
        assert (stats.name, stats.games, stats.wins, stats.avg_score, stats.best_score) == (
            player.name,
            1,
            int(game.scores[seat] == max(game.scores)),
            game.scores[seat],
            game.scores[seat],
        )
        assert (stats.rounds, stats.exact, stats.over, stats.under) == (
            game.rounds,
            sum(bid == won for bid, won in bids),
            sum(won > bid for bid, won in bids),
            sum(won < bid for bid, won in bids),
        )
        assert stats.by_hand_size == tuple(
            (result.round, 1, int(result.bids[seat] == result.tricks[seat])) for result in game.history
        )


async def test_a_finished_game_rates_every_player(site: Site) -> None:
    boot = await site.boot()

    table = await finished_game(boot, random.Random(9))

    scores = table.game.scores
    user_ids = [player.user_id for player in table.players]
    rated = await boot.repository.ratings(GUILD, user_ids)
    assert set(rated) == set(user_ids)
    for seat, user_id in enumerate(user_ids):
        mu, sigma = rated[user_id]
        stats = await boot.repository.player_stats(GUILD, user_id)
        assert stats is not None
        assert stats.rating == mu - 3 * sigma
        if scores[seat] == max(scores):
            assert mu > DEFAULT_MU
        if scores[seat] == min(scores):
            assert mu < DEFAULT_MU


async def test_a_second_game_updates_the_ratings_again(site: Site) -> None:
    boot = await site.boot()
    rng = random.Random(10)
    user_ids = [player.user_id for player in PEOPLE[:3]]
    await finished_game(boot, rng)
    after_first = await boot.repository.ratings(GUILD, user_ids)

    table = await finished_game(boot, rng)

    after_second = await boot.repository.ratings(GUILD, user_ids)
    scores = table.game.scores
    for seat, user_id in enumerate(user_ids):
        (mu_before, sigma_before), (mu, sigma) = after_first[user_id], after_second[user_id]
        assert sigma < sigma_before
        if scores[seat] == max(scores):
            assert mu > mu_before
        stats = await boot.repository.player_stats(GUILD, user_id)
        assert stats is not None
        assert stats.games == 2


@sqlite_only
async def test_a_stopped_game_is_not_counted(site: Site) -> None:
    boot = await site.boot()
    rng = random.Random(11)
    table = await start_with(boot.manager, 3)
    await play(boot.manager, table, rng, [], lambda game: len(game.history) == 3)

    await boot.manager.stop(table.id, PEOPLE[0].user_id, is_moderator=False)

    assert [await boot.repository.player_stats(GUILD, player.user_id) for player in table.players] == [None] * 3
    assert peek(site.path, "SELECT count(*) FROM results") == [(0,)]
    assert peek(site.path, "SELECT status FROM games WHERE id = ?", (table.id,)) == [("stopped",)]
    # Open again only as an ending to show (no presentation layer has shown its closed table here).
    assert [(game.id, game.status) for game in await boot.repository.open_games()] == [(table.id, "stopped")]


# -- failed writes ---------------------------------------------------------------------------

FAILED_ACTION_POINTS: dict[str, Callable[[Game], bool]] = {
    "the first action": lambda game: True,
    "a card in the middle of a trick": lambda game: game.round == 2 and len(game.trick) == 1,
    "the last card of a round": lambda game: game.round == 2 and sum(map(len, game.hands)) == 1,
}


@pytest.mark.parametrize("point", FAILED_ACTION_POINTS.values(), ids=FAILED_ACTION_POINTS.keys())
async def test_when_an_action_cannot_be_stored_the_game_is_unchanged_and_the_next_try_works(
    site: Site, monkeypatch: pytest.MonkeyPatch, point: Callable[[Game], bool]
) -> None:
    boot = await site.boot()
    rng = random.Random(12)
    played: Played = []
    table = await start_with(boot.manager, 3)
    await play(boot.manager, table, rng, played, point)
    before = table.game.snapshot()
    boot.recorder.seen.clear()
    player, action = mover(table), table.game.legal_actions()[0]
    fail_once(monkeypatch, boot.repository, "append_action")

    with pytest.raises(sqlite3.OperationalError):
        await boot.manager.act(table.id, player.user_id, action, **current(table))

    assert table.game.snapshot() == before
    assert boot.recorder.events == []
    assert await boot.repository.actions(table.id) == stored(played)
    applied = await boot.manager.act(table.id, player.user_id, action, **current(table))
    assert boot.recorder.events == [ActionApplied(table, applied)]
    assert await boot.repository.actions(table.id) == [*stored(played), (applied.seat, action_to_json(action))]


@sqlite_only
async def test_when_the_last_action_cannot_be_stored_the_game_is_unchanged_and_the_next_try_ends_it(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    boot = await site.boot()
    rng = random.Random(13)
    played: Played = []
    table = await start_with(boot.manager, 3)
    await play(boot.manager, table, rng, played, RESTART_POINTS["before the last card"])
    before = table.game.snapshot()
    boot.recorder.seen.clear()
    player, action = mover(table), table.game.legal_actions()[0]
    # The action that ends the game is written with the result, in one transaction.
    fail_once(monkeypatch, boot.repository, "record_finished")

    with pytest.raises(sqlite3.OperationalError):
        await boot.manager.act(table.id, player.user_id, action, **current(table))

    assert table.game.snapshot() == before
    assert boot.recorder.events == []
    assert len(await boot.repository.actions(table.id)) == len(table.game.log)
    applied = await boot.manager.act(table.id, player.user_id, action, **current(table))
    assert applied.game_over
    assert boot.recorder.events == [ActionApplied(table, applied)]
    assert peek(site.path, "SELECT count(*) FROM results WHERE game_id = ?", (table.id,)) == [(3,)]
    assert boot.manager.in_channel(CHANNEL) is None


@sqlite_only
async def test_a_game_whose_results_were_not_recorded_before_a_crash_is_finished_after_the_restart(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await site.boot()
    rng = random.Random(14)
    table = await start_with(first.manager, 3)
    await play(first.manager, table, rng, [], RESTART_POINTS["before the last card"])
    player, action = mover(table), table.game.legal_actions()[0]
    fail_once(monkeypatch, first.repository, "record_finished")
    with pytest.raises(sqlite3.OperationalError):
        await first.manager.act(table.id, player.user_id, action, **current(table))

    second = await site.restart(first)

    # Whether the last action was kept or not, the game can be brought to its end, and then it is recorded.
    for restored in second.restored:
        if not restored.game.is_over:
            await second.manager.act(restored.id, player.user_id, action, **current(restored))
    assert second.manager.in_channel(CHANNEL) is None
    assert peek(site.path, "SELECT count(*) FROM results WHERE game_id = ?", (table.id,)) == [(3,)]


async def test_when_a_stop_cannot_be_stored_the_game_goes_on(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    boot.recorder.seen.clear()
    fail_once(monkeypatch, boot.repository, "stop_game")

    with pytest.raises(sqlite3.OperationalError):
        await boot.manager.stop(table.id, PEOPLE[0].user_id, is_moderator=False)

    assert not table.stopped
    assert boot.manager.in_channel(CHANNEL) is table
    assert boot.recorder.of(GameStopped) == []
    await step(boot.manager, table, random.Random(15))


async def open_elsewhere(manager: GameManager, lobby: Lobby) -> object:
    return await manager.open_lobby(GUILD, OTHER_CHANNEL, PEOPLE[5], Options())


async def join(manager: GameManager, lobby: Lobby) -> object:
    return await manager.join(lobby.id, PEOPLE[4])


async def leave(manager: GameManager, lobby: Lobby) -> object:
    return await manager.leave(lobby.id, PEOPLE[1].user_id)


async def host_leaves(manager: GameManager, lobby: Lobby) -> object:
    return await manager.leave(lobby.id, lobby.host_id)


async def cancel(manager: GameManager, lobby: Lobby) -> object:
    return await manager.cancel(lobby.id, lobby.host_id)


async def start(manager: GameManager, lobby: Lobby) -> object:
    return await manager.start(lobby.id, lobby.host_id)


LOBBY_WRITES = [
    pytest.param(3, open_elsewhere, "create_lobby", id="open"),
    pytest.param(3, join, "update_lobby", id="join"),
    pytest.param(3, leave, "update_lobby", id="leave"),
    pytest.param(3, host_leaves, "update_lobby", id="host leaves"),
    pytest.param(1, host_leaves, "close_lobby", id="last player leaves"),
    pytest.param(3, cancel, "close_lobby", id="cancel"),
    pytest.param(3, start, "start_game", id="start"),
]


@pytest.mark.parametrize(("count", "change", "method"), LOBBY_WRITES)
async def test_when_a_lobby_change_cannot_be_stored_nothing_changes_and_the_next_try_works(
    site: Site,
    monkeypatch: pytest.MonkeyPatch,
    count: int,
    change: Callable[[GameManager, Lobby], Awaitable[object]],
    method: str,
) -> None:
    boot = await site.boot()
    lobby = await open_with(boot.manager, count)
    before = (lobby_state(lobby), boot.manager.in_channel(CHANNEL), boot.manager.in_channel(OTHER_CHANNEL))
    stored_before = await boot.repository.open_games()
    boot.recorder.seen.clear()
    fail_once(monkeypatch, boot.repository, method)

    with pytest.raises(sqlite3.OperationalError):
        await change(boot.manager, lobby)

    assert (lobby_state(lobby), boot.manager.in_channel(CHANNEL), boot.manager.in_channel(OTHER_CHANNEL)) == before
    assert boot.recorder.events == []
    assert await boot.repository.open_games() == stored_before
    await change(boot.manager, lobby)


async def test_message_ids_noted_while_the_bot_shuts_down_are_not_written(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    lobby = await open_with(boot.manager, 1, channel=OTHER_CHANNEL)
    boot.manager.close()  # the bot stops: the manager first, then the database
    await boot.repository.close()
    # A click answered just before the stop still notes its message: no write, no error.
    await boot.manager.set_lobby_message(lobby.id, 91)
    await boot.manager.set_table_message(table, 92)
    await boot.manager.set_hand_message(table, table.players[0].user_id, 93, 94)
    assert await boot.manager.mark_dm_closed(table, table.players[1].user_id)
    assert (lobby.message_id, table.table_message_id) == (91, 92)


@sqlite_only
async def test_a_game_from_before_shown_pads_were_stored_is_taken_to_have_shown_its_pads(site: Site) -> None:
    first = await site.boot()
    table = await start_with(first.manager, 3)
    await play(first.manager, table, random.Random(5), [], lambda game: game.round == 3)
    poke(site.path, "UPDATE games SET pads_shown = NULL")  # as migration 0004 leaves a running game

    second = await site.restart(first)

    [restored] = second.restored
    # Its pads so far are not owed again; the ones of the rounds still to come will be.
    assert restored.pads_shown == len(restored.game.history) == 2


async def test_a_stopped_game_whose_closed_table_is_owed_comes_back_to_be_shown(site: Site) -> None:
    first = await site.boot()
    table = await start_with(first.manager, 3)
    await first.manager.stop(table.id, table.host_id, is_moderator=False)

    second = await site.restart(first)

    [owed] = second.restored
    assert (owed.id, owed.stopped) == (table.id, True)
    assert second.manager.in_channel(CHANNEL) is None  # the channel is free
    await second.manager.set_final_message(owed, 9001)
    assert (await site.restart(second)).restored == []
