"""Show the manager's events in Discord: each game's feed, and the lobby messages.

Each game has one feed (`_feed`): a queue of display jobs worked by one task, so a game's messages
go out in order and a slow or failing Discord call never blocks the game or another game. The
presenter routes the manager's events to the feeds, and keeps what is not a game's: the lobby
messages, the players' languages and their private hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.guild_settings import language_override
from bot.manager import (
    PLACE_GONE,
    ActionApplied,
    Event,
    GameAdopted,
    GameStarted,
    GameStopped,
    Lobby,
    LobbyAdopted,
    LobbyClosed,
    PresenceChanged,
    Table,
    TurnReminder,
)

from . import _ids, _lobby, _permissions, _places, _private
from ._buttons import custom_ids
from ._faces import TEXT, Faces
from ._feed import (
    EVERYONE,
    RETIRED,
    RETRY_CAP,
    TRANSIENT,
    Feed,
    Final,
    NewRound,
    RefreshHands,
    RefreshTable,
    Remind,
    RetireCopies,
    RoundEnd,
    Stopped,
)
from ._hand import fingerprint

if TYPE_CHECKING:
    from bot.client import WizardBot

log = logging.getLogger(__name__)

# How far back in a channel a restored lobby looks for the message that may already show it (the
# lobby is newer than the crash, so its message is among the channel's last few).
LOBBY_SEARCH = 25
# How long a refusal waits to find out whether the message it links to still exists (Discord wants the
# answer within 3 seconds).
CHECK_SECONDS = 1.5


class Presenter:
    """Subscribes to the game manager and keeps every game's messages up to date."""

    def __init__(self, bot: WizardBot) -> None:
        self.bot = bot
        self._feeds: dict[str, Feed] = {}
        # The Discord locale each player last used, for their private messages.
        self.user_locales: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Games just started whose lobby message links to the table once it is posted.
        self._lobby_links: dict[str, tuple[Lobby, discord.Interaction[Any], str | None]] = {}
        # How cards are written: the bot's own emojis once the cog has them (`_faces.load`), else text.
        self.faces: Faces = TEXT
        # Each player's copies of their hand (My hand, /wizard hand), kept current through their tokens.
        self.private_hands = _private.PrivateHands()
        # Each player's latest click on their DM hand: its token edits that hand outside the request budget.
        self.dm_hands = _private.PrivateHands(most=1)
        # The threads Discord said are locked, each with its parent channel when known (an archived
        # thread is not in discord.py's cache, so this is where its lock is remembered).
        self.locked_threads: dict[int, int | None] = {}
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

    def feed(self, table: Table) -> Feed:
        feed = self._feeds.get(table.id)
        if feed is None:
            feed = self._feeds[table.id] = Feed(self, table)
        return feed

    def _on_event(self, event: Event) -> None:
        table = getattr(event, "table", None)
        if isinstance(table, Table) and table.guest:
            return  # the process of the game's server shows it
        if isinstance(event, LobbyClosed):
            lobby = event.lobby
            # A lobby whose place or message is gone has nothing left to show it in.
            if lobby.message_id is not None and event.reason not in PLACE_GONE | {"message_gone"}:
                embed = _lobby.lobby_closed_embed(lobby, event.reason, self.public_locale(lobby.guild_id))
                message = self.bot.get_partial_messageable(lobby.channel_id).get_partial_message(lobby.message_id)
                self._spawn(lambda: message.edit(embed=embed, view=None), f"lobby {lobby.id} closing")
        elif isinstance(event, GameStarted):
            self.feed(event.table).push(NewRound())
        elif isinstance(event, ActionApplied):
            feed = self.feed(event.table)
            applied = event.applied
            if applied.round is not None and applied.trick is not None:
                feed.push(RoundEnd(applied.round, applied.trick))
                feed.push(Final() if applied.game_over else NewRound())
            else:
                feed.push(RefreshTable())
                feed.push(RefreshHands(EVERYONE))  # every hand shows the trick, the bids and the mover
        elif isinstance(event, GameStopped):
            feed = self.feed(event.table)
            if event.reason in PLACE_GONE:
                # Nothing more is shown where the game was, whatever was still to show or waited there.
                feed.jobs.clear()
                feed.blocked = ()
            feed.push(Stopped(event.by, event.reason))
        elif isinstance(event, PresenceChanged):
            feed = self.feed(event.table)
            feed.push(RefreshTable())
            feed.push(RefreshHands(frozenset((event.seat,))))
        elif isinstance(event, TurnReminder):
            self.feed(event.table).push(Remind(event.seat, event.left))
        elif isinstance(event, GameAdopted):
            self.restore([event.table])  # what the channel is owed, as after a restart
        elif isinstance(event, LobbyAdopted) and event.lobby.message_id is None:
            self.restore_lobbies([event.lobby])  # shown, as after a restart

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
        embed = _lobby.lobby_started_embed(lobby, link, locale)
        try:
            if _private.token_valid(started):
                await started.edit_original_response(embed=embed)  # an interaction call: outside the budget
            elif lobby.message_id is not None:
                channel = self.bot.get_partial_messageable(table.channel_id)
                await channel.get_partial_message(lobby.message_id).edit(embed=embed)
        except discord.HTTPException as error:
            log.warning("game %s: the lobby could not link the table (%s %s)", table.id, error.status, error.code)

    async def still_shown(self, busy: Lobby | Table) -> bool:
        """Whether the message that shows a lobby or game still exists, so that a link to it leads
        somewhere; Discord does not tell the bot of a deleted message, so it is edited to find out. A
        lobby whose message is gone is closed (nobody can join it); a game's table is posted again.
        (True when it cannot tell: a link to the channel's latest game is still worth giving.)"""
        if isinstance(busy, Table):
            if busy.guest or busy.table_message_id is None:
                return True
            feed = self.feed(busy)
            feed.push(RefreshTable())  # edits the table, or posts it again if it was deleted
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(feed.drained.wait(), CHECK_SECONDS)
            return True
        if busy.message_id is None:
            return True  # never recorded: being shown now (see `restore_lobbies`)
        locale = self.public_locale(busy.guild_id)
        message = self.bot.get_partial_messageable(busy.channel_id).get_partial_message(busy.message_id)
        try:
            await asyncio.wait_for(
                message.edit(embed=_lobby.lobby_embed(busy, locale), view=_lobby.lobby_view(busy, locale)),
                CHECK_SECONDS,
            )
        except discord.NotFound as error:
            if error.code != _places.UNKNOWN_MESSAGE:
                return True
            log.info("lobby %s: its message was deleted; closing it", busy.id)
            return not await self.bot.manager.close_lobby(busy.id, "message_gone")
        except (discord.HTTPException, *TRANSIENT):
            return True
        return True

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
            embed, view = _lobby.lobby_embed(lobby, locale), _lobby.lobby_view(lobby, locale)
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
                isinstance(button := _ids.parse(custom_id), _ids.LobbyId) and button.game == lobby.id
                for custom_id in custom_ids(message.components)
                if custom_id.startswith(_ids.PREFIX)
            ):
                return message
        return None

    def pings_changed(self, user_id: int) -> None:
        """A person turned their turn pings on or off: each of their games' hands shows the bell
        the other way, and a ping is sent now or taken down."""
        for feed in list(self._feeds.values()):
            seat = feed.table.seat_of(user_id)
            if seat is not None and not feed.table.game.is_over:
                feed.push(RefreshHands(frozenset((seat,))))
                feed.ping_soon()

    def note_hand_shown(self, table: Table, user_id: int, message_id: int, view: discord.ui.LayoutView) -> None:
        """A click's response already showed this hand in `message_id`: if that is the DM, don't edit it again."""
        if table.is_hand_message(user_id, message_id) and not table.guest:
            self.feed(table).hand_shown[user_id] = fingerprint(view)

    def settle(self, table: Table, user_id: int, message_id: int, moves: int) -> None:
        """A click's answer showed the player's hand as it was after `moves` moves, in `message_id`.
        The feed may have edited that message meanwhile with a later moment, and the answer landed
        after it: if a move was made since, the hand is drawn again, after the answer, by the feed."""
        if table.guest or len(table.game.log) == moves:
            return
        for copy in self.private_hands.of(table.id, user_id):
            if copy.message_id == message_id:
                copy.shown = None
        feed = self.feed(table)
        if table.is_hand_message(user_id, message_id):
            feed.hand_shown.pop(user_id, None)
        seat = table.seat_of(user_id)
        if seat is not None:
            feed.push(RefreshHands(frozenset((seat,))))

    def keep_copy(self, table: Table, user_id: int, copy: _private.Copy) -> None:
        """Keep a copy of a player's hand current from now on (see `_private`), and retire it before
        its token runs out; a copy pushed out by it is retired now."""
        if table.guest:
            return
        feed = self.feed(table)
        pushed_out = self.private_hands.remember(table.id, user_id, copy)
        if pushed_out:
            feed.push(RetireCopies(tuple(c.message_id for c in pushed_out)))
        wait = (_private.deadline(copy.interaction) - discord.utils.utcnow()).total_seconds()
        asyncio.get_running_loop().call_later(max(0.0, wait), feed.push, RetireCopies())

    def note_hand_retired(self, table: Table, user_id: int, message_id: int) -> None:
        """A click's response already took the buttons off this hand message (its round is over)."""
        if table.is_hand_message(user_id, message_id) and not table.guest:
            self.feed(table).hand_shown[user_id] = RETIRED

    def restore(self, tables: list[Table]) -> None:
        """Bring the messages of games restored after a restart up to date; a game that ended
        before the channel was shown its end gets its last round closed and its standings."""
        for table in tables:
            feed = self.feed(table)
            game = table.game
            if table.stopped:
                feed.push(Stopped(None, table.end_reason or "stopped"))
            elif game.is_over:
                feed.push(RoundEnd(game.history[-1], game.tricks[-1]))
                feed.push(Final())
            else:
                feed.push(NewRound())
                # The hands too, apart: should the channel make the round wait, they still show it.
                feed.push(RefreshHands(EVERYONE))

    def lacking(
        self, table: Table, permissions: tuple[str, ...] | None = None, *, manage_threads: bool | None = None
    ) -> tuple[str, ...] | None:
        """What keeps a game from being shown: its place (a thread locked, a server down), then the
        permissions the bot lacks in its channel (`permissions`, else by the cache); None when the
        cache cannot tell and nothing else is known."""
        held = _places.holds(self.bot, self.locked_threads, table, manage_threads=manage_threads)
        if permissions is None:
            permissions = _permissions.in_cache(self.bot, table.guild_id, table.channel_id)
        if permissions is None:
            return held or None
        return held + permissions

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
                lacking = self.lacking(feed.table)
                if lacking is not None:
                    await feed.unblock(lacking)

    async def places_changed(self, guild_id: int) -> None:
        """Discord said a server went down or came back, or one of its threads was locked or unlocked:
        a game there that its place now holds waits (no move is taken unseen), one it no longer holds
        goes on."""
        for feed in list(self._feeds.values()):
            if feed.table.guild_id != guild_id or feed.table.stopped or feed.table.game.is_over:
                continue
            held = _places.holds(self.bot, self.locked_threads, feed.table)
            if feed.blocked:
                lacking = self.lacking(feed.table)
                if lacking is None and set(feed.blocked) <= set(_places.HOLDS):
                    # It waited for its place alone: that is over, and the cache cannot tell the
                    # permissions (an archived thread is not in it), so it tries; a refusal stops it again.
                    lacking = held
                if lacking is not None:
                    await feed.unblock(lacking)
            elif held:
                log.warning("game %s: waiting in channel %s: %s", feed.table.id, feed.table.channel_id, ", ".join(held))
                feed._hold(held)

    def thread_updated(self, thread_id: int, parent_id: int | None, *, locked: bool) -> None:
        """Remember whether a thread is locked (see `locked_threads`)."""
        if locked:
            self.locked_threads[thread_id] = parent_id
        else:
            self.locked_threads.pop(thread_id, None)

    def backlog(self) -> int:
        """What is still to be shown: display jobs queued or waiting to be tried again, and lobby
        messages still to be sent or edited."""
        return sum(len(feed.jobs) + (feed.running is not None) for feed in self._feeds.values()) + len(self._tasks)

    def forget(self, game_id: str, feed: Feed | None = None) -> None:
        """Let go of a game's feed and what is kept for its messages (if given: only if `feed` is still its feed)."""
        if feed is not None and self._feeds.get(game_id) is not feed:
            return
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
            feed.cancel()
