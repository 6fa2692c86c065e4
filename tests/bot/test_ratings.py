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
