"""Clicks that must be refused, clicks that race, and a Discord that misbehaves: the game stays right."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from bot.client import WizardBot
from bot.engine import Game, Options, Phase, Play
from bot.manager import GameManager, Table
from cogs.wizard import _ids
from tests.e2e._play import (
    Recorder,
    action_buttons,
    custom_ids_ever,
    final_line,
    has_hand_button,
    latest_hand,
    read_turn,
    reply_text,
    start_game,
    table_message,
)
from tests.e2e._reading import Face, faces, read
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import StoredMessage, User, run_bot

NOT_YOUR_TURN = "It's not your turn."
NOT_IN_GAME = "You are not playing in this game."
STALE = "That button is from an earlier trick or round."
BROKEN = "That button is not one of mine or is damaged, so nothing happened."


async def three_player_game(world: World) -> tuple[Table, Recorder]:
    seats = world.people[:3]
    table = await start_game(world, seats)
    return table, Recorder(world, seats)


def to_move(table: Table, recorder: Recorder) -> User:
    seat = table.game.to_move
    assert seat is not None
    return recorder.seats[seat]


async def turn_hand(world: World, user: User) -> StoredMessage:
    """The user's DM hand once it offers them a move."""
    return await world.standin.wait_for(
        lambda: (m := latest_hand(world, user)) and action_buttons(m) and m, 5, f"{user.name}'s move buttons"
    )


async def live_table(world: World) -> StoredMessage:
    """The table message with its "My hand" button."""
    return await world.standin.wait_for(lambda: table_message(world), 5, "the table message")


async def first_trick(world: World) -> tuple[Table, Recorder]:
    """A 3-player game after the bids of round 1: the leader is to play."""
    table, recorder = await three_player_game(world)
    await recorder.play_until(lambda: table.game.phase is Phase.PLAY)
    return table, recorder


# -- refusals --------------------------------------------------------------------------------


async def test_a_card_clicked_out_of_turn_in_my_hand_is_refused_saying_whose_turn_it_is(world: World) -> None:
    table, recorder = await first_trick(world)
    mover = table.game.to_move or 0
    waiting = recorder.seats[(mover + 1) % 3]
    shown = await world.driver.click(waiting, await live_table(world), "My hand")
    hand = await shown.wait_response()
    assert action_buttons(hand) == []  # not their move: nothing to click
    seat = table.seat_of(waiting.id)
    assert seat is not None
    card = table.game.hands[seat][0]
    forged = _ids.build(_ids.ActionId(table.id, table.game.round, 0, Play(card)))  # an old copy's button
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(waiting, hand, forged)

    assert await reply_text(record, waiting) == f"**{table.players[mover].name}** leads the trick; you are next."
    assert table.game.snapshot() == before


async def test_an_outsider_clicking_my_hand_is_refused(world: World) -> None:
    await three_player_game(world)
    olga = world.outsider
    record = await world.driver.click(olga, await live_table(world), "My hand")
    assert NOT_IN_GAME in await reply_text(record, olga)


async def test_an_outsider_forging_a_move_is_refused(world: World) -> None:
    table, recorder = await three_player_game(world)
    bidder = to_move(table, recorder)
    legal_bid = str(action_buttons(await turn_hand(world, bidder))[0]["custom_id"])
    olga = world.outsider
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(olga, await live_table(world), legal_bid)

    assert NOT_IN_GAME in await reply_text(record, olga)
    assert table.game.snapshot() == before


async def test_a_button_from_an_earlier_round_is_refused(world: World) -> None:
    table, recorder = await three_player_game(world)
    await recorder.play_until(lambda: table.game.round == 2)
    bidder = to_move(table, recorder)
    await turn_hand(world, bidder)
    round_one = world.driver.dm_view(bidder)[0]
    assert round_one.text().startswith("Round 1: ")  # closed into how round 1 went
    old_bid = f"wz:bid:{table.id}:1:0:0"
    assert old_bid in custom_ids_ever(round_one)
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(bidder, round_one, old_bid)

    assert STALE in await reply_text(record, bidder)
    assert table.game.snapshot() == before


async def test_a_button_from_an_earlier_trick_is_refused(world: World) -> None:
    table, recorder = await three_player_game(world)
    await recorder.play_until(lambda: table.game.round == 2 and len(table.game.tricks) == 1)
    leader = to_move(table, recorder)
    hand = await turn_hand(world, leader)
    [card] = table.game.hands[table.game.to_move or 0]
    old_card = f"wz:play:{table.id}:2:0:{card.code}"
    assert old_card in custom_ids_ever(hand)
    assert old_card not in {str(b["custom_id"]) for b in hand.buttons()}
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(leader, hand, old_card)

    assert STALE in await reply_text(record, leader)
    assert table.game.snapshot() == before


