"""The house rules beyond the standard game: round 1 exempt from "bids may not add up", hidden bids,
shorter games and the blind first round. Each is off by default; each is checked with explicit
deals, then with random full games for 3-6 players."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import fields
from itertools import accumulate, permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    DECK,
    Bid,
    Card,
    ChooseTrump,
    Game,
    NotYourTurnError,
    Options,
    Phase,
    Play,
    Reason,
    RuleError,
    Suit,
    TrickResult,
    WrongPhaseError,
)
from bot.engine.rules import round_count
from tests.engine.support import (
    Trace,
    apply_all,
    deal,
    next_actor,
    play_out,
    private_cards,
    reachable_cards,
    record_game,
    reference_bids,
    reference_playable,
    reference_points,
)

ADD_UP = Options(bids_may_not_add_up=True)
EXEMPT = Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True)
HIDDEN = Options(hidden_bids=True)
EVEN = Options(schedule="even")
BLIND = Options(blind_first_round=True)

# Three players, seat 0 deals, so seat 1 bids first and leads.
# Round 1, clubs trump:   seat 0: H1    seat 1: S2    seat 2: D3
ROUND_1 = deal([["H1"], ["S2"], ["D3"]], "C4")
# Round 2, clubs trump:   seat 0: S6 H4    seat 1: H2 D9    seat 2: H13 S5
ROUND_2 = deal([["S6", "H4"], ["H2", "D9"], ["H13", "S5"]], "C1")


def play(code: str) -> Play:
    return Play(Card.parse(code))


def bids(*values: int) -> list[Bid]:
    return [Bid(value) for value in values]


def round_one(options: Options, *placed: int) -> Game:
    """Round 1 with `placed` bid in bidding order (seats 1, 2, 0)."""
    game = Game(3, seed=1, options=options, deals={1: ROUND_1}, first_dealer=0)
    for bid in placed:
        game.apply(Bid(bid))
    return game


def round_two(options: Options, *placed: int) -> Game:
    """Round 2 (started there) with `placed` bid in bidding order (seats 1, 2, 0)."""
    game = Game(3, seed=1, options=options, deals={2: ROUND_2}, first_dealer=0, start_round=2)
    for bid in placed:
        game.apply(Bid(bid))
    return game


def hidden_bids(*by_seat: tuple[int, int]) -> Game:
    """Round 2 with hidden bids, after the (seat, bid) pairs in the order given."""
    game = round_two(HIDDEN)
    for seat, bid in by_seat:
        game.apply(Bid(bid), by=seat)
    return game


def finish_round(game: Game, seed: int = 0) -> None:
    """Play the round in progress to its end with random legal actions."""
    rng = random.Random(seed)
    number = game.round
    while game.round == number and not game.is_over:
        seat = next_actor(game, rng)
        game.apply(rng.choice(game.legal_actions_for(seat)), by=seat)


def round_starts(game: Game, seed: int) -> Iterator[Game]:
    """Yield the game at the start of each of its rounds, playing randomly in between."""
    while not game.is_over:
        yield game
        finish_round(game, seed)


# -- the options -----------------------------------------------------------------------------

DEFAULTS = {
    "bids_may_not_add_up": False,
    "bids_may_add_up_in_round_one": False,
    "hidden_bids": False,
    "rounds": None,
    "schedule": "full",
    "blind_first_round": False,
}


def test_the_defaults_cover_every_option() -> None:
    assert [field.name for field in fields(Options)] == list(DEFAULTS)


@pytest.mark.parametrize(("name", "default"), DEFAULTS.items())
def test_every_variant_is_off_by_default(name: str, default: object) -> None:
    assert getattr(Options(), name) == default


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        ADD_UP,
        EXEMPT,
        HIDDEN,
        Options(rounds=7),
        EVEN,
        Options(schedule="even", rounds=3),
        BLIND,
        Options(hidden_bids=True, rounds=20, blind_first_round=True),
    ],
    ids=repr,
)
def test_options_json_round_trip(options: Options) -> None:
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param({"bids_may_not_add_up": True}, ADD_UP, id="the first version's options"),
        pytest.param({"bids_may_not_add_up": False}, Options(), id="the golden game's options"),
        pytest.param({}, Options(), id="no options at all"),
    ],
)
def test_older_options_json_takes_the_defaults(data: dict[str, Any], expected: Options) -> None:
    assert Options.from_json(data) == expected


def test_a_game_saved_before_the_new_options_still_loads() -> None:
    game = round_two(ADD_UP, 1, 0)
    data = json.loads(json.dumps(game.to_json()))
    data["options"] = {"bids_may_not_add_up": True}
    restored = Game.from_json(data)
    assert restored.snapshot() == game.snapshot()


@pytest.mark.parametrize(
    ("values", "message"),
    [
        pytest.param({"hidden_bids": True, "bids_may_not_add_up": True}, "nobody bids last", id="hidden + add up"),
        pytest.param({"blind_first_round": True, "schedule": "even"}, "round 1", id="blind + even"),
        pytest.param({"rounds": 0}, "rounds must be 1-20", id="no rounds"),
        pytest.param({"rounds": 21}, "rounds must be 1-20", id="more rounds than any game"),
        pytest.param({"rounds": -3}, "rounds must be 1-20", id="negative rounds"),
        pytest.param({"rounds": True}, "rounds must be 1-20", id="bool rounds"),
        pytest.param({"rounds": "5"}, "rounds must be 1-20", id="string rounds"),
        pytest.param({"rounds": 5.0}, "rounds must be 1-20", id="float rounds"),
        pytest.param({"schedule": "odd"}, "schedule", id="unknown schedule"),
        pytest.param({"schedule": None}, "schedule", id="no schedule"),
        pytest.param({"hidden_bids": 1}, "hidden_bids must be true or false", id="int flag"),
        pytest.param({"blind_first_round": "yes"}, "blind_first_round must be", id="string flag"),
        pytest.param({"bids_may_not_add_up": None}, "bids_may_not_add_up must be", id="None flag"),
        pytest.param({"bids_may_add_up_in_round_one": 0}, "in_round_one must be", id="int sub-flag"),
    ],
)
def test_invalid_options_are_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Options(**values)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        pytest.param({"hidden_bids": True, "bids_may_not_add_up": True}, "nobody bids last", id="hidden + add up"),
        pytest.param({"rounds": 0}, "rounds", id="no rounds"),
        pytest.param({"no_such_rule": True}, "unknown options", id="unknown option"),
    ],
)
def test_invalid_options_json_is_refused(values: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Options.from_json(values)


@pytest.mark.parametrize(
    ("players", "options", "expected"),
    [
        (3, Options(), tuple(range(1, 21))),
        (6, Options(), tuple(range(1, 11))),
        (3, Options(rounds=4), (1, 2, 3, 4)),
        (5, Options(rounds=12), tuple(range(1, 13))),
        (3, EVEN, (2, 4, 6, 8, 10, 12, 14, 16, 18, 20)),
        (4, EVEN, (2, 4, 6, 8, 10, 12, 14)),
        (5, EVEN, (2, 4, 6, 8, 10, 12)),
        (6, EVEN, (2, 4, 6, 8, 10)),
        (4, Options(schedule="even", rounds=3), (2, 4, 6)),
        (6, Options(schedule="even", rounds=5), (2, 4, 6, 8, 10)),
    ],
)
def test_options_give_the_rounds_played(players: int, options: Options, expected: tuple[int, ...]) -> None:
    assert options.round_numbers(players) == expected
    game = Game(players, seed=1, options=options)
    assert game.round_numbers == expected
    assert game.rounds == len(expected)
    assert game.round == expected[0]


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, Options(rounds=16)),
        (6, Options(rounds=11)),
        (5, Options(rounds=13)),
        (3, Options(schedule="even", rounds=11)),
        (6, Options(schedule="even", rounds=6)),
    ],
)
def test_more_rounds_than_the_players_can_play_are_refused(players: int, options: Options) -> None:
    with pytest.raises(ValueError, match="can play"):
        Game(players, seed=1, options=options)


# -- "bids may not add up", with or without round 1 --------------------------------------------


@pytest.mark.parametrize(
    ("state", "legal"),
    [
        pytest.param(lambda: round_one(ADD_UP, 0, 0), bids(0), id="round 1 forbidden by default"),
        pytest.param(lambda: round_one(ADD_UP, 1, 0), bids(1), id="round 1 forbids a zero bid"),
        pytest.param(lambda: round_one(EXEMPT, 0, 0), bids(0, 1), id="round 1 exempt"),
        pytest.param(lambda: round_one(EXEMPT, 1, 0), bids(0, 1), id="round 1 exempt, zero"),
        pytest.param(lambda: round_two(EXEMPT, 1, 0), bids(0, 2), id="round 2 not exempt"),
        pytest.param(lambda: round_one(Options(bids_may_add_up_in_round_one=True), 0, 0), bids(0, 1), id="alone 1"),
        pytest.param(lambda: round_two(Options(bids_may_add_up_in_round_one=True), 1, 0), bids(0, 1, 2), id="alone 2"),
    ],
)
def test_the_last_bidders_choices(state: Any, legal: list[Bid]) -> None:
    game = state()
    assert game.to_move == 0
    assert game.legal_actions() == legal


def test_with_round_1_exempt_its_bids_may_add_up() -> None:
    game = round_one(EXEMPT, 0, 0)
    assert game.forbidden_bid() is None
    game.apply(Bid(1), by=0)
    assert game.bids == [1, 0, 0]
    assert game.phase is Phase.PLAY


def test_without_the_exemption_round_1_refuses_the_bid_that_adds_up() -> None:
    game = round_one(ADD_UP, 0, 0)
    with pytest.raises(RuleError) as raised:
        game.apply(Bid(1), by=0)
    assert raised.value.reason is Reason.BID_ADDS_UP


def test_with_round_1_exempt_round_2_still_forbids_a_bid() -> None:
    game = round_one(EXEMPT, 0, 0, 1)
    finish_round(game)
    assert game.round == 2
    game.apply(Bid(2))
    game.apply(Bid(0))
    assert game.forbidden_bid() == 0
    assert Bid(0) not in game.legal_actions()


# -- hidden bids -----------------------------------------------------------------------------


@pytest.mark.parametrize("order", list(permutations(range(3))), ids=str)
def test_hidden_bids_may_come_in_any_order(order: tuple[int, ...]) -> None:
    game = round_two(HIDDEN)
    for seat in order:
        applied = game.apply(Bid(seat), by=seat)
        assert applied.seat == seat
    assert game.bids == [0, 1, 2]
    assert [seat for seat, _ in game.log] == list(order)


def test_hidden_bids_wait_for_every_seat_in_bidding_order() -> None:
    game = round_two(HIDDEN)
    assert game.pending_bidders() == (1, 2, 0)
    assert game.waiting_for() == (1, 2, 0)


@pytest.mark.parametrize(
    ("placed", "pending"),
    [
        pytest.param([(2, 1)], (1, 0), id="the middle seat"),
        pytest.param([(0, 1)], (1, 2), id="the dealer"),
        pytest.param([(1, 1)], (2, 0), id="the first seat"),
        pytest.param([(0, 1), (1, 0)], (2,), id="two"),
        pytest.param([(0, 1), (1, 0), (2, 2)], (), id="all"),
    ],
)
def test_pending_bidders_are_the_seats_yet_to_bid(placed: list[tuple[int, int]], pending: tuple[int, ...]) -> None:
    game = hidden_bids(*placed)
    assert game.pending_bidders() == pending
    assert game.waiting_for() == (pending or (1,))


@pytest.mark.parametrize(
    ("placed", "to_move"),
    [
        pytest.param([], 1, id="nobody yet"),
        pytest.param([(2, 1)], 1, id="after an out-of-order bid"),
        pytest.param([(1, 1)], 2, id="after the first seat"),
        pytest.param([(1, 1), (0, 0)], 2, id="after the first seat and the dealer"),
        pytest.param([(2, 1), (0, 0)], 1, id="before the first seat"),
    ],
)
def test_with_hidden_bids_the_seat_to_move_is_the_first_still_to_bid(
    placed: list[tuple[int, int]], to_move: int
) -> None:
    assert hidden_bids(*placed).to_move == to_move


def test_a_hidden_bid_without_a_seat_is_the_seat_to_moves() -> None:
    game = hidden_bids((2, 1))
    applied = game.apply(Bid(0))
    assert applied.seat == 1
    assert game.bids == [None, 0, 1]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_second_hidden_bid_from_the_same_seat_is_refused(seat: int) -> None:
    game = hidden_bids((seat, 1))
    before = game.snapshot()
    with pytest.raises(NotYourTurnError) as raised:
        game.apply(Bid(2), by=seat)
    assert raised.value.reason is Reason.ALREADY_BID
    assert game.snapshot() == before


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_a_hidden_bid_from_no_seat_of_the_game_is_refused(seat: int) -> None:
    with pytest.raises(NotYourTurnError) as raised:
        hidden_bids().apply(Bid(0), by=seat)
    assert raised.value.reason is Reason.NOT_YOUR_TURN


def test_without_hidden_bids_only_the_seat_to_move_may_bid() -> None:
    game = round_two(Options())
    assert game.pending_bidders() == (1, 2, 0)
    assert game.waiting_for() == (1,)
    assert game.legal_actions_for(2) == []
    with pytest.raises(NotYourTurnError) as raised:
        game.apply(Bid(0), by=2)
    assert raised.value.reason is Reason.NOT_YOUR_TURN


def test_a_hidden_bid_is_checked_against_the_round() -> None:
    with pytest.raises(RuleError) as raised:
        hidden_bids().apply(Bid(3), by=2)
    assert raised.value.reason is Reason.BID_OUT_OF_RANGE


def test_a_card_from_a_seat_yet_to_bid_is_in_the_wrong_phase() -> None:
    with pytest.raises(WrongPhaseError):
        hidden_bids().apply(play("H13"), by=2)


@pytest.mark.parametrize("last", [0, 1, 2])
def test_play_starts_after_the_last_hidden_bid_with_the_seat_after_the_dealer(last: int) -> None:
    game = hidden_bids(*[(seat, 0) for seat in range(3) if seat != last])
    assert game.pending_bidders() == (last,)
    game.apply(Bid(0), by=last)
    assert game.phase is Phase.PLAY
    assert game.to_move == game.trick_leader == 1
    assert game.waiting_for() == (1,)
    assert game.pending_bidders() == ()


def test_with_hidden_bids_play_keeps_its_turn_order() -> None:
    game = hidden_bids((0, 0), (2, 0), (1, 0))
    with pytest.raises(NotYourTurnError) as raised:
        game.apply(play("H13"), by=2)
    assert raised.value.reason is Reason.NOT_YOUR_TURN


def test_with_hidden_bids_only_the_dealer_may_choose_trump() -> None:
    game = Game(3, seed=1, options=HIDDEN, deals={1: deal([["H1"], ["S2"], ["D3"]], "W1")}, first_dealer=0)
    assert game.waiting_for() == (0,)
    assert game.pending_bidders() == ()
    with pytest.raises(NotYourTurnError):
        game.apply(Bid(0), by=1)
    game.apply(ChooseTrump(Suit.SPADES), by=0)
    assert game.waiting_for() == (1, 2, 0)


@pytest.mark.parametrize(
    ("seat", "shown"),
    [(0, (2, None, None)), (1, (None, None, None)), (2, (None, None, 1))],
)
def test_hidden_bids_show_only_the_own_bid_until_all_are_in(seat: int, shown: tuple[int | None, ...]) -> None:
    observation = hidden_bids((2, 1), (0, 2)).observation(seat)
    assert observation.bids == shown
    assert observation.has_bid == (True, False, True)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_hidden_bids_are_all_shown_once_all_are_in(seat: int) -> None:
    observation = hidden_bids((2, 1), (0, 2), (1, 0)).observation(seat)
    assert observation.bids == (2, 0, 1)
    assert observation.has_bid == (True, True, True)


@pytest.mark.parametrize(("seat", "legal"), [(0, bids(0, 1, 2)), (1, bids(0, 1, 2)), (2, [])])
def test_hidden_bids_are_offered_to_every_seat_yet_to_bid(seat: int, legal: list[Bid]) -> None:
    game = hidden_bids((2, 1))
    assert game.legal_actions_for(seat) == legal
    assert game.observation(seat).legal == tuple(legal)


def test_without_hidden_bids_each_bid_is_shown_as_it_comes() -> None:
    observation = round_two(Options(), 1).observation(0)
    assert observation.bids == (None, 1, None)
    assert observation.has_bid == (False, True, False)


def test_hidden_bids_are_scored_by_seat() -> None:
    game = hidden_bids((0, 2), (2, 1), (1, 0))
    finish_round(game)
    assert game.history[0].bids == (2, 0, 1)


def test_hidden_bids_survive_json_mid_bidding() -> None:
    game = hidden_bids((2, 1), (0, 2))
    restored = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.snapshot() == game.snapshot()
    assert restored.pending_bidders() == (1,)
    assert restored.log == [(2, Bid(1)), (0, Bid(2))]


# -- shorter games ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(3, 1), (3, 5), (4, 7), (5, 11), (6, 10)])
def test_a_game_of_n_rounds_ends_after_round_n(players: int, rounds: int) -> None:
    game = Game(players, seed=rounds, options=Options(rounds=rounds))
    play_out(game, random.Random(rounds))
    assert game.is_over
    assert [result.round for result in game.history] == list(range(1, rounds + 1))
    assert game.scores == list(game.history[-1].totals)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_even_schedule_deals_2_4_6_cards(players: int) -> None:
    dealt = [[len(hand) for hand in game.hands] for game in round_starts(Game(players, 5, EVEN), seed=5)]
    assert dealt == [[number] * players for number in range(2, round_count(players) + 1, 2)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_even_schedule_moves_the_dealer_one_seat_a_round(players: int) -> None:
    game = Game(players, 5, EVEN, first_dealer=1)
    dealers = [game.dealer for game in round_starts(game, seed=5)]
    assert dealers == [(1 + index) % players for index in range(len(dealers))]


@pytest.mark.parametrize(
    ("players", "options", "last", "turned_up"),
    [
        pytest.param(3, Options(rounds=3), 3, True, id="first 3 rounds"),
        pytest.param(4, EVEN, 14, True, id="4 players even"),
        pytest.param(3, EVEN, 20, False, id="3 players even"),
        pytest.param(6, Options(rounds=10), 10, False, id="6 players all 10"),
        pytest.param(5, Options(schedule="even", rounds=4), 8, True, id="5 players first 4 even"),
    ],
)
def test_the_last_round_turns_up_a_card_unless_it_deals_the_whole_deck(
    players: int, options: Options, last: int, turned_up: bool
) -> None:
    game = Game(players, seed=2, options=options, start_round=last)
    assert game.round_numbers[-1] == last
    assert (game.turned_up is not None) == turned_up
    assert [len(hand) for hand in game.hands] == [last] * players
    finish_round(game)
    assert game.is_over


# Four players in round 2, seat 0 deals, a Jester turned up (no trump). Seat 1 takes the heart
# trick with H13, seat 2 the spade trick with S13.
#   seat 0: D5 D6    seat 1: H13 S2    seat 2: H2 S13    seat 3: H3 S3
SCORING_DEAL = deal([["D5", "D6"], ["H13", "S2"], ["H2", "S13"], ["H3", "S3"]], "J1")
SCORING_PLAYS = ["H13", "H2", "H3", "D5", "S2", "S13", "S3", "D6"]


def even_game_after_round_2() -> tuple[Game, Any]:
    """The even schedule's first round played with the scoring deal; bids 1, 0, 2, 0 from seat 1 on."""
    game = Game(4, seed=3, options=EVEN, deals={2: SCORING_DEAL}, first_dealer=0)
    for bid in (1, 0, 2, 0):
        game.apply(Bid(bid))
    applied = None
    for code in SCORING_PLAYS:
        applied = game.apply(play(code))
    assert applied is not None
    return game, applied.round


