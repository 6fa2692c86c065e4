"""The state every part of the game manager shares, and what the parts ask of one another.

`GameManager` (in `bot.manager`) is put together from its parts, one module each: the lobbies
(`_lobbies`), the running games (`_games`), the turns that play themselves — timers and computer
players (`_turns`), what is stored and restored (`_persistence`), which process runs each game
(`_runners`) and the coach (`_coach`). Each part is a class over this core; what one part needs
of another is declared here, so each module reads on its own.
"""

from __future__ import annotations

import abc
import asyncio
import logging
import secrets
from collections.abc import Coroutine, Sequence
from typing import Any

from ..clock import Clock
from ..engine import Action, Applied, Game, Observation
from ..storage import GameRecord, Repository, SeasonEntry
from ._model import Event, GameRefused, Listener, Lobby, Refusal, Table

log = logging.getLogger(__name__)


class Core(abc.ABC):
    """The lobbies and games of this process by id and by channel, the listeners, the background
    tasks, and the lookups every part makes."""

    # Without a repository nothing survives a restart: for tests of the game logic alone.
    repository: Repository | None
    runner: str  # this process's name in the database's record of who runs each game
    # The time turn deadlines and seasons live in (see `bot.clock`); leases are in real time.
    clock: Clock
    _lobbies: dict[str, Lobby]
    _tables: dict[str, Table]
    _by_channel: dict[int, str]
    _opening: set[str]  # lobbies being stored, whose claim is not committed yet
    _listeners: list[Listener]
    _tasks: set[asyncio.Task[None]]
    _closed: bool
    _turn_pings: dict[int, bool]  # each person's choice of a DM at their move, as read or set

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` with every event. Listeners must not block: they schedule their work."""
        self._listeners.append(listener)

    def _emit(self, event: Event) -> None:
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:
                log.exception("listener failed on %s", type(event).__name__)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run background work (a timer's, say) as a task, keeping a reference so it is not
        collected mid-way."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def _bookkeeping(self) -> Repository | None:
        """Where to note message ids and closed DMs: nowhere once the bot is shutting down.

        They are written after the person already has their answer, so a click that lands as the
        bot stops must not write to a database that is closing. Losing one only means a fresh
        message after the restart.
        """
        return None if self._closed else self.repository

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

    def hosted_by(self, user_id: int, guild_id: int) -> Table | None:
        """The one running game a person hosts on a server (None if none, or several)."""
        hosted = [t for t in self._tables.values() if not t.guest and t.host_id == user_id and t.guild_id == guild_id]
        return hosted[0] if len(hosted) == 1 else None

    def _new_id(self) -> str:
        while True:
            game_id = secrets.token_hex(4)
            if game_id not in self._lobbies and game_id not in self._tables:
                return game_id

    # -- what the parts ask of one another -------------------------------------------------

    @abc.abstractmethod
    def _touch(self, lobby: Lobby, delay: float | None = None) -> None: ...

    @abc.abstractmethod
    def _cancel_expiry(self, lobby: Lobby) -> None: ...

    @abc.abstractmethod
    async def _close_lobby(self, lobby: Lobby, reason: str) -> None: ...

    @abc.abstractmethod
    def _give_up_lobby(self, lobby: Lobby) -> None: ...

    @abc.abstractmethod
    async def _apply(self, table: Table, seat: int, action: Action, by: str) -> Applied: ...

    @abc.abstractmethod
    async def _catch_up(self, table: Table, record: GameRecord | None = None) -> list[Applied]: ...

    @abc.abstractmethod
    def _finish(self, table: Table) -> None: ...

    @abc.abstractmethod
    def _heard(self, game_id: str, count: int) -> None: ...

    @abc.abstractmethod
    def _next_deadline(self, table: Table, game: Game, away: set[int]) -> float | None: ...

    @abc.abstractmethod
    def _schedule(self, table: Table) -> None: ...

    @abc.abstractmethod
    def _cancel_timers(self, table: Table) -> None: ...

    @abc.abstractmethod
    def _restore_lobby(self, record: GameRecord) -> Lobby: ...

    @abc.abstractmethod
    def _restore_table(self, record: GameRecord, *, playing: bool = True, guest: bool = False) -> Table: ...

    @abc.abstractmethod
    async def _record_finished(
        self, table: Table, game: Game, last_action: tuple[int, int, dict[str, Any]] | None = None
    ) -> None: ...

    @abc.abstractmethod
    def _lease(self) -> float: ...

    @abc.abstractmethod
    def _run_here(self, table: Table) -> None: ...

    @abc.abstractmethod
    async def _beat(self) -> None: ...

    @abc.abstractmethod
    async def _season_entry(
        self, table: Table, user_ids: Sequence[int], places: Sequence[int]
    ) -> SeasonEntry | None: ...

    @abc.abstractmethod
    async def _season_beat(self) -> None: ...
