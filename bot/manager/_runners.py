"""Which process runs each game and holds each lobby: a claim renewed every beat, games and lobbies of
a dead process adopted by another, and handed back to the process of their server when it returns.

One process at a time runs a game — its timers, its computer players, and the messages that show
it — so that an older render from one process never overwrites a newer one from another (Discord's
edits carry no condition a second process could be held to). A game changes process only by a
handover: the process of its server asks for it back; the adopter stops running and showing it at
its next beat, then hands it over in the database; the server's process runs it from its following
beat, starting with what the channel is owed. A dead process's claim simply runs out. One exception
keeps restarts fast: a process of the game's server that starts takes the game at once from another
process of the same server — most likely the one it replaces, dead (a crash) or about to exit (a
deploy) — which lets go at its next beat if it still lives.

A lobby is held the same way, by one process at a time, since each change to it rewrites its seats: the
holder keeps its idle clock (and so closes it when nobody touches it) and takes its clicks.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ._core import Core
from ._model import GameAdopted, LobbyAdopted, Table

log = logging.getLogger(__name__)

# How often a process renews its claim on the games it runs and looks for games whose process died,
# and how long a claim holds: a process that dies delays its games' timers and computer players by
# at most the lease and a beat (see `GameManager._beat`).
RUNNER_BEAT_SECONDS = 2.0
RUNNER_LEASE_SECONDS = 6.0
ADOPT_AT_ONCE = 20  # games adopted in one beat, so that one process does not take them all at once


class Runners(Core):
    """The claims on the games this process runs, renewed on a beat; adopting and giving up games."""

    _runner_beat: float
    _runner_lease: float

    def _lease(self) -> float:
        return time.time() + self._runner_lease

    async def _beat(self) -> None:
        """Every beat: renew this process's claim on the games it runs, hand over those asked back,
        ask back the games of its servers that another process adopted, and adopt games whose
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
        # What this process held, with its claim committed, before renewing: a lobby still being
        # stored may be missing from the answer, yet it is this process's all the same.
        known = set(self._tables) | (set(self._lobbies) - self._opening)
        held = await repository.renew_runs(self.runner, until)
        asked = [game_id for game_id, asked_back in held.items() if asked_back]
        for game_id in asked:
            if (table := self._tables.get(game_id)) is not None:
                self._give_up(table)
            if (lobby := self._lobbies.get(game_id)) is not None:
                self._give_up_lobby(lobby)
        if asked:
            # Stopped showing them first: from here on only their server's process does.
            await repository.hand_over(self.runner, asked, until)
        for table in list(self._tables.values()):
            if not table.guest and table.id in known and table.id not in held:
                self._give_up(table)  # another process runs it now (this one missed its beats)
        for lobby in list(self._lobbies.values()):
            if lobby.id in known and lobby.id not in held:
                self._give_up_lobby(lobby)  # another process holds it now
        # Handed over to this process since its last beat (it asked for them back at its start), and not
        # held here at all yet: a lobby, most likely (a game is held as a guest meanwhile).
        handed = [
            game_id
            for game_id, asked_back in held.items()
            if not asked_back and game_id not in self._tables and game_id not in self._lobbies
        ]
        # The games of this process's servers that another process runs: those whose claim ran out,
        # or that were handed over since the last beat, are taken now; an adopter's are asked back.
        ours = [table.id for table in self._tables.values() if table.guest and repository.restores(table.guild_id)]
        claimed = await repository.claim_games(self.runner, ours, now, until) if ours else set()
        for game_id in [*handed, *claimed, *await repository.adopt_orphans(self.runner, now, until, ADOPT_AT_ONCE)]:
            try:
                await self._adopt(game_id)
            except Exception:
                log.exception("game %s: could not adopt it; another process will", game_id)

    async def _adopt(self, game_id: str) -> None:
        """Run a game, or hold a lobby, that this process has just claimed (its process died, or handed
        it over): held here as a guest or not at all until now."""
        assert self.repository is not None
        table = self._tables.get(game_id)
        if (table is not None and not table.guest) or game_id in self._lobbies:
            return
        record = await self.repository.load_game(game_id)
        if record is not None and record.status == "lobby":
            if game_id not in self._lobbies and game_id not in self._tables:  # not taken meanwhile
                lobby = self._restore_lobby(record)
                log.warning("lobby %s: held in this process from now on", game_id)
                self._emit(LobbyAdopted(lobby))
            return
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
            self._run_here(table)
        log.warning("game %s: runs in this process from now on", game_id)
        self._emit(GameAdopted(table))

    def _run_here(self, table: Table) -> None:
        """Run a game held as a guest: its timers, its channel's commands, its messages."""
        table.guest = False
        self._by_channel[table.channel_id] = table.id
        self._schedule(table)

    def _give_up(self, table: Table) -> None:
        """Stop running a game (another process runs it, or is to): hold it as a guest, which only
        takes the clicks that reach this process; the presentation layer drops what it had still to
        show of it."""
        table.guest = True
        table.paused_for = ()  # whether it waits is for the process that shows it to say
        self._cancel_timers(table)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        log.info("game %s: another process runs it now", table.id)