def test_the_even_schedule_starts_with_round_2() -> None:
    game = Game(4, seed=3, options=EVEN, deals={2: SCORING_DEAL}, first_dealer=0)
    assert (game.start_round, game.round, game.round_position, game.dealer) == (2, 2, 1, 0)


def test_the_even_schedule_scores_its_first_round_as_round_2() -> None:
    game, result = even_game_after_round_2()
    assert result.round == 2
    assert result.tricks == (0, 1, 1, 0)
    assert result.points == (20, 30, -10, -20)
    assert game.scores == [20, 30, -10, -20]


def test_the_even_schedule_deals_round_4_after_round_2() -> None:
    game, _ = even_game_after_round_2()
    assert (game.round, game.round_position, game.dealer) == (4, 2, 1)
    assert [len(hand) for hand in game.hands] == [4] * 4


def test_the_observation_names_the_round_and_its_place_in_the_game() -> None:
    game, _ = even_game_after_round_2()
    observation = game.observation(2)
    assert (observation.round, observation.round_position, observation.rounds) == (4, 2, 7)
    assert observation.round_numbers == (2, 4, 6, 8, 10, 12, 14)


def test_an_even_game_survives_json() -> None:
    game, _ = even_game_after_round_2()
    data = json.loads(json.dumps(game.to_json()))
    assert data["options"]["schedule"] == "even"
    assert data["start_round"] == 2
    restored = Game.from_json(data)
    assert restored.snapshot() == game.snapshot()
    assert restored.round_numbers == game.round_numbers
    assert restored.history == game.history


