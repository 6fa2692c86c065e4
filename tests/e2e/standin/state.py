"""In-memory world of the Discord stand-in: users, guilds, channels, messages, interactions.

Everything here is plain data plus an :class:`asyncio.Condition` that is notified on
every change, so tests wait on conditions (:meth:`StandinState.wait_for`) rather
than sleeping.
"""
# ruff: noqa: ASYNC109  -- waits take an explicit time budget by design (condition waits, never sleeps)

from __future__ import annotations

import asyncio
import contextlib
import datetime
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

from .emojis import EmojiStore

T = TypeVar("T")

DISCORD_EPOCH_MS = 1420070400000

#: Interaction responses flagged with this are only visible to the invoking user.
EPHEMERAL = 1 << 6
#: "Bot is thinking..." placeholder created by a deferred (type 5) response.
LOADING = 1 << 7

#: Permissions of @everyone in a freshly created guild (a normal member).
DEFAULT_EVERYONE_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
).value
ALL_PERMISSIONS: int = discord.Permissions.all().value
ADMINISTRATOR: int = discord.Permissions(administrator=True).value

# Single permission bits (Discord: Permissions, "Bitwise Permission Flags").
VIEW_CHANNEL: int = discord.Permissions(view_channel=True).value
SEND_MESSAGES: int = discord.Permissions(send_messages=True).value
SEND_MESSAGES_IN_THREADS: int = discord.Permissions(send_messages_in_threads=True).value
EMBED_LINKS: int = discord.Permissions(embed_links=True).value
ATTACH_FILES: int = discord.Permissions(attach_files=True).value
READ_MESSAGE_HISTORY: int = discord.Permissions(read_message_history=True).value
MANAGE_MESSAGES: int = discord.Permissions(manage_messages=True).value
MANAGE_THREADS: int = discord.Permissions(manage_threads=True).value
#: Every permission that applies in a channel (what losing View Channel takes away with it).
ALL_CHANNEL_PERMISSIONS: int = discord.Permissions.all_channel().value
#: "Denying SEND_MESSAGES implicitly denies MENTION_EVERYONE, SEND_TTS_MESSAGES, ATTACH_FILES, and EMBED_LINKS"
IMPLIED_BY_SENDING: int = discord.Permissions(
    mention_everyone=True, send_tts_messages=True, attach_files=True, embed_links=True
).value
#: What Discord sends as ``app_permissions`` in the bot's own DM: the changelog's "ATTACH_FILES | EMBED_LINKS |
#: MENTION_EVERYONE ... and for DMs with the app's bot user it will also contain USE_EXTERNAL_EMOJIS"; the docs'
#: sample BOT_DM interaction carries exactly this value, "442368" (no View Channel, no Send Messages).
DM_APP_PERMISSIONS: int = discord.Permissions(
    attach_files=True, embed_links=True, mention_everyone=True, use_external_emojis=True
).value
#: Overwrite target types ("0 for a role or 1 for a member").
OVERWRITE_ROLE, OVERWRITE_MEMBER = 0, 1
#: Channel types: GUILD_TEXT, DM, and the three thread types.
GUILD_TEXT, DM = 0, 1
THREAD_TYPES = frozenset({10, 11, 12})
PUBLIC_THREAD = 11
#: Gateway intent GUILDS: channel, thread and role events ride on it.
INTENT_GUILDS = 1 << 0


def permission_bits(*names: str | int) -> int:
    """OR of permissions named as discord.py names them (``"send_messages"``) or given as bits."""
    bits = 0
    for name in names:
        bits |= name if isinstance(name, int) else discord.Permissions(**{name: True}).value
    return bits


class BotCrashed(AssertionError):
    """Raised from waits when the bot under test died or logged an error."""


def snowflake_time(snowflake: int) -> float:
    """When a snowflake was made (seconds since the epoch), as Discord reads it from the id."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class SnowflakeGenerator:
    """Time-based, strictly increasing Discord snowflakes, on the stand-in's clock (`now`)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self._last = 0
        self._now = now

    def __call__(self) -> int:
        value = (int(self._now() * 1000) - DISCORD_EPOCH_MS) << 22
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


# Discord's per-route limits on the message routes the bot uses, beyond the global one: a bucket per
# channel (the "major parameter"; a DM is a channel too), announced in the X-RateLimit-* headers of
# every answer, which discord.py waits on. Discord publishes no figures ("we don't put rate limit
# details in our documentation", discord-api-docs issue 4413); these are the ones bots observe:
# 5 messages sent per 5 seconds in a channel, and as many edits, counted apart (discord-api-docs
# issue 1442: the routes share a bucket name but not their counts).
ROUTE_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", "/api/v10/channels/{channel_id}/messages"): (5, 5.0),
    ("PATCH", "/api/v10/channels/{channel_id}/messages/{message_id}"): (5, 5.0),
    ("DELETE", "/api/v10/channels/{channel_id}/messages/{message_id}"): (5, 1.0),
}


