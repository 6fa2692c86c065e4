"""The coach: a person's finished game gone over by the hard computer player, decision by decision.

Pure like the engine and the computer players (no I/O, no asyncio): the game is replayed from its
seed and actions, and at each of the person's bids and card plays where they had a choice, the hard
player's search (`HardPlayer.evaluate`) weighs what it would do from the same hand and seat against
what the person did. Only that seat's own cards ever enter the review: it is as private as the
person's hand was.

Each decision is searched with a generator seeded from the game id and the decision's place in the
game, and with no wall-clock limit, so the same game always gives the same review.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .ai.players import HardPlayer
from .engine import Action, Bid, Card, Game, Options, Play, action_from_json, action_to_json
from .engine.cards import sort_key

# The version of the stored form (`Review.to_json`): a stored review of another version is worked
# out again rather than misread.
REVIEW_VERSION = 1
# Smaller differences are the search's noise, not a lesson: hard's choice and the person's are
# then taken as equally good, and the decision is not a moment of the review.
NOTICEABLE = 0.5
COSTLIEST = 3


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision where hard would have done otherwise, and what it expects that to be worth."""

    round: int  # the round's place in the game, 1 for the first played
    trick: int  # 0 for the bid, else the trick of the round (from 1) the card was played to
    theirs: Bid | Play
    hard: Bid | Play
    stake: float  # hard's value of its own choice less its value of the person's, in points


@dataclass(frozen=True, slots=True)
class RoundReview:
    """One round of the reviewed seat: the hand, the bid against hard's, and where hard differs."""

    round: int  # the round's place in the game, 1 for the first played
    cards: int  # cards dealt to each player
    hand: tuple[Card, ...]  # as dealt, in display order
    bid: int
    tricks: int  # the tricks the seat took
    points: int
    hard_bid: int | None  # None when there was nothing to weigh (one bid allowed, or a blind round)
    expected: float | None  # the tricks hard expects to take with its bid
    moments: tuple[Moment, ...]  # in the order played: the bid first, then the cards


@dataclass(frozen=True, slots=True)
class Review:
    """A person's review of one finished game."""

    game_id: str
    seat: int
    rounds: tuple[RoundReview, ...]

    def costliest(self, count: int = COSTLIEST) -> list[Moment]:
        """The moments where most was at stake, the costliest first (then in the order played)."""
        moments = [moment for game_round in self.rounds for moment in game_round.moments]
        return sorted(moments, key=lambda m: (-m.stake, m.round, m.trick))[:count]

    @property
    def at_stake(self) -> float:
        """What all the moments together were worth, in points."""
        return sum(moment.stake for game_round in self.rounds for moment in game_round.moments)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REVIEW_VERSION,
            "game": self.game_id,
            "seat": self.seat,
            "rounds": [
                {
                    "round": r.round,
                    "cards": r.cards,
                    "hand": [card.code for card in r.hand],
                    "bid": r.bid,
                    "tricks": r.tricks,
                    "points": r.points,
                    "hard_bid": r.hard_bid,
                    "expected": None if r.expected is None else round(r.expected, 2),
                    "moments": [
                        {
                            "trick": m.trick,
                            "theirs": action_to_json(m.theirs),
                            "hard": action_to_json(m.hard),
                            "stake": round(m.stake, 2),
                        }
                        for m in r.moments
                    ],
                }
                for r in self.rounds
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """The review of `to_json`; ValueError when it is not one (or of another version)."""
        if data.get("version") != REVIEW_VERSION:
            raise ValueError(f"a review of version {data.get('version')!r}, not {REVIEW_VERSION}")
        try:
            rounds = tuple(
                RoundReview(
                    r["round"],
                    r["cards"],
                    tuple(Card.parse(code) for code in r["hand"]),
                    r["bid"],
                    r["tricks"],
                    r["points"],
                    r["hard_bid"],
                    r["expected"],
                    tuple(
                        Moment(r["round"], m["trick"], _decision(m["theirs"]), _decision(m["hard"]), m["stake"])
                        for m in r["moments"]
                    ),
                )
                for r in data["rounds"]
            )
            return cls(str(data["game"]), int(data["seat"]), rounds)
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a review: {error}") from error


def _decision(data: dict[str, Any]) -> Bid | Play:
    action = action_from_json(data)
    if not isinstance(action, Bid | Play):
        raise ValueError(f"not a bid or a card: {data!r}")
    return action


def decision_seed(game_id: str, index: int) -> int:
    """The seed of the search at the `index`-th action of a game: the same on every machine and run."""
    digest = hashlib.sha256(f"review:{game_id}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hard_player(seed: int) -> HardPlayer:
    """The hard player the review asks, without its wall-clock limit, so that the seed fixes its answer."""
    return HardPlayer(random.Random(seed), deadline=math.inf)


def review_game(
    game_id: str,
    players: int,
    seed: int,
    options: Options,
    actions: Sequence[tuple[int, Action]],
    seat: int,
    *,
    hard: Callable[[int], HardPlayer] = hard_player,
) -> Review:
    """The review of `seat` in the game made of `seed`, `options` and `actions` (a finished game).

    `hard` makes the searching player from a decision's seed.
    """
    game = Game(players, seed, options)
    hands: dict[int, tuple[Card, ...]] = {}
    weighed: dict[int, tuple[int | None, float | None]] = {}  # round place: hard's bid, its expected tricks
    moments: dict[int, list[Moment]] = {}
    for index, (by, action) in enumerate(actions):
        place = game.round_position
        if place not in hands:
            hands[place] = tuple(sorted(game.hands[seat], key=sort_key))
        if by == seat and isinstance(action, Bid | Play):
            observation = game.observation(seat)
            if len(observation.legal) > 1 and not observation.blind:
                evaluation = hard(decision_seed(game_id, index)).evaluate(observation, also=[action])
                choice = evaluation.choice
                assert isinstance(choice, Bid | Play)
                if isinstance(action, Bid):
                    weighed[place] = (choice.tricks if isinstance(choice, Bid) else None, evaluation.tricks.get(choice))
                stake = evaluation.values.get(choice, 0.0) - evaluation.values.get(action, 0.0)
                if choice != action and stake >= NOTICEABLE:
                    trick = 0 if isinstance(action, Bid) else len(observation.tricks) + 1
                    moments.setdefault(place, []).append(Moment(place, trick, action, choice, stake))
        game.apply(action, by=by)
    if not game.is_over:
        raise ValueError(f"game {game_id} is not finished: a review is of a whole game")
    rounds = []
    for place, result in enumerate(game.history, start=1):
        hard_bid, expected = weighed.get(place, (None, None))
        rounds.append(
            RoundReview(
                place,
                result.round,
                hands[place],
                result.bids[seat],
                result.tricks[seat],
                result.points[seat],
                hard_bid,
                expected,
                tuple(moments.get(place, ())),
            )
        )
    return Review(game_id, seat, tuple(rounds))
