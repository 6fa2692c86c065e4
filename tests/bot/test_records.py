"""A game record says what happened, round by round, and replays to the same game."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Card, Game, Options, Suit, rules
from bot.records import game_record


def played(players: int, seed: int, **options: bool) -> Game:
    game = Game(players, seed, Options(**options))
    chooser = random.Random(seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_the_record_replays_to_the_same_scores(players: int, seed: int) -> None:
    game = played(players, seed)
    record = json.loads(json.dumps(game_record(game, [f"p{i}" for i in range(players)], "00ab")))
    replayed = Game.from_json(record["game"])
    assert replayed.scores == game.scores == record["scores"]
    assert record["winners"] == game.winners()


def test_the_record_spells_out_every_round() -> None:
    game = played(4, 7, bids_may_not_add_up=True)
    record = game_record(game, ["a", "b", "c", "d"], "00ab")
    assert [r["round"] for r in record["rounds"]] == list(range(1, 16))
    for entry, result in zip(record["rounds"], game.history, strict=True):
        assert entry["bids"] == list(result.bids)
        assert entry["points"] == list(result.points)
        assert entry["totals"] == list(result.totals)
        assert len(entry["tricks"]) == entry["round"]
        trump = None if entry["trump"] is None else Suit(entry["trump"])
        for trick in entry["tricks"]:
            cards = [Card.parse(code) for code in trick["cards"]]
            # The recorded winner is the one the rules pick, from the recorded trump.
            assert trick["winner"] == (trick["leader"] + rules.trick_winner(cards, trump)) % 4
        wins = [sum(1 for trick in entry["tricks"] if trick["winner"] == seat) for seat in range(4)]
        assert wins == entry["tricks_won"]
    assert record["rounds"][-1]["turned_up"] is None  # the last round deals the whole deck
    assert record["rounds"][-1]["trump"] is None
