"""The game manager: the live lobbies and games, one lock per game, and what changed.

This is the only stateful async layer. It speaks in user ids and engine objects, never in
Discord objects, so it is tested with pytest-asyncio alone. The presentation layer subscribes
with a `Listener` and turns each event into messages.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import secrets
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import ratings
from .engine import (
    Action,
    Applied,
    Game,
    Observation,
    Options,
    RuleError,
    action_from_json,
    action_to_json,
    rules,
)
from .storage import FinalSeat, GameRecord, Repository, SeatRecord, StorageConflict

if TYPE_CHECKING:
    from .ai import Player as Brain
    from .review import Review

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60
# How long a computer move waits, so people can follow it on the table.
COMPUTER_PACE_SECONDS = 1.5
# Turns in a row that may run out of time before the computer keeps the seat.
MISSES_BEFORE_AWAY = 2
# How long a game whose people are all away waits for one of them before it ends itself.
ABANDON_SECONDS = 10 * 60
# How often a process renews its claim on the games it runs and looks for games whose process died,
# and how long a claim holds: a process that dies delays its games' timers and computer players by
# at most the lease and a beat (see `GameManager._beat`).
RUNNER_BEAT_SECONDS = 2.0
RUNNER_LEASE_SECONDS = 6.0
ADOPT_AT_ONCE = 20  # games adopted in one beat, so that one process does not take them all at once
# The computer players' levels (bot.ai.Level, which a test holds this to: the manager names them
# without importing the players, which start-up does not need).
COMPUTER_LEVELS = ("easy", "normal", "hard")
# The level that plays for a person whose time ran out or who is away.
STAND_IN_LEVEL = "normal"
DEFAULT_TURN_TIMER = 5 * 60
MIN_TURN_TIMER = 30
MAX_TURN_TIMER = 24 * 60 * 60


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
    # Held by a process that does not run the game's server (its shard is another process's), to
    # take a click that reached this one: a DM click reaches shard 0 only. The process of the
    # game's server shows it and runs its timers; a guest copy only takes clicks, and catches up.
    guest: bool = False
    _brains: dict[tuple[int, str], Brain] = field(default_factory=dict, repr=False)
    _timers: list[asyncio.TimerHandle] = field(default_factory=list, repr=False)

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
    """A lobby closed without a game: cancelled by the host, emptied, or idle too long."""

    lobby: Lobby
    reason: str  # "cancelled", "empty" or "expired"


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
    """A game was ended before its last round: by the host or a moderator, or because everyone left."""

    table: Table
    by: Player | None  # None when the game ended itself
    reason: str = "stopped"  # or "abandoned": every person was away too long


@dataclass(frozen=True, slots=True)
class GameAdopted:
    """This process took over a game whose process stopped renewing its claim (it died): from now
    on it runs the game's timers and shows it, starting with whatever the channel was owed."""

    table: Table


Event = LobbyClosed | GameStarted | ActionApplied | GameStopped | TurnReminder | PresenceChanged | GameAdopted
Listener = Callable[[Event], None]


