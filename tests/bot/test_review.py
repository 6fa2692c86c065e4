"""The coach's review (bot/review.py): a finished game replayed, each decision of one seat weighed by hard."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from bot.ai import HardPlayer, NormalPlayer
from bot.ai.players import Player
from bot.engine import Action, Bid, Card, Game, Observation, Options, Play, TrickResult
from bot.review import NOTICEABLE, Moment, Review, RoundReview, decision_seed, review_game

GAME_ID = "c0ffee01"
SHORT = Options(rounds=5)  # rounds of 1 to 5 cards: every kind of decision, and quick to search


def small_hard(seed: int) -> HardPlayer:
    """The review's hard player with a small search, so the tests stay fast; seeded like the review's."""
    return HardPlayer(random.Random(seed), budget=600, min_worlds=4, max_worlds=8, deadline=float("inf"))


class MaxBidder:
    """A person who bids every card they hold (as far as the rules allow) and plays like normal."""

    def __init__(self) -> None:
        self.normal = NormalPlayer(random.Random(0))

    def choose(self, observation: Observation) -> Action:
        bids = [action for action in observation.legal if isinstance(action, Bid)]
        return max(bids, key=lambda bid: bid.tricks) if bids else self.normal.choose(observation)


class LikeHard:
    """A person who makes hard's choice at every decision, searched with the review's seed for it."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def choose(self, observation: Observation) -> Action:
        return small_hard(decision_seed(GAME_ID, len(self.game.log))).choose(observation)


