"""The computer players. Each decides from its own `Observation` only, with its own random generator."""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from bot.engine.actions import BIDS, CHOICES, PLAYS, Action, Bid, Play
from bot.engine.cards import Card, Kind, Suit
from bot.engine.game import Observation, Phase

from . import policy
from .knowledge import Knowledge, bid_order, knowledge
from .sampling import deal_unseen
from .table import Table, later_seats


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


def normal_trump(observation: Observation) -> Suit:
    """The suit that makes the hand strongest: most estimated tricks, then count and rank."""
    known = known_cards(observation)
    scores = policy.trump_scores(observation.hand, observation.players, known)
    fallback = policy.strongest_suit(observation.hand)
    return max(policy.SUITS, key=lambda suit: (round(scores[suit], 6), suit is fallback))


def normal_card(observation: Observation, facts: Knowledge | None = None) -> Card:
    if facts is None:
        facts = knowledge(observation)
    legal = legal_plays(observation)
    return policy.play_card(
        observation.hand,
        legal,
        observation.trick,
        observation.trump,
        need_of(observation),
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


Clock = Callable[[], float]
# What drawing one world costs, in card plays of a rollout: the weighed deals tried before one is kept.
SAMPLE_COST = 40


class HardPlayer:
    """Determinized Monte Carlo search.

    It deals the cards it cannot see to the others consistently with what it saw (cards played,
    known voids, hand sizes, the turned-up card), preferring deals in which the others' bids fit
    their hands, and plays each such world to the end of the round with the normal policy for
    everyone, once per candidate action (the same worlds for every candidate). It takes the action
    with the best average result: its own round points less `spite` times the others' mean, since
    what counts in the end is the lead over the others. Bids are chosen the same way, the later
    bidders bidding by the normal heuristic in each world; the trump choice is the normal one.

    The work is capped by a number of simulated card plays per decision (`budget`), so a seed fixes
    every choice; the wall-clock `deadline` is only a safety stop on a slow or busy machine.
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        budget: int = 20000,
        min_worlds: int = 8,
        max_worlds: int = 160,
        deadline: float = 0.6,
        clock: Clock = time.perf_counter,
        infer: bool = True,
        attempts: int = 10,
        spite: float = 0.5,
    ) -> None:
        self.rng = rng
        self.budget = budget  # simulated card plays per decision
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.deadline = deadline  # seconds; stops the search early, never the first world
        self.clock = clock
        self.infer = infer  # weigh sampled worlds by how well they explain the others' bids
        self.attempts = attempts  # deals tried per world when weighing them
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
        """How many worlds fit the budget; drawing a world costs about as much as SAMPLE_COST plays."""
        cost = candidates * plays_per_rollout + (SAMPLE_COST if self.infer else 0)
        worlds = self.budget // max(1, cost)
        return max(self.min_worlds, min(self.max_worlds, worlds))

    def sample_world(self, observation: Observation, facts: Knowledge) -> list[list[Card]]:
        """One deal of the unseen cards consistent with the observation; the seat's own hand as it is.

        With `infer`, deals are drawn until one is accepted with the chance that the others' bids
        fit their hands in it (by the normal level's estimate); after `attempts` the likeliest is kept.
        """
        masks = [policy.void_mask(v) for v in facts.voids]
        best: list[list[Card]] = []
        best_weight = -1.0
        for _ in range(self.attempts if self.infer else 1):
            hands = deal_unseen(self.rng, facts.unseen, observation.hand_sizes, masks, observation.seat)
            hands[observation.seat] = list(observation.hand)
            if not self.infer:
                return hands
            weight = bid_likelihood(observation, facts, hands)
            if self.rng.random() < weight:
                return hands
            if weight > best_weight:
                best, best_weight = hands, weight
        return best

    # -- playing

    def _card(self, observation: Observation) -> Card:
        start = self.clock()
        seat = observation.seat
        facts = knowledge(observation)
        candidates = sensible_cards(observation)
        default = normal_card(observation, facts)
        if len(candidates) == 1:
            return candidates[0]
        bids = [bid or 0 for bid in observation.bids]
        remaining = sum(observation.hand_sizes)
        worlds = self._worlds(len(candidates), remaining)
        totals = [0.0] * len(candidates)
        for world in range(worlds):
            if world and self.clock() - start > self.deadline:
                break
            hands = self.sample_world(observation, facts)
            base = Table(
                hands,
                observation.trump,
                bids,
                list(observation.tricks_won),
                observation.trick_leader,
                list(observation.trick),
                bytearray(facts.gone),
                [policy.void_mask(v) for v in facts.voids],
            )
            for i, card in enumerate(candidates):
                table = base.copy()
                table.play(card)
                table.play_out()
                totals[i] += self._score(table.points(), seat)
        top = max(totals)
        best = [card for card, total in zip(candidates, totals, strict=True) if total >= top - 1e-9]
        return default if default in best else best[0]

    def _score(self, points: Sequence[int], seat: int) -> float:
        if not self.spite:
            return float(points[seat])
        others = (sum(points) - points[seat]) / (len(points) - 1)
        return points[seat] - self.spite * others

    # -- bidding

    def _bid(self, observation: Observation) -> int:
        start = self.clock()
        seat = observation.seat
        players = observation.players
        size = observation.round
        hand = list(observation.hand)
        trump = observation.trump
        facts = knowledge(observation)
        allowed = [action.tricks for action in observation.legal if isinstance(action, Bid)]
        floor = policy.sure_tricks(hand)
        candidates = [b for b in allowed if b >= floor] or allowed
        heuristic = normal_bid(observation)
        order = bid_order(observation)
        after = order[order.index(seat) + 1 :]
        worlds = self._worlds(len(candidates), players * size)
        totals = [0.0] * len(candidates)
        for world in range(worlds):
            if world and self.clock() - start > self.deadline:
                break
            hands = self.sample_world(observation, facts)
            for i, bid in enumerate(candidates):
                bids = list(observation.bids)
                bids[seat] = bid
                for other in after:
                    bids[other] = self._simulated_bid(observation, hands[other], bids, other == order[-1])
                table = Table(
                    [list(h) for h in hands],
                    trump,
                    [b or 0 for b in bids],
                    [0] * players,
                    order[0],
                    [],
                    bytearray(facts.gone),
                    [0] * players,
                )
                table.play_out()
                totals[i] += self._score(table.points(), seat)
        top = max(totals)
        best = [bid for bid, total in zip(candidates, totals, strict=True) if total >= top - 1e-9]
        return heuristic if heuristic in best else min(best, key=lambda b: abs(b - heuristic))

    @staticmethod
    def _simulated_bid(observation: Observation, hand: Sequence[Card], bids: Sequence[int | None], last: bool) -> int:
        known = bytearray(knowledge_gone(observation))
        for card in hand:
            known[card.index] = 1
        placed = [b for b in bids if b is not None]
        forbidden = None
        if last and observation.options.bids_may_not_add_up:
            value = observation.round - sum(placed)
            forbidden = value if value >= 0 else None
        estimate = policy.estimate_tricks(hand, observation.trump, observation.players, known)
        return policy.choose_bid(estimate, hand, observation.round, observation.players, placed, forbidden)


BID_SPREAD = 0.7  # how far, in tricks, a bid strays from the normal estimate of its hand


def bid_likelihood(observation: Observation, facts: Knowledge, hands: Sequence[Sequence[Card]]) -> float:
    """How well a deal explains the bids placed by the other seats: 1 when each is what the normal
    estimate of its hand (as dealt this round) suggests, less the further off they are."""
    players = observation.players
    total = 0.0
    placed: list[int] = []
    for seat in bid_order(observation):
        bid = observation.bids[seat]
        if bid is None:
            break
        if seat != observation.seat:
            dealt = [*hands[seat], *facts.played[seat]]
            known = knowledge_gone(observation)
            for card in dealt:
                known[card.index] = 1
            estimate = policy.estimate_tricks(dealt, observation.trump, players, known)
            expected = policy.adjusted_estimate(estimate, observation.round, players, placed)
            expected = max(expected, policy.sure_tricks(dealt))
            total += (expected - bid) ** 2
        placed.append(bid)
    return math.exp(-total / (2 * BID_SPREAD**2))


def knowledge_gone(observation: Observation) -> bytearray:
    gone = bytearray(60)
    if observation.turned_up is not None:
        gone[observation.turned_up.index] = 1
    return gone


__all__ = [
    "EasyPlayer",
    "HardPlayer",
    "Level",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
]
