"""Helpers shared by the engine tests: building explicit deals and playing random legal games."""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from bot.engine import Action, Applied, Card, Deal, Game, Options, Phase, Suit, deal_hands


def cards(codes: str) -> list[Card]:
    """Cards from space-separated codes: ``cards("J1 H5 W2")``."""
    return [Card.parse(code) for code in codes.split()]


def deal(hands: Sequence[Sequence[str]], turned_up: str | None) -> Deal:
    """An explicit deal from card codes, hands indexed by seat."""
    return Deal(deal_hands(hands), Card.parse(turned_up) if turned_up else None)


# -- the rules again, written from the rule text independently of bot.engine.rules -------------


def reference_points(bid: int, tricks: int) -> int:
    """Exact bid: 20 plus 10 a trick; otherwise minus 10 for each trick of difference."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


def reference_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """The position of the winning card: the first Wizard; else the highest trump; else the highest
    card of the led suit (set by the first suited card); if all cards are Jesters, the first one."""
    wizards = [i for i, card in enumerate(trick) if card.is_wizard]
    if wizards:
        return wizards[0]
    suited = [i for i, card in enumerate(trick) if card.suit is not None]
    if not suited:
        return 0
    led = trick[suited[0]].suit
    trumps = [i for i in suited if trick[i].suit is trump]
    contenders = trumps or [i for i in suited if trick[i].suit is led]
    return max(contenders, key=lambda i: trick[i].rank)


def reference_playable(hand: Sequence[Card], trick: Sequence[Card]) -> set[Card]:
    """The cards a player may play: the led suit if they hold it (Wizards and Jesters always);
    the led suit is the first non-Jester card's, and a Wizard there leaves the trick free."""
    first = next((card for card in trick if not card.is_jester), None)
    led = None if first is None else first.suit
    if led is None or all(card.suit is not led for card in hand):
        return set(hand)
    return {card for card in hand if card.suit is led or card.is_wizard or card.is_jester}


def reference_bids(cards_per_player: int, bids: Sequence[int | None], variant: bool) -> list[int]:
    """The bids open to the player to move, given everyone's bids so far (None: not yet)."""
    allowed = list(range(cards_per_player + 1))
    placed = [bid for bid in bids if bid is not None]
    if variant and len(placed) == len(bids) - 1:
        allowed = [bid for bid in allowed if sum(placed) + bid != cards_per_player]
    return allowed


# -- what an observation shows ---------------------------------------------------------------

PUBLIC_CARD_FIELDS = {"trick", "tricks", "turned_up"}


def reachable_cards(value: object) -> Iterator[Card]:
    """Every card reachable from `value`; fails on a type it does not know, so nothing can hide a card."""
    if isinstance(value, Card):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for entry in fields(value):
            yield from reachable_cards(getattr(value, entry.name))
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from reachable_cards(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from reachable_cards(key)
            yield from reachable_cards(item)
    elif not isinstance(value, str | int | float | enum.Enum | type(None)):
        raise AssertionError(f"unexpected {type(value).__name__} in an observation")


def private_cards(observation: object) -> list[Card]:
    """The cards an observation shows, apart from the public table (tricks and the turned-up card)."""
    assert is_dataclass(observation)
    found: list[Card] = []
    for name in (entry.name for entry in fields(observation)):
        if name not in PUBLIC_CARD_FIELDS:
            found.extend(reachable_cards(getattr(observation, name)))
    return found


def next_actor(game: Game, rng: random.Random) -> int:
    """The seat to act next: the seat to move, or a random one of several that may act (hidden bids).

    Draws from `rng` only when there is a choice, so games without hidden bids draw as before.
    """
    seats = game.waiting_for()
    assert seats, "the game waits for nobody"
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def play_out(game: Game, rng: random.Random, steps: int | None = None) -> list[tuple[int, Action]]:
    """Apply random legal actions until the game ends (or `steps` were taken); return what was done.

    With hidden bids the bidders are taken in a random order.
    """
    done: list[tuple[int, Action]] = []
    while not game.is_over and (steps is None or len(done) < steps):
        seat = next_actor(game, rng)
        action = rng.choice(game.legal_actions_for(seat))
        game.apply(action, by=seat)
        done.append((seat, action))
    return done


def apply_all(game: Game, actions: Iterable[tuple[int, Action]]) -> None:
    for seat, action in actions:
        game.apply(action, by=seat)


@dataclass
class RoundStart:
    """The state when a round was dealt."""

    round: int
    dealer: int
    phase: Phase
    to_move: int | None
    hands: tuple[tuple[Card, ...], ...]
    turned_up: Card | None
    trump: Suit | None


@dataclass
class Step:
    """One applied action with what the game offered before it."""

    round: int
    phase: Phase
    seat: int
    action: Action
    legal: list[Action]
    applied: Applied
    hand: tuple[Card, ...]  # the mover's hand before the action
    trick: tuple[Card, ...]  # the trick before the action
    bids: tuple[int | None, ...]  # the bids before the action
    trump: Suit | None


@dataclass
class Checkpoint:
    """The game at one moment: its JSON text and snapshot, and how many actions preceded it."""

    steps: int
    json_text: str
    snapshot: dict[str, Any]


@dataclass
class Trace:
    players: int
    seed: int
    options: Options
    game: Game
    starts: list[RoundStart] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)


def _round_start(game: Game) -> RoundStart:
    return RoundStart(
        game.round,
        game.dealer,
        game.phase,
        game.to_move,
        tuple(tuple(hand) for hand in game.hands),
        game.turned_up,
        game.trump,
    )


def record_game(
    players: int,
    seed: int,
    variant: bool,
    chooser_seed: int | None = None,
    checkpoints: int = 3,
    options: Options | None = None,
) -> Trace:
    """Play a whole game with random legal choices, recording every step and a few JSON checkpoints.

    The game is played with `options` when given, else with "bids may not add up" set to `variant`.
    With hidden bids the bidders are taken in a random order.
    """
    if options is None:
        options = Options(bids_may_not_add_up=variant)
    game = Game(players, seed, options)
    rng = random.Random(seed * 1000 + players * 10 + variant if chooser_seed is None else chooser_seed)
    total = sum(players * number for number in game.round_numbers) + players * game.rounds
    marks = set(rng.sample(range(total), checkpoints))  # the moments before these actions
    trace = Trace(players, seed, options, game, starts=[_round_start(game)])
    while not game.is_over:
        if len(trace.steps) in marks:
            text = json.dumps(game.to_json())
            trace.checkpoints.append(Checkpoint(len(trace.steps), text, game.snapshot()))
        seat = next_actor(game, rng)
        legal = game.legal_actions_for(seat)
        action = rng.choice(legal)
        before = (game.round, game.phase, tuple(game.hands[seat]), tuple(game.trick), tuple(game.bids), game.trump)
        applied = game.apply(action, by=seat)
        number, phase, hand, trick, bids, trump = before
        trace.steps.append(Step(number, phase, seat, action, legal, applied, hand, trick, bids, trump))
        if applied.round is not None and not applied.game_over:
            trace.starts.append(_round_start(game))
    return trace
