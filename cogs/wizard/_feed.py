"""One game's feed: its display jobs, worked in order by one task.

Jobs render the game as it is when they run, and a table or hand job already waiting is not
queued twice, so a burst of moves costs one edit. The feed waits, with the game paused, while the
channel lacks a permission it needs, and tries again what Discord failed for the moment.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import aiohttp
import discord

from bot.budget import Priority, priority
from bot.engine import Phase, RoundResult, TrickResult, rules
from bot.i18n import t
from bot.manager import PLACE_GONE, SERVER_GONE, Player, Table

from . import _chart, _end, _hand, _look, _permissions, _places, _private, _table
from ._faces import Faces
from ._look import Look

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)


class Presenting(Protocol):
    """What a feed asks of the presenter that owns it."""

    bot: WizardBot
    faces: Faces
    dm_hands: _private.PrivateHands
    private_hands: _private.PrivateHands
    locked_threads: dict[int, int | None]  # see `_places.holds`

    def public_locale(self, guild_id: int) -> str | None: ...

    def user_locale(self, user_id: int, guild_id: int) -> str | None: ...

    def lacking(self, table: Table) -> tuple[str, ...] | None: ...

    async def show_lobby_link(self, table: Table) -> None: ...

    def forget(self, game_id: str, feed: Feed | None = None) -> None: ...


CLOSED_DMS = 50007  # Discord's "Cannot send messages to this user"
# Discord's answers to a request the bot's channel permissions do not allow: "Missing Access" (no
# View Channel) and "Missing Permissions".
NO_ACCESS = (50001, 50013)


@dataclass(frozen=True, slots=True)
class RefreshTable:
    pass


@dataclass(frozen=True, slots=True)
class RefreshHands:
    """Bring these seats' hands up to date: the DM of the round and every copy from My hand.

    Every hand shows the trick, the bids and whose move it is (`_hand`), so after a move every
    seat's hands are looked at; one that would not change is not edited.
    """

    seats: frozenset[int]


@dataclass(frozen=True, slots=True)
class RetireCopies:
    """Retire the copies from My hand whose tokens run out now (see `_private`), and those of
    `messages` (pushed out by newer copies)."""

    messages: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundEnd:
    result: RoundResult
    last_trick: TrickResult


@dataclass(frozen=True, slots=True)
class NewRound:
    """Show the current round: its table and every player's hand, each posted where it is not
    yet shown (a new round, a restart, a retry after a refused request) and else brought up to date."""


@dataclass(frozen=True, slots=True)
class DealHands:
    """Send the hands of round `round` still owed after a failed DM, the `attempt`-th time."""

    round: int
    attempt: int


@dataclass(frozen=True, slots=True)
class Remind:
    seat: int
    left: float


@dataclass(frozen=True, slots=True)
class Final:
    pass


@dataclass(frozen=True, slots=True)
class Stopped:
    by: Player | None
    reason: str = "stopped"


# What `hand_shown` holds for a hand message whose buttons are already off (its round is over).
RETIRED = object()

Job = RefreshTable | RefreshHands | RetireCopies | RoundEnd | NewRound | DealHands | Remind | Final | Stopped
# A DM that failed for a passing reason (discord.py has already retried 5xx and dropped connections)
# is sent again after 1, 2, 4 … seconds, this many times; the player also has My hand meanwhile.
DM_RETRIES = 6
# Failures that pass: Discord's 5xx, a dropped connection, a timeout. A table, score pad or standings
# that meet one are shown again after 1, 2, 4 … seconds, at most this many apart, until they are.
TRANSIENT = (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError)
RETRY_CAP = 60.0
EVERYONE = frozenset(range(rules.MAX_PLAYERS))  # every seat of any game


class Feed:
    """The display jobs of one game, worked in order by one task."""

    def __init__(self, presenter: Presenting, table: Table) -> None:
        self.presenter = presenter
        self.bot = presenter.bot
        self.table = table
        self.jobs: deque[Job] = deque()
        self.wake = asyncio.Event()
        self.drained = asyncio.Event()
        self.drained.set()
        # What each player's DM hand message shows now, so unchanged hands are not edited.
        self.hand_shown: dict[int, object] = {}
        self._pinging: asyncio.Task[None] | None = None  # the pings being sent or taken down now
        self._turns_owed: set[int] = set()  # seats whose turn edit waits for room in the budget
        self._turns_paid: set[int] = set()  # seats whose turn edit the budget has paid for, not yet sent
        self._locale: str | None = None
        self._logged: set[tuple[str, int]] = set()
        # The permissions the bot lacks in the game's channel while the feed waits for them; the
        # job that needs them stays first in the queue (see `_work`).
        self.blocked: tuple[str, ...] = ()
        # Set when an interaction showed the cache wrong (a role given to the bot arrives as a member
        # update, which the bot's intents do not bring): until the next channel or role update, the
        # feed asks Discord instead of its cache, and a refusal makes it wait again.
        self.cache_stale = False
        self._failures = 0  # transient failures in a row, for the pause before the next try
        self.running: Job | None = None  # the job being shown now, for `Presenter.backlog`
        self.task = asyncio.get_running_loop().create_task(self._work(), name=f"wizard-feed-{table.id}")

    def cancel(self) -> None:
        """Stop the feed's work and its pings (the cog is unloading)."""
        self.task.cancel()
        if self._pinging is not None:
            self._pinging.cancel()

    def push(self, job: Job, *, first: bool = False) -> None:
        """Queue `job`; `first`: before the others (a turn edit the budget has paid for is spent at
        once: the budget counted it as sent now)."""
        if isinstance(job, Stopped) and self.blocked:
            # Stopped while it waited for permissions: of what it waited to show, only the closed
            # table is still owed, once the channel lets the bot show it.
            self.jobs.clear()
        # A table or hands job still waiting will show the game as it is when it runs: add to it.
        for index, waiting in enumerate(self.jobs if not first else ()):
            if isinstance(job, RefreshTable) and isinstance(waiting, RefreshTable):
                return
            if isinstance(job, RefreshHands) and isinstance(waiting, RefreshHands):
                self.jobs[index] = RefreshHands(waiting.seats | job.seats)
                return
        if first:
            self.jobs.appendleft(job)
        else:
            self.jobs.append(job)
        self.drained.clear()
        self.wake.set()

    async def _work(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.jobs and not self.blocked:
                if self.table.guest:
                    # Another process runs the game now, and shows it from what the channel shows
                    # (bot/manager/_runners.py): what was still to be shown here is not this one's.
                    self.jobs.clear()
                    self.drained.set()
                    self.presenter.forget(self.table.id, self)
                    return
                # Taken off the queue before it runs: a job pushed meanwhile must not be merged into
                # this one, which may already have drawn the game as it was.
                job = self.running = self.jobs.popleft()
                try:
                    if self.bot.get_guild(self.table.guild_id) is None and not self.bot.is_ready():
                        # Restored at start-up: the cache knows the channel's permissions once the
                        # server has arrived from the gateway.
                        await self.bot.wait_until_ready()
                    if await self._place_gone_before():
                        continue  # its server is gone: the game has ended, and its end is queued
                    lacking = () if self.cache_stale else self._lacking()
                    if _permissions.blocking(lacking):
                        # Asking anyway would only earn a 403 (and Discord bans a bot that keeps
                        # making refused requests): wait until the permission is back.
                        self._block(lacking, job)
                        break
                    await self._do(job)
                    self._failures = 0
                except TRANSIENT as error:
                    # Discord or the network failed for now (discord.py already retried what it
                    # retries): the job goes again after a pause, first in the queue. Jobs are
                    # written to be run again: what they post carries a nonce or is checked first.
                    self._retry(job, error)
                    break
                except discord.HTTPException as error:
                    place = await self._place_refused(job, error)
                    if place is _places.Outcome.HOLD:
                        break
                    if place is None and isinstance(error, discord.Forbidden) and error.code in NO_ACCESS:
                        # The cache did not know yet: the job waits like any other.
                        self._block(self._lacking() or _permissions.needed(thread=False), job)
                        break
                    if place is None:
                        self._log_once(type(job).__name__, error)
                except Exception:
                    log.exception("game %s: showing %s failed", self.table.id, type(job).__name__)
                finally:
                    self.running = None
                if isinstance(job, (Final, Stopped)):
                    self.drained.set()
                    self.presenter.forget(self.table.id)
                    return
            if self.blocked:
                await self._show_privately()
            self.drained.set()

    async def _show_privately(self) -> None:
        """While the channel's jobs wait, run those that show the game only in the players' own
        hands: they need nothing of the channel, and a hand stays true to the game (a click on it
        is told why the game waits)."""
        private = [job for job in self.jobs if isinstance(job, RefreshHands | RetireCopies)]
        for job in private:
            self.jobs.remove(job)
        try:
            if any(isinstance(job, NewRound | DealHands) for job in self.jobs) and not self.table.game.is_over:
                # The round's hands are dealt by DM meanwhile (the table, and the channel's word on
                # closed DMs, wait for the channel).
                await self._deal_hands(in_channel=False)
            for job in private:
                await self._do(job)
        except (*TRANSIENT, discord.HTTPException) as error:
            log.info("game %s: showing the hands while the channel waits failed (%r)", self.table.id, error)

    async def _place_gone_before(self) -> bool:
        """Before a job: True if the game's server is gone by the cache (the bot was removed while it was
        away, say), in which case the game is ended now, with no request made there; its end is queued."""
        table = self.table
        if table.stopped or table.game.is_over or not _places.server_gone(self.bot, table.guild_id):
            return False
        return await self.bot.manager.end_game(table.id, SERVER_GONE)

    async def _place_refused(self, job: Job, error: discord.HTTPException) -> _places.Outcome | None:
        """Deal with a job Discord refused for the game's place; None if the refusal is not about it."""
        table = self.table
        gone = _places.gone_by_refusal(self.bot, table, error)
        if gone is not None:
            log.info("game %s: Discord says its place is gone (%s %s): %s", table.id, error.status, error.code, gone)
            if not table.stopped and not table.game.is_over:
                await self.bot.manager.end_game(table.id, gone)
            else:
                # An ending still owed to a place that is gone: it can never be shown there.
                await self.bot.manager.set_final_message(table, 0)
            return _places.Outcome.DROP
        if error.code == _places.THREAD_LOCKED and _places.refused_there(error, table.channel_id):
            # Locked while the bot did not hear of it: wait as for a permission, until it is unlocked.
            self.presenter.locked_threads.setdefault(table.channel_id, None)
            self._block((_places.LOCKED,), job)
            return _places.Outcome.HOLD
        return None

    async def _retire_replaced_table(self, message_id: int, error: discord.HTTPException) -> None:
        """Take the buttons off the table message that the one just posted replaces, if it still exists
        (a table posted again in an unarchived thread: one live table, the newest)."""
        if error.code != _places.THREAD_ARCHIVED:
            return  # deleted
        try:
            # A V2 message is its components: it keeps the table as it was, without the buttons.
            await self.channel.get_partial_message(message_id).edit(
                view=_table.table_view(self.table, self.look, buttons=False)
            )
        except discord.HTTPException as failed:
            self._log_once("retire table", failed)

    async def _tell_players_the_place_is_gone(self, reason: str) -> None:
        """Tell each person of a game whose place is gone, by DM where DMs allow, once: each DM carries a
        nonce Discord enforces, so a retry (or a restart before it was noted) does not send it twice."""
        table, bot = self.table, self.bot
        for player in table.players:
            if not player.is_person or player.user_id in table.dm_closed:
                continue
            embed = _places.gone_embed(table, reason, self.presenter.user_locale(player.user_id, table.guild_id))
            where = table.hand_messages.get(player.user_id)
            try:
                if where is not None:
                    dm: discord.abc.Messageable = bot.get_partial_messageable(
                        where[0], type=discord.ChannelType.private
                    )
                else:
                    dm = await bot.create_dm(discord.Object(player.user_id))
                await dm.send(embed=embed, nonce=self._nonce("gone"))
            except discord.DiscordServerError:
                raise  # Discord failed for now: the feed tries the whole job again (the nonce keeps it once)
            except discord.HTTPException as error:
                if error.code != _places.CLOSED_DMS:  # closed, or no server shared with the bot any more: not told
                    self._log_once("the end", error)
        await bot.manager.set_final_message(table, 0)  # told: nothing is owed to anyone any more

    def _retry(self, job: Job, error: BaseException) -> None:
        """Run `job` again after 1, 2, 4 … 60 seconds (the game goes on meanwhile)."""
        self.jobs.appendleft(job)
        delay = min(RETRY_CAP, 2.0**self._failures)
        self._failures += 1
        log.warning(
            "game %s: showing %s failed (%r); trying again in %.0f s", self.table.id, type(job).__name__, error, delay
        )
        asyncio.get_running_loop().call_later(delay, self.wake.set)

    def _lacking(self) -> tuple[str, ...]:
        """What keeps the game from being shown by the bot's cache: its place (`_places.holds`), or a
        permission the bot lacks in its channel (nothing, if the cache cannot tell)."""
        return self.presenter.lacking(self.table) or ()

    def _block(self, lacking: tuple[str, ...], job: Job) -> None:
        """Stop showing the game, and hold it, until the channel lets the bot post again; `job`
        waits first in the queue (the jobs are written to be run again: see `NewRound`)."""
        self.jobs.appendleft(job)
        if not self.blocked:
            log.warning(
                "game %s: waiting for permissions in channel %s: %s",
                self.table.id,
                self.table.channel_id,
                ", ".join(lacking),
            )
        self._hold(lacking)

    def _hold(self, lacking: tuple[str, ...]) -> None:
        """Wait for `lacking`, and keep the game paused meanwhile."""
        self.blocked = lacking
        self.bot.manager.pause(self.table.id, lacking)

    async def unblock(self, lacking: tuple[str, ...], *, from_interaction: bool = False) -> bool:
        """The bot's permissions in the channel are now `lacking` short: go on if that is enough.

        `from_interaction`: they come from Discord with an interaction, not from the cache.
        True if the game runs (or never waited).
        """
        if not self.blocked:
            return True
        if _permissions.blocking(lacking):
            self._hold(lacking)
            return False
        log.info("game %s: the permissions are back; going on", self.table.id)
        self.cache_stale = from_interaction and bool(_permissions.blocking(self._lacking()))
        self.blocked = ()
        await self.bot.manager.resume(self.table.id)
        self.drained.clear()
        self.wake.set()
        return True

    def _log_once(self, what: str, error: discord.HTTPException) -> None:
        """Log each kind of Discord failure once per game: the game goes on regardless."""
        key = (what, error.status)
        if key not in self._logged:
            self._logged.add(key)
            log.warning(
                "game %s: Discord refused %s (%s %s): %s", self.table.id, what, error.status, error.code, error.text
            )

    # -- the jobs ------------------------------------------------------------------------

    @property
    def locale(self) -> str | None:
        """The channel's language, fixed by the game's first message: a change in /wizard settings
        is for new games, never for running ones. (Unknown until the server is in the cache, which
        right after a restart it may not be yet.)"""
        if self._locale is None:
            self._locale = self.presenter.public_locale(self.table.guild_id)
        return self._locale

    @property
    def look(self) -> Look:
        """How the channel reads the game."""
        return Look(self.locale, self.presenter.faces)

    def look_of(self, player: Player) -> Look:
        """How a player reads their own hand."""
        return Look(self.presenter.user_locale(player.user_id, self.table.guild_id), self.presenter.faces)

    @property
    def channel(self) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(self.table.channel_id, guild_id=self.table.guild_id)

    async def _do(self, job: Job) -> None:
        if isinstance(job, NewRound):
            await self._show_round()
        elif isinstance(job, DealHands):
            if job.round == self.table.game.round and not self.table.game.is_over:
                await self._deal_hands(job.attempt)
        elif isinstance(job, Remind):
            await self._remind(job.seat, job.left)
        elif isinstance(job, RefreshTable):
            # A table job that waited (for the budget, say) while the round ended must not draw the new
            # round into the old round's message: the round's end closes that one and posts the next.
            if self.table.table_round == self.table.game.round:
                await self._edit_table()
        elif isinstance(job, RefreshHands):
            await self._refresh_hands(job.seats)
            self.ping_soon()
        elif isinstance(job, RetireCopies):
            # A second early: the timer that pushed this job and the token's clock need not agree to the millisecond.
            await self._retire_copies(lambda c: c.expires_within(1.0) or c.message_id in job.messages, retired=True)
        elif isinstance(job, RoundEnd):
            await self._end_round(job.result, job.last_trick)
        elif isinstance(job, Final):
            await self._final()
        elif isinstance(job, Stopped):
            await self._stop(job.by, job.reason)

    async def _final(self) -> None:
        """The final standings, with the chart of the totals and the record and rematch buttons.

        Sent with a nonce Discord enforces: a retry after a crash or a dropped answer returns the
        message already posted instead of posting it twice.
        """
        table = self.table
        await self._owed_pads()
        names = [_look.plain_name(player, self.locale) for player in table.players]
        # Drawing takes a tenth of a second or more: not on the event loop.
        view = _end.final_view(table, self.locale)
        if "attach_files" not in self._lacking():
            png = await asyncio.to_thread(
                _chart.totals_chart, names, table.game.history, table.game.round_numbers, self.locale
            )
            embed = _end.final_embed(table, self.locale)
            embed.set_image(url="attachment://totals.png")
            try:
                message = await self.channel.send(
                    embed=embed, file=discord.File(io.BytesIO(png), "totals.png"), view=view, nonce=self._nonce("end")
                )
                await self.bot.manager.set_final_message(table, message.id)
                return
            except discord.Forbidden as error:
                if error.code != 50013:
                    raise
                # Attach Files was taken away and the cache did not know yet: the standings without it.
        # The standings matter more than the chart: without Attach Files they come without it, saying why.
        embed = _end.final_embed(table, self.locale)
        embed.add_field(
            name=t(self.locale, "final.chart"),
            value=t(self.locale, "final.no_chart", permissions=_permissions.names(self.locale, ("attach_files",))),
            inline=False,
        )
        message = await self.channel.send(embed=embed, view=view, nonce=self._nonce("end"))
        await self.bot.manager.set_final_message(table, message.id)

    def _nonce(self, what: str) -> str:
        """The nonce of a message this game posts once: the same whenever it is sent again (at most
        25 characters, as Discord allows)."""
        return f"w{self.table.id}{what}"[:25]

    async def _owed_pads(self, last: TrickResult | None = None) -> None:
        """Show the score pads of the rounds played that the channel has not shown yet, in order
        (normally the round just over, whose last trick is `last`; after a crash or a refused
        request, those it cut off). A round's pad goes into its table message, which it closes; a
        round whose table this process no longer knows gets its pad as a message of its own."""
        table = self.table
        for position in range(table.pads_shown + 1, len(table.game.history) + 1):
            result = table.game.history[position - 1]
            if table.table_round == result.round and table.table_message_id is not None:
                ended = last if position == len(table.game.history) else None
                await self._edit_table(_table.round_over_view(table, result, ended, self.look))
            else:
                embed = _end.summary_embed(table, result, self.locale)
                await self.channel.send(embed=embed, nonce=self._nonce(f"p{position}"))
            await self.bot.manager.set_pads_shown(table, position)

    async def _remind(self, seat: int, left: float) -> None:
        """Mention the player to move in the channel: edits of the table do not notify anyone."""
        player = self.table.players[seat]
        if self.table.game.to_move != seat or not player.is_person:
            return
        # The time as Discord's relative timestamp: every reader's client writes it in their own
        # language and words ("in 2 minutes"), and keeps it counting down.
        deadline = self.table.turn_deadline or time.time() + left
        text = _table.reminder_text(self.look, player.user_id, deadline)
        mention = discord.AllowedMentions(users=[discord.Object(player.user_id)])
        # One reminder a turn (a turn is the number of moves made so far), even if sent again.
        await self.channel.send(text, allowed_mentions=mention, nonce=self._nonce(f"r{len(self.table.game.log)}"))

    async def _show_round(self) -> None:
        """The current round's table and hands, in new messages where they are not shown yet."""
        table = self.table
        await self._owed_pads()
        if table.table_round == table.game.round:
            await self._edit_table()
        else:
            await self._post_table()
        await self._deal_hands()

    async def _post_table(self) -> None:
        """The round's table, once: a post whose answer was lost, sent again, returns the same message."""
        message = await self.channel.send(
            view=_table.table_view(self.table, self.look), nonce=self._nonce(f"t{self.table.game.round_position}")
        )
        await self.bot.manager.set_table_message(self.table, message.id)
        await self.presenter.show_lobby_link(self.table)

    async def _edit_table(self, view: discord.ui.LayoutView | None = None) -> None:
        """Edit the table message (to `view`, else the live table); post a new one if it was deleted."""
        message_id = self.table.table_message_id
        if message_id is None:
            return
        view = view or _table.table_view(self.table, self.look)
        try:
            # A table of an older version of the bot is an embed: content and embeds are emptied
            # as the message becomes a V2 one (Discord requires it).
            await self.channel.get_partial_message(message_id).edit(content=None, embed=None, view=view)
        except discord.HTTPException as error:
            if not _places.repost_instead(error):
                raise
            log.info("game %s: the table cannot be edited (%s); posting it again", self.table.id, error.code)
            message = await self.channel.send(view=view)
            await self.bot.manager.set_table_message(self.table, message.id)
            await self._retire_replaced_table(message_id, error)

    async def _deal_hands(self, attempt: int = 0, *, in_channel: bool = True) -> None:
        """Send each player without this round's hand a new DM (and bring the others' up to date);
        name in the channel those whose DMs are closed (not `in_channel`: later, by the job that waits).

        Each player's DM is apart from the others': one that fails is sent again later, the others
        go out now.
        """
        table = self.table
        old = dict(table.hand_messages)
        dealt = frozenset(
            seat
            for seat, player in enumerate(table.players)
            if player.user_id in old and old[player.user_id][2] == table.game.round
        )
        closed: list[Player] = []
        failed = False
        for seat, player in enumerate(table.players):
            if not player.is_person or player.user_id in table.dm_closed or seat in dealt:
                continue
            if player.user_id in old and self.hand_shown.get(player.user_id) is not RETIRED:
                await self._retire_hand(player, old[player.user_id])
                self.hand_shown[player.user_id] = RETIRED
            ping = await self.bot.manager.wants_turn_ping(player.user_id)
            view = _hand.hand_view(table, table.game.observation(seat), self.look_of(player), in_dm=True, ping=ping)
            try:
                # Last round's DM channel if there was one: no user lookup or channel creation per round.
                with priority(Priority.HAND):
                    if player.user_id in old:
                        dm: discord.abc.Messageable = self.bot.get_partial_messageable(
                            old[player.user_id][0], type=discord.ChannelType.private
                        )
                    else:
                        dm = await self.bot.create_dm(discord.Object(player.user_id))
                    nonce = self._nonce(f"h{table.game.round_position}")
                    sent_at = discord.utils.utcnow()
                    message = await dm.send(view=view, nonce=nonce)
            except discord.Forbidden as error:
                if error.code == CLOSED_DMS:
                    closed.append(player)
                    continue
                self._log_once("hand", error)
                failed = True
                continue
            except (discord.HTTPException, *TRANSIENT) as error:
                log.warning("game %s: the hand of %s could not be sent (%r)", table.id, player.user_id, error)
                failed = True
                continue
            await self.bot.manager.set_hand_message(table, player.user_id, message.channel.id, message.id)
            if attempt or not _made_now(message, sent_at) or not _shows(message, view):
                # Discord answered with the message an earlier try made (the nonce: a retry, or a
                # post whose answer a crash cut off), as it was then or as a click has changed it
                # since: it is drawn afresh below.
                self.hand_shown.pop(player.user_id, None)
                dealt |= {seat}
            else:
                self.hand_shown[player.user_id] = _hand.fingerprint(view)
        if failed and attempt < DM_RETRIES:
            job = DealHands(table.game.round, attempt + 1)
            asyncio.get_running_loop().call_later(2**attempt, self.push, job)
        # The hands already dealt (a restart, a retry), and the copies from My hand, show this moment.
        await self._refresh_hands(EVERYONE)
        self.ping_soon()
        if closed and in_channel:
            # Said in the channel before it is stored: if the post fails or the bot dies between the
            # two, the job runs again, meets the closed DMs again and says it again, and the nonce
            # (the seats: each player is told once a game, so not the round, which may have moved
            # on by the time a retry runs) keeps Discord from showing it twice.
            seats = "".join(str(table.seat_of(player.user_id)) for player in closed)
            await self.channel.send(
                _table.dm_closed_text(closed, self.look),
                allowed_mentions=discord.AllowedMentions(users=True),
                nonce=self._nonce(f"ds{seats}"),
            )
            for player in closed:
                await self.bot.manager.mark_dm_closed(table, player.user_id)

    def _dm_copy(self, player: Player, message_id: int) -> _private.Copy | None:
        """The token that can still edit this DM hand message: its player's latest click on it."""
        clicked = self.presenter.dm_hands.of(self.table.id, player.user_id)
        return next((c for c in clicked if c.message_id == message_id and c.valid), None)

    async def _retire_hand(self, player: Player, where: tuple[int, int, int]) -> None:
        """Put a finished round's hand message in its closed form: the same the last card's click
        gives it, so that each hand ends alike whichever edit lands last."""
        channel_id, message_id, round_number = where
        view = _hand.hand_over_view(self.table, round_number, self.look_of(player), self.table.seat_of(player.user_id))
        copy = self._dm_copy(player, message_id)
        if copy is not None and await copy.edit(view=view):
            return  # through the click's token: outside the budget
        dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            with priority(Priority.HAND):
                await dm.get_partial_message(message_id).edit(content=None, embed=None, view=view)
        except discord.HTTPException as error:
            self._log_once("retire hand", error)

    async def _refresh_hands(self, seats: frozenset[int] = EVERYONE) -> None:
        table = self.table
        # The copies from My hand first, all at once: through their tokens, outside the budget.
        await asyncio.gather(
            *(
                self._refresh_copies(seat, player)
                for seat, player in enumerate(table.players)
                if seat in seats and player.is_person
            )
        )
        # Then the DMs, the one to move first: it is the one a player waits for.
        order = sorted(range(len(table.players)), key=lambda seat: seat not in table.game.waiting_for())
        for seat in order:
            player = table.players[seat]
            if seat not in seats or not player.is_person:
                continue
            # An edit the budget has paid for (see `_owe`) is this hand's edit, or is given back.
            paid = seat in self._turns_paid
            self._turns_paid.discard(seat)
            if not await self._refresh_hand(seat, player, table.hand_messages.get(player.user_id), paid=paid) and paid:
                self.bot.budget.give_back()

    async def _refresh_hand(self, seat: int, player: Player, where: tuple[int, int, int] | None, *, paid: bool) -> bool:
        """Bring one DM hand up to date; whether a request paid for beforehand (`paid`) was spent."""
        table = self.table
        # A job queued before a round ended runs with the game already in the next round: it
        # must not draw that round's hand into last round's message (new DMs come with it). After
        # the last round, the round's end closes the hands (`_retire_hand`).
        if where is None or where[2] != table.game.round or table.game.is_over:
            return False
        ping = await self.bot.manager.wants_turn_ping(player.user_id)
        view = _hand.hand_view(table, table.game.observation(seat), self.look_of(player), in_dm=True, ping=ping)
        shown = _hand.fingerprint(view)
        if self.hand_shown.get(player.user_id) == shown:
            return False
        # Once the player has clicked this hand, that click's token edits it for 15 minutes, and
        # Discord counts interaction endpoints outside the global budget: no budget, no waiting.
        copy = self._dm_copy(player, where[1])
        if copy is not None and await copy.edit(view=view):
            self.hand_shown[player.user_id] = copy.shown = shown
            return False
        # Else the edit is the budget's lowest priority (`bot.budget`, "turn edits"): it goes only
        # while the budget has room, else it is owed and sent, paid for, as soon as there is. A move
        # made meanwhile redraws the hand then: owed edits merge, and cost one request.
        if not paid and not self.bot.budget.try_take():
            self._owe(seat)
            return False
        dm = self.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
        try:
            with priority(None):
                await dm.get_partial_message(where[1]).edit(content=None, embed=None, view=view)
        except discord.HTTPException as error:
            self._log_once("hand", error)
            return True
        self.hand_shown[player.user_id] = shown
        return True

    def _turn_of(self, seat: int) -> str:
        """Which turn a seat waits for now: the round and the move it is (under hidden bids everyone
        bids at once, so a bid is one turn however many others come first)."""
        game = self.table.game
        if game.phase is Phase.BID and game.options.hidden_bids:
            return f"{game.round}b"
        return f"{game.round}.{len(game.log)}"

    def ping_soon(self) -> None:
        """Send and take down the turn pings apart from the feed's jobs: they wait for the budget
        behind everything else, and the table must not wait behind them. One after another."""
        before = self._pinging

        async def ping() -> None:
            if before is not None:
                await asyncio.gather(before, return_exceptions=True)
            try:
                await self._ping()
            except (*TRANSIENT, discord.HTTPException) as error:
                log.info("game %s: a turn ping failed (%r)", self.table.id, error)

        self._pinging = asyncio.get_running_loop().create_task(ping())

    async def _ping(self) -> None:
        """A short DM to each person whose move it is now and who asked for one (the hand's bell):
        a DM notifies, an edit never does. A ping goes once its move is made (or the pings are turned
        off), so a person has at most one. Pings are of the budget's lowest priority (TURN): they wait
        behind every table and hand."""
        table = self.table
        waiting = [] if table.game.is_over or table.stopped else list(table.game.waiting_for())
        due = {table.players[seat].user_id: self._turn_of(seat) for seat in waiting}
        # The open pings are the table's (stored): a ping sent before a restart goes like any other.
        for user_id, (turn, channel_id, message_id) in list(table.ping_messages.items()):
            if due.get(user_id) != turn or not await self.bot.manager.wants_turn_ping(user_id):
                dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
                try:
                    with priority(Priority.TURN):
                        await dm.get_partial_message(message_id).delete()
                except discord.HTTPException as error:
                    if error.code != _places.UNKNOWN_MESSAGE:  # deleted by its reader, or before a restart: fine
                        self._log_once("turn ping", error)
                # Forgotten once gone: a restart in between deletes it again, which Discord answers 10008.
                await self.bot.manager.set_ping_message(table, user_id, None)
        for seat in waiting:
            player = table.players[seat]
            where = table.hand_messages.get(player.user_id)
            if (
                not player.is_person
                or player.user_id in table.away
                or player.user_id in table.ping_messages
                or where is None
                or where[2] != table.game.round
                or not await self.bot.manager.wants_turn_ping(player.user_id)
            ):
                continue
            turn = due[player.user_id]
            look = self.look_of(player)
            hand = f"https://discord.com/channels/@me/{where[0]}/{where[1]}"
            text = look.t("ping.text", round=table.game.observation(seat).round_position, link=hand)
            dm = self.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
            with priority(Priority.TURN):
                sent = await dm.send(text, nonce=self._nonce(f"g{turn}"))
            await self.bot.manager.set_ping_message(table, player.user_id, (turn, where[0], sent.id))

    def _owe(self, seat: int) -> None:
        """Send a hand edit put off for want of budget as soon as the budget has room for it: the
        budget hands that room over paid for, and the hand's next refresh spends it."""
        if seat in self._turns_owed:
            return
        self._turns_owed.add(seat)

        def room() -> None:
            self._turns_owed.discard(seat)
            if seat in self._turns_paid:  # one already paid for and not yet spent: this one is not needed
                self.bot.budget.give_back()
                return
            self._turns_paid.add(seat)
            self.push(RefreshHands(frozenset((seat,))), first=True)

        self.bot.budget.when_room(room)

    async def _refresh_copies(self, seat: int, player: Player) -> None:
        """Bring the player's copies from My hand of this round up to date, through their tokens; one
        Discord refuses (dismissed) is let go."""
        table = self.table
        hands = self.presenter.private_hands
        copies = [c for c in hands.of(table.id, player.user_id) if c.round == table.game.round and c.valid]
        if not copies:
            return
        view = _hand.hand_view(table, table.game.observation(seat), self.look_of(player))
        shown = _hand.fingerprint(view)
        for copy in copies:
            if copy.shown == shown:
                continue
            if await copy.edit(view=view):
                copy.shown = shown
            else:
                hands.drop(table.id, player.user_id, copy)

    async def _retire_copies(self, which: Callable[[_private.Copy], bool], *, retired: bool) -> None:
        """Take the buttons off the copies from My hand that `which` picks, and let them go: as out of
        date (`retired`: their token runs out), else as their round's end."""
        table = self.table
        hands = self.presenter.private_hands
        for user_id in hands.players(table.id):
            player = table.players[table.seat_of(user_id) or 0]
            look = self.look_of(player)
            for copy in hands.of(table.id, user_id):
                if not which(copy):
                    continue
                if not copy.editable:
                    # Its token ran out before this could run (the bot was busy, or down): Discord
                    # refuses the edit (401). Its buttons stay, and a click on one is refused as stale.
                    hands.drop(table.id, user_id, copy)
                    continue
                if retired:
                    view = _hand.retired_view(table, copy.round, look)
                else:
                    view = _hand.hand_over_view(table, copy.round, look, table.seat_of(user_id))
                await copy.edit(view=view)
                hands.drop(table.id, user_id, copy)

    async def _end_round(self, result: RoundResult, last_trick: TrickResult) -> None:
        self.ping_soon()  # the round's last move made: its ping goes
        await self._owed_pads(last_trick)  # the round's table becomes its score pad
        await self._retire_copies(lambda copy: copy.round == result.round, retired=False)
        if self.table.game.is_over:
            await self._retire_all_hands()

    async def _stop(self, by: Player | None, reason: str) -> None:
        if reason in PLACE_GONE:
            await self._tell_players_the_place_is_gone(reason)  # nothing is shown where the game was
            return
        await self._edit_table(_table.closed_table_view(self.table, self.look, stopped_by=by))
        if reason == "abandoned":
            await self.channel.send(t(self.locale, "table.abandoned"), nonce=self._nonce("x"))
        await self._retire_all_hands()
        await self._retire_copies(lambda copy: True, retired=False)
        self.ping_soon()
        await self.bot.manager.set_final_message(self.table, self.table.table_message_id or 0)

    async def _retire_all_hands(self) -> None:
        for player in self.table.players:
            where = self.table.hand_messages.get(player.user_id)
            if where is not None and self.hand_shown.get(player.user_id) is not RETIRED:
                await self._retire_hand(player, where)


# How far Discord's clock may be behind ours when it stamps a message we just sent.
CLOCK_SKEW = datetime.timedelta(seconds=2)


def _made_now(message: discord.Message, sent_at: datetime.datetime) -> bool:
    """Whether `message` is the one a send made just now, not one a nonce returned from before."""
    return message.edited_at is None and message.created_at >= sent_at - CLOCK_SKEW


def _shows(message: discord.Message, view: discord.ui.LayoutView) -> bool:
    """Whether a message Discord answered a send with shows `view`: a nonce returns the message an
    earlier send made, which a restart just after it (within the clock skew above) may take for new."""
    sent = view.to_components()  # type: ignore[no-untyped-call]
    return bool([component.to_dict() for component in message.components] == sent)
