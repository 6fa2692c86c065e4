"""The search yardstick of `python -m bot.simulate`: plain determinized search plays legally,
deals only what is consistent with what it saw, and its rollouts keep the engine's rules."""

from __future__ import annotations

import random

import pytest

from bot.engine import DECK, Action, Bid, Card, Game, Options, Play, Suit
from bot.simulate.pimc import PimcPlayer, deal, rollout, same_play, seen

from .support import cards, play_game, situation


@pytest.mark.parametrize(("players", "seed", "variant"), [(3, 1, True), (4, 2, False), (6, 3, True)])
def test_it_plays_whole_games_legally(players: int, seed: int, variant: bool) -> None:
    game = Game(players, seed, Options(bids_may_not_add_up=variant))
    play_game(game, [PimcPlayer(random.Random(seat), budget=300, min_worlds=2) for seat in range(players)])
    assert game.is_over


def test_it_plays_the_last_round_and_a_blind_first_round_legally() -> None:
    game = Game(4, 5, start_round=15)
    play_game(game, [PimcPlayer(random.Random(seat), budget=300, min_worlds=2) for seat in range(4)])
    blind = Game(4, 6, Options(blind_first_round=True, rounds=2))
    play_game(blind, [PimcPlayer(random.Random(seat), budget=300, min_worlds=2) for seat in range(4)])
    assert game.is_over
    assert blind.is_over


def test_the_same_seed_makes_the_same_choices() -> None:
    def run() -> list[tuple[int, Action]]:
        game = Game(4, 8, Options(rounds=6))
        return play_game(game, [PimcPlayer(random.Random(seat), budget=2000) for seat in range(4)])

    assert run() == run()


