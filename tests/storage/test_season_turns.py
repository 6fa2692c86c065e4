"""The manager's seasons on a real database: set by the admins, turning over on the game clock,
games counted for the season they finish in, and a season's end announced once, across restarts
and processes. tests/postgres runs these on PostgreSQL too."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import random
from collections.abc import Sequence

import pytest

from bot import ratings
from bot.engine import Options
from bot.manager import GameManager, GameRefused, Refusal, SeasonEnded, Table
from bot.storage import SeasonSettingsRecord, Sort
from tests.clock import MovableClock
from tests.manager.support import GUILD, PEOPLE, Recorder, reach, start_with, step

from .support import Boot, Site, process

CHANNEL_FOR_ENDS = 4242
# A beat and a lease far shorter than the bot's, so that the beat is seen within a test.
QUICK = {"runner_beat": 0.05, "runner_lease": 0.25, "computer_pace": 0.0}
ONE_ROUND = Options(rounds=1)


def utc(*parts: int) -> float:
    return datetime.datetime(*parts, tzinfo=datetime.UTC).timestamp()


def clock_at(moment: float) -> MovableClock:
    clock = MovableClock()
    clock.advance(moment - clock.now())
    return clock


async def beats(count: int = 6) -> None:
    """Let the season beat run a few times (QUICK's beat is 0.05 s)."""
    await reach(asyncio.get_running_loop().time() + count * QUICK["runner_beat"])


async def play_a_game(manager: GameManager, people: Sequence[int] = (0, 1, 2), seed: int = 1) -> Table:
    """Three people (PEOPLE[i] for i in `people`) play a one-round game to its end."""
    table = await start_with(manager, len(people), people=[PEOPLE[i] for i in people], options=ONE_ROUND)
    rng = random.Random(seed)
    while not table.game.is_over:
        await step(manager, table, rng)
    return table


def ends(recorder: Recorder) -> list[tuple[int, int]]:
    return [(event.season.guild_id, event.season.number) for event in recorder.of(SeasonEnded)]


async def monthly_boot(site: Site, clock: MovableClock, channel: int | None = CHANNEL_FOR_ENDS) -> Boot:
    boot = await site.boot(clock=clock, **QUICK)
    await boot.manager.change_season_settings(GUILD, length="monthly", channel_id=channel)
    return boot


# -- what the admins set ------------------------------------------------------------------------


async def test_a_monthly_length_begins_a_season_now_that_ends_at_the_first_of_next_month(site: Site) -> None:
    clock = clock_at(utc(2027, 3, 15, 12))
    boot = await site.boot(clock=clock, **QUICK)
    assert await boot.manager.current_season(GUILD) is None
    settings, season = await boot.manager.change_season_settings(GUILD, length="monthly", channel_id=CHANNEL_FOR_ENDS)
    assert settings == SeasonSettingsRecord("monthly", CHANNEL_FOR_ENDS)
    assert season is not None
    assert (season.number, season.ends_at) == (1, utc(2027, 4, 1))
    assert season.started_at == pytest.approx(utc(2027, 3, 15, 12), abs=60)


async def test_another_length_moves_the_running_seasons_end_and_none_leaves_it_to_the_admins(site: Site) -> None:
    clock = clock_at(utc(2027, 2, 10))
    boot = await monthly_boot(site, clock)
    _, quarterly = await boot.manager.change_season_settings(GUILD, length="quarterly")
    assert quarterly is not None
    assert (quarterly.number, quarterly.ends_at) == (1, utc(2027, 4, 1))
    _, endless = await boot.manager.change_season_settings(GUILD, length="none")
    assert endless is not None
    assert (endless.number, endless.ends_at) == (1, None)
    # The channel is kept when only the length changes, and can be cleared.
    settings, _ = await boot.manager.change_season_settings(GUILD, clear_channel=True)
    assert settings == SeasonSettingsRecord("none", None)


async def test_starting_a_season_by_command_ends_the_running_one_now(site: Site) -> None:
    clock = clock_at(utc(2027, 2, 10))
    boot = await monthly_boot(site, clock)
    await play_a_game(boot.manager)
    begun = await boot.manager.start_season(GUILD)
    assert (begun.number, begun.ends_at) == (2, utc(2027, 3, 1))
    ended = await boot.repository.season(GUILD, 1)
    assert ended is not None
    assert ended.ended_at == pytest.approx(clock.now(), abs=60)
    await beats()
    assert ends(boot.recorder)[:1] == [(GUILD, 1)]


async def test_without_a_length_a_season_runs_from_a_start_to_an_end_by_command(site: Site) -> None:
    clock = clock_at(utc(2027, 2, 10))
    boot = await site.boot(clock=clock, **QUICK)
    with pytest.raises(GameRefused) as refused:
        await boot.manager.end_season(GUILD)
    assert refused.value.refusal is Refusal.NO_SEASON
    begun = await boot.manager.start_season(GUILD)
    assert (begun.number, begun.ends_at) == (1, None)
    clock.advance(400 * 86_400)
    assert await boot.manager.current_season(GUILD) == begun  # nothing ends it but an admin
    ended = await boot.manager.end_season(GUILD)
    assert ended.number == 1
    assert ended.ended_at is not None
    assert await boot.manager.current_season(GUILD) is None


# -- games and the calendar -----------------------------------------------------------------


async def test_games_count_for_the_season_they_finish_in_and_the_next_starts_from_the_carry_over(site: Site) -> None:
    clock = clock_at(utc(2027, 3, 31, 20))
    boot = await monthly_boot(site, clock)
    await play_a_game(boot.manager, seed=1)
    first = await boot.repository.leaderboard(GUILD, Sort.RATING, 0, 10, season=1)
    assert sorted(s.user_id for s in first) == [PEOPLE[i].user_id for i in range(3)]

    clock.advance(5 * 3600)  # 1 April, 01:00 UTC
    table = await play_a_game(boot.manager, seed=2)
    season = await boot.manager.current_season(GUILD)
    assert season is not None
    assert (season.number, season.started_at, season.ends_at) == (2, utc(2027, 4, 1), utc(2027, 5, 1))
    assert [s.games for s in await boot.repository.leaderboard(GUILD, Sort.RATING, 0, 10, season=1)] == [1, 1, 1]
    second = {s.user_id: s.rating for s in await boot.repository.leaderboard(GUILD, Sort.RATING, 0, 10, season=2)}

    ended = {user: await boot.repository.season_ratings(GUILD, 1, [user]) for user in second}
    start = {user: ratings.carried_over(found[user][1:]) for user, found in ended.items()}
    users = [player.user_id for player in table.players]
    places = [1 + sum(other > score for other in table.game.scores) for score in table.game.scores]
    expected = ratings.rate(start, users, places)
    assert second == pytest.approx({user: ratings.shown(expected[user]) for user in users})


async def test_a_game_with_a_computer_counts_for_personal_figures_but_not_the_ranking(site: Site) -> None:
    clock = clock_at(utc(2027, 3, 10))
    boot = await monthly_boot(site, clock)
    lobby = await boot.manager.open_lobby(GUILD, 10, PEOPLE[0], ONE_ROUND, 300, computers=["easy", "easy"])
    table = await boot.manager.start(lobby.id, lobby.host_id)
    rng = random.Random(3)
    while not table.game.is_over:
        await boot.recorder.wait_for(lambda _: table.game.is_over or table.game.to_move == 0)
        if not table.game.is_over:
            await step(boot.manager, table, rng)
    assert await boot.repository.ranked_players(GUILD, Sort.RATING, season=1) == 0
    history = await boot.repository.history(GUILD, PEOPLE[0].user_id, season=1)
    assert history is not None
    assert history.games == 1


async def test_a_bot_down_across_turnovers_ends_the_season_at_its_turnover_and_begins_the_current_period(
    site: Site,
) -> None:
    clock = clock_at(utc(2027, 3, 20))
    first = await monthly_boot(site, clock)
    await play_a_game(first.manager)
    await site.crash(first)
    first.manager.close()
    clock.advance(80 * 86_400)  # 8 June

    second = await site.boot(clock=clock, **QUICK)
    await beats()
    ended = await second.repository.season(GUILD, 1)
    assert ended is not None
    assert ended.ended_at == utc(2027, 4, 1)
    current = await second.repository.current_season(GUILD)
    assert current is not None
    assert (current.number, current.started_at, current.ends_at) == (2, utc(2027, 6, 1), utc(2027, 7, 1))


async def test_a_game_whose_season_ended_while_it_was_stored_counts_for_the_next(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = clock_at(utc(2027, 3, 10))
    boot = await monthly_boot(site, clock)
    manager = boot.manager
    real = manager._season_entry

    async def then_another_process_ends_it(*args: object) -> object:
        entry = await real(*args)  # type: ignore[arg-type]
        if entry is not None and entry.number == 1:
            await manager.start_season(GUILD)  # as another process might, before this one stores the game
        return entry

    monkeypatch.setattr(manager, "_season_entry", then_another_process_ends_it)
    await play_a_game(manager)
    assert await boot.repository.ranked_players(GUILD, Sort.RATING, season=1) == 0
    assert await boot.repository.ranked_players(GUILD, Sort.RATING, season=2) == 3


# -- a season's end, announced once --------------------------------------------------------------


async def test_an_ended_season_is_owed_its_announcement_until_the_message_is_noted(site: Site) -> None:
    clock = clock_at(utc(2027, 3, 31, 23))
    boot = await monthly_boot(site, clock)
    await play_a_game(boot.manager)
    await beats()
    assert ends(boot.recorder) == []
    clock.advance(2 * 3600)
    await boot.recorder.wait_for(lambda e: isinstance(e, SeasonEnded))
    [event] = boot.recorder.of(SeasonEnded)[:1]
    season = event.season
    assert (season.number, season.channel_id, season.ended_at) == (1, CHANNEL_FOR_ENDS, utc(2027, 4, 1))
    await boot.manager.season_announced(event.season, 777)
    count = len(boot.recorder.of(SeasonEnded))
    await beats()
    assert len(boot.recorder.of(SeasonEnded)) == count  # no more
    ended = await boot.repository.season(GUILD, 1)
    assert ended is not None
    assert ended.announced_id == 777


async def test_a_season_that_ended_while_the_bot_was_down_is_owed_after_the_restart_and_then_never_again(
    site: Site,
) -> None:
    clock = clock_at(utc(2027, 3, 31, 22))
    first = await monthly_boot(site, clock)
    await play_a_game(first.manager)
    await site.crash(first)
    first.manager.close()
    clock.advance(3 * 3600)

    second = await site.boot(clock=clock, **QUICK)
    event, _ = await second.recorder.wait_for(lambda e: isinstance(e, SeasonEnded))
    assert isinstance(event, SeasonEnded)
    assert (event.season.guild_id, event.season.number) == (GUILD, 1)
    await second.manager.season_announced(event.season, 778)
    await site.crash(second)
    second.manager.close()

    third = await site.boot(clock=clock, **QUICK)
    await beats()
    assert ends(third.recorder) == []


async def test_of_two_processes_one_is_given_the_announcement_and_the_other_only_once_the_first_died(
    site: Site,
) -> None:
    clock = clock_at(utc(2027, 3, 31, 23))
    setup = await monthly_boot(site, clock)
    await play_a_game(setup.manager)
    await site.crash(setup)
    setup.manager.close()
    clock.advance(2 * 3600)  # the season ended while no process ran

    lives = [contextlib.AsyncExitStack(), contextlib.AsyncExitStack()]
    try:
        both = [await life.enter_async_context(process(site.path, clock=clock, **QUICK)) for life in lives]
        await beats(10)
        holders = [index for index, (_, events) in enumerate(both) if ends(events)]
        assert len(holders) == 1  # and it is told again each beat, as it renews its claim
        holder = holders[0]
        (_, holder_events), (other, other_events) = both[holder], both[1 - holder]
        assert set(ends(holder_events)) == {(GUILD, 1)}
        await lives[holder].aclose()  # it dies before posting: its claim lapses

        event, _ = await other_events.wait_for(lambda e: isinstance(e, SeasonEnded))
        assert isinstance(event, SeasonEnded)
        await other.season_announced(event.season, 779)
        told = len(other_events.of(SeasonEnded))
        await beats(10)
        assert len(other_events.of(SeasonEnded)) == told
    finally:
        for life in lives:
            await life.aclose()
