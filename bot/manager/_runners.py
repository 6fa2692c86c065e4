"""Which process runs each game: a claim renewed every beat, games of a dead process adopted by
another, and given back to the process of their server when it returns."""

from __future__ import annotations

import asyncio
import logging
import time

from ._core import Core
from ._model import GameAdopted, Table

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
