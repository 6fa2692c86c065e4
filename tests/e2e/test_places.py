"""The game follows its server: a channel deleted, the bot removed from a server, an outage, a thread
archived or locked, a lobby whose message was deleted.

Each test runs two servers: the one things happen to, and another whose game must play on unaffected.
The stand-in does what Discord does (see tests/e2e/test_standin_places.py), so a bot that kept posting
to a dead place would meet its refusals here; each test counts them. Where a restart is involved the
bot is a real `python -m bot` process (the end of this file).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import WizardBot
from bot.manager import GameManager, Lobby, Table
from bot.settings import Settings
from tests.e2e._play import (
    Players,
    Recorder,
    latest_hand,
    messages_of,
    open_game,
    reply_text,
    start_game,
    table_message,
)
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import Channel, DiscordStandin, Driver, Guild, RestCall, StoredMessage, User, run_bot
from tests.e2e.test_permissions import click_while_waiting
from tests.e2e.test_restart import Bot

ENDED = "Your game has ended"
LOGGERS = ("discord", "bot", "cogs")


# ---------------------------------------------------------------------- the log
class Logged(logging.Handler):
    """The warnings and errors the bot logs, to check that none repeats."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def repeated(messages: list[str]) -> list[str]:
    """The warnings and errors logged more than once (ids and numbers aside: the same line about two
    games is not a repeat)."""
    counts = collections.Counter(messages)
    return [message for message, count in counts.items() if count > 1]


@contextlib.contextmanager
def logged() -> Iterator[Logged]:
    handler = Logged()
    for name in LOGGERS:
        logging.getLogger(name).addHandler(handler)
    try:
        yield handler
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(handler)


# ---------------------------------------------------------------------- two servers, one bot in this process
@dataclass
class Two:
    """Server A's channel, where things happen, and server B's, whose game must play on unaffected."""

    here: World
    there: World
    log: Logged

    @property
    def standin(self) -> DiscordStandin:
        return self.here.standin

    @property
    def driver(self) -> Driver:
        return self.here.driver

    @property
    def bot(self) -> WizardBot:
        return self.here.bot