@pytest.mark.parametrize(
    ("options", "start_round"),
    [(EVEN, 1), (EVEN, 3), (EVEN, 21), (Options(rounds=5), 6), (Options(schedule="even", rounds=2), 6)],
)
def test_the_start_round_must_be_one_the_game_plays(options: Options, start_round: int) -> None:
    with pytest.raises(ValueError, match="start_round"):
        Game(3, seed=1, options=options, start_round=start_round)


@pytest.mark.parametrize(("options", "number"), [(EVEN, 3), (Options(rounds=2), 3)])
def test_a_deal_for_a_round_the_game_skips_is_refused(options: Options, number: int) -> None:
    hands = [[card.code for card in DECK[seat * number : (seat + 1) * number]] for seat in range(3)]
    with pytest.raises(ValueError, match=f"no round {number}"):
        Game(3, seed=1, options=options, deals={number: deal(hands, "J1")})


# -- the blind first round -------------------------------------------------------------------


def blind_game(options: Options = BLIND) -> Game:
    return Game(3, seed=1, options=options, deals={1: ROUND_1}, first_dealer=0)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_blind_round_hides_the_own_card(seat: int) -> None:
    observation = blind_game().observation(seat)
    assert observation.blind
    assert observation.hand == ()
    assert observation.hand_sizes == (1, 1, 1)


