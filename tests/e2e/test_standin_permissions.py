"""The stand-in computes and enforces channel permissions and threads as Discord does.

Discord's rules quoted here come from its developer documentation: the Permissions topic
("Permission Overwrites", "Implicit Permissions", "Inherited Permissions (Threads)"), the Message
resource (Create / Get / Edit / Delete Message) and the Interaction object (``app_permissions``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.e2e.standin import (
    DM_APP_PERMISSIONS,
    Channel,
    DiscordStandin,
    Driver,
    Guild,
    Overwrite,
    Role,
    StandinState,
    StoredMessage,
    User,
    permission_bits,
    run_bot,
)
from tests.e2e.standin.driver import BotRunner

ROLE, MEMBER = 0, 1


# ---------------------------------------------------------------------- the algorithm
@dataclass(frozen=True)
class Case:
    """A member in a channel: guild-wide role permissions, the channel's overwrites, what they end up with.

    Overwrite targets: "everyone", "role" and "role2" (the member's roles), "other" (a role the member
    lacks), "member" (the member). ``implicit`` checks :meth:`effective_permissions` rather than the
    computed value Discord sends in payloads.
    """

    everyone: tuple[str, ...]
    has: tuple[str, ...]
    lacks: tuple[str, ...]
    role: tuple[str, ...] = ()
    overwrites: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    owner: bool = False
    in_thread: bool = False
    implicit: bool = False


TEXT = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")

CASES = {
    "base is @everyone's permissions": Case(TEXT, has=TEXT, lacks=("manage_messages",)),
    "the member's roles add to @everyone": Case(
        ("view_channel",), role=("send_messages",), has=("view_channel", "send_messages"), lacks=("embed_links",)
    ),
    "an @everyone overwrite denies what a role grants guild-wide": Case(
        ("view_channel",),
        role=("send_messages",),
        overwrites=(("everyone", (), ("send_messages",)),),
        has=("view_channel",),
        lacks=("send_messages",),
    ),
    "an @everyone overwrite allows": Case(
        ("view_channel",), overwrites=(("everyone", ("attach_files",), ()),), has=("attach_files",), lacks=()
    ),
    "a role overwrite allows over an @everyone deny": Case(
        TEXT,
        overwrites=(("everyone", (), ("send_messages",)), ("role", ("send_messages",), ())),
        has=("send_messages",),
        lacks=(),
    ),
    "role overwrites combine: one role's allow beats another's deny": Case(
        TEXT,
        overwrites=(("role", (), ("view_channel",)), ("role2", ("view_channel",), ())),
        has=("view_channel",),
        lacks=(),
    ),
    "an overwrite for a role the member lacks does not apply": Case(
        TEXT, overwrites=(("other", (), ("send_messages",)),), has=("send_messages",), lacks=()
    ),
    "the member overwrite comes last: it denies over a role allow": Case(
        TEXT,
        overwrites=(("role", ("send_messages",), ()), ("member", (), ("send_messages",))),
        has=("view_channel",),
        lacks=("send_messages",),
    ),
    "the member overwrite allows over an @everyone deny": Case(
        TEXT,
        overwrites=(("everyone", (), ("view_channel",)), ("member", ("view_channel",), ())),
        has=("view_channel",),
        lacks=(),
    ),
    "ADMINISTRATOR bypasses every overwrite": Case(
        (),
        role=("administrator",),
        overwrites=(("everyone", (), ("view_channel",)), ("member", (), ("view_channel", "send_messages"))),
        has=("view_channel", "send_messages", "manage_messages", "manage_guild"),
        lacks=(),
    ),
    "the guild owner has every permission, overwrites or not": Case(
        (),
        owner=True,
        overwrites=(("member", (), ("view_channel",)),),
        has=("view_channel", "send_messages", "administrator"),
        lacks=(),
    ),
    "the computed value keeps Send Messages without View Channel (no implicit permissions)": Case(
        TEXT, overwrites=(("member", (), ("view_channel",)),), has=("send_messages",), lacks=("view_channel",)
    ),
    "without View Channel nothing else is left": Case(
        TEXT,
        overwrites=(("member", (), ("view_channel",)),),
        has=(),
        lacks=("view_channel", "send_messages", "read_message_history", "attach_files"),
        implicit=True,
    ),
    "without Send Messages there are no files, embeds or @everyone pings": Case(
        (*TEXT, "mention_everyone"),
        overwrites=(("everyone", (), ("send_messages",)),),
        has=("view_channel", "read_message_history"),
        lacks=("send_messages", "attach_files", "embed_links", "mention_everyone"),
        implicit=True,
    ),
    "a thread takes its parent's overwrites": Case(
        (*TEXT, "send_messages_in_threads"),
        overwrites=(("member", (), ("view_channel",)),),
        has=(),
        lacks=("view_channel",),
        in_thread=True,
    ),
    "in a thread Send Messages in Threads, not Send Messages, carries files and embeds": Case(
        (*TEXT, "send_messages_in_threads"),
        overwrites=(("everyone", (), ("send_messages",)),),
        has=("send_messages_in_threads", "attach_files", "embed_links"),
        lacks=("send_messages",),
        in_thread=True,
        implicit=True,
    ),
    "in a thread without Send Messages in Threads there are no files or embeds": Case(
        TEXT,
        has=("send_messages", "view_channel"),
        lacks=("send_messages_in_threads", "attach_files", "embed_links"),
        in_thread=True,
        implicit=True,
    ),
}


def _case_world(case: Case) -> tuple[StandinState, Channel, User]:
    st = StandinState()
    person = st.create_user("pat")
    guild = st.create_guild(
        "G", owner=person if case.owner else None, everyone_permissions=permission_bits(*case.everyone)
    )
    role = st.create_role(guild, "role", permission_bits(*case.role))
    role2 = st.create_role(guild, "role2", 0)
    other = st.create_role(guild, "other", 0)
    if not case.owner:
        st.add_member(guild, person, roles=[role, role2])
    else:
        guild.members[person.id].roles = [role.id, role2.id]
    channel = st.create_text_channel(guild, "c")
    targets = {"everyone": (guild.id, ROLE), "role": (role.id, ROLE), "role2": (role2.id, ROLE)}
    targets |= {"other": (other.id, ROLE), "member": (person.id, MEMBER)}
    for name, allow, deny in case.overwrites:
        tid, ttype = targets[name]
        channel.overwrites[tid] = Overwrite(tid, ttype, permission_bits(*allow), permission_bits(*deny))
    where = st.create_thread(channel, "t") if case.in_thread else channel
    return st, where, person


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_permission_algorithm(case: Case) -> None:
    st, where, person = _case_world(case)
    value = st.effective_permissions(where, person.id) if case.implicit else st.channel_permissions(where, person.id)
    got = discord.Permissions(value)
    assert [name for name in case.has if not getattr(got, name)] == []
    assert [name for name in case.lacks if getattr(got, name)] == []


# ---------------------------------------------------------------------- the routes, over HTTP
@dataclass
class Http:
    standin: DiscordStandin
    session: aiohttp.ClientSession
    guild: Guild
    channel: Channel
    thread: Channel
    person: User
    bot_message: StoredMessage
    person_message: StoredMessage

    async def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, *, upload: bool = False
    ) -> tuple[int, Any]:
        """A bot-token request; ``upload`` sends ``body`` as multipart with one file, as discord.py does."""
        data: Any = None
        if upload:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}), content_type="application/json")
            form.add_field("files[0]", b"a,b\n1,2\n", filename="scores.csv", content_type="text/csv")
            data = form
        elif body is not None:
            data = json.dumps(body)
        headers = {"Authorization": f"Bot {self.standin.token}"}
        if not upload and body is not None:
            headers["Content-Type"] = "application/json"
        async with self.session.request(method, self.standin.base_url + path, data=data, headers=headers) as resp:
            return resp.status, (await resp.json() if resp.status != 204 else None)


@contextlib.asynccontextmanager
async def http_world() -> AsyncIterator[Http]:
    """A guild with a channel, a thread of it, a member, a message of the bot's and one of the member's."""
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        thread = standin.create_thread(channel, "a game")
        person = standin.create_user("pat")
        standin.add_member(guild, person)
        bot_message = standin.create_message(channel, {"content": "the table"}, author=standin.bot_user)
        person_message = standin.create_message(channel, {"content": "hello"}, author=person)
        async with aiohttp.ClientSession() as session:
            yield Http(standin, session, guild, channel, thread, person, bot_message, person_message)
        assert standin.failures == []


@pytest_asyncio.fixture
async def http() -> AsyncIterator[Http]:
    async with http_world() as world:
        yield world


MISSING_ACCESS = (403, {"message": "Missing Access", "code": 50001})
MISSING_PERMISSIONS = (403, {"message": "Missing Permissions", "code": 50013})
EMBED = {"title": "Round 1"}
EVERYTHING_BUT_VIEW = discord.Permissions.all_channel().value & ~permission_bits("view_channel")


@dataclass(frozen=True)
class Refusal:
    deny: tuple[str, ...]
    method: str
    path: str  # {channel}, {thread}, {bot_message}, {person_message} are filled in
    answer: tuple[int, dict[str, Any]]
    body: dict[str, Any] | None = None
    upload: bool = False


REFUSALS = {
    "post without View Channel": Refusal(
        ("view_channel",), "POST", "/channels/{channel}/messages", MISSING_ACCESS, {"content": "hi"}
    ),
    "post without Send Messages": Refusal(
        ("send_messages",), "POST", "/channels/{channel}/messages", MISSING_PERMISSIONS, {"content": "hi"}
    ),
    "post in a thread without Send Messages in Threads": Refusal(
        ("send_messages_in_threads",), "POST", "/channels/{thread}/messages", MISSING_PERMISSIONS, {"content": "hi"}
    ),
    "post in a thread whose parent the bot cannot see": Refusal(
        ("view_channel",), "POST", "/channels/{thread}/messages", MISSING_ACCESS, {"content": "hi"}
    ),
    "post a file without Attach Files": Refusal(
        ("attach_files",), "POST", "/channels/{channel}/messages", MISSING_PERMISSIONS, {"content": "hi"}, True
    ),
    "reply without Read Message History": Refusal(
        ("read_message_history",),
        "POST",
        "/channels/{channel}/messages",
        MISSING_PERMISSIONS,
        {"content": "hi", "message_reference": {"message_id": "{person_message}"}},
    ),
    "post nothing but an embed without Embed Links": Refusal(
        ("embed_links",), "POST", "/channels/{channel}/messages", MISSING_PERMISSIONS, {"embeds": [EMBED]}
    ),
    "typing without Send Messages": Refusal(
        ("send_messages",), "POST", "/channels/{channel}/typing", MISSING_PERMISSIONS
    ),
    "get the channel without View Channel": Refusal(("view_channel",), "GET", "/channels/{channel}", MISSING_ACCESS),
    "read history without View Channel": Refusal(
        ("view_channel",), "GET", "/channels/{channel}/messages", MISSING_ACCESS
    ),
    "get a message without View Channel": Refusal(
        ("view_channel",), "GET", "/channels/{channel}/messages/{bot_message}", MISSING_ACCESS
    ),
    "get a message without Read Message History": Refusal(
        ("read_message_history",), "GET", "/channels/{channel}/messages/{bot_message}", MISSING_ACCESS
    ),
    "edit its message without View Channel": Refusal(
        ("view_channel",), "PATCH", "/channels/{channel}/messages/{bot_message}", MISSING_ACCESS, {"content": "x"}
    ),
    "edit a file into its message without Attach Files": Refusal(
        ("attach_files",),
        "PATCH",
        "/channels/{channel}/messages/{bot_message}",
        MISSING_PERMISSIONS,
        {"content": "x"},
        True,
    ),
    "delete its message without View Channel": Refusal(
        ("view_channel",), "DELETE", "/channels/{channel}/messages/{bot_message}", MISSING_ACCESS
    ),
    "delete someone else's message without Manage Messages": Refusal(
        (), "DELETE", "/channels/{channel}/messages/{person_message}", MISSING_PERMISSIONS
    ),
}


def _fill(template: str, world: Http) -> str:
    ids = {"channel": world.channel.id, "thread": world.thread.id}
    ids |= {"bot_message": world.bot_message.id, "person_message": world.person_message.id}
    for name, ident in ids.items():
        template = template.replace("{" + name + "}", str(ident))
    return template


@pytest.mark.parametrize("case", REFUSALS.values(), ids=REFUSALS.keys())
async def test_route_refuses_like_discord(http: Http, case: Refusal) -> None:
    st = http.standin
    await st.deny_bot(http.channel, *case.deny)
    before = {m.id: json.dumps(m.data) for m in st.messages.values()}
    body = json.loads(_fill(json.dumps(case.body), http)) if case.body is not None else None
    status, answer = await http.call(case.method, _fill(case.path, http), body, upload=case.upload)
    assert (status, answer) == case.answer
    assert {m.id: json.dumps(m.data) for m in st.messages.values()} == before  # nothing created or changed
    assert not any(m.deleted for m in st.messages.values())


async def test_a_post_with_content_keeps_it_and_drops_the_embeds_without_embed_links(http: Http) -> None:
    await http.standin.deny_bot(http.channel, "embed_links")
    status, data = await http.call(
        "POST", f"/channels/{http.channel.id}/messages", {"content": "hi", "embeds": [EMBED]}
    )
    assert (status, data["content"], data["embeds"]) == (200, "hi", [])
    assert http.standin.messages[int(data["id"])].embeds == []


async def test_an_edit_that_leaves_nothing_without_embed_links_is_an_empty_message(http: Http) -> None:
    await http.standin.deny_bot(http.channel, "embed_links")
    path = f"/channels/{http.channel.id}/messages/{http.bot_message.id}"
    status, data = await http.call("PATCH", path, {"content": None, "embeds": [EMBED]})
    assert (status, data) == (400, {"message": "Cannot send an empty message", "code": 50006})
    assert http.bot_message.content == "the table"


async def test_history_without_read_message_history_is_empty(http: Http) -> None:
    await http.standin.deny_bot(http.channel, "read_message_history")
    assert await http.call("GET", f"/channels/{http.channel.id}/messages") == (200, [])


async def test_editing_its_own_message_needs_only_view_channel(http: Http) -> None:
    await http.standin.deny_bot(http.channel, EVERYTHING_BUT_VIEW)
    path = f"/channels/{http.channel.id}/messages/{http.bot_message.id}"
    status, data = await http.call("PATCH", path, {"content": "round 2"})
    assert (status, data["content"]) == (200, "round 2")


async def test_deleting_its_own_message_needs_only_view_channel(http: Http) -> None:
    await http.standin.deny_bot(http.channel, EVERYTHING_BUT_VIEW)
    assert await http.call("DELETE", f"/channels/{http.channel.id}/messages/{http.bot_message.id}") == (204, None)
    assert http.bot_message.deleted


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(http: Http) -> None:
    await http.standin.deny_bot(http.channel, "send_messages")
    status, data = await http.call("POST", f"/channels/{http.thread.id}/messages", {"content": "your turn"})
    assert (status, data["channel_id"]) == (200, str(http.thread.id))


async def test_a_dm_has_no_guild_permissions(http: Http) -> None:
    # A bot stripped of every guild permission still writes to a person's DM ("DMs closed" is 50007 apart).
    st = http.standin
    await st.set_role_permissions(http.guild.everyone_role, 0)
    await st.set_role_permissions(st.bot_role(http.guild), 0)
    dm = st.dm_channel_for(http.person)
    status, data = await http.call("POST", f"/channels/{dm.id}/messages", {"content": "your hand", "embeds": [EMBED]})
    assert (status, data["embeds"]) == (200, [EMBED])


# ---------------------------------------------------------------------- the gateway keeps the bot's cache true
class PermBot(commands.Bot):
    """Answers ``/perms`` with what discord.py parsed from the interaction, by interaction routes only."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.seen: list[discord.Interaction[Any]] = []

    async def setup_hook(self) -> None:
        @app_commands.command(name="perms", description="Show the permissions")
        async def perms(interaction: discord.Interaction[Any]) -> None:
            self.seen.append(interaction)
            chart = discord.File(io.BytesIO(b"png"), "chart.png")
            await interaction.response.send_message("standings", embed=discord.Embed(title="Final"), file=chart)
            again = discord.File(io.BytesIO(b"png"), "again.png")
            await interaction.followup.send("more", embed=discord.Embed(title="Scores"), file=again)

        self.tree.add_command(perms)
        await self.tree.sync()


