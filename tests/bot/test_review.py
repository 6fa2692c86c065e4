"""The coach's review (bot/review.py): a finished game replayed, each decision of one seat weighed by hard."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from bot.ai import HardPlayer, NormalPlayer
from bot.ai.players import Player
from bot.engine import Action, Bid, Card, Game, Kind, Observation, Options, Play, Suit, TrickResult
from bot.review import NOTICEABLE, REVIEW_VERSION, Moment, Review, RoundReview, decision_seed, review_game

GAME_ID = "c0ffee01"
SHORT = Options(rounds=5)  # rounds of 1 to 5 cards: every kind of decision, and quick to search


def small_hard(seed: int) -> HardPlayer:
    """The review's hard player with a small search, so the tests stay fast; seeded and counting
    points like the review's (`bot.review.hard_player`)."""
    return HardPlayer(random.Random(seed), budget=600, min_worlds=4, max_worlds=8, deadline=float("inf"), spite=0.0)


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


def test_each_moment_says_the_tricks_expected_after_both_choices(max_bidder: tuple[Game, Review]) -> None:
    _, review = max_bidder
    moments = [(r, m) for r in review.rounds for m in r.moments]
    assert moments
    for game_round, moment in moments:
        # Tricks at the round's end: at least none, at most every trick of the round.
        for expected in (moment.theirs_tricks, moment.hard_tricks):
            assert 0 <= expected <= game_round.cards


def test_a_card_moment_says_whether_the_card_took_its_trick(max_bidder: tuple[Game, Review]) -> None:
    game, review = max_bidder
    plays = [m for r in review.rounds for m in r.moments if m.trick]
    assert plays
    tricks = {
        (place, trick.number): trick
        for place, number in enumerate(game.round_numbers, 1)
        for trick in game_tricks(game, number)
    }
    for moment in plays:
        trick = tricks[moment.round, moment.trick]
        assert isinstance(moment.theirs, Play)
        assert (0, moment.theirs.card) in trick.by_seat()
        assert moment.took == (trick.winner == 0)
    assert all(m.took is None for r in review.rounds for m in r.moments if not m.trick)


def test_each_round_keeps_its_trump(max_bidder: tuple[Game, Review]) -> None:
    game, review = max_bidder
    replay = Game(game.players, game.seed, game.options)
    trumps: dict[int, Suit | None] = {}
    for by, action in game.log:
        if isinstance(action, Play):
            trumps[replay.round_position] = replay.trump
        replay.apply(action, by=by)
    assert [r.trump for r in review.rounds] == [trumps[r.round] for r in review.rounds]


def test_every_seats_hand_is_valued_in_every_round(max_bidder: tuple[Game, Review]) -> None:
    game, review = max_bidder
    for game_round in review.rounds:
        assert len(game_round.worth) == game.players
        # A round's points lie between −10 a trick and 20 + 10 a trick: so does what a hand is worth.
        assert all(-10 * game_round.cards <= worth <= 20 + 10 * game_round.cards for worth in game_round.worth)


def test_a_hands_worth_is_its_own_round_points() -> None:
    # Seed 6 deals a Wizard to seat 0, who leads the one trick: it is a sure 30 points, whatever the
    # others hold. Counting the others' points against it (as the table's hard player does) would
    # make it less.
    game = played(Options(rounds=1), lambda _: MaxBidder(), seed=6)
    assert game.log[0][0] == 0
    assert any(card.kind is Kind.WIZARD for card in dealt_to(game, 1, 0))
    # The review's own hard player (`hard_player`), not the tests' smaller one: one round is quick.
    review = review_game(GAME_ID, game.players, game.seed, game.options, list(game.log), 1)
    assert review.rounds[0].worth[0] == 30.0


def test_the_cards_and_the_play_add_up_to_the_lead_over_the_others(max_bidder: tuple[Game, Review]) -> None:
    game, review = max_bidder
    cards, play = review.cards_and_play()
    others = [score for seat, score in enumerate(game.scores) if seat != 0]
    assert cards + play == round(game.scores[0] - sum(others) / len(others))
    worth = [sum(r.worth[seat] for r in review.rounds) for seat in range(game.players)]
    assert cards == round(worth[0] - (worth[1] + worth[2]) / 2)


def test_hands_another_review_valued_are_not_searched_again_and_the_review_is_the_same() -> None:
    game = played(SHORT, lambda _: MaxBidder())
    first = reviewed(game, seat=0)
    searched: list[int] = []

    def counting(seed: int) -> HardPlayer:
        searched.append(seed)
        return small_hard(seed)

    def review(valued: dict[tuple[int, int], float] | None = None) -> Review:
        searched.clear()
        return review_game(
            GAME_ID, game.players, game.seed, game.options, list(game.log), 1, hard=counting, valued=valued
        )

    alone = review()
    searched_alone = len(searched)
    valued = {(r.round, s): worth for r in first.rounds for s, worth in enumerate(r.worth)}
    shared = review(valued=valued)
    assert shared.to_json() == alone.to_json()
    # Seats 0 and 2 bid once a round, and their hands need no search now.
    assert searched_alone - len(searched) == 2 * len(game.round_numbers)


