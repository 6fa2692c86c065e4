"""The search yardstick: plain Perfect-Information Monte Carlo (PIMC), written apart from `bot.ai`
so that hard is measured against a search it shares no code with.

For each decision it deals the cards it cannot see to the others many times over, consistently
with what it saw (hand sizes, the cards gone, the suits a seat showed it lacks), and in every such
deal plays each candidate to the end of the round with a simple rollout policy for every seat; it
takes the candidate with the best average round points. It bids the same way: each bid it may
make is played out over the same deals, the seats still to bid bidding by a count of their big
cards, and the bid with the best average score is taken. Nothing else is read into the others'
bids or plays: that is what makes it plain.

The work per decision is a number of simulated card plays (`budget`), so a seed fixes every
choice. It sees only its seat's `Observation`; which cards may be played and which card takes a
trick come from the engine, except in the rollouts, which restate the two rules on card numbers
for speed (a test holds them to the engine's).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from bot.engine import Action, Bid, Card, ChooseTrump, Kind, Observation, Phase, Play, Suit
from bot.engine.rules import led_suit, round_points

SUITS = tuple(Suit)
# A card is its DECK index in the rollouts: 13 per suit (ranks 1-13) in SUITS order, then the
# four Wizards, then the four Jesters.
WIZARD = 4
JESTER = 5
SUIT_OF = tuple(i // 13 if i < 52 else WIZARD if i < 56 else JESTER for i in range(60))
RANK_OF = tuple(i % 13 + 1 if i < 52 else 0 for i in range(60))


def _power(trump: int) -> tuple[int, ...]:
    """How strong each card is for the rollout policy: Jesters, plain cards by rank, trumps, Wizards."""
    return tuple(
        0 if SUIT_OF[i] == JESTER else 100 if SUIT_OF[i] == WIZARD else RANK_OF[i] + (20 if SUIT_OF[i] == trump else 0)
        for i in range(60)
    )


def _worth(trump: int, led: int) -> tuple[int, ...]:
    """What each card is worth in a trick whose led suit is `led` (4 when a Wizard leads): the
    highest takes the trick, the first of equals. A Jester is worth least, so that on Jesters
    alone the first one takes it."""
    return tuple(
        -1
        if SUIT_OF[i] == JESTER
        else 1000
        if SUIT_OF[i] == WIZARD
        else 200 + RANK_OF[i]
        if SUIT_OF[i] == trump
        else 100 + RANK_OF[i]
        if SUIT_OF[i] == led
        else 0
        for i in range(60)
    )


# By trump suit index + 1 (0: no trump). THROW: the order cards are thrown in while tricks are
# needed and none can be taken: a Jester after the plain cards below 10, since once the bid is
# made it loses any trick.
POWER = tuple(_power(trump) for trump in range(-1, 4))
THROW = tuple(tuple(9.5 if SUIT_OF[i] == JESTER else power[i] for i in range(60)) for power in POWER)
WORTH = tuple(tuple(_worth(trump, led) for led in range(5)) for trump in range(-1, 4))


def rollout(
    hands: list[list[int]],
    trump: int,
    needs: list[int],
    leader: int,
    trick: list[int],
    record: list[int] | None = None,
) -> list[int]:
    """Play the round out from here with the rollout policy; the tricks each seat takes from here.

    The policy: a seat that still needs tricks leads its strongest card, follows with the cheapest
    card that takes the trick, or else throws its weakest (a Jester only before a plain 10 or
    more, or a trump); a seat at or past its bid leads its weakest card, follows with its strongest
    card that loses the trick, or, if every card takes it, its strongest when it plays last (the
    trick is its own anyway) and its weakest before.

    `hands` (DECK indexes) and `needs` (each seat's bid less its tricks) are changed in place;
    `trick` holds the cards of the trick under way, led by `leader`; `trump` is a suit index or -1.
    The cards played are appended to `record` if one is given.
    """
    players = len(hands)
    power = POWER[trump + 1]
    throw = THROW[trump + 1]
    worths = WORTH[trump + 1]
    taken = [0] * players
    led = -1  # -1: nothing but Jesters yet
    worth = worths[0]
    best_at, best = 0, -1
    for position, card in enumerate(trick):
        if SUIT_OF[card] != JESTER:
            if led < 0:
                led = SUIT_OF[card]
                worth = worths[led]
            if worth[card] > best:
                best_at, best = position, worth[card]
    count = len(trick)
    seat = (leader + count) % players
    if count == players:
        seat = (leader + best_at) % players
        taken[seat] += 1
        needs[seat] -= 1
        count, led, best_at, best = 0, -1, 0, -1
    while hands[seat]:
        hand = hands[seat]
        if 0 <= led < 4 and any(SUIT_OF[c] == led for c in hand):
            legal = [c for c in hand if SUIT_OF[c] == led or SUIT_OF[c] >= WIZARD]
        else:
            legal = hand
        if len(legal) == 1:
            card = legal[0]
        elif not count:
            card = max(legal, key=power.__getitem__) if needs[seat] > 0 else min(legal, key=power.__getitem__)
        else:
            winners = [c for c in legal if SUIT_OF[c] != JESTER] if led < 0 else [c for c in legal if worth[c] > best]
            if needs[seat] > 0:
                card = min(winners, key=power.__getitem__) if winners else min(legal, key=throw.__getitem__)
            else:
                losers = [c for c in legal if c not in winners]
                if losers:
                    card = max(losers, key=power.__getitem__)
                elif count == players - 1:
                    card = max(legal, key=power.__getitem__)
                else:
                    card = min(legal, key=power.__getitem__)
        hand.remove(card)
        if record is not None:
            record.append(card)
        if SUIT_OF[card] != JESTER:
            if led < 0:
                led = SUIT_OF[card]
                worth = worths[led]
            if worth[card] > best:
                best_at, best = count, worth[card]
        count += 1
        if count == players:
            seat = (seat + 1 + best_at) % players
            taken[seat] += 1
            needs[seat] -= 1
            count, led, best_at, best = 0, -1, 0, -1
        else:
            seat = (seat + 1) % players
    return taken


# -- what the seat knows ------------------------------------------------------------------------


def seen(observation: Observation) -> tuple[list[int], list[int], list[list[int]]]:
    """The cards unseen by the seat (by DECK index), the suits each seat showed it lacks (a mask
    of suit indexes per seat), and the others' hands when the round is played blind."""
    players = observation.players
    gone = set()
    if observation.turned_up is not None:
        gone.add(observation.turned_up.index)
    voids = [0] * players
    tricks = [(trick.leader, trick.cards) for trick in observation.tricks]
    tricks.append((observation.trick_leader, observation.trick))
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            gone.add(card.index)
            led = led_suit(cards[:position])
            # Playing a plain card of another suit than the led one shows the seat has none of it.
            if led is not None and card.kind is Kind.NUMBER and card.suit is not led:
                voids[(leader + position) % players] |= 1 << SUITS.index(led)
    known = [[card.index for card in hand] for hand in observation.others_cards] if observation.blind else []
    for card in observation.hand:
        gone.add(card.index)
    for hand in known:
        gone.update(hand)
    unseen = [i for i in range(60) if i not in gone]
    return unseen, voids, known


def deal(
    rng: random.Random, unseen: Sequence[int], sizes: Sequence[int], voids: Sequence[int], free: Sequence[int]
) -> list[list[int]]:
    """Deal `unseen` so that each seat in `free` gets `sizes[seat]` cards, none of a suit it lacks;
    the rest stay undealt. A card only some seats may hold goes to one of them at random; when
    they are full, cards already dealt move along (an augmenting path, as in bipartite matching),
    so a consistent deal is found whenever there is one."""
    players = len(sizes)
    cards = list(unseen)
    rng.shuffle(cards)
    # Places left per seat; -1 is the undealt stock, which may take any card.
    room = {seat: sizes[seat] for seat in free}
    room[-1] = len(cards) - sum(room.values())
    if room[-1] < 0:
        raise ValueError("more cards in the hands than unseen")

    def takers(card: int) -> list[int]:
        suit = SUIT_OF[card]
        return [seat for seat in free if suit >= 4 or not voids[seat] >> suit & 1] + [-1]

    unrestricted: list[int] = []
    placed: dict[int, int] = {}  # a restricted card -> its seat, or -1
    for card in cards:
        allowed = takers(card)
        if len(allowed) > len(free):
            unrestricted.append(card)
            continue
        # A seat (or the stock) with a chance in proportion to its places left, as a shuffle would.
        options = [seat for seat in allowed if room[seat]]
        if options:
            pick = rng.random() * sum(room[seat] for seat in options)
            for where in options:
                pick -= room[where]
                if pick < 0:
                    break
        else:
            where = _make_room(allowed, placed, room, takers)
        placed[card] = where
        room[where] -= 1
    hands: list[list[int]] = [[] for _ in range(players)]
    for card, where in placed.items():
        if where >= 0:
            hands[where].append(card)
    for card in unrestricted:
        for seat in free:
            if room[seat]:
                room[seat] -= 1
                hands[seat].append(card)
                break
    return hands


def _make_room(
    allowed: list[int], placed: dict[int, int], room: dict[int, int], takers: Callable[[int], list[int]]
) -> int:
    """Free a place among the full seats `allowed` by moving restricted cards already placed along
    a path to a seat with room; the seat freed."""
    parent: dict[int, tuple[int, int] | None] = dict.fromkeys(allowed)
    queue = list(allowed)
    for seat in queue:
        for other, where in list(placed.items()):
            if where != seat:
                continue
            for target in takers(other):
                if target in parent:
                    continue
                parent[target] = (seat, other)
                if room[target]:
                    # Each card on the path moves one step on; the first seat is left a place.
                    room[target] -= 1
                    step = target
                    link = parent[step]
                    while link is not None:
                        source, moved = link
                        placed[moved] = step
                        step = source
                        link = parent[step]
                    room[step] += 1
                    return step
                queue.append(target)
    raise ValueError("no deal fits the suits the seats lack")


# -- the player ---------------------------------------------------------------------------------

# A rough count of the tricks a hand takes, for the seats still to bid in a sampled deal: each
# Wizard one, a high trump most of one, a plain 13 a fair chance.
HIGH_TRUMP = 10


def rough_bid(hand: Sequence[int], trump: int, players: int, size: int) -> int:
    count = 0.0
    for card in hand:
        suit = SUIT_OF[card]
        if suit == WIZARD:
            count += 1
        elif suit == trump:
            count += 0.85 if RANK_OF[card] >= HIGH_TRUMP else 0.3
        elif suit < 4 and RANK_OF[card] == 13:
            count += 0.75 if players <= 4 else 0.55
        elif suit < 4 and RANK_OF[card] == 12 and trump < 0:
            count += 0.3
    return min(size, int(count + 0.5))


def same_play(hand: Sequence[Card], gone: set[int]) -> list[Card]:
    """One card of each run of the hand's cards that play alike: all Wizards, all Jesters, and
    cards of a suit whose ranks lie between nothing still unseen."""
    kept: list[Card] = []
    for card in sorted(hand, key=lambda c: c.index):
        if kept:
            last = kept[-1]
            if card.kind is not Kind.NUMBER and last.kind is card.kind:
                continue
            if (
                card.kind is Kind.NUMBER
                and last.kind is Kind.NUMBER
                and last.suit is card.suit
                and all(i in gone for i in range(last.index + 1, card.index))
            ):
                continue
        kept.append(card)
    return kept


class PimcPlayer:
    """Plain determinized search (see the module docstring): `budget` simulated card plays per
    decision, spread over at least `min_worlds` and at most `max_worlds` sampled deals."""

    def __init__(
        self, rng: random.Random, *, budget: int = 100_000, min_worlds: int = 10, max_worlds: int = 400
    ) -> None:
        self.rng = rng
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.CHOOSE_TRUMP:
            # The suit it holds most of, then the highest ranks.
            counts = Counter(card.suit for card in observation.hand if card.suit is not None)
            ranks: Counter[Suit] = Counter()
            for card in observation.hand:
                if card.suit is not None:
                    ranks[card.suit] += card.rank
            return ChooseTrump(max(SUITS, key=lambda suit: (counts[suit], ranks[suit])))
        if observation.phase is Phase.BID:
            return self._bid(observation)
        return self._play(observation)

    def _search(
        self,
        count: int,
        plays: int,
        sample: Callable[[], list[list[int]]],
        value: Callable[[list[list[int]], int], float],
    ) -> int:
        """The best of `count` candidates by their average `value` over sampled deals, found by
        sequential halving (Karnin, Koren and Somekh, 2013): the budget is split into rounds; in
        each, the candidates still in are played out on the same fresh deals, and the worse half
        leaves. `plays` is what a rollout costs."""
        alive = list(range(count))
        totals = [0.0] * count
        phases = max(1, math.ceil(math.log2(count)))
        for phase in range(phases):
            worlds = self.budget // phases // max(1, len(alive) * plays)
            worlds = max(math.ceil(self.min_worlds / phases), min(self.max_worlds // phases, worlds))
            for _ in range(worlds):
                hands = sample()
                for i in alive:
                    totals[i] += value(hands, i)
            if phase < phases - 1:
                alive = sorted(alive, key=lambda i: (-totals[i], i))[: math.ceil(len(alive) / 2)]
        # Among equal averages, the first candidate.
        return max(alive, key=lambda i: (totals[i], -i))

    def _sample(
        self, observation: Observation, unseen: list[int], voids: list[int], known: list[list[int]]
    ) -> list[list[int]]:
        """A deal of every hand: the seat's own as it is, the others' drawn from the unseen cards
        (in a blind round the others' are shown and its own is drawn)."""
        seat = observation.seat
        sizes = observation.hand_sizes
        if observation.blind:
            hands = [list(hand) for hand in known]
            hands[seat] = deal(self.rng, unseen, sizes, voids, [seat])[seat]
            return hands
        free = [other for other in range(observation.players) if other != seat]
        hands = deal(self.rng, unseen, sizes, voids, free)
        hands[seat] = [card.index for card in observation.hand]
        return hands

    def _bid(self, observation: Observation) -> Action:
        seat = observation.seat
        players = observation.players
        size = observation.round
        trump = -1 if observation.trump is None else SUITS.index(observation.trump)
        allowed = [action.tricks for action in observation.legal if isinstance(action, Bid)]
        unseen, voids, known = seen(observation)
        first = (observation.dealer + 1) % players
        bids: list[int] = []

        def sample() -> list[list[int]]:
            hands = self._sample(observation, unseen, voids, known)
            bids[:] = [
                rough_bid(hands[other], trump, players, size) if bid is None else bid
                for other, bid in enumerate(observation.bids)
            ]
            return hands

        def value(hands: list[list[int]], i: int) -> float:
            needs = list(bids)
            needs[seat] = allowed[i]
            taken = rollout([list(hand) for hand in hands], trump, needs, first, [])
            return round_points(allowed[i], taken[seat])

        return Bid(allowed[self._search(len(allowed), players * size, sample, value)])

    def _play(self, observation: Observation) -> Action:
        seat = observation.seat
        trump = -1 if observation.trump is None else SUITS.index(observation.trump)
        legal = [action.card for action in observation.legal if isinstance(action, Play)]
        unseen, voids, known = seen(observation)
        gone = set(range(60)) - set(unseen)
        candidates = same_play(legal, gone)
        if len(candidates) == 1:
            return Play(candidates[0])
        bids = [bid or 0 for bid in observation.bids]
        trick = [card.index for card in observation.trick]
        won = observation.tricks_won

        def value(hands: list[list[int]], i: int) -> float:
            card = candidates[i].index
            dealt = [list(hand) for hand in hands]
            dealt[seat].remove(card)
            needs = [bid - w for bid, w in zip(bids, won, strict=True)]
            taken = rollout(dealt, trump, needs, observation.trick_leader, [*trick, card])
            return round_points(bids[seat], won[seat] + taken[seat])

        def sample() -> list[list[int]]:
            return self._sample(observation, unseen, voids, known)

        return Play(candidates[self._search(len(candidates), sum(observation.hand_sizes), sample, value)])


__all__ = ["PimcPlayer", "rollout"]