@dataclass
class Live:
    standin: DiscordStandin
    driver: Driver
    bot: PermBot
    runner: BotRunner
    guild: Guild
    channel: Channel
    thread: Channel
    hidden_thread: Channel  # in a channel the bot cannot see when it connects
    hidden: Channel
    person: User
    player_role: Role


@pytest_asyncio.fixture
async def live() -> AsyncIterator[Live]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        hidden = standin.create_text_channel(guild, "staff")
        thread = standin.create_thread(channel, "a game")
        hidden_thread = standin.create_thread(hidden, "staff game")
        await standin.deny_bot(hidden, "view_channel")
        person = standin.create_user("pat")
        player_role = standin.create_role(guild, "Players", 0)
        standin.add_member(guild, person, roles=[player_role])
        bot = PermBot()
        async with run_bot(standin, bot) as runner:
            yield Live(
                standin,
                Driver(standin),
                bot,
                runner,
                guild,
                channel,
                thread,
                hidden_thread,
                hidden,
                person,
                player_role,
            )
        assert standin.unknown_routes == []
        assert standin.failures == []


def _cached(live: Live, channel: Channel) -> discord.Permissions:
    guild = live.bot.get_guild(live.guild.id)
    assert guild is not None
    cached = guild.get_channel_or_thread(channel.id)
    assert cached is not None
    return cached.permissions_for(guild.me)


