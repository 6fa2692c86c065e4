"""Lean simulators of one round, for the hard level's look-ahead.

The engine's `Game` keeps a log, JSON and whole-game state; the look-ahead needs only the cards of
the round. `Table` plays them with the engine's own rule functions (`legal_cards`, `led_suit`,
`trick_winner`, `round_points`) and none of the bookkeeping, each simulated seat deciding from what
that seat could see: its own hand and the public table. `rollout`, which the search runs millions
of times, plays the cheap rollout policy on card numbers instead, with the rules of following suit
and taking tricks written out for them (a test holds it to the engine's).
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

    def points(self) -> list[int]:
        return [round_points(bid, won) for bid, won in zip(self.bids, self.won, strict=True)]


def later_seats(seat: int, trick: Sequence[Card], players: int) -> tuple[int, ...]:
    """The seats that play to the current trick after `seat`."""
    return LATER[players][seat][len(trick)]


# -- the rollouts, on card numbers ---------------------------------------------------------------
# The rollouts play millions of cards: there a card is its DECK index and everything the cheap
# policy asks of it is read from tables made once, with no per-play validation or bookkeeping.

# SUIT_OF[i]: the suit id (0-3) of DECK[i]; 4 for a Wizard, 5 for a Jester.
SUIT_OF = tuple(i // 13 if i < 52 else (4 if i < 56 else 5) for i in range(60))
RANK_OF = tuple(i % 13 + 1 if i < 52 else 0 for i in range(60))
_W = 4
_J = 5


def _strengths(trump: int) -> tuple[int, ...]:
    """`policy.strength` by DECK index, for trump suit id `trump` (-1: none)."""
    return tuple(
        100 if SUIT_OF[i] == _W else 0 if SUIT_OF[i] == _J else RANK_OF[i] + (20 if SUIT_OF[i] == trump else 0)
        for i in range(60)
    )


# By trump suit id + 1 (0: no trump): the card's strength; its discard order while tricks are
# needed (`policy.JESTER_DISCARD`); its danger once the bid is made (`policy.danger`).
STRENGTH = tuple(_strengths(trump) for trump in range(-1, 4))
DISCARD = tuple(tuple(policy.JESTER_DISCARD if SUIT_OF[i] == _J else s[i] for i in range(60)) for s in STRENGTH)
DANGER = tuple(tuple(-1 if SUIT_OF[i] == _J else s[i] for i in range(60)) for s in STRENGTH)


def _keys(trump: int, led: int) -> tuple[int, ...]:
    """What each card (by DECK index) is worth in a trick led in suit id `led` (4: a Wizard led):
    the highest takes it, the first of equals (`rules.trick_winner`). A Wizard 1000, a trump
    200 + rank, a card of the led suit 100 + rank, any other 0; a Jester -1, so that on Jesters
    alone any other card takes the trick, whatever `led` is."""
    return tuple(
        -1
        if SUIT_OF[i] == _J
        else 1000
        if SUIT_OF[i] == _W
        else 200 + RANK_OF[i]
        if SUIT_OF[i] == trump
        else 100 + RANK_OF[i]
        if SUIT_OF[i] == led
        else 0
        for i in range(60)
    )


# KEYS[trump suit id + 1][led suit id]: `_keys`.
KEYS = tuple(tuple(_keys(trump, led) for led in range(5)) for trump in range(-1, 4))


def rollout(
    hands: list[list[int]],
    trump: int,
    needs: list[int],
    leader: int,
    trick: list[int],
    record: list[int] | None = None,
) -> list[int]:
    """Play the rest of a round with the cheap rollout policy for everyone; the tricks each seat
    takes from here on.

    The policy is the normal play without its hold-up chances. While tricks are needed: lead the
    strongest card, follow with the cheapest card that takes the trick, else throw the least
    useful one. Once the bid is made: lead the weakest card, follow with the most dangerous card
    that loses, else (last to play: the trick is taken anyway) the strongest, else the weakest.

    `hands` hold DECK indexes (changed in place), `trump` is a suit id or -1, `needs` each seat's
    bid less the tricks it has won (changed in place), `trick` the cards of the trick under way.
    The cards played are appended to `record` if one is given.
    """
    players = len(hands)
    strength = STRENGTH[trump + 1]
    discard = DISCARD[trump + 1]
    danger = DANGER[trump + 1]
    suit_of = SUIT_OF
    taken = [0] * players
    by_led = KEYS[trump + 1]
    # The trick under way: the led suit (-1: none yet, 4: a Wizard led, all free), what the cards
    # are worth in it (`_keys`), and the winning card's position and worth.
    led = -1
    keys = by_led[0]
    best_at = 0
    best_key = -1
    trick = list(trick)
    for position, card in enumerate(trick):
        suit = suit_of[card]
        if suit == _J:
            continue
        if led < 0:
            led = suit
            keys = by_led[led]
        if keys[card] > best_key:
            best_at, best_key = position, keys[card]
    seat = (leader + len(trick)) % players
    if len(trick) == players:
        # The card just played completed the trick.
        seat = (leader + best_at) % players
        taken[seat] += 1
        needs[seat] -= 1
        trick = []
        led = -1
        best_at = 0
        best_key = -1
    while hands[seat]:
        hand = hands[seat]
        count = len(trick)
        if 0 <= led < 4:
            legal = [c for c in hand if suit_of[c] == led or suit_of[c] >= _W]
            if len(legal) == len(hand) or not any(suit_of[c] == led for c in legal):
                legal = hand
        else:
            legal = hand
        if len(legal) == 1:
            card = legal[0]
        elif not count:
            card = (max if needs[seat] > 0 else min)(legal, key=strength.__getitem__)
        else:
            wins = [c for c in legal if keys[c] > best_key]
            if needs[seat] > 0:
                card = min(wins, key=strength.__getitem__) if wins else min(legal, key=discard.__getitem__)
            else:
                loses = [c for c in legal if c not in wins] if wins else legal
                if loses:
                    card = max(loses, key=danger.__getitem__)
                elif count == players - 1:
                    card = max(legal, key=strength.__getitem__)
                else:
                    card = min(legal, key=strength.__getitem__)
        hand.remove(card)
        if record is not None:
            record.append(card)
        suit = suit_of[card]
        if suit != _J:
            if led < 0:
                led = suit
                keys = by_led[led]
            if keys[card] > best_key:
                best_at, best_key = count, keys[card]
        trick.append(card)
        if count + 1 == players:
            winner = (seat + 1 + best_at) % players
            taken[winner] += 1
            needs[winner] -= 1
            trick = []
            led = -1
            best_at = 0
            best_key = -1
            seat = winner
        else:
            seat = (seat + 1) % players
    return taken