def played(options: Options, seat_zero: Callable[[Game], Player], players: int = 3, seed: int = 8) -> Game:
    """A finished game: seat 0 played by `seat_zero(game)`, the others by the normal level."""
    game = Game(players, seed, options)
    seats = [seat_zero(game)] + [NormalPlayer(random.Random(seat)) for seat in range(1, players)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        game.apply(seats[seat].choose(game.observation(seat)), by=seat)
    return game


def reviewed(game: Game, seat: int = 0) -> Review:
    return review_game(GAME_ID, game.players, game.seed, game.options, list(game.log), seat, hard=small_hard)


@pytest.fixture(scope="module")
def max_bidder() -> tuple[Game, Review]:
    game = played(SHORT, lambda _: MaxBidder())
    return game, reviewed(game)


def test_a_bid_hard_would_not_make_is_a_moment_with_a_positive_stake(max_bidder: tuple[Game, Review]) -> None:
    _, review = max_bidder
    # Bidding every card is far from what the hands are worth from round 3 on.
    overbids = [r for r in review.rounds if r.hard_bid is not None and r.bid - r.hard_bid >= 2]
    assert overbids
    for game_round in overbids:
        [bid] = [m for m in game_round.moments if m.trick == 0]
        assert (bid.theirs, bid.hard) == (Bid(game_round.bid), Bid(game_round.hard_bid or 0))
        assert bid.stake >= NOTICEABLE


def test_each_round_shows_the_seats_bid_tricks_and_points(max_bidder: tuple[Game, Review]) -> None:
    game, review = max_bidder
    assert [(r.round, r.cards, r.bid, r.tricks, r.points) for r in review.rounds] == [
        (place, result.round, result.bids[0], result.tricks[0], result.points[0])
        for place, result in enumerate(game.history, start=1)
    ]


def test_hards_expected_tricks_for_its_bid_lie_within_the_hand(max_bidder: tuple[Game, Review]) -> None:
    _, review = max_bidder
    for game_round in review.rounds:
        assert game_round.expected is not None
        assert 0 <= game_round.expected <= game_round.cards


def test_a_seat_that_makes_hards_choices_has_no_moments() -> None:
    review = reviewed(played(SHORT, LikeHard))
    assert [r.moments for r in review.rounds] == [()] * len(review.rounds)
    assert all(r.hard_bid == r.bid for r in review.rounds)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_review_names_no_card_but_the_reviewers_own(seat: int) -> None:
    game = played(SHORT, lambda _: MaxBidder())
    dealt = {card for number in game.round_numbers for card in dealt_to(game, number, seat)}
    review = reviewed(game, seat)
    named = set(codes_in(review.to_json()))
    assert named
    assert named <= {card.code for card in dealt}


def dealt_to(game: Game, number: int, seat: int) -> list[Card]:
    """The cards `seat` was dealt in round `number` of a finished game (its own plays of that round)."""
    return [card for trick in game_tricks(game, number) for by, card in trick.by_seat() if by == seat]


def game_tricks(game: Game, number: int) -> list[TrickResult]:
    replay = Game(game.players, game.seed, game.options)
    tricks = []
    for by, action in game.log:
        applied = replay.apply(action, by=by)
        if applied.trick is not None and applied.trick.round == number:
            tricks.append(applied.trick)
    return tricks


def codes_in(data: object) -> list[str]:
    """Every card code in a review's JSON: its hands and the cards of its moments."""
    if isinstance(data, dict):
        found = list(data.get("hand", []))
        if "play" in data:
            found.append(data["play"])
        return found + [code for value in data.values() if isinstance(value, dict | list) for code in codes_in(value)]
    if isinstance(data, list):
        return [code for item in data for code in codes_in(item)]
    return []


def test_a_blind_round_is_not_weighed() -> None:
    review = reviewed(played(Options(rounds=2, blind_first_round=True), lambda _: MaxBidder()))
    assert (review.rounds[0].hard_bid, review.rounds[0].expected, review.rounds[0].moments) == (None, None, ())
    assert review.rounds[1].hard_bid is not None


def test_an_unfinished_game_is_not_reviewed() -> None:
    game = played(SHORT, lambda _: MaxBidder())
    with pytest.raises(ValueError, match="not finished"):
        review_game(GAME_ID, 3, game.seed, SHORT, list(game.log)[:-1], 0, hard=small_hard)


def moment(round_: int, trick: int, stake: float) -> Moment:
    return Moment(round_, trick, Play(Card.parse("S2")), Play(Card.parse("S3")), stake)


def review_of(*moments: Moment) -> Review:
    rounds = sorted({m.round for m in moments})
    return Review(
        GAME_ID,
        0,
        tuple(RoundReview(r, 3, (), 1, 1, 30, 1, 1.0, tuple(m for m in moments if m.round == r)) for r in rounds),
    )


@pytest.mark.parametrize(
    ("stakes", "expected"),
    [
        # (round, trick, stake) of each moment, in the order played -> the order of the costliest three
        ([(1, 1, 2.0), (2, 0, 9.0), (2, 3, 4.0), (3, 2, 1.0)], [9.0, 4.0, 2.0]),
        ([(1, 0, 1.0), (1, 2, 7.5)], [7.5, 1.0]),
        ([(2, 1, 3.0), (1, 2, 3.0), (1, 1, 3.0), (3, 1, 5.0)], [5.0, 3.0, 3.0]),
        ([], []),
    ],
    ids=["three of four", "fewer than three", "ties in the order played", "none"],
)
def test_the_costliest_three_come_first(stakes: list[tuple[int, int, float]], expected: list[float]) -> None:
    review = review_of(*(moment(*s) for s in stakes))
    costliest = review.costliest()
    assert [m.stake for m in costliest] == expected
    tied = [(m.round, m.trick) for m in costliest if m.stake == 3.0]
    assert tied == sorted(tied)


def test_a_review_survives_its_json_form(max_bidder: tuple[Game, Review]) -> None:
    _, review = max_bidder
    again = Review.from_json(json.loads(json.dumps(review.to_json())))
    assert again.to_json() == review.to_json()
    assert [m.stake for m in again.costliest()] == [round(m.stake, 2) for m in review.costliest()]


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"version": 0, "game": GAME_ID, "seat": 0, "rounds": []}, "version 0"),
        ({"version": 1, "game": GAME_ID}, "not a review"),
    ],
    ids=["another version", "damaged"],
)
def test_a_stored_review_of_another_form_is_refused(data: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Review.from_json(data)


def test_the_search_seed_depends_on_the_game_and_decision_only() -> None:
    # sha256, not hash(): the same on every run and machine, so a review can be worked out again.
    assert decision_seed("c0ffee01", 0) == 0xDBD0FE0CB4B06F22
    seeds = {decision_seed(game, index) for game in ("a", "b") for index in range(3)}
    assert len(seeds) == 6
