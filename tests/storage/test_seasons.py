"""The repository's seasons, a season's ranking, and the figures /stats shows: a player's history
(a season, all time) and head-to-head. tests/postgres runs these on PostgreSQL too."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot import ratings
from bot.storage import (
    FinalSeat,
    HeadToHead,
    History,
    Repository,
    SeasonEntry,
    SeasonOver,
    SeasonRecord,
    SeasonSettingsRecord,
    Sort,
)
from bot.storage._sql import SQLITE
from tests.manager.support import GUILD

from .conftest import OldDatabase
from .support import peek, reads_beside, running_game, sqlite_only

OTHER_GUILD = 2
ANN, BO, CY, DI = 101, 102, 103, 104
COMPUTER = -1
T0 = 1_800_000_000.0  # a moment on the game clock
DAY = 86_400.0
CHANNEL = 77


def seat(index: int, user: int, score: int, place: int, *, computer: bool = False) -> FinalSeat:
    """A result with one round whose points are `score`, bid exactly when the score is positive."""
    bid, tricks = (1, 1) if score > 0 else (1, 0)
    return FinalSeat(index, user, f"Player {user}", score, place, place == 1, ((1, bid, tricks, score),), computer)


async def finish(
    repository: Repository,
    game_id: str,
    seats: Sequence[FinalSeat],
    *,
    season: int | None = None,
    ranked: bool | None = None,
    at: float = T0,
    guild: int = GUILD,
) -> dict[int, tuple[float, float]] | None:
    """Store a finished game, in `season` if given (ranked, with fresh season ratings, if every seat
    is a person's); returns the season ratings it stored."""
    await running_game(repository, game_id, [s.user_id for s in seats], guild)
    people = all(not s.computer for s in seats) if ranked is None else ranked
    season_ratings = None
    if season is not None and people:
        found = await repository.season_ratings(guild, season, [s.user_id for s in seats])
        previous = {user: (mu, sigma) for user, (_, mu, sigma) in found.items()}
        season_ratings = ratings.rate(previous, [s.user_id for s in seats], [s.place for s in seats])
    entry = None if season is None else SeasonEntry(season, season_ratings)
    await repository.record_finished(game_id, guild, seats, None, season=entry, finished_at=at)
    return season_ratings


# -- seasons ---------------------------------------------------------------------------------


async def test_a_server_without_seasons_has_no_settings_and_no_season(repository: Repository) -> None:
    assert await repository.season_settings(GUILD) is None
    assert await repository.current_season(GUILD) is None
    assert await repository.last_season(GUILD) is None


async def test_season_settings_are_stored_per_server(repository: Repository) -> None:
    await repository.save_season_settings(GUILD, SeasonSettingsRecord("monthly", CHANNEL))
    await repository.save_season_settings(GUILD, SeasonSettingsRecord("quarterly", None))
    await repository.save_season_settings(OTHER_GUILD, SeasonSettingsRecord("monthly", 5))
    assert await repository.season_settings(GUILD) == SeasonSettingsRecord("quarterly", None)
    assert await repository.season_settings(OTHER_GUILD) == SeasonSettingsRecord("monthly", 5)


async def test_a_season_begins_once_and_only_while_none_runs(repository: Repository) -> None:
    assert await repository.start_season(GUILD, 1, T0, T0 + DAY)
    assert not await repository.start_season(GUILD, 1, T0, T0 + DAY)  # another process began it first
    assert not await repository.start_season(GUILD, 2, T0, None)  # one runs
    assert await repository.start_season(OTHER_GUILD, 1, T0, None)
    assert await repository.current_season(GUILD) == SeasonRecord(GUILD, 1, T0, T0 + DAY, None)


async def test_ending_a_season_begins_the_next_in_the_same_step_and_only_once(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, T0 + DAY)
    assert await repository.end_season(GUILD, 1, T0 + DAY, CHANNEL, (T0 + DAY, T0 + 2 * DAY))
    assert not await repository.end_season(GUILD, 1, T0 + DAY + 5, CHANNEL, (T0 + DAY + 5, T0 + 3 * DAY))

    ended = await repository.season(GUILD, 1)
    assert ended is not None
    assert (ended.ended_at, ended.channel_id) == (T0 + DAY, CHANNEL)
    assert await repository.current_season(GUILD) == SeasonRecord(GUILD, 2, T0 + DAY, T0 + 2 * DAY, None)
    assert await repository.last_season(GUILD) == await repository.current_season(GUILD)


async def test_a_read_beside_a_seasons_turnover_sees_the_season_before_or_after_and_never_none(
    repository: Repository,
) -> None:
    """A game finishing at the turnover asks which season runs while the turnover is being stored;
    it must not find none (and so count for no season)."""
    await repository.start_season(GUILD, 1, T0, T0 + DAY)
    turnover = asyncio.ensure_future(repository.end_season(GUILD, 1, T0 + DAY, CHANNEL, (T0 + DAY, T0 + 2 * DAY)))
    seen = await reads_beside(turnover, lambda: repository.current_season(GUILD))
    assert await turnover
    assert {None if season is None else season.number for season in seen} <= {1, 2}
    assert await repository.current_season(GUILD) == SeasonRecord(GUILD, 2, T0 + DAY, T0 + 2 * DAY, None)


async def test_an_end_is_owed_an_announcement_only_with_a_channel_and_a_ranked_game(repository: Repository) -> None:
    for guild in (GUILD, OTHER_GUILD, 3):
        await repository.start_season(guild, 1, T0, None)
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 1)], season=1)
    await finish(repository, "g2", [seat(0, ANN, 30, 1), seat(1, COMPUTER, 0, 2, computer=True)], season=1,
                 guild=OTHER_GUILD)  # fmt: skip
    await repository.end_season(GUILD, 1, T0 + DAY, CHANNEL)
    await repository.end_season(OTHER_GUILD, 1, T0 + DAY, CHANNEL)  # no ranked game: nothing to announce
    await repository.end_season(3, 1, T0 + DAY, None)  # no channel

    assert await repository.owed_announcements() == [(GUILD, 1)]
    assert [(await repository.season(g, 1)).announced_id for g in (OTHER_GUILD, 3)] == [0, 0]  # type: ignore[union-attr]
    assert await repository.current_season(GUILD) is None  # no following season was given


