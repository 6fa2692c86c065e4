"""What is stored and restored: the lobbies and games a restart finds, a finished game's result and
ratings, and which messages show each game (so that a restart edits them rather than posting again)."""

from __future__ import annotations

import logging
import time
from typing import Any

from .. import ratings
from ..engine import Game, Options, action_from_json
from ..storage import FinalSeat, GameRecord, Repository, SeasonOver
from ._core import Core
from ._model import Player, Table, placings, take_shown

log = logging.getLogger(__name__)

# How often a finished game is stored again when the season it was to count for ended meanwhile.
SEASON_TRIES = 3


class Persistence(Core):
    """Restoring at start-up, recording a finished game, and the message bookkeeping."""

    async def load(self, repository: Repository) -> list[Table]:
        """Use `repository` from now on, and restore the lobbies and games it holds.

        Returns the restored games, whose messages the presentation layer then refreshes, and the
        ended games whose ending the channel has not been shown yet (a crash came first).
        """
        self.repository = repository
        tables, running, lobbies = [], [], []
        for record in await repository.open_games():
            try:
                if record.status == "lobby":
                    lobbies.append(record)
                    continue
                if record.status in ("finished", "stopped"):
                    # Its ending was not shown before the restart (or, for a game whose place is gone,
                    # its players not told): restored to be shown, not played.
                    ended = self._restore_table(record, playing=False)
                    ended.stopped = record.status == "stopped"
                    tables.append(ended)
                    continue
                # Held as a guest until this process has its claim (see `_runners`).
                table = self._restore_table(record, guest=True)
                if table.game.is_over:
                    # The last action was stored but the result was not (by an older version):
                    # record it now, so the channel is free again.
                    await self._record_finished(table, table.game)
                    self._finish(table)
                    tables.append(table)
                else:
                    running.append(table)
            except Exception:
                log.exception("could not restore game %s; it is left as it was", record.id)
        # The process of the games' server runs them: taken from the process of their server this one
        # replaces (which lets go at its next beat, if it lives), asked back from one that adopted
        # them meanwhile (which hands them over at its next beat).
        now = time.time()
        ids = [table.id for table in running] + [record.id for record in lobbies]
        claimed = await repository.claim_games(self.runner, ids, now, self._lease(), starting=True)
        for table in running:
            if table.id in claimed:
                # Timers go on from the stored deadline; a computer's turn is played now.
                self._run_here(table)
                tables.append(table)
        for record in lobbies:
            # A lobby another process adopted meanwhile is asked back, and held here once handed over.
            if record.id in claimed:
                try:
                    self._restore_lobby(record)
                except Exception:
                    log.exception("could not restore lobby %s; it is left as it was", record.id)
        log.info(
            "restored %d lobbies and %d games (%d run here)",
            len(self._lobbies),
            len(running),
            len(claimed) - len(self._lobbies),
        )
        await repository.watch_games(self._heard)
        self._spawn(self._beat())
        self._spawn(self._season_beat())
        return tables

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
            end_reason=record.end_reason,
        )
        take_shown(table, record)
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

    async def _record_finished(
        self, table: Table, game: Game, last_action: tuple[int, int, dict[str, Any]] | None = None
    ) -> None:
        """Store the result of `game` and update the players' statistics and ratings."""
        if self.repository is None:
            return
        places = placings(game.scores)
        user_ids = [player.user_id for player in table.players]
        new_ratings = None
        # Games with computer players are recorded, but only games between people change ratings
        # (and count for a season's ranking).
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
        for attempt in range(SEASON_TRIES):
            # The game counts for the season running as it finishes; should that season end before
            # the game is stored (another process, an admin), nothing was, and it counts for the next.
            season = await self._season_entry(table, user_ids, places)
            try:
                await self.repository.record_finished(
                    table.id, table.guild_id, seats, new_ratings, last_action, season, self.clock.now()
                )
                return
            except SeasonOver:
                if attempt == SEASON_TRIES - 1:
                    raise

    async def set_table_message(self, table: Table, message_id: int | None) -> None:
        """Remember the message that shows the table of the current round."""
        table.table_message_id = message_id
        table.table_round = table.game.round
        repository = self._bookkeeping
        if repository is not None:
            await repository.set_table_message(table.id, message_id, table.table_round)

    async def wants_turn_ping(self, user_id: int) -> bool:
        """Whether a person asked for a DM when their move comes (read once, then kept)."""
        known = self._turn_pings.get(user_id)
        if known is None:
            repository = self.repository
            known = repository is not None and bool(await repository.turn_pings([user_id]))
            self._turn_pings[user_id] = known
        return known

    async def set_turn_ping(self, user_id: int, on: bool) -> None:
        """A person's choice of a DM when their move comes, for every game from now on."""
        if self.repository is not None:
            await self.repository.set_turn_ping(user_id, on)
        self._turn_pings[user_id] = on

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

    async def set_ping_message(self, table: Table, user_id: int, ping: tuple[str, int, int] | None) -> None:
        """Remember a player's open turn ping, (the turn it is for, its DM channel, its message), or
        that they have none: a restart then takes down a ping the move it was for has outlived."""
        if ping is None:
            if table.ping_messages.pop(user_id, None) is None:
                return
        else:
            table.ping_messages[user_id] = ping
        seat = table.seat_of(user_id)
        repository = self._bookkeeping
        if repository is not None and seat is not None:
            turn, message_id = (None, None) if ping is None else (ping[0], ping[2])
            await repository.set_ping_message(table.id, seat, message_id, turn)

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
