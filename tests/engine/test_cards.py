"""The 60 cards: composition, codes, uniqueness and immutability."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest

from bot.engine import DECK, Card, Kind, Suit, sort_key

NUMBER_ATTRIBUTES = ("code", "index", "kind", "rank", "suit")


def test_deck_has_60_distinct_cards() -> None:
    assert len(DECK) == 60
    assert len(set(DECK)) == 60
    assert len({card.code for card in DECK}) == 60


def test_deck_index_is_the_position_in_the_deck() -> None:
    assert [card.index for card in DECK] == list(range(60))


@pytest.mark.parametrize("suit", list(Suit))
def test_each_suit_has_the_numbers_1_to_13(suit: Suit) -> None:
    ranks = sorted(card.rank for card in DECK if card.suit is suit)
    assert ranks == list(range(1, 14))
    assert all(card.kind is Kind.NUMBER for card in DECK if card.suit is suit)


def test_deck_composition_is_52_numbers_4_wizards_4_jesters() -> None:
    assert Counter(card.kind for card in DECK) == {Kind.NUMBER: 52, Kind.WIZARD: 4, Kind.JESTER: 4}


@pytest.mark.parametrize("kind", [Kind.WIZARD, Kind.JESTER])
def test_wizards_and_jesters_are_four_suitless_copies(kind: Kind) -> None:
    specials = [card for card in DECK if card.kind is kind]
    assert sorted(card.rank for card in specials) == [1, 2, 3, 4]
    assert all(card.suit is None for card in specials)


@pytest.mark.parametrize("card", DECK, ids=lambda card: card.code)
def test_parse_of_the_code_is_the_same_card(card: Card) -> None:
    assert Card.parse(card.code) is card
    assert str(card) == card.code


@pytest.mark.parametrize("card", DECK, ids=lambda card: card.code)
def test_repr_evaluates_to_the_same_card(card: Card) -> None:
    assert eval(repr(card)) is card


@pytest.mark.parametrize(
    ("code", "kind", "suit", "rank"),
    [
        ("H13", Kind.NUMBER, Suit.HEARTS, 13),
        ("S1", Kind.NUMBER, Suit.SPADES, 1),
        ("D7", Kind.NUMBER, Suit.DIAMONDS, 7),
        ("C10", Kind.NUMBER, Suit.CLUBS, 10),
        ("W2", Kind.WIZARD, None, 2),
        ("J4", Kind.JESTER, None, 4),
    ],
)
def test_code_names_kind_suit_and_rank(code: str, kind: Kind, suit: Suit | None, rank: int) -> None:
    card = Card.parse(code)
    assert (card.kind, card.suit, card.rank) == (kind, suit, rank)
    assert card.is_wizard == (kind is Kind.WIZARD)
    assert card.is_jester == (kind is Kind.JESTER)


def test_named_constructors_return_the_deck_cards() -> None:
    assert Card.number(Suit.HEARTS, 13) is Card.parse("H13")
    assert Card.number(Suit.CLUBS, 1) is Card.parse("C1")
    assert Card.wizard(1) is Card.parse("W1")
    assert Card.wizard() is Card.parse("W1")
    assert Card.jester(2) is Card.parse("J2")
    assert Card.jester() is Card.parse("J1")


@pytest.mark.parametrize(
    "code", ["", "H", "H0", "H14", "H01", "h1", " H1", "H1 ", "X1", "W0", "W5", "J5", "N3", "13", None, 1, ("H", 1)]
)
def test_bad_code_raises_value_error(code: object) -> None:
    with pytest.raises(ValueError, match="not a card code"):
        Card.parse(code)  # type: ignore[arg-type]


@pytest.mark.parametrize("rank", [0, 14, -1])
def test_number_rejects_a_rank_outside_1_to_13(rank: int) -> None:
    with pytest.raises(ValueError, match="rank must be 1-13"):
        Card.number(Suit.SPADES, rank)


@pytest.mark.parametrize("make", [Card.wizard, Card.jester])
@pytest.mark.parametrize("number", [0, 5])
def test_wizard_and_jester_reject_a_copy_outside_1_to_4(make: object, number: int) -> None:
    with pytest.raises(ValueError, match="not a card code"):
        make(number)  # type: ignore[operator]


@pytest.mark.parametrize(("args", "kwargs"), [((), {}), (("H1",), {}), ((0, Kind.NUMBER, Suit.HEARTS, 1), {})])
def test_card_cannot_be_constructed(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(TypeError, match="cards are unique"):
        Card(*args, **kwargs)


@pytest.mark.parametrize("name", [*NUMBER_ATTRIBUTES, "colour"])
def test_card_attributes_cannot_be_set(name: str) -> None:
    card = Card.parse("H7")
    with pytest.raises(AttributeError):
        setattr(card, name, 1)
    assert (card.code, card.index, card.kind, card.rank, card.suit) == ("H7", 19, Kind.NUMBER, 7, Suit.HEARTS)


@pytest.mark.parametrize("name", NUMBER_ATTRIBUTES)
def test_card_attributes_cannot_be_deleted(name: str) -> None:
    card = Card.parse("H7")
    value = getattr(card, name)
    try:
        with pytest.raises(AttributeError):
            delattr(card, name)
    finally:
        # Put the value back if the deletion went through, so the shared card stays whole for other tests.
        if not hasattr(card, name):
            object.__setattr__(card, name, value)
    assert getattr(card, name) == value


@pytest.mark.parametrize(
    "duplicate",
    [
        copy.copy,
        copy.deepcopy,
        *(lambda card, protocol=protocol: pickle.loads(pickle.dumps(card, protocol)) for protocol in range(6)),
    ],
    ids=["copy", "deepcopy", *(f"pickle{protocol}" for protocol in range(6))],
)
@pytest.mark.parametrize("code", ["H13", "S1", "W3", "J4"])
def test_copies_and_pickles_are_the_same_instance(duplicate: object, code: str) -> None:
    card = Card.parse(code)
    assert duplicate(card) is card  # type: ignore[operator]


def test_deepcopy_of_a_structure_keeps_card_identity() -> None:
    hands = [[Card.parse("H1"), Card.parse("W1")], [Card.parse("J2")]]
    copied = copy.deepcopy(hands)
    assert copied is not hands
    assert all(a is b for hand, other in zip(hands, copied, strict=True) for a, b in zip(hand, other, strict=True))


def test_sort_key_orders_wizards_then_suits_by_falling_rank_then_jesters() -> None:
    ordered = [card.code for card in sorted(DECK, key=sort_key)]
    expected = (
        ["W1", "W2", "W3", "W4"]
        + [f"{suit.value}{rank}" for suit in Suit for rank in range(13, 0, -1)]
        + ["J1", "J2", "J3", "J4"]
    )
    assert ordered == expected
