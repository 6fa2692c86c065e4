"""The rules through `Game`, with explicit deals: trump, dealing, turn order, bidding, errors, scoring, views."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.engine import (
    DECK,
    Bid,
    Card,
    ChooseTrump,
    Deal,
    Game,
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpError,
    NotYourTurnError,
    Options,
    Phase,
    Play,
    Reason,
    RuleError,
    Suit,
    WrongPhaseError,
    deal_hands,
)
from bot.engine.rules import round_count
from tests.engine.support import apply_all, cards, deal, play_out, private_cards, reachable_cards

PLAIN = Options()
VARIANT = Options(bids_may_not_add_up=True)


def play(code: str) -> Play:
    return Play(Card.parse(code))


# -- games in known states -------------------------------------------------------------------
#
# Three players in round 2, seat 0 deals, so seat 1 bids first and leads; clubs are trump.
#   seat 0: S6 H4    seat 1: H2 D9    seat 2: H13 S5
ROUND_2 = deal([["S6", "H4"], ["H2", "D9"], ["H13", "S5"]], "C1")


def bidding_game(options: Options = PLAIN) -> Game:
    """Round 2, nobody has bid yet: seat 1 to bid."""
    return Game(3, seed=1, options=options, deals={2: ROUND_2}, first_dealer=0, start_round=2)


def playing_game() -> Game:
    """Round 2, everyone bid 0: seat 1 to lead."""
    game = bidding_game()
    apply_all(game, [(1, Bid(0)), (2, Bid(0)), (0, Bid(0))])
    return game


def following_game() -> Game:
    """Round 2, seat 1 led H2: seat 2, holding H13 and S5, must follow hearts."""
    game = playing_game()
    game.apply(play("H2"), by=1)
    return game


def choosing_game(first_dealer: int = 0) -> Game:
    """Round 1 with a Wizard turned up: the dealer names trump."""
    return Game(3, seed=1, deals={1: deal([["H1"], ["S2"], ["D3"]], "W1")}, first_dealer=first_dealer)


def finished_game() -> Game:
    """A six-player game started in its last round and played out."""
    game = Game(6, seed=4, start_round=10)
    play_out(game, random.Random(4))
    return game


# -- trump -----------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_turned_up_wizard_lets_the_dealer_choose_trump(dealer: int) -> None:
    game = choosing_game(dealer)
    assert game.phase is Phase.CHOOSE_TRUMP
    assert game.to_move == dealer == game.dealer
    assert game.trump is None


@pytest.mark.parametrize("seat", [0, 2])
def test_only_the_dealer_may_choose_trump(seat: int) -> None:
    game = choosing_game(1)
    with pytest.raises(NotYourTurnError) as raised:
        game.apply(ChooseTrump(Suit.HEARTS), by=seat)
    assert raised.value.reason is Reason.NOT_YOUR_TURN


def test_the_dealer_chooses_among_the_four_suits() -> None:
    assert choosing_game().legal_actions() == [ChooseTrump(suit) for suit in Suit]


@pytest.mark.parametrize("suit", list(Suit))
def test_chosen_suit_becomes_trump_and_bidding_starts_after_the_dealer(suit: Suit) -> None:
    game = choosing_game(1)
    game.apply(ChooseTrump(suit), by=1)
    assert game.trump is suit
    assert game.phase is Phase.BID
    assert game.to_move == 2


@pytest.mark.parametrize("choice", [None, "H", "hearts", Card.parse("H1"), 0])
def test_the_dealer_cannot_choose_no_trump_or_a_non_suit(choice: object) -> None:
    game = choosing_game()
    with pytest.raises(IllegalTrumpError) as raised:
        game.apply(ChooseTrump(choice), by=0)  # type: ignore[arg-type]
    assert raised.value.reason is Reason.NOT_A_SUIT


@pytest.mark.parametrize("jester", ["J1", "J4"])
def test_turned_up_jester_means_no_trump(jester: str) -> None:
    game = Game(3, seed=1, deals={1: deal([["H1"], ["S2"], ["D3"]], jester)}, first_dealer=0)
    assert game.trump is None
    assert game.phase is Phase.BID
    assert game.to_move == 1


@pytest.mark.parametrize("turned_up", ["S7", "H1", "D13", "C2"])
def test_turned_up_suited_card_makes_its_suit_trump(turned_up: str) -> None:
    game = Game(3, seed=1, deals={1: deal([["H3"], ["S2"], ["D3"]], turned_up)}, first_dealer=0)
    assert game.trump is Card.parse(turned_up).suit
    assert game.phase is Phase.BID


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_last_round_deals_the_whole_deck_with_no_trump(players: int, seed: int) -> None:
    rounds = round_count(players)
    game = Game(players, seed, start_round=rounds)
    assert game.round == rounds
    assert game.turned_up is None
    assert game.trump is None
    assert game.phase is Phase.BID
    assert [len(hand) for hand in game.hands] == [rounds] * players
    assert sorted(card.index for hand in game.hands for card in hand) == list(range(60))


# -- dealer, bidding order and leading -------------------------------------------------------


def round_starts(game: Game, rounds: int, seed: int) -> Iterator[Game]:
    """Yield the game at the start of each of the next `rounds` rounds, playing randomly in between."""
    rng = random.Random(seed)
    for _ in range(rounds):
        yield game
        number = game.round
        while game.round == number and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize(("players", "first_dealer"), [(3, 2), (4, 0), (5, 3), (6, 5)])
def test_dealer_rotates_each_round(players: int, first_dealer: int) -> None:
    game = Game(players, seed=11, first_dealer=first_dealer)
    dealers = [game.dealer for game in round_starts(game, game.rounds, seed=11)]
    assert dealers == [(first_dealer + number) % players for number in range(game.rounds)]


def test_dealer_rotation_starts_at_the_start_round() -> None:
    game = Game(3, seed=2, first_dealer=2, start_round=5)
    dealers = [(game.round, game.dealer) for game in round_starts(game, 3, seed=2)]
    assert dealers == [(5, 2), (6, 0), (7, 1)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_seat_after_the_dealer_bids_first(players: int) -> None:
    for game in round_starts(Game(players, seed=players), round_count(players), seed=players):
        if game.phase is Phase.CHOOSE_TRUMP:
            game.apply(ChooseTrump(Suit.SPADES), by=game.dealer)
        assert game.phase is Phase.BID
        assert game.to_move == (game.dealer + 1) % players


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_seat_after_the_dealer_leads_the_first_trick(players: int) -> None:
    rng = random.Random(players)
    for game in round_starts(Game(players, seed=players), round_count(players), seed=players):
        while game.phase is not Phase.PLAY:
            game.apply(rng.choice(game.legal_actions()))
        assert game.to_move == game.trick_leader == (game.dealer + 1) % players


def test_bidding_goes_round_the_table_then_play_starts() -> None:
    game = bidding_game()
    order = []
    while game.phase is Phase.BID:
        order.append(game.to_move)
        game.apply(Bid(0))
    assert order == [1, 2, 0]
    assert game.phase is Phase.PLAY


def test_play_goes_round_the_table_from_the_leader() -> None:
    game = playing_game()
    order = []
    for _ in range(3):
        order.append(game.to_move)
        game.apply(game.legal_actions()[0])
    assert order == [1, 2, 0]


def test_the_trick_winner_leads_the_next_trick() -> None:
    game = playing_game()
    apply_all(game, [(1, play("H2")), (2, play("H13"))])
    applied = game.apply(play("H4"), by=0)
    assert applied.trick is not None
    assert applied.trick.winner == 2
    assert applied.trick.winning_card is Card.parse("H13")
    assert game.to_move == game.trick_leader == 2
    assert game.legal_actions() == [play("S5")]


def test_explicit_deal_gives_each_seat_its_hand() -> None:
    game = bidding_game()
    assert game.hands == [cards("S6 H4"), cards("H2 D9"), cards("H13 S5")]
    assert game.turned_up is Card.parse("C1")


def test_playable_cards_match_the_legal_plays() -> None:
    game = following_game()
    assert game.playable_cards() == [Card.parse("H13")]
    assert game.legal_actions() == [play("H13")]


def test_no_cards_are_playable_while_bidding() -> None:
    assert bidding_game().playable_cards() == []


# -- the "bids may not add up" variant -------------------------------------------------------


def bids_so_far(options: Options, *bids: int) -> Game:
    game = bidding_game(options)
    for bid in bids:
        game.apply(Bid(bid))
    return game


def test_variant_removes_the_forbidden_bid_from_the_last_bidders_choices() -> None:
    game = bids_so_far(VARIANT, 1, 0)
    assert game.to_move == 0
    assert game.forbidden_bid() == 1
    assert game.legal_actions() == [Bid(0), Bid(2)]


def test_variant_refuses_the_forbidden_bid() -> None:
    game = bids_so_far(VARIANT, 1, 0)
    before = game.snapshot()
    with pytest.raises(IllegalBidError) as raised:
        game.apply(Bid(1), by=0)
    assert raised.value.reason is Reason.BID_ADDS_UP
    assert game.snapshot() == before


def test_variant_accepts_the_other_bids_of_the_last_bidder() -> None:
    game = bids_so_far(VARIANT, 1, 0)
    game.apply(Bid(2), by=0)
    assert game.bids == [2, 1, 0]
    assert game.phase is Phase.PLAY


def test_variant_can_forbid_a_zero_bid() -> None:
    game = bids_so_far(VARIANT, 1, 1)
    assert game.forbidden_bid() == 0
    assert game.legal_actions() == [Bid(1), Bid(2)]


@pytest.mark.parametrize("bids", [(), (1,), (2,), (0,)])
def test_variant_does_not_restrict_bidders_before_the_last(bids: tuple[int, ...]) -> None:
    game = bids_so_far(VARIANT, *bids)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == [Bid(0), Bid(1), Bid(2)]


def test_variant_lets_the_first_bidder_bid_the_whole_round() -> None:
    game = bids_so_far(VARIANT)
    game.apply(Bid(2), by=1)
    assert game.bids == [None, 2, None]


def test_variant_forbids_nothing_when_the_others_bid_over_the_round() -> None:
    game = bids_so_far(VARIANT, 2, 2)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == [Bid(0), Bid(1), Bid(2)]


@pytest.mark.parametrize("bid", [0, 1, 2])
def test_variant_accepts_every_bid_when_the_others_bid_over_the_round(bid: int) -> None:
    game = bids_so_far(VARIANT, 2, 2)
    game.apply(Bid(bid), by=0)
    assert game.bids == [bid, 2, 2]


def test_without_the_variant_every_bid_is_legal_for_the_last_bidder() -> None:
    game = bids_so_far(PLAIN, 1, 0)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == [Bid(0), Bid(1), Bid(2)]
    game.apply(Bid(1), by=0)
    assert sum(bid for bid in game.bids if bid is not None) == 2


def test_the_variant_is_off_by_default() -> None:
    assert Options().bids_may_not_add_up is False


# -- refused actions -------------------------------------------------------------------------


class Sentinel:
    """An object that is not an action."""


REFUSALS: list[Any] = [
    # (state, action, by, error class, reason)
    pytest.param(bidding_game, Bid(0), 2, NotYourTurnError, Reason.NOT_YOUR_TURN, id="bid out of turn"),
    pytest.param(playing_game, play("H13"), 2, NotYourTurnError, Reason.NOT_YOUR_TURN, id="play out of turn"),
    pytest.param(choosing_game, ChooseTrump(Suit.CLUBS), 1, NotYourTurnError, Reason.NOT_YOUR_TURN, id="trump"),
    pytest.param(bidding_game, play("D9"), 1, WrongPhaseError, Reason.WRONG_PHASE, id="play while bidding"),
    pytest.param(bidding_game, ChooseTrump(Suit.CLUBS), 1, WrongPhaseError, Reason.WRONG_PHASE, id="trump bidding"),
    pytest.param(playing_game, Bid(0), 1, WrongPhaseError, Reason.WRONG_PHASE, id="bid while playing"),
    pytest.param(playing_game, ChooseTrump(Suit.CLUBS), 1, WrongPhaseError, Reason.WRONG_PHASE, id="trump playing"),
    pytest.param(choosing_game, Bid(0), 0, WrongPhaseError, Reason.WRONG_PHASE, id="bid before trump"),
    pytest.param(choosing_game, play("H1"), 0, WrongPhaseError, Reason.WRONG_PHASE, id="play before trump"),
    pytest.param(bidding_game, Bid(3), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="bid over the round"),
    pytest.param(bidding_game, Bid(21), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="bid over any round"),
    pytest.param(bidding_game, Bid(-1), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="negative bid"),
    pytest.param(bidding_game, Bid(True), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="bool bid"),
    pytest.param(bidding_game, Bid(False), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="bool False bid"),
    pytest.param(bidding_game, Bid(1.0), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="float bid"),  # type: ignore[arg-type]
    pytest.param(bidding_game, Bid("1"), 1, IllegalBidError, Reason.BID_OUT_OF_RANGE, id="string bid"),  # type: ignore[arg-type]
    pytest.param(playing_game, play("H13"), 1, IllegalPlayError, Reason.CARD_NOT_IN_HAND, id="another seat's card"),
    pytest.param(playing_game, play("C7"), 1, IllegalPlayError, Reason.CARD_NOT_IN_HAND, id="undealt card"),
    pytest.param(playing_game, play("C1"), 1, IllegalPlayError, Reason.CARD_NOT_IN_HAND, id="turned-up card"),
    pytest.param(following_game, play("H2"), 2, IllegalPlayError, Reason.CARD_NOT_IN_HAND, id="card already played"),
    pytest.param(playing_game, Play("H2"), 1, IllegalPlayError, Reason.CARD_NOT_IN_HAND, id="code not card"),  # type: ignore[arg-type]
    pytest.param(following_game, play("S5"), 2, IllegalPlayError, Reason.MUST_FOLLOW_SUIT, id="must follow suit"),
    pytest.param(choosing_game, ChooseTrump(None), 0, IllegalTrumpError, Reason.NOT_A_SUIT, id="no trump"),  # type: ignore[arg-type]
    pytest.param(finished_game, Bid(0), 0, WrongPhaseError, Reason.GAME_OVER, id="bid after the end"),
    pytest.param(finished_game, play("H1"), 0, WrongPhaseError, Reason.GAME_OVER, id="play after the end"),
    pytest.param(finished_game, Bid(0), None, WrongPhaseError, Reason.GAME_OVER, id="anyone after the end"),
    pytest.param(bidding_game, Sentinel(), 1, RuleError, Reason.UNKNOWN_ACTION, id="unknown object"),
    pytest.param(bidding_game, "bid 0", 1, RuleError, Reason.UNKNOWN_ACTION, id="string action"),
    pytest.param(bidding_game, {"bid": 0}, 1, RuleError, Reason.UNKNOWN_ACTION, id="JSON action"),
    pytest.param(bidding_game, None, 1, RuleError, Reason.UNKNOWN_ACTION, id="None action"),
    pytest.param(playing_game, Card.parse("H2"), 1, RuleError, Reason.UNKNOWN_ACTION, id="bare card"),
    pytest.param(bidding_game, Bid, 1, RuleError, Reason.UNKNOWN_ACTION, id="action class"),
]


@pytest.mark.parametrize(("state", "action", "by", "error", "reason"), REFUSALS)
def test_refused_action_raises_the_specific_error(
    state: Callable[[], Game], action: object, by: int | None, error: type[RuleError], reason: Reason
) -> None:
    game = state()
    with pytest.raises(RuleError) as raised:
        game.apply(action, by=by)  # type: ignore[arg-type]
    assert type(raised.value) is error
    assert raised.value.reason is reason


@pytest.mark.parametrize(("state", "action", "by", "error", "reason"), REFUSALS)
def test_refused_action_leaves_the_state_unchanged(
    state: Callable[[], Game], action: object, by: int | None, error: type[RuleError], reason: Reason
) -> None:
    game = state()
    before, legal = game.snapshot(), game.legal_actions()
    with pytest.raises(error):
        game.apply(action, by=by)  # type: ignore[arg-type]
    assert game.snapshot() == before
    assert game.legal_actions() == legal


def test_refused_action_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="does not follow"):
        following_game().apply(play("S5"))


def test_apply_without_by_acts_for_the_seat_to_move() -> None:
    game = bidding_game()
    applied = game.apply(Bid(1))
    assert applied.seat == 1
    assert game.bids == [None, 1, None]


# -- scoring ---------------------------------------------------------------------------------
#
# Four players in round 2, seat 0 deals, a Jester turned up (no trump). Seat 1 takes the heart
# trick with H13, seat 2 the spade trick with S13.
#   seat 0: D5 D6    seat 1: H13 S2    seat 2: H2 S13    seat 3: H3 S3
SCORING_DEAL = deal([["D5", "D6"], ["H13", "S2"], ["H2", "S13"], ["H3", "S3"]], "J1")
SCORING_PLAYS = ["H13", "H2", "H3", "D5", "S2", "S13", "S3", "D6"]


def scored_round(bids: list[int]) -> tuple[Game, Any]:
    """Play the scoring deal with `bids` in bidding order (seats 1, 2, 3, 0); return the game and the result."""
    game = Game(4, seed=3, deals={2: SCORING_DEAL}, first_dealer=0, start_round=2)
    for bid in bids:
        game.apply(Bid(bid))
    applied = None
    for code in SCORING_PLAYS:
        applied = game.apply(play(code))
    assert applied is not None
    return game, applied.round


def test_scoring_deal_gives_the_expected_tricks() -> None:
    _, result = scored_round([0, 0, 0, 0])
    assert result.tricks == (0, 1, 1, 0)


def test_round_scores_exact_bids_and_misses_both_ways() -> None:
    # seat 0 bid 0, took 0: 20; seat 1 bid 1, took 1: 30; seat 2 bid 0, took 1: -10; seat 3 bid 2, took 0: -20
    _, result = scored_round([1, 0, 2, 0])
    assert result.round == 2
    assert result.bids == (0, 1, 0, 2)
    assert result.points == (20, 30, -10, -20)
    assert result.totals == (20, 30, -10, -20)


def test_round_score_is_added_to_the_totals() -> None:
    game, result = scored_round([1, 0, 2, 0])
    assert game.scores == [20, 30, -10, -20]
    assert game.history == [result]


def test_the_next_round_is_dealt_after_scoring() -> None:
    game, _ = scored_round([1, 0, 2, 0])
    assert game.round == 3
    assert game.dealer == 1
    assert [len(hand) for hand in game.hands] == [3, 3, 3, 3]
    assert game.bids == [None] * 4
    assert game.tricks_won == [0] * 4


@pytest.mark.parametrize(
    ("bids", "winners"),
    [
        pytest.param([1, 0, 2, 0], [1], id="one winner"),
        pytest.param([1, 1, 0, 0], [1, 2], id="two tie"),
        pytest.param([0, 0, 1, 1], [0, 1, 2, 3], id="all tie"),
    ],
)
def test_winners_are_the_seats_with_the_highest_total(bids: list[int], winners: list[int]) -> None:
    game, _ = scored_round(bids)
    assert game.winners() == winners


def test_everyone_shares_the_win_before_any_score() -> None:
    assert Game(5, seed=1).winners() == [0, 1, 2, 3, 4]


def test_the_game_ends_after_the_last_round() -> None:
    game = finished_game()
    assert game.phase is Phase.GAME_OVER
    assert game.is_over
    assert game.to_move is None
    assert game.legal_actions() == []
    assert len(game.history) == 1
    assert game.scores == list(game.history[-1].totals)


# -- what a player may see -------------------------------------------------------------------


def observed_states() -> Iterator[Game]:
    """A four-player game at every step of its first four rounds."""
    game = Game(4, seed=8)
    rng = random.Random(8)
    while game.round <= 4:
        yield game
        game.apply(rng.choice(game.legal_actions()))


def test_reachable_cards_finds_cards_in_nested_values() -> None:
    nested = {"a": [(Card.parse("H1"),)], Card.parse("W2"): frozenset({Card.parse("J3")})}
    assert sorted(card.code for card in reachable_cards(nested)) == ["H1", "J3", "W2"]


def test_reachable_cards_rejects_an_unknown_container() -> None:
    with pytest.raises(AssertionError, match="unexpected"):
        list(reachable_cards(Sentinel()))


def test_observation_shows_no_card_outside_the_own_hand_except_the_table() -> None:
    checked = 0
    for game in observed_states():
        for seat in range(game.players):
            own = set(game.hands[seat])
            leaked = [card for card in private_cards(game.observation(seat)) if card not in own]
            assert leaked == [], f"seat {seat} sees {leaked} in round {game.round}"
            checked += 1
    assert checked > 100


def test_observation_hand_is_the_seats_own_hand() -> None:
    for game in observed_states():
        for seat in range(game.players):
            assert game.observation(seat).hand == tuple(game.hands[seat])


def test_observation_turned_up_card_is_in_nobodys_hand() -> None:
    for game in observed_states():
        observation = game.observation(0)
        assert observation.turned_up is game.turned_up
        assert all(observation.turned_up not in hand for hand in game.hands)


def test_observation_shows_the_legal_actions_only_to_the_seat_to_move() -> None:
    for game in observed_states():
        for seat in range(game.players):
            expected = tuple(game.legal_actions()) if seat == game.to_move else ()
            assert game.observation(seat).legal == expected


def test_observation_after_the_game_offers_no_actions() -> None:
    game = finished_game()
    assert all(game.observation(seat).legal == () for seat in range(6))


def test_observation_shows_the_public_table() -> None:
    game = following_game()
    observation = game.observation(0)
    assert observation.trick == (Card.parse("H2"),)
    assert observation.trick_leader == 1
    assert observation.hand_sizes == (2, 1, 2)
    assert observation.bids == (0, 0, 0)
    assert observation.trump is Suit.CLUBS
    assert observation.phase is Phase.PLAY
    assert observation.to_move == 2


@pytest.mark.parametrize("seat", [-1, 3])
def test_observation_of_an_unknown_seat_raises(seat: int) -> None:
    with pytest.raises(ValueError, match="no seat"):
        bidding_game().observation(seat)


# -- creating games --------------------------------------------------------------------------

FULL_DECK_HANDS = [[card.code for card in DECK[seat::3]] for seat in range(3)]


@pytest.mark.parametrize(
    ("round_number", "hands", "turned_up", "message"),
    [
        pytest.param(1, [["H1"], ["S2"]], "D3", "deals 1 cards to each of 3", id="too few hands"),
        pytest.param(1, [["H1"], ["S2"], ["D3"], ["C4"]], "D5", "deals 1 cards to each of 3", id="too many hands"),
        pytest.param(2, [["H1", "H2"], ["S2"], ["D3", "D4"]], "C1", "deals 2 cards", id="a hand too short"),
        pytest.param(1, [["H1", "H2"], ["S2"], ["D3"]], "C1", "deals 1 cards", id="a hand too long"),
        pytest.param(2, [["H1", "H1"], ["S2", "S3"], ["D3", "D4"]], "C1", "twice", id="duplicate within a hand"),
        pytest.param(1, [["H1"], ["H1"], ["D3"]], "C1", "twice", id="duplicate across hands"),
        pytest.param(1, [["H1"], ["S2"], ["D3"]], "S2", "twice", id="turned-up card also dealt"),
        pytest.param(1, [["H1"], ["S2"], ["D3"]], None, "turned up", id="no turned-up card with deck left"),
        pytest.param(20, FULL_DECK_HANDS, "W1", "twice|turned up", id="turned-up card with the full deck"),
        pytest.param(21, [["H1"]] * 3, "C1", "no round 21", id="round after the last"),
        pytest.param(0, [[]] * 3, "C1", "no round 0", id="round zero"),
    ],
)
def test_explicit_deal_is_validated(
    round_number: int, hands: list[list[str]], turned_up: str | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Game(3, seed=1, deals={round_number: deal(hands, turned_up)})


def test_explicit_deal_of_the_whole_deck_without_turned_up_card_is_accepted() -> None:
    game = Game(3, seed=1, deals={20: deal(FULL_DECK_HANDS, None)}, start_round=20)
    assert game.hands == [list(DECK[seat::3]) for seat in range(3)]


def test_explicit_deal_before_the_start_round_is_refused() -> None:
    with pytest.raises(ValueError, match="no round 1"):
        Game(3, seed=1, deals={1: deal([["H1"], ["S2"], ["D3"]], "C1")}, start_round=2)


def test_explicit_deal_of_something_not_a_card_is_refused() -> None:
    hands = (("H1",), (Card.parse("S2"),), (Card.parse("D3"),))
    with pytest.raises(ValueError, match="round 1"):
        Game(3, seed=1, deals={1: Deal(hands, Card.parse("C1"))})  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [0, 1, 2, 7])
def test_game_needs_3_to_6_players(players: int) -> None:
    with pytest.raises(ValueError, match="3-6 players"):
        Game(players)


@pytest.mark.parametrize(("players", "start_round"), [(3, 0), (3, 21), (6, 11), (4, -1)])
def test_start_round_must_be_a_round_of_the_game(players: int, start_round: int) -> None:
    with pytest.raises(ValueError, match="start_round"):
        Game(players, start_round=start_round)


@pytest.mark.parametrize(("players", "first_dealer"), [(3, -1), (3, 3), (6, 6)])
def test_first_dealer_must_be_a_seat(players: int, first_dealer: int) -> None:
    with pytest.raises(ValueError, match="first_dealer"):
        Game(players, first_dealer=first_dealer)


def test_deal_hands_builds_hands_from_codes() -> None:
    assert deal_hands([["H1"], ["W1", "J2"]]) == ((Card.parse("H1"),), (Card.parse("W1"), Card.parse("J2")))


# -- JSON ------------------------------------------------------------------------------------


def json_round_trip(game: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(game.to_json())))


def test_json_round_trip_keeps_explicit_deals() -> None:
    game = following_game()
    assert json_round_trip(game).snapshot() == game.snapshot()


def test_json_round_trip_keeps_the_options() -> None:
    game = bids_so_far(VARIANT, 1, 0)
    restored = json_round_trip(game)
    assert restored.options == VARIANT
    assert restored.legal_actions() == [Bid(0), Bid(2)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_json_round_trip_of_a_new_game_with_a_drawn_first_dealer(players: int) -> None:
    game = Game(players, seed=5)
    assert json_round_trip(game).snapshot() == game.snapshot()


@pytest.mark.parametrize("version", [None, 0, 2, "1"])
def test_from_json_refuses_another_version(version: object) -> None:
    data = bidding_game().to_json()
    data["version"] = version
    with pytest.raises(ValueError, match="version"):
        Game.from_json(data)


def test_from_json_refuses_unknown_options() -> None:
    data = bidding_game().to_json()
    data["options"] = {"bids_may_not_add_up": False, "no_such_rule": True}
    with pytest.raises(ValueError, match="unknown options"):
        Game.from_json(data)


def test_from_json_refuses_an_illegal_log() -> None:
    data = bidding_game().to_json()
    data["log"] = [[1, {"bid": 3}]]
    with pytest.raises(IllegalBidError):
        Game.from_json(data)
