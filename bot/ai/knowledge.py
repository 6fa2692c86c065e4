"""What a player can work out from its own observation: cards gone, voids, who played what, and
which cards the others' plays say they lack."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.cards import DECK, Card, Kind, Suit
from bot.engine.game import Observation
from bot.engine.rules import led_suit

from .policy import SUIT_CARDS, SUITS, beats, current_best


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


# -- what the plays say about the hands ----------------------------------------------------------

# The four Wizards and the four Jesters as masks of DECK indexes.
WIZARD_CARDS = ((1 << 4) - 1) << 52
JESTER_CARDS = ((1 << 4) - 1) << 56


@dataclass(frozen=True, slots=True)
class Hint:
    """A seat probably held none of `cards` (a mask of DECK indexes) when it played: with chance
    `trust`, since people do not always play by the book."""

    seat: int
    cards: int
    trust: float


# How far a play is taken at its word: the chance a reading is used in a deal, about one less the
# chance that a player holding the cards it rules out would still have played so. A seat that
# needs tricks and lets one go most likely held no higher card of a plain suit, less surely before
# the others have played; a Wizard or a trump it may well have kept for a trick it cannot
# otherwise take. Counted over 6 games of four players each: normal never lets such a trick go;
# the search yardstick (`bot.simulate.pimc`, 8,000 plays) did holding a higher plain card 43 % of
# the time before the last seat and 32 % last, holding only Wizards or trumps 54 % and 45 %; hard
# about as often (50 % and 44 % in all). The trusts lie between the two kinds of player. A seat at
# or past its bid that takes a trick it could lose may be spoiling someone's bid: the yardstick
# did so 9 % of the time, hard and normal never.
TRUST_LAST = 0.8
TRUST_EARLY = 0.65
TRUST_DEAR_LAST = 0.6
TRUST_DEAR_EARLY = 0.45
TRUST_OVER = 0.9
# Which card of a suit a seat follows with, when it does not take the trick.
TRUST_ORDER = 0.6


def _higher(suit: int, rank: int) -> int:
    """The cards of suit id `suit` ranked above `rank`, as a mask."""
    return SUIT_CARDS[suit] & ~((1 << (13 * suit + rank)) - 1)


def _lower(suit: int, rank: int) -> int:
    """The cards of suit id `suit` ranked below `rank`, as a mask."""
    return SUIT_CARDS[suit] & ((1 << (13 * suit + rank - 1)) - 1)


def play_hints(observation: Observation) -> list[Hint]:
    """What the others' plays this round say about the cards they hold, read the way most players
    play: while a seat needs tricks it takes a trick it can take; once its bid is made it loses a
    trick it can lose. A seat whose later plays show it broke such a rule is not read by it.

    The masks hold the cards that would have done better (taken the trick, or lost it) and that
    were legal whatever else the seat held; they say nothing of cards that were gone already.
    """
    players = observation.players
    trump = observation.trump
    trump_id = -1 if trump is None else SUITS.index(trump)
    won = [0] * players
    tricks = [(trick.leader, trick.cards, trick.winner) for trick in observation.tricks]
    tricks.append((observation.trick_leader, observation.trick, -1))
    played_after = [0] * players  # the cards each seat played after the play being read
    plays: list[tuple[int, Card, tuple[Card, ...], int | None, bool]] = []
    for leader, cards, winner in tricks:
        for position, card in enumerate(cards):
            seat = (leader + position) % players
            played_after[seat] |= 1 << card.index
            bid = observation.bids[seat]
            # Only a card played to a trick under way, by another seat whose bid is known, is read.
            need = bid - won[seat] if position and bid is not None and seat != observation.seat else None
            plays.append((seat, card, cards[:position], need, position == players - 1))
        if winner >= 0:
            won[winner] += 1
    hints: list[Hint] = []
    for seat, card, before, need, last in plays:
        played_after[seat] &= ~(1 << card.index)
        if need is None:
            continue
        for mask, trust in _better_cards(card, before, trump, trump_id, need, last):
            # A seat that later played one of the better cards did not play by this rule.
            if mask and not mask & played_after[seat]:
                hints.append(Hint(seat, mask, trust))
    return hints


def _better_cards(
    card: Card, before: tuple[Card, ...], trump: Suit | None, trump_id: int, need: int, last: bool
) -> list[tuple[int, float]]:
    """The cards that would have served the seat playing `card` on `before` better, each mask with its trust."""
    best = current_best(before, trump)
    if best is None:
        return []
    led = led_suit(before)
    hints: list[tuple[int, float]] = []
    if card.kind is Kind.NUMBER and card.suit is led and led is not None and not beats(card, best, trump):
        # Following suit under the winner: one sheds its highest card that still loses once its bid
        # is made, and keeps its high cards for later while it needs tricks.
        led_id = SUITS.index(led)
        if need > 0:
            hints.append((_lower(led_id, card.rank), TRUST_ORDER))
        else:
            top = best.rank if best.suit is led else 14
            hints.append((_higher(led_id, card.rank) & _lower(led_id, top), TRUST_ORDER))
    if best.kind is Kind.WIZARD:
        return hints
    best_id = SUITS.index(best.suit)
    takes = beats(card, best, trump)
    if need > 0 and not takes:
        # Let a trick go that it needed: it held no legal card that takes it cheaply, a higher
        # card of a plain suit; a Wizard or a trump it may have kept for a trick it cannot
        # otherwise take, so that reading is trusted less.
        cheap = _higher(best_id, best.rank) if best_id != trump_id else 0
        dear = WIZARD_CARDS | (_higher(best_id, best.rank) if best_id == trump_id else 0)
        if trump_id >= 0 and best_id != trump_id:
            dear |= SUIT_CARDS[trump_id]
        if card.kind is Kind.NUMBER and card.suit is led:
            legal = SUIT_CARDS[SUITS.index(led)] | WIZARD_CARDS
        elif card.kind is Kind.NUMBER:
            legal = ~0  # void in the led suit: any card
        else:
            # A Jester: the seat may or may not have held the led suit; only what beats in it counts.
            legal = WIZARD_CARDS | (SUIT_CARDS[SUITS.index(led)] if led is not None else 0)
        hints.append((cheap & legal, TRUST_LAST if last else TRUST_EARLY))
        hints.append((dear & legal, TRUST_DEAR_LAST if last else TRUST_DEAR_EARLY))
    if need <= 0 and takes and card.kind is Kind.NUMBER:
        # Took a trick past its bid with a suit card: it held no legal card that loses it.
        losing = JESTER_CARDS
        if card.suit is led:
            if best.suit is led:
                losing |= _lower(best_id, best.rank)
        else:
            # Void in the led suit: any card of a third suit loses, and a lower trump.
            losing |= ~(SUIT_CARDS[trump_id] | WIZARD_CARDS | JESTER_CARDS) & ((1 << 52) - 1)
            if best_id == trump_id:
                losing |= _lower(best_id, best.rank)
            elif led is not None:
                losing &= ~SUIT_CARDS[SUITS.index(led)]
        hints.append((losing, TRUST_OVER))
    return hints
