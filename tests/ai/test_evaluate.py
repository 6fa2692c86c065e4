"""`HardPlayer.evaluate`: the hard player's search as values, the same search its moves come from."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from bot.ai import HardPlayer
from bot.ai.knowledge import Hint, Knowledge, knowledge
from bot.ai.players import Evaluation, normal_bid
from bot.engine import Bid, Card, Game, Kind, Observation, Options, Phase, Play

SEEDS = range(6)


def small_hard(seed: int) -> HardPlayer:
    """A hard player with a small search, so the tests stay fast; no wall-clock stop, so a seed fixes it."""
    return HardPlayer(random.Random(seed), budget=600, min_worlds=4, max_worlds=8, deadline=float("inf"))


def first(seed: int, wanted: Callable[[Game, Observation], bool]) -> Observation:
    """The first observation of the seat to move that is `wanted`, in a game of random moves."""
    game = Game(4, seed, Options())
    rng = random.Random(seed)
    while True:
        seat = game.to_move
        assert seat is not None
        observation = game.observation(seat)
        if wanted(game, observation):
            return observation
        game.apply(rng.choice(observation.legal), by=seat)


def decision(seed: int, phase: Phase) -> Observation:
    """An observation of the seat to move, with a choice to make, at the first `phase` of round 4 or later."""
    return first(seed, lambda game, observation: game.round >= 4 and game.phase is phase and len(observation.legal) > 2)


@pytest.mark.parametrize("phase", [Phase.BID, Phase.PLAY])
@pytest.mark.parametrize("seed", SEEDS)
def test_evaluate_takes_the_action_choose_takes(seed: int, phase: Phase) -> None:
    observation = decision(seed, phase)
    assert small_hard(seed).evaluate(observation).choice == small_hard(seed).choose(observation)


@pytest.mark.parametrize("phase", [Phase.BID, Phase.PLAY])
@pytest.mark.parametrize("seed", SEEDS)
def test_weighing_other_actions_too_leaves_the_choice_as_it_is(seed: int, phase: Phase) -> None:
    observation = decision(seed, phase)
    alone = small_hard(seed).evaluate(observation)
    with_all = small_hard(seed).evaluate(observation, also=observation.legal)
    assert with_all.choice == alone.choice
    assert set(with_all.values) >= set(observation.legal)


def narrowed(seed: int) -> Observation:
    """A card play where hard's search weighs some of the legal cards, not all (the others are blunders)."""

    def wanted(game: Game, observation: Observation) -> bool:
        if game.phase is not Phase.PLAY or len(observation.legal) <= 2:
            return False
        own = len(small_hard(seed).evaluate(observation).values)
        return 1 < own < len(small_hard(seed).evaluate(observation, also=observation.legal).values)

    return first(seed, wanted)


class Counted(HardPlayer):
    """A hard player that keeps the worlds it draws."""

    def __init__(self, seed: int) -> None:
        # A wide range of worlds, so that the budget alone decides how many it draws.
        super().__init__(random.Random(seed), budget=3200, min_worlds=1, max_worlds=400, deadline=float("inf"))
        self.drawn: list[list[list[Card]]] = []

    def sample_deals(
        self, observation: Observation, facts: Knowledge, hints: Sequence[Hint] = ()
    ) -> list[tuple[list[list[Card]], float]]:
        deals = super().sample_deals(observation, facts, hints)
        self.drawn.extend(hands for hands, _ in deals)
        return deals


class Scripted(HardPlayer):
    """A hard player whose worlds are given: world k is `worlds[k]`, deals with their weights."""

    def __init__(self, worlds: list[list[tuple[list[list[Card]], float]]]) -> None:
        super().__init__(random.Random(0), budget=10**9, min_worlds=1, max_worlds=len(worlds), deadline=float("inf"))
        self.worlds = iter(worlds)

    def sample_deals(
        self, observation: Observation, facts: Knowledge, hints: Sequence[Hint] = ()
    ) -> list[tuple[list[list[Card]], float]]:
        return next(self.worlds)


