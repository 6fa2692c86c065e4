"""Skill ratings from finishing orders, with openskill's Bradley-Terry model in its full-pairing form.

A game of n players is rated as every pair of them playing a match: the one placed higher won it,
and two who share a place drew. So a tie treats the tied players alike, and from equal ratings
nobody placed behind another gains more than they do (tests/bot/test_ratings.py proves it over
random finishing orders). openskill's Plackett-Luce model, used before, does not: its update for
tied ranks is wrong (openskill.py issue #155), and in the game of scores [120, 160, 150, 70, 120,
80] it rated the fifth-placed player above the two tied in third place. Migration 0005 recomputed
the stored ratings with this model (`replay`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import BradleyTerryFull

Rating = tuple[float, float]  # (mu, sigma)


def rate(previous: Mapping[int, Rating], players: Sequence[int], places: Sequence[int]) -> dict[int, Rating]:
    """New (mu, sigma) for each player after a game; `places` are 1 for the winner, equal on a tie.

    Players without a rating start from the model's default.
    """
    model = _model()
    teams = [[model.rating(*previous[user]) if user in previous else model.rating()] for user in players]
    rated = model.rate(teams, ranks=list(places))
    return {user: (team[0].mu, team[0].sigma) for user, team in zip(players, rated, strict=True)}


@functools.cache
def _model() -> BradleyTerryFull:
    # Imported when the first game is rated, not at start-up: openskill is a tenth of the time it
    # takes to import the bot, and a restarted bot should take clicks as soon as it can.
    from openskill.models import BradleyTerryFull

    return BradleyTerryFull()


def shown(rating: Rating) -> float:
    """The figure a rating is shown and ranked by: the cautious mu - 3 sigma."""
    mu, sigma = rating
    return mu - 3 * sigma


def replay(games: Iterable[tuple[Sequence[int], Sequence[int]]]) -> dict[int, Rating]:
    """Everyone's rating after `games` ((players, places) each, in the order they were played)."""
    current: dict[int, Rating] = {}
    for players, places in games:
        current.update(rate(current, players, places))
    return current