async def test_seasons_due_are_the_running_ones_whose_end_has_come(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, T0 + DAY)
    await repository.start_season(OTHER_GUILD, 1, T0, T0 + 2 * DAY)
    await repository.start_season(3, 1, T0, None)
    assert await repository.due_seasons(T0 + DAY - 1) == []
    assert [s.guild_id for s in await repository.due_seasons(T0 + DAY)] == [GUILD]
    await repository.set_season_end(OTHER_GUILD, 1, T0 + DAY / 2)
    assert [s.guild_id for s in await repository.due_seasons(T0 + DAY)] == [OTHER_GUILD, GUILD]
    await repository.end_season(GUILD, 1, T0 + DAY, None)
    assert [s.guild_id for s in await repository.due_seasons(T0 + 10 * DAY)] == [OTHER_GUILD]


async def owed_season(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 1)], season=1)
    await repository.end_season(GUILD, 1, T0 + DAY, CHANNEL)


async def test_one_process_at_a_time_holds_an_announcement_and_renews_its_own_claim(repository: Repository) -> None:
    await owed_season(repository)
    claimed = await repository.claim_announcement(GUILD, 1, "one", now=100.0, until=106.0)
    assert claimed is not None
    assert (claimed.number, claimed.channel_id, claimed.announced_id) == (1, CHANNEL, None)
    assert await repository.claim_announcement(GUILD, 1, "two", now=105.0, until=111.0) is None
    assert await repository.claim_announcement(GUILD, 1, "one", now=105.0, until=111.0) is not None  # renewed
    assert await repository.claim_announcement(GUILD, 1, "two", now=110.0, until=116.0) is None
    # The first process died: its claim lapses, and another takes it.
    assert await repository.claim_announcement(GUILD, 1, "two", now=112.0, until=118.0) is not None


