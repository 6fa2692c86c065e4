"""The bot's channel permissions: a game starts only where it can be shown, and waits safely when
one is taken away, until it is back.

The stand-in refuses what Discord refuses (403 50013 / 50001), so a game that went on posting
into a channel it may not post in would fail these tests; so would a bot that asked anyway: the
bot reads its permissions from the interaction and its cache, and makes no refused request.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from bot.client import WizardBot
from bot.engine import Game, Options
from bot.manager import GameManager, Table
from bot.storage import Repository
from tests.e2e._play import Recorder, action_buttons, latest_hand, reply_text, start_game, table_message
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import StoredMessage, User, run_bot

# The channel permissions a game needs, as Discord's settings (and the bot's refusal) name them.
NEEDED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def refused_requests(world: World) -> list[str]:
    """Every request of the bot that Discord would have refused for its permissions."""
    return [f"{c.method} {c.path} -> {c.status}" for c in world.standin.rest_log if c.status == 403]


async def click_while_waiting(world: World, table: Table, seats: list[User]) -> str:
    """The player to move clicks a move on their DM hand; the private answer, the game unchanged."""
    moves = list(table.game.log)
    player = table.player_to_move()
    assert player is not None
    user = next(u for u in seats if u.id == player.user_id)
    # Their DM shows the game as it is while the channel waits, their move included.
    hand = await world.standin.wait_for(
        lambda: (m := latest_hand(world, user)) and action_buttons(m) and m, 5, f"{user.name}'s move in the DM"
    )
    move = action_buttons(hand)[0]
    record = await world.driver.click(user, hand, str(move["custom_id"]))
    text = await reply_text(record, user)
    assert table.game.log == moves
    return text


def finals(world: World) -> list[StoredMessage]:
    return [m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text()]


@dataclasses.dataclass
class Waiting:
    """A game of three whose table cannot show its latest move: the bot lacks a permission there."""

    table: Table
    seats: list[User]
    recorder: Recorder
    presenter: Any


async def a_move_it_cannot_show(world: World, permission: str = "send_messages") -> Waiting:
    """Start a game, take `permission` from the bot, and make a move: it is kept, and the game waits."""
    seats = world.people[:3]
    table = await start_game(world, seats, rounds=2)
    recorder = Recorder(world, seats)
    await world.standin.deny_bot(world.channel, permission)
    presenter = world.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await recorder.step()
    await world.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the game to wait")
    return Waiting(table, seats, recorder, presenter)


@pytest.mark.parametrize("permission", [name for name in NEEDED if name != "attach_files"])
async def test_a_game_is_not_started_where_the_bot_lacks_a_permission(world: World, permission: str) -> None:
    await world.standin.deny_bot(world.channel, permission)
    host = world.people[0]
    record = await world.driver.slash(host, world.channel, "wizard start")
    text = await reply_text(record, host)
    assert f"I'm missing **{NEEDED[permission]}** there" in text
    assert "A server manager can grant it in the channel's settings" in text
    assert world.bot.manager.in_channel(world.channel.id) is None
    assert world.driver.channel_view(world.channel) == []


async def test_every_missing_permission_is_named(world: World) -> None:
    await world.standin.deny_bot(world.channel, "embed_links", "attach_files")
    host = world.people[0]
    text = await reply_text(await world.driver.slash(host, world.channel, "wizard start"), host)
    assert "**Embed Links**, **Attach Files**" in text
    assert "A server manager can grant them" in text  # not "grant it": the text counts the permissions


async def test_start_is_refused_when_a_permission_went_away_while_the_lobby_was_open(world: World) -> None:
    host, *guests = world.people[:3]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    for guest in guests:
        await (await world.driver.click(guest, lobby, "Join")).wait_acked(3)
    await world.standin.deny_bot(world.channel, "embed_links")
    text = await reply_text(await world.driver.click(host, lobby, "Start"), host)
    assert "**Embed Links**" in text
    assert world.bot.manager.in_channel(world.channel.id) is not None
    assert not isinstance(world.bot.manager.in_channel(world.channel.id), Table)
    await world.standin.allow_bot(world.channel, "embed_links")
    started = await world.driver.click(host, lobby, "Start")
    await started.wait_response()
    assert started.callback_types == [7], started.messages[0].text()
    assert isinstance(world.bot.manager.in_channel(world.channel.id), Table)


async def test_a_game_in_a_thread_needs_send_messages_in_threads(world: World) -> None:
    # Threads take their overwrites from the parent channel.
    await world.standin.deny_bot(world.channel, "send_messages_in_threads")
    thread = await world.standin.open_thread(world.channel, "wizard night")
    host = world.people[0]
    text = await reply_text(await world.driver.slash(host, thread, "wizard start"), host)
    assert "**Send Messages in Threads**" in text
    assert world.bot.manager.in_channel(thread.id) is None


async def test_a_whole_game_is_played_in_a_thread_with_only_send_messages_in_threads(world: World) -> None:
    # Discord checks Send Messages in Threads in a thread, not Send Messages.
    await world.standin.deny_bot(world.channel, "send_messages")
    await world.standin.allow_bot(world.channel, "send_messages_in_threads")
    thread = await world.standin.open_thread(world.channel, "wizard night")
    in_thread = dataclasses.replace(world, channel=thread)
    seats = world.people[:3]
    await start_game(in_thread, seats, rounds=2)
    recorder = Recorder(in_thread, seats)
    await recorder.play_to_end()
    assert len(finals(in_thread)) == 1
    assert refused_requests(world) == []


@pytest.mark.parametrize("permission", ["send_messages", "embed_links", "view_channel"])
async def test_a_game_waits_while_a_permission_is_missing_and_goes_on_when_it_is_back(
    world: World, permission: str
) -> None:
    # The move is kept; the table cannot show it, so the game waits.
    waiting = await a_move_it_cannot_show(world, permission)
    table, seats, recorder, presenter = waiting.table, waiting.seats, waiting.recorder, waiting.presenter
    text = await click_while_waiting(world, table, seats)
    assert f"I'm missing **{NEEDED[permission]}** there" in text
    assert "Every move so far is saved" in text
    assert refused_requests(world) == []

    # Granted again: the table catches up and the game is played to its end, shown once.
    await world.standin.allow_bot(world.channel, permission)
    await world.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
    await recorder.play_to_end()
    assert len(finals(world)) == 1
    seat = {u.id: index for index, u in enumerate(seats)}
    replay = Game.replay(3, GAME_SEED, Options(rounds=2), [(seat[u.id], action) for u, action in recorder.moves])
    assert replay.is_over
    assert refused_requests(world) == []


async def test_a_click_finds_a_permission_given_back_without_an_event(world: World) -> None:
    """A role given to the bot comes as a member update, which the bot does not receive (it needs the
    privileged members intent): the next click from the channel carries the bot's permissions."""
    waiting = await a_move_it_cannot_show(world)
    table, seats, recorder, presenter = waiting.table, waiting.seats, waiting.recorder, waiting.presenter
    # Grant it without telling the bot, as a new role of its own would.
    world.standin.channels[world.channel.id].overwrites.pop(world.standin.bot_user.id)
    shown = table_message(world)
    assert shown is not None
    record = await world.driver.click(seats[0], shown, "My hand")
    hand = await record.wait_response()
    assert "Your hand" in hand.text()
    await world.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
    await recorder.play_to_end()
    assert len(finals(world)) == 1
    assert refused_requests(world) == []


