"""The computer players. Each decides from its own `Observation` only, with its own random generator."""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bot.engine.actions import BIDS, CHOICES, PLAYS, Action, Bid, Play
from bot.engine.cards import Card, Kind, Suit
from bot.engine.game import Observation, Phase
from bot.engine.rules import round_points

from . import policy
from .knowledge import Hint, Knowledge, bid_order, knowledge, play_hints
from .sampling import deal_unseen
from .table import later_seats, rollout
from .values import VALUES


@runtime_checkable
class Player(Protocol):
    """A computer player: given what its seat may see, the action it takes. Only called on its turn."""

    def choose(self, observation: Observation) -> Action: ...


class Level(enum.Enum):
    """How well a computer player plays."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def make_player(level: Level | str, seed: int) -> Player:
    """A player of `level` ("easy", "normal" or "hard") with its own generator seeded by `seed`."""
    level = Level(level)
    rng = random.Random(seed)
    if level is Level.EASY:
        return EasyPlayer(rng)
    if level is Level.NORMAL:
        return NormalPlayer(rng)
    return HardPlayer(rng)


# -- what every level works out from an observation ---------------------------------------------


def known_cards(observation: Observation, facts: Knowledge | None = None) -> bytearray:
    """The cards this seat has seen (played, turned up, or in its hand) marked by DECK index."""
    if facts is None:
        facts = knowledge(observation)
    known = bytearray(facts.gone)
    for card in observation.hand:
        known[card.index] = 1
    return known


def placed_bids(observation: Observation) -> list[int]:
    return [bid for bid in observation.bids if bid is not None]


def forbidden_of(observation: Observation) -> int | None:
    """The bid the variant forbids this seat now, read off its legal actions."""
    allowed = {action.tricks for action in observation.legal if isinstance(action, Bid)}
    missing = [n for n in range(observation.round + 1) if n not in allowed]
    return missing[0] if missing else None


def need_of(observation: Observation) -> int:
    seat = observation.seat
    bid = observation.bids[seat]
    return (bid or 0) - observation.tricks_won[seat]


def legal_plays(observation: Observation) -> list[Card]:
    return [action.card for action in observation.legal if isinstance(action, Play)]


def normal_bid(observation: Observation) -> int:
    hand = observation.hand
    known = known_cards(observation)
    estimate = policy.estimate_tricks(hand, observation.trump, observation.players, known)
    return policy.choose_bid(
        estimate, hand, observation.round, observation.players, placed_bids(observation), forbidden_of(observation)
    )


# How many more estimated tricks another suit must promise to be named over the longest one: the
# fitted values are regression coefficients, too noisy to settle a near tie.
TRUMP_MARGIN = 0.25


def normal_trump(observation: Observation) -> Suit:
    """The suit that makes the hand strongest: the longest (then highest) suit, unless another
    clearly promises more tricks."""
    known = known_cards(observation)
    scores = policy.trump_scores(observation.hand, observation.players, known)
    fallback = policy.strongest_suit(observation.hand)
    best = max(policy.SUITS, key=lambda suit: scores[suit])
    return best if scores[best] > scores[fallback] + TRUMP_MARGIN else fallback


def normal_card(observation: Observation, facts: Knowledge | None = None) -> Card:
    if facts is None:
        facts = knowledge(observation)
    legal = legal_plays(observation)
    needs = [(bid or 0) - won for bid, won in zip(observation.bids, observation.tricks_won, strict=True)]
    return policy.play_card(
        observation.hand,
        legal,
        observation.trick,
        observation.trump,
        observation.seat,
        needs,
        known_cards(observation, facts),
        [policy.void_mask(v) for v in facts.voids],
        later_seats(observation.seat, observation.trick, observation.players),
    )


def sensible_cards(observation: Observation) -> list[Card]:
    """The legal cards that are not blunders.

    At or past the bid, a card that takes the trick is a blunder when one that loses it can be
    played; when every remaining trick is needed, so is leading anything but the strongest cards.
    """
    legal = legal_plays(observation)
    trick = observation.trick
    trump = observation.trump
    need = need_of(observation)
    if need <= 0 and trick:
        best = policy.current_best(trick, trump)
        losers = [card for card in legal if not policy.beats(card, best, trump)]
        return losers or legal
    if need > 0 and need >= len(observation.hand) and not trick:
        top = max(policy.strength(card, trump) for card in legal)
        return [card for card in legal if policy.strength(card, trump) == top]
    return legal


# -- the levels ---------------------------------------------------------------------------------


class RandomPlayer:
    """Any legal action, uniformly: the baseline the levels are measured against."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal)


