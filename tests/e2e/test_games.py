"""Whole games of Wizard played by clicking, from /wizard start to the final standings."""

from __future__ import annotations

import json

import pytest

from bot.engine import ChooseTrump, Game, Options
from tests.e2e._play import Recorder, final_line, host_panel, reply_text, start_game
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import StoredMessage


def message_link(world: World, message: StoredMessage) -> str:
    return f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{message.id}"


async def open_game(world: World, players: int, **options: object) -> Recorder:
    """The first people start a game in the channel (see `start_game`) and a recorder to play it."""
    await start_game(world, world.people[:players], **options)
    return Recorder(world, world.people[:players])


@pytest.mark.parametrize("players", [3, 4, 6])
async def test_a_whole_game_is_played_by_clicking(world: World, players: int) -> None:
    recorder = await open_game(world, players)
    await recorder.play_to_end()
    seat = {user.id: index for index, user in enumerate(recorder.seats)}
    replay = Game.replay(players, GAME_SEED, Options(), [(seat[user.id], action) for user, action in recorder.moves])
    assert replay.is_over
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    for user, score in zip(recorder.seats, replay.scores, strict=True):
        assert final_line(user.global_name or user.name, score) in final.text()


async def test_a_game_at_discords_own_per_route_pace_is_shown_whole_and_nothing_is_refused(world: World) -> None:
    """Discord's per-route windows at their full length (5 sends and 5 edits per 5 seconds in a
    channel, a DM included): clicks outrun the table's edits, which the bot waits for as Discord
    announces them and merges meanwhile; nothing is refused (the fixture checks), and the game ends
    with its table and standings shown."""
    world.standin.route_time_scale = 1.0
    seats = world.people[:3]
    await start_game(world, seats, rounds=2)
    recorder = Recorder(world, seats)
    await recorder.play_to_end()
    seat = {user.id: index for index, user in enumerate(seats)}
    replay = Game.replay(3, GAME_SEED, Options(rounds=2), [(seat[user.id], action) for user, action in recorder.moves])
    assert replay.is_over
    finals = [m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text()]
    assert len(finals) == 1
    for user, score in zip(seats, replay.scores, strict=True):
        assert final_line(user.global_name or user.name, score) in finals[0].text()


async def test_a_finished_game_shows_on_the_leaderboard_and_in_stats(world: World) -> None:
    recorder = await open_game(world, 3)
    await recorder.play_to_end()
    host = world.people[0]
    board = await (
        await world.driver.slash(host, world.channel, "leaderboard", options={"sort": "wins"})
    ).wait_response()
    lines = [line for line in board.text().splitlines() if line[:1].isdigit()]
    assert len(lines) == 3
    assert "Alice: #" in board.text()
    stats = await (await world.driver.slash(host, world.channel, "stats")).wait_response()
    assert "3 played" not in stats.text()
    assert "1 played" in stats.text()
    assert "20 cards:" in stats.text()  # the last round of a 3-player game


async def test_one_person_plays_a_whole_game_against_computer_players(world: World) -> None:
    host = world.people[0]
    options = {"computer_players": 2, "computer_level": "easy"}
    lobby = await (await world.driver.slash(host, world.channel, "wizard start", options=options)).wait_response()
    assert "Computer 1 (easy)" in lobby.text()
    assert "Computer 2 (easy)" in lobby.text()
    await (await world.driver.click(host, lobby, "Start")).wait_acked(3)
    recorder = Recorder(world, [host])
    await recorder.play_to_end()
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    assert "Computer 2 (easy)" in final.text()
    board = await (
        await world.driver.slash(host, world.channel, "leaderboard", options={"sort": "wins"})
    ).wait_response()
    assert "Computer" not in board.text()  # computer players have results but no statistics