async def test_without_attach_files_a_game_starts_and_its_host_is_told_privately_there_will_be_no_chart(
    world: World,
) -> None:
    await world.standin.deny_bot(world.channel, "attach_files")
    host, *guests = world.people[:3]
    record = await world.driver.slash(host, world.channel, "wizard start", options={"rounds": 1})
    lobby = await record.wait_response()
    (told,) = await record.wait_followups(1)
    assert told.ephemeral_to == host.id
    assert "will come without their chart: I'm missing **Attach Files** there" in told.text()
    for guest in guests:
        await (await world.driver.click(guest, lobby, "Join")).wait_acked(3)
    started = await world.driver.click(host, lobby, "Start")
    (again,) = await started.wait_followups(1)
    assert again.ephemeral_to == host.id
    assert isinstance(world.bot.manager.in_channel(world.channel.id), Table)
    await Recorder(world, world.people[:3]).play_to_end()
    (final,) = finals(world)
    assert final.attachment_names == []
    assert "No chart: I'm missing **Attach Files** in this channel." in final.text()
    assert refused_requests(world) == []


async def test_without_attach_files_the_final_standings_come_without_the_chart_saying_why(world: World) -> None:
    seats = world.people[:3]
    await start_game(world, seats, rounds=1)
    await world.standin.deny_bot(world.channel, "attach_files")
    recorder = Recorder(world, seats)
    await recorder.play_to_end()
    (final,) = finals(world)
    assert final.attachment_names == []
    assert "No chart: I'm missing **Attach Files** in this channel." in final.text()
    assert [b["label"] for b in final.buttons()] == ["Rematch", "My review", "Game record"]
    assert refused_requests(world) == []