async def test_a_malformed_wizard_id_is_answered_and_changes_nothing(world: World) -> None:
    table, recorder = await first_trick(world)
    leader = to_move(table, recorder)
    hand = await turn_hand(world, leader)
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(leader, hand, "wz:play:zz")

    assert BROKEN in await reply_text(record, leader)
    assert table.game.snapshot() == before


async def test_a_card_the_player_does_not_hold_is_refused(world: World) -> None:
    table, recorder = await first_trick(world)
    leader = to_move(table, recorder)
    hand = await turn_hand(world, leader)
    [elsewhere] = table.game.hands[((table.game.to_move or 0) + 1) % 3]
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(leader, hand, f"wz:play:{table.id}:1:0:{elsewhere.code}")

    assert "That card is not in your hand." in await reply_text(record, leader)
    assert table.game.snapshot() == before


async def test_a_foreign_custom_id_is_answered_and_changes_nothing(world: World) -> None:
    table, recorder = await first_trick(world)
    leader = to_move(table, recorder)
    hand = await turn_hand(world, leader)
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(leader, hand, "hello")

    assert BROKEN in await reply_text(record, leader)
    assert table.game.snapshot() == before


# -- a double click --------------------------------------------------------------------------


async def test_a_double_click_applies_the_move_once(world: World) -> None:
    table, recorder = await three_player_game(world)
    bidder = to_move(table, recorder)
    hand = await turn_hand(world, bidder)
    bid = str(action_buttons(hand)[0]["custom_id"])
    moves = len(table.game.log)

    records = await asyncio.gather(
        world.driver.click(bidder, hand, bid), world.driver.click_custom_id(bidder, hand, bid)
    )
    for record in records:
        assert await record.wait_acked(3) < 3

    assert len(table.game.log) == moves + 1
    assert sorted(r.callback_types for r in records) == [[4], [7]]
    refused = next(r for r in records if r.callback_types == [4])
    assert "your bid is in" in await reply_text(refused, bidder)


# -- Discord misbehaving ---------------------------------------------------------------------


async def test_a_game_survives_rate_limited_message_edits(world: World) -> None:
    seats = world.people[:6]
    edits = r"/channels/\d+/messages/\d+"
    rules = [world.standin.inject_429("PATCH", edits, count=3)]
    table = await start_game(world, seats)
    recorder = Recorder(world, seats)
    # More bursts in the middle of the game and in its last round, whose table shows the end.
    bursts = {table.game.rounds // 2, table.game.rounds}
    while not recorder.finished():
        if table.game.round in bursts:
            bursts.remove(table.game.round)
            rules.append(world.standin.inject_429("PATCH", edits, count=3))
        await recorder.step()

    assert [(rule.hits, rule.remaining) for rule in rules] == [(3, 0)] * 3
    table_path = f"/channels/{world.channel.id}/messages/"
    assert any(call.status == 429 and table_path in call.path for call in world.standin.rest_log)
    seat = {user.id: index for index, user in enumerate(seats)}
    replay = Game.replay(6, GAME_SEED, Options(), [(seat[user.id], action) for user, action in recorder.moves])
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    for user, score in zip(seats, replay.scores, strict=True):
        assert final_line(user.global_name, score) in final.text()
    last_table = world.standin.messages[table.table_message_id or 0]
    last_trick = table.game.tricks[-1]
    winner = seats[last_trick.winner].global_name
    assert f"Round {table.game.rounds} of {table.game.rounds} — results" in last_table.text()
    assert f"won by **{winner}**" in last_table.text()
    assert Face.of(last_trick.winning_card) in faces(last_table.text())
    assert action_buttons(last_table) == []
    assert table_message(world) is None
    assert all(action_buttons(m) == [] for user in seats for m in world.driver.dm_view(user))


async def test_a_deleted_table_message_is_posted_again_and_the_game_goes_on(world: World) -> None:
    table, recorder = await three_player_game(world)
    old = table_message(world)
    assert old is not None
    await world.standin.delete_message(old)
    bidder = to_move(table, recorder)

    await recorder.step()

    new = await world.standin.wait_for(lambda: table_message(world), 5, "a new table message")
    assert new.id != old.id
    assert read(new).seats[recorder.seats.index(bidder)].bid == table.game.bids[recorder.seats.index(bidder)]
    await recorder.play_until(lambda: table.game.round == 2)
    assert table.table_message_id in {m.id for m in world.driver.channel_view(world.channel)}
    assert not any(m.id == old.id for m in world.driver.channel_view(world.channel))


async def test_a_move_made_while_the_table_is_being_edited_is_shown_too(world: World) -> None:
    """A slow table edit: the move made meanwhile gets an edit of its own, not merged into the one in
    flight (which drew the table before it)."""
    table, recorder = await three_player_game(world)
    held = world.standin.hold("PATCH", rf"/channels/{world.channel.id}/messages/{table.table_message_id}")
    bidders = [to_move(table, recorder)]
    await recorder.step()
    await world.standin.wait_for(lambda: held.hits == 1, 5, "the table edit in flight")
    bidders.append(to_move(table, recorder))
    await recorder.step()
    held.release()
    mover = to_move(table, recorder)
    shown = await world.standin.wait_for(
        lambda: (m := table_message(world)) and read_turn(m).names == (mover.global_name,) and m, 5, "the table"
    )
    for bidder in bidders:
        assert read(shown).seats[recorder.seats.index(bidder)].bid == table.game.bids[recorder.seats.index(bidder)]


async def test_a_failed_dm_delays_only_that_players_hand_which_arrives_once(world: World) -> None:
    seats = world.people[:3]
    first = seats[0]
    # The first DM sent this game fails with an error discord.py does not retry itself.
    world.standin.inject_error("POST", r"/users/@me/channels", status=503, count=1)
    table = await start_game(world, seats)
    for user in seats[1:]:
        await world.standin.wait_for(lambda u=user: latest_hand(world, u), 5, f"{user.name}'s hand")
    hand = await world.standin.wait_for(lambda: latest_hand(world, first), 5, "the first player's hand, sent again")
    assert [m.id for m in world.driver.dm_view(first) if "Your hand" in m.text()] == [hand.id]
    assert table.hand_messages[first.id][1] == hand.id
    await Recorder(world, seats).play_until(lambda: table.game.round == 2)


def presenter_of(world: World) -> Any:
    return world.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]