async def test_an_announced_end_is_owed_no_more(repository: Repository) -> None:
    await owed_season(repository)
    await repository.set_announced(GUILD, 1, 5555)
    assert await repository.owed_announcements() == []
    assert await repository.claim_announcement(GUILD, 1, "one", now=100.0, until=106.0) is None
    season = await repository.season(GUILD, 1)
    assert season is not None
    assert season.announced_id == 5555


# -- games in a season -----------------------------------------------------------------------


async def test_a_game_counts_for_its_season_and_a_game_with_a_computer_only_for_personal_figures(
    repository: Repository,
) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    rated = await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 1)], season=1)
    await finish(repository, "g2", [seat(0, ANN, 50, 1), seat(1, COMPUTER, 0, 2, computer=True), seat(2, DI, -20, 3)],
                 season=1)  # fmt: skip

    board = await repository.leaderboard(GUILD, Sort.WINS, 0, 10, season=1)
    assert [(s.user_id, s.games, s.wins) for s in board] == [(ANN, 1, 1), (CY, 1, 1), (BO, 1, 0)]
    assert rated is not None
    assert [s.rating for s in board] == [ratings.shown(rated[user]) for user in (ANN, CY, BO)]
    assert await repository.ranked_players(GUILD, Sort.RATING, season=1) == 3
    assert await repository.standing(GUILD, DI, Sort.RATING, season=1) is None  # played only with a computer
    mine = await repository.history(GUILD, ANN, season=1)
    assert mine is not None
    assert (mine.games, mine.wins, mine.best_score, mine.best_game) == (2, 2, 50, "g2")
    di = await repository.history(GUILD, DI, season=1)
    assert di is not None
    assert (di.games, di.wins) == (1, 0)
    season = await repository.season(GUILD, 1)
    assert season is not None
    assert season.games == 2


async def test_a_game_is_not_counted_for_a_season_that_has_ended_and_nothing_of_it_is_stored(
    repository: Repository,
) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    await repository.end_season(GUILD, 1, T0 + DAY, None, (T0 + DAY, None))
    with pytest.raises(SeasonOver):
        await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 1)], season=1)
    assert await repository.player_stats(GUILD, ANN) is None
    assert await repository.history(GUILD, ANN, season=1) is None
    [game] = await repository.open_games()  # still running: the game is stored again, for season 2
    assert game.status == "running"
    await finish_again(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 1)], season=2)
    assert await repository.history(GUILD, ANN, season=2) is not None


async def finish_again(repository: Repository, game_id: str, seats: Sequence[FinalSeat], season: int) -> None:
    await repository.record_finished(game_id, GUILD, seats, None, season=SeasonEntry(season, None))


async def test_the_seasons_leaderboards_and_all_time_are_apart(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)], season=1)
    await repository.end_season(GUILD, 1, T0 + DAY, None, (T0 + DAY, None))
    await finish(repository, "g2", [seat(0, ANN, -30, 3), seat(1, BO, 40, 1), seat(2, DI, 20, 2)], season=2)
    await finish(repository, "g3", [seat(0, ANN, -30, 3), seat(1, BO, 40, 1), seat(2, DI, 20, 2)], season=2)

    first = await repository.leaderboard(GUILD, Sort.WINS, 0, 10, season=1)
    second = await repository.leaderboard(GUILD, Sort.WINS, 0, 10, season=2)
    ever = await repository.leaderboard(GUILD, Sort.WINS, 0, 10)
    assert [(s.rank, s.user_id, s.wins) for s in first] == [(1, ANN, 1), (2, BO, 0), (2, CY, 0)]
    assert [(s.rank, s.user_id, s.wins) for s in second] == [(1, BO, 2), (2, ANN, 0), (2, DI, 0)]
    assert [(s.rank, s.user_id, s.games, s.wins) for s in ever] == [
        (1, BO, 3, 2),
        (2, ANN, 3, 1),
        (3, CY, 1, 0),
        (3, DI, 2, 0),
    ]
    assert [await repository.ranked_players(GUILD, Sort.WINS, season=n) for n in (1, 2, 3)] == [3, 3, 0]
    bo = await repository.standing(GUILD, BO, Sort.AVG_SCORE, season=2)
    assert bo is not None
    assert (bo.rank, bo.avg_score) == (1, 40.0)
    page = await repository.leaderboard(GUILD, Sort.AVG_SCORE, 1, 1, season=2)
    assert [(s.rank, s.user_id) for s in page] == [(2, DI)]


