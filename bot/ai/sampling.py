"""Determinization: deal the cards a player cannot see to the others, consistently with what it saw."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.cards import Card, Kind

_NUMBER = Kind.NUMBER


def deal_unseen(
    rng: random.Random,
    unseen: Sequence[Card],
    sizes: Sequence[int],
    voids: Sequence[int],
    me: int,
) -> list[list[Card]]:
    """Deal `unseen` cards: `sizes[seat]` to each other seat, the rest to the undealt stock.

    No seat gets a card of a suit it is known to lack (`voids` are masks of suit ids, bit i for
    `policy.SUITS[i]`). Without voids this is a plain shuffle. Otherwise cards go to a random seat
    weighted by its free places; when the random order paints itself into a corner, cards already
    dealt are moved along an augmenting path (as in bipartite matching), so a consistent deal is
    always found when one exists. The hand of `me` is left empty.
    """
    players = len(sizes)
    stock = players  # the extra slot: cards nobody holds
    free = [0 if seat == me else sizes[seat] for seat in range(players)]
    free.append(len(unseen) - sum(free))
    if free[stock] < 0:
        raise ValueError("more cards in the other hands than unseen cards")
    cards = list(unseen)
    rng.shuffle(cards)
    if not any(voids[seat] for seat in range(players) if seat != me):
        hands: list[list[Card]] = []
        start = 0
        for seat in range(players):
            hands.append(cards[start : start + free[seat]])
            start += free[seat]
        return hands
    slots: list[list[Card]] = [[] for _ in range(players + 1)]
    # The slots open to a card of each suit id, and (index 4) to Wizards and Jesters.
    open_to = [
        [slot for slot in range(players + 1) if slot == stock or not voids[slot] >> suit & 1] for suit in range(4)
    ]
    open_to.append(list(range(players + 1)))
    for card in cards:
        eligible = open_to[card.index // 13 if card.kind is _NUMBER else 4]
        total = 0
        for slot in eligible:
            total += free[slot]
        if total:
            pick = rng.randrange(total)
            for slot in eligible:
                pick -= free[slot]
                if pick < 0:
                    break
            slots[slot].append(card)
            free[slot] -= 1
        else:
            _augment(card, slots, free, open_to)
    return slots[:players]


def _eligible(card: Card, open_to: list[list[int]]) -> list[int]:
    return open_to[card.index // 13 if card.kind is _NUMBER else 4]


def _augment(card: Card, slots: list[list[Card]], free: list[int], open_to: list[list[int]]) -> None:
    """Place `card` in a full slot by moving a chain of dealt cards on to a slot with room."""
    parent: dict[int, tuple[int, Card] | None] = {}
    queue: list[int] = []
    for slot in _eligible(card, open_to):
        parent[slot] = None
        queue.append(slot)
    for slot in queue:
        for moved in slots[slot]:
            for target in _eligible(moved, open_to):
                if target in parent:
                    continue
                parent[target] = (slot, moved)
                if free[target]:
                    # Walk back: each card moves one step along the path, `card` takes the first slot.
                    free[target] -= 1
                    step = target
                    link = parent[step]
                    while link is not None:
                        source, carried = link
                        slots[source].remove(carried)
                        slots[step].append(carried)
                        step = source
                        link = parent[step]
                    slots[step].append(card)
                    return
                queue.append(target)
    raise ValueError("no deal is consistent with the known voids")
