"""What the game manager holds and tells: lobbies, running games, their players, its refusals and
its events. Plain data; the parts of the manager (see `bot.manager`) change it."""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..clock import Timer
from ..engine import Applied, Game, Options
from ..storage import GameRecord, SeasonRecord, SeatRecord

if TYPE_CHECKING:
    from ..ai import Player as Brain

# The computer players' levels (bot.ai.Level, which a test holds this to: the manager names them
# without importing the players, which start-up does not need).
COMPUTER_LEVELS = ("easy", "normal", "hard")
DEFAULT_TURN_TIMER = 5 * 60
MIN_TURN_TIMER = 30
MAX_TURN_TIMER = 24 * 60 * 60
# Why a game ends with its place: its channel (or thread) was deleted, or the bot was removed from its
# server. Such a game is stored as stopped with the reason, its players are told by DM, and nothing is
# posted there again.
CHANNEL_GONE = "channel_gone"
SERVER_GONE = "server_gone"
PLACE_GONE = frozenset({CHANNEL_GONE, SERVER_GONE})


class Refusal(enum.Enum):
    """Why the manager refused a request; the presentation layer translates it."""

    CHANNEL_BUSY = "channel_busy"
    NO_GAME = "no_game"
    NOT_IN_GAME = "not_in_game"
    ALREADY_JOINED = "already_joined"
    LOBBY_FULL = "lobby_full"
    NOT_HOST = "not_host"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    ALREADY_STARTED = "already_started"
    NOT_STARTED = "not_started"
    STALE = "stale"
    NOT_ALLOWED = "not_allowed"
    BAD_TIMER = "bad_timer"
    NO_COMPUTER = "no_computer"
    TOO_MANY_ROUNDS = "too_many_rounds"
    NOT_AWAY = "not_away"
    PAUSED = "paused"
    NO_FINISHED_GAME = "no_finished_game"  # nothing to review
    NOT_A_PLAYER = "not_a_player"  # a review is for the people who played the game
    REVIEW_MISSING = "review_missing"  # no finished game by that id
    # The game ended because its place is gone: its channel or thread was deleted, the bot left its server
    # (the values are the end reasons of `PLACE_GONE`, one refusal each).
    CHANNEL_GONE = "channel_gone"
    SERVER_GONE = "server_gone"
    RECORD_GONE = "record_gone"  # the game's rows are no longer in the database
    NO_SEASON = "no_season"  # no season runs on the server


# The refusals a copy of a game that is behind the database may give wrongly (see `act`).
CATCH_UP_REFUSALS = frozenset({Refusal.STALE, Refusal.NO_GAME})


class GameRefused(Exception):
    """A request the manager cannot carry out; `refusal` says why, `details` fills the message."""

    def __init__(self, refusal: Refusal, **details: object) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal
        self.details = details


@dataclass(slots=True)
class Player:
    """Someone at the table: a person (their Discord user id) or a computer player.

    Computer players have negative ids, unique in their game, and the level they play at.
    """

    user_id: int
    name: str
    computer: str | None = None  # "easy", "normal" or "hard"; None for a person

    @property
    def is_person(self) -> bool:
        return self.computer is None


@dataclass(slots=True)
class Lobby:
    """A game waiting for players. Its id becomes the game's id when it starts."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    options: Options
    turn_timer: float
    players: list[Player]
    message_id: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    _expiry: asyncio.TimerHandle | None = field(default=None, repr=False)

    def has(self, user_id: int) -> bool:
        return any(player.user_id == user_id for player in self.players)


@dataclass(slots=True)
class Table:
    """A running game: the engine state, who sits where, and the messages that show it."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    turn_timer: float
    players: list[Player]  # by seat
    game: Game
    table_message_id: int | None = None
    table_round: int | None = None  # the round the table message shows
    # Each player's DM hand message: user id -> (channel id, message id, the round it shows).
    hand_messages: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # Each player's open turn ping: user id -> (the turn it is for, its DM channel, its message).
    ping_messages: dict[int, tuple[str, int, int]] = field(default_factory=dict)
    dm_closed: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    stopped: bool = False
    # When the person to move runs out of time (seconds since the epoch); None on a computer's turn.
    turn_deadline: float | None = None
    missed: dict[int, int] = field(default_factory=dict)  # user id -> turns in a row that ran out
    away: set[int] = field(default_factory=set)  # people whose seat the computer keeps for now
    # The last move the computer made for someone: (seat, "timeout" or "away"), for the table.
    stand_in: tuple[int, str] | None = None
    # Why the game waits, as the presentation layer put it (the permissions it lacks in the
    # channel to show the game); empty while it runs. Not stored: it is found again after a restart.
    paused_for: tuple[str, ...] = ()
    # How many rounds' score pads the channel shows.
    pads_shown: int = 0
    # Why a game that was stopped ended (see `GameStopped.reason`); None while it runs.
    end_reason: str | None = None
    # Held by a process that does not run the game's server (its shard is another process's), to
    # take a click that reached this one: a DM click reaches shard 0 only. The process of the
    # game's server shows it and runs its timers; a guest copy only takes clicks, and catches up.
    guest: bool = False
    _brains: dict[tuple[int, str], Brain] = field(default_factory=dict, repr=False)
    _timers: list[Timer] = field(default_factory=list, repr=False)

    def plays_itself(self, seat: int) -> bool:
        """Whether the computer makes this seat's moves now: a computer player, or a person away."""
        player = self.players[seat]
        return not player.is_person or player.user_id in self.away

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    def player_to_move(self) -> Player | None:
        seat = self.game.to_move
        return None if seat is None else self.players[seat]

    def is_hand_message(self, user_id: int, message_id: int) -> bool:
        """Whether `message_id` is the DM that shows this player's hand this round."""
        where = self.hand_messages.get(user_id)
        return where is not None and where[1] == message_id

    def next_trick(self, seat: int) -> int:
        """The trick a seat plays its next card to, from 0: the cards it has played this round.

        A button carries the trick it is for; the stale-click check compares it with this.
        """
        return self.game.round - len(self.game.hands[seat])


