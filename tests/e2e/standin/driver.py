"""Scripted people (:class:`Driver`) and the harness running a real discord.py client (:func:`run_bot`)."""
# ruff: noqa: ASYNC109  -- waits take an explicit time budget by design (condition waits, never sleeps)

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import logging
import math
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from .server import DiscordStandin
from .state import (
    ADMINISTRATOR,
    DM_APP_PERMISSIONS,
    EPHEMERAL,
    VIEW_CHANNEL,
    Channel,
    Guild,
    InteractionRecord,
    Role,
    StoredMessage,
    User,
)
from .validation import ATTACHMENT_SIZE_LIMIT  # what interactions announce is what uploads are held to

_PARTIAL_CHANNEL_KEYS = frozenset(
    {
        "id",
        "name",
        "type",
        "last_message_id",
        "last_pin_timestamp",
        "nsfw",
        "parent_id",
        "guild_id",
        "flags",
        "rate_limit_per_user",
        "topic",
        "position",
        "thread_metadata",
    }
)


# ---------------------------------------------------------------------- patching & harness
@contextlib.contextmanager
def patched_discord(standin: DiscordStandin) -> Iterator[None]:
    """Point discord.py's REST base (``Route.BASE``) and gateway (``DEFAULT_GATEWAY``) at the stand-in."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = standin.base_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.ws_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


class _ErrorLogHandler(logging.Handler):
    def __init__(self, runner: BotRunner) -> None:
        super().__init__(logging.ERROR)
        self.runner = runner

    def emit(self, record: logging.LogRecord) -> None:
        self.runner.error_records.append(record)
        if self.runner.fail_on_error_logs:
            exc = record.exc_info[1] if record.exc_info else None
            err = AssertionError(f"bot logged an error ({record.name}): {record.getMessage()}")
            err.__cause__ = exc
            self.runner.standin.fail(err)


# Bots running in this process now: the objects the process held before the first of them started
# are set aside from the garbage collector (`gc.freeze`) until the last one stops.
_running = 0


def _freeze_the_process() -> None:
    """Do what `python -m bot` does once logged in: set aside from the garbage collector what the
    process holds, so that a full collection during the test scans only what came later.

    The bot under test shares its process with the test session, whose other tests' data would
    otherwise be scanned by every full collection on the bot's event loop, as a bot process never
    holds it: after tests/engine's recorded games (1.2 million objects, kept for the session) one
    took 0.5-0.9 s on a quiet machine and 2.4 s at a load of 8, and a click waited for it.
    """
    global _running
    if _running == 0:
        gc.freeze()
    _running += 1


def _unfreeze_the_process() -> None:
    global _running
    _running -= 1
    if _running == 0:
        gc.unfreeze()


class BotRunner:
    """Runs ``client`` against ``standin``; a dying client task (or an ERROR log) fails every wait."""

    def __init__(
        self,
        standin: DiscordStandin,
        client: discord.Client,
        *,
        fail_on_error_logs: bool = True,
        capture_loggers: Sequence[str] = ("discord",),
        guild_ready_timeout: float = 0.05,
    ) -> None:
        self.standin = standin
        self.client = client
        self.fail_on_error_logs = fail_on_error_logs
        self.capture_loggers = tuple(capture_loggers)
        self.guild_ready_timeout = guild_ready_timeout
        self.error_records: list[logging.LogRecord] = []
        self.task: asyncio.Task[None] | None = None
        self._handler = _ErrorLogHandler(self)
        self._stopping = False
        self._patch: contextlib.ExitStack = contextlib.ExitStack()

    async def start(self, timeout: float = 5.0) -> None:
        """Patch discord.py, log in, connect and wait for on_ready."""
        self._patch.enter_context(patched_discord(self.standin))
        for name in self.capture_loggers:
            logging.getLogger(name).addHandler(self._handler)
        # discord.py waits guild_ready_timeout (2 s) after the last GUILD_CREATE before on_ready.
        self.client._connection.guild_ready_timeout = self.guild_ready_timeout
        await asyncio.wait_for(self.client.login(self.standin.token), timeout)
        _freeze_the_process()  # after the start-up, where `python -m bot` freezes
        self._patch.callback(_unfreeze_the_process)
        self.task = asyncio.create_task(self.client.connect(reconnect=True), name="bot-under-test")
        self.task.add_done_callback(self._on_task_done)
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait({ready, self.task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            self.standin.raise_if_failed()
            raise TimeoutError(f"bot not ready within {timeout}s")
        self.standin.raise_if_failed()

    def _on_task_done(self, task: asyncio.Task[None]) -> None:
        if self._stopping or task.cancelled():
            return
        exc = task.exception()
        self.standin.fail(exc if exc is not None else RuntimeError("bot client stopped unexpectedly"))

    async def stop(self) -> None:
        """Close the client cleanly, await its task, restore discord.py and logging."""
        self._stopping = True
        try:
            if not self.client.is_closed():
                await self.client.close()
            if self.task is not None:
                try:
                    await asyncio.wait_for(self.task, 5.0)
                except (asyncio.CancelledError, TimeoutError):
                    pass
                except Exception:  # already surfaced through standin.failures
                    pass
        finally:
            for name in self.capture_loggers:
                logging.getLogger(name).removeHandler(self._handler)
            self._patch.close()

    @property
    def error_messages(self) -> list[str]:
        return [r.getMessage() for r in self.error_records]


@contextlib.asynccontextmanager
async def run_bot(
    standin: DiscordStandin,
    client: discord.Client,
    *,
    timeout: float = 5.0,
    fail_on_error_logs: bool = True,
    capture_loggers: Sequence[str] = ("discord",),
) -> AsyncIterator[BotRunner]:
    """``async with run_bot(standin, bot) as runner:`` — bot is logged in, connected and ready inside."""
    runner = BotRunner(standin, client, fail_on_error_logs=fail_on_error_logs, capture_loggers=capture_loggers)
    try:
        await runner.start(timeout)
        yield runner
    finally:
        await runner.stop()


# ---------------------------------------------------------------------- what Discord delivers
# Application command option types (Discord: Application Commands, "Application Command Option Type").
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
#: "INTEGER: Any integer between -2^53+1 and 2^53-1"
INTEGER_LIMIT = 2**53 - 1
#: "NUMBER: Any double between -2^53 and 2^53"
NUMBER_LIMIT = 2**53
#: Interaction context types: where a command may be used (GUILD, BOT_DM; PRIVATE_CHANNEL 2 needs a user install).
CONTEXT_GUILD, CONTEXT_BOT_DM = 0, 1
#: Integration type GUILD_INSTALL: the stand-in's application is installed to servers, not to users.
GUILD_INSTALL = 0
# While a user types into an autocomplete option, Discord sends "partial strings, but not invalid numbers".
_PARTIAL_NUMBER = {INTEGER: re.compile(r"-?\d*"), NUMBER: re.compile(r"-?\d*(\.\d*)?")}
_ENTITY_NAMES = {USER: "user", CHANNEL: "channel", ROLE: "role", MENTIONABLE: "user or role"}


class Undeliverable(AssertionError):
    """A test asked for an interaction Discord would never deliver to the bot (a bug in the test, not the bot)."""


def allowed_contexts(command: dict[str, Any]) -> set[int]:
    """The interaction contexts where Discord offers a synced ``command``.

    ``contexts`` wins when present; without it the deprecated ``dm_permission`` decides ("By default,
    commands are visible" in DMs with the app). discord.py 2.7 sends ``dm_permission: false`` and
    ``contexts: null`` for ``Group(guild_only=True)``, and ``contexts: [0]`` for ``@guild_only()``.
    A guild command exists only in its guild: "Guild commands don't support the BOT_DM interaction context".
    """
    if command.get("guild_id"):
        return {CONTEXT_GUILD}
    integration_types = command.get("integration_types")
    if integration_types is not None and GUILD_INSTALL not in integration_types:
        return set()  # a user-installed command: the stand-in installs its application to servers only
    contexts = command.get("contexts")
    if contexts is not None:
        return {int(c) for c in contexts}
    return {CONTEXT_GUILD} if command.get("dm_permission") is False else {CONTEXT_GUILD, CONTEXT_BOT_DM}


def _check_default_member_permissions(
    command: dict[str, Any], user: User, guild: Guild, payload: dict[str, Any]
) -> None:
    """Refuse a server invocation by a member lacking the command's ``default_member_permissions``.

    "Setting it to "0" will prohibit anyone in a guild from using the command unless a specific overwrite
    is configured or the user has admin permissions"; "Members with the Administrator permission can use
    all commands". Discord reads it on the top-level command only, and not in DMs. The member's
    permissions are those the interaction carries (in the channel, with its overwrites).
    """
    raw = command.get("default_member_permissions")
    if raw is None:
        return
    required = int(raw)
    have = int(payload["member"]["permissions"])
    if user.id == guild.owner_id or have & ADMINISTRATOR:
        return
    if required == 0 or have & required != required:
        lacking = [name for name, on in discord.Permissions(required & ~have) if on] or ["administrator"]
        raise Undeliverable(f"/{command['name']} needs {lacking}, which {user.name} lacks in this channel")


# ---------------------------------------------------------------------- people
def _option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, User):
        return 6
    if isinstance(value, Channel):
        return 7
    if isinstance(value, Role):
        return 8
    return 3


class Driver:
    """Scripts people: slash commands, clicks, selects, modal submits, plain messages; plus their views."""

    def __init__(self, standin: DiscordStandin, *, require_synced: bool = True) -> None:
        self.standin = standin
        #: Invoking a command the bot never synced raises, as Discord offers no such command. Only a bot
        #: under test that never syncs may turn it off; a synced command is always checked against its schema.
        self.require_synced = require_synced

    # -- world helpers (thin forwards)
    def user(self, name: str, **kwargs: Any) -> User:
        return self.standin.create_user(name, **kwargs)

    # -- payload building
    def _base_payload(
        self, user: User, channel: Channel, itype: int, data: dict[str, Any], locale: str | None
    ) -> dict[str, Any]:
        st = self.standin
        payload: dict[str, Any] = {
            "id": str(st.snowflake()),
            "application_id": str(st.application_id),
            "type": itype,
            "token": secrets.token_urlsafe(32),
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": st.channel_payload(channel),
            "locale": locale or user.locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.deleted:
            raise Undeliverable(f"channel {channel.id} was deleted: nothing can be used there any more")
        if channel.guild_id is not None:
            guild = st.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise AssertionError(f"{user.name} is not a member of guild {guild.name}")
            if not st.bot_in(guild):
                raise Undeliverable(f"the bot is no longer in {guild.name}: its commands and buttons are gone there")
            if guild.unavailable:
                raise Undeliverable(f"{guild.name} is unavailable (an outage): nobody can use it now")
            if channel.archived and itype in (2, 4):
                # Threads topic: "Users cannot ... use application commands ... in archived threads".
                raise Undeliverable(f"#{channel.name} is an archived thread: no commands there")
            # Both are computed in this channel, overwrites included, without implicit permissions: the
            # member's "total permissions of the member in the channel, including overwrites" and
            # app_permissions, "the permissions the app has in the source location of the interaction".
            user_permissions = st.channel_permissions(channel, user.id)
            if not user_permissions & VIEW_CHANNEL:
                raise AssertionError(f"{user.name} cannot see #{channel.name}, so cannot use anything there")
            member = st.member_payload(guild, user.id)
            member["permissions"] = str(user_permissions)
            partial = st.channel_payload(channel)
            # An interaction's channel is a partial channel: "Partial Channel objects only have id, name,
            # type, permissions, ..., parent_id, guild_id, flags, rate_limit_per_user, topic and position
            # fields. Threads will also have the thread_metadata field."
            partial = {key: value for key, value in partial.items() if key in _PARTIAL_CHANNEL_KEYS}
            partial["permissions"] = str(user_permissions)
            payload.update(
                channel=partial,
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=member,
                app_permissions=str(st.channel_permissions(channel, st.bot_user.id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            if channel.recipient_id != user.id:
                raise AssertionError(f"{user.name} cannot use DM channel {channel.id}")
            payload.update(
                user=user.payload(),
                app_permissions=str(DM_APP_PERMISSIONS),
                authorizing_integration_owners={"0": str(st.owner_user.id)},
                context=1,
            )
        return payload

    async def _dispatch(
        self,
        payload: dict[str, Any],
        user: User,
        channel: Channel,
        name: str,
        source: StoredMessage | None,
        timeout: float,
    ) -> InteractionRecord:
        st = self.standin
        # A sharded bot's connections come up one by one: wait for the one Discord routes this event to.
        await st.wait_for(lambda: st.gateway_ready_for(channel.guild_id), timeout, "a ready connection of the shard")
        rec = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            name=name,
            payload=payload,
            dispatched_at=time.monotonic(),
            source_message_id=source.id if source is not None else None,
            source_edits=source.edits if source is not None else 0,
            _state=st,
        )
        st.interactions[rec.id] = rec
        st.interactions_by_token[rec.token] = rec
        sent = await st.dispatch_event("INTERACTION_CREATE", payload)
        if not sent:
            raise AssertionError("no gateway connection received the interaction")
        await st.changed()
        return rec

    def _find_command(self, guild: Guild | None, name: str) -> dict[str, Any] | None:
        st = self.standin
        if guild is not None:
            for cmd in st.commands.get(guild.id, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        for cmd in st.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        return None

    def _build_options(
        self,
        schema: list[dict[str, Any]] | None,
        values: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        guild: Guild | None,
        *,
        focused: str | None = None,
        invoker: User | None = None,
    ) -> list[dict[str, Any]]:
        """The options of an invocation as Discord sends them; refuses values Discord validates away.

        Discord checks slash options server-side against the synced schema (type, range, length,
        choices, required), so a value outside it never reaches the bot, whatever the client sends.
        ``focused`` names the option being typed into (an autocomplete interaction).
        """
        st = self.standin
        by_name = {o["name"]: o for o in schema or []}
        if focused is not None and focused not in values:
            raise Undeliverable(f"focused option {focused!r} needs its partial value in the options")
        # "options that are otherwise required might not be present" while the user is still typing
        if schema is not None and focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in values]
            if missing:
                raise Undeliverable(f"required option(s) {missing} missing")
        out: list[dict[str, Any]] = []
        for key, value in values.items():
            spec = by_name.get(key)
            if schema is not None and spec is None:
                raise Undeliverable(f"unknown option {key!r}; the command has {sorted(by_name)}")
            if spec is not None:
                otype = int(spec["type"])
                value = self._option_value(spec, value, guild, focused=key == focused)
            else:
                otype = _option_type(value)
                if isinstance(value, int | str) and not isinstance(value, bool) and str(value).isdigit():
                    ident = int(value)
                    if otype == USER and ident in st.users:
                        value = st.users[ident]
                    elif otype == CHANNEL and ident in st.channels:
                        value = st.channels[ident]
                if key == focused:
                    value = str(value)
            raw: Any = value
            if isinstance(value, User):
                raw = str(value.id)
                resolved.setdefault("users", {})[raw] = value.payload()
                if guild is not None and value.id in guild.members:
                    member = st.member_payload(guild, value.id, with_permissions=True)
                    member.pop("user")
                    resolved.setdefault("members", {})[raw] = member
            elif isinstance(value, Channel):
                raw = str(value.id)
                ch = st.channel_payload(value)
                # A resolved channel carries the invoking user's permissions in it.
                if value.guild_id is not None and invoker is not None:
                    ch["permissions"] = str(st.channel_permissions(value, invoker.id))
                else:
                    ch["permissions"] = str(discord.Permissions.all().value)
                resolved.setdefault("channels", {})[raw] = ch
            elif isinstance(value, Role):
                raw = str(value.id)
                resolved.setdefault("roles", {})[raw] = value.payload()
            entry: dict[str, Any] = {"name": key, "type": otype, "value": raw}
            if key == focused:
                entry["focused"] = True
            out.append(entry)
        return out

    def _option_value(self, spec: dict[str, Any], value: Any, guild: Guild | None, *, focused: bool) -> Any:
        """``value`` as Discord delivers it for the synced option ``spec`` (users, channels and roles resolved)."""
        name, otype = spec["name"], int(spec["type"])
        where = f"option {name!r} (type {otype})"
        if focused:
            # Autocomplete interactions are sent only for options declared with autocomplete, carrying
            # "partial strings, but not invalid numbers".
            if not spec.get("autocomplete"):
                raise Undeliverable(f"{where} has no autocomplete: Discord sends no autocomplete interaction for it")
            text = str(value)
            if otype in _PARTIAL_NUMBER and not _PARTIAL_NUMBER[otype].fullmatch(text):
                raise Undeliverable(f"{where}: {text!r} is not a number being typed")
            return text
        if value is None:
            raise Undeliverable(f"{where}: Discord sends no null option value; leave the option out")
        if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise Undeliverable(f"{where} is a subcommand: name it in the command, not in the options")
        if otype == STRING:
            if not isinstance(value, str):
                raise Undeliverable(f"{where}: {value!r} is not a string")
            low, high = spec.get("min_length"), spec.get("max_length")
            if (low is not None and len(value) < low) or (high is not None and len(value) > high):
                raise Undeliverable(f"{where}: length {len(value)} is outside min_length {low}, max_length {high}")
        elif otype in (INTEGER, NUMBER):
            if otype == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
                raise Undeliverable(f"{where}: {value!r} is not an integer")
            if otype == NUMBER and (not isinstance(value, int | float) or isinstance(value, bool)):
                raise Undeliverable(f"{where}: {value!r} is not a number")
            limit = INTEGER_LIMIT if otype == INTEGER else NUMBER_LIMIT
            if not math.isfinite(value) or not -limit <= value <= limit:
                raise Undeliverable(f"{where}: {value!r} is outside ±{limit}")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise Undeliverable(f"{where}: {value!r} is outside min_value {low}, max_value {high}")
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise Undeliverable(f"{where}: {value!r} is not a boolean")
        elif otype in (USER, CHANNEL, ROLE, MENTIONABLE):
            value = self._option_entity(where, otype, spec, value, guild)
        else:
            raise Undeliverable(f"{where}: the driver cannot send this option type (attachments are not modelled)")
        # "If you specify choices for an option, they are the only valid values for a user to pick";
        # "Options using autocomplete are not confined to only use choices given by the application".
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise Undeliverable(f"{where}: {value!r} is not one of its choices {[c['value'] for c in choices]}")
        return value

    def _option_entity(
        self, where: str, otype: int, spec: dict[str, Any], value: Any, guild: Guild | None
    ) -> User | Channel | Role:
        """The user, channel or role a picker option names (by object or id); only what the picker offers."""
        st = self.standin
        if isinstance(value, int | str) and not isinstance(value, bool) and str(value).isdigit():
            ident = int(value)
            roles = guild.roles if guild is not None else {}
            if otype in (USER, MENTIONABLE) and ident in st.users:
                value = st.users[ident]
            elif otype in (ROLE, MENTIONABLE) and ident in roles:
                value = roles[ident]
            elif otype == CHANNEL and ident in st.channels:
                value = st.channels[ident]
        if isinstance(value, User) and otype in (USER, MENTIONABLE):
            return value
        if isinstance(value, Role) and otype in (ROLE, MENTIONABLE):
            if guild is None or value.guild_id != guild.id:
                raise Undeliverable(f"{where}: role {value.name!r} is not a role of the server the command runs in")
            return value
        if isinstance(value, Channel) and otype == CHANNEL:
            # The channel picker lists the channels of the server the command runs in, of channel_types only.
            if value.guild_id != (guild.id if guild is not None else None):
                raise Undeliverable(f"{where}: channel {value.id} is not in the server the command runs in")
            channel_types = spec.get("channel_types")
            if channel_types and value.type not in channel_types:
                raise Undeliverable(f"{where}: channel type {value.type} is not one of channel_types {channel_types}")
            return value
        raise Undeliverable(f"{where}: {value!r} is not a known {_ENTITY_NAMES[otype]}")

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str | None = None,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Invoke ``/command`` (e.g. ``"wizard start"`` = command ``wizard``, subcommand ``start``)."""
        return await self._command(user, channel, command, options or {}, None, locale, timeout)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        locale: str | None = None,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Type into option ``focused`` (partial value in ``options``); the record's ``choices`` get the answer."""
        return await self._command(user, channel, command, options, focused, locale, timeout)

    async def _command(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: dict[str, Any],
        focused: str | None,
        locale: str | None,
        timeout: float,
    ) -> InteractionRecord:
        st = self.standin
        parts = command.strip().lstrip("/").split()
        guild = st.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        cmd = self._find_command(guild, parts[0])
        if cmd is None and self.require_synced:
            raise Undeliverable(f"/{parts[0]} was never synced by the bot (here: {'DM' if guild is None else 'guild'})")
        if cmd is not None:
            context = CONTEXT_GUILD if guild is not None else CONTEXT_BOT_DM
            if context not in allowed_contexts(cmd):
                where = "in a DM with the bot" if guild is None else "in a server"
                raise Undeliverable(f"/{parts[0]} is not offered {where}: contexts {sorted(allowed_contexts(cmd))}")
        schema: list[dict[str, Any]] | None = cmd.get("options", []) if cmd is not None else None
        resolved: dict[str, dict[str, Any]] = {}
        # descend into subcommand groups / subcommands
        chain: list[tuple[str, int]] = []
        for sub in parts[1:]:
            spec = None
            if schema is not None:
                spec = next((o for o in schema if o["name"] == sub and o.get("type") in (1, 2)), None)
                if spec is None:
                    raise Undeliverable(f"/{command}: no subcommand {sub!r}")
            stype = int(spec["type"]) if spec is not None else (1 if sub == parts[-1] else 2)
            chain.append((sub, stype))
            schema = spec.get("options", []) if spec is not None else None
        # "Using subcommands or subcommand groups will make your base command unusable."
        subcommands = [o["name"] for o in schema or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subcommands:
            raise Undeliverable(f"/{command} cannot be invoked itself; it has subcommands {subcommands}")
        leaf = self._build_options(schema, options, resolved, guild, focused=focused, invoker=user)
        for sub, stype in reversed(chain):
            leaf = [{"name": sub, "type": stype, "options": leaf}]
        data: dict[str, Any] = {
            "id": cmd["id"] if cmd is not None else str(st.snowflake()),
            "name": parts[0],
            "type": 1,
            "options": leaf,
        }
        if cmd is not None and cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        payload = self._base_payload(user, channel, 2 if focused is None else 4, data, locale)
        if cmd is not None and guild is not None:
            _check_default_member_permissions(cmd, user, guild, payload)
        return await self._dispatch(payload, user, channel, " ".join(parts), None, timeout)

    def _message(self, message: StoredMessage | int) -> StoredMessage:
        mid = message if isinstance(message, int) else message.id
        return self.standin.messages[mid]

    async def click(
        self,
        user: User,
        message: StoredMessage | int,
        target: str,
        *,
        values: list[str] | None = None,
        locale: str | None = None,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Click the button (or use the select, with ``values``) whose custom_id or label is ``target``.

        Checks what a real client enforces: the user can see the message, the component exists
        and is not disabled.
        """
        msg = self._message(message)
        if msg.deleted:
            raise AssertionError(f"message {msg.id} was deleted")
        if msg.ephemeral_to is not None and msg.ephemeral_to != user.id:
            raise AssertionError(f"{user.name} cannot see ephemeral message {msg.id}")
        comp = msg.find_component(target)
        if comp is None:
            labels = [(c.get("label"), c.get("custom_id")) for c in msg.all_components() if "custom_id" in c]
            raise AssertionError(f"no component {target!r} on message {msg.id}; has {labels}")
        if comp.get("disabled"):
            raise AssertionError(f"component {target!r} is disabled")
        return await self._component(user, msg, comp["custom_id"], int(comp["type"]), values, locale, timeout)

    async def select(
        self, user: User, message: StoredMessage | int, target: str, values: list[str], **kwargs: Any
    ) -> InteractionRecord:
        """Choose ``values`` in the select menu identified by custom_id or placeholder/label ``target``."""
        msg = self._message(message)
        comp = msg.find_component(target) or next(
            (c for c in msg.all_components() if c.get("placeholder") == target and "custom_id" in c), None
        )
        if comp is None:
            raise AssertionError(f"no select {target!r} on message {msg.id}")
        return await self.click(user, msg, comp["custom_id"], values=values, **kwargs)

    async def click_custom_id(
        self,
        user: User,
        message: StoredMessage | int,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[str] | None = None,
        inject: bool = True,
        locale: str | None = None,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Forge a component interaction with an arbitrary ``custom_id`` (no visibility/disabled checks).

        With ``inject`` the message copy sent along gets that custom_id on its first button (or a
        new row), as a tampering client would need for DynamicItem dispatch to reach the bot.
        """
        msg = self._message(message)
        return await self._component(user, msg, custom_id, component_type, values, locale, timeout, forge=inject)

    async def _component(
        self,
        user: User,
        msg: StoredMessage,
        custom_id: str,
        component_type: int,
        values: list[str] | None,
        locale: str | None,
        timeout: float,
        forge: bool = False,
    ) -> InteractionRecord:
        st = self.standin
        channel = st.channels[msg.channel_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None or component_type in (3, 5, 6, 7, 8):
            data["values"] = list(values or [])
        payload = self._base_payload(user, channel, 3, data, locale)
        message_data: dict[str, Any] = _deepcopy(msg.data)
        if forge and msg.find_component(custom_id) is None:
            injected = False
            for comp in _walk(message_data.get("components") or []):
                if comp.get("type") == component_type and "custom_id" in comp:
                    comp["custom_id"] = custom_id
                    comp.pop("disabled", None)
                    injected = True
                    break
            if not injected:
                message_data.setdefault("components", []).append(
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}]}
                )
        if channel.guild_id is not None:
            message_data["guild_id"] = str(channel.guild_id)
        payload["message"] = message_data
        return await self._dispatch(payload, user, channel, custom_id, msg, timeout)

    async def submit_modal(
        self, user: User, record: InteractionRecord, values: dict[str, str | list[str]], *, timeout: float = 5.0
    ) -> InteractionRecord:
        """Submit the modal the bot opened in ``record`` (values keyed by custom_id or label)."""
        if record.modal is None:
            raise AssertionError(f"interaction {record.name!r} did not open a modal")
        modal = record.modal

        def fill(comp: dict[str, Any], label: str | None) -> dict[str, Any]:
            cid = comp.get("custom_id", "")
            key = cid if cid in values else (label if label in values else comp.get("label"))
            val = values.get(key or "", comp.get("value", ""))
            out: dict[str, Any] = {"type": comp["type"], "custom_id": cid, "id": comp.get("id", 0)}
            if comp["type"] == 4:
                out["value"] = val if isinstance(val, str) else ",".join(val)
            else:
                out["values"] = list(val) if isinstance(val, list) else [val]
            return out

        submitted: list[dict[str, Any]] = []
        for top in modal.get("components") or []:
            if top.get("type") == 1:
                submitted.append({"type": 1, "components": [fill(c, None) for c in top.get("components") or []]})
            elif top.get("type") == 18:
                submitted.append(
                    {"type": 18, "id": top.get("id", 0), "component": fill(top["component"], top.get("label"))}
                )
        channel = self.standin.channels[record.channel_id]
        data = {"custom_id": modal.get("custom_id", ""), "components": submitted}
        payload = self._base_payload(user, channel, 5, data, None)
        source = self.standin.messages.get(record.source_message_id) if record.source_message_id else None
        if source is not None:
            payload["message"] = _deepcopy(source.data)
        return await self._dispatch(payload, user, channel, data["custom_id"], source, timeout)

    async def say(self, user: User, channel: Channel, content: str) -> StoredMessage:
        """``user`` posts a plain message (MESSAGE_CREATE is sent to the bot)."""
        st = self.standin
        if channel.is_dm:
            channel = st.dm_channel_for(user)
        msg = st.create_message(channel, {"content": content}, author=user)
        await st._message_event("MESSAGE_CREATE", msg)
        await st.changed()
        return msg

    # -- views
    def channel_view(self, channel: Channel) -> list[StoredMessage]:
        """Public messages of ``channel`` (what everyone sees), oldest first."""
        return self.standin.channel_messages(channel)

    def dm_view(self, user: User) -> list[StoredMessage]:
        """Messages in ``user``'s DM channel with the bot."""
        return self.standin.dm_messages(user)

    def ephemeral_view(self, user: User, channel: Channel | None = None) -> list[StoredMessage]:
        """Ephemeral messages addressed to ``user`` (optionally only in ``channel``)."""
        return self.standin.ephemeral_messages(user, channel)

    def visible(self, user: User, channel: Channel) -> list[StoredMessage]:
        """Everything ``user`` sees in ``channel``: public + own ephemerals."""
        return self.standin.visible_to(user, channel)

    async def wait_message(
        self,
        predicate: Callable[[StoredMessage], bool],
        *,
        channel: Channel | None = None,
        user: User | None = None,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """Wait for a message matching ``predicate(msg)``; in ``channel`` (public) and/or visible to ``user``."""
        st = self.standin

        def find() -> StoredMessage | None:
            if channel is not None and user is not None:
                pool = st.visible_to(user, channel)
            elif channel is not None:
                pool = st.channel_messages(channel)
            elif user is not None:
                pool = st.dm_messages(user) + st.ephemeral_messages(user)
            else:
                pool = [m for m in st.messages.values() if not m.deleted]
            return next((m for m in pool if predicate(m)), None)

        return await st.wait_for(find, timeout, "a matching message")


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from _walk(comp.get("components") or [])
        if comp.get("accessory"):
            yield comp["accessory"]


def _deepcopy(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


__all__ = ["EPHEMERAL", "BotRunner", "Driver", "Undeliverable", "allowed_contexts", "patched_discord", "run_bot"]
