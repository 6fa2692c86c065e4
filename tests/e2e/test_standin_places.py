"""The stand-in follows what Discord does to the places a game lives in: deleted channels and threads,
a bot removed from a server, an outage, archived and locked threads, a deleted message.

Discord's rules quoted here come from its developer documentation: the gateway events (Channel Delete,
Thread Delete, Thread Update, Guild Delete, Guild Create, Ready), the Threads topic ("Locked Threads",
"Active & Archived Threads") and the JSON error codes (10003, 10008, 50001, 50007, 50083, 160005).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import pytest_asyncio

from tests.e2e.standin import Channel, DiscordStandin, Driver, Guild, User, run_bot
from tests.e2e.standin.driver import Undeliverable
from tests.e2e.test_standin_permissions import Http, http_world

UNKNOWN_CHANNEL = (404, {"message": "Unknown Channel", "code": 10003})
MISSING_ACCESS = (403, {"message": "Missing Access", "code": 50001})
ARCHIVED = (400, {"message": "Thread is archived", "code": 50083})
LOCKED = (403, {"message": "Thread is locked", "code": 160005})
CLOSED_DMS = (403, {"message": "Cannot send messages to this user", "code": 50007})


@pytest_asyncio.fixture
async def http() -> AsyncIterator[Http]:
    async with http_world() as world:
        yield world


def events(standin: DiscordStandin, name: str) -> list[dict[str, Any]]:
    return [data for event, data in standin.gateway_events if event == name]


async def bot_post(http: Http, channel: Channel) -> int:
    status, body = await http.call("POST", f"/channels/{channel.id}/messages", {"content": "the table"})
    assert status == 200, body
    return int(body["id"])


# ---------------------------------------------------------------------- deleted channels and threads
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/channels/{channel}/messages", {"content": "hi"}),
        ("PATCH", "/channels/{channel}/messages/{message}", {"content": "x"}),
        ("GET", "/channels/{channel}", None),
        ("DELETE", "/channels/{channel}/messages/{message}", None),
    ],
)
@pytest.mark.parametrize("what", ["channel", "thread", "thread of a deleted channel"])
async def test_every_request_to_a_deleted_place_is_unknown_channel(
    http: Http, what: str, method: str, path: str, body: dict[str, Any] | None
) -> None:
    place = http.channel if what == "channel" else http.thread
    message = await bot_post(http, place)
    await http.standin.delete_channel(http.thread if what == "thread" else http.channel)
    filled = path.replace("{channel}", str(place.id)).replace("{message}", str(message))
    assert await http.call(method, filled, body) == UNKNOWN_CHANNEL


async def test_deleting_a_channel_sends_channel_delete_and_a_thread_thread_delete(http: Http) -> None:
    st = http.standin
    await st.delete_channel(http.thread)
    await st.delete_channel(http.channel)
    assert events(st, "THREAD_DELETE") == [
        {"id": str(http.thread.id), "guild_id": str(http.guild.id), "parent_id": str(http.channel.id), "type": 11}
    ]
    (deleted,) = events(st, "CHANNEL_DELETE")
    assert deleted["id"] == str(http.channel.id)
    assert deleted["guild_id"] == str(http.guild.id)
    assert http.channel.id not in http.guild.channel_ids


async def test_nothing_can_be_used_in_a_deleted_channel(http: Http) -> None:
    driver = Driver(http.standin, require_synced=False)
    await http.standin.delete_channel(http.channel)
    with pytest.raises(Undeliverable, match="deleted"):
        await driver.slash(http.person, http.channel, "wizard start")
    with pytest.raises(Undeliverable, match="deleted"):
        await driver.click_custom_id(http.person, http.bot_message, "wizard:x")


# ---------------------------------------------------------------------- the bot removed from a server
async def test_a_removed_bot_is_refused_missing_access_in_that_server(http: Http) -> None:
    st = http.standin
    message = await bot_post(http, http.channel)
    await st.remove_bot(http.guild)
    assert events(st, "GUILD_DELETE") == [{"id": str(http.guild.id)}]  # no "unavailable": removed
    assert await http.call("POST", f"/channels/{http.channel.id}/messages", {"content": "hi"}) == MISSING_ACCESS
    assert await http.call("PATCH", f"/channels/{http.channel.id}/messages/{message}", {"content": "x"}) == (
        MISSING_ACCESS
    )
    assert await http.call("GET", f"/guilds/{http.guild.id}") == MISSING_ACCESS
    with pytest.raises(Undeliverable, match="no longer in"):
        await Driver(st, require_synced=False).slash(http.person, http.channel, "wizard start")


async def test_a_removed_bot_can_dm_only_the_people_it_shares_another_server_with(http: Http) -> None:
    st = http.standin
    other = st.create_guild("Elsewhere")
    friend = st.create_user("fred")
    st.add_member(http.guild, friend)
    st.add_member(other, friend)
    await st.remove_bot(http.guild)

    async def dm(person: User) -> tuple[int, Any]:
        channel = st.dm_channel_for(person)
        return await http.call("POST", f"/channels/{channel.id}/messages", {"content": "the game is over"})

    assert await dm(http.person) == CLOSED_DMS
    assert (await dm(friend))[0] == 200


# ---------------------------------------------------------------------- an outage
async def test_an_outage_is_guild_delete_with_unavailable_and_ends_with_guild_create(http: Http) -> None:
    st = http.standin
    await st.guild_outage(http.guild)
    assert events(st, "GUILD_DELETE") == [{"id": str(http.guild.id), "unavailable": True}]
    status, _ = await http.call("POST", f"/channels/{http.channel.id}/messages", {"content": "hi"})
    assert status == 503
    with pytest.raises(Undeliverable, match="unavailable"):
        await Driver(st, require_synced=False).slash(http.person, http.channel, "wizard start")
    await st.guild_recovers(http.guild)
    (back,) = events(st, "GUILD_CREATE")
    assert back["id"] == str(http.guild.id)
    assert await bot_post(http, http.channel)


# ---------------------------------------------------------------------- archived and locked threads
async def test_an_archived_thread_refuses_edits_and_a_post_unarchives_it(http: Http) -> None:
    st = http.standin
    message = await bot_post(http, http.thread)
    await st.update_thread(http.thread, archived=True)
    (update,) = events(st, "THREAD_UPDATE")
    assert update["thread_metadata"]["archived"] is True
    edit = f"/channels/{http.thread.id}/messages/{message}"
    assert await http.call("PATCH", edit, {"content": "x"}) == ARCHIVED
    await bot_post(http, http.thread)
    assert not http.thread.archived
    assert events(st, "THREAD_UPDATE")[-1]["thread_metadata"]["archived"] is False
    status, _ = await http.call("PATCH", edit, {"content": "x"})
    assert status == 200


@pytest.mark.parametrize("archived", [False, True])
async def test_a_locked_thread_takes_nothing_from_a_bot_without_manage_threads(http: Http, archived: bool) -> None:
    st = http.standin
    message = await bot_post(http, http.thread)
    await st.update_thread(http.thread, archived=archived, locked=True)
    assert await http.call("POST", f"/channels/{http.thread.id}/messages", {"content": "hi"}) == LOCKED
    assert await http.call("PATCH", f"/channels/{http.thread.id}/messages/{message}", {"content": "x"}) == LOCKED
    assert http.thread.archived is archived
    status, _ = await http.call("DELETE", f"/channels/{http.thread.id}/messages/{message}")
    assert status == 204  # deleting its own message is still allowed


async def test_with_manage_threads_the_bot_posts_in_a_locked_thread_and_unarchives_it(http: Http) -> None:
    st = http.standin
    await st.allow_bot(http.channel, "manage_threads")
    message = await bot_post(http, http.thread)
    await st.update_thread(http.thread, archived=True, locked=True)
    edit = f"/channels/{http.thread.id}/messages/{message}"
    assert await http.call("PATCH", edit, {"content": "x"}) == ARCHIVED  # no edits while archived
    await bot_post(http, http.thread)
    assert (http.thread.archived, http.thread.locked) == (False, True)
    status, _ = await http.call("PATCH", edit, {"content": "x"})
    assert status == 200


async def test_no_command_in_an_archived_thread(http: Http) -> None:
    await http.standin.update_thread(http.thread, archived=True)
    with pytest.raises(Undeliverable, match="archived"):
        await Driver(http.standin, require_synced=False).slash(http.person, http.thread, "wizard hand")


async def test_a_deleted_message_is_unknown_message_on_the_next_edit(http: Http) -> None:
    st = http.standin
    await st.delete_message(http.bot_message)
    edit = f"/channels/{http.channel.id}/messages/{http.bot_message.id}"
    assert await http.call("PATCH", edit, {"content": "x"}) == (404, {"message": "Unknown Message", "code": 10008})


# ---------------------------------------------------------------------- what discord.py makes of it
class Watcher(discord.Client):
    """A client with the bot's intents (guilds only), noting the events it is given (and waking the
    stand-in's waiters, which wait on its changes)."""

    def __init__(self, standin: DiscordStandin) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.standin = standin
        self._seen: list[tuple[str, int]] = []

    @property
    def seen(self) -> list[tuple[str, int]]:
        return self._seen

    def note(self, event: str, ident: int) -> None:
        self._seen.append((event, ident))
        self.standin.changed_soon()

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.note("guild_remove", guild.id)

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.note("guild_unavailable", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.note("guild_available", guild.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.note("channel_delete", channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.note("thread_delete", payload.thread_id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        metadata = payload.data.get("thread_metadata") or {}
        self.note(
            f"thread_update archived={metadata.get('archived')} locked={metadata.get('locked')}", payload.thread_id
        )

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.note("message_delete", payload.message_id)


@dataclass
class Live:
    standin: DiscordStandin
    client: Watcher
    guild: Guild
    channel: Channel
    thread: Channel
    person: User


@pytest_asyncio.fixture
async def live() -> AsyncIterator[Live]:
    async with DiscordStandin() as standin:
        guild = standin.create_guild("Wizard Guild")
        channel = standin.create_text_channel(guild, "wizard")
        thread = standin.create_thread(channel, "a game")
        person = standin.create_user("pat")
        standin.add_member(guild, person)
        client = Watcher(standin)
        async with run_bot(standin, client):
            yield Live(standin, client, guild, channel, thread, person)
        assert standin.failures == []


async def until_seen(live: Live, event: tuple[str, int]) -> None:
    await live.standin.wait_for(lambda: event in live.client.seen, 5, f"discord.py to dispatch {event}")


async def test_discord_py_hears_each_place_event(live: Live) -> None:
    st = live.standin
    await st.update_thread(live.thread, archived=True, locked=True)
    await until_seen(live, ("thread_update archived=True locked=True", live.thread.id))
    guild = live.client.get_guild(live.guild.id)
    assert guild is not None
    assert guild.get_thread(live.thread.id) is None  # discord.py keeps active threads only
    await st.delete_channel(live.thread)
    await until_seen(live, ("thread_delete", live.thread.id))
    await st.delete_channel(live.channel)
    await until_seen(live, ("channel_delete", live.channel.id))
    await st.guild_outage(live.guild)
    await until_seen(live, ("guild_unavailable", live.guild.id))
    await st.guild_recovers(live.guild)
    await until_seen(live, ("guild_available", live.guild.id))
    await st.remove_bot(live.guild)
    await until_seen(live, ("guild_remove", live.guild.id))
    assert live.client.get_guild(live.guild.id) is None


async def test_without_message_intents_a_deleted_message_sends_nothing(live: Live) -> None:
    st = live.standin
    message = st.create_message(live.channel, {"content": "the lobby"}, author=st.bot_user)
    await st.delete_message(message)
    await st.update_thread(live.thread, archived=True)  # an event after it, to know the gateway has caught up
    await until_seen(live, ("thread_update archived=True locked=False", live.thread.id))
    assert ("message_delete", message.id) not in live.client.seen


@pytest.mark.parametrize("state", ["removed", "in an outage"])
async def test_a_new_session_after_the_bot_was_removed_or_in_an_outage(state: str) -> None:
    """A new session's READY lists only the guilds the bot is in; one in an outage arrives unavailable
    (GUILD_DELETE with unavailable, not GUILD_CREATE)."""
    async with DiscordStandin() as standin:
        kept = standin.create_guild("Kept")
        gone = standin.create_guild("Gone")
        if state == "removed":
            await standin.remove_bot(gone)
        else:
            await standin.guild_outage(gone)
        client = Watcher(standin)
        async with run_bot(standin, client):
            assert client.get_guild(kept.id) is not None
            cached = client.get_guild(gone.id)
            if state == "removed":
                assert cached is None
            else:
                assert cached is not None
                assert cached.unavailable
                await standin.guild_recovers(gone)
                await standin.wait_for(lambda: ("guild_available", gone.id) in client.seen, 5, "the guild back")
                assert not cached.unavailable
        assert standin.failures == []