def populate(standin: DiscordStandin) -> tuple[Guild, Channel, list[User], Guild, Channel, list[User]]:
    """Server A (alice, bob, carol, dave) and server B (erin, frank, gina, and dave too), a channel each."""
    here = standin.create_guild("Server A")
    there = standin.create_guild("Server B")
    people_here = [standin.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    people_there = [standin.create_user(name) for name in ("erin", "frank", "gina")]
    for person in people_here:
        standin.add_member(here, person)
    for person in [*people_there, people_here[3]]:
        standin.add_member(there, person)
    return (
        here,
        standin.create_text_channel(here, "wizard"),
        people_here,
        there,
        standin.create_text_channel(there, "wizard"),
        people_there,
    )


@pytest_asyncio.fixture
async def two(tmp_path: Path) -> AsyncIterator[Two]:
    async with DiscordStandin() as standin:
        here, channel, people, there, other_channel, others = populate(standin)
        bot = WizardBot(Settings(token=standin.token, database_path=tmp_path / "wizard.db"), sync_commands=True)
        bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
        nobody = standin.create_user("nobody")
        with logged() as log:
            async with run_bot(standin, bot, capture_loggers=LOGGERS) as runner:
                driver = Driver(standin, require_synced=True)
                yield Two(
                    World(standin, driver, bot, runner, here, channel, people, nobody, nobody),
                    World(standin, driver, bot, runner, there, other_channel, others, nobody, nobody),
                    log,
                )
        assert repeated([record.getMessage() for record in log.records]) == []
        assert standin.unknown_routes == []
        assert standin.failures == []
        assert standin.slow_acks(3.0) == []
        assert standin.global_refusals == 0


def to(two: Two, place: Channel) -> World:
    """Server A's world with its game in `place` (a thread of its channel, say)."""
    return dataclasses.replace(two.here, channel=place)


def calls_to(standin: DiscordStandin, channel: Channel, since: float) -> list[RestCall]:
    return [call for call in standin.rest_calls(since=since) if f"/channels/{channel.id}" in call.path]


def refused(standin: DiscordStandin, code: int) -> list[str]:
    """The requests Discord refused with this JSON error code."""
    return [f"{c.method} {c.path}" for c in standin.rest_log if c.code == code]


async def plays_on(world: World, seats: list[User], recorder: Recorder | None = None) -> None:
    """Server B's game, played to its final standings, shown once."""
    recorder = recorder or Recorder(world, seats)
    await recorder.play_to_end()
    assert len(messages_of(world.driver, world.channel, "Final standings")) == 1


async def stored(world: World, game_id: str) -> tuple[str, str | None]:
    assert world.bot.repository is not None
    record = await world.bot.repository.load_game(game_id)
    assert record is not None
    return record.status, record.end_reason


# ---------------------------------------------------------------------- an outage
async def test_an_outage_holds_the_game_until_the_server_is_back(two: Two) -> None:
    here, there = two.here, two.there
    other = await start_game(there, there.people[:3], rounds=2)
    elsewhere = Recorder(there, there.people[:3])
    table = await start_game(here, here.people[:3], rounds=2)
    recorder = Recorder(here, here.people[:3])
    await recorder.step()
    presenter = two.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await two.standin.wait_for(lambda: table_message(here) and presenter.backlog() == 0, 5, "the move shown")
    since = time.monotonic()

    await two.standin.guild_outage(here.guild)

    await two.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the game to wait")
    text = await click_while_waiting(here, table, here.people[:3])
    assert "Discord reports its server as unavailable" in text
    assert "Every move so far is saved" in text
    await elsewhere.step()  # server B plays on meanwhile
    assert [c for c in calls_to(two.standin, here.channel, since) if c.status >= 400] == []

    await two.standin.guild_recovers(here.guild)
    await two.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
    await recorder.play_to_end()
    assert len(messages_of(two.driver, here.channel, "Final standings")) == 1
    assert await stored(here, table.id) == ("finished", None)
    assert all(ENDED not in m.text() for person in here.people for m in two.driver.dm_view(person))
    await plays_on(there, there.people[:3], elsewhere)
    assert await stored(there, other.id) == ("finished", None)


# ---------------------------------------------------------------------- archived and locked threads
async def a_game_in_a_thread(two: Two) -> tuple[World, Table, Recorder]:
    thread = await two.standin.open_thread(two.here.channel, "wizard night")
    world = to(two, thread)
    table = await start_game(world, world.people[:3], rounds=2)
    recorder = Recorder(world, world.people[:3])
    await recorder.step()
    return world, table, recorder


def live_tables(world: World) -> list[StoredMessage]:
    return [m for m in world.driver.channel_view(world.channel) if m.find_component("My hand")]


async def test_an_archived_thread_is_unarchived_by_posting_the_table_again(two: Two) -> None:
    there = two.there
    await start_game(there, there.people[:3], rounds=2)
    world, table, recorder = await a_game_in_a_thread(two)
    thread = world.channel
    old = table_message(world)
    assert old is not None

    await two.standin.update_thread(thread, archived=True)
    await recorder.step()

    # The edit showing the move is refused once; the table is posted again below, which unarchives the
    # thread, and the old one loses its buttons.
    new = await two.standin.wait_for(lambda: (m := table_message(world)) and m.id != old.id and m, 5, "a new table")
    await two.standin.wait_for(lambda: old.buttons() == [], 5, "the old table without its buttons")
    assert not thread.archived
    assert live_tables(world) == [new]
    assert table.table_message_id == new.id
    assert len(refused(two.standin, 50083)) == 1
    await recorder.play_to_end()
    assert len(refused(two.standin, 50083)) == 1
    assert len(messages_of(two.driver, thread, "Final standings")) == 1
    await plays_on(there, there.people[:3])


@pytest.mark.parametrize("archived", [False, True], ids=["locked", "locked and archived"])
async def test_a_locked_thread_holds_the_game_until_it_is_unlocked(two: Two, archived: bool) -> None:
    there = two.there
    await start_game(there, there.people[:3], rounds=2)
    world, table, recorder = await a_game_in_a_thread(two)
    presenter = two.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await two.standin.wait_for(lambda: presenter.backlog() == 0, 5, "the move shown")

    await two.standin.update_thread(world.channel, archived=archived, locked=True)

    await two.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the game to wait")
    text = await click_while_waiting(world, table, world.people[:3])
    assert f"its thread <#{world.channel.id}> is locked" in text
    assert "/wizard stop from any channel" in text
    assert refused(two.standin, 160005) == []  # Discord said so: nothing was tried there
    await Recorder(there, there.people[:3]).step()  # server B plays on meanwhile

    await two.standin.update_thread(world.channel, locked=False)
    await two.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
    await recorder.play_to_end()
    assert len(messages_of(two.driver, world.channel, "Final standings")) == 1
    assert refused(two.standin, 160005) == []
    assert len(refused(two.standin, 50083)) == int(archived)  # the one edit that found it archived
    await plays_on(there, there.people[:3])


async def test_with_manage_threads_a_locked_thread_does_not_stop_the_game(two: Two) -> None:
    await two.standin.allow_bot(two.here.channel, "manage_threads")
    world, _table, recorder = await a_game_in_a_thread(two)
    await two.standin.update_thread(world.channel, locked=True)
    await recorder.play_to_end()
    assert len(messages_of(two.driver, world.channel, "Final standings")) == 1
    assert refused(two.standin, 160005) == []


async def test_the_host_ends_a_game_in_a_locked_thread_from_another_channel(two: Two) -> None:
    world, table, _ = await a_game_in_a_thread(two)
    presenter = two.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await two.standin.update_thread(world.channel, locked=True)
    await two.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the game to wait")
    host = world.people[0]

    record = await two.driver.slash(host, two.here.channel, "wizard stop")

    assert await reply_text(record, host) == f"Your game in <#{world.channel.id}> is stopped."
    assert await stored(world, table.id) == ("stopped", "stopped")
    shown = table_message(world)
    assert shown is not None
    await two.standin.update_thread(world.channel, locked=False)
    await two.standin.wait_for(lambda: not shown.buttons(), 5, "the closed table")
    assert "stopped by Alice" in shown.text()
    assert refused(two.standin, 160005) == []


async def test_a_lock_the_bot_did_not_hear_of_holds_the_game_from_the_first_refusal(two: Two, tmp_path: Path) -> None:
    """Locked (and archived) while the bot was down: the restored game meets 160005 once, then waits."""
    world, table, _ = await a_game_in_a_thread(two)
    await two.standin.wait_for(lambda: all(latest_hand(world, u) for u in world.people[:3]), 5, "the hands")
    await two.here.runner.stop()
    await two.standin.quiet_second()
    await two.standin.update_thread(world.channel, archived=True, locked=True)
    bot = WizardBot(two.bot.settings)
    bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
    async with run_bot(two.standin, bot, capture_loggers=LOGGERS) as runner:
        again = dataclasses.replace(world, bot=bot, runner=runner)
        presenter = bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
        await two.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the restored game to wait")
        restored = bot.manager.table(table.id)
        text = await click_while_waiting(again, restored, world.people[:3])
        assert "is locked" in text
        assert len(refused(two.standin, 160005)) == 1

        await two.standin.update_thread(world.channel, locked=False)
        await two.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
        await Recorder(again, world.people[:3]).play_to_end()
        assert len(messages_of(two.driver, world.channel, "Final standings")) == 1
        assert len(refused(two.standin, 160005)) == 1


@pytest.mark.parametrize("deleted", ["the thread", "its channel"])
async def test_a_deleted_thread_ends_its_game(two: Two, deleted: str) -> None:
    there = two.there
    await start_game(there, there.people[:3], rounds=2)
    world, table, _ = await a_game_in_a_thread(two)
    presenter = two.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await two.standin.wait_for(lambda: presenter.backlog() == 0, 5, "the move shown")
    since = time.monotonic()

    await two.standin.delete_channel(world.channel if deleted == "the thread" else two.here.channel)

    def told(person: User) -> int:
        return len([m for m in two.driver.dm_view(person) if ENDED in m.text()])

    seats = world.people[:3]
    await two.standin.wait_for(lambda: all(told(person) for person in seats), 5, "every player told")
    assert await stored(world, table.id) == ("stopped", "channel_gone")
    await plays_on(there, there.people[:3])
    assert [told(person) for person in seats] == [1, 1, 1]
    assert calls_to(two.standin, world.channel, since) == []


async def test_an_outage_the_bot_came_back_to_holds_the_game_until_the_server_is_back(two: Two) -> None:
    """Down while its server was unavailable: READY lists the server, GUILD_DELETE says it is down. The
    game waits (it is not ended as if the bot had been removed), and goes on when the server is back."""
    here = two.here
    table = await start_game(here, here.people[:3], rounds=1)
    await two.standin.wait_for(lambda: all(latest_hand(here, u) for u in here.people[:3]), 5, "the hands")
    await here.runner.stop()
    await two.standin.quiet_second()
    await two.standin.guild_outage(here.guild)
    bot = WizardBot(two.bot.settings)
    bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
    async with run_bot(two.standin, bot, capture_loggers=LOGGERS) as runner:
        again = dataclasses.replace(here, bot=bot, runner=runner)
        presenter = bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
        await two.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the restored game to wait")
        text = await click_while_waiting(again, bot.manager.table(table.id), here.people[:3])
        assert "unavailable" in text

        await two.standin.guild_recovers(here.guild)
        await two.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
        await Recorder(again, here.people[:3]).play_to_end()
        assert await stored(again, table.id) == ("finished", None)
        assert all(ENDED not in m.text() for person in here.people for m in two.driver.dm_view(person))


# ---------------------------------------------------------------------- a lobby whose message was deleted
async def a_lobby(world: World, host: User, *guests: User) -> StoredMessage:
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    for guest in guests:
        await (await world.driver.click(guest, lobby, "Join")).wait_acked(3)
    return lobby


async def test_a_lobby_whose_message_was_deleted_is_closed_at_the_next_start(two: Two) -> None:
    here, there = two.here, two.there
    await start_game(there, there.people[:3], rounds=1)
    alice, bob, carol, _ = here.people
    old = await a_lobby(here, alice, bob)
    first = two.bot.manager.in_channel(here.channel.id)
    assert isinstance(first, Lobby)
    await two.standin.delete_message(old)

    record = await two.driver.slash(carol, here.channel, "wizard start")

    new = await record.wait_response()
    assert not new.ephemeral
    assert "The earlier lobby in this channel is closed: its message was deleted." in new.text()
    lobby = two.bot.manager.in_channel(here.channel.id)
    assert isinstance(lobby, Lobby)
    assert lobby.host_id == carol.id
    assert await stored(here, first.id) == ("closed", None)
    for person in (alice, bob):
        await (await two.driver.click(person, new, "Join")).wait_acked(3)
    await (await two.driver.click(carol, new, "Start")).wait_acked(3)
    await two.standin.wait_for(lambda: table_message(here), 5, "the new game's table")
    await plays_on(there, there.people[:3])


async def test_a_lobby_whose_message_was_deleted_is_closed_at_the_hosts_next_click(two: Two) -> None:
    alice, bob, *_ = two.here.people
    old = await a_lobby(two.here, alice, bob)
    panel = await (await two.driver.click(alice, old, "Host settings")).wait_response()
    await two.standin.delete_message(old)

    record = await two.driver.click(alice, panel, "Add easy")

    (told,) = await record.wait_followups()
    assert told.ephemeral_to == alice.id
    assert "The message of this lobby was deleted" in told.text()
    assert two.bot.manager.in_channel(two.here.channel.id) is None  # the channel is free


async def test_a_busy_channel_links_to_a_message_that_exists(two: Two) -> None:
    here = two.here
    alice, bob, carol, dave = here.people
    lobby = await a_lobby(here, alice, bob)
    text = await reply_text(await two.driver.slash(dave, here.channel, "wizard start"), dave)
    assert f"/{here.channel.id}/{lobby.id}" in text

    await (await two.driver.click(carol, lobby, "Join")).wait_acked(3)
    await (await two.driver.click(alice, lobby, "Start")).wait_acked(3)
    table = await two.standin.wait_for(lambda: table_message(here), 5, "the table")
    await two.standin.delete_message(table)
    text = await reply_text(await two.driver.slash(dave, here.channel, "wizard start"), dave)
    link = re.search(rf"/{here.channel.id}/(\d+)", text)
    assert link is not None
    assert int(link[1]) in {m.id for m in two.driver.channel_view(here.channel)}


# ---------------------------------------------------------------------- a real `python -m bot`, restarted
@dataclass
class Process:
    """The bot as `python -m bot` (its commands published with --sync) against two servers, which
    `populate` makes: A's game is the one things happen to, B's plays on."""

    standin: DiscordStandin
    driver: Driver
    bot: Bot
    here: Channel
    people: list[User]
    there: Channel
    others: list[User]
    folder: Path

    def hosts(self, seats: list[User]) -> Players:
        return Players(self.standin, self.driver, self.here, seats)

    def stored(self) -> list[tuple[str, str | None]]:
        """Each game of server A's channel as the database holds it: status and why it ended."""
        with contextlib.closing(sqlite3.connect(self.folder / "wizard.db")) as db:
            query = "SELECT status, end_reason FROM games WHERE channel_id = ? AND status <> 'closed'"
            return [tuple(row) for row in db.execute(query, (self.here.id,))]  # type: ignore[misc]

    def told(self, person: User) -> int:
        return len([m for m in self.driver.dm_view(person) if ENDED in m.text()])

    def log_problems(self) -> tuple[list[str], list[str]]:
        """The errors the process logged, and the warnings it logged more than once (each start says
        once that voice is not supported: not a repeat)."""
        lines = (self.folder / "bot.log").read_text(errors="replace").splitlines()
        errors = [line for line in lines if "[ERROR" in line or "[CRITICAL" in line or "Traceback" in line]
        warnings = [
            re.sub(r"^\[[^\]]*\] ", "", line)
            for line in lines
            if "[WARNING" in line and "voice will NOT be supported" not in line
        ]
        return errors, repeated(warnings)


@contextlib.asynccontextmanager
async def a_bot_process(folder: Path) -> AsyncIterator[Process]:
    async with DiscordStandin() as standin:
        _, channel, people, _, other, others = populate(standin)
        bot = Bot(standin, folder, None, GAME_SEED, "--sync")
        try:
            await bot.start()
            yield Process(standin, Driver(standin), bot, channel, people, other, others, folder)
            assert standin.global_refusals == 0
            assert standin.unknown_routes == []
        finally:
            await bot.stop()


async def a_move_on(players: Players) -> None:
    assert await players.move()


async def play_to_the_end(process: Process, players: Players) -> None:
    while await players.move():
        pass
    await process.standin.wait_for(players.finished, 30, "server B's final standings")
    assert len(messages_of(process.driver, process.there, "Final standings")) == 1


async def refusal_of_a_click(process: Process, seats: list[User]) -> str:
    """One of `seats` clicks a move their DM hand of the ended game still offers: the private answer."""
    for person in seats:
        hand = [m for m in process.driver.dm_view(person) if "Your hand" in m.text()][-1]
        moves = [b for b in hand.buttons() if not b.get("disabled")]
        if moves:
            return await reply_text(await process.driver.click(person, hand, str(moves[0]["custom_id"])), person)
    raise AssertionError("no hand offers a move")


MOMENTS = {"mid-bid": 0, "mid-round": 2}  # the card before which it happens: 0, during the bids


@pytest.mark.parametrize(
    ("moment", "down"),
    [("mid-bid", False), ("mid-round", False), ("mid-round", True)],
    ids=["mid-bid", "mid-round", "mid-round, while the bot was down"],
)
async def test_a_deleted_channel_ends_its_game_for_good(tmp_path: Path, moment: str, down: bool) -> None:
    async with a_bot_process(tmp_path) as process:
        standin, driver = process.standin, process.driver
        seats = process.people[:3]
        await open_game(driver, process.there, process.others, rounds=2)
        elsewhere = Players(standin, driver, process.there, process.others)
        await a_move_on(elsewhere)
        await open_game(driver, process.here, seats, rounds=2)
        players = process.hosts(seats)
        if MOMENTS[moment]:
            while await players.move(before_card=MOMENTS[moment]):
                pass
        else:
            await a_move_on(players)
        await standin.wait_for(players.next_move, 30, "the table showing the last move")

        deleted = time.monotonic()
        if down:
            await process.bot.kill()
            await standin.delete_channel(process.here)
            await process.bot.start()
        else:
            await standin.delete_channel(process.here)

        await standin.wait_for(lambda: all(process.told(person) for person in seats), 30, "every player told")
        assert process.stored() == [("stopped", "channel_gone")]
        assert "This game has ended: its channel was deleted" in await refusal_of_a_click(process, seats)
        await process.bot.kill()
        await process.bot.start()
        await play_to_the_end(process, elsewhere)

        assert [process.told(person) for person in seats] == [1, 1, 1]
        # Told by the gateway, the bot asks nothing more there; having missed it, it meets one refusal.
        after = calls_to(standin, process.here, deleted)
        assert [call.code for call in after] == ([10003] if down else [])
        assert process.stored() == [("stopped", "channel_gone")]
    assert process.log_problems() == ([], [])


@pytest.mark.parametrize("down", [False, True], ids=["removed", "removed while the bot was down"])
async def test_the_bot_removed_from_a_server_ends_its_games_there(tmp_path: Path, down: bool) -> None:
    """alice, bob and dave play in server A; dave is in server B too, so only he can still be told."""
    async with a_bot_process(tmp_path) as process:
        standin, driver = process.standin, process.driver
        alice, bob, _, dave = process.people
        seats = [alice, bob, dave]
        guild = standin.guilds[process.here.guild_id or 0]
        await open_game(driver, process.there, process.others, rounds=2)
        elsewhere = Players(standin, driver, process.there, process.others)
        await a_move_on(elsewhere)
        await open_game(driver, process.here, seats, rounds=2)
        players = process.hosts(seats)
        await a_move_on(players)
        await standin.wait_for(players.next_move, 30, "the table showing the move")

        removed = time.monotonic()
        if down:
            await process.bot.kill()
            await standin.remove_bot(guild)
            await process.bot.start()
        else:
            await standin.remove_bot(guild)

        await standin.wait_for(lambda: process.told(dave), 30, "dave told")
        await standin.wait_for(lambda: process.stored() == [("stopped", "server_gone")], 10, "the game ended")
        assert "This game has ended: I am no longer in its server" in await refusal_of_a_click(process, [dave])
        await process.bot.kill()
        await process.bot.start()
        await play_to_the_end(process, elsewhere)

        # alice and bob share no server with the bot any more: Discord refuses it their DMs (50007).
        assert [process.told(person) for person in seats] == [0, 0, 1]
        # Not a request to the server after it: the new session's READY without it said as much.
        assert calls_to(standin, process.here, removed) == []
        assert process.stored() == [("stopped", "server_gone")]
    assert process.log_problems() == ([], [])


@pytest.mark.parametrize("button", ["Game record", "Rematch", "My review"])
async def test_the_buttons_of_a_game_whose_rows_are_gone_say_so(two: Two, button: str) -> None:
    here = two.here
    seats = here.people[:3]
    table = await start_game(here, seats, rounds=1)
    await Recorder(here, seats).play_to_end()
    (final,) = messages_of(two.driver, here.channel, "Final standings")
    # An admin prunes old games while the bot is stopped: its seats, moves and results go with it.
    await here.runner.stop()
    await two.standin.quiet_second()
    with contextlib.closing(sqlite3.connect(two.bot.settings.database_path)) as db, db:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM games WHERE id = ?", (table.id,))
    bot = WizardBot(two.bot.settings)
    async with run_bot(two.standin, bot, capture_loggers=LOGGERS):
        record = await two.driver.click(seats[1], final, button)

        answer = await record.wait_response()
        assert answer.ephemeral_to == seats[1].id
        assert answer.text() == "This game's record is no longer stored."
        assert bot.manager.in_channel(here.channel.id) is None