async def test_a_players_season_rating_is_their_own_else_their_last_seasons(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    one = await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)], season=1)
    await repository.end_season(GUILD, 1, T0 + DAY, None, (T0 + DAY, None))
    await repository.end_season(GUILD, 2, T0 + 2 * DAY, None, (T0 + 2 * DAY, None))
    assert one is not None
    found = await repository.season_ratings(GUILD, 3, [ANN, BO, DI])
    assert found == {ANN: (1, *one[ANN]), BO: (1, *one[BO])}
    three = await finish(repository, "g2", [seat(0, ANN, 30, 1), seat(1, DI, -10, 2), seat(2, CY, 20, 3)], season=3)
    assert three is not None
    assert await repository.season_ratings(GUILD, 3, [ANN]) == {ANN: (3, *three[ANN])}
    assert await repository.season_ratings(GUILD, 2, [ANN]) == {ANN: (1, *one[ANN])}


# -- a player's history ------------------------------------------------------------------------


async def test_history_counts_every_game_and_keeps_the_best_one_and_the_streak(repository: Repository) -> None:
    results = [(30, 1), (50, 1), (50, 1), (-10, 2), (-20, 3), (60, 1)]  # ANN's score and place
    expected_streaks = [1, 2, 3, -1, -2, 1]
    streaks = []
    for index, (score, place) in enumerate(results):
        others = [seat(1, BO, 0, 2 if place == 1 else 1), seat(2, CY, -5, 3)]
        await finish(repository, f"g{index}", [seat(0, ANN, score, place), *others], at=T0 + index * DAY)
        history = await repository.history(GUILD, ANN)
        assert history is not None
        streaks.append(history.streak)
    assert streaks == expected_streaks
    assert await repository.history(GUILD, ANN) == History(
        games=6,
        wins=4,
        total_score=160,
        rounds=6,
        exact=4,
        best_score=60,
        best_game="g5",
        best_at=T0 + 5 * DAY,
        streak=1,
    )
    stats = await repository.player_stats(GUILD, ANN)
    assert stats is not None
    assert (stats.best_game, stats.streak) == ("g5", 1)


async def test_the_best_game_is_the_first_of_equal_best_scores(repository: Repository) -> None:
    for index in range(3):
        await finish(repository, f"g{index}", [seat(0, ANN, 50, 1), seat(1, BO, 0, 2), seat(2, CY, 0, 2)],
                     at=T0 + index)  # fmt: skip
    history = await repository.history(GUILD, ANN)
    assert history is not None
    assert (history.best_game, history.best_at) == ("g0", T0)


async def test_history_is_per_server_and_none_without_a_game(repository: Repository) -> None:
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)])
    assert await repository.history(OTHER_GUILD, ANN) is None
    assert await repository.history(GUILD, DI) is None
    assert await repository.history(GUILD, ANN, season=1) is None  # no season ran


# -- head-to-head -----------------------------------------------------------------------------


