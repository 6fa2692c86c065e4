"""The coach's reviews in storage: kept per game and seat, worked out once, for the people who played.

Backend-neutral: tests/postgres/test_reviews.py runs these against PostgreSQL too.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

import bot.review
from bot.engine import Options
from bot.manager import GameManager, GameRefused, Refusal, Table
from bot.review import REVIEW_VERSION, Review
from bot.storage import Repository
from tests.manager.support import GUILD, PEOPLE, STRANGER, start_with, step

from .support import Site, final_seat, running_game

OTHER_GUILD = 2
ANN, BO, CY = 101, 102, 103
SHORT = Options(rounds=2)  # two rounds: a whole game in a few moves, quick to review


def review_json(game_id: str, seat: int, stake: float = 1.5) -> dict[str, Any]:
    """A review as version 1 of the coach stored it: the repository keeps any form as it is."""
    return {
        "version": 1,
        "game": game_id,
        "seat": seat,
        "rounds": [
            {
                "round": 1,
                "cards": 1,
                "hand": ["H13"],
                "bid": 1,
                "tricks": 0,
                "points": -10,
                "hard_bid": 0,
                "expected": 0.25,
                "moments": [{"trick": 0, "theirs": {"bid": 1}, "hard": {"bid": 0}, "stake": stake}],
            }
        ],
    }


async def finished(repository: Repository, game_id: str, user_ids: list[int], guild: int = GUILD) -> None:
    await running_game(repository, game_id, user_ids, guild)
    seats = [final_seat(seat, user, [(1, 0, 0, 20)]) for seat, user in enumerate(user_ids)]
    await repository.record_finished(game_id, guild, seats, None)


# -- the repository -------------------------------------------------------------------------


async def test_a_review_is_kept_per_game_and_seat(repository: Repository) -> None:
    await finished(repository, "g1", [ANN, BO, CY])
    await finished(repository, "g2", [ANN, BO, CY])
    for game_id, seat in [("g1", 0), ("g1", 1), ("g2", 0)]:
        await repository.save_review(game_id, seat, review_json(game_id, seat))
    assert await repository.review("g1", 1) == review_json("g1", 1)
    assert await repository.review("g2", 0) == review_json("g2", 0)
    assert await repository.review("g2", 1) is None


async def test_saving_a_review_again_replaces_it(repository: Repository) -> None:
    await finished(repository, "g1", [ANN, BO, CY])
    await repository.save_review("g1", 0, review_json("g1", 0, stake=1.0))
    await repository.save_review("g1", 0, review_json("g1", 0, stake=2.0))
    assert await repository.review("g1", 0) == review_json("g1", 0, stake=2.0)


async def test_a_review_belongs_to_a_stored_game(repository: Repository, integrity_error: type[Exception]) -> None:
    with pytest.raises(integrity_error):
        await repository.save_review("nosuchgame", 0, review_json("nosuchgame", 0))


async def finish_three(repository: Repository) -> None:
    """Ann finishes g1 then g2 on the server and g3 on another; g4 (later) is still running, g5 stopped."""
    await finished(repository, "g1", [ANN, BO, CY])
    await finished(repository, "g2", [BO, ANN, CY])
    await finished(repository, "g3", [ANN, BO, CY], guild=OTHER_GUILD)
    await running_game(repository, "g4", [ANN, BO, CY])
    await running_game(repository, "g5", [CY, ANN, BO])
    await repository.stop_game("g5")


@pytest.mark.parametrize(
    ("guild", "user", "expected"),
    [
        (GUILD, ANN, "g2"),
        (OTHER_GUILD, ANN, "g3"),
        (GUILD, CY, "g2"),
        (OTHER_GUILD, STRANGER, None),
        (3, ANN, None),
    ],
    ids=["the later of two", "on another server", "in another seat", "never played", "a server without games"],
)
async def test_the_last_finished_game_of_a_person_on_a_server(
    repository: Repository, guild: int, user: int, expected: str | None
) -> None:
    await finish_three(repository)
    assert await repository.last_finished_game(guild, user) == expected


# -- through the manager --------------------------------------------------------------------


async def play_out(manager: GameManager, count: int = 3) -> Table:
    """A short game of the first `count` people, played to the end by random legal moves."""
    table = await start_with(manager, count, options=SHORT)
    rng = random.Random(4)
    while not table.game.is_over:
        await step(manager, table, rng)
    return table


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The reviews worked out (game, seat), by the real computation."""
    worked: list[tuple[str, int]] = []
    real = bot.review.review_game

    def counting(game_id: str, *args: Any, **kwargs: Any) -> Review:
        worked.append((game_id, args[-1]))
        return real(game_id, *args, **kwargs)

    monkeypatch.setattr(bot.review, "review_game", counting)
    return worked


