"""Show the manager's events in Discord: the table, the players' hands, summaries, the end.

Each game has one feed: a queue of display jobs worked by one task, so a game's messages go out
in order and a slow or failing Discord call never blocks the game or another game. Jobs render
the game as it is when they run, and a table or hand job already waiting is not queued twice,
so a burst of moves costs one edit.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import io
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.budget import Priority, priority
from bot.engine import ChooseTrump, RoundResult, TrickResult, rules
from bot.guild_settings import language_override
from bot.i18n import duration, t
from bot.manager import (
    ActionApplied,
    Event,
    GameAdopted,
    GameStarted,
    GameStopped,
    Lobby,
    LobbyClosed,
    Player,
    PresenceChanged,
    Table,
    TurnReminder,
)

from . import _chart, _ids, _permissions, _private, _render

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

CLOSED_DMS = 50007  # Discord's "Cannot send messages to this user"
# Discord's answers to a request the bot's channel permissions do not allow: "Missing Access" (no
# View Channel) and "Missing Permissions".
NO_ACCESS = (50001, 50013)


@dataclass(frozen=True, slots=True)
class _RefreshTable:
    pass


@dataclass(frozen=True, slots=True)
class _RefreshHands:
    """Bring these seats' DM hands up to date.

    A DM hand is steady (see `_render`): another player's move changes it only when that move
    chooses trump or leaves it the last bidder with a forbidden bid, so after a move only the mover
    and the seats now to act need a look, and the others are not even drawn.
    """

    seats: frozenset[int]


@dataclass(frozen=True, slots=True)
class _RoundEnd:
    result: RoundResult
    last_trick: TrickResult


@dataclass(frozen=True, slots=True)
class _NewRound:
    """Show the current round: its table and every player's hand, each posted where it is not
    yet shown (a new round, a restart, a retry after a refused request) and else brought up to date."""


@dataclass(frozen=True, slots=True)
class _DealHands:
    """Send the hands of round `round` still owed after a failed DM, the `attempt`-th time."""

    round: int
    attempt: int


@dataclass(frozen=True, slots=True)
class _Remind:
    seat: int
    left: float


@dataclass(frozen=True, slots=True)
class _Final:
    pass


@dataclass(frozen=True, slots=True)
class _Stopped:
    by: Player | None
    reason: str = "stopped"


# What `hand_shown` holds for a hand message whose buttons are already off (its round is over).
_RETIRED = object()

_Job = _RefreshTable | _RefreshHands | _RoundEnd | _NewRound | _DealHands | _Remind | _Final | _Stopped
# A DM that failed for a passing reason (discord.py has already retried 5xx and dropped connections)
# is sent again after 1, 2, 4 … seconds, this many times; the player also has My hand meanwhile.
DM_RETRIES = 6
# Failures that pass: Discord's 5xx, a dropped connection, a timeout. A table, score pad or standings
# that meet one are shown again after 1, 2, 4 … seconds, at most this many apart, until they are.
TRANSIENT = (discord.DiscordServerError, aiohttp.ClientError, OSError, TimeoutError)
RETRY_CAP = 60.0
# How far back in a channel a restored lobby looks for the message that may already show it (the
# lobby is newer than the crash, so its message is among the channel's last few).
LOBBY_SEARCH = 25
_EVERYONE = frozenset(range(rules.MAX_PLAYERS))  # every seat of any game


class Presenter:
    """Subscribes to the game manager and keeps every game's messages up to date."""

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot
        self._feeds: dict[str, _Feed] = {}
        # The Discord locale each player last used, for their private messages.
        self.user_locales: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Games just started whose lobby message links to the table once it is posted.
        self._lobby_links: dict[str, tuple[Lobby, discord.Interaction[Any], str | None]] = {}
        # Each player's latest private hand (My hand, /wizard hand), updated in place where Discord allows.
        self.private_hands = _private.PrivateHands()
        # Each player's latest click on their DM hand: its token edits that hand outside the request budget.
        self.dm_hands = _private.PrivateHands()
        bot.manager.subscribe(self._on_event)

    def public_locale(self, guild_id: int) -> str | None:
        """What the whole channel reads: the language the server's managers chose, else the server's locale."""
        chosen = language_override(self.bot.guild_settings, guild_id)
        if chosen is not None:
            return chosen
        guild = self.bot.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    def user_locale(self, user_id: int, guild_id: int) -> str | None:
        return self.user_locales.get(user_id) or self.public_locale(guild_id)

    def feed(self, table: Table) -> _Feed:
        feed = self._feeds.get(table.id)
        if feed is None:
            feed = self._feeds[table.id] = _Feed(self, table)
        return feed

    def _on_event(self, event: Event) -> None:
        table = getattr(event, "table", None)
        if isinstance(table, Table) and table.guest:
            return  # the process of the game's server shows it
        if isinstance(event, LobbyClosed):
            lobby = event.lobby
            if lobby.message_id is not None:
                embed = _render.lobby_closed_embed(lobby, event.reason, self.public_locale(lobby.guild_id))
                message = self.bot.get_partial_messageable(lobby.channel_id).get_partial_message(lobby.message_id)
                self._spawn(lambda: message.edit(embed=embed, view=None), f"lobby {lobby.id} closing")
        elif isinstance(event, GameStarted):
            self.feed(event.table).push(_NewRound())
        elif isinstance(event, ActionApplied):
            feed = self.feed(event.table)
            applied = event.applied
            if applied.round is not None and applied.trick is not None:
                feed.push(_RoundEnd(applied.round, applied.trick))
                feed.push(_Final() if applied.game_over else _NewRound())
            else:
                feed.push(_RefreshTable())
                if isinstance(applied.action, ChooseTrump):
                    feed.push(_RefreshHands(_EVERYONE))  # every hand shows the trump
                else:
                    feed.push(_RefreshHands(frozenset((applied.seat, *event.table.game.waiting_for()))))
        elif isinstance(event, GameStopped):
            self.feed(event.table).push(_Stopped(event.by, event.reason))
        elif isinstance(event, PresenceChanged):
            feed = self.feed(event.table)
            feed.push(_RefreshTable())
            feed.push(_RefreshHands(frozenset((event.seat,))))
        elif isinstance(event, TurnReminder):
            self.feed(event.table).push(_Remind(event.seat, event.left))
        elif isinstance(event, GameAdopted):
            self.restore([event.table])  # what the channel is owed, as after a restart

    def _spawn(self, make: Callable[[], Awaitable[object]], what: str) -> None:
        """Run `make()` in the background until it is done: a passing failure is tried again after
        1, 2, 4 … seconds (at most RETRY_CAP apart), a refusal is logged once. What it sends must
        be safe to send again (an edit, or a post with a nonce)."""

        async def run() -> None:
            pause = 1.0
            while True:
                try:
                    await make()
                    return
                except TRANSIENT as error:
                    log.info("%s: %s; trying again in %.0f s", what, type(error).__name__, pause)
                    await asyncio.sleep(pause)
                    pause = min(2 * pause, RETRY_CAP)
                except discord.HTTPException as error:
                    log.warning("%s: Discord refused (%s %s)", what, error.status, error.code)
                    return
                except Exception:
                    log.exception("%s failed", what)
                    return

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def link_lobby(self, table: Table, lobby: Lobby, started: discord.Interaction[Any], locale: str | None) -> None:
        """The Start click `started` said the game is on: once the table is posted, link it from there."""
        self._lobby_links[table.id] = (lobby, started, locale)

    async def show_lobby_link(self, table: Table) -> None:
        """Put the link to the table posted just now on the game's lobby message (once)."""
        found = self._lobby_links.pop(table.id, None)
        if found is None or table.table_message_id is None:
            return
        lobby, started, locale = found
        link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.table_message_id}"
        embed = _render.lobby_started_embed(lobby, link, locale)
        try:
            if _private.token_valid(started):
                await started.edit_original_response(embed=embed)  # an interaction call: outside the budget
            elif lobby.message_id is not None:
                channel = self.bot.get_partial_messageable(table.channel_id)
                await channel.get_partial_message(lobby.message_id).edit(embed=embed)
        except discord.HTTPException as error:
            log.warning("game %s: the lobby could not link the table (%s %s)", table.id, error.status, error.code)

    def restore_lobbies(self, lobbies: list[Lobby]) -> None:
        """Show each restored lobby whose message was never recorded: the bot died between storing
        the lobby and storing the answer that showed it (to /wizard start or Rematch). If Discord
        made that answer, it is found and kept; else the lobby is posted in its channel."""
        for lobby in lobbies:
            self._spawn(functools.partial(self._show_lobby, lobby), f"lobby {lobby.id}")

    async def _show_lobby(self, lobby: Lobby) -> None:
        await self.bot.wait_until_ready()
        if self.bot.manager.in_channel(lobby.channel_id) is not lobby:
            return  # started, cancelled or expired meanwhile: nothing to show
        channel = self.bot.get_channel(lobby.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            log.warning("lobby %s: its channel %s is gone", lobby.id, lobby.channel_id)
            return
        message = await self._own_lobby_message(channel, lobby)
        if message is None:
            locale = self.public_locale(lobby.guild_id)
            embed, view = _render.lobby_embed(lobby, locale), _render.lobby_view(lobby, locale)
            message = await channel.send(embed=embed, view=view, nonce=f"wl{lobby.id}")
        await self.bot.manager.set_lobby_message(lobby.id, message.id)

    async def _own_lobby_message(
        self, channel: discord.TextChannel | discord.Thread, lobby: Lobby
    ) -> discord.Message | None:
        """The bot's recent message in `channel` that carries this lobby's buttons, if there is one
        and the bot may read the channel's history (without it, the lobby is posted again)."""
        me = channel.guild.me
        if not channel.permissions_for(me).read_message_history:
            return None
        async for message in channel.history(limit=LOBBY_SEARCH):
            if message.author.id == me.id and any(
                isinstance(button := _ids.parse(str(getattr(child, "custom_id", ""))), _ids.LobbyId)
                and button.game == lobby.id
                for row in message.components
                for child in getattr(row, "children", ())
            ):
                return message
        return None

    def note_hand_shown(
        self, table: Table, user_id: int, message_id: int, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """A click's response already showed this hand in `message_id`: if that is the DM, don't edit it again."""
        if table.is_hand_message(user_id, message_id) and not table.guest:
            self.feed(table).hand_shown[user_id] = _shown(embed, view)

    def note_hand_retired(self, table: Table, user_id: int, message_id: int) -> None:
        """A click's response already took the buttons off this hand message (its round is over)."""
        if table.is_hand_message(user_id, message_id) and not table.guest:
            self.feed(table).hand_shown[user_id] = _RETIRED

    def restore(self, tables: list[Table]) -> None:
        """Bring the messages of games restored after a restart up to date; a game that ended
        before the channel was shown its end gets its last round closed and its standings."""
        for table in tables:
            feed = self.feed(table)
            game = table.game
            if table.stopped:
                feed.push(_Stopped(None))
            elif game.is_over:
                feed.push(_RoundEnd(game.history[-1], game.tricks[-1]))
                feed.push(_Final())
            else:
                feed.push(_NewRound())

    def blocked(self, game_id: str) -> tuple[str, ...]:
        """The permissions a game waits for in its channel; empty while it is shown."""
        feed = self._feeds.get(game_id)
        return feed.blocked if feed is not None else ()

    async def unblock(self, game_id: str, lacking: tuple[str, ...], *, from_interaction: bool = False) -> bool:
        """The bot now lacks `lacking` in the game's channel: go on if that is enough (True)."""
        feed = self._feeds.get(game_id)
        return feed is None or await feed.unblock(lacking, from_interaction=from_interaction)

    async def permissions_changed(self, guild_id: int) -> None:
        """Discord said a server's channels, roles or the bot's own roles changed: every game there
        that waits for a permission looks again (in the cache those events just updated)."""
        for feed in list(self._feeds.values()):
            if feed.table.guild_id != guild_id:
                continue
            feed.cache_stale = False
            if feed.blocked:
                lacking = _permissions.in_cache(self.bot, guild_id, feed.table.channel_id)
                if lacking is not None:
                    await feed.unblock(lacking)

    def backlog(self) -> int:
        """What is still to be shown: display jobs queued or waiting to be tried again, and lobby
        messages still to be sent or edited."""
        return sum(len(feed.jobs) + (feed.running is not None) for feed in self._feeds.values()) + len(self._tasks)

    def forget(self, game_id: str) -> None:
        self._feeds.pop(game_id, None)
        self._lobby_links.pop(game_id, None)
        self.private_hands.forget(game_id)
        self.dm_hands.forget(game_id)

    async def idle(self) -> None:
        """Wait until every feed has sent everything queued so far (for shutting down cleanly)."""
        for feed in list(self._feeds.values()):
            await feed.drained.wait()

    def close(self) -> None:
        for feed in self._feeds.values():
            feed.task.cancel()


class _Feed:
    """The display jobs of one game, worked in order by one task."""

    def __init__(self, presenter: Presenter, table: Table) -> None:
        self.presenter = presenter
        self.bot = presenter.bot
        self.table = table
        self.jobs: deque[_Job] = deque()
        self.wake = asyncio.Event()
        self.drained = asyncio.Event()
        self.drained.set()
        # What each player's DM hand message shows now, so unchanged hands are not edited.
        self.hand_shown: dict[int, object] = {}
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
        self.running: _Job | None = None  # the job being shown now, for `Presenter.backlog`
        self.task = asyncio.get_running_loop().create_task(self._work(), name=f"wizard-feed-{table.id}")

    def push(self, job: _Job, *, first: bool = False) -> None:
        """Queue `job`; `first`: before the others (a turn edit the budget has paid for is spent at
        once: the budget counted it as sent now)."""
        if isinstance(job, _Stopped) and self.blocked:
            # Stopped while it waited for permissions: of what it waited to show, only the closed
            # table is still owed, once the channel lets the bot show it.
            self.jobs.clear()
        # A table or hands job still waiting will show the game as it is when it runs: add to it.
        for index, waiting in enumerate(self.jobs if not first else ()):
            if isinstance(job, _RefreshTable) and isinstance(waiting, _RefreshTable):
                return
            if isinstance(job, _RefreshHands) and isinstance(waiting, _RefreshHands):
                self.jobs[index] = _RefreshHands(waiting.seats | job.seats)
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
                    if self.presenter._feeds.get(self.table.id) is self:
                        self.presenter.forget(self.table.id)
                    return
                # Taken off the queue before it runs: a job pushed meanwhile must not be merged into
                # this one, which may already have drawn the game as it was.
                job = self.running = self.jobs.popleft()
                try:
                    if self.bot.get_guild(self.table.guild_id) is None and not self.bot.is_ready():
                        # Restored at start-up: the cache knows the channel's permissions once the
                        # server has arrived from the gateway.
                        await self.bot.wait_until_ready()
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
                except discord.Forbidden as error:
                    if error.code not in NO_ACCESS:
                        self._log_once(type(job).__name__, error)
                    else:
                        # The cache did not know yet: the job waits like any other.
                        self._block(self._lacking() or _permissions.needed(thread=False), job)
                        break
                except discord.HTTPException as error:
                    self._log_once(type(job).__name__, error)
                except Exception:
                    log.exception("game %s: showing %s failed", self.table.id, type(job).__name__)
                finally:
                    self.running = None
                if isinstance(job, (_Final, _Stopped)):
                    self.drained.set()
                    self.presenter.forget(self.table.id)
                    return
            self.drained.set()

    def _retry(self, job: _Job, error: BaseException) -> None:
        """Run `job` again after 1, 2, 4 … 60 seconds (the game goes on meanwhile)."""
        self.jobs.appendleft(job)
        delay = min(RETRY_CAP, 2.0**self._failures)
        self._failures += 1
        log.warning(
            "game %s: showing %s failed (%r); trying again in %.0f s", self.table.id, type(job).__name__, error, delay
        )
        asyncio.get_running_loop().call_later(delay, self.wake.set)

    def _lacking(self) -> tuple[str, ...]:
        """What the bot lacks in the game's channel by its cache (nothing, if the cache cannot tell)."""
        return _permissions.in_cache(self.bot, self.table.guild_id, self.table.channel_id) or ()

    def _block(self, lacking: tuple[str, ...], job: _Job) -> None:
        """Stop showing the game, and hold it, until the channel lets the bot post again; `job`
        waits first in the queue (the jobs are written to be run again: see `_NewRound`)."""
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
    def channel(self) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(self.table.channel_id, guild_id=self.table.guild_id)

    async def _do(self, job: _Job) -> None:
        if isinstance(job, _NewRound):
            await self._show_round()
        elif isinstance(job, _DealHands):
            if job.round == self.table.game.round and not self.table.game.is_over:
                await self._deal_hands(job.attempt)
        elif isinstance(job, _Remind):
            await self._remind(job.seat, job.left)
        elif isinstance(job, _RefreshTable):
            # A table job that waited (for the budget, say) while the round ended must not draw the new
            # round into the old round's message: the round's end closes that one and posts the next.
            if self.table.table_round == self.table.game.round:
                await self._edit_table()
        elif isinstance(job, _RefreshHands):
            await self._refresh_hands(job.seats)
        elif isinstance(job, _RoundEnd):
            await self._end_round(job.result, job.last_trick)
        elif isinstance(job, _Final):
            await self._final()
        elif isinstance(job, _Stopped):
            await self._stop(job.by, job.reason)

    async def _final(self) -> None:
        """The final standings, with the chart of the totals and the record and rematch buttons.

        Sent with a nonce Discord enforces: a retry after a crash or a dropped answer returns the
        message already posted instead of posting it twice.
        """
        table = self.table
        await self._owed_pads()
        names = [_render.plain_name(player, self.locale) for player in table.players]
        # Drawing takes a tenth of a second or more: not on the event loop.
        view = _render.final_view(table, self.locale)
        if "attach_files" not in self._lacking():
            png = await asyncio.to_thread(_chart.totals_chart, names, table.game.history, self.locale)
            embed = _render.final_embed(table, self.locale)
            embed.add_field(name=t(self.locale, "final.chart"), value="\u200b", inline=False)
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
        embed = _render.final_embed(table, self.locale)
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

    async def _owed_pads(self) -> None:
        """Post the score pads of the rounds played whose pads the channel has not shown yet, in order
        (normally the round just over; after a crash or a refused request, those it cut off)."""
        table = self.table
        for position in range(table.pads_shown + 1, len(table.game.history) + 1):
            result = table.game.history[position - 1]
            embed = _render.summary_embed(table, result, self.locale)
            await self.channel.send(embed=embed, nonce=self._nonce(f"p{position}"))
            await self.bot.manager.set_pads_shown(table, position)

    async def _remind(self, seat: int, left: float) -> None:
        """Mention the player to move in the channel: edits of the table do not notify anyone."""
        player = self.table.players[seat]
        if self.table.game.to_move != seat or not player.is_person:
            return
        text = t(self.locale, "table.reminder", user=player.user_id, time=duration(self.locale, round(left)))
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
            embed=_render.table_embed(self.table, self.locale),
            view=_render.table_view(self.table, self.locale),
            nonce=self._nonce(f"t{self.table.game.round_position}"),
        )
        await self.bot.manager.set_table_message(self.table, message.id)
        await self.presenter.show_lobby_link(self.table)

    async def _edit_table(self, **replace: Any) -> None:
        """Edit the table message; post a new one if it was deleted."""
        message_id = self.table.table_message_id
        fields: dict[str, Any] = {
            "embed": _render.table_embed(self.table, self.locale),
            "view": _render.table_view(self.table, self.locale),
        }
        fields.update(replace)
        if message_id is None:
            return
        try:
            await self.channel.get_partial_message(message_id).edit(**fields)
        except discord.NotFound:
            log.info("game %s: the table message was deleted; posting a new one", self.table.id)
            message = await self.channel.send(**fields)
            await self.bot.manager.set_table_message(self.table, message.id)

    async def _deal_hands(self, attempt: int = 0) -> None:
        """Send each player without this round's hand a new DM (and bring the others' up to date);
        name in the channel those whose DMs are closed.

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
            if player.user_id in old and self.hand_shown.get(player.user_id) is not _RETIRED:
                await self._retire_hand(player, old[player.user_id])
                self.hand_shown[player.user_id] = _RETIRED
            locale = self.presenter.user_locale(player.user_id, table.guild_id)
            observation = table.game.observation(seat)
            embed = _render.hand_embed(table, observation, locale, steady=True)
            view = _render.hand_view(table, observation, locale, steady=True)
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
                    message = await dm.send(embed=embed, view=view or discord.utils.MISSING, nonce=nonce)
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
            if attempt or not _made_now(message, sent_at):
                # Discord answered with the message an earlier try made (the nonce: a retry, or a
                # post whose answer a crash cut off), as it was then or as a click has changed it
                # since: it is drawn afresh below.
                self.hand_shown.pop(player.user_id, None)
                dealt |= {seat}
            else:
                self.hand_shown[player.user_id] = _shown(embed, view)
        if failed and attempt < DM_RETRIES:
            job = _DealHands(table.game.round, attempt + 1)
            asyncio.get_running_loop().call_later(2**attempt, self.push, job)
        if dealt:
            await self._refresh_hands(dealt)
        if closed:
            # Said in the channel before it is stored: if the post fails or the bot dies between the
            # two, the job runs again, meets the closed DMs again and says it again, and the nonce
            # (the seats: each player is told once a game, so not the round, which may have moved
            # on by the time a retry runs) keeps Discord from showing it twice.
            seats = "".join(str(table.seat_of(player.user_id)) for player in closed)
            await self.channel.send(
                _render.dm_closed_text(closed, self.locale),
                allowed_mentions=discord.AllowedMentions(users=True),
                nonce=self._nonce(f"ds{seats}"),
            )
            for player in closed:
                await self.bot.manager.mark_dm_closed(table, player.user_id)

    async def _retire_hand(self, player: Player, where: tuple[int, int, int]) -> None:
        """Put a finished round's hand message in its closed form: the same the last card's click
        gives it, so that each hand ends alike whichever edit lands last."""
        channel_id, message_id, round_number = where
        locale = self.presenter.user_locale(player.user_id, self.table.guild_id)
        embed = _render.hand_over_embed(self.table, round_number, locale)
        dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            with priority(Priority.HAND):
                await dm.get_partial_message(message_id).edit(embed=embed, view=None)
        except discord.HTTPException as error:
            self._log_once("retire hand", error)

    async def _refresh_hands(self, seats: frozenset[int] = _EVERYONE) -> None:
        table = self.table
        for seat, player in enumerate(table.players):
            where = table.hand_messages.get(player.user_id)
            if where is None and player.user_id in table.dm_closed and seat in seats:
                await self._refresh_private(seat, player)
                continue
            if seat not in seats:
                continue
            # A turn edit the budget has paid for (see `_owe_turn`) is this hand's edit, or is given back.
            paid = seat in self._turns_paid
            self._turns_paid.discard(seat)
            if not await self._refresh_hand(seat, player, where, paid=paid) and paid:
                self.bot.budget.give_back()

    async def _refresh_hand(self, seat: int, player: Player, where: tuple[int, int, int] | None, *, paid: bool) -> bool:
        """Bring one DM hand up to date; whether a request paid for beforehand (`paid`) was spent."""
        table = self.table
        # A job queued before a round ended runs with the game already in the next round: it
        # must not draw that round's hand into last round's message (new DMs come with it). After
        # the last round, the round's end closes the hands (`_retire_hand`).
        if where is None or where[2] != table.game.round or table.game.is_over:
            return False
        locale = self.presenter.user_locale(player.user_id, table.guild_id)
        observation = table.game.observation(seat)
        embed = _render.hand_embed(table, observation, locale, steady=True)
        view = _render.hand_view(table, observation, locale, steady=True)
        shown = _shown(embed, view)
        before = self.hand_shown.get(player.user_id)
        if before == shown:
            return False
        # Once the player has clicked this hand, that click's token edits it for 15 minutes, and
        # Discord counts interaction endpoints outside the global budget: no budget, no waiting.
        clicked = self.presenter.dm_hands.latest(table.id, player.user_id, table.game.round)
        if (
            clicked is not None
            and getattr(clicked.interaction.message, "id", None) == where[1]
            and await self.presenter.dm_hands.edit(table.id, player.user_id, table.game.round, embed=embed, view=view)
        ):
            self.hand_shown[player.user_id] = shown
            return False
        # An edit only to put a hand in its turn form is a *turn edit*, the lowest priority: it goes
        # only while the budget has room, else it is owed and sent as soon as there is (the steady
        # form the hand keeps meanwhile is still right, and the table names the mover). Merged: an
        # edit the hand needs anyway (trump chosen, a new round) carries the turn form along, and
        # one still owed when the turn has passed costs nothing. Taking the turn form back is a
        # plain hand edit: a stale "your move" would mislead.
        level: Priority | None = None if paid else Priority.HAND
        if not paid and _render.is_turn(table, observation):
            steady = _render.hand_embed(table, observation, locale, steady=True, turn=False)
            steady_view = _render.hand_view(table, observation, locale, steady=True, turn=False)
            if before == _shown(steady, steady_view):
                if not self.bot.budget.try_take():
                    self._owe_turn(seat)
                    return False
                level = None  # paid for
        dm = self.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
        try:
            with priority(level):
                await dm.get_partial_message(where[1]).edit(embed=embed, view=view)
        except discord.HTTPException as error:
            self._log_once("hand", error)
            return paid
        self.hand_shown[player.user_id] = shown
        return paid

    def _owe_turn(self, seat: int) -> None:
        """Send a turn edit put off for want of budget as soon as the budget has room for it: the
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
            self.push(_RefreshHands(frozenset((seat,))), first=True)

        self.bot.budget.when_room(room)

    async def _refresh_private(self, seat: int, player: Player) -> None:
        """A player whose DMs are closed plays from My hand: their latest private hand follows the
        turn as a DM would (through its interaction's token, while Discord allows; else their next
        press of My hand shows it)."""
        table = self.table
        locale = self.presenter.user_locale(player.user_id, table.guild_id)
        observation = table.game.observation(seat)
        embed = _render.hand_embed(table, observation, locale)
        view = _render.hand_view(table, observation, locale)
        shown = _shown(embed, view)
        if self.hand_shown.get(player.user_id) == shown:
            return
        if await self.presenter.private_hands.edit(table.id, player.user_id, table.game.round, embed=embed, view=view):
            self.hand_shown[player.user_id] = shown

    async def _end_round(self, result: RoundResult, last_trick: TrickResult) -> None:
        await self._edit_table(embed=_render.round_over_embed(self.table, result, last_trick, self.locale), view=None)
        await self._owed_pads()
        if self.table.game.is_over:
            await self._retire_all_hands()

    async def _stop(self, by: Player | None, reason: str) -> None:
        await self._edit_table(embed=_render.closed_table_embed(self.table, self.locale, stopped_by=by), view=None)
        if reason == "abandoned":
            await self.channel.send(t(self.locale, "table.abandoned"), nonce=self._nonce("x"))
        await self._retire_all_hands()
        await self.bot.manager.set_final_message(self.table, self.table.table_message_id or 0)

    async def _retire_all_hands(self) -> None:
        for player in self.table.players:
            where = self.table.hand_messages.get(player.user_id)
            if where is not None and self.hand_shown.get(player.user_id) is not _RETIRED:
                await self._retire_hand(player, where)


# How far Discord's clock may be behind ours when it stamps a message we just sent.
CLOCK_SKEW = datetime.timedelta(seconds=2)


def _made_now(message: discord.Message, sent_at: datetime.datetime) -> bool:
    """Whether `message` is the one a send made just now, not one a nonce returned from before."""
    return message.edited_at is None and message.created_at >= sent_at - CLOCK_SKEW


def _shown(embed: discord.Embed, view: discord.ui.View | None) -> object:
    """A fingerprint of a hand message, to tell whether an edit would change anything.

    A disabled button's custom_id is left out: it cannot be clicked, so the trick number in it
    going stale is no reason to edit every waiting hand after every card. Only a hash is kept
    (for every seated player of every live game), not the rendered message.
    """
    rows = []
    for row in view.to_components() if view is not None else []:
        rows.append(
            [
                {key: value for key, value in button.items() if not (key == "custom_id" and button.get("disabled"))}
                for button in row["components"]
            ]
        )
    return hash(repr((embed.to_dict(), rows)))
