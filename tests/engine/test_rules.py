"""Each rule of Wizard as a pure function, on hand-built tricks and hands."""

from __future__ import annotations

import pytest

from bot.engine import Card, Suit
from bot.engine.rules import (
    forbidden_bid,
    led_suit,
    legal_cards,
    round_count,
    round_points,
    trick_winner,
    trump_from_turned_up,
)
from tests.engine.support import cards

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


# -- the led suit ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "led"),
    [
        pytest.param("", None, id="empty trick is open"),
        pytest.param("H5", H, id="a suited lead sets its suit"),
        pytest.param("H5 S9 W1", H, id="later cards do not change the suit"),
        pytest.param("J1", None, id="a Jester lead leaves the suit open"),
        pytest.param("J1 J2", None, id="Jesters only leave the suit open"),
        pytest.param("J1 D4", D, id="after a Jester lead the first suited card sets the suit"),
        pytest.param("J1 J3 C2 H13", C, id="after several Jesters the first suited card sets the suit"),
        pytest.param("W1", None, id="a Wizard lead frees the trick"),
        pytest.param("W1 H5", None, id="a suited card after a Wizard lead does not set a suit"),
        pytest.param("J1 W2 H5", None, id="a Wizard after a Jester lead frees the trick"),
        pytest.param("H5 W2", H, id="a Wizard after a suited lead does not free the trick"),
    ],
)
def test_led_suit(trick: str, led: Suit | None) -> None:
    assert led_suit(cards(trick)) is led


# -- following suit --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "trick", "playable"),
    [
        pytest.param("H2 S3 W1 J1", "", "H2 S3 W1 J1", id="the leader plays any card"),
        pytest.param("H2 H9 S3 W1 J1", "H5", "H2 H9 W1 J1", id="must follow but may play a Wizard or a Jester"),
        pytest.param("H2 H9 S3 D4", "H5", "H2 H9", id="must follow the led suit"),
        pytest.param("S3 D4 C13", "H5", "S3 D4 C13", id="without the led suit any card"),
        pytest.param("S3 W1 J2 D4", "H5", "S3 W1 J2 D4", id="only Wizards, Jesters and off-suit cards: all playable"),
        pytest.param("W1 J2", "H5", "W1 J2", id="only Wizards and Jesters: all playable"),
        pytest.param("H2 S3 D4", "J1 S5", "S3", id="after a Jester lead the suited card sets what to follow"),
        pytest.param("H2 S3 J4", "J1 J2 S5", "S3 J4", id="after several Jesters the suited card sets what to follow"),
        pytest.param("H2 S3 D4", "J1", "H2 S3 D4", id="after a Jester lead alone any card"),
        pytest.param("H2 S3 D4", "J1 W2", "H2 S3 D4", id="a Wizard after a Jester lead frees the trick"),
        pytest.param("H2 S3 D4", "W1", "H2 S3 D4", id="a Wizard lead frees the trick"),
        pytest.param("H2 S3 D4", "W1 S5", "H2 S3 D4", id="the trick stays free after a Wizard lead"),
        pytest.param("H2 S3 D4", "S5 W1", "S3", id="a later Wizard does not free the trick"),
    ],
)
def test_legal_cards(hand: str, trick: str, playable: str) -> None:
    assert legal_cards(cards(hand), led_suit(cards(trick))) == cards(playable)


def test_legal_cards_returns_a_new_list() -> None:
    hand = cards("H2 S3")
    result = legal_cards(hand, None)
    result.pop()
    assert hand == cards("H2 S3")


