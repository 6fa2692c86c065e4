"""The hard level's search: the worlds it samples, its rollout simulator, its budget and deadline."""

from __future__ import annotations

import random

import pytest

from bot.ai import HardPlayer
from bot.ai.knowledge import knowledge
from bot.ai.players import bid_likelihood
from bot.ai.policy import void_mask
from bot.ai.sampling import deal_unseen
from bot.ai.table import Table
from bot.engine import DECK, Card, Game, Observation, Options, Play, Suit

from .support import situation


def random_positions(count: int) -> list[Observation]:
    """Observations of the player to move, at random moments of random games with random play."""
    rng = random.Random(5)
    found = []
    while len(found) < count:
        players = rng.randrange(3, 7)
        game = Game(players, rng.randrange(10**6), start_round=rng.randrange(1, 60 // players + 1))
        for _ in range(rng.randrange(1, 60)):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            found.append(game.observation(game.to_move or 0))
    return found


def check_world(observation: Observation, hands: list[list]) -> None:
    facts = knowledge(observation)
    seat = observation.seat
    assert hands[seat] == list(observation.hand)
    assert [len(hand) for hand in hands] == list(observation.hand_sizes)
    dealt = [card for hand in hands for card in hand]
    assert len(dealt) == len(set(dealt))
    played = {card for cards in facts.played for card in cards}
    assert not played & set(dealt)
    assert observation.turned_up not in dealt
    for other, hand in enumerate(hands):
        if other != seat:
            assert set(hand) <= set(facts.unseen)
            assert all(card.suit not in facts.voids[other] for card in hand if card.suit is not None)


def test_sampled_worlds_are_consistent_with_the_observation() -> None:
    for observation in random_positions(60):
        player = HardPlayer(random.Random(1))
        facts = knowledge(observation)
        for _ in range(5):
            for hands, _ in player.sample_deals(observation, facts):
                check_world(observation, hands)


def test_knowledge_reads_voids_and_cards_gone() -> None:
    # Spades are led; seat 1 throws a club (void in spades), seat 2 a Jester (shows nothing).
    game = situation(
        ["S10 C6 D1", "C2 D4 H5", "J1 S8 D8", "C3 C4 S5"], "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10 C2 J1"
    )
    observation = game.observation(3)
    facts = knowledge(observation)
    assert facts.voids[1] == {Suit.SPADES}
    assert not facts.voids[2]
    assert not facts.voids[0]
    gone = {card for card in DECK if facts.gone[card.index]}
    assert {card.code for card in gone} == {"S10", "C2", "J1", "H1"}
    assert len(facts.unseen) == 60 - 4 - 3


def test_tight_voids_are_dealt_consistently() -> None:
    # Seat 1 holds only Wizards and Jesters as far as anyone can tell: void in every suit.
    unseen = [card for card in DECK if card.code in {"W1", "W2", "J1", "S1", "S2", "H3", "D4", "C5"}]
    masks = [0, void_mask(set(Suit)), 0]
    for seed in range(50):
        hands = deal_unseen(random.Random(seed), unseen, [0, 3, 4], masks, 0)
        assert all(card.suit is None for card in hands[1])
        assert len(hands[1]) == 3
        assert len(hands[2]) == 4
    with pytest.raises(ValueError, match="voids"):
        deal_unseen(random.Random(0), unseen, [0, 5, 3], masks, 0)


def test_the_rollout_table_agrees_with_the_engine() -> None:
    rng = random.Random(8)
    for number in range(40):
        players = 3 + number % 4
        game = Game(players, number, start_round=1 + number % (60 // players))
        while game.phase.value != "play":
            game.apply(rng.choice(game.legal_actions()))
        gone = bytearray(60)
        if game.turned_up is not None:
            gone[game.turned_up.index] = 1
        table = Table(
            [list(h) for h in game.hands],
            game.trump,
            [b or 0 for b in game.bids],
            [0] * players,
            game.trick_leader,
            [],
            gone,
            [0] * players,
        )
        start = game.round
        while game.round == start and not game.is_over:
            assert table.to_move == game.to_move
            assert set(table.legal()) == set(game.playable_cards())
            card = table.policy_card() if number % 2 else rng.choice(table.legal())
            game.apply(Play(card))
            table.play(card)
            if game.round == start and not game.is_over:
                assert table.won == game.tricks_won
                assert table.voids == [void_mask(v) for v in knowledge(game.observation(0)).voids]
        assert table.finished
        assert sum(table.won) == start
        assert table.points() == list(game.history[-1].points)


class FakeClock:
    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.calls = 0

    def __call__(self) -> float:
        self.now += self.step
        self.calls += 1
        return self.now


def test_the_deadline_stops_the_search_after_one_world() -> None:
    game = Game(4, 9, start_round=10)
    seat = game.to_move or 0
    observation = game.observation(seat)
    clock = FakeClock(step=10.0)
    player = HardPlayer(random.Random(0), budget=10**6, max_worlds=1000, clock=clock)
    assert player.choose(observation) in observation.legal
    assert clock.calls <= 3  # the start, then one check that stops it


def test_the_budget_caps_the_worlds() -> None:
    player = HardPlayer(random.Random(0), budget=1000, min_worlds=3, max_worlds=50, infer=False)
    assert player._worlds(5, 40) == 5
    assert player._worlds(50, 40) == 3
    assert player._worlds(1, 1) == 50


def test_a_world_of_inferred_deals_costs_each_deal_played_out() -> None:
    # Three deals, five candidates of 40 plays each, and 50 plays to draw them: 650 a world.
    player = HardPlayer(random.Random(0), budget=10_000, min_worlds=1, max_worlds=50, attempts=3)
    assert player._worlds(5, 40) == 15
    # At least eight deals: three worlds.
    assert HardPlayer(random.Random(0), budget=100, min_worlds=8, attempts=3)._worlds(5, 40) == 3


def test_a_world_is_its_deals_each_weighed_by_how_well_it_explains_the_bids() -> None:
    game = situation(["W2 W3 W4", "S2 S3 S4", "C2 C3 C4", "W1 D5 D6"], "H9", dealer=3, bids=[3, 0, 0])
    observation = game.observation(3)
    facts = knowledge(observation)
    player = HardPlayer(random.Random(2))
    for _ in range(20):
        deals = player.sample_deals(observation, facts)
        assert len(deals) == player.attempts
        for hands, weight in deals:
            check_world(observation, hands)
            assert weight == bid_likelihood(observation, facts, hands)
    assert HardPlayer(random.Random(2), infer=False).sample_deals(observation, facts)[0][1] == 1.0


def test_hard_search_is_deterministic_for_a_seed_mid_round() -> None:
    game = Game(5, 17, Options(), start_round=8)
    rng = random.Random(3)
    while game.phase.value != "play" or len(game.legal_actions()) < 3:
        game.apply(rng.choice(game.legal_actions()))
    observation = game.observation(game.to_move or 0)
    choices = {HardPlayer(random.Random(42), budget=4000).choose(observation) for _ in range(3)}
    assert len(choices) == 1


def test_worlds_that_explain_the_bids_weigh_more() -> None:
    # Seat 0 bid 3 of 3: a world giving it the three Wizards left explains that better than one
    # giving it three low cards.
    game = situation(["W2 W3 W4", "S2 S3 S4", "C2 C3 C4", "W1 D5 D6"], "H9", dealer=3, bids=[3, 0, 0])
    observation = game.observation(3)
    facts = knowledge(observation)
    strong = [list(map(Card.parse, hand.split())) for hand in ["W2 W3 W4", "S2 S3 S4", "C2 C3 C4", "W1 D5 D6"]]
    weak = [list(map(Card.parse, hand.split())) for hand in ["S2 S3 S4", "W2 W3 W4", "C2 C3 C4", "W1 D5 D6"]]
    assert bid_likelihood(observation, facts, strong) > 0.5
    assert bid_likelihood(observation, facts, weak) < 0.01