# -- events: what changed, for the presentation layer ---------------------------------------


@dataclass(frozen=True, slots=True)
class LobbyClosed:
    """A lobby closed without a game: cancelled by the host, emptied, idle too long, or its place gone."""

    lobby: Lobby
    # "cancelled", "empty", "expired"; "message_gone" (its message was deleted), or one of `PLACE_GONE`
    # (then there is nothing left to show it in)
    reason: str


@dataclass(frozen=True, slots=True)
class GameStarted:
    table: Table


@dataclass(frozen=True, slots=True)
class ActionApplied:
    """An action was accepted; `applied` says which trick, round or game it completed.

    `by` is who decided it: "player", "computer" (a computer player), "timeout" (the computer,
    because the person's time ran out) or "away" (the computer, for a person who is away); or
    "elsewhere": another process made it, and this one caught up with it from the database.
    """

    table: Table
    applied: Applied
    by: str = "player"


@dataclass(frozen=True, slots=True)
class TurnReminder:
    """Half of a person's time for a move has passed."""

    table: Table
    seat: int
    left: float  # seconds


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A person was marked away (the computer keeps the seat) or said they are back."""

    table: Table
    seat: int
    away: bool


@dataclass(frozen=True, slots=True)
class GameStopped:
    """A game was ended before its last round: by the host or a moderator, because everyone left, or
    because its place is gone."""

    table: Table
    by: Player | None  # None when the game ended itself
    # or "abandoned": every person was away too long; or one of `PLACE_GONE`
    reason: str = "stopped"


@dataclass(frozen=True, slots=True)
class GameAdopted:
    """This process took over a game whose process stopped renewing its claim (it died): from now
    on it runs the game's timers and shows it, starting with whatever the channel was owed."""

    table: Table


@dataclass(frozen=True, slots=True)
class SeasonEnded:
    """A season's end is owed its announcement, and this process is to post it now (it holds the
    claim): report the message with `GameManager.season_announced`. Emitted again each beat until then."""

    season: SeasonRecord


@dataclass(frozen=True, slots=True)
class LobbyAdopted:
    """This process took over a lobby whose process died (or that its server's process took back): it
    keeps the lobby's idle clock from now on, and shows it if its message was never recorded."""

    lobby: Lobby


Event = (
    LobbyClosed
    | GameStarted
    | ActionApplied
    | GameStopped
    | TurnReminder
    | PresenceChanged
    | GameAdopted
    | LobbyAdopted
    | SeasonEnded
)
Listener = Callable[[Event], None]


def take_shown(table: Table, record: GameRecord) -> None:
    """Take from `record` which messages show the game, as the process that showed it stored them:
    the table message, the score pads posted, each player's DM hand and open turn ping, and whose
    DMs are closed."""
    table.table_message_id, table.table_round = record.table_message_id, record.table_round
    # A game from before this was stored (None) is taken to have shown its pads so far.
    table.pads_shown = len(table.game.history) if record.pads_shown is None else record.pads_shown
    table.dm_closed = {seat.user_id for seat in record.seats if seat.dm_closed}
    table.hand_messages = {
        seat.user_id: (seat.dm_channel_id, seat.hand_message_id, seat.hand_round)
        for seat in record.seats
        if not seat.dm_closed and seat.dm_channel_id and seat.hand_message_id and seat.hand_round
    }
    table.ping_messages = {
        seat.user_id: (seat.ping_turn, seat.dm_channel_id, seat.ping_message_id)
        for seat in record.seats
        if seat.dm_channel_id and seat.ping_message_id and seat.ping_turn
    }


def placings(scores: list[int]) -> list[int]:
    """Each seat's place, 1 for the highest score; equal scores share a place."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def seat_records(players: list[Player]) -> list[SeatRecord]:
    return [
        SeatRecord(seat, player.user_id, player.name, computer=player.computer) for seat, player in enumerate(players)
    ]


def computer_player(user_id: int, level: str) -> Player:
    """A computer player of `level`; its shown name is made by the presentation layer."""
    if level not in COMPUTER_LEVELS:
        raise ValueError(f"no computer level {level!r}")
    return Player(user_id, f"Computer ({level})", level)