async def into_round_two(world: World, table: Table, recorder: Recorder) -> None:
    """Play the game into round 2, and wait for its table."""
    await recorder.play_until(lambda: table.game.round == 2)
    await world.standin.wait_for(lambda: (m := table_message(world)) and "round 2 of 20" in m.text(), 10, "round 2")


@pytest.mark.parametrize("processed", [False, True], ids=["lost-before-discord", "answer-lost"])
async def test_a_score_pad_whose_edit_was_dropped_is_shown_once(world: World, processed: bool) -> None:
    """A round's score pad closes its table: the edit that shows it loses its connection, before
    Discord made it or after; it is made again, and the channel shows round 1's results once."""
    table, recorder = await three_player_game(world)
    await recorder.play_until(lambda: table.game.phase is Phase.PLAY and sum(map(len, table.game.hands)) == 1)
    path = rf"/channels/{world.channel.id}/messages/{table.table_message_id}$"
    await world.standin.wait_for(lambda: not presenter_of(world).backlog(), 5, "the table shown")
    dropped = world.standin.drop("PATCH", path, processed=processed)  # the last card's edit: round 1 closes
    await into_round_two(world, table, recorder)
    pads = [m for m in world.driver.channel_view(world.channel) if "Round 1 of 20 — results" in m.text()]
    assert dropped.hits == 1
    assert len(pads) == 1
    assert not has_hand_button(pads[0])


@pytest.mark.parametrize("processed", [False, True], ids=["lost-before-discord", "answer-lost"])
async def test_a_round_table_whose_post_was_dropped_is_posted_once(world: World, processed: bool) -> None:
    table, recorder = await three_player_game(world)
    # The channel's next post is round 2's table (round 1's score pad closes round 1's table).
    dropped = world.standin.drop("POST", rf"/channels/{world.channel.id}/messages$", processed=processed)
    await into_round_two(world, table, recorder)
    tables = [m for m in world.driver.channel_view(world.channel) if "round 2 of 20" in m.text()]
    assert dropped.hits == 1
    assert len(tables) == 1


@pytest.mark.parametrize("processed", [False, True], ids=["lost-before-discord", "answer-lost"])
async def test_a_dm_hand_whose_post_was_dropped_arrives_once(world: World, processed: bool) -> None:
    table, recorder = await three_player_game(world)
    first = recorder.seats[0]
    dm = world.standin.dm_channel_for(first)
    dropped = world.standin.drop("POST", rf"/channels/{dm.id}/messages$", processed=processed)
    await recorder.play_until(lambda: table.game.round == 2)
    hand = await world.standin.wait_for(
        lambda: (m := latest_hand(world, first)) and "round 2 of 20" in m.text() and m, 10, "round 2's hand"
    )
    assert dropped.hits == 1
    assert [m.id for m in world.driver.dm_view(first) if "round 2 of 20" in m.text()] == [hand.id]


def seed_bidding_at_once_in_round_two() -> int:
    """The first seed from GAME_SEED whose round 2 turns up no Wizard: bidding starts with the deal."""
    for seed in range(GAME_SEED, GAME_SEED + 1000):
        game = Game(3, seed, Options(rounds=2))
        while game.round == 1:
            game.apply(game.legal_actions()[0])
        if game.turned_up is None or not game.turned_up.is_wizard:
            return seed
    raise AssertionError("no such seed")


