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
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from . import ratings
from .engine import Action, Applied, Game, Observation, Options, RuleError, action_from_json, action_to_json, rules
from .storage import FinalSeat, GameRecord, Repository, SeatRecord

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60
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


class GameRefused(Exception):
    """A request the manager cannot carry out; `refusal` says why, `details` fills the message."""

    def __init__(self, refusal: Refusal, **details: object) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal
        self.details = details


@dataclass(slots=True)
class Player:
    """A person at the table: their Discord user id and the name shown for them."""

    user_id: int
    name: str


@dataclass(slots=True)
class Lobby:
    """A game waiting for players. Its id becomes the game's id when it starts."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    options: Options
    turn_timer: int
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
    turn_timer: int
    players: list[Player]  # by seat
    game: Game
    table_message_id: int | None = None
    table_round: int | None = None  # the round the table message shows
    # Each player's DM hand message: user id -> (channel id, message id, the round it shows).
    hand_messages: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    dm_closed: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    stopped: bool = False

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    def player_to_move(self) -> Player | None:
        seat = self.game.to_move
        return None if seat is None else self.players[seat]

    @property
    def trick_number(self) -> int:
        """How many tricks of the current round are finished: the stale-click check uses it."""
        return len(self.game.tricks)


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
    """An action was accepted; `applied` says which trick, round or game it completed."""

    table: Table
    applied: Applied


@dataclass(frozen=True, slots=True)
class GameStopped:
    """A game was ended before its last round by the host or a moderator."""

    table: Table
    by_user_id: int


Event = LobbyClosed | GameStarted | ActionApplied | GameStopped
Listener = Callable[[Event], None]


class GameManager:
    """Owns every lobby and game; at most one of either per channel."""

    def __init__(
        self,
        repository: Repository | None = None,
        *,
        lobby_idle_seconds: float = LOBBY_IDLE_SECONDS,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
    ) -> None:
        # Without a repository nothing survives a restart: for tests of the game logic alone.
        self.repository = repository
        self._lobbies: dict[str, Lobby] = {}
        self._tables: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}
        self._listeners: list[Listener] = []
        self._lobby_idle_seconds = lobby_idle_seconds
        self._seed_source = seed_source
        self._tasks: set[asyncio.Task[None]] = set()

    async def load(self, repository: Repository) -> list[Table]:
        """Use `repository` from now on, and restore the lobbies and games it holds.

        Returns the restored games, whose messages the presentation layer then refreshes.
        """
        self.repository = repository
        tables = []
        for record in await repository.open_games():
            try:
                if record.status == "lobby":
                    self._restore_lobby(record)
                    continue
                table = self._restore_table(record)
                if table.game.is_over:
                    # The last action was stored but the result was not (by an older version):
                    # record it now, so the channel is free again.
                    await self._record_finished(table, table.game)
                    self._finish(table)
                else:
                    tables.append(table)
            except Exception:
                log.exception("could not restore game %s; it is left as it was", record.id)
        log.info("restored %d lobbies and %d games", len(self._lobbies), len(tables))
        return tables

    def _restore_lobby(self, record: GameRecord) -> None:
        players = [Player(seat.user_id, seat.name) for seat in record.seats]
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

    def _restore_table(self, record: GameRecord) -> Table:
        assert record.seed is not None
        actions = [(seat, action_from_json(action)) for seat, action in record.actions]
        game = Game.replay(len(record.seats), record.seed, Options.from_json(record.options), actions)
        table = Table(
            record.id,
            record.guild_id,
            record.channel_id,
            record.host_id,
            record.turn_timer,
            [Player(seat.user_id, seat.name) for seat in record.seats],
            game,
            table_message_id=record.table_message_id,
            table_round=record.table_round,
        )
        for seat in record.seats:
            if seat.dm_closed:
                table.dm_closed.add(seat.user_id)
            elif seat.dm_channel_id and seat.hand_message_id and seat.hand_round:
                table.hand_messages[seat.user_id] = (seat.dm_channel_id, seat.hand_message_id, seat.hand_round)
        self._tables[table.id] = table
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

    def table(self, game_id: str) -> Table:
        table = self._tables.get(game_id)
        if table is None:
            raise GameRefused(Refusal.NOT_STARTED if game_id in self._lobbies else Refusal.NO_GAME)
        return table

    def tables(self) -> list[Table]:
        return list(self._tables.values())

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
        self, guild_id: int, channel_id: int, host: Player, options: Options, turn_timer: int = DEFAULT_TURN_TIMER
    ) -> Lobby:
        """Open a lobby in a channel with the host seated; refused if the channel has a game."""
        existing = self.in_channel(channel_id)
        if existing is not None:
            raise GameRefused(Refusal.CHANNEL_BUSY, game=existing)
        if not MIN_TURN_TIMER <= turn_timer <= MAX_TURN_TIMER:
            raise GameRefused(Refusal.BAD_TIMER, low=MIN_TURN_TIMER, high=MAX_TURN_TIMER)
        lobby = Lobby(self._new_id(), guild_id, channel_id, host.user_id, options, turn_timer, [host])
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

    async def set_lobby_message(self, lobby_id: str, message_id: int) -> None:
        lobby = self._lobbies.get(lobby_id)
        if lobby is not None:
            lobby.message_id = message_id
            if self.repository is not None:
                await self.repository.set_lobby_message(lobby_id, message_id)

    async def join(self, lobby_id: str, player: Player) -> Lobby:
        lobby = self.lobby(lobby_id)
        async with lobby.lock:
            self._check_open(lobby)
            if lobby.has(player.user_id):
                raise GameRefused(Refusal.ALREADY_JOINED)
            if len(lobby.players) >= rules.MAX_PLAYERS:
                raise GameRefused(Refusal.LOBBY_FULL, most=rules.MAX_PLAYERS)
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
            if not players:
                await self._close_lobby(lobby, "empty")
                lobby.players = players
                return lobby
            host = players[0].user_id if lobby.host_id == user_id else lobby.host_id
            await self._store_lobby(lobby, host, players)
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
                raise GameRefused(Refusal.NOT_ENOUGH_PLAYERS, least=rules.MIN_PLAYERS)
            seed = self._seed_source()
            if self.repository is not None:
                await self.repository.start_game(lobby.id, seed)
            self._cancel_expiry(lobby)
            del self._lobbies[lobby.id]
            game = Game(len(lobby.players), seed, lobby.options)
            table = Table(
                lobby.id, lobby.guild_id, lobby.channel_id, lobby.host_id, lobby.turn_timer, lobby.players, game
            )
            self._tables[table.id] = table
        log.info(
            "game %s started in guild %s channel %s with %d players",
            table.id,
            table.guild_id,
            table.channel_id,
            len(table.players),
        )
        self._emit(GameStarted(table))
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

        A button from an earlier round or trick is refused as stale; the engine refuses
        anything else that is not legal. Concurrent clicks are serialised by the game's lock, so
        of two identical clicks exactly one is applied.
        """
        table = self.table(game_id)
        async with table.lock:
            if table.stopped or table.game.is_over:
                raise GameRefused(Refusal.NO_GAME)
            seat = table.seat_of(user_id)
            if seat is None:
                raise GameRefused(Refusal.NOT_IN_GAME)
            if (round, trick) != (table.game.round, table.trick_number):
                raise GameRefused(Refusal.STALE)
            # Apply to a copy and record it before the live game changes: if the write fails,
            # the game is as it was and the player is told to try again.
            game = table.game.copy()
            applied = game.apply(action, by=seat)
            if self.repository is not None:
                last = (len(game.log) - 1, seat, action_to_json(applied.action))
                if applied.game_over:
                    await self._record_finished(table, game, last)
                else:
                    await self.repository.append_action(table.id, *last)
            table.game = game
            if applied.game_over:
                self._finish(table)
            self._emit(ActionApplied(table, applied))
            return applied

    async def stop(self, game_id: str, user_id: int, *, is_moderator: bool) -> Table:
        """End a game early: its host, or a member who may manage the server."""
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
        self._emit(GameStopped(table, user_id))
        return table

    async def _record_finished(
        self, table: Table, game: Game, last_action: tuple[int, int, dict[str, Any]] | None = None
    ) -> None:
        """Store the result of `game` and update the players' statistics and ratings."""
        if self.repository is None:
            return
        places = placings(game.scores)
        user_ids = [player.user_id for player in table.players]
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
            )
            for seat, player in enumerate(table.players)
        ]
        await self.repository.record_finished(table.id, table.guild_id, seats, new_ratings, last_action)

    def _finish(self, table: Table) -> None:
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        log.info("game %s finished; scores %s", table.id, table.game.scores)

    # -- message bookkeeping ---------------------------------------------------------------

    async def set_table_message(self, table: Table, message_id: int | None) -> None:
        """Remember the message that shows the table of the current round."""
        table.table_message_id = message_id
        table.table_round = table.game.round
        if self.repository is not None:
            await self.repository.set_table_message(table.id, message_id, table.table_round)

    async def set_hand_message(self, table: Table, user_id: int, channel_id: int, message_id: int) -> None:
        """Remember the DM that shows a player's hand of the current round."""
        table.hand_messages[user_id] = (channel_id, message_id, table.game.round)
        seat = table.seat_of(user_id)
        if self.repository is not None and seat is not None:
            await self.repository.set_hand_message(table.id, seat, channel_id, message_id, table.game.round)

    async def mark_dm_closed(self, table: Table, user_id: int) -> bool:
        """Note that a player's DMs are closed; True the first time, so they are told once."""
        if user_id in table.dm_closed:
            return False
        table.dm_closed.add(user_id)
        table.hand_messages.pop(user_id, None)
        seat = table.seat_of(user_id)
        if self.repository is not None and seat is not None:
            await self.repository.set_dm_closed(table.id, seat)
        return True

    # -- helpers ---------------------------------------------------------------------------

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(4)
            if game_id not in self._lobbies and game_id not in self._tables:
                return game_id

    def close(self) -> None:
        """Cancel the timers; the bot calls this when it shuts down."""
        for lobby in self._lobbies.values():
            self._cancel_expiry(lobby)
        for task in self._tasks:
            task.cancel()


def placings(scores: list[int]) -> list[int]:
    """Each seat's place, 1 for the highest score; equal scores share a place."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def _seats(players: list[Player]) -> list[SeatRecord]:
    return [SeatRecord(seat, player.user_id, player.name) for seat, player in enumerate(players)]


__all__ = [
    "DEFAULT_TURN_TIMER",
    "ActionApplied",
    "Event",
    "GameManager",
    "GameRefused",
    "GameStarted",
    "GameStopped",
    "Listener",
    "Lobby",
    "LobbyClosed",
    "Player",
    "Refusal",
    "RuleError",
    "Table",
]
