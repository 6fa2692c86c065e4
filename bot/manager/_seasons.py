"""Seasons: each server's ranked ladder with a beginning and an end, and a season's end as an event.

A server's admins choose a length (`bot.seasons`: monthly, quarterly, or none), or start and end a
season by command. Under a monthly or quarterly length a season always runs: it ends at the next
turnover (midnight UTC on the first of the month or quarter) and the next begins with it; ending
one by command begins the next at once, which runs to the following turnover. Under "none" a season
runs only from a start by command to an end by command. A bot that was down across a turnover ends
the season that was running at that turnover when it is back, and begins the next with the period
in progress: periods it slept through have no season.

A finished game counts for the season that runs when it finishes; only a game with a person in
every seat counts for the season's ranking, rated from each player's last season's rating carried
over (`bot.ratings.carried_over`). The season machinery keeps nothing in memory: what runs, what is
due and what is owed are in the database, where any process finds them, and every change is made
so that two processes making it at once make it once (see the repository's season methods).

An ended season is owed an announcement — its final standings and champion — in the channel its
server picked. Every beat each process looks for the ends still owed on its servers, claims one
under a lease (renewed while it posts, like the runners' claims), and emits `SeasonEnded`; the
presentation layer posts it (with a nonce Discord enforces, so that a post whose answer was lost is
not made twice) and reports the message with `season_announced`. A process that dies meanwhile
leaves its claim to lapse, and the next process to look posts it: once, across restarts and
processes, even if the bot was down when the season ended.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from .. import ratings, seasons
from ..storage import SeasonEntry, SeasonRecord, SeasonSettingsRecord
from ._core import Core
from ._model import GameRefused, Refusal, SeasonEnded, Table

log = logging.getLogger(__name__)

NO_SEASONS = SeasonSettingsRecord("none", None)


class Seasons(Core):
    """A server's seasons: their settings, turning over on the calendar, and their ends announced."""

    _runner_beat: float

    # -- what the admins change ----------------------------------------------------------------

    async def season_settings(self, guild_id: int) -> SeasonSettingsRecord:
        """A server's season length and announcement channel (no seasons, no channel: never set)."""
        assert self.repository is not None
        return await self.repository.season_settings(guild_id) or NO_SEASONS

    async def change_season_settings(
        self, guild_id: int, *, length: str | None = None, channel_id: int | None = None, clear_channel: bool = False
    ) -> tuple[SeasonSettingsRecord, SeasonRecord | None]:
        """Set a server's season length and announcement channel (each as it was unless given), and
        the running season's end by the new length: a monthly or quarterly length with no season
        running begins one now; "none" leaves the running season to run until an admin ends it.
        Returns the settings and the season running now."""
        assert self.repository is not None
        before = await self.season_settings(guild_id)
        channel = None if clear_channel else (channel_id if channel_id is not None else before.channel_id)
        settings = SeasonSettingsRecord(length or before.length, channel)
        seasons.has_calendar(settings.length)  # a length the calendar knows, or ValueError
        await self.repository.save_season_settings(guild_id, settings)
        current = await self.current_season(guild_id)
        now = self.clock.now()
        ends = seasons.next_turnover(settings.length, now) if seasons.has_calendar(settings.length) else None
        if current is None and ends is not None:
            current = await self._begin(guild_id, now, ends)
        elif current is not None and length is not None and current.ends_at != ends:
            await self.repository.set_season_end(guild_id, current.number, ends)
            current = await self.repository.current_season(guild_id)
        if length is not None and length != before.length:
            log.info("server %s: seasons are now %s", guild_id, settings.length)
        return settings, current

    async def start_season(self, guild_id: int) -> SeasonRecord:
        """Begin a new season now; the one running, if any, ends now (and its end is announced)."""
        assert self.repository is not None
        settings = await self.season_settings(guild_id)
        current = await self.current_season(guild_id)
        now = self.clock.now()
        following = (now, self._end_of_one_starting(settings, now))
        if current is not None:
            await self.repository.end_season(guild_id, current.number, now, settings.channel_id, following)
            log.info("server %s: season %d ended by command", guild_id, current.number)
            begun = await self.repository.current_season(guild_id)
            assert begun is not None
            return begun
        return await self._begin(guild_id, *following)

    async def end_season(self, guild_id: int) -> SeasonRecord:
        """End the running season now (its end is announced), and return it. Under a monthly or
        quarterly length the next one begins at once; GameRefused when no season runs."""
        assert self.repository is not None
        settings = await self.season_settings(guild_id)
        current = await self.current_season(guild_id)
        if current is None:
            raise GameRefused(Refusal.NO_SEASON)
        now = self.clock.now()
        ends = self._end_of_one_starting(settings, now)
        following = None if ends is None else (now, ends)
        await self.repository.end_season(guild_id, current.number, now, settings.channel_id, following)
        log.info("server %s: season %d ended by command", guild_id, current.number)
        ended = await self.repository.season(guild_id, current.number)
        assert ended is not None
        return ended

    @staticmethod
    def _end_of_one_starting(settings: SeasonSettingsRecord, now: float) -> float | None:
        return seasons.next_turnover(settings.length, now) if seasons.has_calendar(settings.length) else None

    async def _begin(self, guild_id: int, started_at: float, ends_at: float | None) -> SeasonRecord:
        """Begin the next season of a server (none runs); another process may begin it first."""
        assert self.repository is not None
        last = await self.repository.last_season(guild_id)
        number = (last.number if last is not None else 0) + 1
        if await self.repository.start_season(guild_id, number, started_at, ends_at):
            log.info("server %s: season %d begins", guild_id, number)
        begun = await self.repository.current_season(guild_id)
        assert begun is not None
        return begun

    # -- the season now ---------------------------------------------------------------------

    async def current_season(self, guild_id: int) -> SeasonRecord | None:
        """The season running on a server now, after ending the one whose time is up (and beginning
        the next, by the server's length)."""
        assert self.repository is not None
        now = self.clock.now()
        current = await self.repository.current_season(guild_id)
        while current is not None and current.ends_at is not None and current.ends_at <= now:
            await self._turn_over(current, now)
            current = await self.repository.current_season(guild_id)
        return current

    async def _turn_over(self, season: SeasonRecord, now: float) -> None:
        """End a season whose time is up, at its turnover, and begin the one in progress now."""
        assert self.repository is not None
        assert season.ends_at is not None
        settings = await self.season_settings(season.guild_id)
        following = None
        if seasons.has_calendar(settings.length):
            # The period in progress now: those a bot that was down slept through have no season.
            started = max(seasons.period_start(settings.length, now), season.ends_at)
            following = (started, seasons.next_turnover(settings.length, now))
        if await self.repository.end_season(
            season.guild_id, season.number, season.ends_at, settings.channel_id, following
        ):
            log.info("server %s: season %d ended at its turnover", season.guild_id, season.number)

    async def _season_entry(self, table: Table, user_ids: Sequence[int], places: Sequence[int]) -> SeasonEntry | None:
        """What a game finishing now adds to its server's season: None if no season runs; the
        players' season ratings after it if every seat is a person's (the season's ranking)."""
        assert self.repository is not None
        season = await self.current_season(table.guild_id)
        if season is None:
            return None
        if not all(player.is_person for player in table.players):
            return SeasonEntry(season.number, None)
        found = await self.repository.season_ratings(table.guild_id, season.number, user_ids)
        previous = {
            user: (mu, sigma) if number == season.number else ratings.carried_over((mu, sigma))
            for user, (number, mu, sigma) in found.items()
        }
        return SeasonEntry(season.number, ratings.rate(previous, user_ids, places))

    # -- a season's end as an event -----------------------------------------------------------

    async def _season_beat(self) -> None:
        """Every beat: end the seasons whose time is up, and claim the ends still to announce."""
        while not self._closed:
            try:
                await self._season_duties()
            except Exception:
                log.exception("could not look after the seasons; trying again")
            await asyncio.sleep(self._runner_beat)

    async def _season_duties(self) -> None:
        repository = self.repository
        assert repository is not None
        now = self.clock.now()
        for season in await repository.due_seasons(now):
            await self.current_season(season.guild_id)
        for guild_id, number in await repository.owed_announcements():
            if not repository.restores(guild_id):
                continue  # the process of the server's shard posts it
            # Real time: the claim says how long this process is taken to be alive (see _runners).
            claimed = await repository.claim_announcement(guild_id, number, self.runner, time.time(), self._lease())
            if claimed is not None:
                self._emit(SeasonEnded(claimed))

    async def season_announced(self, season: SeasonRecord, message_id: int) -> None:
        """The end of `season` is announced in `message_id` (0: it never will be: Discord refused)."""
        assert self.repository is not None
        await self.repository.set_announced(season.guild_id, season.number, message_id)