async def _switch_and_wait(live: Live, event: str, switch: Any) -> Any:
    """Run a switch and wait until discord.py has dispatched ``event`` from the gateway event it sent."""
    waiter = asyncio.ensure_future(live.bot.wait_for(event, timeout=5.0))
    await switch
    return await waiter


async def test_guild_create_carries_the_threads_the_bot_can_see(live: Live) -> None:
    guild = live.bot.get_guild(live.guild.id)
    assert guild is not None
    assert [(t.id, t.parent_id, t.type) for t in guild.threads] == [
        (live.thread.id, live.channel.id, discord.ChannelType.public_thread)
    ]


async def test_deny_bot_sends_channel_update_with_the_overwrites(live: Live) -> None:
    await _switch_and_wait(live, "guild_channel_update", live.standin.deny_bot(live.channel, "send_messages"))
    name, data = live.standin.gateway_events[-1]
    assert name == "CHANNEL_UPDATE"
    bot_id, send = str(live.standin.bot_user.id), str(permission_bits("send_messages"))
    assert data["permission_overwrites"] == [{"id": bot_id, "type": MEMBER, "allow": "0", "deny": send}]
    assert not _cached(live, live.channel).send_messages


async def test_allow_bot_gives_back_what_deny_bot_took(live: Live) -> None:
    await _switch_and_wait(live, "guild_channel_update", live.standin.deny_bot(live.channel, "attach_files"))
    await _switch_and_wait(live, "guild_channel_update", live.standin.allow_bot(live.channel, "attach_files"))
    (overwrite,) = live.standin.channel_payload(live.channel)["permission_overwrites"]
    assert (overwrite["allow"], overwrite["deny"]) == (str(permission_bits("attach_files")), "0")
    assert _cached(live, live.channel).attach_files