@pytest.mark.parametrize("phase", [Phase.BID, Phase.PLAY])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_deal_counts_by_its_weight_against_every_deal_of_the_decision(seed: int, phase: Phase) -> None:
    # A deal's weight is not a share of its own world: a world whose one deal the bids rule out
    # (weight 0) moves nothing, and a deal weighing three times another counts three times.
    observation = decision(seed, phase)
    deals = small_hard(seed).sample_deals(observation, knowledge(observation))
    one, other = deals[0][0], deals[1][0]
    also = observation.legal
    alone = Scripted([[(one, 1.0)], [(one, 1.0)]]).evaluate(observation, also)
    assert Scripted([[(one, 1.0)], [(other, 0.0)]]).evaluate(observation, also).values == alone.values
    apart = Scripted([[(other, 1.0)]]).evaluate(observation, also)
    mixed = Scripted([[(one, 3.0)], [(other, 1.0)]]).evaluate(observation, also)
    for action, value in mixed.values.items():
        assert value == pytest.approx((3 * alone.values[action] + apart.values[action]) / 4)


@pytest.mark.parametrize("seed", SEEDS)
def test_weighing_other_cards_too_draws_the_same_worlds(seed: int) -> None:
    # The worlds are as many as hard's own candidates afford, whatever else is weighed on them.
    observation = narrowed(seed)
    alone, with_all = Counted(seed), Counted(seed)
    alone.evaluate(observation)
    with_all.evaluate(observation, also=observation.legal)
    assert with_all.drawn == alone.drawn


@pytest.mark.parametrize("phase", [Phase.BID, Phase.PLAY])
@pytest.mark.parametrize("seed", SEEDS)
def test_the_choice_has_the_best_value_of_the_actions_the_search_weighs(seed: int, phase: Phase) -> None:
    evaluation = small_hard(seed).evaluate(decision(seed, phase))
    # Nothing is weighed when every sensible card plays alike (the values are then empty).
    assert not evaluation.values or evaluation.values[evaluation.choice] == max(evaluation.values.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_expected_tricks_of_a_bid_lie_between_none_and_every_card(seed: int) -> None:
    observation = decision(seed, Phase.BID)
    evaluation = small_hard(seed).evaluate(observation, also=observation.legal)
    assert all(0 <= evaluation.tricks[bid] <= observation.round for bid in observation.legal)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_seed_evaluates_the_same(seed: int) -> None:
    observation = decision(seed, Phase.PLAY)
    first: Evaluation = small_hard(seed).evaluate(observation, also=observation.legal)
    assert small_hard(seed).evaluate(observation, also=observation.legal) == first


def test_a_trump_choice_is_not_evaluated() -> None:
    # Seed 0 turns up a Wizard within the first rounds: the dealer names trump.
    game = Game(4, 0, Options())
    rng = random.Random(0)
    while game.phase is not Phase.CHOOSE_TRUMP:
        game.apply(rng.choice(game.legal_actions()))
    assert game.to_move is not None
    with pytest.raises(ValueError, match="bids and card plays"):
        small_hard(0).evaluate(game.observation(game.to_move))


@pytest.mark.parametrize("seed", SEEDS)
def test_cards_that_play_alike_are_worth_the_same(seed: int) -> None:
    observation = decision(seed, Phase.PLAY)
    evaluation = small_hard(seed).evaluate(observation, also=observation.legal)
    plays = [action for action in observation.legal if isinstance(action, Play)]
    wizards = [play for play in plays if play.card.kind is Kind.WIZARD]
    jesters = [play for play in plays if play.card.kind is Kind.JESTER]
    for alike in (wizards, jesters):
        assert len({evaluation.values[play] for play in alike}) <= 1


def test_bids_are_keyed_as_bids_and_cards_as_plays() -> None:
    bid = small_hard(0).evaluate(decision(0, Phase.BID))
    play = small_hard(0).evaluate(decision(0, Phase.PLAY))
    assert all(isinstance(action, Bid) for action in bid.values)
    assert all(isinstance(action, Play) for action in play.values)


@pytest.mark.parametrize("seed", SEEDS)
def test_in_a_long_round_hard_bids_the_normal_bid_and_still_weighs_what_it_is_asked(seed: int) -> None:
    # Four players and 9 cards each: a round of 36 card plays, where the rollouts misjudge bids.
    observation = first(seed, lambda game, o: game.round >= 9 and game.phase is Phase.BID and len(o.legal) > 2)
    normal = Bid(normal_bid(observation))
    assert small_hard(seed).choose(observation) == normal
    weighed = small_hard(seed).evaluate(observation, also=observation.legal)
    assert weighed.choice == normal
    assert set(weighed.values) == set(observation.legal)