@pytest.mark.parametrize(
    ("seat", "others"),
    [(0, ((), ("S2",), ("D3",))), (1, (("H1",), (), ("D3",))), (2, (("H1",), ("S2",), ()))],
)
def test_the_blind_round_shows_the_others_cards(seat: int, others: tuple[tuple[str, ...], ...]) -> None:
    shown = blind_game().observation(seat).others_cards
    assert tuple(tuple(card.code for card in cards) for cards in shown) == others


def test_the_blind_round_shows_no_one_their_own_card_while_bidding() -> None:
    game = blind_game()
    while game.phase is Phase.BID:
        for seat in range(3):
            assert game.hands[seat][0] not in list(reachable_cards(game.observation(seat))), f"seat {seat}"
        game.apply(Bid(0))


def test_in_the_blind_round_the_one_legal_play_is_the_unseen_card() -> None:
    game = round_one(BLIND, 0, 0, 0)
    assert game.to_move == 1
    assert game.legal_actions() == [play("S2")]
    assert game.observation(1).legal == (play("S2"),)


def test_the_blind_round_shows_each_card_on_the_table_once_played() -> None:
    game = round_one(BLIND, 0, 0, 0)
    game.apply(play("S2"), by=1)
    observation = game.observation(0)
    assert observation.trick == (Card.parse("S2"),)
    assert observation.others_cards == ((), (), (Card.parse("D3"),))


