"""The blunders no level may make, in hand-built situations."""

from __future__ import annotations

import pytest

from bot.ai import Level
from bot.engine import Bid, ChooseTrump, Play, Suit

from .support import LEVELS, cards, situation, small_player


@pytest.mark.parametrize("level", LEVELS)
def test_last_bidder_under_the_variant_does_not_bid_zero_holding_a_wizard(level: Level) -> None:
    # Seat 3 deals and bids last; the others bid 1 in all, so 1 is forbidden: 0 or 2 remain.
    game = situation(["H3 C4", "D5 C6", "S7 D8", "W1 S2"], "C9", dealer=3, bids=[1, 0, 0], variant=True)
    observation = game.observation(3)
    assert Bid(1) not in observation.legal
    action = small_player(level).choose(observation)
    assert action == Bid(2)


@pytest.mark.parametrize("level", LEVELS)
def test_last_bidder_under_the_variant_bids_at_least_its_wizards(level: Level) -> None:
    # Two Wizards in three cards; the others bid 2 in all, so 1 is forbidden: 0, 2 or 3 remain.
    game = situation(["H3 C4 S5", "D5 C6 D1", "S7 D8 H2", "W1 W2 S2"], "C9", dealer=3, bids=[1, 1, 0], variant=True)
    action = small_player(level).choose(game.observation(3))
    assert isinstance(action, Bid)
    assert action.tricks >= 2


@pytest.mark.parametrize("level", LEVELS)
def test_needing_every_trick_it_does_not_lead_low(level: Level) -> None:
    # Hearts are trump. Seat 0 bid 3 with three cards: it must lead a winner, not the two of spades.
    game = situation(["W1 H13 S2", "D5 C6 D1", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[3, 0, 0, 0])
    action = small_player(level).choose(game.observation(0))
    assert action != Play(cards("S2").pop())


@pytest.mark.parametrize("level", LEVELS)
def test_needing_both_last_tricks_it_leads_the_top_trump(level: Level) -> None:
    # Seat 0 took the first trick with its Wizard and needs the last two: H13 first, not S2.
    game = situation(
        ["W1 H13 S2", "D5 C6 D1", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[3, 0, 0, 0], plays="W1 D5 D8 C3"
    )
    observation = game.observation(0)
    assert observation.to_move == 0
    action = small_player(level).choose(observation)
    assert action == Play(cards("H13").pop())


@pytest.mark.parametrize("level", LEVELS)
def test_at_its_bid_it_plays_under_the_led_card(level: Level) -> None:
    # Seat 1 bid 0; spades are led with S10: it must follow with S3, not take the trick with S12.
    game = situation(["S10 C6 D1", "S12 S3 H5", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10")
    action = small_player(level).choose(game.observation(1))
    assert action == Play(cards("S3").pop())


@pytest.mark.parametrize("level", LEVELS)
def test_at_its_bid_it_does_not_trump_in(level: Level) -> None:
    # Seat 1 bid 0 and has no spade: it may trump with H5 but must throw a club or a diamond instead.
    game = situation(["S10 C6 D1", "H5 C2 D4", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10")
    action = small_player(level).choose(game.observation(1))
    assert isinstance(action, Play)
    assert action.card in cards("C2 D4")


@pytest.mark.parametrize("level", LEVELS)
def test_past_its_bid_it_still_ducks(level: Level) -> None:
    # Seat 1 bid 0 but took the first trick; in the third, D3 keeps it from a second one, D13 would not.
    game = situation(
        ["S10 C6 D9 D2", "S12 C2 D13 D3", "S7 C8 D5 C9", "S5 C3 D4 C10"],
        "H1",
        dealer=3,
        bids=[1, 0, 1, 1],
        plays="S10 S12 S7 S5  C2 C8 C10 C6  D4 D9",
    )
    observation = game.observation(1)
    assert observation.tricks_won[1] == 1
    assert observation.to_move == 1
    assert small_player(level).choose(observation) == Play(cards("D3").pop())


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_at_its_bid_it_sheds_its_wizard_behind_another(level: Level) -> None:
    # A Wizard was led, so seat 1's Wizard cannot win this trick: a safe moment to get rid of it.
    game = situation(["W1 C6 D1", "W2 S3 S4", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[1, 0, 1, 1], plays="W1")
    action = small_player(level).choose(game.observation(1))
    assert action == Play(cards("W2").pop())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("hand", "suit"),
    [
        ("H13 H11 H7 H2 S3", Suit.HEARTS),  # count and rank
        ("D12 D10 D4 S13 C2", Suit.DIAMONDS),  # count beats one high card
        ("C13 C12 S2 S3 J1", Suit.CLUBS),  # rank breaks a tie in count
    ],
)
def test_dealer_names_its_strongest_suit_after_a_turned_up_wizard(level: Level, hand: str, suit: Suit) -> None:
    others = ["D1 D2 D3 C1 C3", "S5 S6 S7 S8 S9", "H1 H3 H4 H5 H6"]
    used = set(" ".join(others).split())
    assert not used & set(hand.split())
    game = situation([*others, hand], "W3", dealer=3)
    observation = game.observation(3)
    assert observation.to_move == 3
    assert small_player(level).choose(observation) == ChooseTrump(suit)


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_needing_a_trick_it_cannot_win_it_throws_a_low_card_not_its_jester(level: Level) -> None:
    # A Wizard was led, so nothing wins this trick; seat 1 bid 1. The two of clubs does the job
    # of a throw-away as well as the Jester, which it keeps to duck a trick once it has its bid.
    game = situation(["W1 C6 D1", "J1 C2 D13", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[1, 1, 0, 1], plays="W1")
    action = small_player(level).choose(game.observation(1))
    assert action == Play(cards("C2").pop())


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_third_in_seat_it_wins_with_its_13_and_keeps_its_wizard(level: Level) -> None:
    # No trump (a Jester turned up). Spades are led; seat 2 needs two of its three tricks. Its 13
    # is the top spade, beaten only by a Wizard from the last seat, and the Wizard it keeps takes
    # a trick whenever it likes; played now, the Wizard would leave the 13 to fend for itself.
    game = situation(
        ["S5 D3 D4", "S7 H2 H3", "W1 S13 C2", "C5 C6 D8"], "J1", dealer=3, bids=[1, 0, 2, 1], plays="S5 S7"
    )
    action = small_player(level).choose(game.observation(2))
    assert action == Play(cards("S13").pop())


def test_at_its_bid_normal_spends_its_wizard_to_deny_a_trick_an_opponent_needs() -> None:
    # Seat 1 bid 0 and holds a Wizard, which takes a trick whenever it is played: taking this one,
    # which seat 0 needs for its bid of 1, costs seat 1 nothing more and breaks seat 0's bid. (The
    # hard level weighs the Wizard against ducking by its search.)
    game = situation(["S10 C6 D1", "W1 S3 H5", "S7 D8 H2", "C3 C4 S5"], "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10")
    action = small_player(Level.NORMAL).choose(game.observation(1))
    assert action == Play(cards("W1").pop())