class EasyPlayer:
    """Plausible but loose: bids by counting its big cards with some noise, plays mostly at random.

    It still never bids below its Wizards, never throws away a trick it needs when leading for
    all of them, and never takes a trick past its bid when it can lose it.
    """

    def __init__(self, rng: random.Random, care: float = 0.5) -> None:
        self.rng = rng
        self.care = care  # the chance of playing the normal level's card instead of a random sensible one

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.CHOOSE_TRUMP:
            return CHOICES[policy.SUITS.index(policy.strongest_suit(observation.hand))]
        if observation.phase is Phase.BID:
            return BIDS[self._bid(observation)]
        if self.rng.random() < self.care:
            return PLAYS[normal_card(observation).index]
        return PLAYS[self.rng.choice(sensible_cards(observation)).index]

    def _bid(self, observation: Observation) -> int:
        trump = observation.trump
        count = 0.0
        for card in observation.hand:
            if card.kind is Kind.WIZARD or (card.suit is not None and card.suit is trump and card.rank >= 10):
                count += 1
            elif card.rank == 13 and card.suit is not None:
                count += 0.5
        noisy = int(count + 0.5) + self.rng.choice((-1, 0, 0, 1))
        floor = policy.sure_tricks(observation.hand)
        bid = max(floor, min(observation.round, noisy))
        allowed = [action.tricks for action in observation.legal if isinstance(action, Bid)]
        if bid not in allowed:
            bid = min(allowed, key=lambda b: (abs(b - bid), b < floor, self.rng.random()))
        return bid


class NormalPlayer:
    """Heuristics: bids from card strength, trump, seat and player count; wins cheaply while it
    needs tricks, ducks once it has them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.CHOOSE_TRUMP:
            return CHOICES[policy.SUITS.index(normal_trump(observation))]
        if observation.phase is Phase.BID:
            return BIDS[normal_bid(observation)]
        return PLAYS[normal_card(observation).index]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What hard's search makes of one decision: the action it takes and, for each action it
    weighed, its expected value (the seat's round points less `spite` times the others' mean,
    which the search maximises) and the seat's expected tricks this round. Empty when there was
    nothing to weigh."""

    choice: Action
    values: dict[Action, float]
    tricks: dict[Action, float]


Clock = Callable[[], float]
# What drawing one world costs, in card plays of a rollout: the few weighed deals it is drawn from
# (measured: a world takes about as long as 50 plays).
SAMPLE_COST = 50
# The bids tried around the normal bid: farther ones are never best once the others bid after it.
BID_WINDOW = 2
# From how many card plays a round lasts (players x cards each) hard bids the normal bid. Over a
# long round the cheap rollout policy loses tricks it needs more readily than it takes ones it
# does not want, so the search bids low: in rounds of 9 or more cards of four players hard bid
# 0.3 tricks under the search yardstick and scored 5 points a round less, while in shorter rounds
# the two were even. Played out from the real deals, the normal bid did better than the searched
# one in rounds of 9 or more cards and worse in shorter ones; from 32 plays, not 36, it also wins
# five players' round of 7 cards (35 plays) and costs four players nothing measurable (steps 3
# and 16 in docs/computer-players.md).
LONG_ROUND = 32


def is_long_round(players: int, cards: int) -> bool:
    """Whether a round of `cards` cards each lasts LONG_ROUND card plays or more."""
    return players * cards >= LONG_ROUND


