"""What a player can work out from its own observation: cards gone, voids, who played what."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import DECK, Card, Suit
from bot.engine.game import Observation
from bot.engine.rules import led_suit


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The public facts of the round so far, as seen by one seat."""

    # 1 for each card (by DECK index) that everyone has seen this round: played, or turned up.
    gone: bytes
    # Per seat, the suits it is known to lack: it did not follow when the suit was led.
    voids: tuple[frozenset[Suit], ...]
    # Per seat, the cards it played this round (finished tricks and the current one).
    played: tuple[tuple[Card, ...], ...]
    # The cards whose place is unknown to this seat: in another hand or undealt.
    unseen: tuple[Card, ...]


def plays_of_round(observation: Observation) -> list[tuple[int, Card, Suit | None]]:
    """Every card played this round in order, with its seat and the suit led before it."""
    players = observation.players
    plays: list[tuple[int, Card, Suit | None]] = []
    tricks = [(trick.leader, trick.cards) for trick in observation.tricks]
    tricks.append((observation.trick_leader, observation.trick))
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            plays.append(((leader + position) % players, card, led_suit(cards[:position])))
    return plays


def knowledge(observation: Observation) -> Knowledge:
    """The public facts of the round in `observation`, and the cards unseen by its seat."""
    players = observation.players
    gone = bytearray(len(DECK))
    if observation.turned_up is not None:
        gone[observation.turned_up.index] = 1
    voids: list[set[Suit]] = [set() for _ in range(players)]
    played: list[list[Card]] = [[] for _ in range(players)]
    for seat, card, led in plays_of_round(observation):
        gone[card.index] = 1
        played[seat].append(card)
        if led is not None and card.suit is not None and card.suit is not led:
            voids[seat].add(led)
    mine = {card.index for card in observation.hand}
    unseen = tuple(card for card in DECK if not gone[card.index] and card.index not in mine)
    return Knowledge(
        gone=bytes(gone),
        voids=tuple(frozenset(suits) for suits in voids),
        played=tuple(tuple(cards) for cards in played),
        unseen=unseen,
    )


def bid_order(observation: Observation) -> list[int]:
    """The seats in the order they bid this round: from the one after the dealer."""
    players = observation.players
    return [(observation.dealer + 1 + i) % players for i in range(players)]
