"""Self-tests of the Discord stand-in, driving a tiny real discord.py bot defined here."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.e2e.standin import (
    BotCrashed,
    Channel,
    DiscordStandin,
    Driver,
    Guild,
    StoredMessage,
    User,
    run_bot,
)
from tests.e2e.standin.driver import BotRunner

pytestmark = pytest.mark.asyncio


# ---------------------------------------------------------------------- the bot under test
class TurnButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"t:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Turn {n}", style=discord.ButtonStyle.primary, custom_id=f"t:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(self.n + 1))
        await interaction.response.edit_message(content=f"turn {self.n + 1}", view=view)
        await interaction.followup.send(f"secret for {interaction.user.name}", ephemeral=True)


class BidModal(discord.ui.Modal, title="Your bid"):
    bid: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Bid", custom_id="bid")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"bid {self.bid.value}", ephemeral=True)


class Board(discord.ui.LayoutView):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.text: discord.ui.TextDisplay[Board] = discord.ui.TextDisplay("board v1")
        button: discord.ui.Button[Any] = discord.ui.Button(label="Play", custom_id="board:play")
        button.callback = self.play  # type: ignore[method-assign]
        self.add_item(discord.ui.Container(self.text, discord.ui.ActionRow(button)))

    async def play(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        self.text.content = "board v2"
        await interaction.edit_original_response(view=self)


@dataclass
class Seen:
    errors: list[BaseException] = field(default_factory=list)
    locales: list[str] = field(default_factory=list)


class MiniBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.seen = Seen()
        self.synced: list[app_commands.AppCommand] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(TurnButton)
        self.tree.add_command(build_wizard_group(self))
        self.synced = await self.tree.sync()


def build_wizard_group(bot: MiniBot) -> app_commands.Group:
    wizard = app_commands.Group(name="wizard", description="Wizard card game")

    @wizard.command(name="start", description="Start a game")
    async def start(interaction: discord.Interaction[Any], rounds: int = 3) -> None:
        bot.seen.locales.append(str(interaction.locale))
        view = discord.ui.View(timeout=None)
        view.add_item(TurnButton(1))
        manage = interaction.permissions.manage_guild
        await interaction.response.send_message(f"game rounds={rounds} manage={manage}", view=view)

    @wizard.command(name="dm", description="DM me")
    async def dm(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send("psst, your cards")
        except discord.Forbidden as exc:
            bot.seen.errors.append(exc)
            await interaction.followup.send(f"dm failed {exc.code}", ephemeral=True)
        else:
            await interaction.followup.send("dm sent", ephemeral=True)

    @wizard.command(name="twice", description="Answer twice")
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("first")
        try:
            await discord.InteractionResponse(interaction).send_message("second")
        except discord.HTTPException as exc:
            bot.seen.errors.append(exc)

    @wizard.command(name="file", description="Send a file")
    async def file(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("scores", file=discord.File(_bytes(b"a,b\n1,2\n"), "scores.csv"))

    @wizard.command(name="slow", description="Deferred flows")
    async def slow(interaction: discord.Interaction[Any], who: discord.Member | None = None) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content=f"done for {who.name if who else 'nobody'}")

    @wizard.command(name="ask", description="Open a modal")
    async def ask(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(BidModal())

    @wizard.command(name="board", description="Components v2")
    async def board(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(view=Board(), ephemeral=True)

    @wizard.command(name="join", description="Join with a colour")
    async def join(interaction: discord.Interaction[Any], colour: str) -> None:
        await interaction.response.send_message(f"joined {colour}", ephemeral=True)

    @join.autocomplete("colour")
    async def colour_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        names = ["red", "green", "blue", "yellow"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @wizard.command(name="crash", description="Raise")
    async def crash(interaction: discord.Interaction[Any]) -> None:
        raise RuntimeError("boom")

    return wizard


def _bytes(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


# ---------------------------------------------------------------------- fixtures
@dataclass
class World:
    standin: DiscordStandin
    driver: Driver
    bot: MiniBot
    runner: BotRunner
    guild: Guild
    channel: Channel
    alice: User
    bob: User
    closed: User


@pytest_asyncio.fixture
async def world() -> AsyncIterator[World]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        admin_role = standin.create_role(guild, "Admins", discord.Permissions(manage_guild=True))
        alice = standin.create_user("alice", locale="de")
        bob = standin.create_user("bob")
        closed = standin.create_user("closed", dms_closed=True)
        standin.add_member(guild, alice, roles=[admin_role])
        standin.add_member(guild, bob)
        standin.add_member(guild, closed)
        bot = MiniBot()
        async with run_bot(standin, bot) as runner:
            yield World(standin, Driver(standin, require_synced=True), bot, runner, guild, channel, alice, bob, closed)
        assert standin.unknown_routes == []
        assert standin.failures == []


# ---------------------------------------------------------------------- tests
async def test_login_ready_and_sync(world: World) -> None:
    st, bot = world.standin, world.bot
    assert bot.is_ready()
    assert bot.user is not None
    assert bot.user.id == st.bot_user.id
    assert bot.application_id == st.application_id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    assert guild.get_channel(world.channel.id) is not None
    assert [c.name for c in bot.synced] == ["wizard"]
    assert {o["name"] for o in st.commands[None][0]["options"]} >= {"start", "dm", "twice", "file"}
    assert [c.route for c in st.rest_log[:2]] == ["/api/v10/users/@me", "/api/v10/oauth2/applications/@me"]


async def test_slash_click_ephemeral_followup(world: World) -> None:
    st, drv = world.standin, world.driver
    rec = await drv.slash(world.alice, world.channel, "wizard start", {"rounds": 5})
    msg = await rec.wait_response()
    assert await rec.wait_acked(3) < 3
    assert msg.content == "game rounds=5 manage=True"
    assert world.bot.seen.locales == ["de"]
    assert [m.id for m in drv.channel_view(world.channel)] == [msg.id]
    assert msg.find_component("Turn 1") is not None

    click = await drv.click(world.bob, msg, "Turn 1")
    await click.wait_acked()
    (secret,) = await click.wait_followups(1)
    assert msg.content == "turn 2"
    assert msg.edits == 1
    assert [b["custom_id"] for b in msg.buttons()] == ["t:2"]
    assert secret.content == "secret for bob"
    assert secret.ephemeral
    assert drv.ephemeral_view(world.bob) == [secret]
    assert drv.ephemeral_view(world.alice) == []
    assert secret not in drv.channel_view(world.channel)
    assert [m.id for m in drv.visible(world.bob, world.channel)] == [msg.id, secret.id]

    rec2 = await drv.slash(world.bob, world.channel, "wizard start")
    assert (await rec2.wait_response()).content == "game rounds=3 manage=False"

    # a forged custom id matching the template still reaches the DynamicItem
    forged = await drv.click_custom_id(world.bob, msg, "t:41")
    await forged.wait_acked()
    assert msg.content == "turn 42"
    assert st.unacknowledged() == []
    assert st.slow_acks(3.0) == []
    assert all(r.ack_latency is not None and r.ack_latency < 3 for r in st.interactions.values())


async def test_dm_and_closed_dms(world: World) -> None:
    drv = world.driver
    ok = await drv.slash(world.bob, world.channel, "wizard dm")
    reply = await ok.wait_response()
    assert reply.content == "dm sent"
    assert reply.ephemeral_to == world.bob.id
    assert [m.content for m in drv.dm_view(world.bob)] == ["psst, your cards"]

    bad = await drv.slash(world.closed, world.channel, "wizard dm")
    reply = await bad.wait_response()
    assert reply.content == "dm failed 50007"
    (exc,) = world.bot.seen.errors
    assert isinstance(exc, discord.Forbidden)
    assert exc.code == 50007
    assert drv.dm_view(world.closed) == []


async def test_second_response_rejected(world: World) -> None:
    rec = await world.driver.slash(world.alice, world.channel, "wizard twice")
    await rec.wait_response()
    await world.standin.wait_for(lambda: world.bot.seen.errors, 5, "the 40060 error")
    (exc,) = world.bot.seen.errors
    assert isinstance(exc, discord.HTTPException)
    assert exc.status == 400
    assert exc.code == 40060
    assert rec.rejected_callbacks == [(400, 40060)]
    assert rec.callback_types == [4]


async def test_429_on_edit_is_retried(world: World) -> None:
    st = world.standin
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("v1")
    rule = st.inject_429("PATCH", r"/channels/\d+/messages/\d+$", count=1, retry_after=0.05)
    edited = await sent.edit(content="v2")
    assert edited.content == "v2"
    assert rule.hits == 1
    patches = st.rest_calls("PATCH", "/messages/{message_id}")
    assert [c.status for c in patches] == [429, 200]
    assert st.messages[sent.id].content == "v2"
    assert st.messages[sent.id].edits == 1

    st.messages[sent.id].deleted = True
    with pytest.raises(discord.NotFound) as info:
        await sent.edit(content="v3")
    assert info.value.code == 10008


async def test_attachments(world: World) -> None:
    rec = await world.driver.slash(world.alice, world.channel, "wizard file")
    msg = await rec.wait_response()
    assert msg.attachment_names == ["scores.csv"]
    assert msg.files["scores.csv"] == b"a,b\n1,2\n"
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("pic", files=[discord.File(_bytes(b"png"), "a.png"), discord.File(_bytes(b"x"), "b.txt")])
    assert [a.filename for a in sent.attachments] == ["a.png", "b.txt"]
    assert world.standin.messages[sent.id].attachment_names == ["a.png", "b.txt"]


async def test_bot_error_fails_waits(world: World) -> None:
    rec = await world.driver.slash(world.alice, world.channel, "wizard crash")
    with pytest.raises(BotCrashed, match="crash"):
        await rec.wait_acked(2)
    world.standin.failures.clear()  # expected here; keep teardown clean


async def test_unknown_route_recorded(world: World) -> None:
    with pytest.raises(discord.NotFound):
        await world.bot.http.request(discord.http.Route("GET", "/nope/{x}", x=1))
    assert world.standin.unknown_routes == [("GET", "/api/v10/nope/1")]
    world.standin.unknown_routes.clear()


async def test_resume_after_reconnect(world: World) -> None:
    st = world.standin
    await st.request_reconnect()
    await st.wait_for(lambda: st.resumes == 1 and st.gateway_ready, 5, "RESUME")
    rec = await world.driver.slash(world.bob, world.channel, "wizard start")
    assert isinstance(await rec.wait_response(), StoredMessage)
    assert len(st.identify_payloads) == 1


async def test_deferred_flows_and_user_option(world: World) -> None:
    rec = await world.driver.slash(world.alice, world.channel, "wizard slow", {"who": world.bob})
    msg = await rec.wait_response()
    assert msg.content == "done for bob"
    assert rec.callback_types == [5]
    assert not msg.loading

    dm_channel = world.standin.dm_channel_for(world.bob)
    in_dm = await world.driver.slash(world.bob, dm_channel, "wizard slow")
    assert (await in_dm.wait_response()).channel_id == dm_channel.id


async def test_modal_roundtrip(world: World) -> None:
    opened = await world.driver.slash(world.bob, world.channel, "wizard ask")
    await opened.wait_acked()
    assert opened.callback_types == [9]
    assert opened.modal is not None
    submitted = await world.driver.submit_modal(world.bob, opened, {"Bid": "2"})
    reply = await submitted.wait_response()
    assert reply.content == "bid 2"
    assert reply.ephemeral_to == world.bob.id


async def test_components_v2_ephemeral_click(world: World) -> None:
    drv = world.driver
    rec = await drv.slash(world.bob, world.channel, "wizard board")
    board = await rec.wait_response()
    assert board.ephemeral
    assert "board v1" in board.text()
    with pytest.raises(AssertionError, match="cannot see"):
        await drv.click(world.alice, board, "Play")
    click = await drv.click(world.bob, board, "Play")
    await world.standin.wait_for(lambda: "board v2" in board.text(), 5, "board update")
    assert click.callback_types == [6]
    assert board.edits == 1


async def test_client_death_fails_waits(world: World) -> None:
    st = world.standin
    await st.dispatch_event("INTERACTION_CREATE", {"type": 2, "id": "1"})  # malformed: kills the client
    with pytest.raises(BotCrashed) as info:
        await st.wait_for(lambda: False, 5, "never")
    assert isinstance(info.value.__cause__, KeyError)
    st.failures.clear()


async def test_autocomplete_and_required_options(world: World) -> None:
    drv = world.driver
    typed = await drv.autocomplete(world.bob, world.channel, "wizard join", {"colour": "g"}, "colour")
    await typed.wait_acked()
    assert typed.choices == [{"name": "green", "value": "green"}]
    with pytest.raises(AssertionError, match="required option"):
        await drv.slash(world.bob, world.channel, "wizard join")
    rec = await drv.slash(world.bob, world.channel, "wizard join", {"colour": "green"})
    assert (await rec.wait_response()).content == "joined green"