class HardPlayer:
    """Determinized Monte Carlo search, sized to answer in a few tens of milliseconds.

    It deals the cards it cannot see to the others consistently with what it saw (cards played,
    known voids, hand sizes, the turned-up card), and plays each such deal to the end of the
    round once per candidate action (the same deals for every candidate). It takes the action
    with the best average result: its own round points less `spite` times the others' mean, since
    what counts in the end is the lead over the others. Bids are chosen the same way, the later
    bidders bidding by the normal heuristic in each world; the trump choice is the normal one.

    Better worlds: each is `attempts` deals, each weighed in proportion to how well it explains
    the bids (against every deal of the decision in short rounds, of its world in long ones:
    `bid_likelihood`, `sample_deals`), and each deal keeps from the others, each with
    its own chance, the cards their plays say they lack (`knowledge.play_hints`: a seat that
    needed the trick and let it go held nothing legal that takes it; one past its bid that took
    it held nothing that loses it; one that followed under the winner kept no card it would have
    played first). More worlds in the same time: the rollouts run on card numbers
    (`table.rollout`, a cheap policy: the normal play without its hold-up chances); deals are read
    in one pass (`read_hand`); candidates are cut to one card of each run of cards that play alike
    (`distinct_cards`) and to bids near the normal one.

    The work is capped by a number of simulated card plays per decision (`budget`), so a seed fixes
    every choice; the wall-clock `deadline` is only a safety stop on a slow or busy machine.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        budget: int = 8000,
        min_worlds: int = 8,
        max_worlds: int = 300,
        deadline: float = 0.15,
        clock: Clock = time.perf_counter,
        infer: bool = True,
        attempts: int = 3,
        spite: float = 0.5,
    ) -> None:
        self.rng = rng
        self.budget = budget  # simulated card plays per decision
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.deadline = deadline  # seconds; stops the search early, never the first world
        self.clock = clock
        self.infer = infer  # weigh sampled worlds by how well they explain the others' bids
        self.attempts = attempts  # deals a world is made of when weighing them
        self.spite = spite  # how much the others' points count against its own

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.CHOOSE_TRUMP:
            return CHOICES[policy.SUITS.index(normal_trump(observation))]
        if observation.phase is Phase.BID:
            return BIDS[self._bid(observation)]
        return PLAYS[self._card(observation).index]

    def _worlds(self, candidates: int, plays_per_rollout: int) -> int:
        """How many worlds fit the budget. With `infer`, a world is the `attempts` deals it is
        drawn from, each played out (`sample_deals`), and drawing them costs about as much as
        SAMPLE_COST plays; `min_worlds` then counts deals, so that the costliest decisions play
        out no more than they would with one deal a world."""
        deals = self.attempts if self.infer else 1
        cost = deals * candidates * plays_per_rollout + (SAMPLE_COST if self.infer else 0)
        worlds = self.budget // max(1, cost)
        return max(-(-self.min_worlds // deals), min(self.max_worlds, worlds))

    def sample_deals(
        self, observation: Observation, facts: Knowledge, hints: Sequence[Hint] = ()
    ) -> list[tuple[list[list[Card]], float]]:
        """A world: deals of the unseen cards consistent with the observation (the seat's own hand
        as it is), each with its weight.

        With `infer`, `attempts` deals, each weighing how well the others' bids fit their hands in
        it (`bid_likelihood`), and each keeping from each seat the cards its plays say it lacks
        (`hints`, each taken with its own chance); without, one deal of weight 1. In short rounds
        the search plays out every deal and divides by the weight of all the deals of the
        decision, not of the world alone: the deals are drawn from what the observation allows and
        the bids make some likelier than others, so that is the expectation over the deals as the
        bids say they were (importance sampling). In long rounds the weights of a world's deals
        are its shares of it, adding up to one (`LONG_ROUND`).
        """
        masks = [policy.void_mask(v) for v in facts.voids]
        deals: list[list[list[Card]]] = []
        weights: list[float] = []
        for _ in range(self.attempts if self.infer else 1):
            hands = self._deal(observation, facts, masks, hints if self.infer else ())
            hands[observation.seat] = list(observation.hand)
            if not self.infer:
                return [(hands, 1.0)]
            deals.append(hands)
            weights.append(bid_likelihood(observation, facts, hands))
        if is_long_round(observation.players, observation.round):
            # Long rounds' bids are larger and fit few deals well, so weights pooled over the
            # decision fall on a few deals (step 17): there each world shares one between its deals.
            total = sum(weights)
            weights = [weight / total for weight in weights]
        return list(zip(deals, weights, strict=True))

    def _deal(
        self, observation: Observation, facts: Knowledge, voids: list[int], hints: Sequence[Hint]
    ) -> list[list[Card]]:
        """A deal that respects the voids and the hints drawn for it, each with its trust."""
        absent = [0] * observation.players
        for hint in hints:
            if self.rng.random() < hint.trust:
                absent[hint.seat] |= hint.cards
        try:
            return deal_unseen(self.rng, facts.unseen, observation.hand_sizes, voids, observation.seat, absent)
        except ValueError:
            # The hints taken contradict each other or the voids: the voids alone always fit.
            return deal_unseen(self.rng, facts.unseen, observation.hand_sizes, voids, observation.seat)

    # -- what the search makes of a decision

    def evaluate(self, observation: Observation, also: Sequence[Action] = ()) -> Evaluation:
        """What the search makes of this bid or card play: the value and expected tricks of each
        action it weighs, and the one it takes (the same one `choose` takes from the same generator
        state). The actions in `also` are weighed too, on the same worlds, but never taken."""
        if observation.phase is Phase.BID:
            return self._bid_values(observation, [a.tricks for a in also if isinstance(a, Bid)])
        if observation.phase is Phase.PLAY:
            return self._card_values(observation, [a.card for a in also if isinstance(a, Play)])
        raise ValueError(f"hard evaluates bids and card plays, not {observation.phase}")

    # -- playing

    def _card(self, observation: Observation) -> Card:
        choice = self._card_values(observation, ()).choice
        assert isinstance(choice, Play)
        return choice.card

    def _card_values(self, observation: Observation, also: Sequence[Card]) -> Evaluation:
        start = self.clock()
        seat = observation.seat
        facts = knowledge(observation)
        candidates = sensible_cards(observation)
        if need_of(observation) <= 0 and observation.trick:
            # Once the bid is made, a Wizard may still take a trick to break an opponent's bid:
            # it takes one whenever it is played, so the search weighs when.
            candidates += [card for card in legal_plays(observation) if card.kind is Kind.WIZARD][:1]
        known = known_cards(observation, facts)
        candidates = distinct_cards(candidates, known)
        default = normal_card(observation, facts)
        hints = play_hints(observation)

        # A card that plays like one searched is worth the same; only the others are searched too.
        def like(card: Card, cards: Sequence[Card]) -> Card | None:
            return next((c for c in cards if len(distinct_cards([c, card], known)) == 1), None)

        searched = candidates + distinct_cards([card for card in also if like(card, candidates) is None], known)
        if len(searched) == 1:
            return Evaluation(PLAYS[candidates[0].index], {}, {})
        bids = [bid or 0 for bid in observation.bids]
        remaining = sum(observation.hand_sizes)
        trump = suit_id(observation.trump)
        trick = [card.index for card in observation.trick]
        # Sized by its own candidates, so weighing `also` leaves its choice as it is.
        worlds = self._worlds(len(candidates), remaining)
        totals = [0.0] * len(searched)
        tricks = [0.0] * len(searched)
        mass = 0.0  # the weight of the deals played out
        done = 0
        for world in range(worlds):
            if world and self.clock() - start > self.deadline:
                break
            done += 1
            for hands, weight in self.sample_deals(observation, facts, hints):
                mass += weight
                numbers = [[card.index for card in hand] for hand in hands]
                for i, card in enumerate(searched):
                    dealt = [list(hand) for hand in numbers]
                    dealt[seat].remove(card.index)
                    needs = [bid - won for bid, won in zip(bids, observation.tricks_won, strict=True)]
                    taken = rollout(dealt, trump, needs, observation.trick_leader, [*trick, card.index])
                    totals[i] += weight * self._score(points_after(bids, observation.tricks_won, taken), seat)
                    tricks[i] += weight * (observation.tricks_won[seat] + taken[seat])
        if is_long_round(observation.players, observation.round):
            mass = done
        own = totals[: len(candidates)]
        top = max(own)
        best = [card for card, total in zip(candidates, own, strict=True) if total >= top - 1e-9]
        # Among equals, the normal card (or one that plays alike) keeps the play natural.
        choice = next((default for card in best if len(distinct_cards([card, default], known)) == 1), best[0])
        values: dict[Action, float] = {
            PLAYS[card.index]: total / mass for card, total in zip(searched, totals, strict=True)
        }
        won: dict[Action, float] = {
            PLAYS[card.index]: count / mass for card, count in zip(searched, tricks, strict=True)
        }
        for card in [*also, choice]:
            twin = like(card, searched)
            if twin is not None:
                values[PLAYS[card.index]] = values[PLAYS[twin.index]]
                won[PLAYS[card.index]] = won[PLAYS[twin.index]]
        return Evaluation(PLAYS[choice.index], values, won)

    def _score(self, points: Sequence[int], seat: int) -> float:
        if not self.spite:
            return float(points[seat])
        others = (sum(points) - points[seat]) / (len(points) - 1)
        return points[seat] - self.spite * others

    # -- bidding

    def _bid(self, observation: Observation) -> int:
        choice = self._bid_values(observation, ()).choice
        assert isinstance(choice, Bid)
        return choice.tricks

    def _bid_values(self, observation: Observation, also: Sequence[int]) -> Evaluation:
        start = self.clock()
        seat = observation.seat
        players = observation.players
        size = observation.round
        hand = list(observation.hand)
        trump = observation.trump
        facts = knowledge(observation)
        allowed = [action.tricks for action in observation.legal if isinstance(action, Bid)]
        floor = policy.sure_tricks(hand)
        heuristic = normal_bid(observation)
        if is_long_round(players, size) and heuristic in allowed:
            # Over a long round the rollouts misjudge bids (see LONG_ROUND): the normal bid is
            # taken, and the search weighs only what it is asked to.
            candidates = [heuristic]
        else:
            candidates = [b for b in allowed if b >= floor and abs(b - heuristic) <= BID_WINDOW] or allowed
        searched = candidates + sorted({b for b in also if b not in candidates})
        if len(searched) == 1 and not also:
            return Evaluation(BIDS[candidates[0]], {}, {})
        order = bid_order(observation)
        after = order[order.index(seat) + 1 :]
        trump_id = suit_id(trump)
        # Sized by its own candidates, so weighing `also` leaves its choice as it is.
        worlds = self._worlds(len(candidates), players * size)
        totals = [0.0] * len(searched)
        tricks = [0.0] * len(searched)
        mass = 0.0  # the weight of the deals played out
        done = 0
        for world in range(worlds):
            if world and self.clock() - start > self.deadline:
                break
            done += 1
            for hands, weight in self.sample_deals(observation, facts):
                mass += weight
                numbers = [[card.index for card in hand] for hand in hands]
                # What the later bidders' hands are worth does not depend on this bid: read them once.
                estimates = [self._estimate(observation, hands[other]) for other in after]
                for i, bid in enumerate(searched):
                    bids = list(observation.bids)
                    bids[seat] = bid
                    for other, estimate in zip(after, estimates, strict=True):
                        bids[other] = self._simulated_bid(observation, hands[other], estimate, bids, other == order[-1])
                    placed = [b or 0 for b in bids]
                    taken = rollout([list(hand) for hand in numbers], trump_id, list(placed), order[0], [])
                    totals[i] += weight * self._score(points_after(placed, (0,) * players, taken), seat)
                    tricks[i] += weight * taken[seat]
        if is_long_round(players, size):
            mass = done
        own = totals[: len(candidates)]
        top = max(own)
        best = [bid for bid, total in zip(candidates, own, strict=True) if total >= top - 1e-9]
        choice = heuristic if heuristic in best else min(best, key=lambda b: abs(b - heuristic))
        values: dict[Action, float] = {BIDS[bid]: total / mass for bid, total in zip(searched, totals, strict=True)}
        won: dict[Action, float] = {BIDS[bid]: count / mass for bid, count in zip(searched, tricks, strict=True)}
        return Evaluation(BIDS[choice], values, won)

    @staticmethod
    def _estimate(observation: Observation, hand: Sequence[Card]) -> float:
        """The normal estimate of the tricks of a later bidder's `hand`."""
        known = knowledge_gone(observation)
        for card in hand:
            known[card.index] = 1
        return policy.estimate_tricks(hand, observation.trump, observation.players, known)

    @staticmethod
    def _simulated_bid(
        observation: Observation, hand: Sequence[Card], estimate: float, bids: Sequence[int | None], last: bool
    ) -> int:
        placed = [b for b in bids if b is not None]
        forbidden = None
        if last and observation.options.bids_may_not_add_up:
            value = observation.round - sum(placed)
            forbidden = value if value >= 0 else None
        return policy.choose_bid(estimate, hand, observation.round, observation.players, placed, forbidden)


