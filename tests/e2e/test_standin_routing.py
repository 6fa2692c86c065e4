"""What reaches the bot at all: commands Discord offers, option values it lets through, events per shard.

Discord validates a slash command against the schema the bot synced before it delivers anything: where
the command is offered (``contexts``, ``dm_permission``, ``integration_types``), who may use it
(``default_member_permissions``), and every option value (type, range, length, choices). The driver
refuses what Discord would not deliver (:class:`Undeliverable`: a bug in the test, never in the bot).

The gateway routes each event to one shard: "shard_id = (guild_id >> 22) % num_shards", and "Gateway
events that do not contain a guild_id will only be sent to the first shard" (Discord, Gateway: Sharding).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from bot.client import make_bot
from bot.manager import GameManager
from bot.settings import Settings, shard_of
from tests.e2e._play import action_buttons
from tests.e2e.conftest import World
from tests.e2e.standin import Channel, DiscordStandin, Driver, Guild, Role, StoredMessage, User, run_bot
from tests.e2e.standin.driver import Undeliverable
from tests.e2e.standin.server import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, GatewayConn

pytestmark = pytest.mark.asyncio

FRUITS = ("apple", "apricot", "banana")


# ---------------------------------------------------------------------- a bot declaring every kind of rule
async def answer(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("ok", ephemeral=True)


def declare(tree: app_commands.CommandTree[Any]) -> None:
    """Commands as discord.py 2.7 declares (and syncs) them, one rule of Discord's each."""

    @tree.command(name="anywhere", description="Offered in servers and in DMs with the bot")
    async def anywhere(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    @tree.command(name="serveronly", description="guild_only(): contexts [0]")
    @app_commands.guild_only()
    async def serveronly(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    @tree.command(name="dmonly", description="allowed_contexts(dms=True): contexts [1]")
    @app_commands.allowed_contexts(guilds=False, dms=True)
    async def dmonly(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    @tree.command(name="userapp", description="allowed_installs(users=True): integration_types [1]")
    @app_commands.allowed_installs(guilds=False, users=True)
    async def userapp(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    club = app_commands.Group(name="club", description="Group(guild_only=True): dm_permission false", guild_only=True)

    @club.command(name="join", description="A subcommand of a server-only group")
    async def join(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    tree.add_command(club)

    staff = app_commands.Group(
        name="staff",
        description="Manage Server, on the group",
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @staff.command(name="reset", description="A subcommand: Discord reads the group's permissions")
    async def reset(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    tree.add_command(staff)

    @tree.command(name="manage", description="default_permissions(manage_guild=True)")
    @app_commands.default_permissions(manage_guild=True)
    async def manage(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    @tree.command(name="adminonly", description='default_permissions(): "0", administrators only')
    @app_commands.default_permissions()
    async def adminonly(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction)

    @tree.command(name="values", description="One option of each type")
    @app_commands.choices(
        colour=[app_commands.Choice(name="red", value="red"), app_commands.Choice(name="blue", value="blue")]
    )
    async def values(
        interaction: discord.Interaction[Any],
        text: app_commands.Range[str, 2, 5] | None = None,
        count: app_commands.Range[int, 1, 10] | None = None,
        big: int | None = None,
        ratio: app_commands.Range[float, 0.5, 2.0] | None = None,
        amount: float | None = None,
        flag: bool | None = None,
        who: discord.User | None = None,
        room: discord.TextChannel | None = None,
        role: discord.Role | None = None,
        target: discord.User | discord.Role | None = None,
        colour: str | None = None,
    ) -> None:
        await answer(interaction)

    @tree.command(name="needs", description="A required option")
    async def needs(interaction: discord.Interaction[Any], word: str) -> None:
        await answer(interaction)

    @tree.command(name="fruit", description="Autocomplete")
    async def fruit(interaction: discord.Interaction[Any], name: str, size: int | None = None, note: str = "") -> None:
        await answer(interaction)

    @fruit.autocomplete("name")
    async def names(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current)]

    @fruit.autocomplete("size")
    async def sizes(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name="one", value=1)]


class RuleBot(commands.Bot):
    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(command_prefix="!", intents=intents)

    async def setup_hook(self) -> None:
        declare(self.tree)
        await self.tree.sync()


@dataclass
class Gate:
    standin: DiscordStandin
    driver: Driver
    guild: Guild
    channel: Channel
    member: User  # no permission beyond @everyone's
    manager: User  # Manage Server
    admin: User  # Administrator
    owner: User  # owns the server
    role: Role
    other_channel: Channel  # in another server
    other_role: Role  # of another server
    voice: Channel  # a voice channel (type 2) of the server

    def dm(self, user: User) -> Channel:
        return self.standin.dm_channel_for(user)


@pytest_asyncio.fixture
async def gate() -> AsyncIterator[Gate]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Rules")
        channel = standin.create_text_channel(guild, "general")
        managers = standin.create_role(guild, "Managers", discord.Permissions(manage_guild=True))
        admins = standin.create_role(guild, "Admins", discord.Permissions(administrator=True))
        member, manager, admin = (standin.create_user(name) for name in ("mia", "max", "ada"))
        standin.add_member(guild, member)
        standin.add_member(guild, manager, roles=[managers])
        standin.add_member(guild, admin, roles=[admins])
        other = standin.create_guild("Elsewhere")
        other_channel = standin.create_text_channel(other, "elsewhere")
        other_role = standin.create_role(other, "Strangers", 0)
        # Known to the stand-in only (not in the server's channel list): what a test might pick by mistake.
        voice = Channel(standin.snowflake(), 2, "voice", guild.id)
        standin.channels[voice.id] = voice
        async with run_bot(standin, RuleBot()):
            yield Gate(
                standin,
                Driver(standin),
                guild,
                channel,
                member,
                manager,
                admin,
                standin.owner_user,
                managers,
                other_channel,
                other_role,
                voice,
            )
        assert standin.failures == []
        assert standin.unknown_routes == []


Options = Callable[[Gate], dict[str, Any]]


@dataclass(frozen=True)
class Invocation:
    who: str  # member, manager, admin or owner
    where: str  # "server" (the server's channel) or "dm" (the person's DM with the bot)
    command: str
    options: Options = lambda g: {}
    focused: str | None = None

    async def send(self, g: Gate) -> Any:
        user: User = getattr(g, self.who)
        channel = g.channel if self.where == "server" else g.dm(user)
        if self.focused is None:
            return await g.driver.slash(user, channel, self.command, self.options(g))
        return await g.driver.autocomplete(user, channel, self.command, self.options(g), self.focused)


def refused(
    label: str, reason: str, who: str, where: str, command: str, options: Options = lambda g: {}, **kw: Any
) -> Any:
    return pytest.param(reason, Invocation(who, where, command, options, **kw), id=label)


def bad(label: str, reason: str, options: Options, command: str = "values", focused: str | None = None) -> Any:
    """A member invoking ``command`` in the server's channel with options Discord would not let through."""
    return refused(label, reason, "member", "server", command, options, focused=focused)


REFUSED = [
    # Where Discord offers a command.
    refused("guild_only() in a DM", "not offered in a DM", "member", "dm", "serveronly"),
    refused("Group(guild_only=True) in a DM", "not offered in a DM", "member", "dm", "club join"),
    refused("DM-only in a server", "not offered in a server", "member", "server", "dmonly"),
    refused("user-installed in a server", "not offered in a server", "member", "server", "userapp"),
    refused("user-installed in a DM", "not offered in a DM", "member", "dm", "userapp"),
    refused("never synced", "never synced", "member", "server", "nosuch"),
    refused("a group itself", "has subcommands", "member", "server", "club"),
    refused("an unknown subcommand", "no subcommand", "member", "server", "club leave"),
    refused("a subcommand of a plain command", "no subcommand", "member", "server", "anywhere extra"),
    # Who may use it: default_member_permissions, read on the top-level command.
    refused("Manage Server, member", r"needs \['manage_guild'\]", "member", "server", "manage"),
    refused("Manage Server group, member", r"needs \['manage_guild'\]", "member", "server", "staff reset"),
    refused("administrators only, manager", r"needs \['administrator'\]", "manager", "server", "adminonly"),
    # Option names and values: a member in the server's channel, unless said otherwise.
    bad("unknown option", "unknown option 'nope'", lambda g: {"nope": 1}),
    bad("required option missing", r"required option\(s\) \['word'\] missing", lambda g: {}, "needs"),
    bad("null value", "no null option value", lambda g: {"text": None}),
    bad("string: an int", "not a string", lambda g: {"text": 12}),
    bad("string: too short", "length 1 is outside min_length 2", lambda g: {"text": "a"}),
    bad("string: too long", "length 6 is outside .* max_length 5", lambda g: {"text": "abcdef"}),
    bad("integer: a float", "not an integer", lambda g: {"count": 1.5}),
    bad("integer: a bool", "not an integer", lambda g: {"count": True}),
    bad("integer: a string", "not an integer", lambda g: {"count": "3"}),
    bad("integer: below min_value", "outside min_value 1", lambda g: {"count": 0}),
    bad("integer: above max_value", "outside .* max_value 10", lambda g: {"count": 11}),
    bad("integer: 2^53", "outside ±9007199254740991", lambda g: {"big": 2**53}),
    bad("integer: -2^53", "outside ±9007199254740991", lambda g: {"big": -(2**53)}),
    bad("number: a string", "not a number", lambda g: {"amount": "1.5"}),
    bad("number: NaN", "outside ±9007199254740992", lambda g: {"amount": float("nan")}),
    bad("number: 2^54", "outside ±9007199254740992", lambda g: {"amount": 2.0**54}),
    bad("number: below min_value", "outside min_value 0.5", lambda g: {"ratio": 0.25}),
    bad("boolean: an int", "not a boolean", lambda g: {"flag": 1}),
    bad("user: unknown id", "not a known user", lambda g: {"who": 12345}),
    bad("user: a role", "not a known user", lambda g: {"who": g.role}),
    bad("channel: of another server", "not in the server the command runs in", lambda g: {"room": g.other_channel}),
    bad("channel: a voice channel", "not one of channel_types", lambda g: {"room": g.voice}),
    bad("role: of another server", "not a role of the server", lambda g: {"role": g.other_role}),
    refused("role: in a DM", "not a role of the server", "member", "dm", "values", lambda g: {"role": g.role}),
    bad("role: a user", "not a known role", lambda g: {"role": g.member}),
    bad("mentionable: a channel", "not a known user or role", lambda g: {"target": g.channel}),
    bad("not a choice", "not one of its choices", lambda g: {"colour": "green"}),
    # Autocomplete: only options declared with it, and only numbers being typed into number options.
    bad(
        "autocomplete: option without it", "has no autocomplete", lambda g: {"name": "ap", "note": "x"}, "fruit", "note"
    ),
    bad("autocomplete: not a number", "not a number being typed", lambda g: {"size": "1a"}, "fruit", "size"),
    bad("autocomplete: no partial value", "needs its partial value", lambda g: {}, "fruit", "name"),
]


@pytest.mark.parametrize(("reason", "invocation"), REFUSED)
async def test_the_driver_refuses_what_discord_would_not_deliver(
    gate: Gate, reason: str, invocation: Invocation
) -> None:
    before = len(gate.standin.interactions)
    with pytest.raises(Undeliverable, match=reason):
        await invocation.send(gate)
    assert len(gate.standin.interactions) == before
    assert [name for name, _ in gate.standin.gateway_events if name == "INTERACTION_CREATE"] == []


def delivered(label: str, who: str, where: str, command: str, options: Options = lambda g: {}, **kw: Any) -> Any:
    return pytest.param(Invocation(who, where, command, options, **kw), id=label)


def good(label: str, options: Options, command: str = "values", focused: str | None = None) -> Any:
    """A member invoking ``command`` in the server's channel with options Discord lets through."""
    return delivered(label, "member", "server", command, options, focused=focused)


DELIVERED = [
    delivered("offered everywhere, in a server", "member", "server", "anywhere"),
    delivered("offered everywhere, in a DM", "member", "dm", "anywhere"),
    delivered("guild_only() in a server", "member", "server", "serveronly"),
    delivered("server-only group in a server", "member", "server", "club join"),
    delivered("DM-only in a DM", "member", "dm", "dmonly"),
    # "Members with the Administrator permission can use all commands"; the owner has every permission.
    delivered("Manage Server command, manager", "manager", "server", "manage"),
    delivered("Manage Server group, manager", "manager", "server", "staff reset"),
    delivered("Manage Server command, administrator", "admin", "server", "manage"),
    delivered("administrators-only command, administrator", "admin", "server", "adminonly"),
    delivered("administrators-only command, owner", "owner", "server", "adminonly"),
    # default_member_permissions does not apply in DMs with the bot.
    delivered("Manage Server command in a DM", "member", "dm", "manage"),
    good("string at its minimum length", lambda g: {"text": "ab"}),
    good("string at its maximum length", lambda g: {"text": "abcde"}),
    good("integers at their bounds", lambda g: {"count": 10, "big": 2**53 - 1}),
    good("lowest integer", lambda g: {"count": 1, "big": -(2**53) + 1}),
    good("numbers at their bounds", lambda g: {"ratio": 0.5, "amount": -(2.0**53)}),
    good("an integer for a number", lambda g: {"ratio": 2}),
    good("booleans", lambda g: {"flag": False}),
    good("a user", lambda g: {"who": g.admin}),
    good("a user by id", lambda g: {"who": g.admin.id}),
    good("a text channel of the server", lambda g: {"room": g.channel}),
    good("a role of the server", lambda g: {"role": g.role}),
    good("a role as mentionable", lambda g: {"target": g.role}),
    good("a user as mentionable", lambda g: {"target": g.manager}),
    good("a choice", lambda g: {"colour": "blue"}),
    good("a required option", lambda g: {"word": "hi"}, "needs"),
    # "options that are otherwise required might not be present" while the user types.
    good("autocomplete, required option still empty", lambda g: {"size": ""}, "fruit", "size"),
    good("autocomplete, a number being typed", lambda g: {"size": "-"}, "fruit", "size"),
    delivered("autocomplete, partial string", "member", "dm", "fruit", lambda g: {"name": "ap"}, focused="name"),
]


@pytest.mark.parametrize("invocation", DELIVERED)
async def test_the_driver_delivers_what_discord_would(gate: Gate, invocation: Invocation) -> None:
    record = await invocation.send(gate)
    await record.wait_acked(3)
    assert record.callback_types == ([4] if invocation.focused is None else [8])


async def test_an_autocomplete_interaction_carries_the_partial_value_as_typed(gate: Gate) -> None:
    record = await gate.driver.autocomplete(gate.member, gate.channel, "fruit", {"name": "ap"}, "name")
    await record.wait_acked(3)
    assert record.payload["data"]["options"] == [{"name": "name", "type": 3, "value": "ap", "focused": True}]
    assert [c["value"] for c in record.choices or []] == ["apple", "apricot"]


# ---------------------------------------------------------------------- the Wizard bot's own commands
WIZARD_REFUSED = [
    pytest.param("dm", "wizard start", {}, "not offered in a DM", id="/wizard start in a DM"),
    pytest.param("dm", "wizard rules", {}, "not offered in a DM", id="/wizard rules in a DM"),
    pytest.param("dm", "leaderboard", {}, "not offered in a DM", id="/leaderboard in a DM"),
    pytest.param("dm", "stats", {}, "not offered in a DM", id="/stats in a DM"),
    pytest.param("server", "wizard", {}, "has subcommands", id="/wizard alone"),
    pytest.param("server", "wizard start", {"computer_players": -1}, "min_value 0", id="computer_players -1"),
    pytest.param("server", "wizard start", {"computer_players": 6}, "max_value 5", id="computer_players 6"),
    pytest.param("server", "wizard start", {"rounds": 0}, "min_value 1", id="rounds 0"),
    pytest.param("server", "wizard start", {"rounds": 21}, "max_value 20", id="rounds 21"),
    pytest.param("server", "wizard start", {"turn_timer": 45}, "not one of its choices", id="turn_timer 45"),
    pytest.param("server", "wizard start", {"computer_level": "expert"}, "not one of its choices", id="level expert"),
    pytest.param("server", "wizard start", {"jokers": True}, "unknown option 'jokers'", id="unknown option"),
    pytest.param("server", "wizard settings", {"rounds": -1}, "min_value 0", id="settings rounds -1"),
    pytest.param("server", "leaderboard", {"sort": "losses"}, "not one of its choices", id="leaderboard sort"),
]


@pytest.mark.parametrize(("where", "command", "options", "reason"), WIZARD_REFUSED)
async def test_discord_refuses_these_wizard_invocations_before_the_bot(
    world: World, where: str, command: str, options: dict[str, Any], reason: str
) -> None:
    person = world.people[0]
    channel = world.channel if where == "server" else world.standin.dm_channel_for(person)
    with pytest.raises(Undeliverable, match=reason):
        await world.driver.slash(person, channel, command, options)
    assert world.standin.interactions == {}


# ---------------------------------------------------------------------- gateway shards, raw
RECEIVE_TIMEOUT = 5.0  # seconds a raw session waits for its next payload
INTENTS = 1 | INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES  # GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES


def guild_on_shard(standin: DiscordStandin, name: str, shard_id: int, num_shards: int) -> Guild:
    """A server whose id Discord routes to ``shard_id`` of ``num_shards``.

    A snowflake's shard is its millisecond timestamp modulo num_shards: the next ids are moved on to
    the first such millisecond a second ahead (far enough that the clock cannot overtake it meanwhile).
    """
    stamp = (standin.snowflake() >> 22) + 1000
    while stamp % num_shards != shard_id:
        stamp += 1
    standin.snowflake._last = (stamp << 22) - 1
    guild = standin.create_guild(name)
    assert shard_of(guild.id, num_shards) == shard_id
    return guild


def message(message_id: int) -> Callable[[str, dict[str, Any]], bool]:
    """Matches the MESSAGE_CREATE of that message."""
    return lambda name, data: name == "MESSAGE_CREATE" and data["id"] == str(message_id)


class RawSession:
    """A bare gateway client (aiohttp): HELLO, IDENTIFY (with a shard), then what it receives, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.session_id: str | None = None
        self.received: list[tuple[str, dict[str, Any]]] = []

    @classmethod
    async def connect(cls, http: aiohttp.ClientSession, standin: DiscordStandin) -> RawSession:
        session = cls(await http.ws_connect(standin.ws_url))
        hello = await session.receive()
        assert hello is not None
        assert hello["op"] == 10
        return session

    async def identify(self, standin: DiscordStandin, shard: Any) -> None:
        d: dict[str, Any] = {"token": standin.token, "intents": INTENTS, "properties": {"os": "linux"}}
        if shard is not None:
            d["shard"] = shard
        await self.ws.send_json({"op": 2, "d": d})

    async def receive(self) -> dict[str, Any] | None:
        """The next payload (within 5 s); None once the stand-in closed the socket (its code: ``ws.close_code``)."""
        msg = await self.ws.receive(RECEIVE_TIMEOUT)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED):
            return None
        payload: dict[str, Any] = json.loads(msg.data)
        if payload["op"] == 0:
            self.received.append((payload["t"], payload["d"]))
            if payload["t"] == "READY":
                self.session_id = payload["d"]["session_id"]
        return payload

    async def until(self, found: Callable[[str, dict[str, Any]], bool]) -> list[tuple[str, dict[str, Any]]]:
        """Every dispatch received up to and including the first one ``found`` matches."""
        start = len(self.received)
        while not any(found(t, d) for t, d in self.received[start:]):
            assert await self.receive() is not None, f"closed with {self.ws.close_code}"
        return self.received[start:]


@dataclass
class Shards:
    standin: DiscordStandin
    driver: Driver
    http: aiohttp.ClientSession
    guilds: list[Guild]  # guilds[i] is on shard i of 2
    channels: list[Channel]
    alice: User

    async def session(self, shard: Any) -> RawSession:
        session = await RawSession.connect(self.http, self.standin)
        await session.identify(self.standin, shard)
        return session

    async def ready(self, *shards: Any) -> list[RawSession]:
        """Sessions identified with these shards (None: unsharded), each past its READY."""
        sessions = [await self.session(shard) for shard in shards]
        for session in sessions:
            await session.until(lambda t, d: t == "READY")
        return sessions

    async def barrier(self, sessions: list[RawSession]) -> list[list[tuple[str, dict[str, Any]]]]:
        """Each session's dispatches up to a message in a server of its own shard, sent after all else."""
        marks = []
        for index in range(len(sessions)):
            marks.append((await self.driver.say(self.alice, self.channels[index], f"barrier {index}")).id)
        return [await session.until(message(mark)) for session, mark in zip(sessions, marks, strict=True)]


@pytest_asyncio.fixture
async def shards() -> AsyncIterator[Shards]:
    async with DiscordStandin() as standin, aiohttp.ClientSession() as http:
        guilds = [guild_on_shard(standin, f"Shard {i}", i, 2) for i in range(2)]
        channels = [standin.create_text_channel(guild, "general") for guild in guilds]
        alice = standin.create_user("alice")
        for guild in guilds:
            standin.add_member(guild, alice)
        yield Shards(standin, Driver(standin), http, guilds, channels, alice)
        assert standin.failures == []


async def until_own_message(shards: Shards, session: RawSession, shard_id: int) -> list[tuple[str, dict[str, Any]]]:
    """The session's dispatches up to a message sent now in the server of its shard."""
    mark = await shards.driver.say(shards.alice, shards.channels[shard_id], f"barrier {shard_id}")
    return await session.until(message(mark.id))


@pytest.mark.parametrize("shard_id", [0, 1])
async def test_ready_and_guild_create_list_only_the_guilds_of_the_shard(shards: Shards, shard_id: int) -> None:
    session = (await shards.ready([shard_id, 2]))[0]
    await until_own_message(shards, session, shard_id)
    (name, ready), *later = session.received
    mine = str(shards.guilds[shard_id].id)
    assert (name, ready["shard"], [g["id"] for g in ready["guilds"]]) == ("READY", [shard_id, 2], [mine])
    assert [d["id"] for t, d in later if t == "GUILD_CREATE"] == [mine]


async def say_in_server(shards: Shards, index: int) -> str:
    return str((await shards.driver.say(shards.alice, shards.channels[index], f"in server {index}")).id)


async def say_in_dm(shards: Shards, index: int) -> str:
    return str((await shards.driver.say(shards.alice, shards.standin.dm_channel_for(shards.alice), "in a DM")).id)


def button_message(shards: Shards, channel: Channel) -> StoredMessage:
    body = {
        "content": "press",
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}],
    }
    return shards.standin.create_message(channel, body, author=shards.standin.bot_user)


async def click_in_server(shards: Shards, index: int) -> str:
    return str((await shards.driver.click(shards.alice, button_message(shards, shards.channels[index]), "go")).id)


async def click_in_dm(shards: Shards, index: int) -> str:
    dm = shards.standin.dm_channel_for(shards.alice)
    return str((await shards.driver.click(shards.alice, button_message(shards, dm), "go")).id)


ROUTES = [
    pytest.param(say_in_server, 0, "MESSAGE_CREATE", 0, id="message in a server of shard 0"),
    pytest.param(say_in_server, 1, "MESSAGE_CREATE", 1, id="message in a server of shard 1"),
    pytest.param(say_in_dm, 1, "MESSAGE_CREATE", 0, id="DM message: shard 0"),
    pytest.param(click_in_server, 1, "INTERACTION_CREATE", 1, id="click in a server of shard 1"),
    pytest.param(click_in_server, 0, "INTERACTION_CREATE", 0, id="click in a server of shard 0"),
    pytest.param(click_in_dm, 1, "INTERACTION_CREATE", 0, id="click in a DM: shard 0"),
]


@pytest.mark.parametrize(("act", "index", "event", "shard_id"), ROUTES)
async def test_an_event_reaches_only_the_connection_of_its_shard(
    shards: Shards, act: Callable[[Shards, int], Any], index: int, event: str, shard_id: int
) -> None:
    sessions = await shards.ready([0, 2], [1, 2])
    event_id = await act(shards, index)
    seen = await shards.barrier(sessions)
    got = [[d["id"] for t, d in received if t == event] for received in seen]
    assert [event_id in ids for ids in got] == [i == shard_id for i in range(2)]


async def test_an_unsharded_connection_receives_every_event(shards: Shards) -> None:
    session = (await shards.ready(None))[0]
    in_server = await say_in_server(shards, 1)
    in_dm = await say_in_dm(shards, 0)
    ids = [d["id"] for t, d in await session.until(lambda t, d: d.get("id") == in_dm) if t == "MESSAGE_CREATE"]
    assert ids == [in_server, in_dm]


async def test_sessions_with_different_shard_counts_are_both_served(shards: Shards) -> None:
    # "You can establish multiple sessions with the same [shard_id, num_shards], or sessions with
    # different num_shards values" (Gateway: Sharding).
    sessions = await shards.ready([0, 2], [0, 1])
    assert [s.received[0][1]["shard"] for s in sessions] == [[0, 2], [0, 1]]
    dm = await say_in_dm(shards, 0)
    for session in sessions:
        await session.until(lambda t, d: d.get("id") == dm)


async def test_a_resumed_session_keeps_its_shard(shards: Shards) -> None:
    first = (await shards.ready([1, 2]))[0]
    await first.ws.close()
    await shards.standin.wait_for(lambda: not shards.standin.conns, 5, "the first socket to close")
    again = await RawSession.connect(shards.http, shards.standin)
    await again.ws.send_json({"op": 6, "d": {"token": shards.standin.token, "session_id": first.session_id, "seq": 0}})
    await again.until(lambda t, d: t == "RESUMED")
    dm = await say_in_dm(shards, 0)
    received = await until_own_message(shards, again, 1)
    assert dm not in [d["id"] for t, d in received]


@pytest.mark.parametrize("shard", [[2, 2], [3, 2], [-1, 2], [0, 0], [0], [0, 2, 1], "0/2"])
async def test_an_invalid_shard_is_closed_with_4010(shards: Shards, shard: Any) -> None:
    session = await shards.session(shard)
    assert await session.receive() is None
    assert session.ws.close_code == 4010  # "Invalid shard: You sent us an invalid shard when identifying"


async def test_a_session_of_more_than_2500_guilds_is_closed_with_4011(shards: Shards) -> None:
    for number in range(2500 - len(shards.standin.guilds) + 1):
        shards.standin.create_guild(f"Crowd {number}")
    session = await shards.session(None)
    assert await session.receive() is None
    assert session.ws.close_code == 4011  # "Sharding required": "Each shard can only support a maximum of 2500 guilds"


# ---------------------------------------------------------------------- gateway shards, the real bot
async def test_a_sharded_bot_plays_in_a_server_of_shard_1_and_answers_its_dm_clicks_on_shard_0(
    tmp_path: Path,
) -> None:
    async with DiscordStandin() as standin:
        guilds = [guild_on_shard(standin, f"Shard {i}", i, 2) for i in range(2)]
        channel = standin.create_text_channel(guilds[1], "wizard")
        host = standin.create_user("host")
        for guild in guilds:
            standin.add_member(guild, host)
        settings = Settings(token=standin.token, database_path=tmp_path / "wizard.db", shard_count=2, shard_ids=(0, 1))
        bot = make_bot(settings, sync_commands=True)
        bot.manager = GameManager(seed_source=lambda: 5, computer_pace=0.0)

        async def identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
            """discord.py waits 5 s between IDENTIFYs (Discord's max_concurrency); the stand-in has no such limit."""

        bot.before_identify_hook = identify_at_once  # type: ignore[method-assign]
        # Which session each interaction went to: (shard, interaction id).
        routed: list[tuple[tuple[int, int] | None, str]] = []
        send_dispatch = standin._send_dispatch

        async def spy(conn: GatewayConn, name: str, data: Any) -> None:
            if name == "INTERACTION_CREATE":
                routed.append((conn.shard, data["id"]))
            await send_dispatch(conn, name, data)

        standin._send_dispatch = spy  # type: ignore[method-assign]
        async with run_bot(standin, bot, capture_loggers=("discord", "bot", "cogs")):
            assert sorted(p["shard"] for p in standin.identify_payloads) == [[0, 2], [1, 2]]
            assert [getattr(bot.get_guild(g.id), "shard_id", None) for g in guilds] == [0, 1]
            driver = Driver(standin)
            options = {"computer_players": 2, "computer_level": "easy"}
            start = await driver.slash(host, channel, "wizard start", options)
            lobby = await start.wait_response()
            await (await driver.click(host, lobby, "Start")).wait_acked(3)

            def hand_with_moves() -> StoredMessage | None:
                hands = [m for m in driver.dm_view(host) if "Your hand" in m.text() and action_buttons(m)]
                return hands[-1] if hands else None

            hand = await standin.wait_for(hand_with_moves, 5, "the host's hand by DM, with moves")
            move = await driver.click(host, hand, str(action_buttons(hand)[0]["custom_id"]))
            await move.wait_acked(3)
            assert move.guild_id is None
        assert [shard for shard, ident in routed if ident in (str(start.id), str(move.id))] == [(1, 2), (0, 2)]
        assert standin.failures == []
        assert standin.unknown_routes == []
