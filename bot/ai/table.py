"""A lean simulator of one round, for the hard level's look-ahead.

The engine's `Game` keeps a log, JSON and whole-game state; the rollouts need only the cards of the
round, so this plays them with the engine's own rule functions (`legal_cards`, `led_suit`,
`trick_winner`, `round_points`) and none of the bookkeeping. Each simulated seat decides from what
that seat could see: its own hand and the public table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Card, Kind, Suit
from bot.engine.rules import led_suit, legal_cards, round_points, trick_winner

from . import policy

_NUMBER = Kind.NUMBER
_JESTER = Kind.JESTER


# LATER[players][seat][cards already in the trick]: the seats that play to the trick after `seat`.
LATER = {
    players: [
        [tuple((seat + i) % players for i in range(1, players - n)) for n in range(players)] for seat in range(players)
    ]
    for players in range(3, 7)
}


class Table:
    """The state of one round in play: every hand (a sampled world), bids, tricks and the table.

    `known[seat]` marks by DECK index the cards that seat has seen: its own hand, the cards played
    and the turned-up card. `voids` are the seats' public void masks (`policy.void_mask`).
    """

    __slots__ = ("bids", "hands", "known", "leader", "players", "trick", "trump", "voids", "won")

    def __init__(
        self,
        hands: list[list[Card]],
        trump: Suit | None,
        bids: list[int],
        won: list[int],
        leader: int,
        trick: list[Card],
        gone: bytes | bytearray,
        voids: list[int],
    ) -> None:
        """`gone` marks the cards everyone has seen: the cards played this round and the turned-up card."""
        self.players = len(hands)
        self.hands = hands
        self.trump = trump
        self.bids = bids
        self.won = won
        self.leader = leader
        self.trick = trick
        self.voids = voids
        self.known: list[bytearray] = []
        for hand in hands:
            known = bytearray(gone)
            for card in hand:
                known[card.index] = 1
            self.known.append(known)

    def copy(self) -> Table:
        other = object.__new__(Table)
        other.players = self.players
        other.hands = [list(hand) for hand in self.hands]
        other.trump = self.trump
        other.bids = list(self.bids)
        other.won = list(self.won)
        other.leader = self.leader
        other.trick = list(self.trick)
        other.voids = list(self.voids)
        other.known = [bytearray(known) for known in self.known]
        return other

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    @property
    def finished(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    def legal(self) -> list[Card]:
        return legal_cards(self.hands[self.to_move], led_suit(self.trick))

    def play(self, card: Card) -> None:
        """The player to move plays `card`, which must be legal."""
        players = self.players
        trick = self.trick
        seat = (self.leader + len(trick)) % players
        if trick and card.kind is _NUMBER:
            for first in trick:
                if first.kind is not _JESTER:
                    # Not following a suit led by a number card shows a void in it.
                    if first.kind is _NUMBER and first.suit is not card.suit:
                        self.voids[seat] |= 1 << (first.index // 13)
                    break
        self.hands[seat].remove(card)
        index = card.index
        for known in self.known:
            known[index] = 1
        trick.append(card)
        if len(trick) == players:
            winner = (self.leader + trick_winner(trick, self.trump)) % players
            self.won[winner] += 1
            self.leader = winner
            self.trick = []

    def policy_card(self) -> Card:
        """The normal policy's card for the player to move, from that player's view."""
        trick = self.trick
        seat = (self.leader + len(trick)) % self.players
        hand = self.hands[seat]
        legal = legal_cards(hand, led_suit(trick))
        if len(legal) == 1:
            return legal[0]
        return policy.play_card(
            hand,
            legal,
            trick,
            self.trump,
            seat,
            [bid - won for bid, won in zip(self.bids, self.won, strict=True)],
            self.known[seat],
            self.voids,
            LATER[self.players][seat][len(trick)],
        )

    def play_out(self) -> None:
        """Play the rest of the round with the normal policy for everyone."""
        while self.hands[(self.leader + len(self.trick)) % self.players]:
            self.play(self.policy_card())

    def play_out_quick(self) -> None:
        """Play the rest of the round with the cheap rollout policy (`policy.rollout_card`) for everyone."""
        players = self.players
        hands = self.hands
        trump = self.trump
        while hands[(self.leader + len(self.trick)) % players]:
            trick = self.trick
            seat = (self.leader + len(trick)) % players
            legal = legal_cards(hands[seat], led_suit(trick))
            self.play(
                policy.rollout_card(legal, trick, trump, self.bids[seat] - self.won[seat], len(trick) == players - 1)
            )

    def points(self) -> list[int]:
        return [round_points(bid, won) for bid, won in zip(self.bids, self.won, strict=True)]


def later_seats(seat: int, trick: Sequence[Card], players: int) -> tuple[int, ...]:
    """The seats that play to the current trick after `seat`."""
    return LATER[players][seat][len(trick)]
