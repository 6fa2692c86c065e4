"""Skill ratings with openskill's Plackett-Luce model, which rates multiplayer games by finishing order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

Rating = tuple[float, float]  # (mu, sigma)


def rate(previous: Mapping[int, Rating], players: Sequence[int], places: Sequence[int]) -> dict[int, Rating]:
    """New (mu, sigma) for each player after a game; `places` are 1 for the winner, equal on a tie.

    Players without a rating start from the model's default.
    """
    teams = [[_MODEL.rating(*previous[user]) if user in previous else _MODEL.rating()] for user in players]
    rated = _MODEL.rate(teams, ranks=list(places))
    return {user: (team[0].mu, team[0].sigma) for user, team in zip(players, rated, strict=True)}
