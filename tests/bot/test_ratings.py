"""Ratings follow the finishing order, ties included: nobody placed behind another gains more."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import ratings
from bot.manager import placings

ISSUE_SCORES = [120, 160, 150, 70, 120, 80]  # issue 18: the fifth-placed player was ranked third


def ranks(values: Sequence[float]) -> list[int]:
    """Competition ranks of ratings (1 for the highest, equal ones share), as the leaderboard ranks them.

    Rounded to nine places: two players rated alike must not be told apart by the last bit of a float.
    """
    rounded = [round(value, 9) for value in values]
    return [1 + sum(1 for other in rounded if other > value) for value in rounded]


def shown_after(scores: Sequence[int], start: ratings.Rating | None = None) -> list[float]:
    """Each seat's shown rating after one game from the same rating (the default when `start` is None)."""
    players = list(range(len(scores)))
    previous = {} if start is None else dict.fromkeys(players, start)
    new = ratings.rate(previous, players, placings(list(scores)))
    return [ratings.shown(new[player]) for player in players]


def test_the_issue_game_ranks_everyone_by_their_place() -> None:
    assert ranks(shown_after(ISSUE_SCORES)) == placings(ISSUE_SCORES) == [3, 1, 2, 6, 3, 5]


@settings(max_examples=300, deadline=None)
@given(
    # Few distinct scores, so ties are common, as they are in Wizard.
    scores=st.lists(st.sampled_from([-40, 0, 30, 60, 90]), min_size=2, max_size=6),
    start=st.one_of(
        st.none(), st.tuples(st.floats(min_value=0, max_value=50), st.floats(min_value=0.5, max_value=25 / 3))
    ),
)
def test_from_equal_ratings_the_new_ratings_rank_as_the_places(scores: list[int], start: ratings.Rating | None) -> None:
    # Higher place, higher rating; a shared place, the same rating: the order of the game is kept.
    assert ranks(shown_after(scores, start)) == placings(scores)


def test_replaying_games_rates_them_one_after_another() -> None:
    first = ratings.rate({}, [1, 2, 3], [1, 2, 2])
    second = ratings.rate(first, [3, 1, 4], [1, 3, 2])

    assert ratings.replay([([1, 2, 3], [1, 2, 2]), ([3, 1, 4], [1, 3, 2])]) == {**first, **second}


# -- a new season's soft carry-over ---------------------------------------------------------


def test_a_newcomer_carries_over_as_a_newcomer() -> None:
    assert ratings.carried_over(ratings.newcomer()) == ratings.newcomer()


def test_the_carry_over_goes_halfway_back_to_a_newcomer() -> None:
    mu, sigma = ratings.carried_over((35.0, 2.0))
    assert (mu, sigma) == (30.0, 2.0 + (25 / 3 - 2.0) / 2)
    assert ratings.shown((mu, sigma)) == 14.5


@settings(max_examples=200, deadline=None)
@given(mu=st.floats(0, 60), sigma=st.floats(0.5, 25 / 3), other_mu=st.floats(0, 60), other_sigma=st.floats(0.5, 25 / 3))
def test_the_carry_over_keeps_the_order_of_the_means_and_makes_no_rating_surer(
    mu: float, sigma: float, other_mu: float, other_sigma: float
) -> None:
    new_mu, new_sigma = ratings.carried_over((mu, sigma))
    other_new_mu, _ = ratings.carried_over((other_mu, other_sigma))
    # The order of two means is kept (the same or, for means a rounding error apart, equal).
    assert new_mu <= other_new_mu if mu <= other_mu else new_mu >= other_new_mu
    assert abs(new_mu - 25) <= abs(mu - 25)
    assert sigma <= new_sigma <= 25 / 3 + 1e-9