async def test_a_person_reviews_their_last_finished_game(site: Site) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    review = await boot.manager.review(PEOPLE[1].user_id, GUILD)
    assert (review.game_id, review.seat) == (table.id, 1)
    assert len(review.rounds) == 2
    assert await boot.repository.review(table.id, 1) == review.to_json()


async def test_a_review_is_worked_out_once_and_then_read(site: Site, counted: list[tuple[str, int]]) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    person = PEOPLE[0].user_id
    # Two clicks at once wait for the same work; a later one, after a restart, reads what was stored.
    first, second = await asyncio.gather(
        boot.manager.review(person, GUILD, table.id), boot.manager.review(person, GUILD, table.id)
    )
    later = await site.restart(boot)
    third = await later.manager.review(person, GUILD)
    assert counted == [(table.id, 0)]
    assert first.to_json() == second.to_json() == third.to_json()
    # The first answer is the stored form too (its figures rounded as stored), or it could show
    # an expected "0.2 tricks" that every later opening shows as "0.1".
    assert first == third


@pytest.mark.parametrize(
    "older",
    [lambda game_id: review_json(game_id, 0), lambda game_id: {"version": 0}],
    ids=["version 1", "damaged"],
)
async def test_a_stored_review_of_another_form_is_worked_out_again(
    site: Site, counted: list[tuple[str, int]], older: Callable[[str], dict[str, Any]]
) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    await boot.repository.save_review(table.id, 0, older(table.id))
    assert await boot.manager.stored_review(PEOPLE[0].user_id, table.id) is None
    review = await boot.manager.review(PEOPLE[0].user_id, GUILD, table.id)
    assert counted == [(table.id, 0)]
    assert await boot.repository.review(table.id, 0) == review.to_json()
    assert review.to_json()["version"] == REVIEW_VERSION


async def test_a_later_seats_review_reuses_the_hands_the_first_valued(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    given: list[int] = []
    real = bot.review.review_game

    def watching(*args: Any, valued: dict[tuple[int, int], float] | None = None, **kwargs: Any) -> Review:
        given.append(len(valued or {}))
        return real(*args, valued=valued, **kwargs)

    monkeypatch.setattr(bot.review, "review_game", watching)
    first = await boot.manager.review(PEOPLE[0].user_id, GUILD, table.id)
    second = await boot.manager.review(PEOPLE[1].user_id, GUILD, table.id)
    # The first values every hand of the game; the second is given them all.
    assert given == [0, len(first.rounds) * len(first.totals)]
    assert [r["worth"] for r in second.to_json()["rounds"]] == [r["worth"] for r in first.to_json()["rounds"]]


async def test_a_stored_review_opens_without_working_it_out(site: Site, counted: list[tuple[str, int]]) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    person = PEOPLE[2].user_id
    assert await boot.manager.stored_review(person, table.id) is None  # not asked for yet
    review = await boot.manager.review(person, GUILD, table.id)
    stored = await boot.manager.stored_review(person, table.id)
    assert stored is not None
    assert stored.to_json() == review.to_json()
    assert counted == [(table.id, 2)]


async def test_a_stored_review_is_only_for_its_player(site: Site) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    await boot.manager.review(PEOPLE[0].user_id, GUILD, table.id)
    with pytest.raises(GameRefused) as refused:
        await boot.manager.stored_review(STRANGER, table.id)
    assert refused.value.refusal is Refusal.NOT_A_PLAYER


Ask = Callable[[GameManager, Table], Any]


@pytest.mark.parametrize(
    ("ask", "refusal"),
    [
        (lambda manager, table: manager.review(STRANGER, GUILD, table.id), Refusal.NOT_A_PLAYER),
        (lambda manager, table: manager.review(STRANGER, GUILD), Refusal.NO_FINISHED_GAME),
        (lambda manager, table: manager.review(PEOPLE[0].user_id, OTHER_GUILD), Refusal.NO_FINISHED_GAME),
        (lambda manager, table: manager.review(PEOPLE[0].user_id, GUILD, "0badbad0"), Refusal.RECORD_GONE),
    ],
    ids=["not in the game", "no game at all", "none on this server", "no such game (its rows gone)"],
)
async def test_a_review_is_refused_with_the_reason(site: Site, ask: Ask, refusal: Refusal) -> None:
    boot = await site.boot()
    table = await play_out(boot.manager)
    with pytest.raises(GameRefused) as refused:
        await ask(boot.manager, table)
    assert refused.value.refusal is refusal


async def test_a_game_still_running_has_no_review(site: Site) -> None:
    boot = await site.boot()
    table = await start_with(boot.manager, 3, options=SHORT)
    with pytest.raises(GameRefused) as refused:
        await boot.manager.review(PEOPLE[0].user_id, GUILD, table.id)
    assert refused.value.refusal is Refusal.REVIEW_MISSING