async def test_a_rematch_is_refused_where_the_bot_can_no_longer_post(world: World) -> None:
    seats = world.people[:3]
    await start_game(world, seats, rounds=1)
    await Recorder(world, seats).play_to_end()
    (final,) = finals(world)
    await world.standin.deny_bot(world.channel, "send_messages")
    text = await reply_text(await world.driver.click(seats[1], final, "Rematch"), seats[1])
    assert "**Send Messages**" in text
    assert world.bot.manager.in_channel(world.channel.id) is None


async def test_a_game_stopped_while_it_waits_closes_its_table_when_it_can(world: World) -> None:
    waiting = await a_move_it_cannot_show(world)
    table, seats = waiting.table, waiting.seats
    stop = await world.driver.slash(seats[0], world.channel, "wizard stop")
    assert "stopped by Alice" in (await stop.wait_response()).text()
    # Without Send Messages Discord drops a bot's embeds (Embed Links goes with it), so even the
    # table's edit must wait: the closed table is owed, and shown once the permission is back.
    shown = world.standin.messages[table.table_message_id or 0]
    edits = shown.edits
    await world.standin.allow_bot(world.channel, "send_messages")
    await world.standin.wait_for(lambda: not shown.buttons(), 5, "the closed table")
    assert "stopped by Alice" in shown.text()
    assert shown.edits == edits + 1
    assert refused_requests(world) == []


async def test_a_game_restored_where_a_permission_is_missing_waits_and_goes_on(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats, rounds=2)
    # Every hand is out before the bot stops (under the request budget they go out one by one).
    await world.standin.wait_for(lambda: all(latest_hand(world, u) for u in seats), 5, "every hand dealt")
    before = Recorder(world, seats)
    await before.step()
    await world.runner.stop()
    await world.standin.quiet_second()
    # While the bot is down, a manager takes Send Messages away; it comes back to a game it cannot show.
    await world.standin.deny_bot(world.channel, "send_messages")
    bot = WizardBot(world.bot.settings)
    bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
    async with run_bot(world.standin, bot, capture_loggers=("discord", "bot", "cogs")) as runner:
        again = dataclasses.replace(world, bot=bot, runner=runner)
        restored = bot.manager.table(table.id)
        presenter = bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
        await world.standin.wait_for(lambda: presenter.blocked(table.id), 5, "the restored game to wait")
        text = await click_while_waiting(again, restored, seats)
        assert "I'm missing **Send Messages** there" in text
        assert refused_requests(world) == []

        await world.standin.allow_bot(world.channel, "send_messages")
        await world.standin.wait_for(lambda: not presenter.blocked(table.id), 5, "the game to go on")
        after = Recorder(again, seats)
        await after.play_to_end()
        assert len(finals(again)) == 1
        moves = [*before.moves, *after.moves]
        seat = {u.id: index for index, u in enumerate(seats)}
        replay = Game.replay(3, GAME_SEED, Options(rounds=2), [(seat[u.id], action) for u, action in moves])
        assert replay.is_over
        assert refused_requests(world) == []


async def test_a_whole_game_needs_no_other_permission(world: World) -> None:
    # The README lists exactly what the bot needs: it reads no history and uses no custom emojis.
    await world.standin.deny_bot(world.channel, "read_message_history", "use_external_emojis", "add_reactions")
    seats = world.people[:3]
    await start_game(world, seats, rounds=2)
    await Recorder(world, seats).play_to_end()
    (final,) = finals(world)
    assert final.attachment_names == ["totals.png"]
    assert refused_requests(world) == []


async def test_a_process_that_another_took_the_game_from_shows_nothing_more_of_it(world: World) -> None:
    """What the feed still had to show when another process took the game over (here: a move the
    table waited to show for want of a permission) is that process's to show: sent from here too,
    an older render could land over its newer one."""
    waiting = await a_move_it_cannot_show(world)
    table, presenter = waiting.table, waiting.presenter
    shown = table_message(world)
    assert shown is not None
    edits = shown.edits

    # Another process of the server starts and takes the game; at this one's next beat it lets go.
    other = await Repository.open(world.bot.settings.database_path)
    try:
        now = time.time()
        assert await other.claim_games("other", [table.id], now, now + 60, starting=True) == {table.id}
    finally:
        await other.close()
    await world.bot.manager._renew_and_adopt()
    assert table.guest
    await world.standin.allow_bot(world.channel, "send_messages")
    await world.standin.wait_for(lambda: presenter.backlog() == 0, 5, "the feed to let go")

    assert shown.edits == edits
    assert refused_requests(world) == []
