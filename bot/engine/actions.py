"""The three things a player can do, and their JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import DECK, Card, Suit


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """The dealer names the trump suit after a Wizard was turned up."""

    suit: Suit


@dataclass(frozen=True, slots=True)
class Bid:
    """A player states how many tricks they will take this round."""

    tricks: int


@dataclass(frozen=True, slots=True)
class Play:
    """A player plays a card to the current trick."""

    card: Card


Action = ChooseTrump | Bid | Play

# One instance of each play and trump choice, and of the bids up to the largest hand, so that
# legal_actions() allocates nothing in the loops the computer players run.
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in DECK)
BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(21))
CHOICES: tuple[ChooseTrump, ...] = tuple(ChooseTrump(suit) for suit in Suit)


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an action: ``{"bid": 2}``, ``{"play": "H12"}`` or ``{"trump": "S"}``."""
    if isinstance(action, Bid):
        return {"bid": action.tricks}
    if isinstance(action, Play):
        return {"play": action.card.code}
    return {"trump": action.suit.value}


def action_from_json(data: dict[str, Any]) -> Action:
    """Parse the JSON form of an action; ValueError when it is not one."""
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"not an action: {data!r}")
    [(key, value)] = data.items()
    if key == "bid" and type(value) is int:
        return Bid(value)
    if key == "play" and isinstance(value, str):
        return Play(Card.parse(value))
    if key == "trump" and isinstance(value, str):
        return ChooseTrump(Suit(value))
    raise ValueError(f"not an action: {data!r}")
