"""The yardstick of `python -m bot.simulate`: the rule-of-thumb player plays as its description says."""

from __future__ import annotations

import random

import pytest

from bot.engine import Bid, Game, Options, Play
from bot.simulate.baseline import BaselinePlayer

from .support import cards, play_game, situation


@pytest.mark.parametrize(("players", "seed", "variant"), [(3, 1, True), (4, 2, False), (6, 3, True)])
def test_it_plays_whole_games_legally(players: int, seed: int, variant: bool) -> None:
    game = Game(players, seed, Options(bids_may_not_add_up=variant))
    play_game(game, [BaselinePlayer(random.Random(seat)) for seat in range(players)])


@pytest.mark.parametrize(
    ("hand", "bid"),
    [
        ("W1 H6 H13 S13", 3),  # a Wizard and two trumps of 6 or more; a plain 13 does not count
        ("H5 H2 S13 C13", 0),  # low trumps do not count
        ("W1 W2 J1 D12", 2),
    ],
)
def test_it_bids_its_wizards_and_high_trumps(hand: str, bid: int) -> None:
    others = ["D1 D2 D3 C1", "S5 S6 S7 S8", "C3 C4 C5 C6"]
    game = situation([hand, *others], "H1", dealer=3)
    assert BaselinePlayer(random.Random(0)).choose(game.observation(0)) == Bid(bid)


@pytest.mark.parametrize(
    ("bids", "card"),
    [
        ([1, 1, 0, 1], "S12"),  # needs a trick: the cheapest card that wins
        ([1, 0, 0, 1], "S9"),  # has its bid: the highest card that loses
    ],
)
def test_it_wins_cheaply_when_it_needs_tricks_and_else_plays_its_highest_loser(bids: list[int], card: str) -> None:
    hands = ["S10 C6 D1 D2", "S13 S12 S9 S8", "S7 D8 H2 H3", "C3 C4 S5 C5"]
    game = situation(hands, "H1", dealer=3, bids=bids, plays="S10")
    assert BaselinePlayer(random.Random(0)).choose(game.observation(1)) == Play(cards(card).pop())
