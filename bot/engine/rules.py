"""The rules of Wizard as pure functions: one place for each rule, used by the game and the AI."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Kind, Suit

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DECK_SIZE = 60

# Module-level names for the enum members used in the hot loops: looking a member up on its
# class costs ten times a global lookup on Python 3.11, and the computer players run these loops
# millions of times.
_WIZARD = Kind.WIZARD
_JESTER = Kind.JESTER


def round_count(players: int) -> int:
    """The game has as many rounds as the deck can deal: 20, 15, 12 or 10."""
    return DECK_SIZE // players


def round_numbers(players: int, rounds: int | None = None, even: bool = False) -> tuple[int, ...]:
    """The rounds a game plays, in order, each named by the cards dealt in it.

    The full game deals 1, 2, ... up to `round_count(players)` cards; `even` keeps only the rounds
    that deal an even number (2, 4, ...); `rounds` keeps only the first that many of those.
    ValueError when `rounds` is below 1 or more than there are.
    """
    numbers = tuple(range(2 if even else 1, round_count(players) + 1, 2 if even else 1))
    if rounds is not None:
        if not 1 <= rounds <= len(numbers):
            raise ValueError(f"{players} players can play 1-{len(numbers)} rounds of this schedule, not {rounds}")
        numbers = numbers[:rounds]
    return numbers


def led_suit(trick: Sequence[Card]) -> Suit | None:
    """The suit that must be followed in a trick so far, or None when any card may be played.

    Jesters do not set the suit: the first card that is not a Jester does. If that card is a
    Wizard, the trick is free for everyone after it.
    """
    for card in trick:
        if card.kind is _JESTER:
            continue
        return card.suit  # None for a Wizard: the trick is free
    return None


def legal_cards(hand: Sequence[Card], led: Suit | None) -> list[Card]:
    """The cards of `hand` that may be played to a trick whose led suit is `led`.

    A player must follow the led suit if they can, but may always play a Wizard or a Jester.
    """
    if led is not None:
        for card in hand:
            if card.suit is led:
                return [card for card in hand if card.suit is led or card.suit is None]
    return list(hand)


def trick_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """The position in `trick` of the winning card.

    The first Wizard wins; else the highest trump; else the highest card of the led suit; if all
    cards are Jesters, the first Jester wins.
    """
    led: Suit | None = None
    best = -1
    best_rank = 0
    best_is_trump = False
    for position, card in enumerate(trick):
        kind = card.kind
        if kind is _WIZARD:
            return position
        if kind is _JESTER:
            continue
        suit = card.suit
        if led is None:
            led = suit
        if suit is trump:
            if not best_is_trump or card.rank > best_rank:
                best, best_rank, best_is_trump = position, card.rank, True
        elif suit is led and not best_is_trump and card.rank > best_rank:
            best, best_rank = position, card.rank
    return 0 if best < 0 else best


def round_points(bid: int, tricks: int) -> int:
    """An exact bid scores 20 plus 10 a trick; a miss loses 10 for each trick it is off by."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


def forbidden_bid(cards_per_player: int, other_bids: Sequence[int]) -> int | None:
    """Under the "bids may not add up" variant: the value the last bidder may not bid.

    The total of the bids may not equal the number of tricks, so the last bidder may not bid what
    would make it so. When the others already bid more than that, nothing is forbidden.
    """
    value = cards_per_player - sum(other_bids)
    return value if value >= 0 else None


def trump_from_turned_up(card: Card | None) -> tuple[Suit | None, bool]:
    """The trump suit a turned-up card sets, and whether the dealer must choose one instead.

    A suited card makes its suit trump; a Jester, or no card at all (the last round deals the
    whole deck), means no trump; a Wizard means the dealer names a suit.
    """
    if card is None or card.kind is _JESTER:
        return None, False
    if card.kind is _WIZARD:
        return None, True
    return card.suit, False
