"""The state of one game of Wizard, changed only through `Game.apply`."""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, NamedTuple

from . import rules
from .actions import BIDS, CHOICES, PLAYS, Action, Bid, ChooseTrump, Play, action_from_json, action_to_json
from .cards import DECK, Card, Suit
from .errors import (
    IllegalBidError,
    IllegalPlayError,
    IllegalTrumpError,
    NotYourTurnError,
    Reason,
    RuleError,
    WrongPhaseError,
)
from .rules import led_suit, legal_cards, trick_winner

JSON_VERSION = 1


SCHEDULES = ("full", "even")
"""The values of `Options.schedule`."""

_FLAGS = ("bids_may_not_add_up", "bids_may_add_up_in_round_one", "hidden_bids", "blind_first_round")


@dataclass(frozen=True, slots=True)
class Options:
    """House rules chosen when the game is created. Every variant is off by default.

    Creating options checks them: ValueError for a value of the wrong type or out of range, and
    for variants that cannot be combined: `hidden_bids` with `bids_may_not_add_up` (with hidden
    bids there is no last bidder to restrict), and `blind_first_round` with the even schedule
    (which never plays round 1). Whether `rounds` fits the number of players is checked by
    `round_numbers` and so by `Game`.
    """

    # The bids of a round may not add up to the number of cards dealt to each player, so the
    # last bidder cannot bid the value that would make them equal.
    bids_may_not_add_up: bool = False
    # With `bids_may_not_add_up`: round 1 is exempt, so its last bidder may bid anything. Has no
    # effect without `bids_may_not_add_up`.
    bids_may_add_up_in_round_one: bool = False
    # Everyone bids at once, in any order, and the bids are shown together when all are in: a
    # player's observation shows only their own bid (and who has bid) until then.
    hidden_bids: bool = False
    # Play only the first this many rounds of the schedule (1 up to all of them); None: all.
    rounds: int | None = None
    # "full" plays every round (1, 2, 3, ... cards); "even" only the even ones (2, 4, 6, ...).
    schedule: Literal["full", "even"] = "full"
    # Round 1 is played blind: each player sees the others' cards but not their own.
    blind_first_round: bool = False

    def __post_init__(self) -> None:
        for name in _FLAGS:
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"option {name} must be true or false, not {getattr(self, name)!r}")
        most = rules.round_count(rules.MIN_PLAYERS)
        if self.rounds is not None and (type(self.rounds) is not int or not 1 <= self.rounds <= most):
            raise ValueError(f"option rounds must be 1-{most} or None, not {self.rounds!r}")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"option schedule must be one of {SCHEDULES}, not {self.schedule!r}")
        if self.hidden_bids and self.bids_may_not_add_up:
            raise ValueError("hidden bids cannot be combined with bids that may not add up: nobody bids last")
        if self.blind_first_round and self.schedule == "even":
            raise ValueError("the blind first round needs round 1, which the even schedule does not play")

    def round_numbers(self, players: int) -> tuple[int, ...]:
        """The rounds `players` play with these options, each named by the cards dealt in it.

        ValueError when `rounds` is more than the schedule has for that many players.
        """
        return rules.round_numbers(players, self.rounds, self.schedule == "even")

    def to_json(self) -> dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """Options from `to_json` output; a missing option (older JSON) takes its default."""
        known = {field.name for field in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown options: {sorted(unknown)}")
        return cls(**data)


class Phase(enum.Enum):
    """What the game waits for."""

    CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned up: the dealer names trump
    BID = "bid"
    PLAY = "play"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit deal for one round, for tests and replays: each seat's hand and the turned-up card."""

    hands: tuple[tuple[Card, ...], ...]
    turned_up: Card | None


class TrickResult(NamedTuple):
    """A finished trick.

    A NamedTuple rather than a frozen dataclass, like `Applied`: both are made at every trick of
    every simulated game, and a frozen dataclass's __init__ (a Python call per field) cost a tenth
    of the engine's time. They are just as immutable.
    """

    round: int
    number: int  # 1 for the first trick of the round
    leader: int  # the seat that led
    cards: tuple[Card, ...]  # in the order played, the leader's first
    winner: int  # the seat that won it

    @property
    def winning_card(self) -> Card:
        return self.cards[(self.winner - self.leader) % len(self.cards)]

    def by_seat(self) -> tuple[tuple[int, Card], ...]:
        """The cards with the seats that played them, in the order played."""
        players = len(self.cards)
        return tuple(((self.leader + i) % players, card) for i, card in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round; every tuple is indexed by seat."""

    round: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class Applied(NamedTuple):
    """What an accepted action did: the trick and round it completed, and whether the game ended."""

    seat: int
    action: Action
    trick: TrickResult | None = None
    round: RoundResult | None = None
    game_over: bool = False


@dataclass(frozen=True, slots=True)
class Observation:
    """What one player may know: their own hand and the public table, nothing else.

    With hidden bids, `bids` shows only the seat's own bid until everyone has bid (`has_bid`
    tells who has). In a blind round (`blind`), `hand` is empty and `others_cards` shows the
    other seats' cards instead; the one legal play is then the seat's unseen card, which a
    player interface must show face down.
    """

    seat: int
    players: int
    options: Options
    round: int  # also the number of cards dealt to each player
    rounds: int  # how many rounds the game plays
    phase: Phase
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turned_up: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    trick_leader: int
    trick: tuple[Card, ...]  # the current trick so far, the leader's card first
    tricks: tuple[TrickResult, ...]  # the finished tricks of this round
    scores: tuple[int, ...]
    history: tuple[RoundResult, ...]
    legal: tuple[Action, ...]  # empty unless this player may act now
    round_numbers: tuple[int, ...]  # the rounds the game plays, by cards dealt: (1, 2, ...) or (2, 4, ...)
    has_bid: tuple[bool, ...]  # which seats have bid this round
    blind: bool  # this round is played blind: the own hand is hidden, the others' shown
    others_cards: tuple[tuple[Card, ...], ...]  # in a blind round each seat's cards, the own empty; else ()

    @property
    def round_position(self) -> int:
        """Which round of the game this is: 1 for the first round played, up to `rounds`."""
        return self.round_numbers.index(self.round) + 1


# Module-level names for the phases: looking an enum member up on its class costs ten times a
# global lookup on Python 3.11, and `apply` is the engine's hot path.
_CHOOSE_TRUMP = Phase.CHOOSE_TRUMP
_BID = Phase.BID
_PLAY = Phase.PLAY
_GAME_OVER = Phase.GAME_OVER

# The result of an action that completes nothing depends only on who did what, so there is one
# instance of each: making a frozen dataclass per card played was a third of the engine's time.
_SEATS = range(rules.MAX_PLAYERS)
_PLAY_OF = {play.card: play for play in PLAYS}
_QUIET_PLAYS = tuple(tuple(Applied(seat, play) for play in PLAYS) for seat in _SEATS)
_LOGGED_PLAYS = tuple(tuple((seat, play) for play in PLAYS) for seat in _SEATS)
_QUIET_BIDS = tuple(tuple(Applied(seat, bid) for bid in BIDS) for seat in _SEATS)


class Game:
    """One game of Wizard for 3-6 seats, numbered from 0.

    Chance comes only from the seed, so the seed and the ordered actions rebuild any game exactly.
    A round is named by the number of cards it deals (`round`); `round_numbers` lists the rounds
    the options make the game play and `rounds` counts them. `start_round` (by default the first
    of them) and the keys of `deals` are such round numbers.
    """

    # Slots: the computer players copy and step games thousands of times per decision.
    __slots__ = (
        "_deals",
        "_playable",
        "_position",
        "_rng",
        "bids",
        "dealer",
        "first_dealer",
        "hands",
        "history",
        "is_over",
        "log",
        "options",
        "phase",
        "players",
        "round",
        "round_numbers",
        "rounds",
        "scores",
        "seed",
        "start_round",
        "to_move",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "trump",
        "turned_up",
    )

    def __init__(
        self,
        players: int,
        seed: int = 0,
        options: Options = Options(),
        *,
        deals: Mapping[int, Deal] | None = None,
        first_dealer: int | None = None,
        start_round: int | None = None,
    ) -> None:
        if not rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS:
            raise ValueError(f"Wizard is played by {rules.MIN_PLAYERS}-{rules.MAX_PLAYERS} players, not {players}")
        self.players = players
        self.seed = seed
        self.options = options
        self.round_numbers = options.round_numbers(players)
        self.rounds = len(self.round_numbers)
        # Where each round comes in the game, for the dealer's rotation and the next round.
        self._position = {number: index for index, number in enumerate(self.round_numbers)}
        if start_round is None:
            start_round = self.round_numbers[0]
        elif start_round not in self._position:
            raise ValueError(f"start_round must be one of this game's rounds: {_describe(self.round_numbers)}")
        self.start_round = start_round
        self._deals = dict(deals or {})
        for number, deal in self._deals.items():
            self._check_deal(number, deal)
        # All chance comes from this generator, drawn in a fixed order (first dealer, then each
        # round's shuffle), so the seed and the ordered actions rebuild the game exactly.
        self._rng = random.Random(seed)
        # Drawn even when one is given, so a rebuilt game (which names the dealer it had) draws
        # every later shuffle from the same point.
        drawn_dealer = self._rng.randrange(players)
        if first_dealer is None:
            first_dealer = drawn_dealer
        elif not 0 <= first_dealer < players:
            raise ValueError(f"first_dealer must be a seat 0-{players - 1}")
        self.first_dealer = first_dealer

        self.scores = [0] * players
        self.history: list[RoundResult] = []
        self.log: list[tuple[int, Action]] = []
        self.round = 0
        self.dealer = 0
        self.phase = _BID
        # Whether the game has ended: kept beside the phase, since every move loop reads it.
        self.is_over = False
        self.to_move: int | None = None
        self.hands: list[list[Card]] = []
        self.turned_up: Card | None = None
        self.trump: Suit | None = None
        self.bids: list[int | None] = []
        self.tricks_won: list[int] = []
        self.trick_leader = 0
        self.trick: list[Card] = []
        self.tricks: list[TrickResult] = []
        self._playable: list[Card] | None = None
        self._start_round(start_round)

    # -- dealing ---------------------------------------------------------------------------

    def _check_deal(self, number: int, deal: Deal) -> None:
        if number not in self._position or number < self.start_round:
            raise ValueError(f"no round {number} in this game")
        if len(deal.hands) != self.players or any(len(hand) != number for hand in deal.hands):
            raise ValueError(f"round {number} deals {number} cards to each of {self.players} players")
        cards = [card for hand in deal.hands for card in hand]
        if deal.turned_up is not None:
            cards.append(deal.turned_up)
        if not all(isinstance(card, Card) for card in cards):
            raise ValueError(f"round {number} deals something that is not a card")
        if len(set(cards)) != len(cards):
            raise ValueError(f"round {number} deals a card twice")
        if (deal.turned_up is None) != (self.players * number == rules.DECK_SIZE):
            raise ValueError("a card is turned up exactly when some of the deck is left undealt")

    def _dealer_of(self, number: int) -> int:
        position = self._position
        return (self.first_dealer + position[number] - position[self.start_round]) % self.players

    def _start_round(self, number: int) -> None:
        self.round = number
        dealer = self.dealer = self._dealer_of(number)
        players = self.players
        explicit = self._deals.get(number)
        if explicit is not None:
            self.hands = [list(hand) for hand in explicit.hands]
            self.turned_up = explicit.turned_up
        else:
            dealt = players * number
            # A shuffled deck, cut to what is dealt plus the top of the undealt rest, which is
            # turned up; the last round deals the whole deck and turns up nothing.
            cards = self._rng.sample(DECK, min(dealt + 1, rules.DECK_SIZE))
            hands: list[list[Card]] = [[]] * players
            for i in range(players):
                hands[(dealer + 1 + i) % players] = cards[i * number : (i + 1) * number]
            self.hands = hands
            self.turned_up = cards[dealt] if dealt < rules.DECK_SIZE else None
        self.trump, dealer_chooses = rules.trump_from_turned_up(self.turned_up)
        self.bids = [None] * self.players
        self.tricks_won = [0] * self.players
        self.trick_leader = (self.dealer + 1) % self.players
        self.trick = []
        self.tricks = []
        self._playable = None
        if dealer_chooses:
            self.phase = _CHOOSE_TRUMP
            self.to_move = self.dealer
        else:
            # The player after the dealer bids first and leads the first trick.
            self.phase = _BID
            self.to_move = self.trick_leader

    # -- legal actions ---------------------------------------------------------------------

    def forbidden_bid(self) -> int | None:
        """The bid the current bidder may not make under the variant, if any."""
        options = self.options
        if self.phase is not _BID or not options.bids_may_not_add_up:
            return None
        if self.round == 1 and options.bids_may_add_up_in_round_one:
            return None
        placed = [bid for bid in self.bids if bid is not None]
        if len(placed) != self.players - 1:
            return None  # only the last bidder is restricted
        return rules.forbidden_bid(self.round, placed)

    def playable_cards(self) -> list[Card]:
        """The cards the player to move may play now; empty outside the play phase."""
        playable = self._playable
        if playable is None:
            if self.phase is _PLAY:
                assert self.to_move is not None
                playable = legal_cards(self.hands[self.to_move], led_suit(self.trick))
            else:
                playable = []
            self._playable = playable
        return playable

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take now; empty when the game is over.

        With hidden bids every seat in `pending_bidders()` has these same bids to choose from.
        """
        phase = self.phase
        if phase is _PLAY:
            playable = self._playable
            if playable is None:
                # playable_cards() written out: the hottest call in a simulated game.
                seat = self.to_move
                assert seat is not None
                playable = self._playable = legal_cards(self.hands[seat], led_suit(self.trick))
            return list(map(_PLAY_OF.__getitem__, playable))
        if phase is _BID:
            forbidden = self.forbidden_bid()
            return [BIDS[n] for n in range(self.round + 1) if n != forbidden]
        if phase is _CHOOSE_TRUMP:
            return list(CHOICES)
        return []

    def legal_actions_for(self, seat: int) -> list[Action]:
        """Every action `seat` may take now: empty unless the game waits for that seat."""
        return self.legal_actions() if seat in self.waiting_for() else []

    def pending_bidders(self) -> tuple[int, ...]:
        """The seats yet to bid this round, in bidding order; empty outside the bidding.

        With hidden bids each of them may bid now (`apply(Bid(n), by=seat)`); otherwise they bid
        in this order and only the first, the seat to move, may bid now.
        """
        if self.phase is not _BID:
            return ()
        players, bids, first = self.players, self.bids, self.trick_leader
        return tuple(seat for seat in ((first + i) % players for i in range(players)) if bids[seat] is None)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that may act now: everyone yet to bid while hidden bids are made, otherwise
        the seat to move; empty when the game is over."""
        if self.phase is _BID and self.options.hidden_bids:
            return self.pending_bidders()
        return () if self.to_move is None else (self.to_move,)

    # -- applying actions ------------------------------------------------------------------

    def apply(self, action: Action, *, by: int | None = None) -> Applied:
        """Apply the action of the player to move (checked against `by` when given).

        With hidden bids, a bid may come from any seat yet to bid: name it with `by` (without
        `by` the bid is the seat to move's). Legality is decided by the same functions as
        `legal_actions()`. An action outside them raises a `RuleError` with the reason, and the
        state is unchanged.
        """
        phase = self.phase
        if phase is _GAME_OVER:
            raise WrongPhaseError(Reason.GAME_OVER, "the game is over")
        seat = self.to_move
        assert seat is not None
        if by is not None and by != seat:
            seat = self._out_of_turn(by)
        kind = type(action)
        if kind is Play and phase is _PLAY:
            card = action.card  # type: ignore[union-attr]
            playable = self._playable
            if playable is None:
                playable = self._playable = legal_cards(self.hands[seat], led_suit(self.trick))
            # Cards are unique objects, so this membership test is an identity test in C.
            if card in playable:
                self._playable = None
                self.log.append(_LOGGED_PLAYS[seat][card.index])
                self.hands[seat].remove(card)
                trick = self.trick
                trick.append(card)
                if len(trick) < self.players:
                    self.to_move = (seat + 1) % self.players
                    return _QUIET_PLAYS[seat][card.index]
                return self._complete_trick(seat, card)
        elif kind is Bid and phase is _BID:
            tricks = action.tricks  # type: ignore[union-attr]
            if type(tricks) is int and 0 <= tricks <= self.round and tricks != self.forbidden_bid():
                self.log.append((seat, BIDS[tricks]))
                return self._bid(seat, BIDS[tricks])
        elif kind is ChooseTrump and phase is _CHOOSE_TRUMP:
            suit = action.suit  # type: ignore[union-attr]
            if isinstance(suit, Suit):
                choice = CHOICES[list(Suit).index(suit)]
                self.log.append((seat, choice))
                return self._choose_trump(seat, choice)
        raise self._refusal(action)

    def _out_of_turn(self, by: int) -> int:
        """`by` when that seat may act although it is not the seat to move: a hidden bid."""
        if self.phase is _BID and self.options.hidden_bids and type(by) is int and 0 <= by < self.players:
            if self.bids[by] is None:
                return by
            raise NotYourTurnError(Reason.ALREADY_BID, f"seat {by} has already bid this round")
        raise NotYourTurnError(Reason.NOT_YOUR_TURN, f"it is seat {self.to_move}'s turn, not seat {by}'s")

    def _refusal(self, action: object) -> RuleError:
        """The error explaining why an action outside `legal_actions()` is refused."""
        phase = self.phase
        expected = {_PLAY: Play, _BID: Bid, _CHOOSE_TRUMP: ChooseTrump}[phase]
        if not isinstance(action, (Play, Bid, ChooseTrump)):
            return RuleError(Reason.UNKNOWN_ACTION, f"not an action: {action!r}")
        if type(action) is not expected:
            return WrongPhaseError(Reason.WRONG_PHASE, f"expected {expected.__name__} in phase {phase.value}")
        if isinstance(action, Bid):
            if type(action.tricks) is not int or not 0 <= action.tricks <= self.round:
                return IllegalBidError(
                    Reason.BID_OUT_OF_RANGE, f"bids are 0-{self.round}, not {action.tricks!r}", tricks=self.round
                )
            return IllegalBidError(
                Reason.BID_ADDS_UP, f"the bids may not add up to {self.round}", value=action.tricks, tricks=self.round
            )
        if isinstance(action, Play):
            assert self.to_move is not None
            if action.card not in self.hands[self.to_move]:
                return IllegalPlayError(Reason.CARD_NOT_IN_HAND, f"{action.card} is not in the hand")
            led = rules.led_suit(self.trick)
            return IllegalPlayError(Reason.MUST_FOLLOW_SUIT, f"{action.card} does not follow the led suit", suit=led)
        return IllegalTrumpError(Reason.NOT_A_SUIT, f"not a suit: {action.suit!r}")

    def _choose_trump(self, seat: int, action: ChooseTrump) -> Applied:
        self.trump = action.suit
        self.phase = _BID
        self.to_move = self.trick_leader
        return Applied(seat, action)

    def _bid(self, seat: int, action: Bid) -> Applied:
        bids = self.bids
        bids[seat] = action.tricks
        if self.options.hidden_bids:
            # Bids come in any order: the seat to move is the first still to bid, and play
            # starts from the leader once nobody is.
            pending = self.pending_bidders()
            if pending:
                self.to_move = pending[0]
            else:
                self.phase = _PLAY
                self.to_move = self.trick_leader
            return _QUIET_BIDS[seat][action.tricks]
        next_seat = (seat + 1) % self.players
        if next_seat == self.trick_leader:  # everyone has bid
            self.phase = _PLAY
        self.to_move = next_seat
        return _QUIET_BIDS[seat][action.tricks]

    def _complete_trick(self, seat: int, card: Card) -> Applied:
        """Score the trick that `card` completed; score the round and deal the next when it ends."""
        action = PLAYS[card.index]
        trick = self.trick
        winner = (self.trick_leader + trick_winner(trick, self.trump)) % self.players
        self.tricks_won[winner] += 1
        result = TrickResult(self.round, len(self.tricks) + 1, self.trick_leader, tuple(trick), winner)
        self.tricks.append(result)
        self.trick = []
        # The winner leads the next trick.
        self.trick_leader = self.to_move = winner
        if self.hands[seat]:
            return Applied(seat, action, trick=result)

        scored = self._score_round()
        position = self._position[self.round] + 1
        if position == self.rounds:
            self.phase = _GAME_OVER
            self.is_over = True
            self.to_move = None
            return Applied(seat, action, trick=result, round=scored, game_over=True)
        self._start_round(self.round_numbers[position])
        return Applied(seat, action, trick=result, round=scored)

    def _score_round(self) -> RoundResult:
        bids = tuple(bid if bid is not None else 0 for bid in self.bids)
        points = tuple(rules.round_points(bid, won) for bid, won in zip(bids, self.tricks_won, strict=True))
        for seat, gained in enumerate(points):
            self.scores[seat] += gained
        result = RoundResult(self.round, bids, tuple(self.tricks_won), points, tuple(self.scores))
        self.history.append(result)
        return result

    # -- reading the state -----------------------------------------------------------------

    @property
    def round_position(self) -> int:
        """Which round of the game this is: 1 for the first round played, up to `rounds`."""
        return self._position[self.round] + 1

    @property
    def is_blind_round(self) -> bool:
        """Whether the round in progress is played blind (round 1 under `blind_first_round`)."""
        return self.round == 1 and self.options.blind_first_round and self.phase is not _GAME_OVER

    def winners(self) -> list[int]:
        """The seats with the highest total; a tie shares the win."""
        best = max(self.scores)
        return [seat for seat, score in enumerate(self.scores) if score == best]

    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the trick in progress with the seats that played them."""
        return tuple(((self.trick_leader + i) % self.players, card) for i, card in enumerate(self.trick))

    def observation(self, seat: int) -> Observation:
        """What `seat` may see: their own hand and the public table, never another hand.

        Two variants change that: with hidden bids, the others' bids stay hidden until all are in;
        in a blind round, the seat sees every other hand but not its own.
        """
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat}")
        hands = self.hands
        bids = tuple(self.bids)
        if self.options.hidden_bids and self.phase is _BID:
            bids = tuple(bid if other == seat else None for other, bid in enumerate(bids))
        blind = self.is_blind_round
        return Observation(
            seat=seat,
            players=self.players,
            options=self.options,
            round=self.round,
            rounds=self.rounds,
            phase=self.phase,
            dealer=self.dealer,
            to_move=self.to_move,
            hand=() if blind else tuple(hands[seat]),
            hand_sizes=tuple(len(hand) for hand in hands),
            turned_up=self.turned_up,
            trump=self.trump,
            bids=bids,
            tricks_won=tuple(self.tricks_won),
            trick_leader=self.trick_leader,
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            scores=tuple(self.scores),
            history=tuple(self.history),
            legal=tuple(self.legal_actions_for(seat)),
            round_numbers=self.round_numbers,
            has_bid=tuple(bid is not None for bid in self.bids),
            blind=blind,
            others_cards=tuple(() if other == seat else tuple(hand) for other, hand in enumerate(hands))
            if blind
            else (),
        )

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, for comparing two games and for debugging."""
        return {
            "players": self.players,
            "seed": self.seed,
            "options": self.options.to_json(),
            "round": self.round,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hands": [[card.code for card in hand] for hand in self.hands],
            "turned_up": self.turned_up.code if self.turned_up else None,
            "trump": self.trump.value if self.trump else None,
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "trick_leader": self.trick_leader,
            "trick": [card.code for card in self.trick],
            "tricks": [[t.leader, [c.code for c in t.cards], t.winner] for t in self.tricks],
            "scores": list(self.scores),
            "history": [[r.bids, r.tricks, r.points, r.totals] for r in self.history],
            "log": [[seat, action_to_json(action)] for seat, action in self.log],
        }

    def copy(self) -> Game:
        """An independent copy of this game, for the computer players' look-ahead."""
        other = object.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.scores = list(self.scores)
        other.history = list(self.history)
        other.log = list(self.log)
        other.hands = [list(hand) for hand in self.hands]
        other.bids = list(self.bids)
        other.tricks_won = list(self.tricks_won)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other._playable = None
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        return other

    # -- JSON and replay -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The versioned JSON form: what the game was created from and every action since."""
        data: dict[str, Any] = {
            "version": JSON_VERSION,
            "players": self.players,
            "seed": self.seed,
            "options": self.options.to_json(),
            "first_dealer": self.first_dealer,
            "start_round": self.start_round,
            "log": [[seat, action_to_json(action)] for seat, action in self.log],
        }
        if self._deals:
            data["deals"] = {
                str(number): {
                    "hands": [[card.code for card in hand] for hand in deal.hands],
                    "turned_up": deal.turned_up.code if deal.turned_up else None,
                }
                for number, deal in sorted(self._deals.items())
            }
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game from `to_json` output; ValueError for another version or a bad log."""
        if data.get("version") != JSON_VERSION:
            raise ValueError(f"unsupported game JSON version {data.get('version')!r}")
        deals = {
            int(number): Deal(
                tuple(tuple(Card.parse(code) for code in hand) for hand in deal["hands"]),
                Card.parse(deal["turned_up"]) if deal["turned_up"] else None,
            )
            for number, deal in data.get("deals", {}).items()
        }
        return cls.replay(
            data["players"],
            data["seed"],
            Options.from_json(data["options"]),
            ((seat, action_from_json(action)) for seat, action in data["log"]),
            deals=deals,
            first_dealer=data["first_dealer"],
            start_round=data["start_round"],
        )

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        options: Options,
        log: Iterable[tuple[int, Action]],
        **kwargs: Any,
    ) -> Game:
        """The game created from `players`, `seed` and `options` after the (seat, action) log."""
        game = cls(players, seed, options, **kwargs)
        for seat, action in log:
            game.apply(action, by=seat)
        return game


def _describe(numbers: tuple[int, ...]) -> str:
    """Round numbers for a message: ``1-20`` when they run on, else ``2, 4, 6``."""
    if numbers == tuple(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}-{numbers[-1]}"
    return ", ".join(map(str, numbers))


def deal_hands(cards: Sequence[Sequence[str]]) -> tuple[tuple[Card, ...], ...]:
    """Hands from card codes, for building explicit deals: ``deal_hands([["H1"], ["W1"], ["J2"]])``."""
    return tuple(tuple(Card.parse(code) for code in hand) for hand in cards)