@dataclass
class User:
    id: int
    name: str
    global_name: str | None = None
    locale: str = "en-US"
    bot: bool = False
    dms_closed: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class Overwrite:
    """A channel permission overwrite for a role or a member (Discord: Channel, "Overwrite Object")."""

    id: int
    type: int  # OVERWRITE_ROLE or OVERWRITE_MEMBER
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        # "In API v8 and above, all permissions are serialized as strings, including the allow and deny fields"
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Channel:
    """A guild text channel (type 0), a DM channel (type 1) or a public thread (type 11) of a text channel."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    #: overwrites by role or user id; a thread has none of its own ("Threads inherit permissions from the parent")
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    parent_id: int | None = None  # a thread's text channel
    owner_id: int | None = None  # who started a thread
    created_at: str = field(default_factory=iso_now)
    #: Deleted (by :meth:`StandinState.delete_channel`): every request to it is 404 10003 from then on.
    deleted: bool = False
    #: A thread's ``thread_metadata``: archived (no edits: 400 50083; a send unarchives it unless it is
    #: locked) and locked (only Manage Threads may post or edit: 160005). See :meth:`StandinState.update_thread`.
    archived: bool = False
    locked: bool = False
    archive_timestamp: str | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Member:
    user_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)  # its threads (GUILD_CREATE sends the active ones)
    #: In an outage (:meth:`StandinState.guild_outage`): GUILD_DELETE with ``unavailable: true`` was sent,
    #: nobody can use the bot there, and its requests fail with ``outage_status`` until it is back.
    unavailable: bool = False
    outage_status: int | None = None

    @property
    def everyone_role(self) -> Role:
        return self.roles[self.id]


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if accessory:
            yield accessory


@dataclass
class StoredMessage:
    """Current state of one message. ``data`` is exactly what the API returns for it."""

    data: dict[str, Any]
    ephemeral_to: int | None = None
    interaction_id: int | None = None
    edits: int = 0
    deleted: bool = False
    files: dict[str, bytes] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def author_id(self) -> int:
        return int(self.data["author"]["id"])

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def attachment_names(self) -> list[str]:
        return [a["filename"] for a in self.data.get("attachments") or []]

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, nested ones included (rows, containers, sections' accessories)."""
        return list(_walk_components(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def find_component(self, label_or_custom_id: str) -> dict[str, Any] | None:
        """Interactive component whose custom_id or label equals the argument (custom_id wins)."""
        comps = [c for c in self.all_components() if "custom_id" in c]
        for comp in comps:
            if comp.get("custom_id") == label_or_custom_id:
                return comp
        for comp in comps:
            if comp.get("label") == label_or_custom_id:
                return comp
        return None

    def text(self) -> str:
        """Content + embed texts + components-v2 text displays, newline-joined (for asserts)."""
        parts: list[str] = [self.content] if self.content else []
        for emb in self.embeds:
            for key in ("title", "description"):
                if emb.get(key):
                    parts.append(str(emb[key]))
            for fld in emb.get("fields") or []:
                parts.append(f"{fld.get('name', '')}\n{fld.get('value', '')}")
            if (emb.get("footer") or {}).get("text"):
                parts.append(str(emb["footer"]["text"]))
        for comp in self.all_components():
            if comp.get("type") == 10 and comp.get("content"):
                parts.append(str(comp["content"]))
        return "\n".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel_id": self.channel_id,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": self.attachment_names,
            "flags": self.flags,
            "edits": self.edits,
            "deleted": self.deleted,
            "ephemeral_to": self.ephemeral_to,
        }


@dataclass
class RestCall:
    method: str
    path: str
    route: str
    status: int
    at: float
    query: dict[str, str]
    body: Any = None
    code: int = 0  # the JSON error code of a refusal (10003, 50001, …); 0 otherwise


@dataclass
class FaultRule:
    method: str
    path: re.Pattern[str]
    remaining: int
    status: int
    retry_after: float = 0.0
    code: int = 0
    message: str = ""
    scope: str = "user"
    is_global: bool = False
    hits: int = 0
    #: A held request is kept in flight until ``release()``, then answered as usual (no fault).
    held: asyncio.Event | None = None
    #: A dropped request gets no answer: the connection is closed. "after" = Discord did it first.
    dropped: str | None = None  # None, "before" or "after"
    skip: int = 0  # matching requests to let through before the rule applies

    def release(self) -> None:
        assert self.held is not None, "only a held request can be released"
        self.held.set()


@dataclass
class InteractionRecord:
    """One interaction dispatched by the driver and what the bot did with it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    name: str  # command path ("wizard start") or custom_id
    payload: dict[str, Any]
    dispatched_at: float
    source_message_id: int | None = None
    acked_at: float | None = None
    callback_types: list[int] = field(default_factory=list)
    rejected_callbacks: list[tuple[int, int]] = field(default_factory=list)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # data of a type-9 (modal) callback
    source_edits: int = 0  # edit count of the clicked message at dispatch time
    choices: list[dict[str, Any]] | None = None  # data of a type-8 (autocomplete result) callback
    _state: StandinState | None = field(default=None, repr=False)

    @property
    def acknowledged(self) -> bool:
        return self.acked_at is not None

    @property
    def ack_latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.dispatched_at

    @property
    def state(self) -> StandinState:
        assert self._state is not None
        return self._state

    @property
    def original(self) -> StoredMessage | None:
        if self.original_message_id is None:
            return None
        return self.state.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.state.messages[i] for i in self.followup_ids if i in self.state.messages]

    @property
    def messages(self) -> list[StoredMessage]:
        """Original response (or the edited component message) followed by followups."""
        orig = self.original
        return ([orig] if orig is not None else []) + self.followups

    async def wait_acked(self, timeout: float = 3.0) -> float:
        """Wait for the first accepted callback; returns the ack latency in seconds."""
        await self.state.wait_for(lambda: self.acknowledged, timeout, f"ack of interaction {self.name!r}")
        assert self.ack_latency is not None
        return self.ack_latency

    async def wait_response(self, timeout: float = 5.0) -> StoredMessage:
        """Wait until the original response exists and is no longer a 'thinking' placeholder."""

        def ready() -> StoredMessage | None:
            orig = self.original
            if orig is None or orig.loading:
                return None
            if self.callback_types == [6] and orig.id == self.source_message_id and orig.edits <= self.source_edits:
                return None  # deferred update: wait for the actual edit
            return orig

        return await self.state.wait_for(ready, timeout, f"response to interaction {self.name!r}")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        await self.state.wait_for(
            lambda: len(self.followup_ids) >= count, timeout, f"{count} followup(s) to {self.name!r}"
        )
        return self.followups


Predicate = Callable[[], Any]


class StandinState:
    """All data of the stand-in plus change notification and fault switches."""

    def __init__(self, *, bot_name: str = "WizardBot", ack_deadline: float = 3.0) -> None:
        #: How far the stand-in's clock runs ahead of real time: a test moves it forward (`advance_clock`)
        #: to have days pass for Discord: the time in new ids, the age of interaction tokens and nonces.
        self.clock_offset = 0.0
        self.snowflake = SnowflakeGenerator(self.now)
        self.application_id: int = self.snowflake()
        self.bot_user = User(self.snowflake(), bot_name, None, bot=True)
        self.owner_user = User(self.snowflake(), "app-owner", "App Owner")
        self.token: str = "standin-bot-token"
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner_user.id: self.owner_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        #: synced commands: key None = global, else guild id; values as returned by the API
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: The application's own emojis (see `emojis.py`).
        self.app_emojis = EmojiStore()
        #: Every command sync accepted (a bulk overwrite, PUT): None for the global commands, else the guild id.
        self.command_syncs: list[int | None] = []
        #: When each command was created, per scope, over the last day: "There is a global rate limit of
        #: 200 application command creates per day, per guild"; a bulk overwrite counts only "Commands
        #: that do not already exist" (Application Commands, Bulk Overwrite Global Application Commands).
        self.command_creates: dict[int | None, deque[float]] = {}
        self.rest_log: list[RestCall] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.faults: list[FaultRule] = []
        self.gateway_events: list[tuple[str, dict[str, Any]]] = []
        self.identify_payloads: list[dict[str, Any]] = []
        #: Discord rejects callbacks after 3 s with 404 / 10062 Unknown interaction.
        self.ack_deadline = ack_deadline
        #: "Interaction tokens are valid for 15 minutes": later, the webhook routes (followups, edits of
        #: the answer) are refused 401 / 50027 Invalid Webhook Token (discord-api-docs issue #6851).
        self.token_lifetime = 15 * 60.0
        #: "All bots can make up to 50 requests per second to our API" (per bot token), except the
        #: interaction endpoints ("not bound to the bot's Global Rate Limit"): more within any second
        #: is refused 429 with ``"global": true``. None: no limit (a benchmark measuring the bot alone).
        self.global_rate_limit: int | None = 50
        #: When each request under the global limit came (monotonic), the last second of them.
        self.global_window: deque[float] = deque()
        #: Requests refused for the global limit.
        self.global_refusals = 0
        #: Per-route limits (see ``ROUTE_LIMITS``); None: none (a benchmark measuring the bot alone).
        self.route_limits: dict[tuple[str, str], tuple[int, float]] | None = ROUTE_LIMITS
        #: The length of the per-route windows, as a share of Discord's. Scripted players click as
        #: soon as the table shows a move, so at Discord's length (5 edits per 5 s) the test suite
        #: would run twice as long: tests keep the limits' shape (the count, the headers, the
        #: refusal) on a fiftieth of the time (at a twenty-fifth, test_games.py took 14 % longer,
        #: CI 10 minutes), and test_games's game at Discord's own pace keeps their length.
        self.route_time_scale = 0.02
        #: Each per-route bucket's window: (method, route, channel id) -> (when it began, requests in it).
        self.route_windows: dict[tuple[str, str, str], tuple[float, int]] = {}
        #: Requests refused for a per-route limit: (method, path).
        self.route_refusals: list[tuple[str, str]] = []
        #: Messages the bot created with ``enforce_nonce``: (channel id, nonce) -> (message id, when).
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        #: "it will be checked for uniqueness in the past few minutes": how many, Discord does not say.
        self.nonce_window = 5 * 60.0
        self.nonce_hits = 0  # creates answered with the message a nonce already made
        self.failures: list[BaseException] = []
        self._cond: asyncio.Condition | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._bg: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ waiting
    @property
    def cond(self) -> asyncio.Condition:
        if self._cond is None:
            self._cond = asyncio.Condition()
            self.loop = asyncio.get_running_loop()
        return self._cond

    async def changed(self) -> None:
        """Wake every waiter (call after each state change)."""
        async with self.cond:
            self.cond.notify_all()

    def changed_soon(self) -> None:
        """Sync variant of :meth:`changed` (schedules the notification; callable from any thread)."""
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or (self.loop is not None and loop is not self.loop):
            if self.loop is not None and not self.loop.is_closed():
                self.loop.call_soon_threadsafe(self.changed_soon)
            return
        task = loop.create_task(self.changed())
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    def fail(self, exc: BaseException) -> None:
        """Record a failure of the bot; every current and future wait raises it."""
        self.failures.append(exc)
        self.changed_soon()

    def raise_if_failed(self) -> None:
        if self.failures:
            first = self.failures[0]
            raise BotCrashed(f"bot under test failed: {first!r}") from first

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "") -> T:
        """Wait until ``predicate()`` is truthy and return its value; raise on timeout or bot failure."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self.cond:
            while True:
                self.raise_if_failed()
                result = predicate()
                if result:
                    return result
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise TimeoutError(f"timed out after {timeout}s waiting for {what or predicate!r}")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.cond.wait(), remaining)

    async def quiet_second(self, timeout: float = 5.0) -> None:
        """Wait until a whole second has passed without a request under the global limit: the bot a
        test restarts in-process takes up where a real restart, which takes seconds, would (it cannot
        know what the bot before it spent of Discord's second, and would otherwise add to it)."""
        window = self.global_window

        def quiet() -> bool:
            if window and window[-1] > time.monotonic() - 1.0:
                # Look again when the newest request leaves the window.
                assert self.loop is not None
                self.loop.call_later(window[-1] + 1.0 - time.monotonic(), self.changed_soon)
                return False
            return True

        await self.wait_for(quiet, timeout, "a second without requests")

    # ------------------------------------------------------------------ world building
    def now(self) -> float:
        """Discord's time (seconds since the epoch): real time, plus however far a test moved the clock."""
        return time.time() + self.clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Let `seconds` pass for Discord at once: tokens and nonces age by as much, new ids are later."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.clock_offset += seconds

    def create_user(
        self, name: str, *, global_name: str | None = None, locale: str = "en-US", dms_closed: bool = False
    ) -> User:
        user = User(self.snowflake(), name, global_name if global_name is not None else name.title(), locale)
        user.dms_closed = dms_closed
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str = "Wizard Guild",
        *,
        owner: User | None = None,
        locale: str = "en-US",
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
    ) -> Guild:
        """Guild with an @everyone role; the bot joins with a managed role of ``bot_permissions``."""
        gid = self.snowflake()
        owner = owner or self.owner_user
        guild = Guild(gid, name, owner.id, locale)
        guild.roles[gid] = Role(gid, gid, "@everyone", everyone_permissions, 0)
        self.guilds[gid] = guild
        bot_role = self.create_role(guild, self.bot_user.name, bot_permissions)
        self.add_member(guild, self.bot_user, roles=[bot_role])
        self.add_member(guild, owner)
        return guild

    def create_role(self, guild: Guild, name: str, permissions: int | discord.Permissions) -> Role:
        if isinstance(permissions, discord.Permissions):
            permissions = permissions.value
        role = Role(self.snowflake(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(
        self, guild: Guild, user: User, *, roles: list[Role] | None = None, nick: str | None = None
    ) -> Member:
        member = Member(user.id, [r.id for r in roles or []], nick)
        guild.members[user.id] = member
        return member

    def create_text_channel(self, guild: Guild, name: str) -> Channel:
        ch = Channel(self.snowflake(), 0, name, guild.id, position=len(guild.channel_ids))
        self.channels[ch.id] = ch
        guild.channel_ids.append(ch.id)
        return ch

    def create_thread(self, parent: Channel, name: str, *, owner: User | None = None) -> Channel:
        """An active public thread (type 11) of text channel ``parent``, started by ``owner`` (the guild owner).

        Made before the bot connects it arrives in GUILD_CREATE's ``threads``; while the bot runs use
        :meth:`open_thread`, which also sends THREAD_CREATE.
        """
        if parent.type != GUILD_TEXT or parent.guild_id is None:
            raise ValueError("a public thread needs a guild text channel as its parent")
        guild = self.guilds[parent.guild_id]
        ch = Channel(self.snowflake(), PUBLIC_THREAD, name, guild.id, parent_id=parent.id)
        ch.owner_id = owner.id if owner is not None else guild.owner_id
        self.channels[ch.id] = ch
        guild.thread_ids.append(ch.id)
        return ch

    def dm_channel_for(self, user: User | int) -> Channel:
        uid = user if isinstance(user, int) else user.id
        cid = self.dm_channels.get(uid)
        if cid is None:
            ch = Channel(self.snowflake(), 1, None, None, recipient_id=uid)
            self.channels[ch.id] = ch
            self.dm_channels[uid] = ch.id
            return ch
        return self.channels[cid]

    def member_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user_id)
        perms = guild.everyone_role.permissions
        if member is not None:
            for rid in member.roles:
                role = guild.roles.get(rid)
                if role is not None:
                    perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    # ------------------------------------------------------------------ permissions in a channel
    def channel_permissions(self, channel: Channel, user_id: int) -> int:
        """What ``user_id`` is granted in a guild channel: Discord's ``compute_permissions`` (Permissions topic).

        Base = @everyone | the member's roles (the owner and ADMINISTRATOR get everything, overwrites
        and all); then the @everyone overwrite; then the member's role overwrites, their denies and
        allows OR-ed together and applied at once; then the member's own overwrite. A thread has no
        overwrites: "Threads inherit permissions from the parent channel". Implicit permissions are
        not applied: this is the value Discord sends as ``app_permissions`` and ``permissions``
        ("This does not include implicit permissions"); :meth:`effective_permissions` applies them.
        """
        if channel.guild_id is None:
            raise ValueError("a DM channel has no guild permissions")
        guild = self.guilds[channel.guild_id]
        base = self.member_permissions(guild, user_id)
        if base & ADMINISTRATOR:
            return ALL_PERMISSIONS  # "ADMINISTRATOR overrides any potential permission overwrites"
        source = self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        overwrites = source.overwrites
        perms = base
        everyone = overwrites.get(guild.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        member = guild.members.get(user_id)
        allow = deny = 0
        for role_id in member.roles if member is not None else []:
            role_ow = overwrites.get(role_id)
            if role_ow is not None and role_ow.type == OVERWRITE_ROLE:
                allow |= role_ow.allow
                deny |= role_ow.deny
        perms = (perms & ~deny) | allow
        own = overwrites.get(user_id)
        if own is not None and own.type == OVERWRITE_MEMBER:
            perms = (perms & ~own.deny) | own.allow
        return perms

    def effective_permissions(self, channel: Channel, user_id: int) -> int:
        """:meth:`channel_permissions` with Discord's implicit permissions: what the API actually lets one do.

        "Denying a user or a role VIEW_CHANNEL on a channel implicitly denies other permissions on the
        channel"; "Denying SEND_MESSAGES implicitly denies MENTION_EVERYONE, SEND_TTS_MESSAGES,
        ATTACH_FILES, and EMBED_LINKS". In a thread SEND_MESSAGES_IN_THREADS plays the part of
        SEND_MESSAGES: "users must have SEND_MESSAGES_IN_THREADS to send a message in a thread".
        """
        perms = self.channel_permissions(channel, user_id)
        if not perms & VIEW_CHANNEL:
            return perms & ~ALL_CHANNEL_PERMISSIONS
        if not perms & self.send_permission(channel):
            perms &= ~IMPLIED_BY_SENDING
        return perms

    @staticmethod
    def send_permission(channel: Channel) -> int:
        """The permission posting a message needs here: SEND_MESSAGES, or in a thread SEND_MESSAGES_IN_THREADS."""
        return SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES

    def can(self, user: User | int, channel: Channel, *names: str | int) -> bool:
        """Whether ``user`` holds every permission ``names`` in ``channel`` (implicit permissions applied)."""
        uid = user if isinstance(user, int) else user.id
        needed = permission_bits(*names)
        return self.effective_permissions(channel, uid) & needed == needed

    def bot_role(self, guild: Guild) -> Role:
        """The role the bot joined ``guild`` with (see :meth:`create_guild`)."""
        return guild.roles[guild.members[self.bot_user.id].roles[0]]

    def visible_threads(self, guild: Guild, user_id: int, parent: Channel | None = None) -> list[Channel]:
        """Active (not archived) threads of ``guild`` (or of ``parent``) that ``user_id`` can view."""
        threads = [self.channels[tid] for tid in guild.thread_ids]
        return [
            t
            for t in threads
            if not t.archived
            and (parent is None or t.parent_id == parent.id)
            and self.channel_permissions(t, user_id) & VIEW_CHANNEL
        ]

    def bot_in(self, guild: Guild) -> bool:
        """Whether the bot is (still) a member of ``guild``."""
        return self.bot_user.id in guild.members

    def shares_a_guild(self, user_id: int) -> bool:
        """Whether the bot and the user are both members of some guild: without one, DMs to them are 50007."""
        return any(self.bot_in(guild) and user_id in guild.members for guild in self.guilds.values())

    # ------------------------------------------------------------------ permission switches (world + gateway)
    async def dispatch_event(self, name: str, data: dict[str, Any], *, intent: int | None = None) -> int:
        """Record a gateway DISPATCH; the server (:class:`DiscordStandin`) also sends it to the bot."""
        self.gateway_events.append((name, data))
        return 0

    async def set_overwrite(
        self,
        channel: Channel,
        target: Role | User | Guild | int,
        *,
        allow: int | Iterable[str] = 0,
        deny: int | Iterable[str] = 0,
    ) -> None:
        """Replace ``channel``'s overwrite for a role (a :class:`Guild` means @everyone) or a member.

        ``allow``/``deny`` are bits or discord.py permission names; both empty removes the overwrite.
        Sends CHANNEL_UPDATE with the new ``permission_overwrites``, as Discord does for "Edit Channel
        Permissions", so the bot's cache keeps computing what Discord computes. A bare ``int`` target
        is a role id when the guild has such a role, else a user id.
        """
        if channel.guild_id is None or channel.is_thread:
            # Threads "inherit permissions from the parent channel": set the parent's overwrites.
            raise ValueError("overwrites belong to a guild channel (for a thread: its parent)")
        guild = self.guilds[channel.guild_id]
        if isinstance(target, Role | Guild):
            tid, ttype = target.id, OVERWRITE_ROLE
        elif isinstance(target, User):
            tid, ttype = target.id, OVERWRITE_MEMBER
        else:
            tid, ttype = target, OVERWRITE_ROLE if target in guild.roles else OVERWRITE_MEMBER
        allow_bits = allow if isinstance(allow, int) else permission_bits(*allow)
        deny_bits = deny if isinstance(deny, int) else permission_bits(*deny)
        if allow_bits & deny_bits:
            raise ValueError("an overwrite cannot both allow and deny the same permission")
        could_view = bool(self.channel_permissions(channel, self.bot_user.id) & VIEW_CHANNEL)
        if allow_bits or deny_bits:
            channel.overwrites[tid] = Overwrite(tid, ttype, allow_bits, deny_bits)
        else:
            channel.overwrites.pop(tid, None)
        await self._channel_permissions_changed(guild, [channel], {channel.id: could_view})

    async def deny_bot(self, channel: Channel, *names: str | int) -> None:
        """Take ``names`` away from the bot in ``channel`` with a member overwrite (it wins over roles)."""
        await self._edit_bot_overwrite(channel, names, grant=False)

    async def allow_bot(self, channel: Channel, *names: str | int) -> None:
        """Give ``names`` to the bot in ``channel`` with a member overwrite (undoing :meth:`deny_bot`)."""
        await self._edit_bot_overwrite(channel, names, grant=True)

    async def _edit_bot_overwrite(self, channel: Channel, names: tuple[str | int, ...], *, grant: bool) -> None:
        bits = permission_bits(*names)
        current = channel.overwrites.get(self.bot_user.id)
        allow, deny = (current.allow, current.deny) if current is not None else (0, 0)
        allow, deny = (allow | bits, deny & ~bits) if grant else (allow & ~bits, deny | bits)
        await self.set_overwrite(channel, self.bot_user, allow=allow, deny=deny)

    async def set_role_permissions(self, role: Role, permissions: int | Iterable[str]) -> None:
        """Set a role's guild-wide permissions and send GUILD_ROLE_UPDATE, as Discord does for "Modify Guild Role"."""
        guild = self.guilds[role.guild_id]
        channels = [self.channels[cid] for cid in guild.channel_ids]
        could_view = {ch.id: bool(self.channel_permissions(ch, self.bot_user.id) & VIEW_CHANNEL) for ch in channels}
        role.permissions = permissions if isinstance(permissions, int) else permission_bits(*permissions)
        await self.dispatch_event(
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}, intent=INTENT_GUILDS
        )
        await self._channel_permissions_changed(guild, [], could_view)

    async def _channel_permissions_changed(
        self, guild: Guild, updated: list[Channel], could_view: dict[int, bool]
    ) -> None:
        for ch in updated:
            await self.dispatch_event("CHANNEL_UPDATE", self.channel_payload(ch), intent=INTENT_GUILDS)
        # "Thread List Sync: Sent when gaining access to a channel, contains all active threads in that channel"
        gained = [
            self.channels[cid]
            for cid, before in could_view.items()
            if not before and self.channel_permissions(self.channels[cid], self.bot_user.id) & VIEW_CHANNEL
        ]
        if gained:
            threads = [t for ch in gained for t in self.visible_threads(guild, self.bot_user.id, ch)]
            data = {
                "guild_id": str(guild.id),
                "channel_ids": [str(ch.id) for ch in gained],
                "threads": [self.channel_payload(t) for t in threads],
                "members": [],
            }
            await self.dispatch_event("THREAD_LIST_SYNC", data, intent=INTENT_GUILDS)
        await self.changed()

    async def open_thread(self, parent: Channel, name: str, *, owner: User | None = None) -> Channel:
        """:meth:`create_thread` while the bot runs: also sends THREAD_CREATE (``newly_created``) if it can see it."""
        thread = self.create_thread(parent, name, owner=owner)
        if self.channel_permissions(thread, self.bot_user.id) & VIEW_CHANNEL:
            data = self.channel_payload(thread)
            data["newly_created"] = True
            await self.dispatch_event("THREAD_CREATE", data, intent=INTENT_GUILDS)
        await self.changed()
        return thread

    # ------------------------------------------------------------------ where a game lives (world + gateway)
    async def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a text channel (with its threads) or a thread.

        Gateway events, "Channel Delete" / "Thread Delete": "Sent when a channel [thread] relevant to the
        current user is deleted"; a thread's carries "just the id, guild_id, parent_id, and type fields".
        Deleting a channel deletes its threads: discord.py drops them from its cache with the channel,
        no THREAD_DELETE each. From then on every request to them is 404 10003 Unknown Channel, and
        nothing can be used there any more.
        """
        if channel.guild_id is None or channel.deleted:
            raise ValueError("only a live guild channel or thread can be deleted")
        guild = self.guilds[channel.guild_id]
        relevant = self.bot_in(guild) and bool(self.channel_permissions(channel, self.bot_user.id) & VIEW_CHANNEL)
        if channel.is_thread:
            guild.thread_ids.remove(channel.id)
            if relevant:
                data = {
                    "id": str(channel.id),
                    "guild_id": str(guild.id),
                    "parent_id": str(channel.parent_id),
                    "type": channel.type,
                }
                await self.dispatch_event("THREAD_DELETE", data, intent=INTENT_GUILDS)
        else:
            payload = self.channel_payload(channel)
            guild.channel_ids.remove(channel.id)
            for tid in [tid for tid in guild.thread_ids if self.channels[tid].parent_id == channel.id]:
                guild.thread_ids.remove(tid)
                self.channels[tid].deleted = True
            if relevant:
                await self.dispatch_event("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)
        channel.deleted = True
        await self.changed()

    async def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked (or banned) from ``guild``: GUILD_DELETE without ``unavailable``.

        Gateway events, "Guild Delete": "If the unavailable field is not set, the user was removed from
        the guild." Afterwards its requests there are 403 50001 Missing Access, a new session's READY no
        longer lists the guild, nothing can be used there, and a DM to a person who shares no other
        server with the bot is 403 50007.
        """
        if not self.bot_in(guild):
            raise ValueError("the bot is not in that guild")
        await self.dispatch_event("GUILD_DELETE", {"id": str(guild.id)}, intent=INTENT_GUILDS)
        del guild.members[self.bot_user.id]
        await self.changed()

    async def guild_outage(self, guild: Guild, *, rest_status: int | None = 503) -> None:
        """``guild`` becomes unavailable (an outage): GUILD_DELETE with ``unavailable: true``.

        Discord documents the events only ("Sent when a guild becomes or was already unavailable due to
        an outage"); meanwhile the stand-in answers the guild's requests with ``rest_status`` (a 5xx:
        Discord failing for now; None: they go through), and nobody can use the bot there. A session
        that identifies during the outage gets GUILD_DELETE for it instead of GUILD_CREATE ("Guilds that
        are unavailable due to an outage will send a Guild Delete event").
        """
        guild.unavailable, guild.outage_status = True, rest_status
        await self.dispatch_event("GUILD_DELETE", {"id": str(guild.id), "unavailable": True}, intent=INTENT_GUILDS)
        await self.changed()

    async def guild_recovers(self, guild: Guild) -> None:
        """The outage is over: GUILD_CREATE ("When a Guild becomes available again to the client")."""
        guild.unavailable, guild.outage_status = False, None
        await self.dispatch_event("GUILD_CREATE", self.guild_payload(guild), intent=INTENT_GUILDS)
        await self.changed()

    async def update_thread(self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None) -> None:
        """A moderator archives, unarchives, locks or unlocks a thread: THREAD_UPDATE with its ``thread_metadata``.

        Threads topic: archived threads take no edits ("Users cannot edit messages ... in archived threads":
        400 50083), and "Sending a message will automatically unarchive the thread, unless the thread has
        been locked"; in a locked thread, users without MANAGE_THREADS "won't be able to create or update
        messages" (160005 Thread is locked).
        """
        if not thread.is_thread or thread.deleted:
            raise ValueError("only a live thread can be archived or locked")
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = iso_now()
        if locked is not None:
            thread.locked = locked
        await self._thread_updated(thread)

    async def _thread_updated(self, thread: Channel) -> None:
        assert thread.guild_id is not None
        guild = self.guilds[thread.guild_id]
        if self.bot_in(guild) and self.channel_permissions(thread, self.bot_user.id) & VIEW_CHANNEL:
            await self.dispatch_event("THREAD_UPDATE", self.channel_payload(thread), intent=INTENT_GUILDS)
        await self.changed()

    # ------------------------------------------------------------------ payloads
    def channel_payload(self, ch: Channel) -> dict[str, Any]:
        if ch.is_dm:
            assert ch.recipient_id is not None
            return {
                "id": str(ch.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.users[ch.recipient_id].payload()],
                "flags": 0,
            }
        if ch.is_thread:
            # The thread object of Discord's Channel resource (its example "Example Thread Channel").
            return {
                "id": str(ch.id),
                "type": ch.type,
                "guild_id": str(ch.guild_id),
                "parent_id": str(ch.parent_id),
                "owner_id": str(ch.owner_id),
                "name": ch.name,
                "last_message_id": None,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": ch.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": ch.archive_timestamp or ch.created_at,
                    "locked": ch.locked,
                    "create_timestamp": ch.created_at,
                },
            }
        return {
            "id": str(ch.id),
            "type": ch.type,
            "guild_id": str(ch.guild_id),
            "name": ch.name,
            "position": ch.position,
            "permission_overwrites": [ow.payload() for ow in ch.overwrites.values()],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }

    def member_payload(self, guild: Guild, user_id: int, *, with_permissions: bool = False) -> dict[str, Any]:
        member = guild.members.get(user_id) or Member(user_id)
        data: dict[str, Any] = {
            "user": self.users[user_id].payload(),
            "roles": [str(r) for r in member.roles],
            "nick": member.nick,
            "avatar": None,
            "banner": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            data["permissions"] = str(self.member_permissions(guild, user_id))
        return data

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "unavailable": False,
            "large": False,
            "member_count": len(guild.members),
            "joined_at": iso_now(),
            "members": [self.member_payload(guild, uid) for uid in guild.members],
            "channels": [self.channel_payload(self.channels[cid]) for cid in guild.channel_ids],
            # "All active threads in the guild that current user has permission to view"
            "threads": [self.channel_payload(t) for t in self.visible_threads(guild, self.bot_user.id)],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ fault switches
    def inject_429(
        self,
        method: str,
        path: str,
        *,
        count: int = 1,
        retry_after: float = 0.05,
        scope: str = "user",
        is_global: bool = False,
    ) -> FaultRule:
        """Answer the next ``count`` matching calls with 429 (``path`` is a regex searched in the path)."""
        rule = FaultRule(
            method.upper(),
            re.compile(path),
            count,
            429,
            retry_after,
            0,
            "You are being rate limited.",
            scope,
            is_global,
        )
        self.faults.append(rule)
        return rule

    def inject_error(
        self, method: str, path: str, *, status: int = 500, count: int = 1, code: int = 0, message: str = "Injected"
    ) -> FaultRule:
        """Answer the next ``count`` matching calls with ``status`` and a Discord-style error body."""
        rule = FaultRule(method.upper(), re.compile(path), count, status, 0.0, code, message)
        self.faults.append(rule)
        return rule

    def hold(self, method: str, path: str, *, count: int = 1, skip: int = 0) -> FaultRule:
        """Keep ``count`` matching requests (after letting ``skip`` through) in flight until
        ``rule.release()`` (a slow Discord), to see what the bot does meanwhile; ``rule.hits`` counts
        those that arrived."""
        rule = FaultRule(method.upper(), re.compile(path), count, 0, held=asyncio.Event(), skip=skip)
        self.faults.append(rule)
        return rule

    def drop(self, method: str, path: str, *, count: int = 1, processed: bool = False, skip: int = 0) -> FaultRule:
        """Close the connection of ``count`` matching requests (after letting ``skip`` through) without
        an answer, as a network failure would: before Discord acted on the request, or with
        ``processed`` after it did."""
        dropped = "after" if processed else "before"
        rule = FaultRule(method.upper(), re.compile(path), count, 0, dropped=dropped, skip=skip)
        self.faults.append(rule)
        return rule

    def take_fault(self, method: str, path: str) -> FaultRule | None:
        for rule in self.faults:
            if rule.remaining > 0 and rule.method in (method, "*") and rule.path.search(path):
                if rule.skip > 0:
                    rule.skip -= 1  # let this one through: the rule is for a later request
                    continue
                rule.remaining -= 1
                rule.hits += 1
                return rule
        return None

    # ------------------------------------------------------------------ views
    def channel_messages(self, channel: Channel | int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Public (non-ephemeral) messages of a channel, oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and m.ephemeral_to is None and (include_deleted or not m.deleted)
        ]

    def dm_messages(self, user: User | int) -> list[StoredMessage]:
        uid = user if isinstance(user, int) else user.id
        cid = self.dm_channels.get(uid)
        return [] if cid is None else self.channel_messages(cid)

    def ephemeral_messages(self, user: User | int, channel: Channel | int | None = None) -> list[StoredMessage]:
        """Ephemeral interaction responses/followups addressed to ``user`` (optionally in one channel)."""
        uid = user if isinstance(user, int) else user.id
        cid = channel if channel is None or isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_to == uid and not m.deleted and (cid is None or m.channel_id == cid)
        ]

    def visible_to(self, user: User | int, channel: Channel | int) -> list[StoredMessage]:
        """What ``user`` sees in ``channel``: public messages plus their own ephemerals, oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        msgs = self.channel_messages(cid) + self.ephemeral_messages(user, cid)
        return sorted(msgs, key=lambda m: m.id)

    def rest_calls(self, method: str | None = None, route: str | None = None, since: float = 0.0) -> list[RestCall]:
        """REST log filtered by method, route template substring and time (``time.monotonic``)."""
        return [
            c
            for c in self.rest_log
            if c.at >= since and (method is None or c.method == method) and (route is None or route in c.route)
        ]

    def unacknowledged(self) -> list[InteractionRecord]:
        return [r for r in self.interactions.values() if not r.acknowledged]

    def slow_acks(self, limit: float = 3.0) -> list[InteractionRecord]:
        return [r for r in self.interactions.values() if r.ack_latency is None or r.ack_latency > limit]