def suit_id(suit: Suit | None) -> int:
    """The suit id (0-3, `policy.SUITS`) of a trump suit, -1 for none."""
    return -1 if suit is None else policy.SUIT_ID[suit]


def points_after(bids: Sequence[int], won: Sequence[int], taken: Sequence[int]) -> list[int]:
    """Each seat's round points, with `taken` tricks more than `won`."""
    return [round_points(bid, w + t) for bid, w, t in zip(bids, won, taken, strict=True)]


def distinct_cards(cards: Sequence[Card], known: bytearray | bytes) -> list[Card]:
    """One card of each run that plays alike: the lowest. All Wizards play alike, all Jesters do,
    and two cards of a suit do when every card ranked between them is in this hand or gone."""
    kept: list[Card] = []
    for card in sorted(cards, key=lambda c: c.index):
        if kept:
            last = kept[-1]
            if card.kind is not Kind.NUMBER:
                if last.kind is card.kind:
                    continue
            elif last.suit is card.suit and all(known[last.index + 1 : card.index]):
                continue
        kept.append(card)
    return kept


# How far, in tricks, a bid strays from what a hand suggests; and the chance that a bid says
# nothing about the hand (a person's hunch or a mistake), so no deal is ever ruled out.
BID_SPREAD = 0.8
BID_NOISE = 0.05


