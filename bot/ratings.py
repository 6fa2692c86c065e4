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


# How much of a player's rating a new season keeps: each season starts halfway between where the
# player's last season left them and a newcomer (see `carried_over`).
CARRY_OVER = 0.5


def newcomer() -> Rating:
    """The rating of a player who was never rated: openskill's default (mu 25, sigma 25/3)."""
    fresh = _model().rating()
    return (fresh.mu, fresh.sigma)


def carried_over(last: Rating) -> Rating:
    """A player's rating at the start of a season, from their rating at the end of their last one.

    The soft carry-over: mu goes halfway back to a newcomer's 25, and sigma halfway back up to a
    newcomer's 25/3. A strong player starts ahead of a newcomer but not out of reach, and, as the
    rating is less certain again, the first games of the season move it more. From (35, 2), shown
    as 29: (30, 5.17), shown as 14.5; a newcomer is shown as 0.
    """
    mu0, sigma0 = newcomer()
    mu, sigma = last
    return (mu0 + CARRY_OVER * (mu - mu0), sigma + (1 - CARRY_OVER) * (sigma0 - sigma))


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
