"""The hard level's reading of the others' plays, its dealing around it, and its lean rollouts."""

from __future__ import annotations

import random

import pytest

from bot.ai import HardPlayer
from bot.ai.knowledge import Hint, knowledge, play_hints
from bot.ai.players import read_hand, suit_id
from bot.ai.policy import VALUES, estimate_tricks, value_context, void_mask
from bot.ai.sampling import deal_unseen
from bot.ai.table import rollout
from bot.engine import DECK, Card, Game, Play, Suit

from .support import cards, situation


def mask(codes: str) -> int:
    return sum(1 << card.index for card in cards(codes))


def held(hint: Hint, codes: str) -> bool:
    """Whether `hint` rules out any of the cards `codes`."""
    return bool(hint.cards & mask(codes))


# Hearts are trump (H1 turned up); seat 0 leads S10 in each. Bids by seat; plays in turn order.
HANDS = ["S10 C6 D1 D2", "S12 S3 H5 C2", "S7 D8 H2 C9", "S5 C3 D4 W1"]


@pytest.mark.parametrize(
    ("bids", "plays", "seat", "ruled_out", "kept"),
    [
        # Seat 3 needs its trick, plays last and lets S10 go with S5: no higher spade, no Wizard
        # (a trump was not its to play, holding a spade), and no lower spade kept instead of S5.
        ([1, 0, 0, 1], "S10 S3 S7 S5", 3, "S11 S13 W2 S4", "S6 H9 C12"),
        # Seat 2 needs a trick and follows with S7 under S10, others to come: the same, less trusted.
        ([1, 0, 1, 1], "S10 S3 S7", 2, "S2 S6 S13 W3", "S8 S9 H9"),
        # Seat 1 bid 0 and follows S10 with S3: no spade between them, which it would have shed first.
        ([1, 0, 1, 1], "S10 S3", 1, "S4 S9", "S2 S11"),
        # Seat 1 bid 0 yet took S10 with S12: it held no spade under S10 nor a Jester to duck with.
        ([1, 0, 1, 1], "S10 S12", 1, "S2 S9 J2", "S11 S13"),
    ],
)
def test_plays_rule_out_the_cards_that_would_have_served_better(
    bids: list[int], plays: str, seat: int, ruled_out: str, kept: str
) -> None:
    game = situation(HANDS, "H1", dealer=3, bids=bids, plays=plays)
    observation = game.observation(game.to_move or 0)
    hints = [hint for hint in play_hints(observation) if hint.seat == seat]
    assert all(any(held(hint, code) for hint in hints) for code in ruled_out.split())
    assert not any(held(hint, code) for hint in hints for code in kept.split())


def test_a_wizard_or_a_trump_kept_back_is_read_less_surely_than_a_higher_plain_card() -> None:
    # Seat 3 needs its trick and lets S10 go with S5, last to play: it may have saved a Wizard
    # for a trick it could not otherwise take, but it would have taken this one with a higher spade.
    game = situation(HANDS, "H1", dealer=3, bids=[1, 0, 0, 1], plays="S10 S3 S7 S5")
    hints = [hint for hint in play_hints(game.observation(0)) if hint.seat == 3]
    spade = max(hint.trust for hint in hints if held(hint, "S11"))
    wizard = max(hint.trust for hint in hints if held(hint, "W2"))
    assert wizard < spade


def test_a_seat_whose_later_play_broke_the_rule_is_not_read_by_it() -> None:
    # Seat 3 needed a trick and let S12 go with S5 while holding its Wizard, which it plays next:
    # its first play said nothing about Wizards.
    game = situation(
        ["S10 C6 D1", "S12 S3 H5", "S7 D8 H2", "S5 C3 W1"],
        "H1",
        dealer=3,
        bids=[0, 1, 0, 1],
        plays="S10 S12 S7 S5  S3 D8 W1",
    )
    observation = game.observation(game.to_move or 0)
    assert not any(hint.seat == 3 and held(hint, "W1 W2") for hint in play_hints(observation))