async def test_a_role_change_sends_guild_role_update(live: Live) -> None:
    st = live.standin
    role = st.bot_role(live.guild)
    await _switch_and_wait(live, "guild_role_update", st.set_role_permissions(role, ["view_channel"]))
    await _switch_and_wait(live, "guild_role_update", st.set_role_permissions(live.guild.everyone_role, 0))
    sent = [data for name, data in st.gateway_events if name == "GUILD_ROLE_UPDATE"]
    gid = str(live.guild.id)
    assert sent == [
        {"guild_id": gid, "role": role.payload()},
        {"guild_id": gid, "role": live.guild.everyone_role.payload()},
    ]
    assert not _cached(live, live.channel).send_messages
    assert _cached(live, live.channel).view_channel


async def test_seeing_a_channel_again_syncs_its_threads(live: Live) -> None:
    joined = await _switch_and_wait(live, "thread_join", live.standin.allow_bot(live.hidden, "view_channel"))
    assert joined.id == live.hidden_thread.id
    name, data = live.standin.gateway_events[-1]
    assert (name, data["channel_ids"]) == ("THREAD_LIST_SYNC", [str(live.hidden.id)])


async def test_open_thread_sends_thread_create(live: Live) -> None:
    created = await _switch_and_wait(live, "thread_create", live.standin.open_thread(live.channel, "rematch"))
    assert (created.name, created.parent_id) == ("rematch", live.channel.id)