async def test_head_to_head_is_told_from_either_side(repository: Repository) -> None:
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)])
    await finish(repository, "g2", [seat(0, BO, 40, 1), seat(1, ANN, 10, 2), seat(2, CY, 40, 1)])
    await finish(repository, "g3", [seat(0, ANN, 20, 1), seat(1, BO, 20, 1), seat(2, DI, 0, 3)])

    assert await repository.head_to_head(GUILD, ANN, BO) == HeadToHead(ANN, BO, 3, 1, 1, 2, 2, 60, 50)
    assert await repository.head_to_head(GUILD, BO, ANN) == HeadToHead(BO, ANN, 3, 1, 1, 2, 2, 50, 60)
    cy = await repository.head_to_head(GUILD, CY, ANN)
    assert cy is not None
    assert (cy.games, cy.ahead, cy.behind, cy.level) == (2, 1, 1, 0)
    level = await repository.head_to_head(GUILD, ANN, BO)
    assert level is not None
    assert level.level == 1


async def test_head_to_head_leaves_out_computers_other_servers_and_other_seasons(repository: Repository) -> None:
    await repository.start_season(GUILD, 1, T0, None)
    await finish(repository, "g1", [seat(0, ANN, 30, 1), seat(1, COMPUTER, -10, 2, computer=True),
                                    seat(2, BO, 20, 3)], season=1)  # fmt: skip
    await repository.end_season(GUILD, 1, T0 + DAY, None, (T0 + DAY, None))
    await finish(repository, "g2", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)], season=2)
    await finish(repository, "g3", [seat(0, ANN, 30, 1), seat(1, BO, -10, 2), seat(2, CY, 20, 3)],
                 guild=OTHER_GUILD)  # fmt: skip

    assert await repository.head_to_head(GUILD, ANN, COMPUTER) is None
    ever = await repository.head_to_head(GUILD, ANN, BO)
    one = await repository.head_to_head(GUILD, ANN, BO, season=1)
    two = await repository.head_to_head(GUILD, ANN, BO, season=2)
    assert (ever and ever.games, one and one.games, two and two.games) == (2, 1, 1)
    assert await repository.head_to_head(GUILD, ANN, CY, season=1) is None
    there = await repository.head_to_head(OTHER_GUILD, ANN, BO)
    assert there is not None
    assert there.games == 1


# -- migration 0010, from the schema before it --------------------------------------------------

TODAY = 9  # the schema before seasons


