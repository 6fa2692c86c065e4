"""Lobbies: a game forming in a channel, until its host starts it (or it closes)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence

from ..engine import Game, Options, rules
from ..storage import GameRecord
from ._core import Core
from ._model import (
    DEFAULT_TURN_TIMER,
    GameRefused,
    GameStarted,
    Lobby,
    LobbyClosed,
    Player,
    Refusal,
    Table,
    computer_player,
    seat_records,
)

log = logging.getLogger(__name__)

LOBBY_IDLE_SECONDS = 15 * 60


class Lobbies(Core):
    """Opening a lobby, seats and house rules, the idle clock, and starting the game."""

    _lobby_idle_seconds: float
    _turn_timer_range: tuple[float, float]
    _seed_source: Callable[[], int]

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
            self._opening.add(lobby.id)  # not yet claimed in the database: see `Runners._renew_and_adopt`
            try:
                await self.repository.create_lobby(
                    lobby.id,
                    guild_id,
                    channel_id,
                    host.user_id,
                    options.to_json(),
                    turn_timer,
                    seat_records(lobby.players),
                    # Held by this process under a lease, as its games are: adopted if it dies.
                    runner=(self.runner, self._lease()),
                )
            except BaseException:
                del self._lobbies[lobby.id]
                del self._by_channel[channel_id]
                raise
            finally:
                self._opening.discard(lobby.id)
        self._touch(lobby)
        log.info("lobby %s opened in guild %s channel %s", lobby.id, guild_id, channel_id)
        return lobby

    async def find_lobby(self, lobby_id: str) -> Lobby:
        """The open lobby `lobby_id`: held here, or taken from the database when its claim came to this
        process (handed back by the process that adopted it) or lapsed, and its server is this
        process's; GameRefused if there is none here."""
        if lobby_id in self._lobbies or self.repository is None:
            return self.lobby(lobby_id)
        record = await self.repository.load_game(lobby_id)
        if record is None or record.status != "lobby" or not self.repository.restores(record.guild_id):
            return self.lobby(lobby_id)
        claimed = await self.repository.claim_games(self.runner, [lobby_id], time.time(), self._lease())
        if lobby_id in claimed and lobby_id not in self._lobbies and lobby_id not in self._tables:
            self._restore_lobby(record)
            log.info("lobby %s: taken from the database", lobby_id)
        return self.lobby(lobby_id)

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
            await self.repository.update_lobby(lobby.id, host_id, seat_records(players))
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

    async def close_lobby(self, lobby_id: str, reason: str) -> bool:
        """Close a lobby that cannot go on, whoever asks: its message was deleted ("message_gone"), say.
        False if it had closed or started already."""
        lobby = self._lobbies.get(lobby_id)
        if lobby is None:
            return False
        async with lobby.lock:
            if self._lobbies.get(lobby_id) is not lobby:
                return False
            log.info("lobby %s closed: %s", lobby_id, reason)
            await self._close_lobby(lobby, reason)
        return True

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

    def _restore_lobby(self, record: GameRecord) -> Lobby:
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
        return lobby

    def _give_up_lobby(self, lobby: Lobby) -> None:
        """Let go of a lobby another process holds now (it adopted it, or was asked to give it back):
        that process keeps its idle clock and takes its clicks."""
        self._cancel_expiry(lobby)
        if self._lobbies.get(lobby.id) is lobby:
            del self._lobbies[lobby.id]
        if self._by_channel.get(lobby.channel_id) == lobby.id:
            del self._by_channel[lobby.channel_id]
        log.info("lobby %s: another process holds it now", lobby.id)

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