SETUPS: dict[str, list[tuple[str, tuple[str, ...], tuple[str, ...]]]] = {
    "bot denied Send Messages": [("bot", (), ("send_messages",))],
    "@everyone denied Embed Links, the bot's role allowed it": [
        ("everyone", (), ("embed_links",)),
        ("bot_role", ("embed_links",), ()),
    ],
    "@everyone denied View Channel": [("everyone", (), ("view_channel",))],
    "bot denied Send Messages in Threads": [("bot", (), ("send_messages_in_threads",))],
    "bot denied Attach Files, @everyone allowed it": [
        ("bot", (), ("attach_files",)),
        ("everyone", ("attach_files",), ()),
    ],
}
CHECKED = ("view_channel", "send_messages", "send_messages_in_threads", "embed_links", "attach_files")


@pytest.mark.parametrize("setup", SETUPS.values(), ids=SETUPS.keys())
@pytest.mark.parametrize("where", ["channel", "thread"])
async def test_discord_py_cache_agrees_with_the_standin(
    live: Live, setup: list[tuple[str, tuple[str, ...], tuple[str, ...]]], where: str
) -> None:
    st = live.standin
    targets: dict[str, Any] = {"bot": st.bot_user, "everyone": live.guild, "bot_role": st.bot_role(live.guild)}
    for target, allow, deny in setup:
        await _switch_and_wait(
            live, "guild_channel_update", st.set_overwrite(live.channel, targets[target], allow=allow, deny=deny)
        )
    place = live.thread if where == "thread" else live.channel
    ours = discord.Permissions(st.effective_permissions(place, st.bot_user.id))
    theirs = _cached(live, place)
    assert {name: getattr(theirs, name) for name in CHECKED} == {name: getattr(ours, name) for name in CHECKED}