# -- the winner of a trick -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        pytest.param("H5 H11 H2", None, 1, id="highest of the led suit wins without trump"),
        pytest.param("H5 H11 H2", C, 1, id="highest of the led suit wins when nobody trumps"),
        pytest.param("H2 S13 D13", C, 0, id="off-suit high cards lose"),
        pytest.param("H2 S13", None, 0, id="off-suit high card loses without trump"),
        pytest.param("H13 S1 H12", S, 1, id="a low trump beats the led suit"),
        pytest.param("H13 S2 S9 S5", S, 2, id="the highest trump wins"),
        pytest.param("S2 H13", S, 0, id="a trump lead beats higher cards of other suits"),
        pytest.param("H13 S13 W4", S, 2, id="a Wizard beats trump"),
        pytest.param("H13 W2 S1", H, 1, id="a Wizard after a led suit wins"),
        pytest.param("H2 W3 W1", None, 1, id="the first of two Wizards wins"),
        pytest.param("W4 W1 W2 W3", None, 0, id="the first of four Wizards wins"),
        pytest.param("W1 H13 S13", S, 0, id="a Wizard lead wins"),
        pytest.param("J1 J2 J3", None, 0, id="all Jesters: the first Jester wins"),
        pytest.param("J3 J1 J4 J2", S, 0, id="all Jesters with trump: the first Jester wins"),
        pytest.param("H2 J1", None, 0, id="a Jester loses to the led suit"),
        pytest.param("J1 H5 H9 S13", None, 2, id="after a Jester lead the suited card sets the led suit"),
        pytest.param("J1 J2 D3 D1", None, 2, id="after Jesters the first suited card sets the led suit"),
        pytest.param("J1 H13 S1", S, 2, id="trump beats the suit set after a Jester lead"),
        pytest.param("J1 W1 H13", H, 1, id="a Wizard after a Jester lead wins"),
        pytest.param("J1 H3 J2 H4 J3 H2", None, 3, id="six players with Jesters among the led suit"),
    ],
)
def test_trick_winner(trick: str, trump: Suit | None, winner: int) -> None:
    assert trick_winner(cards(trick), trump) == winner


# -- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [
        pytest.param(0, 0, 20, id="exact zero bid"),
        pytest.param(1, 1, 30, id="exact bid of one"),
        pytest.param(2, 2, 40, id="exact bid of two"),
        pytest.param(5, 5, 70, id="exact bid of five"),
        pytest.param(20, 20, 220, id="exact bid of twenty"),
        pytest.param(0, 1, -10, id="zero bid missed by one"),
        pytest.param(0, 3, -30, id="zero bid missed by three"),
        pytest.param(1, 3, -20, id="took two more than bid"),
        pytest.param(3, 1, -20, id="took two fewer than bid"),
        pytest.param(4, 0, -40, id="took none of four"),
        pytest.param(20, 0, -200, id="took none of twenty"),
    ],
)
def test_round_points(bid: int, tricks: int, points: int) -> None:
    assert round_points(bid, tricks) == points


# -- the "bids may not add up" variant -------------------------------------------------------


@pytest.mark.parametrize(
    ("cards_per_player", "other_bids", "forbidden"),
    [
        pytest.param(3, [1, 1], 1, id="the value that makes the total equal"),
        pytest.param(3, [0, 0], 3, id="all others bid zero: the whole round is forbidden"),
        pytest.param(3, [1, 2], 0, id="zero can be forbidden"),
        pytest.param(3, [2, 2], None, id="others already over: nothing forbidden"),
        pytest.param(1, [1, 1, 1, 1, 1], None, id="far over: nothing forbidden"),
        pytest.param(1, [], 1, id="no other bids"),
        pytest.param(5, [5], 0, id="one other bid the whole round"),
        pytest.param(10, [2, 3, 1, 0, 0], 4, id="six players"),
    ],
)
def test_forbidden_bid(cards_per_player: int, other_bids: list[int], forbidden: int | None) -> None:
    assert forbidden_bid(cards_per_player, other_bids) == forbidden


# -- trump -----------------------------------------------------------------------------------


@pytest.mark.parametrize("suit", list(Suit))
@pytest.mark.parametrize("rank", [1, 13])
def test_turned_up_suited_card_makes_its_suit_trump(suit: Suit, rank: int) -> None:
    assert trump_from_turned_up(Card.number(suit, rank)) == (suit, False)


@pytest.mark.parametrize(
    ("turned_up", "result"),
    [
        pytest.param("J1", (None, False), id="a Jester means no trump"),
        pytest.param("J4", (None, False), id="any Jester means no trump"),
        pytest.param("W1", (None, True), id="a Wizard means the dealer chooses"),
        pytest.param("W3", (None, True), id="any Wizard means the dealer chooses"),
        pytest.param(None, (None, False), id="no card means no trump"),
    ],
)
def test_trump_from_special_or_missing_turned_up(turned_up: str | None, result: tuple[Suit | None, bool]) -> None:
    assert trump_from_turned_up(Card.parse(turned_up) if turned_up else None) == result


# -- the length of the game ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_round_count(players: int, rounds: int) -> None:
    assert round_count(players) == rounds