def test_round_2_after_the_blind_round_is_played_open() -> None:
    game = blind_game()
    finish_round(game)
    assert game.round == 2
    for seat in range(3):
        observation = game.observation(seat)
        assert not observation.blind
        assert observation.hand == tuple(game.hands[seat])
        assert observation.others_cards == ()


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_without_the_variant_round_1_is_played_open(seat: int) -> None:
    observation = blind_game(Options()).observation(seat)
    assert not observation.blind
    assert observation.hand == tuple(ROUND_1.hands[seat])
    assert observation.others_cards == ()


def test_a_game_of_only_the_blind_round_is_not_blind_once_over() -> None:
    game = blind_game(Options(blind_first_round=True, rounds=1))
    finish_round(game)
    assert game.is_over
    assert not game.is_blind_round
    assert game.observation(0).others_cards == ()


@pytest.mark.parametrize("options", [Options(), BLIND], ids=["plain", "blind"])
def test_outside_the_blind_round_no_observation_shows_another_hand(options: Options) -> None:
    game = Game(4, seed=8, options=options, start_round=1)
    rng = random.Random(8)
    checked = 0
    while game.round <= 4:
        for seat in range(4):
            observation = game.observation(seat)
            if game.round > 1 or options == Options():
                assert observation.others_cards == ()
                leaked = [card for card in private_cards(observation) if card not in game.hands[seat]]
                assert leaked == [], f"seat {seat} sees {leaked} in round {game.round}"
                checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 100