def bid_likelihood(observation: Observation, facts: Knowledge, hands: Sequence[Sequence[Card]]) -> float:
    """How well a deal explains the bids placed by the other seats.

    Nobody is assumed to bid like the normal level: a bid is read as fitting either the normal
    estimate of the hand (as dealt this round) or a plain count of its Wizards, high trumps and
    aces, whichever is nearer, with some room for bids that say nothing.
    """
    players = observation.players
    likelihood = 1.0
    placed: list[int] = []
    trump = observation.trump
    trump_id = suit_id(trump)
    turned = 0 if observation.turned_up is None else 1 << observation.turned_up.index
    row = VALUES.get(policy.value_context(players, observation.round, trump))
    for seat in bid_order(observation):
        bid = observation.bids[seat]
        if bid is None:
            break
        if seat != observation.seat:
            dealt = [*hands[seat], *facts.played[seat]]
            if row is None:
                known = knowledge_gone(observation)
                for card in dealt:
                    known[card.index] = 1
                estimate = policy.estimate_tricks(dealt, trump, players, known)
                wizards = policy.sure_tricks(dealt)
                count = sum(
                    1.0 if card.kind is Kind.WIZARD else 0.5 if card.rank == 13 and card.suit is not trump else 0.0
                    for card in dealt
                ) + sum(1 for card in dealt if card.suit is trump and card.suit is not None and card.rank >= 10)
            else:
                estimate, wizards, count = read_hand(dealt, row, trump_id, turned)
            expected = policy.adjusted_estimate(estimate, observation.round, players, placed)
            expected = max(expected, wizards)
            miss = min(abs(expected - bid), abs(count - bid))
            likelihood *= BID_NOISE + (1 - BID_NOISE) * math.exp(-(miss**2) / (2 * BID_SPREAD**2))
        placed.append(bid)
    return likelihood