@pytest.mark.parametrize("number", range(30))
def test_rollouts_play_legally_and_count_tricks_as_the_engine(number: int) -> None:
    rng = random.Random(number)
    players = 3 + number % 4
    game = Game(players, number, start_round=1 + number % (60 // players))
    while game.phase.value != "play":
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(rng.randrange(game.round * players)):
        game.apply(rng.choice(game.legal_actions()))
    start = list(game.tricks_won)
    record: list[int] = []
    trump = -1 if game.trump is None else list(Suit).index(game.trump)
    taken = rollout(
        [[card.index for card in hand] for hand in game.hands],
        trump,
        [(bid or 0) - won for bid, won in zip(game.bids, game.tricks_won, strict=True)],
        game.trick_leader,
        [card.index for card in game.trick],
        record,
    )
    last = game.round
    for index in record:
        assert DECK[index] in game.playable_cards()
        game.apply(Play(DECK[index]))
    assert game.round != last or game.is_over
    assert [won + more for won, more in zip(start, taken, strict=True)] == list(game.history[-1].tricks)


@pytest.mark.parametrize(
    ("hand", "trick", "need", "played"),
    [
        ("S13 S11 S4 J1", "S10", 1, "S11"),  # needs a trick: the cheapest card that takes it
        ("S13 S11 S4 J1", "S10", 0, "S4"),  # at its bid: the highest card that loses
        ("S9 S4 J1", "S10", 1, "S4"),  # cannot take it: a low card, the Jester is kept
        ("S11 S10 J1", "S12", 1, "J1"),  # cannot take it: the Jester before a plain 10
        ("S13 S11", "S10", 0, "S13"),  # every card takes it, last to play: the strongest
        ("S3 C13 H2", "W1", 0, "H2"),  # behind a Wizard anything loses: the strongest, a trump
        ("S3 C13 H2", "J3", 1, "S3"),  # on Jesters alone any card takes the trick: the cheapest
        ("S3 C13 J1", "J3", 0, "J1"),  # on Jesters alone only a Jester loses
    ],
)
def test_the_rollout_policy(hand: str, trick: str, need: int, played: str) -> None:
    # Three players, hearts trump: seat 0 led a Jester, seat 1 played `trick`, seat 2 decides.
    own = [Card.parse(code) for code in hand.split()]
    others = [card for card in DECK[26:52] if card not in own]
    hands = [others[: len(own) - 1], others[len(own) : 2 * len(own) - 1], own]
    record: list[int] = []
    rollout(
        [[card.index for card in held] for held in hands],
        list(Suit).index(Suit.HEARTS),
        [0, 0, need],
        0,
        [Card.parse("J4").index, Card.parse(trick).index],
        record,
    )
    assert DECK[record[0]] == Card.parse(played)


def test_deals_keep_hand_sizes_and_the_suits_a_seat_lacks() -> None:
    # Seat 1 and seat 3 did not follow hearts; seat 2 did not follow spades.
    game = situation(
        ["H13 H12 S2", "C5 D7 C9", "H3 D2 C2", "D9 C7 D5"],
        "D1",
        dealer=3,
        bids=[1, 0, 1, 1],
        plays="H13 C5 H3 D9",
    )
    observation = game.observation(0)
    unseen, voids, _ = seen(observation)
    hearts = list(Suit).index(Suit.HEARTS)
    assert voids == [0, 1 << hearts, 0, 1 << hearts]
    assert cards("H12 S2") == {card for card in observation.hand}
    rng = random.Random(4)
    for _ in range(200):
        hands = deal(rng, unseen, observation.hand_sizes, voids, [1, 2, 3])
        assert [len(hand) for hand in hands] == [0, 2, 2, 2]
        for seat in (1, 3):
            assert all(index >= 52 or index // 13 != hearts for index in hands[seat])
        dealt = [index for hand in hands for index in hand]
        assert len(set(dealt)) == len(dealt)
        assert set(dealt) <= set(unseen)


def test_a_tight_deal_is_found_when_one_exists() -> None:
    # Seats 2 and 3 lack hearts and seat 1 has room for exactly the hearts left: every deal gives
    # it all of them, however the shuffle falls.
    hearts = [Card.number(Suit.HEARTS, rank).index for rank in (2, 5, 8, 11)]
    spades = [Card.number(Suit.SPADES, rank).index for rank in range(1, 7)]
    lack = 1 << list(Suit).index(Suit.HEARTS)
    for seed in range(50):
        hands = deal(random.Random(seed), hearts + spades, [0, 4, 3, 3], [0, 0, lack, lack], [1, 2, 3])
        assert sorted(hands[1]) == hearts
        assert sorted(hands[2] + hands[3]) == spades


def test_a_deal_the_shuffle_paints_into_a_corner_is_mended() -> None:
    # Hearts may go to seats 1 and 2, spades to seats 2 and 3. When both hearts land in seat 2,
    # the second spade finds no room until a heart moves on to seat 1.
    hearts = [Card.number(Suit.HEARTS, rank).index for rank in (3, 9)]
    spades = [Card.number(Suit.SPADES, rank).index for rank in (4, 7)]
    lack_hearts = 1 << list(Suit).index(Suit.HEARTS)
    lack_spades = 1 << list(Suit).index(Suit.SPADES)
    for seed in range(100):
        hands = deal(random.Random(seed), hearts + spades, [0, 1, 2, 1], [0, lack_spades, 0, lack_hearts], [1, 2, 3])
        assert [len(hand) for hand in hands] == [0, 1, 2, 1]
        assert hands[1][0] in hearts
        assert hands[3][0] in spades
        assert sorted(hands[1] + hands[2] + hands[3]) == sorted(hearts + spades)


def test_cards_that_play_alike_are_searched_once() -> None:
    hand = [Card.parse(code) for code in ["S9", "S11", "S12", "W1", "W2", "J1", "H4"]]
    gone = {Card.parse("S10").index} | {card.index for card in hand}
    assert {card.code for card in same_play(hand, gone)} == {"S9", "W1", "J1", "H4"}


def test_at_its_bid_it_plays_under_the_led_card() -> None:
    # Seat 1 bid 0 and holds a spade that takes the trick and one that does not.
    game = situation(["S10 C2", "S13 S4", "D5 D6", "H7 H8"], "C1", dealer=3, bids=[1, 0, 0, 1], plays="S10")
    player = PimcPlayer(random.Random(1), budget=4000)
    assert player.choose(game.observation(1)) == Play(Card.parse("S4"))


def test_holding_two_wizards_in_a_round_of_two_it_bids_two() -> None:
    game = situation(["W1 W2", "S13 S4", "D5 D6", "H7 H8"], "C1", dealer=3)
    assert PimcPlayer(random.Random(1), budget=4000).choose(game.observation(0)) == Bid(2)
