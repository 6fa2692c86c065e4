"""Determinization: deal the cards a player cannot see to the others, consistently with what it saw."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.engine.cards import Card

from .policy import SUIT_CARDS


def deal_unseen(
    rng: random.Random,
    unseen: Sequence[Card],
    sizes: Sequence[int],
    voids: Sequence[int],
    me: int,
    absent: Sequence[int] = (),
) -> list[list[Card]]:
    """Deal `unseen` cards: `sizes[seat]` to each other seat, the rest to the undealt stock.

    No seat gets a card of a suit it is known to lack (`voids` are masks of suit ids, bit i for
    `policy.SUITS[i]`), nor one of the cards `absent` names for it (per seat, a mask of DECK
    indexes: `knowledge.play_hints`). Without either this is a plain shuffle. Otherwise the cards
    some seat may not get go first, each to a random seat that may get it, weighted by its free
    places; when the random order paints itself into a corner, cards already dealt are moved
    along an augmenting path (as in bipartite matching), so a consistent deal is always found when
    one exists; the other cards then fill the free places in shuffled order. The hand of `me` is
    left empty.
    """
    players = len(sizes)
    stock = players  # the extra slot: cards nobody holds
    free = [0 if seat == me else sizes[seat] for seat in range(players)]
    free.append(len(unseen) - sum(free))
    if free[stock] < 0:
        raise ValueError("more cards in the other hands than unseen cards")
    # A shuffle: sorting by random keys costs a third of `random.shuffle`'s Python loop.
    keys = [rng.random() for _ in unseen]
    cards = [unseen[i] for i in sorted(range(len(unseen)), key=keys.__getitem__)]
    # Per slot, the cards it may not get.
    barred = [0] * (players + 1)
    for seat in range(players):
        if seat != me:
            mask = absent[seat] if absent else 0
            void = voids[seat]
            if void:
                for suit in range(4):
                    if void >> suit & 1:
                        mask |= SUIT_CARDS[suit]
            barred[seat] = mask
    anywhere = 0
    for mask in barred:
        anywhere |= mask
    slots: list[list[Card]] = [[] for _ in range(players + 1)]
    if anywhere:
        everyone = [slot for slot in range(players + 1) if free[slot]]
        open_to: dict[int, list[int]] = {}
        rest: list[Card] = []
        for card in cards:
            bit = 1 << card.index
            if not anywhere & bit:
                rest.append(card)
                continue
            eligible = [slot for slot in everyone if not barred[slot] & bit]
            open_to[card.index] = eligible
            total = 0
            for slot in eligible:
                total += free[slot]
            if total:
                pick = rng.random() * total
                for slot in eligible:
                    pick -= free[slot]
                    if pick < 0:
                        break
                slots[slot].append(card)
                free[slot] -= 1
            else:
                _augment(card, slots, free, lambda index: open_to.get(index, everyone))
        cards = rest
    start = 0
    for slot in range(players + 1):
        slots[slot].extend(cards[start : start + free[slot]])
        start += free[slot]
    return slots[:players]


def _augment(card: Card, slots: list[list[Card]], free: list[int], open_to: Callable[[int], list[int]]) -> None:
    """Place `card` in a full slot by moving a chain of dealt cards on to a slot with room."""
    parent: dict[int, tuple[int, Card] | None] = {}
    queue: list[int] = []
    for slot in open_to(card.index):
        parent[slot] = None
        queue.append(slot)
    for slot in queue:
        for moved in slots[slot]:
            for target in open_to(moved.index):
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
    raise ValueError("no deal is consistent with the known voids and absent cards")