# HIGHER[i]: the cards of the suit of DECK[i] ranked above it, as a mask of DECK indexes.
HIGHER = tuple((((1 << 13) - 1) << (13 * (i // 13))) & ~((2 << i) - 1) if i < 52 else 0 for i in range(60))


def read_hand(dealt: Sequence[Card], row: Sequence[float], trump: int, turned: int) -> tuple[float, int, float]:
    """`policy.estimate_tricks` with fitted values `row`, the Wizards, and the plain count of
    `bid_likelihood`, of a hand as dealt, in one pass: the sampler reads thousands of hands a move."""
    known = turned
    for card in dealt:
        known |= 1 << card.index
    estimate = 0.0
    wizards = 0
    count = 0.0
    for card in dealt:
        index = card.index
        if index >= 56:
            estimate += row[1]
        elif index >= 52:
            estimate += row[0]
            wizards += 1
            count += 1.0
        else:
            suit, rank = divmod(index, 13)
            # The rank among the cards not yet seen (`policy.value_category`), 1-13.
            effective = rank + 1 + (known & HIGHER[index]).bit_count()
            if suit == trump:
                estimate += row[1 + effective]
                if rank >= 9:
                    count += 1
            else:
                estimate += row[14 + effective]
                if rank == 12:
                    count += 0.5
    return estimate, wizards, count


def knowledge_gone(observation: Observation) -> bytearray:
    gone = bytearray(60)
    if observation.turned_up is not None:
        gone[observation.turned_up.index] = 1
    return gone


__all__ = [
    "EasyPlayer",
    "Evaluation",
    "HardPlayer",
    "Level",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]