async def test_a_hand_a_restart_sends_again_is_redrawn_if_a_click_changed_it_meanwhile(world: World) -> None:
    """The bot dies while a player's new hand is being posted; Discord made it. The player clicks a
    bid on it before the restarted bot draws the round again; its nonce then returns that message as
    the click left it (no card playable), not as drawn: it must be drawn again, or the player could
    never play."""
    world.bot.manager._seed_source = lambda: seed_bidding_at_once_in_round_two()
    seats = world.people[:3]
    table = await start_game(world, seats, rounds=2)
    recorder = Recorder(world, seats)
    bidder = seats[(table.game.dealer + 2) % 3]  # the first to bid in round 2
    dm = world.standin.dm_channel_for(bidder)
    await world.standin.wait_for(lambda: latest_hand(world, bidder), 5, "the round 1 hand")
    first = world.standin.hold("POST", rf"/channels/{dm.id}/messages$")
    await recorder.play_until(lambda: table.game.round == 2)
    await world.standin.wait_for(lambda: first.hits == 1, 5, "the round 2 hand in flight")
    await world.runner.stop()
    await world.standin.quiet_second()
    first.release()  # Discord makes the message; the bot never hears of it
    made = await world.standin.wait_for(
        lambda: (m := latest_hand(world, bidder)) and "round 2 of 2" in m.text() and m, 5, "the hand made"
    )
    # The restarted bot shows the round: the table first (held here), then the hands.
    table_edit = world.standin.hold("PATCH", rf"/channels/{world.channel.id}/messages/{table.table_message_id}$")
    bot = WizardBot(world.bot.settings)
    bot.manager = GameManager(seed_source=lambda: GAME_SEED, computer_pace=0.0)
    async with run_bot(world.standin, bot, capture_loggers=("discord", "bot", "cogs")) as runner:
        again = dataclasses.replace(world, bot=bot, runner=runner)
        await world.standin.wait_for(lambda: table_edit.hits == 1, 5, "the restarted bot's table edit")
        bid = next(b for b in action_buttons(made))
        await (await world.driver.click(bidder, made, str(bid["custom_id"]))).wait_acked(3)
        table_edit.release()
        restored = bot.manager.table(table.id)
        await Recorder(again, seats).play_until(lambda: restored.game.is_over)


@pytest.mark.parametrize("processed", [False, True], ids=["lost-before-discord", "answer-lost"])
async def test_the_closed_dms_notice_whose_post_was_dropped_is_posted_once(world: World, processed: bool) -> None:
    """The channel is told once that a player's DMs are closed, even if that post fails: the player
    is marked only after the channel was told."""
    gina = world.closed_dms
    seats = [*world.people[:2], gina]
    # Round 1's table, then the notice that gina's hand could not be sent: the notice's post drops.
    dropped = world.standin.drop("POST", rf"/channels/{world.channel.id}/messages$", processed=processed, skip=1)
    table = await start_game(world, seats)
    recorder = Recorder(world, seats, via_table={gina.id})
    await recorder.play_until(lambda: table.game.round == 2)
    await world.standin.wait_for(lambda: (m := table_message(world)) and "round 2 of" in m.text(), 10, "round 2")
    # The dropped notice is said again when its job runs again (a second later); the requests of the
    # request budget's pace may let the round end first.
    await world.standin.wait_for(
        lambda: any(gina.mention in m.content for m in world.driver.channel_view(world.channel)), 10, "the notice"
    )
    named = [m for m in world.driver.channel_view(world.channel) if gina.mention in m.content]
    assert dropped.hits == 1
    assert len(named) == 1, [m.content for m in named]
    assert "I can't send" in named[0].content


async def test_a_move_whose_answer_came_too_late_is_shown_in_the_players_hand(world: World) -> None:
    """Discord refuses the answer to a bid (it came after its deadline: 10062) that the bot has
    committed: the player saw "This interaction failed", and their DM hand then shows the bid."""
    table, recorder = await three_player_game(world)
    bidder = to_move(table, recorder)
    hand = await turn_hand(world, bidder)
    bid = str(action_buttons(hand)[0]["custom_id"])
    world.standin.ack_deadline = 0.0  # every answer comes too late
    record = await world.driver.click(bidder, hand, bid)
    await world.standin.wait_for(lambda: record.rejected_callbacks, 5, "the late answer refused")
    world.standin.ack_deadline = 3.0
    assert record.rejected_callbacks == [(404, 10062)]
    seat = table.seat_of(bidder.id)
    assert seat is not None
    assert table.game.bids[seat] == 0
    await world.standin.wait_for(lambda: read(hand).seats[seat].bid == 0, 5, "the bid shown in the DM hand")
    # Late on purpose: the fixture's check that every other interaction was answered in time stays.
    del world.standin.interactions[record.id]
