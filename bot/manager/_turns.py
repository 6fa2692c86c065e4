"""The turns that play themselves: computer players, a person's reminder and timeout, people away,
a game paused while it cannot be shown, a game whose people all left."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from ..engine import Game
from ..storage import StorageConflict
from ._core import Core
from ._model import GameStopped, Table, TurnReminder

if TYPE_CHECKING:
    from ..ai import Player as Brain

log = logging.getLogger(__name__)

# How long a computer move waits, so people can follow it on the table.
COMPUTER_PACE_SECONDS = 1.5
# How long a game whose people are all away waits for one of them before it ends itself, at the
# least: a game with a longer turn timer waits one turn's time (a day at the one-day timer), for
# its players look in only that often.
ABANDON_SECONDS = 10 * 60
# The level that plays for a person whose time ran out or who is away.
STAND_IN_LEVEL = "normal"


class Turns(Core):
    """Each game's timers, set again after every move, and the computer's moves they make."""

    _computer_pace: float
    _abandon_seconds: float

    def _next_deadline(self, table: Table, game: Game, away: set[int]) -> float | None:
        """When the turn now due runs out: None if only the computer plays it or the game is over.

        Under hidden bids everyone bids at once against one deadline, kept until all are in. While
        every person is away, the deadline is when the game ends itself (see `_schedule`).
        """
        if not game.is_over and _everyone_away(table, away):
            return self.clock.now() + self._silence(table)
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
        return self.clock.now() + table.turn_timer

    def _silence(self, table: Table) -> float:
        """How long a game whose people are all away waits for one of them."""
        return max(self._abandon_seconds, table.turn_timer)

    def _schedule(self, table: Table) -> None:
        """Set the timers of the turn in progress: a computer's move, or a person's reminder and timeout.

        Usually one seat is due; under hidden bids every seat still to bid is. Deadlines are moments
        on the game clock, so a timer set again after a restart goes off when the stored one says.

        A game whose people are all away makes no move at all: nobody would see the computer play
        it out, and a result nobody played would count. It waits for one of them (I'm back, or a
        move) until its deadline, then ends itself without a result (`_abandon`).
        """
        self._cancel_timers(table)
        if table.guest:
            return  # the process of the game's server runs its timers
        game = table.game
        if table.stopped or game.is_over or table.paused_for:
            return
        clock = self.clock
        if _everyone_away(table, table.away):
            if table.turn_deadline is None:  # stored by a version that kept no such deadline
                table.turn_deadline = clock.now() + self._silence(table)
            table._timers.append(clock.call_at(table.turn_deadline, self._fire, self._abandon, table))
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
                table.turn_deadline = clock.now() + table.turn_timer
            deadline = table.turn_deadline
            half = table.turn_timer / 2
            for seat in people:
                if deadline - clock.now() > half:
                    table._timers.append(clock.call_at(deadline - half, self._remind, table, key, seat, half))
                table._timers.append(clock.call_at(deadline, self._fire, self._auto_move, table, key, seat, "timeout"))

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
        from .. import ai

        level = table.players[seat].computer or STAND_IN_LEVEL
        brain = table._brains.get((seat, level))
        if brain is None:
            brain = table._brains[(seat, level)] = ai.make_player(level, table.game.seed * 8 + seat)
        return brain

    async def _abandon(self, table: Table) -> None:
        """End a game whose people have all been away too long."""
        async with table.lock:
            if table.stopped or table.game.is_over or table.guest or not _everyone_away(table, table.away):
                return
            if self.repository is not None:
                await self.repository.stop_game(table.id, "abandoned")
            table.stopped, table.end_reason = True, "abandoned"
            self._finish(table)
        log.info("game %s ended itself: everyone was away", table.id)
        self._emit(GameStopped(table, None, "abandoned"))

    def pause(self, game_id: str, reasons: tuple[str, ...]) -> None:
        """Hold a game that cannot be shown (`reasons` say why): no move is accepted and no timer
        runs, so nobody's time runs out and no computer plays unseen, until `resume`."""
        table = self._tables.get(game_id)
        if table is None or table.guest or table.stopped or not reasons:
            return
        if not table.paused_for:
            log.info("game %s paused: %s", table.id, ", ".join(reasons))
        table.paused_for = reasons
        self._cancel_timers(table)

    async def resume(self, game_id: str) -> None:
        """Go on with a paused game; whoever is to move gets a full turn's time, for they could not
        see the table while it waited."""
        table = self._tables.get(game_id)
        if table is None or table.guest:
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


def _everyone_away(table: Table, away: set[int]) -> bool:
    """Whether every person at the table is away (the computer would be keeping every seat)."""
    people = [player.user_id for player in table.players if player.is_person]
    return bool(people) and all(user in away for user in people)
