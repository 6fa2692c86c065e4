"""Scripted people (:class:`Driver`) and the harness running a real discord.py client (:func:`run_bot`)."""
# ruff: noqa: ASYNC109  -- waits take an explicit time budget by design (condition waits, never sleeps)

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from .server import DiscordStandin
from .state import EPHEMERAL, Channel, Guild, InteractionRecord, Role, StoredMessage, User

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


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

    def __init__(self, standin: DiscordStandin, *, require_synced: bool = False) -> None:
        self.standin = standin
        #: if True, invoking a command that the bot never synced raises (as it would for a real user)
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
        if channel.guild_id is not None:
            guild = st.guilds[channel.guild_id]
            if user.id not in guild.members:
                raise AssertionError(f"{user.name} is not a member of guild {guild.name}")
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": guild.locale, "features": []},
                guild_locale=guild.locale,
                member=st.member_payload(guild, user.id, with_permissions=True),
                app_permissions=str(st.member_permissions(guild, st.bot_user.id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            if channel.recipient_id != user.id:
                raise AssertionError(f"{user.name} cannot use DM channel {channel.id}")
            payload.update(
                user=user.payload(),
                app_permissions=str(discord.Permissions(send_messages=True, embed_links=True, attach_files=True).value),
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
        await st.wait_for(lambda: st.gateway_ready, timeout, "a ready gateway connection")
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
        check_required: bool = True,
    ) -> list[dict[str, Any]]:
        st = self.standin
        by_name = {o["name"]: o for o in schema or []}
        if schema is not None and check_required:
            for opt in schema:
                if opt.get("required") and opt["name"] not in values:
                    raise AssertionError(f"required option {opt['name']!r} missing")
        out: list[dict[str, Any]] = []
        for key, value in values.items():
            spec = by_name.get(key)
            if schema is not None and spec is None:
                raise AssertionError(f"unknown option {key!r}; command has {sorted(by_name)}")
            otype = int(spec["type"]) if spec is not None else _option_type(value)
            if spec is not None and spec.get("choices"):
                allowed = [c["value"] for c in spec["choices"]]
                if value not in allowed:
                    raise AssertionError(f"{value!r} is not a choice of {key!r}: {allowed}")
            if isinstance(value, int | str) and not isinstance(value, bool) and str(value).isdigit():
                ident = int(value)
                if otype == 6 and ident in st.users:
                    value = st.users[ident]
                elif otype == 7 and ident in st.channels:
                    value = st.channels[ident]
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
                ch["permissions"] = str(discord.Permissions.all().value)
                resolved.setdefault("channels", {})[raw] = ch
            elif isinstance(value, Role):
                raw = str(value.id)
                resolved.setdefault("roles", {})[raw] = value.payload()
            out.append({"name": key, "type": otype, "value": raw})
        return out

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
            raise AssertionError(f"/{parts[0]} was never synced by the bot")
        schema: list[dict[str, Any]] | None = cmd.get("options", []) if cmd is not None else None
        resolved: dict[str, dict[str, Any]] = {}
        # descend into subcommand groups / subcommands
        chain: list[tuple[str, int]] = []
        for sub in parts[1:]:
            spec = None
            if schema is not None:
                spec = next((o for o in schema if o["name"] == sub and o.get("type") in (1, 2)), None)
                if spec is None:
                    raise AssertionError(f"/{command}: no subcommand {sub!r}")
            stype = int(spec["type"]) if spec is not None else (1 if sub == parts[-1] else 2)
            chain.append((sub, stype))
            schema = spec.get("options", []) if spec is not None else None
        leaf = self._build_options(schema, options, resolved, guild, check_required=focused is None)
        for opt in leaf:
            if opt["name"] == focused:
                opt["focused"] = True
                opt["value"] = str(opt["value"])
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


__all__ = ["EPHEMERAL", "BotRunner", "Driver", "patched_discord", "run_bot"]
