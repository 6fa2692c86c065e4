"""The 60 cards of Wizard: 1-13 in four suits, four Wizards and four Jesters."""

from __future__ import annotations

import enum
from typing import NoReturn


class Suit(enum.Enum):
    """The four suits. The value is the one-letter code used in card codes and custom ids."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


class Kind(enum.Enum):
    """What a card is: a numbered suit card, a Wizard (always high) or a Jester (always low)."""

    NUMBER = "N"
    WIZARD = "W"
    JESTER = "J"


class Card:
    """One physical card of the deck.

    There is exactly one instance per card, made when this module is imported, so cards compare
    and hash by identity. That keeps the hot loops (legal moves, membership tests) in C, which the
    computer players need when they simulate thousands of games per decision. Get cards with
    `Card.number`, `Card.wizard`, `Card.jester`, `Card.parse` or from `DECK`; never construct one.
    """

    __slots__ = ("code", "index", "kind", "rank", "suit")

    code: str
    index: int
    kind: Kind
    # 1-13 for numbered cards; 1-4 tells apart the four Wizards or the four Jesters.
    rank: int
    # Wizards and Jesters belong to no suit.
    suit: Suit | None

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("cards are unique: use Card.number, Card.wizard, Card.jester or Card.parse")

    @classmethod
    def _make(cls, index: int, kind: Kind, suit: Suit | None, rank: int) -> Card:
        card = object.__new__(cls)
        code = f"{suit.value if suit else kind.value}{rank}"
        for name, value in (("code", code), ("index", index), ("kind", kind), ("rank", rank), ("suit", suit)):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Copies and pickles resolve to the one instance of the card.
        return (Card.parse, (self.code,))

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code

    @property
    def is_wizard(self) -> bool:
        return self.kind is Kind.WIZARD

    @property
    def is_jester(self) -> bool:
        return self.kind is Kind.JESTER

    @staticmethod
    def number(suit: Suit, rank: int) -> Card:
        """The numbered card `rank` (1-13) of `suit`."""
        if not 1 <= rank <= 13:
            raise ValueError(f"rank must be 1-13, not {rank}")
        return _BY_CODE[f"{suit.value}{rank}"]

    @staticmethod
    def wizard(copy: int = 1) -> Card:
        """One of the four Wizards (`copy` 1-4)."""
        return Card.parse(f"W{copy}")

    @staticmethod
    def jester(copy: int = 1) -> Card:
        """One of the four Jesters (`copy` 1-4)."""
        return Card.parse(f"J{copy}")

    @staticmethod
    def parse(code: str) -> Card:
        """The card for a code such as ``H13``, ``S1``, ``W2`` or ``J4``; ValueError otherwise."""
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise ValueError(f"not a card code: {code!r}") from None


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in Suit:
        for rank in range(1, 14):
            cards.append(Card._make(len(cards), Kind.NUMBER, suit, rank))
    for kind in (Kind.WIZARD, Kind.JESTER):
        for copy in range(1, 5):
            cards.append(Card._make(len(cards), kind, None, copy))
    return tuple(cards)


DECK: tuple[Card, ...] = _build_deck()
"""All 60 cards; ``DECK[card.index] is card``."""

_BY_CODE: dict[str, Card] = {card.code: card for card in DECK}


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: Wizards, then the suits in `Suit` order by falling rank, then Jesters."""
    if card.suit is not None:
        return (1 + list(Suit).index(card.suit), -card.rank)
    return (0 if card.kind is Kind.WIZARD else 9, card.rank)
