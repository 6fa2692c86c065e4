"""The yardstick: a rule-of-thumb player, written apart from `bot.ai` so the levels are measured
against something they share no code with.

It bids the tricks its Wizards and high trumps should take; while it needs tricks it wins as
cheaply as it can, otherwise it plays its highest card that loses. Which cards may be played and
which card wins come from the engine's rules; it sees only its seat's `Observation`.
"""

from __future__ import annotations

import random
from collections import Counter

from bot.engine import Action, Bid, Card, ChooseTrump, Kind, Observation, Phase, Play, Suit
from bot.engine.rules import trick_winner

# A trump of this rank or more counts as a trick when bidding ("high trumps").
HIGH_TRUMP = 6


class BaselinePlayer:
    """The rule-of-thumb player (see the module docstring). It is deterministic; `rng` keeps the
    constructor the same as the levels'."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        hand = observation.hand
        if observation.phase is Phase.CHOOSE_TRUMP:
            # The suit it holds most of.
            counts = Counter(card.suit for card in hand if card.suit is not None)
            return ChooseTrump(max(Suit, key=lambda suit: counts[suit]))
        if observation.phase is Phase.BID:
            wanted = sum(
                card.kind is Kind.WIZARD
                or (card.suit is not None and card.suit is observation.trump and card.rank >= HIGH_TRUMP)
                for card in hand
            )
            allowed = [action.tricks for action in observation.legal if isinstance(action, Bid)]
            # The forbidden bid of the variant: the nearest allowed one, the lower on a tie.
            return Bid(min(allowed, key=lambda tricks: (abs(tricks - wanted), tricks)))
        playable = [action.card for action in observation.legal if isinstance(action, Play)]
        trick = list(observation.trick)
        trump = observation.trump

        def wins(card: Card) -> bool:
            return trick_winner([*trick, card], trump) == len(trick)

        def power(card: Card) -> tuple[int, int, int]:
            # Jesters lowest, then plain cards, then trumps, then Wizards; by rank within each.
            if card.kind is Kind.JESTER:
                return (0, 0, 0)
            if card.kind is Kind.WIZARD:
                return (3, 0, 0)
            return (2 if card.suit is trump else 1, card.rank, 0)

        needs = (observation.bids[observation.seat] or 0) > observation.tricks_won[observation.seat]
        if not trick:
            # Leading: the strongest card when tricks are needed, else the weakest.
            return Play(max(playable, key=power) if needs else min(playable, key=power))
        winners = [card for card in playable if wins(card)]
        losers = [card for card in playable if not wins(card)]
        if needs and winners:
            return Play(min(winners, key=power))
        if needs:
            return Play(min(playable, key=power))
        return Play(max(losers, key=power) if losers else min(playable, key=power))
