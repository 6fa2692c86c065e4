"""A game whose place is gone (its channel deleted, the bot removed from its server) ends for good:
stored as stopped with the reason, counted nowhere, refused with the reason, and restored after a
restart only until its players are told. tests/postgres runs these on PostgreSQL too."""

from __future__ import annotations

import random

import pytest

from bot.manager import (
    CHANNEL_GONE,
    SERVER_GONE,
    GameRefused,
    GameStopped,
    LobbyClosed,
    Refusal,
    Table,
)
from tests.manager.support import CHANNEL, GUILD, OTHER_CHANNEL, PEOPLE, open_with, start_with, step

from .support import Site, process

OTHER_GUILD = 2


async def test_a_game_whose_channel_is_gone_is_stored_stopped_with_the_reason(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    await step(boot.manager, table, random.Random(1))
    lobby = await open_with(boot.manager, 2, channel=OTHER_CHANNEL)
    elsewhere = await start_with(boot.manager, 3, guild=OTHER_GUILD, people=PEOPLE[3:], channel=30)

    ended = await boot.manager.place_gone(CHANNEL_GONE, guild_id=GUILD, channel_ids=[CHANNEL])

    assert ended == [table]
    assert boot.recorder.of(GameStopped) == [GameStopped(table, None, CHANNEL_GONE)]
    assert (table.stopped, table.end_reason) == (True, CHANNEL_GONE)
    assert boot.manager.in_channel(CHANNEL) is None
    stored = await boot.repository.load_game(table.id)
    assert stored is not None
    assert (stored.status, stored.end_reason) == ("stopped", CHANNEL_GONE)
    # Not counted: no results, no statistics, no ratings.
    assert [await boot.repository.player_stats(GUILD, player.user_id) for player in table.players] == [None] * 3
    # The other channel's lobby and the other server's game are untouched.
    assert boot.manager.in_channel(OTHER_CHANNEL) is lobby
    assert boot.manager.in_channel(elsewhere.channel_id) is elsewhere
    assert not elsewhere.stopped


async def test_when_the_bot_leaves_a_server_its_games_end_and_its_lobbies_close(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    lobby = await open_with(boot.manager, 2, channel=OTHER_CHANNEL)
    elsewhere = await start_with(boot.manager, 3, guild=OTHER_GUILD, people=PEOPLE[3:], channel=30)

    ended = await boot.manager.place_gone(SERVER_GONE, guild_id=GUILD)

    assert ended == [table]
    assert boot.recorder.of(LobbyClosed) == [LobbyClosed(lobby, SERVER_GONE)]
    assert boot.manager.in_channel(OTHER_CHANNEL) is None
    assert boot.manager.tables() == [elsewhere]
    stored = await boot.repository.load_game(table.id)
    assert stored is not None
    assert stored.end_reason == SERVER_GONE


async def test_a_click_on_a_game_whose_place_is_gone_is_refused_saying_so(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    await boot.manager.place_gone(CHANNEL_GONE, guild_id=GUILD, channel_ids=[CHANNEL])

    with pytest.raises(GameRefused) as refused:
        await boot.manager.find_table(table.id)

    assert refused.value.refusal is Refusal.CHANNEL_GONE


@pytest.mark.parametrize("reason", [CHANNEL_GONE, SERVER_GONE])
async def test_a_game_whose_place_is_gone_comes_back_after_a_restart_only_until_its_players_are_told(
    site: Site, reason: str
) -> None:
    first = await site.boot()
    table = await start_with(first.manager, 3)
    await first.manager.place_gone(reason, guild_id=GUILD, channel_ids=None if reason == SERVER_GONE else [CHANNEL])

    second = await site.restart(first)

    [owed] = second.restored
    assert (owed.id, owed.stopped, owed.end_reason) == (table.id, True, reason)
    assert second.manager.tables() == []  # not played again
    await second.manager.set_final_message(owed, 0)  # its players are told: nothing is owed any more
    assert (await site.restart(second)).restored == []


async def test_a_game_ended_twice_is_ended_once(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    assert await boot.manager.end_game(table.id, CHANNEL_GONE)
    assert not await boot.manager.end_game(table.id, CHANNEL_GONE)
    assert await boot.manager.place_gone(SERVER_GONE, guild_id=GUILD) == []
    assert len(boot.recorder.of(GameStopped)) == 1


async def test_a_game_another_process_ended_first_is_only_let_go_of(site: Site) -> None:
    """Two processes hold the game (an overlapping deploy): the one that ends it tells the players; the
    other, which then meets the dead channel too, lets go of its copy without telling them again."""
    async with process(site.path) as (first, _):
        table = await start_with(first, 3)
        async with process(site.path) as (second, events):
            copy = second.in_channel(CHANNEL)
            assert isinstance(copy, Table)
            assert await first.end_game(table.id, CHANNEL_GONE)

            assert not await second.end_game(copy.id, CHANNEL_GONE)

            assert events.of(GameStopped) == []
            assert second.tables() == []


@pytest.mark.parametrize("how", ["stopped", "abandoned"])
async def test_a_game_stopped_early_is_stored_with_why(site: Site, how: str) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    if how == "stopped":
        await boot.manager.stop(table.id, table.host_id, is_moderator=False)
    else:
        table.away = {player.user_id for player in table.players}  # everyone away too long
        await boot.manager._abandon(table)
    stored = await boot.repository.load_game(table.id)
    assert stored is not None
    assert stored.end_reason == how
    [restored] = (await site.restart(boot)).restored
    assert restored.end_reason == how


async def test_stopping_a_game_that_is_no_longer_running_changes_nothing(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3)
    assert await boot.repository.stop_game(table.id, CHANNEL_GONE)
    assert not await boot.repository.stop_game(table.id, "stopped")
    stored = await boot.repository.load_game(table.id)
    assert stored is not None
    assert stored.end_reason == CHANNEL_GONE
