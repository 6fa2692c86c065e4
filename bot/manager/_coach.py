"""The coach: a person's private review of a finished game, worked out once, off the event loop."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from ..engine import Options, action_from_json
from ..storage import GameRecord
from ._core import Core
from ._model import GameRefused, Refusal

if TYPE_CHECKING:
    from ..review import Review

log = logging.getLogger(__name__)


class Coach(Core):
    """Reviews, one worked out at a time; clicks that come meanwhile wait for the same one."""

    _reviews: dict[tuple[str, int], asyncio.Future[Review]]  # being worked out, by (game, seat)
    _reviewing: asyncio.Lock

    async def review(self, user_id: int, guild_id: int, game_id: str | None = None) -> Review:
        """A person's review of a finished game (`game_id`, else their last on the server), for their
        eyes only. The first time it is worked out in a thread, off the event loop, and stored."""
        repository = self.repository
        if repository is None:
            raise GameRefused(Refusal.REVIEW_MISSING)
        if game_id is None:
            game_id = await repository.last_finished_game(guild_id, user_id)
            if game_id is None:
                raise GameRefused(Refusal.NO_FINISHED_GAME)
        record, seat, stored = await self._reviewed(user_id, game_id)
        if stored is not None:
            return stored
        key = (record.id, seat)
        pending = self._reviews.get(key)
        if pending is None:
            # Clicks that come while it is being worked out wait for the same review.
            pending = self._reviews[key] = asyncio.ensure_future(self._work_out_review(record, seat))
            pending.add_done_callback(lambda _: self._reviews.pop(key, None))
        return await asyncio.shield(pending)

    async def stored_review(self, user_id: int, game_id: str) -> Review | None:
        """A person's review of a finished game if it is stored (then it opens in milliseconds), else
        None; refused like `review` when there is none for them."""
        _, _, stored = await self._reviewed(user_id, game_id)
        return stored

    async def _reviewed(self, user_id: int, game_id: str) -> tuple[GameRecord, int, Review | None]:
        """The finished game, the person's seat in it, and their stored review (None if there is none
        of this form)."""
        from ..review import Review

        repository = self.repository
        if repository is None:
            raise GameRefused(Refusal.REVIEW_MISSING)
        record = await repository.load_game(game_id)
        if record is None:
            raise GameRefused(Refusal.RECORD_GONE)
        if record.status != "finished" or record.seed is None:
            raise GameRefused(Refusal.REVIEW_MISSING)
        seat = next((s.seat for s in record.seats if s.user_id == user_id and s.computer is None), None)
        if seat is None:
            raise GameRefused(Refusal.NOT_A_PLAYER)
        stored = await repository.review(record.id, seat)
        if stored is None:
            return record, seat, None
        try:
            return record, seat, Review.from_json(stored)
        except ValueError:
            log.info("game %s: the stored review of seat %d is of another form; worked out again", record.id, seat)
            return record, seat, None

    async def _work_out_review(self, record: GameRecord, seat: int) -> Review:
        from ..review import Review, review_game

        assert record.seed is not None
        assert self.repository is not None
        actions = [(by, action_from_json(action)) for by, action in record.actions]
        options = Options.from_json(record.options)
        # One at a time, and each stored before the next starts: the next reads the hands it valued.
        async with self._reviewing:
            valued = await self._valued_hands(record, seat)
            started = time.perf_counter()
            review = await asyncio.to_thread(
                review_game, record.id, len(record.seats), record.seed, options, actions, seat, valued=valued
            )
            log.info("game %s: review of seat %d worked out in %.1f s", record.id, seat, time.perf_counter() - started)
            stored = review.to_json()
            await self.repository.save_review(record.id, seat, stored)
        # Shown as stored (its figures rounded), so the first opening reads as every later one:
        # "0.15" kept for an expected 0.1549 tricks shows "0.1" later, not "0.2" now.
        return Review.from_json(stored)

    async def _valued_hands(self, record: GameRecord, seat: int) -> dict[tuple[int, int], float]:
        """What the game's other stored reviews say every hand was worth, by (round place, seat):
        the first review of a game values every seat's hands, the later ones need not again."""
        from ..review import Review

        assert self.repository is not None
        valued: dict[tuple[int, int], float] = {}
        for other in record.seats:
            stored = await self.repository.review(record.id, other.seat) if other.seat != seat else None
            if stored is None:
                continue
            try:
                review = Review.from_json(stored)
            except ValueError:
                continue  # of another form: its values may not be the search's of today
            for game_round in review.rounds:
                valued.update(((game_round.round, s), worth) for s, worth in enumerate(game_round.worth))
        return valued