OLD_GAME = (
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, options, turn_timer, created_at, updated_at,"
    " finished_at, final_message_id) VALUES (?, ?, 10, ?, 'finished', '{}', 300, ?, ?, ?, 0)"
)
OLD_SEAT = "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)"
OLD_RESULT = "INSERT INTO results (game_id, seat, user_id, score, place, won) VALUES (?, ?, ?, ?, ?, ?)"
OLD_STATS = (
    "INSERT INTO player_stats (guild_id, user_id, name, games, wins, total_score, best_score)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
Rows = list[tuple[str, Sequence[object]]]


def finished_game(game_id: str, guild: int, at: float, seats: Sequence[tuple[int, int, int, bool, str | None]]) -> Rows:
    """The rows a finished game left in the database before migration 0010: (user, score, place, won,
    computer level) for each seat."""
    rows: Rows = [(OLD_GAME, (game_id, guild, seats[0][0], at, at, at))]
    for index, (user, score, place, won, computer) in enumerate(seats):
        rows.append((OLD_SEAT, (game_id, index, user, f"Player {user}", computer)))
        rows.append((OLD_RESULT, (game_id, index, user, score, place, won)))
    return rows


async def test_the_migration_fills_in_best_games_streaks_and_head_to_head_from_the_finished_games(
    old_database: OldDatabase, database: object
) -> None:
    person, easy = None, "easy"
    rows = [
        *finished_game("g1", GUILD, T0, [(ANN, 30, 1, True, person), (BO, -10, 2, False, person),
                                         (CY, -20, 3, False, person)]),
        *finished_game("g2", GUILD, T0 + 1, [(ANN, -10, 3, False, person), (BO, 40, 1, True, person),
                                             (CY, 0, 2, False, person)]),
        *finished_game("g3", GUILD, T0 + 2, [(ANN, 50, 1, True, person), (BO, 10, 2, False, person),
                                             (-1, 0, 3, False, easy)]),
        *finished_game("g4", OTHER_GUILD, T0 + 3, [(ANN, -10, 2, False, person), (BO, 20, 1, True, person),
                                                   (CY, 0, 2, False, person)]),
    ]  # fmt: skip
    for guild, user, games, wins, total, best in [
        (GUILD, ANN, 3, 2, 70, 50), (GUILD, BO, 3, 1, 40, 40), (GUILD, CY, 2, 0, -20, 0),
        (OTHER_GUILD, ANN, 1, 0, -10, -10), (OTHER_GUILD, BO, 1, 1, 20, 20), (OTHER_GUILD, CY, 1, 0, 0, 0),
    ]:  # fmt: skip
        rows.append((OLD_STATS, (guild, user, f"Player {user}", games, wins, total, best)))
    await old_database(TODAY, rows)

    repository = await Repository.open(database)  # type: ignore[arg-type]
    try:
        found = {
            (guild, user): await repository.history(guild, user)
            for guild, user in [(GUILD, ANN), (GUILD, BO), (GUILD, CY), (OTHER_GUILD, ANN)]
        }
        assert {key: (h.best_game, h.best_at, h.streak) for key, h in found.items() if h is not None} == {
            (GUILD, ANN): ("g3", T0 + 2, 1),
            (GUILD, BO): ("g2", T0 + 1, -1),
            (GUILD, CY): ("g2", T0 + 1, -2),
            (OTHER_GUILD, ANN): ("g4", T0 + 3, -1),
        }
        assert await repository.head_to_head(GUILD, ANN, BO) == HeadToHead(ANN, BO, 3, 2, 1, 2, 1, 70, 40)
        assert await repository.head_to_head(GUILD, CY, ANN) == HeadToHead(CY, ANN, 2, 1, 1, 0, 1, -20, 20)
        assert await repository.head_to_head(GUILD, ANN, -1) is None
        there = await repository.head_to_head(OTHER_GUILD, ANN, CY)
        assert there is not None
        assert (there.games, there.level) == (1, 1)
        assert await repository.current_season(GUILD) is None  # no server has seasons until it asks for them
    finally:
        await repository.close()


# -- indexed for a server with a million games ------------------------------------------------------

# The reads of /leaderboard, /stats and each process's season beat, and the season row a finished
# game counts on: none may read a whole table (bench/seasons.py times them on a million games).
INDEXED = [
    *(("leaderboard", sort) for sort in Sort),
    *(("rank", sort) for sort in Sort),
    *(("ranked_players", sort) for sort in Sort),
    *(("season_leaderboard", sort) for sort in Sort),
    *(("season_rank", sort) for sort in Sort),
    *((name, None) for name in ("standing", "season_standing", "season_ranked_players", "player_stats", "hand_sizes")),
    *((name, None) for name in ("history", "season_history", "rivals", "season_rating")),
    *((name, None) for name in ("current_season", "season", "last_season", "due_seasons", "owed_announcements")),
    *((name, None) for name in ("claim_announcement", "count_in_season", "end_season", "set_announced")),
]


@sqlite_only
@pytest.mark.parametrize(("name", "sort"), INDEXED, ids=[f"{n}-{s.value}" if s else n for n, s in INDEXED])
async def test_the_reads_of_the_leaderboard_stats_and_seasons_use_an_index(
    repository: Repository, db_path: Path, name: str, sort: Sort | None
) -> None:
    statement = getattr(SQLITE, name)
    sql = statement if sort is None else statement[sort]
    plan = [row[-1] for row in peek(db_path, f"EXPLAIN QUERY PLAN {sql}", [None] * sql.count("?"))]
    whole = [step for step in plan if step.startswith("SCAN") and "USING" not in step]
    sorted_all = [step for step in plan if "TEMP B-TREE" in step]
    assert (whole, sorted_all) == ([], []), plan