async def test_the_host_adds_and_removes_computer_players_in_the_lobby(world: World) -> None:
    host = world.people[0]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    panel = await host_panel(world, host, lobby)
    await (await world.driver.click(host, panel, "Add hard")).wait_acked(3)
    await (await world.driver.click(host, panel, "Add normal")).wait_acked(3)
    await (await world.driver.click(host, panel, "Remove computer")).wait_acked(3)
    # The lobby message, which everyone sees, follows the panel.
    await world.standin.wait_for(lambda: "(normal)" not in world.standin.messages[lobby.id].text(), 3, "the lobby")
    for shown in (world.standin.messages[lobby.id], world.standin.messages[panel.id]):
        assert "Computer 1 (hard)" in shown.text()
        assert "(normal)" not in shown.text()
    refused = await world.driver.click(world.people[1], lobby, "Host settings")
    reply = await refused.wait_response()
    assert reply.ephemeral
    assert "Only the host" in reply.text()


async def test_the_end_shows_a_chart_and_offers_the_record_and_a_rematch(world: World) -> None:
    recorder = await open_game(world, 3)
    await recorder.play_to_end()
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    assert final.attachment_names == ["totals.png"]
    assert final.files["totals.png"][:8] == b"\x89PNG\r\n\x1a\n"
    [embed] = final.embeds
    assert embed["image"]["url"] == "attachment://totals.png"
    assert all(field["value"].strip("\u200b ") for field in embed.get("fields", []))  # no empty heading above it
    bob = world.people[1]
    record = await (await world.driver.click(bob, final, "Game record")).wait_response()
    assert record.ephemeral
    [name] = record.attachment_names
    data = json.loads(record.files[name])
    assert Game.from_json(data["game"]).scores == data["scores"]
    rematch = await (await world.driver.click(bob, final, "Rematch")).wait_response()
    assert f"<@{world.people[0].id}>" in rematch.text()
    assert f"<@{world.people[2].id}>" in rematch.text()
    await (await world.driver.click(world.people[0], rematch, "Join")).wait_acked(3)
    assert "Alice" in world.standin.messages[rematch.id].text()


async def test_rematch_in_a_channel_with_a_new_lobby_says_so_with_a_link(world: World) -> None:
    recorder = await open_game(world, 3, rounds=1)
    await recorder.play_to_end()
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    lobby = await (await world.driver.slash(world.people[3], world.channel, "wizard start")).wait_response()
    bob = world.people[1]
    text = await reply_text(await world.driver.click(bob, final, "Rematch"), bob)
    assert text == f"There is already a game in this channel: {message_link(world, lobby)}"


async def test_a_card_costs_its_own_answer_one_table_edit_and_no_dm_edit_once_the_hands_were_clicked(
    world: World,
) -> None:
    """Discord counts requests per bot token, interaction endpoints aside. A move edits the table
    once; the mover's hand is its click's own answer; every other hand, which shows the trick, is
    edited through the token of its player's latest click on it. So the bot's own token edits a DM
    only before its player's first click of the round (their bid): at most once for each move made
    before it, the dealer's trump choice included."""
    players, rounds = 4, 15
    recorder = await open_game(world, players, bids_may_not_add_up=True)
    since = world.standin.rest_calls()[-1].at
    await recorder.play_to_end()
    calls = world.standin.rest_calls(since=since)
    moves = len(recorder.moves)
    trumps = sum(1 for _, action in recorder.moves if isinstance(action, ChooseTrump))
    # The bot's own message edits (an interaction token's edits are answers, counted apart).
    edits = [
        c for c in calls if c.method == "PATCH" and c.route.endswith("/channels/{channel_id}/messages/{message_id}")
    ]
    dm_edits = [c for c in edits if world.standin.channels[int(c.path.split("/")[-3])].is_dm]
    table_edits = [c for c in edits if int(c.path.split("/")[-3]) == world.channel.id]
    callbacks = [c for c in calls if "/interactions/" in c.route]
    assert len(callbacks) == moves
    # Each person's DM channel is opened once, for the first round's hand; later rounds reuse it.
    opened = world.standin.rest_calls("POST", "/users/@me/channels")
    assert len(opened) == players, [c.at >= since for c in opened]
    assert len(table_edits) <= moves
    # In a round the k-th bidder's DM meets k - 1 bids (and perhaps the trump choice) before its
    # player's own first click; a DM whose click's token ran out would need more.
    before_first_click = rounds * players * (players - 1) // 2 + trumps * (players - 1)
    assert len(dm_edits) <= before_first_click, (len(dm_edits), moves)