@pytest.mark.parametrize(
    ("worth", "totals", "expected"),
    [
        # each round's worth by seat, the final scores -> (cards, play) of seat 0
        ([(30.0, 20.0, 10.0)], (30, 20, 10), (15, 0)),
        ([(30.0, 20.0, 10.0)], (-10, 20, 20), (15, -45)),
        ([(20.0, 20.0, 20.0), (25.0, 40.0, 10.0)], (50, 60, 30), (0, 5)),
        ([(10.4, 10.0, 10.0)], (20, 20, 20), (0, 0)),
    ],
    ids=["as the cards said", "a good hand spoilt", "over two rounds", "rounding"],
)
def test_cards_are_the_hands_worth_against_the_others_and_play_the_rest(
    worth: list[tuple[float, ...]], totals: tuple[int, ...], expected: tuple[int, int]
) -> None:
    rounds = tuple(RoundReview(place, 1, (), None, 0, 0, 0, None, None, (), w) for place, w in enumerate(worth, 1))
    assert Review(GAME_ID, 0, rounds, totals).cards_and_play() == expected


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


def test_a_blind_round_is_not_weighed_and_worth_what_each_seat_made() -> None:
    game = played(Options(rounds=2, blind_first_round=True), lambda _: MaxBidder())
    review = reviewed(game)
    assert (review.rounds[0].hard_bid, review.rounds[0].expected, review.rounds[0].moments) == (None, None, ())
    assert review.rounds[0].worth == tuple(float(points) for points in game.history[0].points)
    assert review.rounds[1].hard_bid is not None


def test_an_unfinished_game_is_not_reviewed() -> None:
    game = played(SHORT, lambda _: MaxBidder())
    with pytest.raises(ValueError, match="not finished"):
        review_game(GAME_ID, 3, game.seed, SHORT, list(game.log)[:-1], 0, hard=small_hard)


def moment(round_: int, trick: int, stake: float) -> Moment:
    return Moment(round_, trick, Play(Card.parse("S2")), Play(Card.parse("S3")), stake, 1.0, 1.5, True)


def review_of(*moments: Moment) -> Review:
    rounds = sorted({m.round for m in moments})
    return Review(
        GAME_ID,
        0,
        tuple(
            RoundReview(r, 3, (), None, 1, 1, 30, 1, 1.0, tuple(m for m in moments if m.round == r), (30.0, 0.0, 0.0))
            for r in rounds
        ),
        (30, 0, 0),
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
    again = Review.from_json(json.loads(json.dumps(review.to_json(), allow_nan=False)))
    assert again.to_json() == review.to_json()
    assert [m.stake for m in again.costliest()] == [round(m.stake, 2) for m in review.costliest()]
    assert again.cards_and_play() == review.cards_and_play()


# A review as version 1 stored it (before the why of each moment, the trump and every seat's worth).
VERSION_1 = {
    "version": 1,
    "game": GAME_ID,
    "seat": 0,
    "rounds": [
        {
            "round": 1,
            "cards": 1,
            "hand": ["H13"],
            "bid": 1,
            "tricks": 0,
            "points": -10,
            "hard_bid": 0,
            "expected": 0.25,
            "moments": [{"trick": 0, "theirs": {"bid": 1}, "hard": {"bid": 0}, "stake": 1.5}],
        }
    ],
}


def current(**changes: object) -> dict[str, object]:
    data = reviewed(played(Options(rounds=2), lambda _: MaxBidder())).to_json()
    return data | changes


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ({"version": 0, "game": GAME_ID, "seat": 0, "rounds": []}, "version 0"),
        (VERSION_1, "version 1"),
        ({"version": REVIEW_VERSION, "game": GAME_ID}, "not a review"),
        (current(seat=3), "seat 3 of 3"),
        (current(totals=[10, 20]), "seat 0 of 2, or a round without every seat's worth"),
    ],
    ids=["another version", "version 1", "damaged", "a seat not in the game", "worth of other seats"],
)
def test_a_stored_review_of_another_form_is_refused(data: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        Review.from_json(data)


def test_the_search_seed_depends_on_the_game_and_decision_only() -> None:
    # sha256, not hash(): the same on every run and machine, so a review can be worked out again.
    assert decision_seed("c0ffee01", 0) == 0xDBD0FE0CB4B06F22
    seeds = {decision_seed(game, index) for game in ("a", "b") for index in range(3)}
    assert len(seeds) == 6