# ---------------------------------------------------------------------- interactions
async def test_app_permissions_are_the_bots_in_that_channel(live: Live) -> None:
    st = live.standin
    await _switch_and_wait(live, "guild_channel_update", st.deny_bot(live.channel, "embed_links", "attach_files"))
    rec = await live.driver.slash(live.person, live.channel, "perms")
    await rec.wait_response()
    expected = st.channel_permissions(live.channel, st.bot_user.id)
    assert rec.payload["app_permissions"] == str(expected)
    (seen,) = live.bot.seen
    assert seen.app_permissions.value == expected
    assert not seen.app_permissions.embed_links
    assert seen.app_permissions.send_messages


async def test_member_and_channel_permissions_are_the_invokers_in_that_channel(live: Live) -> None:
    st = live.standin
    await _switch_and_wait(
        live, "guild_channel_update", st.set_overwrite(live.channel, live.player_role, allow=["manage_messages"])
    )
    rec = await live.driver.slash(live.person, live.channel, "perms")
    await rec.wait_response()
    expected = str(st.channel_permissions(live.channel, live.person.id))
    assert (rec.payload["member"]["permissions"], rec.payload["channel"]["permissions"]) == (expected, expected)
    assert "permission_overwrites" not in rec.payload["channel"]  # an interaction's channel is a partial channel
    assert live.bot.seen[0].permissions.manage_messages


async def test_app_permissions_in_a_thread_come_from_the_parent(live: Live) -> None:
    st = live.standin
    await _switch_and_wait(live, "guild_channel_update", st.deny_bot(live.channel, "send_messages_in_threads"))
    rec = await live.driver.slash(live.person, live.thread, "perms")
    await rec.wait_response()
    assert rec.payload["channel"]["thread_metadata"]["archived"] is False
    (seen,) = live.bot.seen
    assert isinstance(seen.channel, discord.Thread)
    assert not seen.app_permissions.send_messages_in_threads


async def test_app_permissions_in_the_bots_dm_are_what_discord_sends_there(live: Live) -> None:
    dm = live.standin.dm_channel_for(live.person)
    rec = await live.driver.slash(live.person, dm, "perms")
    await rec.wait_response()
    assert rec.payload["app_permissions"] == str(DM_APP_PERMISSIONS) == "442368"


async def test_a_person_who_cannot_see_a_channel_cannot_invoke_there(live: Live) -> None:
    await live.standin.set_overwrite(live.channel, live.person, deny=["view_channel"])
    with pytest.raises(AssertionError, match="cannot see"):
        await live.driver.slash(live.person, live.channel, "perms")
    assert live.standin.interactions == {}


async def test_interaction_answers_ignore_the_bots_channel_permissions(live: Live) -> None:
    # Answers and followups are the interaction's webhook, not the bot posting: "Bots respond to slash
    # commands with no permissions in channel" (discord-api-docs #4331), and "applications always have the
    # EMBED_LINKS and ATTACH_FILES permissions when responding to interactions" (#5316).
    st = live.standin
    denied = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
    await _switch_and_wait(live, "guild_channel_update", st.deny_bot(live.channel, *denied))
    rec = await live.driver.slash(live.person, live.channel, "perms")
    answer = await rec.wait_response()
    (followup,) = await rec.wait_followups(1)
    assert (answer.embeds[0]["title"], answer.attachment_names) == ("Final", ["chart.png"])
    assert (followup.embeds[0]["title"], followup.attachment_names) == ("Scores", ["again.png"])
