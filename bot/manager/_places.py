"""A place gone: a channel or thread deleted, or the bot removed from a server. Its lobbies close, its
games end — stored as stopped, with the reason — and the presentation layer tells their players and
posts nothing there again."""

from __future__ import annotations

import logging
from collections.abc import Collection

from ._core import Core
from ._model import GameStopped, Table

log = logging.getLogger(__name__)


class Places(Core):
    """Ending what lived in a place that is gone."""

    async def place_gone(
        self, reason: str, *, guild_id: int, channel_ids: Collection[int] | None = None
    ) -> list[Table]:
        """Close the lobbies and end the games of these channels of a server (all of its channels when
        `channel_ids` is None), whose place is gone for `reason` (one of `PLACE_GONE`). Returns the games
        this process ended (a game another process ended first is only let go of here)."""

        def there(guild: int, channel: int) -> bool:
            return guild == guild_id and (channel_ids is None or channel in channel_ids)

        for lobby in [lobby for lobby in self._lobbies.values() if there(lobby.guild_id, lobby.channel_id)]:
            async with lobby.lock:
                if self._lobbies.get(lobby.id) is lobby:
                    where = f"guild {guild_id} channel {lobby.channel_id}"
                    log.warning("lobby %s in %s closed: %s", lobby.id, where, reason)
                    await self._close_lobby(lobby, reason)
        tables = [table for table in self._tables.values() if there(table.guild_id, table.channel_id)]
        return [table for table in tables if await self._end_where_gone(table, reason)]

    async def end_game(self, game_id: str, reason: str) -> bool:
        """End one game whose place is gone (Discord refused a request there as gone, say); False if it
        is not held here or has ended already."""
        table = self._tables.get(game_id)
        return table is not None and await self._end_where_gone(table, reason)

    async def _end_where_gone(self, table: Table, reason: str) -> bool:
        async with table.lock:
            if self._tables.get(table.id) is not table or table.stopped or table.game.is_over:
                return False
            stored = self.repository is None or await self.repository.stop_game(table.id, reason)
            table.stopped = True
            if not stored:
                # Another process ended it first (and told its players): here it is only let go of.
                self._finish(table)
                return False
            table.end_reason = reason
            # Ended here, so told from here, even if another process ran it: that one lets go of it at
            # its next beat (the game is no longer running), and what it still had to show is dropped.
            table.guest = False
            self._finish(table)
        log.warning("game %s in guild %s channel %s ended: %s", table.id, table.guild_id, table.channel_id, reason)
        self._emit(GameStopped(table, None, reason))
        return True
