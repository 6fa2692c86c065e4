"""aiohttp server speaking enough of Discord's REST API and gateway for discord.py 2.7."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

from .errors import DiscordError
from .state import (
    ATTACH_FILES,
    EMBED_LINKS,
    EPHEMERAL,
    LOADING,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    READ_MESSAGE_HISTORY,
    VIEW_CHANNEL,
    Channel,
    FaultRule,
    Guild,
    InteractionRecord,
    RestCall,
    StandinState,
    StoredMessage,
    User,
    iso_now,
    snowflake_time,
)
from .validation import validate_commands, validate_message_body, validate_modal

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

API_PREFIX = "/api/v10"
WS_PATH = "/gateway-ws"
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
#: Gateway docs, Sharding: "Each shard can only support a maximum of 2500 guilds".
MAX_GUILDS_PER_SESSION = 2500
#: Application Commands: "There is a global rate limit of 200 application command creates per day, per guild".
DAILY_COMMAND_CREATES = 200
MENTION_RE = re.compile(r"<@!?(\d+)>")


@dataclass
class Upload:
    filename: str
    data: bytes


BODY_KEY: web.RequestKey[Any] = web.RequestKey("standin_body", object)
FILES_KEY: web.RequestKey[dict[int, Upload]] = web.RequestKey("standin_files", dict)


class StandinBug(RuntimeError):
    """A handler of the stand-in itself crashed (a bug in the test double, not the bot)."""


@dataclass
class GatewayConn:
    ws: web.WebSocketResponse
    session_id: str | None = None
    intents: int = 0
    ready: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: (shard_id, num_shards) sent in IDENTIFY; None: an unsharded session, which gets every event
    shard: tuple[int, int] | None = None

    def gets_guild(self, guild_id: int | None) -> bool:
        """Whether Discord routes an event of ``guild_id`` (None: an event without a guild) to this session.

        Gateway docs, Sharding: "shard_id = (guild_id >> 22) % num_shards"; "Gateway events that do not
        contain a guild_id will only be sent to the first shard (shard_id: 0)".
        """
        if self.shard is None:
            return True
        shard_id, num_shards = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % num_shards == shard_id


def _err(status: int, code: int, message: str) -> DiscordError:
    return DiscordError(status, code, message)


def unknown_message() -> DiscordError:
    return _err(404, 10008, "Unknown Message")


def missing_access() -> DiscordError:
    """The bot cannot see the channel (no View Channel): JSON error code 50001."""
    return _err(403, 50001, "Missing Access")


def missing_permissions() -> DiscordError:
    """The bot sees the channel but lacks a permission the request needs: JSON error code 50013."""
    return _err(403, 50013, "Missing Permissions")


def thread_archived() -> DiscordError:
    """An edit in an archived thread: 50083 ("Tried to perform an operation on an archived thread,
    such as editing a message")."""
    return _err(400, 50083, "Thread is archived")


def thread_locked() -> DiscordError:
    """A post or an edit in a locked thread without Manage Threads: 160005 "Thread is locked". Discord's
    table of codes gives no HTTP status; the stand-in answers 403, the bot reads the code alone."""
    return _err(403, 160005, "Thread is locked")


class DiscordStandin(StandinState):
    """The stand-in: world state (see :class:`StandinState`) plus the HTTP/websocket server.

    Use as ``async with DiscordStandin() as standin:``; point discord.py at it with
    :func:`tests.e2e.standin.driver.patched_discord` (done for you by ``run_bot``).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self.conns: list[GatewayConn] = []
        self._sessions: dict[str, int] = {}  # session id -> last sequence
        self._session_shards: dict[str, tuple[int, int] | None] = {}  # session id -> its IDENTIFY shard
        self.resumes: int = 0
        self.gateway_open = True  # False: the gateway refuses connections (see close_gateway)
        # Every earlier version of an edited message, for the privacy test; a load run turns it off.
        self.keep_history = True
        self._add_routes()

    # ------------------------------------------------------------------ lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{WS_PATH}"

    async def start(self, port: int = 0) -> None:
        """Listen on `port` (0: any free one); a given port lets a bot started earlier find it."""
        self.loop = asyncio.get_running_loop()
        _ = self.cond
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for conn in list(self.conns):
            await conn.ws.close(code=1001)
        for rule in self.faults:
            if rule.held is not None:
                rule.held.set()  # else the server's shutdown waits a minute for the held request
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandin:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ responses
    def _ratelimit_headers(self, route: str) -> dict[str, str]:
        bucket = hashlib.md5(route.encode()).hexdigest()[:16]
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": "49",
            "X-RateLimit-Reset": f"{time.time() + 1.0:.3f}",
            "X-RateLimit-Reset-After": "1.000",
            "X-RateLimit-Bucket": bucket,
        }

    def json_response(self, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        # discord.py only parses JSON when Content-Type is exactly "application/json"
        # (aiohttp's web.json_response would append "; charset=utf-8").
        hdrs = {"Content-Type": "application/json"}
        hdrs.update(headers or {})
        return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)

    def error_response(self, err: DiscordError) -> web.Response:
        body: dict[str, Any] = {"message": err.message, "code": err.code}
        if err.errors:
            body["errors"] = err.errors
        return self.json_response(body, err.status)

    def fault_response(self, rule: FaultRule, route: str) -> web.Response:
        if rule.status == 429:
            headers = self._ratelimit_headers(route)
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
                    "X-RateLimit-Scope": rule.scope,
                    "Retry-After": str(max(1, int(rule.retry_after + 0.999))),
                    "Via": "1.1 google",
                }
            )
            if rule.is_global:
                headers["X-RateLimit-Global"] = "true"
            body = {"message": rule.message, "retry_after": rule.retry_after, "global": rule.is_global, "code": 0}
            return self.json_response(body, 429, headers)
        return self.json_response({"message": rule.message, "code": rule.code}, rule.status)

    # ------------------------------------------------------------------ middleware
    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == WS_PATH:
            return await handler(request)
        method, path = request.method, request.path
        resource = request.match_info.route.resource
        route = resource.canonical if resource is not None else path
        request[BODY_KEY], request[FILES_KEY] = await self._read_body(request)
        response: web.StreamResponse
        code = 0
        rule = None if request.match_info.http_exception is not None else self.take_fault(method, path)
        if rule is not None and rule.held is not None:
            await self.changed()
            await rule.held.wait()
            rule = None
        dropped = rule.dropped if rule is not None else None
        if dropped is not None:
            rule = None
            if dropped == "before":
                return self._drop(request, method, path, route)
        if request.match_info.http_exception is not None:
            self.unknown_routes.append((method, path))
            response = self.json_response({"message": "404: Not Found", "code": 0}, 404)
        elif rule is not None:
            response, code = self.fault_response(rule, route), rule.code
        elif not self._authorized(request, route):
            response = self.json_response({"message": "401: Unauthorized", "code": 0}, 401)
        elif self._over_global_limit(route):
            response = self._global_refusal(route)
        elif (bucket := self._take_route(method, route, request)) is not None and bucket[1]:
            response = self._route_refusal(method, path, bucket[0])
        else:
            try:
                response = await handler(request)
            except DiscordError as err:
                response, code = self.error_response(err), err.code
            except Exception as exc:  # a bug in the stand-in: fail the test loudly
                self.failures.append(StandinBug(f"stand-in handler {method} {route} crashed: {exc!r}"))
                self.failures[-1].__cause__ = exc
                response = self.json_response({"message": "stand-in bug", "code": 0}, 500)
            if bucket is not None:
                response.headers.update(bucket[0])
            if isinstance(response, web.Response) and response.status < 400:
                for key, value in self._ratelimit_headers(route).items():
                    response.headers.setdefault(key, value)
        if dropped == "after":
            return self._drop(request, method, path, route)
        self.rest_log.append(
            RestCall(
                method, path, route, response.status, time.monotonic(), dict(request.query), request[BODY_KEY], code
            )
        )
        await self.changed()
        return response

    def _over_global_limit(self, route: str) -> bool:
        """Whether this request is one too many in the last second for the bot's global limit."""
        if self.global_rate_limit is None or route.startswith(
            (f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")
        ):
            return False
        now = time.monotonic()
        window = self.global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.global_rate_limit:
            return True
        window.append(now)
        return False

    def _take_route(self, method: str, route: str, request: web.Request) -> tuple[dict[str, str], bool] | None:
        """Count this request in its per-route bucket, if its route has one: the bucket's headers
        after it, and whether it is one too many (then it is not counted)."""
        rule = None if self.route_limits is None else self.route_limits.get((method, route))
        if rule is None:
            return None
        limit, per = rule[0], rule[1] * self.route_time_scale
        key = (method, route, request.match_info.get("channel_id", ""))
        now = time.monotonic()
        began, count = self.route_windows.get(key, (now, 0))
        if now >= began + per:
            began, count = now, 0
        over = count >= limit
        if not over:
            count += 1
            self.route_windows[key] = (began, count)
        reset_after = max(0.0, began + per - now)
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": str(limit - count),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.md5(f"{method} {route}".encode()).hexdigest()[:16],
        }
        return headers, over

    def _route_refusal(self, method: str, path: str, headers: dict[str, str]) -> web.Response:
        self.route_refusals.append((method, path))
        retry_after = float(headers["X-RateLimit-Reset-After"])
        headers = headers | {
            "X-RateLimit-Scope": "user",
            "Retry-After": str(max(1, int(retry_after + 0.999))),
            "Via": "1.1 google",
        }
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False, "code": 0}
        return self.json_response(body, 429, headers)

    def _global_refusal(self, route: str) -> web.Response:
        self.global_refusals += 1
        retry_after = max(0.001, self.global_window[0] + 1.0 - time.monotonic())
        rule = FaultRule(
            "*",
            re.compile(""),
            1,
            429,
            retry_after,
            message="You are being rate limited.",
            scope="global",
            is_global=True,
        )
        return self.fault_response(rule, route)

    def _drop(self, request: web.Request, method: str, path: str, route: str) -> web.StreamResponse:
        """Close the connection instead of answering; the log records the call with status 0."""
        self.rest_log.append(RestCall(method, path, route, 0, time.monotonic(), dict(request.query), request[BODY_KEY]))
        self.changed_soon()
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=204)

    def _authorized(self, request: web.Request, route: str) -> bool:
        if route.startswith((f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")):
            return True
        return request.headers.get("Authorization") == f"Bot {self.token}"

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, Upload]]:
        files: dict[int, Upload] = {}
        if not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            body: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                raw = bytes(await part.read())
                if name == "payload_json":
                    body = json.loads(raw.decode())
                elif m := re.fullmatch(r"files\[(\d+)\]", name):
                    files[int(m.group(1))] = Upload(part.filename or f"file{m.group(1)}", raw)
            return body, files
        raw_text = await request.text()
        if not raw_text:
            return None, files
        if ctype == "application/json":
            return json.loads(raw_text), files
        return raw_text, files

    # ------------------------------------------------------------------ routes
    def _add_routes(self) -> None:
        p = API_PREFIX
        r = self.app.router
        r.add_get(WS_PATH, self._gateway)
        r.add_get(f"{p}/gateway", self._get_gateway)
        r.add_get(f"{p}/gateway/bot", self._get_gateway_bot)
        r.add_get(f"{p}/users/@me", self._get_me)
        r.add_get(f"{p}/users/{{user_id:\\d+}}", self._get_user)
        r.add_post(f"{p}/users/@me/channels", self._create_dm)
        r.add_get(f"{p}/oauth2/applications/@me", self._get_application)
        r.add_get(f"{p}/applications/@me", self._get_application)
        for base in (
            f"{p}/applications/{{app_id}}/commands",
            f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands",
        ):
            r.add_put(base, self._put_commands)
            r.add_get(base, self._get_commands)
        emojis = f"{p}/applications/{{app_id}}/emojis"
        r.add_get(emojis, self._list_emojis)
        r.add_post(emojis, self._create_emoji)
        r.add_get(f"{emojis}/{{emoji_id:\\d+}}", self._get_emoji)
        r.add_patch(f"{emojis}/{{emoji_id:\\d+}}", self._modify_emoji)
        r.add_delete(f"{emojis}/{{emoji_id:\\d+}}", self._delete_emoji)
        r.add_get(f"{p}/guilds/{{guild_id}}", self._get_guild)
        r.add_get(f"{p}/guilds/{{guild_id}}/channels", self._get_guild_channels)
        r.add_get(f"{p}/guilds/{{guild_id}}/members/{{user_id}}", self._get_member)
        r.add_get(f"{p}/channels/{{channel_id}}", self._get_channel)
        r.add_post(f"{p}/channels/{{channel_id}}/typing", self._typing)
        r.add_post(f"{p}/channels/{{channel_id}}/messages", self._post_message)
        r.add_get(f"{p}/channels/{{channel_id}}/messages", self._list_messages)
        r.add_get(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._get_message)
        r.add_patch(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._patch_message)
        r.add_delete(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self._delete_message)
        r.add_post(f"{p}/interactions/{{interaction_id}}/{{token}}/callback", self._callback)
        r.add_post(f"{p}/webhooks/{{app_id}}/{{token}}", self._followup)
        wm = f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}"
        r.add_get(wm, self._webhook_get)
        r.add_patch(wm, self._webhook_patch)
        r.add_delete(wm, self._webhook_delete)

    # -- misc
    async def _get_gateway(self, request: web.Request) -> web.Response:
        return self.json_response({"url": self.ws_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1}
        return self.json_response({"url": self.ws_url, "shards": 1, "session_start_limit": limit})

    def _me_payload(self) -> dict[str, Any]:
        data = self.bot_user.payload()
        data.update({"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "bio": ""})
        return data

    async def _get_me(self, request: web.Request) -> web.Response:
        return self.json_response(self._me_payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _err(404, 10013, "Unknown User")
        return self.json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return self.json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner_user.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
            }
        )

    async def _put_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        gid_raw = request.match_info.get("guild_id")
        gid = int(gid_raw) if gid_raw is not None else None
        if gid is not None:
            self._guild(request)
        validate_commands(request[BODY_KEY] or [])
        existing = {c["name"]: c for c in self.commands.get(gid, [])}
        self._count_creates(gid, sum(1 for cmd in request[BODY_KEY] or [] if cmd["name"] not in existing))
        self.command_syncs.append(gid)
        out: list[dict[str, Any]] = []
        for cmd in request[BODY_KEY] or []:
            stored = dict(cmd)
            old = existing.get(cmd["name"])
            stored["id"] = old["id"] if old else str(self.snowflake())
            stored["application_id"] = str(self.application_id)
            stored["version"] = str(self.snowflake())
            stored.setdefault("type", 1)
            stored.setdefault("description", "")
            stored.setdefault("default_member_permissions", None)
            stored.setdefault("nsfw", False)
            if gid is not None:
                stored["guild_id"] = str(gid)
            out.append(stored)
        self.commands[gid] = out
        return self.json_response(out)

    def _count_creates(self, gid: int | None, created: int) -> None:
        """Count `created` new commands in the scope's day, or refuse them all: 400 30034 ("Maximum
        number of daily application command creates has been reached (200)", JSON error codes)."""
        day = self.command_creates.setdefault(gid, deque())
        now = time.monotonic()
        while day and day[0] <= now - 86400:
            day.popleft()
        if len(day) + created > DAILY_COMMAND_CREATES:
            raise _err(
                400,
                30034,
                f"Max number of daily application command creates has been reached ({DAILY_COMMAND_CREATES})",
            )
        day.extend([now] * created)

    async def _get_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        gid_raw = request.match_info.get("guild_id")
        return self.json_response(self.commands.get(int(gid_raw) if gid_raw else None, []))

    # -- the application's emojis (see emojis.py)
    async def _list_emojis(self, request: web.Request) -> web.Response:
        self._check_app(request)
        return self.json_response(self.app_emojis.list())

    async def _get_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        return self.json_response(self.app_emojis.get(int(request.match_info["emoji_id"])).payload())

    async def _create_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        emoji = self.app_emojis.create(self.snowflake(), request[BODY_KEY], self.bot_user.payload())
        await self.changed()
        return self.json_response(emoji.payload(), 201)

    async def _modify_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        emoji = self.app_emojis.rename(int(request.match_info["emoji_id"]), request[BODY_KEY])
        return self.json_response(emoji.payload())

    async def _delete_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        self.app_emojis.delete(int(request.match_info["emoji_id"]))
        await self.changed()
        return web.Response(status=204)

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["app_id"] != str(self.application_id):
            raise _err(403, 50001, "Missing Access")

    def _guild(self, request: web.Request) -> Guild:
        """The guild of a guild route: 10004 if there is none; 50001 once the bot is no longer in it."""
        guild = self.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise _err(404, 10004, "Unknown Guild")
        if not self.bot_in(guild):
            raise missing_access()
        self._check_outage(guild)
        return guild

    @staticmethod
    def _check_outage(guild: Guild) -> None:
        if guild.unavailable and guild.outage_status is not None:
            raise _err(guild.outage_status, 0, "Service Unavailable")

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        data = self.guild_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        return self.json_response(data)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return self.json_response([self.channel_payload(self.channels[c]) for c in guild.channel_ids])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        uid = int(request.match_info["user_id"])
        if uid not in guild.members:
            raise _err(404, 10007, "Unknown Member")
        return self.json_response(self.member_payload(guild, uid))

    async def _create_dm(self, request: web.Request) -> web.Response:
        body = request[BODY_KEY] or {}
        uid = int(body.get("recipient_id", 0))
        if uid not in self.users:
            raise _err(400, 50035, "Invalid Form Body")
        return self.json_response(self.channel_payload(self.dm_channel_for(uid)))

    # -- channels & messages
    def _channel(self, request: web.Request) -> Channel:
        """The channel of a channel route: 10003 if there is none (or it was deleted); 50001 in a guild the
        bot is no longer in; the outage's answer in a guild that is unavailable."""
        ch = self.channels.get(int(request.match_info["channel_id"]))
        if ch is None or ch.deleted:
            raise _err(404, 10003, "Unknown Channel")
        if ch.guild_id is not None:
            guild = self.guilds[ch.guild_id]
            if not self.bot_in(guild):
                raise missing_access()
            self._check_outage(guild)
        return ch

    def _check_thread(self, ch: Channel, *, editing: bool) -> None:
        """A post or an edit in a thread: refused in a locked one without Manage Threads (160005), and an
        edit in an archived one (50083). Threads topic: "Users (including bot users) without the
        MANAGE_THREADS permission ... won't be able to create or update messages in locked threads";
        "Users cannot edit messages ... in archived threads"."""
        if not ch.is_thread:
            return
        if ch.locked and not self._bot_has(ch, MANAGE_THREADS):
            raise thread_locked()
        if editing and ch.archived:
            raise thread_archived()

    async def _unarchive_on_send(self, ch: Channel) -> None:
        """ "Sending a message will automatically unarchive the thread, unless the thread has been locked by
        a moderator": a locked thread only "can be unarchived by a user with the MANAGE_THREADS
        permission", which the stand-in takes to unarchive it by sending (`_check_thread` let the send
        through only then)."""
        if ch.is_thread and ch.archived:
            ch.archived = False
            ch.archive_timestamp = iso_now()
            await self._thread_updated(ch)

    def _require_bot(self, ch: Channel, needed: int = 0) -> None:
        """Refuse a bot-token request in ``ch`` without View Channel (403 50001) or any of ``needed`` (403 50013).

        Permissions are the bot's in that channel with Discord's implicit permissions (a thread takes
        its parent's). A DM has no guild permissions; a closed DM is refused on its own (50007).
        """
        if ch.guild_id is None:
            return
        perms = self.effective_permissions(ch, self.bot_user.id)
        if not perms & VIEW_CHANNEL:
            raise missing_access()
        if perms & needed != needed:
            raise missing_permissions()

    def _bot_has(self, ch: Channel, needed: int) -> bool:
        return ch.guild_id is None or self.can(self.bot_user, ch, needed)

    def _without_unpermitted_embeds(self, ch: Channel, body: dict[str, Any]) -> dict[str, Any] | None:
        """``body`` with its embeds dropped when the bot lacks Embed Links in ``ch``; None when nothing is dropped.

        Discord does not refuse embeds without Embed Links, it drops them (discord-api-docs issues
        #2601, #5648: an edit adding an embed "Ignores embed and calls it 'empty' if you have no
        content or button"); only a new message that was nothing but embeds is refused, 403 50013
        (#2601: "403 'Missing Permissions' ... when you try to send an embed only").
        """
        if not body.get("embeds") or self._bot_has(ch, EMBED_LINKS):
            return None
        return {**body, "embeds": []}

    def _channel_message(self, request: web.Request) -> StoredMessage:
        ch = self._channel(request)
        # Every message route needs the channel in sight first ("requires the VIEW_CHANNEL permission").
        self._require_bot(ch)
        msg = self.messages.get(int(request.match_info["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral_to is not None:
            raise unknown_message()
        return msg

    async def _get_channel(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require_bot(ch)  # a channel the bot cannot see: 50001 Missing Access
        return self.json_response(self.channel_payload(ch))

    async def _typing(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        # Typing shows the bot "is typing" where it could post: it needs what posting needs.
        self._require_bot(ch, self.send_permission(ch))
        return web.Response(status=204)

    async def _post_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if ch.is_dm:
            assert ch.recipient_id is not None
            if self.users[ch.recipient_id].dms_closed:
                raise _err(403, 50007, "Cannot send messages to this user")
            if not self.shares_a_guild(ch.recipient_id):
                # A bot can DM only the people it shares a server with.
                raise _err(403, 50007, "Cannot send messages to this user")
        body = request[BODY_KEY] or {}
        # Create Message, "Limitations": "the current user must have the SEND_MESSAGES permission" (in a
        # thread SEND_MESSAGES_IN_THREADS); uploads need ATTACH_FILES; "When creating a message as a reply
        # to another message, the current user must have the READ_MESSAGE_HISTORY permission".
        self._require_bot(ch, self.send_permission(ch))
        self._check_thread(ch, editing=False)
        if request[FILES_KEY]:
            self._require_bot(ch, ATTACH_FILES)
        if body.get("message_reference") and int(body["message_reference"].get("type") or 0) == 0:
            self._require_bot(ch, READ_MESSAGE_HISTORY)
        validate_message_body(body, creating=True, files=request[FILES_KEY], known_emoji=self.app_emojis.known)
        if (stripped := self._without_unpermitted_embeds(ch, body)) is not None:
            rest = ("content", "components", "sticker_ids", "poll")
            if not request[FILES_KEY] and not any(stripped.get(key) for key in rest):
                raise missing_permissions()
            body = stripped
        # Create Message: "enforce_nonce: If true and nonce is present, it will be checked for uniqueness
        # in the past few minutes. If another message was created by the same author with the same
        # nonce, that message will be returned and no new message will be created."
        key = (ch.id, str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None and key in self.nonces:
            message_id, at = self.nonces[key]
            if self.now() - at <= self.nonce_window and message_id in self.messages:
                self.nonce_hits += 1
                return self.json_response(self.messages[message_id].data)
        msg = self.create_message(ch, body, request[FILES_KEY], author=self.bot_user)
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            self.nonces[key] = (msg.id, self.now())
        await self._unarchive_on_send(ch)
        await self._message_event("MESSAGE_CREATE", msg)
        return self.json_response(msg.data)

    async def _list_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        self._require_bot(ch)
        if not self._bot_has(ch, READ_MESSAGE_HISTORY):
            # "If the current user is missing the READ_MESSAGE_HISTORY permission in the channel, then no
            # messages will be returned."
            return self.json_response([])
        limit = int(request.query.get("limit", "50"))
        msgs = sorted(self.channel_messages(ch), key=lambda m: m.id, reverse=True)
        if "before" in request.query:
            msgs = [m for m in msgs if m.id < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if m.id > int(request.query["after"])]
        return self.json_response([m.data for m in msgs[:limit]])

    async def _get_message(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        # Get Channel Message "requires the current user to have the VIEW_CHANNEL and READ_MESSAGE_HISTORY
        # permissions"; without history Discord answers Missing Access, as for a channel it cannot see.
        self._require_bot(ch)
        if not self._bot_has(ch, READ_MESSAGE_HISTORY):
            raise missing_access()
        return self.json_response(self._channel_message(request).data)

    async def _patch_message(self, request: web.Request) -> web.Response:
        msg = self._channel_message(request)  # the author edits its own message with View Channel alone
        if msg.author_id != self.bot_user.id:
            raise _err(403, 50005, "Cannot edit a message authored by another user")
        ch, body, files = self.channels[msg.channel_id], request[BODY_KEY] or {}, request[FILES_KEY]
        self._check_thread(ch, editing=True)
        if files:
            self._require_bot(ch, ATTACH_FILES)  # new files on an edit are uploads like any other
        if (stripped := self._without_unpermitted_embeds(ch, body)) is not None:
            content = stripped.get("content", msg.content)
            components = stripped.get("components", msg.components)
            kept = stripped.get("attachments", msg.data.get("attachments"))
            if not (content or components or kept or files):
                raise _err(400, 50006, "Cannot send an empty message")
            body = stripped
        self.edit_message(msg, body, files)
        await self._message_event("MESSAGE_UPDATE", msg)
        return self.json_response(msg.data)

    async def _delete_message(self, request: web.Request) -> web.Response:
        msg = self._channel_message(request)
        if msg.author_id != self.bot_user.id:
            ch = self.channels[msg.channel_id]
            if ch.is_dm:
                raise _err(403, 50003, "Cannot execute action on a DM channel")
            # Delete Message: "trying to delete a message that was not sent by the current user, this endpoint
            # requires the MANAGE_MESSAGES permission".
            self._require_bot(ch, MANAGE_MESSAGES)
        await self.delete_message(msg)
        return web.Response(status=204)

    # -- message model
    def _attachments(
        self, spec: list[dict[str, Any]] | None, files: dict[int, Upload], old: list[dict[str, Any]]
    ) -> tuple[list[dict[str, Any]], dict[str, bytes]]:
        old_by_id = {str(a["id"]): a for a in old}
        out: list[dict[str, Any]] = []
        blobs: dict[str, bytes] = {}
        used: set[int] = set()
        entries = spec if spec is not None else [{"id": i} for i in sorted(files)]
        if spec is None:
            out.extend(old)
        for entry in entries:
            key = str(entry.get("id"))
            if key in old_by_id:
                out.append(old_by_id[key])
                continue
            idx = int(key) if key.isdigit() else -1
            upload = files.get(idx)
            if upload is None:
                raise DiscordError(400, 50035, "Invalid Form Body", {"attachments": f"unknown attachment {key}"})
            used.add(idx)
            aid = self.snowflake()
            filename = str(entry.get("filename") or upload.filename)
            url = f"{self.base_url}/attachments/{aid}/{filename}"
            att: dict[str, Any] = {
                "id": str(aid),
                "filename": filename,
                "size": len(upload.data),
                "url": url,
                "proxy_url": url,
                "content_type": "application/octet-stream",
            }
            if entry.get("description"):
                att["description"] = entry["description"]
            out.append(att)
            blobs[filename] = upload.data
        for idx, upload in files.items():
            if idx not in used and spec is not None:
                # Discord attaches uploaded files even when not listed in attachments
                aid = self.snowflake()
                url = f"{self.base_url}/attachments/{aid}/{upload.filename}"
                out.append(
                    {
                        "id": str(aid),
                        "filename": upload.filename,
                        "size": len(upload.data),
                        "url": url,
                        "proxy_url": url,
                    }
                )
                blobs[upload.filename] = upload.data
        return out, blobs

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        ids = {int(m) for m in MENTION_RE.findall(content or "")}
        return [self.users[i].payload() for i in ids if i in self.users]

    def create_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: dict[int, Upload] | None = None,
        *,
        author: User,
        ephemeral_to: int | None = None,
        interaction: InteractionRecord | None = None,
        msg_type: int = 0,
        extra_flags: int = 0,
    ) -> StoredMessage:
        """Store a new message built from a REST body (as the bot would send it)."""
        attachments, blobs = self._attachments(body.get("attachments"), files or {}, [])
        flags = int(body.get("flags") or 0) | extra_flags
        if ephemeral_to is not None:
            flags |= EPHEMERAL
        data: dict[str, Any] = {
            "id": str(self.snowflake()),
            "channel_id": str(channel.id),
            "author": author.payload(),
            "content": body.get("content") or "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(body.get("content") or ""),
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": msg_type,
            "flags": flags,
        }
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": self.users[interaction.user_id].payload(),
                "authorizing_integration_owners": {},
            }
        if body.get("message_reference"):
            data["message_reference"] = body["message_reference"]
        if body.get("nonce") is not None:
            data["nonce"] = body["nonce"]
        msg = StoredMessage(data, ephemeral_to=ephemeral_to, files=blobs)
        if interaction is not None:
            msg.interaction_id = interaction.id
        self.messages[msg.id] = msg
        return msg

    def edit_message(self, msg: StoredMessage, body: dict[str, Any], files: dict[int, Upload] | None = None) -> None:
        """Apply a PATCH body to a stored message (fields absent from the body are kept)."""
        if msg.deleted:
            raise unknown_message()
        validate_message_body(body, creating=False, files=files, existing=msg.data, known_emoji=self.app_emojis.known)
        if self.keep_history:
            msg.history.append(json.loads(json.dumps(msg.data)))
        data = msg.data
        for key in ("content", "embeds", "components"):
            if key in body:
                data[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "content" in body:
            data["mentions"] = self._mentions(data["content"])
        keep = msg.flags & EPHEMERAL
        if "flags" in body and body["flags"] is not None:
            data["flags"] = (int(body["flags"]) & ~LOADING) | keep
        else:
            data["flags"] = msg.flags & ~LOADING
        if "attachments" in body or files:
            attachments, blobs = self._attachments(body.get("attachments"), files or {}, data.get("attachments") or [])
            data["attachments"] = attachments
            kept = {a["filename"] for a in attachments}
            msg.files = {k: v for k, v in msg.files.items() if k in kept}
            msg.files.update(blobs)
        data["edited_timestamp"] = iso_now()
        msg.edits += 1

    async def delete_message(self, msg: StoredMessage) -> None:
        """Delete a message (also usable by tests to simulate a moderator deleting it)."""
        msg.deleted = True
        if msg.ephemeral_to is None:
            ch = self.channels[msg.channel_id]
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(ch.id)}
            if ch.guild_id is not None:
                data["guild_id"] = str(ch.guild_id)
            await self.dispatch_event("MESSAGE_DELETE", data, intent=self._intent_for(ch))
        await self.changed()

    def _intent_for(self, ch: Channel) -> int:
        return INTENT_DIRECT_MESSAGES if ch.is_dm else INTENT_GUILD_MESSAGES

    async def _message_event(self, name: str, msg: StoredMessage) -> None:
        if msg.ephemeral_to is not None:
            return
        ch = self.channels[msg.channel_id]
        data = dict(msg.data)
        if ch.guild_id is not None:
            guild = self.guilds[ch.guild_id]
            data["guild_id"] = str(guild.id)
            if msg.author_id in guild.members:
                member = self.member_payload(guild, msg.author_id)
                member.pop("user")
                data["member"] = member
        await self.dispatch_event(name, data, intent=self._intent_for(ch))

    # -- interactions
    def _interaction(self, request: web.Request, id_key: str | None) -> InteractionRecord:
        rec = self.interactions_by_token.get(request.match_info["token"])
        if rec is None or (id_key is not None and str(rec.id) != request.match_info[id_key]):
            raise _err(404, 10062 if id_key == "interaction_id" else 10015, "Unknown interaction")
        return rec

    async def _callback(self, request: web.Request) -> web.Response:
        rec = self._interaction(request, "interaction_id")
        body = request[BODY_KEY] or {}
        ctype = int(body.get("type", 0))
        if rec.acknowledged:
            rec.rejected_callbacks.append((400, 40060))
            raise _err(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - rec.dispatched_at > self.ack_deadline:
            rec.rejected_callbacks.append((404, 10062))
            raise _err(404, 10062, "Unknown interaction")
        data: dict[str, Any] = body.get("data") or {}
        ch = self.channels[rec.channel_id]
        is_component = rec.type in (3, 5) and rec.source_message_id is not None
        eph_to = rec.user_id if int(data.get("flags") or 0) & EPHEMERAL else None
        resource: dict[str, Any] | None = None
        if ctype == 4:
            validate_message_body(
                data, creating=True, files=request[FILES_KEY], path=("data",), known_emoji=self.app_emojis.known
            )
            msg = self.create_message(
                ch,
                data,
                request[FILES_KEY],
                author=self.bot_user,
                ephemeral_to=eph_to,
                interaction=rec,
                msg_type=20 if rec.type == 2 else 0,
            )
            rec.original_message_id = msg.id
            await self._message_event("MESSAGE_CREATE", msg)
            resource = {"type": 4, "message": msg.data}
        elif ctype == 5:
            msg = self.create_message(
                ch,
                {"content": "", "flags": data.get("flags") or 0},
                author=self.bot_user,
                ephemeral_to=eph_to,
                interaction=rec,
                msg_type=20 if rec.type == 2 else 0,
                extra_flags=LOADING,
            )
            rec.original_message_id = msg.id
            await self._message_event("MESSAGE_CREATE", msg)
        elif ctype in (6, 7):
            if not is_component:
                raise DiscordError(
                    400, 50035, "Invalid Form Body", {"type": f"callback type {ctype} needs a component"}
                )
            assert rec.source_message_id is not None
            src = self.messages.get(rec.source_message_id)
            if src is None or src.deleted:
                raise unknown_message()
            rec.original_message_id = src.id
            if ctype == 7:
                validate_message_body(
                    data,
                    creating=False,
                    files=request[FILES_KEY],
                    existing=src.data,
                    path=("data",),
                    known_emoji=self.app_emojis.known,
                )
                self.edit_message(src, data, request[FILES_KEY])
                await self._message_event("MESSAGE_UPDATE", src)
                resource = {"type": 7, "message": src.data}
        elif ctype == 8:
            if rec.type != 4:
                raise DiscordError(400, 50035, "Invalid Form Body", {"type": "autocomplete result needs type 4"})
            rec.choices = list(data.get("choices") or [])
        elif ctype == 9:
            validate_modal(data)
            rec.modal = data
        else:
            raise DiscordError(400, 50035, "Invalid Form Body", {"type": f"unsupported callback type {ctype}"})
        rec.callback_types.append(ctype)
        rec.acked_at = time.monotonic()
        orig = rec.original
        inter: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(orig is not None and orig.ephemeral),
        }
        if orig is not None:
            inter["response_message_id"] = str(orig.id)
        out: dict[str, Any] = {"interaction": inter}
        if resource is not None:
            out["resource"] = resource
        return self.json_response(out)

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        if request.match_info["app_id"] != str(self.application_id):
            raise _err(404, 10015, "Unknown Webhook")
        rec = self.interactions_by_token.get(request.match_info["token"])
        if rec is None or not rec.acknowledged:
            raise _err(404, 10015, "Unknown Webhook")
        # The token's age: since the interaction was dispatched (a test may date that back), or since it
        # was made as its id says, on the clock a test may move (`advance_clock`).
        age = max(time.monotonic() - rec.dispatched_at, self.now() - snowflake_time(rec.id))
        if age > self.token_lifetime:
            raise _err(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_message(self, request: web.Request, rec: InteractionRecord) -> StoredMessage:
        raw = request.match_info["message_id"]
        mid = rec.original_message_id if raw == "@original" else (int(raw) if raw.isdigit() else None)
        if mid is None or (mid != rec.original_message_id and mid not in rec.followup_ids):
            raise unknown_message()
        msg = self.messages.get(mid)
        if msg is None or msg.deleted:
            raise unknown_message()
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        body = request[BODY_KEY] or {}
        orig = rec.original
        if orig is not None and orig.loading and rec.callback_types and rec.callback_types[0] == 5 and not orig.deleted:
            # After a "thinking" defer the first followup replaces the placeholder.
            validate_message_body(body, creating=True, files=request[FILES_KEY], known_emoji=self.app_emojis.known)
            self.edit_message(orig, body, request[FILES_KEY])
            await self._message_event("MESSAGE_UPDATE", orig)
            msg = orig
        else:
            validate_message_body(body, creating=True, files=request[FILES_KEY], known_emoji=self.app_emojis.known)
            eph_to = rec.user_id if int(body.get("flags") or 0) & EPHEMERAL else None
            msg = self.create_message(
                self.channels[rec.channel_id],
                body,
                request[FILES_KEY],
                author=self.bot_user,
                ephemeral_to=eph_to,
                interaction=rec,
            )
            rec.followup_ids.append(msg.id)
            await self._message_event("MESSAGE_CREATE", msg)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return self.json_response(msg.data)
        return web.Response(status=204)

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        return self.json_response(self._webhook_message(request, rec).data)

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        msg = self._webhook_message(request, rec)
        self.edit_message(msg, request[BODY_KEY] or {}, request[FILES_KEY])
        await self._message_event("MESSAGE_UPDATE", msg)
        return self.json_response(msg.data)

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._webhook_record(request)
        await self.delete_message(self._webhook_message(request, rec))
        return web.Response(status=204)

    # ------------------------------------------------------------------ gateway
    @property
    def gateway_ready(self) -> bool:
        return any(c.ready and not c.ws.closed for c in self.conns)

    def gateway_ready_for(self, guild_id: int | None) -> bool:
        """Whether a ready connection would receive an event of ``guild_id`` (None: without a guild)."""
        return any(c.ready and not c.ws.closed and c.gets_guild(guild_id) for c in self.conns)

    async def _send(self, conn: GatewayConn, payload: dict[str, Any]) -> None:
        async with conn.lock:
            if not conn.ws.closed:
                await conn.ws.send_str(json.dumps(payload))

    async def _send_dispatch(self, conn: GatewayConn, name: str, data: Any) -> None:
        assert conn.session_id is not None
        seq = self._sessions[conn.session_id] = self._sessions.get(conn.session_id, 0) + 1
        await self._send(conn, {"op": 0, "t": name, "s": seq, "d": data})

    async def dispatch_event(self, name: str, data: dict[str, Any], *, intent: int | None = None) -> int:
        """Send a DISPATCH to every ready connection of the event's shard (filtered by intent); returns how many got it.

        The event's guild is its ``guild_id`` (a guild's own events, GUILD_*, carry it as ``id``); an event
        without one (a DM message, an interaction in a DM) goes to shard 0 only.
        """
        self.gateway_events.append((name, data))
        raw_guild = data.get("guild_id") or (data.get("id") if name.startswith("GUILD_") else None)
        guild_id = int(raw_guild) if raw_guild is not None else None
        guild = self.guilds.get(guild_id) if guild_id is not None else None
        if guild is not None and name != "GUILD_DELETE" and (not self.bot_in(guild) or guild.unavailable):
            return 0  # nothing more of a server the bot left, or that is down, until it is back
        sent = 0
        for conn in list(self.conns):
            if conn.ready and (intent is None or conn.intents & intent) and conn.gets_guild(guild_id):
                await self._send_dispatch(conn, name, data)
                sent += 1
        return sent

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs."""
        for conn in list(self.conns):
            conn.ready = False
            await self._send(conn, {"op": 7, "d": None})
        await self.changed()

    async def close_gateway(self) -> None:
        """The gateway goes down: connections are dropped (1001) and new ones refused until `open_gateway`."""
        self.gateway_open = False
        for conn in list(self.conns):
            await conn.ws.close(code=1001)

    def open_gateway(self) -> None:
        self.gateway_open = True

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if not self.gateway_open:
            return web.Response(status=503, text="gateway down")
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = GatewayConn(ws)
        self.conns.append(conn)
        try:
            await self._send(conn, {"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                await self._gateway_op(conn, payload.get("op"), payload.get("d"))
        finally:
            conn.ready = False
            self.conns.remove(conn)
            await self.changed()
        return ws

    async def _gateway_op(self, conn: GatewayConn, op: int, d: Any) -> None:
        if op == 1:
            await self._send(conn, {"op": 11})
        elif op == 2:
            self.identify_payloads.append(d)
            if d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = d.get("shard")
            if shard is not None:
                # "You sent us an invalid shard when identifying" (close code 4010): [shard_id, num_shards]
                # with 0 <= shard_id < num_shards.
                valid = (
                    isinstance(shard, list)
                    and len(shard) == 2
                    and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
                    and 0 <= shard[0] < shard[1]
                )
                if not valid:
                    await conn.ws.close(code=4010, message=b"Invalid shard.")
                    return
                conn.shard = (shard[0], shard[1])
            # "guilds are the guilds of which your bot is a member": not those it was removed from.
            guilds = [guild for guild in self.guilds.values() if conn.gets_guild(guild.id) and self.bot_in(guild)]
            if len(guilds) > MAX_GUILDS_PER_SESSION:
                # "Each shard can only support a maximum of 2500 guilds": close code 4011 Sharding required.
                await conn.ws.close(code=4011, message=b"Sharding required.")
                return
            conn.intents = int(d.get("intents", 0))
            conn.session_id = secrets.token_hex(16)
            self._sessions[conn.session_id] = 0
            self._session_shards[conn.session_id] = conn.shard
            ready: dict[str, Any] = {
                "v": 10,
                "user": self._me_payload(),
                "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
                "session_id": conn.session_id,
                "resume_gateway_url": self.ws_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
            }
            if "shard" in d:
                ready["shard"] = d["shard"]
            await self._send_dispatch(conn, "READY", ready)
            for guild in guilds:
                if guild.unavailable:
                    # "Guilds that are unavailable due to an outage will send a Guild Delete event."
                    await self._send_dispatch(conn, "GUILD_DELETE", {"id": str(guild.id), "unavailable": True})
                else:
                    await self._send_dispatch(conn, "GUILD_CREATE", self.guild_payload(guild))
            conn.ready = True
            await self.changed()
        elif op == 6:
            sid = d.get("session_id")
            if sid not in self._sessions:
                await self._send(conn, {"op": 9, "d": False})
                return
            conn.session_id = sid
            conn.shard = self._session_shards.get(sid)
            conn.intents = next((int(p.get("intents", 0)) for p in self.identify_payloads[::-1]), 0)
            await self._send_dispatch(conn, "RESUMED", {})
            self.resumes += 1
            conn.ready = True
            await self.changed()
        elif op == 8:
            gid = int(d["guild_id"])
            chunk_guild = self.guilds.get(gid)
            if chunk_guild is not None and conn.gets_guild(gid):
                guild = chunk_guild
                chunk = {
                    "guild_id": str(gid),
                    "members": [self.member_payload(guild, uid) for uid in guild.members],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "presences": [],
                }
                if d.get("nonce"):
                    chunk["nonce"] = d["nonce"]
                await self._send_dispatch(conn, "GUILD_MEMBERS_CHUNK", chunk)
        # op 3 presence / 4 voice state etc.: accepted and ignored
