"""Running games: moves, one at a time per game under its lock, each stored before it counts; a copy
that another process moved on catches up from the database; a game stopped early or finished."""

from __future__ import annotations

import logging
import time

from ..engine import Action, Applied, RuleError, action_from_json, action_to_json
from ..storage import GameRecord, StorageConflict
from ._core import Core
from ._model import (
    CATCH_UP_REFUSALS,
    PLACE_GONE,
    ActionApplied,
    GameRefused,
    GameStopped,
    Player,
    PresenceChanged,
    Refusal,
    Table,
    take_shown,
)

log = logging.getLogger(__name__)

# Turns in a row that may run out of time before the computer keeps the seat.
MISSES_BEFORE_AWAY = 2


class Games(Core):
    """A person's move, their return from away, a game stopped; catching up with other processes."""

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
        table.end_reason = record.end_reason
        if table.guest:
            # Which messages show the game now (each player's DM hand among them): the owner sends
            # and records them.
            take_shown(table, record)
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
                deadline = self.clock.now() + table.turn_timer  # their turn now: a full turn's time
            elif all(player.user_id in table.away for player in table.players if player.is_person):
                # Everyone was away: the deadline was when the game would end itself; the turn due
                # now is an away seat's, which the computer plays, and sets the next deadline.
                deadline = None
            if self.repository is not None:
                await self.repository.set_presence(table.id, seat, 0, False)
                await self.repository.set_turn_deadline(table.id, deadline)
            table.away.discard(user_id)
            table.missed[user_id] = 0
            table.turn_deadline = deadline
            self._emit(PresenceChanged(table, seat, False))
            self._schedule(table)
        return table

    async def stop(self, game_id: str, user_id: int, *, is_moderator: bool, name: str | None = None) -> Table:
        """End a game early: its host, or a member who may manage the server (`name`, for the table)."""
        table = self.table(game_id)
        async with table.lock:
            if table.stopped or table.game.is_over:
                raise GameRefused(Refusal.NO_GAME)
            if user_id != table.host_id and not is_moderator:
                raise GameRefused(Refusal.NOT_ALLOWED)
            if self.repository is not None:
                await self.repository.stop_game(table.id, "stopped")
            table.stopped, table.end_reason = True, "stopped"
            self._finish(table)
        log.info("game %s stopped by %s", table.id, user_id)
        self._emit(GameStopped(table, Player(user_id, name or str(user_id))))
        return table

    def _finish(self, table: Table) -> None:
        self._cancel_timers(table)
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        log.info("game %s finished; scores %s", table.id, table.game.scores)

    async def find_table(self, game_id: str) -> Table:
        """The running game `game_id`: held here, or loaded from the database as a guest (see
        `Table.guest`) when another process runs its server; GameRefused if there is none."""
        table = self._tables.get(game_id)
        if table is not None or self.repository is None:
            return self.table(game_id)
        record = await self.repository.load_game(game_id)
        if record is not None and record.status == "stopped" and record.end_reason in PLACE_GONE:
            # Said as it is: the game did not just end, its channel or server went with it.
            raise GameRefused(Refusal(record.end_reason))
        if record is None or record.status != "running":
            return self.table(game_id)
        table = self._tables.get(game_id)  # loaded meanwhile, by another click
        if table is None:
            table = self._restore_table(record, guest=True)
            # A game of this process's servers started by another process: run it here, unless
            # another process of its server runs it (an adopter is asked to hand it over).
            now = time.time()
            if self.repository.restores(record.guild_id) and table.id in await self.repository.claim_games(
                self.runner, [table.id], now, self._lease()
            ):
                self._run_here(table)
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