class GameManager:
    """Owns every lobby and game; at most one of either per channel."""

    def __init__(
        self,
        repository: Repository | None = None,
        *,
        lobby_idle_seconds: float = LOBBY_IDLE_SECONDS,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        computer_pace: float = COMPUTER_PACE_SECONDS,
        abandon_seconds: float = ABANDON_SECONDS,
        turn_timer_range: tuple[float, float] = (MIN_TURN_TIMER, MAX_TURN_TIMER),
        runner_beat: float = RUNNER_BEAT_SECONDS,
        runner_lease: float = RUNNER_LEASE_SECONDS,
    ) -> None:
        # Without a repository nothing survives a restart: for tests of the game logic alone.
        self.repository = repository
        self._lobbies: dict[str, Lobby] = {}
        self._tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        self._listeners: list[Listener] = []
        self._lobby_idle_seconds = lobby_idle_seconds
        self._seed_source = seed_source
        self._computer_pace = computer_pace
        self._abandon_seconds = abandon_seconds
        self._turn_timer_range = turn_timer_range
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        # This process's name in the database's record of who runs each game.
        self.runner = secrets.token_hex(8)
        self._runner_beat = runner_beat
        self._runner_lease = runner_lease
        self._reviews: dict[tuple[str, int], asyncio.Future[Review]] = {}  # being worked out, by (game, seat)
        # One review is worked out at a time: each keeps a core busy for seconds, and the game moves
        # (computer players, the event loop) must keep their share of the CPU.
        self._reviewing = asyncio.Lock()

    async def load(self, repository: Repository) -> list[Table]:
        """Use `repository` from now on, and restore the lobbies and games it holds.

        Returns the restored games, whose messages the presentation layer then refreshes, and the
        ended games whose ending the channel has not been shown yet (a crash came first).
        """
        self.repository = repository
        tables = []
        for record in await repository.open_games():
            try:
                if record.status == "lobby":
                    self._restore_lobby(record)
                    continue
                if record.status in ("finished", "stopped"):
                    # Its ending was not shown before the restart: restored to be shown, not played.
                    ended = self._restore_table(record, playing=False)
                    ended.stopped = record.status == "stopped"
                    tables.append(ended)
                    continue
                table = self._restore_table(record)
                if table.game.is_over:
                    # The last action was stored but the result was not (by an older version):
                    # record it now, so the channel is free again.
                    await self._record_finished(table, table.game)
                    self._finish(table)
                    tables.append(table)
                else:
                    tables.append(table)
                    # Timers go on from the stored deadline; a computer's turn is played now.
                    self._schedule(table)
            except Exception:
                log.exception("could not restore game %s; it is left as it was", record.id)
        log.info("restored %d lobbies and %d games", len(self._lobbies), len(tables))
        # The process of the games' server runs them, even if another took them over meanwhile.
        await repository.claim_games(self.runner, [table.id for table in self._tables.values()], self._lease())
        await repository.watch_games(self._heard)
        self._spawn(self._beat())
        return tables

    def _restore_lobby(self, record: GameRecord) -> None:
        players = [Player(seat.user_id, seat.name, seat.computer) for seat in record.seats]
        lobby = Lobby(
            record.id,
            record.guild_id,
            record.channel_id,
            record.host_id,
            Options.from_json(record.options),
            record.turn_timer,
            players,
            record.lobby_message_id,
        )
        self._lobbies[lobby.id] = lobby
        self._by_channel[lobby.channel_id] = lobby.id
        # The idle clock goes on from the last change, across the restart.
        self._touch(lobby, delay=record.updated_at + self._lobby_idle_seconds - time.time())

    def _restore_table(self, record: GameRecord, *, playing: bool = True, guest: bool = False) -> Table:
        """The game of a record; `playing`: it is a running game again (else only shown); `guest`:
        held only to take clicks (see `Table.guest`)."""
        assert record.seed is not None
        actions = [(seat, action_from_json(action)) for seat, action in record.actions]
        game = Game.replay(len(record.seats), record.seed, Options.from_json(record.options), actions)
        table = Table(
            record.id,
            record.guild_id,
            record.channel_id,
            record.host_id,
            record.turn_timer,
            [Player(seat.user_id, seat.name, seat.computer) for seat in record.seats],
            game,
            turn_deadline=record.turn_deadline,
            guest=guest,
        )
        _take_shown(table, record)
        for seat in record.seats:
            if seat.missed:
                table.missed[seat.user_id] = seat.missed
            if seat.away:
                table.away.add(seat.user_id)
        if playing:
            self._tables[table.id] = table
            if not guest:  # the channel's commands reach the process of its server
                self._by_channel[table.channel_id] = table.id
        return table

    # -- subscriptions ---------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every event. Listeners must not block: they schedule their work."""
        self._listeners.append(listener)

    def _emit(self, event: Event) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:
                log.exception("listener failed on %s", type(event).__name__)

    # -- looking things up -----------------------------------------------------------------

    def in_channel(self, channel_id: int) -> Lobby | Table | None:
        """The lobby or game of a channel, if any."""
        game_id = self._by_channel.get(channel_id)
        if game_id is None:
            return None
        return self._tables.get(game_id) or self._lobbies.get(game_id)

    def lobby(self, lobby_id: str) -> Lobby:
        lobby = self._lobbies.get(lobby_id)
        if lobby is None:
            raise GameRefused(Refusal.ALREADY_STARTED if lobby_id in self._tables else Refusal.NO_GAME)
        return lobby

    async def find_table(self, game_id: str) -> Table:
        """The running game `game_id`: held here, or loaded from the database as a guest (see
        `Table.guest`) when another process runs its server; GameRefused if there is none."""
        table = self._tables.get(game_id)
        if table is not None or self.repository is None:
            return self.table(game_id)
        record = await self.repository.load_game(game_id)
        if record is None or record.status != "running":
            return self.table(game_id)
        table = self._tables.get(game_id)  # loaded meanwhile, by another click
        if table is None:
            table = self._restore_table(record, guest=not self.repository.restores(record.guild_id))
            if not table.guest:
                # A game of this process's servers started by another process: run it here.
                await self.repository.claim_games(self.runner, [table.id], self._lease())
                self._schedule(table)
            log.info("game %s: loaded from the database%s", table.id, " as a guest" if table.guest else "")
        return table

    def _heard(self, game_id: str, count: int) -> None:
        """A process (this one or another) recorded game `game_id`'s `count`-th action."""
        table = self._tables.get(game_id)
        if table is not None and len(table.game.log) < count:
            self._spawn(self._catch_up_when_free(table))

    async def _catch_up_when_free(self, table: Table) -> None:
        async with table.lock:
            if self._tables.get(table.id) is table:
                await self._catch_up(table)

    def table(self, game_id: str) -> Table:
        table = self._tables.get(game_id)
        if table is None:
            raise GameRefused(Refusal.NOT_STARTED if game_id in self._lobbies else Refusal.NO_GAME)
        return table

    def tables(self) -> list[Table]:
        return list(self._tables.values())

    def lobbies(self) -> list[Lobby]:
        return list(self._lobbies.values())

    def hand(self, game_id: str, user_id: int) -> tuple[Table, Observation]:
        """A player's view of their game: their hand and the public table."""
        table = self.table(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise GameRefused(Refusal.NOT_IN_GAME)
        return table, table.game.observation(seat)

    def table_for_user(self, channel_id: int, guild_id: int | None, user_id: int) -> Table:
        """The game a player means when they ask from `channel_id`: that channel's, else their only one."""
        here = self.in_channel(channel_id)
        if isinstance(here, Table) and here.seat_of(user_id) is not None:
            return here
        theirs = [
            table
            for table in self._tables.values()
            if table.seat_of(user_id) is not None and (guild_id is None or table.guild_id == guild_id)
        ]
        if len(theirs) == 1:
            return theirs[0]
        if isinstance(here, Table):
            raise GameRefused(Refusal.NOT_IN_GAME)
        raise GameRefused(Refusal.NO_GAME)

    # -- lobbies ---------------------------------------------------------------------------

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        options: Options,
        turn_timer: float = DEFAULT_TURN_TIMER,
        computers: Sequence[str] = (),
    ) -> Lobby:
        """Open a lobby in a channel with the host seated, and computer players of the given levels.

        Refused if the channel has a game already.
        """
        existing = self.in_channel(channel_id)
        if existing is not None:
            raise GameRefused(Refusal.CHANNEL_BUSY, game=existing)
        low, high = self._turn_timer_range
        if not low <= turn_timer <= high:
            raise GameRefused(Refusal.BAD_TIMER, low=low, high=high)
        if len(computers) > rules.MAX_PLAYERS - 1:
            raise GameRefused(Refusal.LOBBY_FULL, n=rules.MAX_PLAYERS)
        seated = [host, *(computer_player(-(index + 1), level) for index, level in enumerate(computers))]
        lobby = Lobby(self._new_id(), guild_id, channel_id, host.user_id, options, turn_timer, seated)
        # Claim the channel before the first await, so a second /wizard start there is refused.
        self._lobbies[lobby.id] = lobby
        self._by_channel[channel_id] = lobby.id
        if self.repository is not None:
            try:
                await self.repository.create_lobby(
                    lobby.id, guild_id, channel_id, host.user_id, options.to_json(), turn_timer, _seats(lobby.players)
                )
            except BaseException:
                del self._lobbies[lobby.id]
                del self._by_channel[channel_id]
                raise
        self._touch(lobby)
        log.info("lobby %s opened in guild %s channel %s", lobby.id, guild_id, channel_id)
        return lobby

    @property
    def _bookkeeping(self) -> Repository | None:
        """Where to note message ids and closed DMs: nowhere once the bot is shutting down.

        They are written after the person already has their answer, so a click that lands as the
        bot stops must not write to a database that is closing. Losing one only means a fresh
        message after the restart.
        """
        return None if self._closed else self.repository

    def unshown_lobbies(self) -> list[Lobby]:
        """The open lobbies whose message was never recorded (a crash came first)."""
        return [lobby for lobby in self._lobbies.values() if lobby.message_id is None]

    async def set_lobby_message(self, lobby_id: str, message_id: int) -> None:
        lobby = self._lobbies.get(lobby_id)
        repository = self._bookkeeping
        if lobby is not None:
            lobby.message_id = message_id
            if repository is not None:
                await repository.set_lobby_message(lobby_id, message_id)

    async def join(self, lobby_id: str, player: Player) -> Lobby:
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if lobby.has(player.user_id):
                raise GameRefused(Refusal.ALREADY_JOINED)
            if len(lobby.players) >= rules.MAX_PLAYERS:
                raise GameRefused(Refusal.LOBBY_FULL, n=rules.MAX_PLAYERS)
            await self._store_lobby(lobby, lobby.host_id, [*lobby.players, player])
        self._touch(lobby)
        return lobby

    async def leave(self, lobby_id: str, user_id: int) -> Lobby:
        """Take a player out of a lobby. The next player becomes host if the host leaves."""
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if not lobby.has(user_id):
                raise GameRefused(Refusal.NOT_IN_GAME)
            players = [player for player in lobby.players if player.user_id != user_id]
            people = [player for player in players if player.is_person]
            if not people:
                # Computer players do not keep a lobby open on their own.
                await self._close_lobby(lobby, "empty")
                lobby.players = players
                return lobby
            host = people[0].user_id if lobby.host_id == user_id else lobby.host_id
            await self._store_lobby(lobby, host, players)
        self._touch(lobby)
        return lobby

    async def add_computer(self, lobby_id: str, user_id: int, level: str) -> Lobby:
        """The host seats a computer player of `level` ("easy", "normal" or "hard")."""
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if user_id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            if len(lobby.players) >= rules.MAX_PLAYERS:
                raise GameRefused(Refusal.LOBBY_FULL, n=rules.MAX_PLAYERS)
            free_id = min([-1, *(player.user_id - 1 for player in lobby.players if not player.is_person)])
            await self._store_lobby(lobby, lobby.host_id, [*lobby.players, computer_player(free_id, level)])
        self._touch(lobby)
        return lobby

    async def remove_computer(self, lobby_id: str, user_id: int) -> Lobby:
        """The host takes out the computer player who joined last."""
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if user_id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            computers = [player for player in lobby.players if not player.is_person]
            if not computers:
                raise GameRefused(Refusal.NO_COMPUTER)
            players = [player for player in lobby.players if player is not computers[-1]]
            await self._store_lobby(lobby, lobby.host_id, players)
        self._touch(lobby)
        return lobby

    async def set_options(self, lobby_id: str, user_id: int, options: Options) -> Lobby:
        """The host changes the house rules before the game starts."""
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if user_id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            if self.repository is not None:
                await self.repository.update_lobby_options(lobby.id, options.to_json())
            lobby.options = options
        self._touch(lobby)
        return lobby

    async def _store_lobby(self, lobby: Lobby, host_id: int, players: list[Player]) -> None:
        """Write the lobby's new host and players, then change them in memory."""
        if self.repository is not None:
            await self.repository.update_lobby(lobby.id, host_id, _seats(players))
        lobby.host_id = host_id
        lobby.players = players

    def _check_open(self, lobby: Lobby) -> None:
        """Refuse a change to a lobby that closed or started while the request waited for its lock."""
        if self._lobbies.get(lobby.id) is not lobby:
            raise GameRefused(Refusal.ALREADY_STARTED if lobby.id in self._tables else Refusal.NO_GAME)

    async def cancel(self, lobby_id: str, user_id: int) -> Lobby:
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if user_id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            await self._close_lobby(lobby, "cancelled")
        return lobby

    async def start(self, lobby_id: str, user_id: int) -> Table:
        """Start the game of a lobby (host only, 3-6 players); seats follow the order of joining."""
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if user_id != lobby.host_id:
                raise GameRefused(Refusal.NOT_HOST)
            if len(lobby.players) < rules.MIN_PLAYERS:
                raise GameRefused(Refusal.NOT_ENOUGH_PLAYERS, n=rules.MIN_PLAYERS)
            try:
                lobby.options.round_numbers(len(lobby.players))
            except ValueError:
                # A shortened game of more rounds than this many players can be dealt.
                raise GameRefused(Refusal.TOO_MANY_ROUNDS, n=rules.round_count(len(lobby.players))) from None
            seed = self._seed_source()
            game = Game(len(lobby.players), seed, lobby.options)
            table = Table(
                lobby.id, lobby.guild_id, lobby.channel_id, lobby.host_id, lobby.turn_timer, lobby.players, game
            )
            table.turn_deadline = self._next_deadline(table, game, table.away)
            if self.repository is not None:
                await self.repository.start_game(lobby.id, seed, table.turn_deadline, (self.runner, self._lease()))
            self._cancel_expiry(lobby)
            del self._lobbies[lobby.id]
            self._tables[table.id] = table
        log.info(
            "game %s started in guild %s channel %s with %d players",
            table.id,
            table.guild_id,
            table.channel_id,
            len(table.players),
        )
        self._emit(GameStarted(table))
        self._schedule(table)
        return table

    def _touch(self, lobby: Lobby, delay: float | None = None) -> None:
        """Restart the lobby's idle clock: an untouched lobby closes itself."""
        self._cancel_expiry(lobby)
        loop = asyncio.get_running_loop()
        delay = self._lobby_idle_seconds if delay is None else max(delay, 0.0)
        lobby._expiry = loop.call_later(delay, self._on_idle, lobby.id)

    def _cancel_expiry(self, lobby: Lobby) -> None:
        if lobby._expiry is not None:
            lobby._expiry.cancel()
            lobby._expiry = None

    def _on_idle(self, lobby_id: str) -> None:
        self._spawn(self._expire(lobby_id))

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run a timer's work as a task, keeping a reference so it is not collected mid-way."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expire(self, lobby_id: str) -> None:
        lobby = self._lobbies.get(lobby_id)
        if lobby is None:
            return
        async with lobby.lock:
            if self._lobbies.get(lobby_id) is lobby:
                log.info("lobby %s expired", lobby_id)
                try:
                    await self._close_lobby(lobby, "expired")
                except Exception:
                    log.exception("lobby %s: could not record its expiry", lobby_id)

    async def _close_lobby(self, lobby: Lobby, reason: str) -> None:
        if self.repository is not None:
            await self.repository.close_lobby(lobby.id)
        self._cancel_expiry(lobby)
        self._lobbies.pop(lobby.id, None)
        if self._by_channel.get(lobby.channel_id) == lobby.id:
            del self._by_channel[lobby.channel_id]
        self._emit(LobbyClosed(lobby, reason))

    # -- playing ---------------------------------------------------------------------------

    async def act(self, game_id: str, user_id: int, action: Action, *, round: int, trick: int) -> Applied:
        """Apply a player's action, given the round and trick of the button they pressed.

        A button from an earlier round, or for another trick than the player's next, is refused
        as stale (a hand drawn after its player's card is for their next trick, and stays good
        until then while the others play); the engine refuses
        anything else that is not legal. Concurrent clicks are serialised by the game's lock, so
        of two identical clicks exactly one is applied. A person who is away and makes their move
        is back.
        """
        table = self.table(game_id)
        async with table.lock:
            try:
                return await self._act(table, user_id, action, round, trick)
            except StorageConflict:
                # Another process recorded this game's next move first.
                caught = await self._catch_up(table)
            except (RuleError, GameRefused) as refusal:
                # Refused on this copy for a reason a copy that is behind would give (not your turn,
                # an illegal move, a button of a later trick, the game over): if another process
                # moved the game on meanwhile, the click is judged on the game as it is now. One
                # read of the database, on such refusals only.
                behind_explains = isinstance(refusal, RuleError) or refusal.refusal in CATCH_UP_REFUSALS
                if self.repository is None or not behind_explains:
                    raise
                caught = await self._catch_up(table)
                if not caught:
                    raise
            # If the move caught up with was this very click (delivered to both processes), its
            # answer is that move; else the click is judged again on the game as it is now (a
            # second conflict is an error, not a loop).
            first = caught[0] if caught else None
            if first is not None and (first.seat, first.action) == (table.seat_of(user_id), action):
                return first
            return await self._act(table, user_id, action, round, trick)

    async def _act(self, table: Table, user_id: int, action: Action, round: int, trick: int) -> Applied:
        """`act`, with the game's lock held."""
        if table.stopped or table.game.is_over:
            raise GameRefused(Refusal.NO_GAME)
        seat = table.seat_of(user_id)
        if seat is None or not table.players[seat].is_person:
            raise GameRefused(Refusal.NOT_IN_GAME)
        if table.paused_for:
            raise GameRefused(Refusal.PAUSED)
        if round != table.game.round or trick != table.next_trick(seat):
            raise GameRefused(Refusal.STALE)
        return await self._apply(table, seat, action, "player")

    async def _catch_up(self, table: Table, record: GameRecord | None = None) -> list[Applied]:
        """Bring a game that another process moved on up to what the database holds: the moves it
        recorded (announced as made "elsewhere", so they are shown), the next deadline, presence,
        and whether the game ended. The caller holds the game's lock; `record` is the game as just
        read, if the caller read it. Returns the moves caught up."""
        assert self.repository is not None
        if record is None:
            record = await self.repository.load_game(table.id)
        if record is None:
            return []
        stored = record.actions[len(table.game.log) :]
        caught = [table.game.apply(action_from_json(action), by=seat) for seat, action in stored]
        table.turn_deadline = record.turn_deadline
        for seat in record.seats:
            table.missed[seat.user_id] = seat.missed
            if seat.away:
                table.away.add(seat.user_id)
            else:
                table.away.discard(seat.user_id)
        table.stopped = record.status == "stopped"
        if table.guest:
            # Which messages show the game now (each player's DM hand among them): the owner sends
            # and records them.
            _take_shown(table, record)
        log.info("game %s: caught up %d moves recorded by another process", table.id, len(caught))
        for applied in caught:
            self._emit(ActionApplied(table, applied, "elsewhere"))
        if table.stopped or table.game.is_over:
            self._finish(table)
        else:
            self._schedule(table)
        return caught

    async def _apply(self, table: Table, seat: int, action: Action, by: str) -> Applied:
        """Apply and record an action; the caller holds the game's lock.

        The action is applied to a copy and recorded before the live game changes: if the write
        fails, the game is as it was and the move can be made again.
        """
        game = table.game.copy()
        applied = game.apply(action, by=seat)
        # A person's own move resets their missed turns; a timeout adds one, and enough of them
        # in a row hand the seat to the computer until they are back.
        user = table.players[seat].user_id
        missed, away = table.missed.get(user, 0), user in table.away
        if table.players[seat].is_person:
            if by == "player":
                missed, away = 0, False
            elif by == "timeout":
                missed += 1
                away = missed >= MISSES_BEFORE_AWAY
        presence_changed = (missed, away) != (table.missed.get(user, 0), user in table.away)
        away_now = (table.away | {user}) if away else (table.away - {user})
        deadline = self._next_deadline(table, game, away_now)
        if self.repository is not None:
            if presence_changed:
                await self.repository.set_presence(table.id, seat, missed, away)
            last = (len(game.log) - 1, seat, action_to_json(applied.action))
            if applied.game_over:
                await self._record_finished(table, game, last)
            else:
                await self.repository.append_action(table.id, *last, turn_deadline=deadline)
        table.missed[user] = missed
        table.away = away_now
        table.game = game
        table.turn_deadline = deadline
        table.stand_in = (seat, by) if by in ("timeout", "away") else None
        if applied.game_over:
            self._finish(table)
        self._emit(ActionApplied(table, applied, by))
        if presence_changed and (away or by == "player"):
            self._emit(PresenceChanged(table, seat, away))
        self._schedule(table)
        return applied

    async def back(self, game_id: str, user_id: int) -> Table:
        """A person who was away takes their seat back from the computer."""
        table = self.table(game_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None or not table.players[seat].is_person:
                raise GameRefused(Refusal.NOT_IN_GAME)
            if user_id not in table.away:
                raise GameRefused(Refusal.NOT_AWAY)
            if table.paused_for:
                raise GameRefused(Refusal.PAUSED)
            deadline = table.turn_deadline
            if table.game.to_move == seat:
                deadline = time.time() + table.turn_timer  # their turn now: a full turn's time
            if self.repository is not None:
                await self.repository.set_presence(table.id, seat, 0, False)
                await self.repository.set_turn_deadline(table.id, deadline)
            table.away.discard(user_id)
            table.missed[user_id] = 0
            table.turn_deadline = deadline
            self._emit(PresenceChanged(table, seat, False))
            self._schedule(table)
        return table

    # -- which process runs each game ------------------------------------------------------

    def _lease(self) -> float:
        return time.time() + self._runner_lease

    async def _beat(self) -> None:
        """Every beat: renew this process's claim on the games it runs, take back the games of its
        servers that another process took over, give up the others', and adopt games whose
        process died (its claim ran out), so that their timers and computer players go on."""
        while not self._closed:
            try:
                await self._renew_and_adopt()
            except Exception:
                log.exception("could not renew the claim on this process's games; trying again")
            await asyncio.sleep(self._runner_beat)

    async def _renew_and_adopt(self) -> None:
        repository = self.repository
        assert repository is not None
        now = time.time()
        until = now + self._runner_lease
        held = await repository.renew_runs(self.runner, until)
        lost = [table for table in self._tables.values() if not table.guest and table.id not in held]
        ours = [table.id for table in lost if repository.restores(table.guild_id)]
        if ours:
            # Taken over while this process was slow or away, or started before its claim was
            # written: the process of the game's server runs it.
            await repository.claim_games(self.runner, ours, until)
        for table in lost:
            if not repository.restores(table.guild_id):
                self._give_up(table)
        for game_id in await repository.adopt_orphans(self.runner, now, until, ADOPT_AT_ONCE):
            try:
                await self._adopt(game_id)
            except Exception:
                log.exception("game %s: could not adopt it; another process will", game_id)

    async def _adopt(self, game_id: str) -> None:
        """Run a game whose process died: held here as a guest or not at all until now."""
        assert self.repository is not None
        table = self._tables.get(game_id)
        if table is not None and not table.guest:
            return
        record = await self.repository.load_game(game_id)
        if record is None or record.status != "running":
            return
        table = self._tables.get(game_id)  # loaded meanwhile, by a click
        if table is None:
            table = self._restore_table(record, guest=True)
        async with table.lock:
            if not table.guest or self._tables.get(game_id) is not table:
                return
            # As a guest still, so the moves the dead process made (and showed) are not announced
            # again, and what the channel shows is taken as it recorded it: the presentation layer
            # brings it up to date from there, as after a restart.
            await self._catch_up(table, record)
            if table.stopped or table.game.is_over:
                return
            table.guest = False
            self._by_channel[table.channel_id] = table.id
            self._schedule(table)
        log.warning("game %s: adopted; the process that ran it stopped renewing its claim", game_id)
        self._emit(GameAdopted(table))

    def _give_up(self, table: Table) -> None:
        """The process of the game's server took back a game this one adopted: hold it as a guest."""
        table.guest = True
        self._cancel_timers(table)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        log.info("game %s: its server's process runs it again", table.id)

    # -- turns that play themselves: computer players, timers, people away ------------------

    def _next_deadline(self, table: Table, game: Game, away: set[int]) -> float | None:
        """When the turn now due runs out: None if only the computer plays it or the game is over.

        Under hidden bids everyone bids at once against one deadline, kept until all are in.
        """
        people = [
            seat
            for seat in game.waiting_for()
            if table.players[seat].is_person and table.players[seat].user_id not in away
        ]
        if not people:
            return None
        if game.options.hidden_bids and game.pending_bidders() and table.turn_deadline is not None:
            bidding_goes_on = len(game.pending_bidders()) < game.players
            if bidding_goes_on:
                return table.turn_deadline
        return time.time() + table.turn_timer

    def _schedule(self, table: Table) -> None:
        """Set the timers of the turn in progress: a computer's move, or a person's reminder and timeout.

        Usually one seat is due; under hidden bids every seat still to bid is.
        """
        self._cancel_timers(table)
        if table.guest:
            return  # the process of the game's server runs its timers
        game = table.game
        if table.stopped or game.is_over or table.paused_for:
            return
        loop = asyncio.get_running_loop()
        key = len(game.log)
        due = game.waiting_for()
        itself = [seat for seat in due if table.plays_itself(seat)]
        people = [seat for seat in due if not table.plays_itself(seat)]
        if itself:
            # One automatic move at a time, at a readable pace; the next is scheduled after it.
            seat = itself[0]
            by = "away" if table.players[seat].is_person else "computer"
            table._timers.append(
                loop.call_later(self._computer_pace, self._fire, self._auto_move, table, key, seat, by)
            )
        if people:
            if table.turn_deadline is None:
                table.turn_deadline = time.time() + table.turn_timer
            left = table.turn_deadline - time.time()
            half = table.turn_timer / 2
            for seat in people:
                if left > half:
                    table._timers.append(loop.call_later(left - half, self._remind, table, key, seat, half))
                table._timers.append(
                    loop.call_later(max(left, 0.0), self._fire, self._auto_move, table, key, seat, "timeout")
                )
        humans = [player for player in table.players if player.is_person]
        if humans and all(player.user_id in table.away for player in humans):
            table._timers.append(loop.call_later(self._abandon_seconds, self._fire, self._abandon, table))

    def _fire(self, work: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        """A timer went off: run its work as a task (the coroutine is made only now, so a
        cancelled timer leaves no coroutine behind that was never awaited)."""
        self._spawn(work(*args))

    def _cancel_timers(self, table: Table) -> None:
        for timer in table._timers:
            timer.cancel()
        table._timers.clear()

    def _due(self, table: Table, key: int, seat: int) -> bool:
        """Whether a timer set when the log had `key` actions still has `seat`'s move to make."""
        return (
            not table.stopped
            and not table.paused_for
            and len(table.game.log) == key
            and seat in table.game.waiting_for()
        )

    def _remind(self, table: Table, key: int, seat: int, left: float) -> None:
        if self._due(table, key, seat):
            self._emit(TurnReminder(table, seat, left))

    async def _auto_move(self, table: Table, key: int, seat: int, by: str) -> None:
        """The computer's move for `seat`, if the game has not moved on meanwhile."""
        if not self._due(table, key, seat):
            return
        observation = table.game.observation(seat)
        brain = self._brain(table, seat)
        try:
            # In a thread: a hard player thinks for up to a quarter of a second.
            action = await asyncio.to_thread(brain.choose, observation)
        except Exception:
            log.exception(
                "game %s: the computer player of seat %s failed; playing its first legal move", table.id, seat
            )
            action = observation.legal[0]
        async with table.lock:
            if not self._due(table, key, seat):
                return  # the person moved in time, or the game was stopped
            try:
                await self._apply(table, seat, action, by)
            except StorageConflict:
                # Another process made a move first: catch up; the timers are set again from there.
                await self._catch_up(table)
            except Exception:
                log.exception("game %s: could not make the computer's move; trying again", table.id)
                self._schedule(table)

    def _brain(self, table: Table, seat: int) -> Brain:
        """The computer player for a seat: its own level, or the stand-in level for a person."""
        # The computer players are imported when the first one moves, not at start-up: a restarted
        # bot takes clicks sooner (their card tables are a tenth of the time it takes to import it).
        from . import ai

        level = table.players[seat].computer or STAND_IN_LEVEL
        brain = table._brains.get((seat, level))
        if brain is None:
            brain = table._brains[(seat, level)] = ai.make_player(level, table.game.seed * 8 + seat)
        return brain

    async def _abandon(self, table: Table) -> None:
        """End a game whose people have all been away too long."""
        async with table.lock:
            people = [player for player in table.players if player.is_person]
            if table.stopped or table.game.is_over or not all(p.user_id in table.away for p in people):
                return
            if self.repository is not None:
                await self.repository.stop_game(table.id)
            table.stopped = True
            self._finish(table)
        log.info("game %s ended itself: everyone was away", table.id)
        self._emit(GameStopped(table, None, "abandoned"))

    def pause(self, game_id: str, reasons: tuple[str, ...]) -> None:
        """Hold a game that cannot be shown (`reasons` say why): no move is accepted and no timer
        runs, so nobody's time runs out and no computer plays unseen, until `resume`."""
        table = self._tables.get(game_id)
        if table is None or table.stopped or not reasons:
            return
        if not table.paused_for:
            log.info("game %s paused: %s", table.id, ", ".join(reasons))
        table.paused_for = reasons
        self._cancel_timers(table)

    async def resume(self, game_id: str) -> None:
        """Go on with a paused game; whoever is to move gets a full turn's time, for they could not
        see the table while it waited."""
        table = self._tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not table.paused_for:
                return
            # Not the deadline that ran out of sight: a new one from now.
            table.turn_deadline = None
            deadline = self._next_deadline(table, table.game, table.away)
            if self.repository is not None and not table.stopped:
                await self.repository.set_turn_deadline(table.id, deadline)
            table.paused_for = ()
            table.turn_deadline = deadline
            log.info("game %s resumed", table.id)
            self._schedule(table)

    async def stop(self, game_id: str, user_id: int, *, is_moderator: bool, name: str | None = None) -> Table:
        """End a game early: its host, or a member who may manage the server (`name`, for the table)."""
        table = self.table(game_id)
        async with table.lock:
            if table.stopped or table.game.is_over:
                raise GameRefused(Refusal.NO_GAME)
            if user_id != table.host_id and not is_moderator:
                raise GameRefused(Refusal.NOT_ALLOWED)
            if self.repository is not None:
                await self.repository.stop_game(table.id)
            table.stopped = True
            self._finish(table)
        log.info("game %s stopped by %s", table.id, user_id)
        self._emit(GameStopped(table, Player(user_id, name or str(user_id))))
        return table

    async def _record_finished(
        self, table: Table, game: Game, last_action: tuple[int, int, dict[str, Any]] | None = None
    ) -> None:
        """Store the result of `game` and update the players' statistics and ratings."""
        if self.repository is None:
            return
        places = placings(game.scores)
        user_ids = [player.user_id for player in table.players]
        new_ratings = None
        # Games with computer players are recorded, but only games between people change ratings.
        if all(player.is_person for player in table.players):
            previous = await self.repository.ratings(table.guild_id, user_ids)
            new_ratings = ratings.rate(previous, user_ids, places)
        winners = set(game.winners())
        seats = [
            FinalSeat(
                seat,
                player.user_id,
                player.name,
                game.scores[seat],
                places[seat],
                seat in winners,
                tuple((r.round, r.bids[seat], r.tricks[seat], r.points[seat]) for r in game.history),
                computer=not player.is_person,
            )
            for seat, player in enumerate(table.players)
        ]
        await self.repository.record_finished(table.id, table.guild_id, seats, new_ratings, last_action)

    def _finish(self, table: Table) -> None:
        self._cancel_timers(table)
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        log.info("game %s finished; scores %s", table.id, table.game.scores)

    # -- message bookkeeping ---------------------------------------------------------------

    async def set_table_message(self, table: Table, message_id: int | None) -> None:
        """Remember the message that shows the table of the current round."""
        table.table_message_id = message_id
        table.table_round = table.game.round
        repository = self._bookkeeping
        if repository is not None:
            await repository.set_table_message(table.id, message_id, table.table_round)

    async def set_hand_message(self, table: Table, user_id: int, channel_id: int, message_id: int) -> None:
        """Remember the DM that shows a player's hand of the current round."""
        table.hand_messages[user_id] = (channel_id, message_id, table.game.round)
        seat = table.seat_of(user_id)
        repository = self._bookkeeping
        if repository is not None and seat is not None:
            await repository.set_hand_message(table.id, seat, channel_id, message_id, table.game.round)

    async def set_pads_shown(self, table: Table, count: int) -> None:
        """Remember that the channel shows the score pads of the game's first `count` rounds."""
        table.pads_shown = count
        repository = self._bookkeeping
        if repository is not None:
            await repository.set_pads_shown(table.id, count)

    async def set_final_message(self, table: Table, message_id: int) -> None:
        """Remember that the channel shows how the game ended (its standings, or its closed table)."""
        repository = self._bookkeeping
        if repository is not None:
            await repository.set_final_message(table.id, message_id)

    async def mark_dm_closed(self, table: Table, user_id: int) -> bool:
        """Note that a player's DMs are closed; True the first time, so they are told once."""
        if user_id in table.dm_closed:
            return False
        table.dm_closed.add(user_id)
        table.hand_messages.pop(user_id, None)
        seat = table.seat_of(user_id)
        repository = self._bookkeeping
        if repository is not None and seat is not None:
            await repository.set_dm_closed(table.id, seat)
        return True

    # -- helpers ---------------------------------------------------------------------------

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(4)
            if game_id not in self._lobbies and game_id not in self._tables:
                return game_id

    def close(self) -> None:
        """Cancel the timers; the bot calls this when it shuts down."""
        self._closed = True
        for lobby in self._lobbies.values():
            self._cancel_expiry(lobby)
        for table in self._tables.values():
            self._cancel_timers(table)
        for task in self._tasks:
            task.cancel()

    # -- the coach -------------------------------------------------------------------------

    async def review(self, user_id: int, guild_id: int, game_id: str | None = None) -> Review:
        """A person's review of a finished game (`game_id`, else their last on the server), for their
        eyes only. The first time it is worked out in a thread, off the event loop, and stored."""
        from .review import Review

        repository = self.repository
        if repository is None:
            raise GameRefused(Refusal.REVIEW_MISSING)
        if game_id is None:
            game_id = await repository.last_finished_game(guild_id, user_id)
            if game_id is None:
                raise GameRefused(Refusal.NO_FINISHED_GAME)
        record = await repository.load_game(game_id)
        if record is None or record.status != "finished" or record.seed is None:
            raise GameRefused(Refusal.REVIEW_MISSING)
        seat = next((s.seat for s in record.seats if s.user_id == user_id and s.computer is None), None)
        if seat is None:
            raise GameRefused(Refusal.NOT_A_PLAYER)
        stored = await repository.review(record.id, seat)
        if stored is not None:
            try:
                return Review.from_json(stored)
            except ValueError:
                log.info("game %s: the stored review of seat %d is of another form; worked out again", record.id, seat)
        key = (record.id, seat)
        pending = self._reviews.get(key)
        if pending is None:
            # Clicks that come while it is being worked out wait for the same review.
            pending = self._reviews[key] = asyncio.ensure_future(self._work_out_review(record, seat))
            pending.add_done_callback(lambda _: self._reviews.pop(key, None))
        return await asyncio.shield(pending)

    async def _work_out_review(self, record: GameRecord, seat: int) -> Review:
        from .review import review_game

        assert record.seed is not None
        assert self.repository is not None
        actions = [(by, action_from_json(action)) for by, action in record.actions]
        options = Options.from_json(record.options)
        async with self._reviewing:
            started = time.perf_counter()
            review = await asyncio.to_thread(
                review_game, record.id, len(record.seats), record.seed, options, actions, seat
            )
        log.info("game %s: review of seat %d worked out in %.1f s", record.id, seat, time.perf_counter() - started)
        await self.repository.save_review(record.id, seat, review.to_json())
        return review


def _take_shown(table: Table, record: GameRecord) -> None:
    """Take from `record` which messages show the game, as the process that showed it stored them:
    the table message, the score pads posted, each player's DM hand, and whose DMs are closed."""
    table.table_message_id, table.table_round = record.table_message_id, record.table_round
    # A game from before this was stored (None) is taken to have shown its pads so far.
    table.pads_shown = len(table.game.history) if record.pads_shown is None else record.pads_shown
    table.dm_closed = {seat.user_id for seat in record.seats if seat.dm_closed}
    table.hand_messages = {
        seat.user_id: (seat.dm_channel_id, seat.hand_message_id, seat.hand_round)
        for seat in record.seats
        if not seat.dm_closed and seat.dm_channel_id and seat.hand_message_id and seat.hand_round
    }


def placings(scores: list[int]) -> list[int]:
    """Each seat's place, 1 for the highest score; equal scores share a place."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def _seats(players: list[Player]) -> list[SeatRecord]:
    return [
        SeatRecord(seat, player.user_id, player.name, computer=player.computer) for seat, player in enumerate(players)
    ]


def computer_player(user_id: int, level: str) -> Player:
    """A computer player of `level`; its shown name is made by the presentation layer."""
    if level not in COMPUTER_LEVELS:
        raise ValueError(f"no computer level {level!r}")
    return Player(user_id, f"Computer ({level})", level)