# -- random full games with each variant -----------------------------------------------------

VARIANTS = {
    "round-1-exempt": EXEMPT,
    "hidden-bids": HIDDEN,
    "first-6-rounds": Options(rounds=6),
    "even": EVEN,
    "even-first-3": Options(schedule="even", rounds=3),
    "blind": BLIND,
    "hidden-blind-short": Options(hidden_bids=True, blind_first_round=True, rounds=5),
}
VARIANT_SEEDS = range(8)
VARIANT_GAMES = [pytest.param(players, name, id=f"{players}p-{name}") for name in VARIANTS for players in (3, 4, 5, 6)]


@functools.cache
def variant_traces(players: int, name: str) -> tuple[Trace, ...]:
    return tuple(record_game(players, seed, False, options=VARIANTS[name]) for seed in VARIANT_SEEDS)


def offered_bids(options: Options, number: int, placed: tuple[int | None, ...]) -> list[int]:
    restricted = options.bids_may_not_add_up and not (number == 1 and options.bids_may_add_up_in_round_one)
    return reference_bids(number, placed, restricted)


def tricks_by_round(trace: Trace) -> dict[int, list[TrickResult]]:
    found: dict[int, list[TrickResult]] = defaultdict(list)
    for step in trace.steps:
        if step.applied.trick is not None:
            found[step.applied.trick.round].append(step.applied.trick)
    return found


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_offer_only_legal_actions(players: int, name: str) -> None:
    suits = [ChooseTrump(suit) for suit in Suit]
    for trace in variant_traces(players, name):
        for step in trace.steps:
            where = f"seed {trace.seed}, round {step.round}"
            if step.phase is Phase.PLAY:
                offered: object = {action.card for action in step.legal}  # type: ignore[union-attr]
                expected: object = reference_playable(step.hand, step.trick)
            elif step.phase is Phase.BID:
                offered = [action.tricks for action in step.legal]  # type: ignore[union-attr]
                expected = offered_bids(trace.options, step.round, step.bids)
            else:
                offered, expected = step.legal, suits
            assert offered == expected, where
            assert step.applied.seat == step.seat, where


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_play_each_dealt_card_once_by_its_holder(players: int, name: str) -> None:
    for trace in variant_traces(players, name):
        played: dict[int, Counter[tuple[int, Card]]] = defaultdict(Counter)
        for step in trace.steps:
            if isinstance(step.action, Play):
                played[step.round][step.seat, step.action.card] += 1
        for start in trace.starts:
            dealt = Counter((seat, card) for seat, hand in enumerate(start.hands) for card in hand)
            assert played[start.round] == dealt, f"seed {trace.seed}, round {start.round}"
            cards = [card for hand in start.hands for card in hand] + [start.turned_up] * (start.turned_up is not None)
            assert len(set(cards)) == len(cards) == players * start.round + (start.turned_up is not None)
            assert (start.turned_up is None) == (players * start.round == len(DECK))


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_play_exactly_their_rounds(players: int, name: str) -> None:
    numbers = VARIANTS[name].round_numbers(players)
    for trace in variant_traces(players, name):
        game = trace.game
        assert game.is_over
        assert [start.round for start in trace.starts] == list(numbers)
        assert [result.round for result in game.history] == list(numbers)
        by_round = tricks_by_round(trace)
        assert {number: len(tricks) for number, tricks in by_round.items()} == {n: n for n in numbers}
        assert [start.dealer for start in trace.starts] == [
            (game.first_dealer + i) % players for i in range(len(numbers))
        ]


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_score_by_the_formula(players: int, name: str) -> None:
    for trace in variant_traces(players, name):
        history = trace.game.history
        placed: dict[int, list[int]] = defaultdict(lambda: [-1] * players)
        for step in trace.steps:
            if isinstance(step.action, Bid):
                placed[step.round][step.seat] = step.action.tricks
        for result in history:
            assert list(result.bids) == placed[result.round], f"seed {trace.seed}"
            expected = [reference_points(bid, won) for bid, won in zip(result.bids, result.tricks, strict=True)]
            assert list(result.points) == expected, f"seed {trace.seed}, round {result.round}"
        for seat in range(players):
            running = list(accumulate(result.points[seat] for result in history))
            assert [result.totals[seat] for result in history] == running, f"seed {trace.seed}"


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_survive_json_and_continue_identically(players: int, name: str) -> None:
    for trace in variant_traces(players, name):
        for checkpoint in trace.checkpoints:
            restored = Game.from_json(json.loads(checkpoint.json_text))
            assert restored.snapshot() == checkpoint.snapshot, f"seed {trace.seed}, step {checkpoint.steps}"
            apply_all(restored, trace.game.log[checkpoint.steps :])
            assert restored.snapshot() == trace.game.snapshot(), f"seed {trace.seed}, step {checkpoint.steps}"


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_games_replay_to_the_same_state(players: int, name: str) -> None:
    for trace in variant_traces(players, name):
        game = trace.game
        assert Game.replay(players, trace.seed, trace.options, game.log).snapshot() == game.snapshot()
        assert game.copy().snapshot() == game.snapshot()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_hidden_bids_come_out_of_table_order(players: int) -> None:
    out_of_order = 0
    for trace in variant_traces(players, "hidden-bids"):
        dealers = {start.round: start.dealer for start in trace.starts}
        for step in trace.steps:
            if step.phase is Phase.BID:
                order = [(dealers[step.round] + 1 + i) % players for i in range(players)]
                first_to_bid = next(seat for seat in order if step.bids[seat] is None)
                out_of_order += step.seat != first_to_bid
    assert out_of_order > 0


