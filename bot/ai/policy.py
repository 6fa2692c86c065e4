"""The normal level's heuristics, written for speed: the hard level's rollouts run them millions of times.

Bidding sums fitted card values (`values.py`) and nudges the sum by the bids already placed; play
wins cheaply while tricks are needed and ducks once the bid is made, judging a card by a rough
chance that the players after it cannot beat it.

Everything here sees one player's view only: its own hand, the cards everyone has seen (`known` marks
them, and the player's own hand, by DECK index) and the public table.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from bot.engine.cards import DECK, Card, Kind, Suit
from bot.engine.rules import led_suit, trick_winner

from .values import VALUES

_WIZARD = Kind.WIZARD
_JESTER = Kind.JESTER
DECK_SIZE = len(DECK)
SUITS = tuple(Suit)
# The DECK is ordered suit by suit, ranks 1-13, then the four Wizards and the four Jesters.
SUIT_ID = {suit: i for i, suit in enumerate(SUITS)}
WIZARDS = slice(52, 56)
# Each suit id's 13 cards as a mask of DECK indexes (bit i for DECK[i]).
SUIT_CARDS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))

# -- card strength ----------------------------------------------------------------------------


def strength(card: Card, trump: Suit | None) -> int:
    """A static order of how likely a card is to take a trick: Wizards, trumps, then by rank; Jesters last."""
    kind = card.kind
    if kind is _WIZARD:
        return 100
    if kind is _JESTER:
        return 0
    if card.suit is trump:
        return 20 + card.rank
    return card.rank


def danger(card: Card, trump: Suit | None) -> int:
    """How much a card threatens to take an unwanted trick later; Jesters are kept for ducking."""
    if card.kind is _JESTER:
        return -1
    return strength(card, trump)


def void_mask(suits: Collection[Suit]) -> int:
    """The suits as a bit mask: bit i for SUITS[i] (0-3, the DECK order), the form voids take here."""
    mask = 0
    for suit in suits:
        mask |= 1 << SUIT_ID[suit]
    return mask


def unseen_above(known: bytearray | bytes, card: Card) -> int:
    """How many cards of the suit of `card` ranked above it are still unseen."""
    index = card.index
    return known[index + 1 : index + 14 - card.rank].count(0)


def unseen_in(known: bytearray | bytes, suit: int) -> int:
    base = 13 * suit
    return known[base : base + 13].count(0)


def beats(card: Card, best: Card | None, trump: Suit | None) -> bool:
    """Whether `card` would take the trick from `best`, its current winner (None: no card or only Jesters)."""
    kind = card.kind
    if best is None:
        return kind is not _JESTER
    if best.kind is _WIZARD or kind is _JESTER:
        return False
    if kind is _WIZARD:
        return True
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is trump


def current_best(trick: Sequence[Card], trump: Suit | None) -> Card | None:
    """The card winning the trick so far; None when it is empty or holds only Jesters."""
    if not trick:
        return None
    best = trick[trick_winner(trick, trump)]
    return None if best.kind is _JESTER else best


# How likely a seat that has made its bid still beats a card: only when every card it may play would.
UNWILLING = 0.15


def survival(
    card: Card,
    led: int,
    trump: int,
    known: bytearray | bytes,
    unseen: int,
    hand_size: int,
    later: Sequence[int],
    voids: Sequence[int],
    needs: Sequence[int],
) -> float:
    """The chance that `card`, winning the trick now, is not beaten by the seats in `later`.

    Each later seat holds `hand_size` of the `unseen` cards. `led` and `trump` are suit ids (0-3,
    the index in SUITS, or -1 for none); `led` is -1 when `card` sets the suit. `voids` are the
    seats' void masks; `needs` the tricks each seat still needs for its bid. A seat beats the card
    if it holds a card that can (a Wizard; a higher card of the suit; a trump when it has none of
    the suit, which a known void settles) and wants the trick; a seat that made its bid mostly
    ducks. The cards in different hands are taken as independent: good enough to rank cards.
    """
    kind = card.kind
    if kind is _WIZARD or not later:
        return 1.0
    if kind is _JESTER:
        return 0.0
    if unseen <= 0:
        return 1.0
    h = hand_size
    # The chance that a hand of h unseen cards holds none of n given ones.
    none_of_wizards = (1.0 - known[52:56].count(0) / unseen) ** h
    index = card.index
    suit = index // 13
    higher = known[index + 1 : index + 14 - card.rank].count(0)
    trumps = unseen_in(known, trump) if trump >= 0 and trump != suit else 0
    if led < 0 or led == suit:
        # The card's own suit is followed: a higher one beats it, or a trump from a seat without the suit.
        no_higher = (1.0 - higher / unseen) ** h
        void_p = (1.0 - unseen_in(known, suit) / unseen) ** h
        suit_bit = 1 << suit
    else:
        # A trump on another suit: only a higher trump beats it, from a seat without the led suit.
        no_higher = 1.0
        void_p = (1.0 - unseen_in(known, led) / unseen) ** h
        trumps = higher
        suit_bit = 1 << led
    has_trump = 1.0 - (1.0 - trumps / unseen) ** h if trumps else 0.0
    trump_bit = 1 << trump if trump >= 0 else 0
    p = 1.0
    for seat in later:
        mask = voids[seat]
        beat_with = 0.0 if mask & trump_bit else has_trump
        if mask & suit_bit:
            safe = 1.0 - beat_with
        elif led < 0 or led == suit:
            safe = no_higher - void_p * beat_with
        else:
            safe = 1.0 - void_p * beat_with
        need = needs[seat]
        spend = min(1.0, 2 * need / h) if need > 0 else UNWILLING
        beaten = 1.0 - (1.0 - spend * (1.0 - none_of_wizards)) * max(0.0, safe)
        p *= 1.0 - (beaten if need > 0 else UNWILLING * beaten)
    return p


# -- bidding ----------------------------------------------------------------------------------

WIZARD_VALUE = 0.95


def card_values(hand: Sequence[Card], trump: Suit | None, players: int, known: bytearray | bytes) -> list[float]:
    """A rough estimate of the tricks each card of a fresh hand takes, for rounds without fitted values."""
    unseen = max(1, known.count(0))
    # The share of the unseen cards that the others hold.
    share = min(1.0, (players - 1) * len(hand) / unseen)
    wizards = known[WIZARDS].count(0)
    values: list[float] = []
    for card in hand:
        kind = card.kind
        if kind is _WIZARD:
            values.append(WIZARD_VALUE)
        elif kind is _JESTER:
            values.append(0.0)
        else:
            value = math.exp(-0.75 * share * (unseen_above(known, card) + 0.8 * wizards))
            values.append(value if card.suit is trump or trump is None else 0.7 * value)
    return values


def value_context(players: int, size: int, trump: Suit | None) -> tuple[int, int, int]:
    """The key of the fitted values for a round: rounds without trump are rarer, so they are grouped."""
    if trump is not None:
        return (players, size, 1)
    if size == DECK_SIZE // players:
        group = size
    elif size <= 2:
        group = 1
    elif size <= 5:
        group = 3
    elif size <= 9:
        group = 6
    else:
        group = 10
    return (players, group, 0)


def value_category(card: Card, trump: Suit | None, known: bytearray | bytes) -> int:
    """0 a Wizard, 1 a Jester, 2-14 a trump, 15-27 another suit, by rank among the cards not yet seen."""
    kind = card.kind
    if kind is _WIZARD:
        return 0
    if kind is _JESTER:
        return 1
    effective = 13 - unseen_above(known, card)
    return (2 if card.suit is trump else 15) + effective - 1


def estimate_tricks(hand: Sequence[Card], trump: Suit | None, players: int, known: bytearray | bytes) -> float:
    """The tricks a fresh hand should take under normal play."""
    values = VALUES.get(value_context(players, len(hand), trump))
    if values is None:
        return sum(card_values(hand, trump, players, known))
    return sum(values[value_category(card, trump, known)] for card in hand)


def sure_tricks(hand: Sequence[Card]) -> int:
    """Tricks a hand takes whatever happens (near enough): one for each Wizard."""
    return sum(1 for card in hand if card.kind is _WIZARD)


SLACK = 0.15


def adjusted_estimate(estimate: float, round_size: int, players: int, placed: Sequence[int]) -> float:
    """A trick estimate moved towards what the bids already placed leave for this hand.

    When the others bid for more tricks than there are, they fight for them and fewer are left for
    this hand; when they bid for fewer, more are.
    """
    expected_others = sum(placed) + (players - 1 - len(placed)) * round_size / players
    slack = round_size - expected_others - estimate
    return estimate + SLACK * slack * (1 + len(placed)) / players


def choose_bid(
    estimate: float,
    hand: Sequence[Card],
    round_size: int,
    players: int,
    placed: Sequence[int],
    forbidden: int | None,
) -> int:
    """A bid from a trick estimate, adjusted by the bids already placed, never the forbidden one."""
    estimate = adjusted_estimate(estimate, round_size, players, placed)
    floor = min(round_size, sure_tricks(hand))
    bid = max(floor, min(round_size, int(estimate + 0.5)))
    if bid == forbidden:
        candidates = [b for b in range(floor, round_size + 1) if b != forbidden]
        if not candidates:
            candidates = [b for b in range(round_size + 1) if b != forbidden]
        bid = min(candidates, key=lambda b: (abs(b - estimate), -b))
    return bid


def trump_scores(hand: Sequence[Card], players: int, known: bytearray | bytes) -> dict[Suit, float]:
    """For each suit, the tricks the hand is estimated to take with it as trump."""
    return {suit: estimate_tricks(hand, suit, players, known) for suit in SUITS}


def strongest_suit(hand: Sequence[Card]) -> Suit:
    """The suit the hand is strongest in: by count, then by ranks (ties in Suit order)."""

    def score(suit: Suit) -> tuple[int, int]:
        ranks = [card.rank for card in hand if card.suit is suit]
        return (len(ranks), sum(ranks))

    return max(SUITS, key=score)


# -- playing ----------------------------------------------------------------------------------

SAFE = 0.95
GOOD_FOLLOW = 0.6


# When tricks are needed and none can be won now: the order cards are thrown in, lowest first. A
# Jester ranks with a plain 9: a low card does the job as well and the Jester is kept, since it
# ducks any trick later, once the bid is made.
JESTER_DISCARD = 9.5


def play_card(
    hand: Sequence[Card],
    legal: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    seat: int,
    needs: Sequence[int],
    known: bytearray | bytes,
    voids: Sequence[int],
    later: Sequence[int],
) -> Card:
    """The normal level's card: win cheaply while tricks are needed, duck once the bid is made.

    `needs` are each seat's bid minus the tricks it won; `later` the seats still to play to this
    trick after `seat`; `known` marks the cards seen by everyone and this hand; `voids` are the
    seats' void masks (`void_mask`).
    """
    if len(legal) == 1:
        return legal[0]
    need = needs[seat]
    size = len(hand)
    unseen = known.count(0)
    trump_id = -1 if trump is None else SUIT_ID[trump]
    led = led_suit(trick)
    led_id = -1 if led is None else SUIT_ID[led]
    best = current_best(trick, trump)
    if need > 0:
        if not trick:
            # Leading for tricks: the strongest card. Giving a lead away to keep strong cards for
            # later lost more than it kept (measured against the rule-of-thumb player).
            return max(legal, key=lambda c: strength(c, trump))
        winners = [card for card in legal if beats(card, best, trump)]
        if winners:
            if not later:
                return min(winners, key=lambda c: strength(c, trump))
            rated = [(survival(c, led_id, trump_id, known, unseen, size, later, voids, needs), c) for c in winners]
            # A Wizard takes a trick whenever it is played, so a plain card that should hold is
            # played first: its chance only falls as the others run out of suits.
            plain = [(p, c) for p, c in rated if c.kind is not _WIZARD]
            safe = [c for p, c in plain if p >= SAFE]
            if safe:
                return min(safe, key=lambda c: strength(c, trump))
            good = [c for p, c in plain if p >= GOOD_FOLLOW]
            if good:
                return min(good, key=lambda c: strength(c, trump))
            if 2 * need >= size or len(plain) < len(rated):
                return max(rated, key=lambda pc: (pc[0], -strength(pc[1], trump)))[1]
            # A long shot still beats giving the trick away: tricks are needed.
            return min(winners, key=lambda c: strength(c, trump))
        # No card wins the trick: throw the least useful one.
        return min(legal, key=lambda c: JESTER_DISCARD if c.kind is _JESTER else strength(c, trump))
    # At or past the bid: lose the trick if possible, shedding the most dangerous card that still loses.
    if not trick:
        rated = [(survival(c, -1, trump_id, known, unseen, size, later, voids, needs), c) for c in legal]
        lowest = min(p for p, _ in rated)
        return max((c for p, c in rated if p <= lowest + 0.05), key=lambda c: danger(c, trump))
    if best is not None and best.kind is not _WIZARD:
        # A Wizard takes a trick whenever it is played (unless behind another Wizard), so taking
        # this one with it costs nothing more, and denies it to an opponent who needs it.
        players = len(needs)
        winner = (seat - len(trick) + trick_winner(trick, trump)) % players
        if 0 < needs[winner] <= size:
            for card in legal:
                if card.kind is _WIZARD:
                    return card
    losers = [card for card in legal if not beats(card, best, trump)]
    if losers:
        return max(losers, key=lambda c: danger(c, trump))
    if not later:
        return max(legal, key=lambda c: strength(c, trump))
    return min(
        legal,
        key=lambda c: (survival(c, led_id, trump_id, known, unseen, size, later, voids, needs), -strength(c, trump)),
    )