def test_its_own_plays_and_leads_are_not_read() -> None:
    # Seat 0 led, seat 1 (the reader) followed: only seats 2 and 3 are read.
    game = situation(HANDS, "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10 S3 S7 S5")
    assert {hint.seat for hint in play_hints(game.observation(1))} == {2, 3}


@pytest.mark.parametrize("seed", range(20))
def test_dealt_cards_avoid_the_seats_that_lack_them(seed: int) -> None:
    rng = random.Random(seed)
    unseen = list(DECK[:30])
    absent = [0, mask("S1 S2 S3 S4 S5 S6 W1"), 0, mask("S7 S8 S9")]
    voids = [0, 0, void_mask({DECK[20].suit}), 0]  # type: ignore[arg-type]
    hands = deal_unseen(rng, unseen, [0, 8, 8, 8], voids, 0, absent)
    assert [len(hand) for hand in hands] == [0, 8, 8, 8]
    assert not any(absent[seat] >> card.index & 1 for seat, hand in enumerate(hands) for card in hand)
    assert not any(card.suit is DECK[20].suit for card in hands[2])


def test_cards_no_seat_may_hold_cannot_be_dealt() -> None:
    # Eight cards for seats 1 and 2, but seat 2 may not get five of the eight unseen.
    unseen = list(DECK[:8])
    with pytest.raises(ValueError, match="absent"):
        deal_unseen(random.Random(0), unseen, [0, 4, 4], [0, 0, 0], 0, [0, 0, mask("S1 S2 S3 S4 S5")])


@pytest.mark.parametrize(("trust", "ever"), [(1.0, False), (0.0, True)])
def test_a_hint_is_taken_with_its_trust(trust: float, ever: bool) -> None:
    game = situation(HANDS, "H1", dealer=3, bids=[1, 0, 1, 1], plays="S10")
    observation = game.observation(1)
    facts = knowledge(observation)
    player = HardPlayer(random.Random(3), attempts=1)
    hint = Hint(2, mask("W1 W2 W3 W4"), trust)
    worlds = [hands for _ in range(200) for hands, _ in player.sample_deals(observation, facts, [hint])]
    assert any(card.kind.value == "W" for world in worlds for card in world[2]) is ever


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
    taken = rollout(
        [[card.index for card in hand] for hand in game.hands],
        suit_id(game.trump),
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
        ("S13 S11", "S10", 0, "S13"),  # every card takes it, last to play: the strongest
        ("S3 C13 H2", "W1", 0, "H2"),  # behind a Wizard anything loses: the most dangerous card, a trump
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
        [[card.index for card in cards] for cards in hands],
        suit_id(Card.parse("H1").suit),
        [0, 0, need],
        0,
        [Card.parse("J4").index, Card.parse(trick).index],
        record,
    )
    assert DECK[record[0]] == Card.parse(played)


@pytest.mark.parametrize("seed", range(10))
def test_the_one_pass_hand_reading_agrees_with_the_normal_estimate(seed: int) -> None:
    # `bid_likelihood` reads thousands of hands a move with `read_hand`, not `estimate_tricks`.
    rng = random.Random(seed)
    players = 3 + seed % 4
    size = rng.randrange(1, 60 // players)  # the last round (no trump, no card turned up) aside
    trump = rng.choice([None, *Suit])
    turned_up = rng.choice(DECK)
    hand = rng.sample([card for card in DECK if card is not turned_up], size)
    row = VALUES[value_context(players, size, trump)]
    known = bytearray(60)
    for card in [*hand, turned_up]:
        known[card.index] = 1
    estimate = read_hand(hand, row, suit_id(trump), 1 << turned_up.index)[0]
    assert estimate == pytest.approx(estimate_tricks(hand, trump, players, known), abs=1e-9)