def observed_states(players: int, options: Options, seed: int) -> Iterator[Game]:
    """A game at every step of its first three rounds, with random actors and actions."""
    game = Game(players, seed, options)
    rng = random.Random(seed)
    while not game.is_over and game.round_position <= 3:
        yield game
        seat = next_actor(game, rng)
        game.apply(rng.choice(game.legal_actions_for(seat)), by=seat)


@pytest.mark.parametrize(("players", "name"), VARIANT_GAMES)
def test_variant_observations_show_only_what_the_seat_may_know(players: int, name: str) -> None:
    options = VARIANTS[name]
    for game in observed_states(players, options, seed=players):
        blind = options.blind_first_round and game.round == 1
        for seat in range(players):
            observation = game.observation(seat)
            where = f"seat {seat}, round {game.round}, {game.phase}"
            others = {card for other, hand in enumerate(game.hands) if other != seat for card in hand}
            visible = set(private_cards(observation))
            if blind:
                # The own card shows only as the one legal play, when it must be played.
                own = {action.card for action in observation.legal if isinstance(action, Play)}
                assert own <= set(game.hands[seat]), where
                assert observation.hand == (), where
                assert visible == others | own, where
            else:
                assert observation.others_cards == (), where
                assert visible <= set(game.hands[seat]), where
            hidden = options.hidden_bids and game.phase is Phase.BID
            shown = tuple(bid if other == seat or not hidden else None for other, bid in enumerate(game.bids))
            assert observation.bids == shown, where
            assert observation.legal == tuple(game.legal_actions_for(seat)), where


# -- property tests --------------------------------------------------------------------------


def candidate_actions(game: Game) -> list[object]:
    """Every action of every kind that could be offered, legal or not."""
    return [*(Bid(n) for n in range(-1, game.round + 2)), *(Play(card) for card in DECK), *map(ChooseTrump, Suit)]


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 6),
    options=st.sampled_from(list(VARIANTS.values())),
    choices=st.randoms(use_true_random=False),
)
def test_apply_accepts_exactly_the_legal_actions_of_each_seat(
    seed: int, players: int, options: Options, choices: random.Random
) -> None:
    game = Game(players, seed, options)
    for _ in range(30):
        if game.is_over:
            break
        before = game.snapshot()
        for seat in range(players):
            legal = game.legal_actions_for(seat)
            assert bool(legal) == (seat in game.waiting_for())
            for action in candidate_actions(game):
                if action in legal:
                    game.copy().apply(action, by=seat)
                else:
                    with pytest.raises(RuleError):
                        game.apply(action, by=seat)  # type: ignore[arg-type]
        assert game.snapshot() == before
        seat = next_actor(game, choices)
        game.apply(choices.choice(game.legal_actions_for(seat)), by=seat)
