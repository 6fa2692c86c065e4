"""The coach: a person's finished game gone over by the hard computer player, decision by decision.

Pure like the engine and the computer players (no I/O, no asyncio): the game is replayed from its
seed and actions, and at each of the person's bids and card plays where they had a choice, the hard
player's search (`HardPlayer.evaluate`) weighs what it would do from the same hand and seat against
what the person did: the round points it expects of each (a moment's stake), and the tricks it
expects the seat to end the round with after each (the moment's why). Only that seat's own cards
are named in a review: it is as private as the person's hand was.

How much of the result was the cards and how much the play (`Review.cards_and_play`): every seat's
bid is searched too, and the value of its best bid is what that hand was worth; the seat's hands
against the others' are the cards, the rest of its lead over the others' average is the play. The
search only values the others' hands (a number a round), it names none of their cards.

Each decision is searched with a generator seeded from the game id and the decision's place in the
game, and with no wall-clock limit, so the same game always gives the same review.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .ai.players import Evaluation, HardPlayer
from .engine import Action, Bid, Card, Game, Observation, Options, Play, Suit, action_from_json, action_to_json
from .engine.cards import sort_key

# The version of the stored form (`Review.to_json`): a stored review of another version is worked
# out again rather than misread. Version 1 (before the coach's why and its cards-or-play measure)
# valued its choices with the others' points counted against the seat's, and kept neither the
# expected tricks of both choices, nor the trump, nor the final scores.
REVIEW_VERSION = 2
# Smaller differences are the search's noise, not a lesson: hard's choice and the person's are
# then taken as equally good, and the decision is not a moment of the review.
NOTICEABLE = 0.5
COSTLIEST = 3


@dataclass(frozen=True, slots=True)
class Moment:
    """One decision where hard would have done otherwise, what it expects that to be worth, and why:
    the tricks the seat is expected to end the round with after each of the two choices."""

    round: int  # the round's place in the game, 1 for the first played
    trick: int  # 0 for the bid, else the trick of the round (from 1) the card was played to
    theirs: Bid | Play
    hard: Bid | Play
    stake: float  # hard's expected round points for its own choice less those for the person's
    theirs_tricks: float  # the tricks hard expects the seat to end the round with after the person's choice
    hard_tricks: float  # ... after its own
    took: bool | None = None  # for a card: whether the person's card took its trick; None for a bid


@dataclass(frozen=True, slots=True)
class RoundReview:
    """One round of the reviewed seat: the hand, the bid against hard's, and where hard differs."""

    round: int  # the round's place in the game, 1 for the first played
    cards: int  # cards dealt to each player
    hand: tuple[Card, ...]  # as dealt, in display order
    trump: Suit | None  # the round's trump suit, None for none
    bid: int
    tricks: int  # the tricks the seat took
    points: int
    hard_bid: int | None  # None when there was nothing to weigh (one bid allowed, or a blind round)
    expected: float | None  # the tricks hard expects to take with its bid
    moments: tuple[Moment, ...]  # in the order played: the bid first, then the cards
    # Each seat's hand as hard's search valued it at that seat's bid: the round points it expects of
    # its own best bid. In a blind round, where nobody sees their own hand, the points each seat made.
    worth: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Review:
    """A person's review of one finished game."""

    game_id: str
    seat: int
    rounds: tuple[RoundReview, ...]
    totals: tuple[int, ...]  # every seat's final score, as the final standings showed them

    def costliest(self, count: int = COSTLIEST) -> list[Moment]:
        """The moments where most was at stake, the costliest first (then in the order played)."""
        moments = [moment for game_round in self.rounds for moment in game_round.moments]
        return sorted(moments, key=lambda m: (-m.stake, m.round, m.trick))[:count]

    @property
    def score(self) -> int:
        return self.totals[self.seat]

    @property
    def others(self) -> float:
        """The other seats' mean final score: what an average seat of this game scored."""
        others = [total for seat, total in enumerate(self.totals) if seat != self.seat]
        return sum(others) / len(others)

    def hands_worth(self, seat: int) -> float:
        """What a seat's hands were worth over the game, as hard's search valued each at its bid."""
        return sum(game_round.worth[seat] for game_round in self.rounds)

    def cards_and_play(self) -> tuple[int, int]:
        """How much of the lead over the others' average was the cards and how much the play, in
        whole points that add up to the lead.

        The cards: the worth of the seat's hands against the others' mean worth (`hands_worth`);
        the play, the rest: what the seat made of its cards against what the others made of theirs.
        """
        others = [seat for seat in range(len(self.totals)) if seat != self.seat]
        lead = round(self.score - self.others)
        cards = round(self.hands_worth(self.seat) - sum(self.hands_worth(seat) for seat in others) / len(others))
        return cards, lead - cards

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REVIEW_VERSION,
            "game": self.game_id,
            "seat": self.seat,
            "totals": list(self.totals),
            "rounds": [
                {
                    "round": r.round,
                    "cards": r.cards,
                    "hand": [card.code for card in r.hand],
                    "trump": None if r.trump is None else r.trump.value,
                    "bid": r.bid,
                    "tricks": r.tricks,
                    "points": r.points,
                    "hard_bid": r.hard_bid,
                    "expected": None if r.expected is None else round(r.expected, 2),
                    "worth": [round(worth, 2) for worth in r.worth],
                    "moments": [
                        {
                            "trick": m.trick,
                            "theirs": action_to_json(m.theirs),
                            "hard": action_to_json(m.hard),
                            "stake": round(m.stake, 2),
                            "tricks": [round(m.theirs_tricks, 2), round(m.hard_tricks, 2)],
                            "took": m.took,
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
                    None if r["trump"] is None else Suit(r["trump"]),
                    r["bid"],
                    r["tricks"],
                    r["points"],
                    r["hard_bid"],
                    r["expected"],
                    tuple(
                        Moment(
                            r["round"],
                            m["trick"],
                            _decision(m["theirs"]),
                            _decision(m["hard"]),
                            m["stake"],
                            m["tricks"][0],
                            m["tricks"][1],
                            m["took"],
                        )
                        for m in r["moments"]
                    ),
                    tuple(float(worth) for worth in r["worth"]),
                )
                for r in data["rounds"]
            )
            totals = tuple(int(total) for total in data["totals"])
            seat = int(data["seat"])
            if not 0 <= seat < len(totals) or any(len(r.worth) != len(totals) for r in rounds):
                raise ValueError(f"seat {seat} of {len(totals)}, or a round without every seat's worth")
            return cls(str(data["game"]), seat, rounds, totals)
        except (KeyError, TypeError, IndexError) as error:
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


def _moment(place: int, observation: Observation, action: Bid | Play, evaluation: Evaluation) -> Moment | None:
    """The decision as a moment of the review, if hard's choice was noticeably better."""
    choice, values, tricks = evaluation.choice, evaluation.values, evaluation.tricks
    assert isinstance(choice, Bid | Play)
    # Nothing weighed (every card played alike) is nothing at stake.
    if choice == action or choice not in values or action not in values:
        return None
    stake = values[choice] - values[action]
    if stake < NOTICEABLE:
        return None
    if isinstance(action, Bid):
        return Moment(place, 0, action, choice, stake, tricks[action], tricks[choice])
    return Moment(place, len(observation.tricks) + 1, action, choice, stake, tricks[action], tricks[choice])


def hard_player(seed: int) -> HardPlayer:
    """The hard player the review asks, without its wall-clock limit, so that the seed fixes its answer.

    It counts the seat's own points only (no `spite`): a choice's value is then the round points it
    is expected to bring, which is what the review tells the person, in points.
    """
    return HardPlayer(random.Random(seed), deadline=math.inf, spite=0.0)


def review_game(
    game_id: str,
    players: int,
    seed: int,
    options: Options,
    actions: Sequence[tuple[int, Action]],
    seat: int,
    *,
    hard: Callable[[int], HardPlayer] = hard_player,
    valued: Mapping[tuple[int, int], float] | None = None,
) -> Review:
    """The review of `seat` in the game made of `seed`, `options` and `actions` (a finished game).

    `hard` makes the searching player from a decision's seed. `valued`: the hands another seat's
    review of the same game has valued, by (round place, seat); the search would value them the
    same (the same seeds), so they are not searched again.
    """
    valued = valued or {}
    game = Game(players, seed, options)
    hands: dict[int, tuple[Card, ...]] = {}
    trumps: dict[int, Suit | None] = {}
    weighed: dict[int, tuple[int | None, float | None]] = {}  # round place: hard's bid, its expected tricks
    moments: dict[int, list[Moment]] = {}
    winners: dict[tuple[int, int], int] = {}  # (round place, trick): the seat that took it
    worth: dict[tuple[int, int], float] = {}  # (round place, seat): its hand's worth at its bid
    for index, (by, action) in enumerate(actions):
        place = game.round_position
        if place not in hands:
            hands[place] = tuple(sorted(game.hands[seat], key=sort_key))
        if isinstance(action, Bid | Play):
            observation = game.observation(by)
            # Every seat's bid is searched, to value its hand; the reviewed seat's cards too where it
            # had a choice. Nobody sees their own hand in a blind round: nothing there is searched.
            chose = len(observation.legal) > 1
            weigh = by == seat and chose
            if isinstance(action, Bid) and (place, by) in valued and not weigh:
                worth[place, by] = valued[place, by]
            elif not observation.blind and (isinstance(action, Bid) or weigh):
                evaluation = hard(decision_seed(game_id, index)).evaluate(observation, also=[action])
                if isinstance(action, Bid):
                    worth[place, by] = evaluation.values[evaluation.choice]
                if weigh:
                    if isinstance(action, Bid):
                        choice = evaluation.choice
                        hard_bid = choice.tricks if isinstance(choice, Bid) else None
                        weighed[place] = (hard_bid, evaluation.tricks.get(choice))
                    moment = _moment(place, observation, action, evaluation)
                    if moment is not None:
                        moments.setdefault(place, []).append(moment)
        if isinstance(action, Play):
            trumps[place] = game.trump
        applied = game.apply(action, by=by)
        if applied.trick is not None:
            winners[place, applied.trick.number] = applied.trick.winner
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
                trumps.get(place),
                result.bids[seat],
                result.tricks[seat],
                result.points[seat],
                hard_bid,
                expected,
                tuple(
                    m if m.trick == 0 else dataclasses.replace(m, took=winners[place, m.trick] == seat)
                    for m in moments.get(place, ())
                ),
                # A blind round is worth what each seat made of it.
                tuple(worth.get((place, other), float(result.points[other])) for other in range(players)),
            )
        )
    return Review(game_id, seat, tuple(rounds), tuple(game.scores))
