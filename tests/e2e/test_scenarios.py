"""Scenarios of play, from the lobby to the final standings, driven by clicks as people make them."""

from __future__ import annotations

from bot.engine import Game, Kind, Phase, Play, Suit
from bot.manager import Table
from cogs.wizard import _ids
from tests.e2e._play import Recorder, action_buttons, latest_hand, reply_text, start_game, table_message
from tests.e2e._reading import Face, faces, read
from tests.e2e.conftest import GAME_SEED, World
from tests.e2e.standin import StoredMessage, User


def seed_with_wizard_turned_up(players: int) -> int:
    """The first seed from GAME_SEED on whose first round a Wizard is turned up."""
    for seed in range(GAME_SEED, GAME_SEED + 10_000):
        turned = Game(players, seed).turned_up
        if turned is not None and turned.is_wizard:
            return seed
    raise AssertionError("no seed turns up a Wizard in the first round")


def names(user: User) -> str:
    return user.global_name or user.name


async def open_lobby(world: World, host: User, **options: object) -> StoredMessage:
    record = await world.driver.slash(host, world.channel, "wizard start", options=options or None)
    return await record.wait_response()


# -- trump -----------------------------------------------------------------------------------


async def test_the_dealer_picks_trump_when_a_wizard_is_turned_up(world: World) -> None:
    seed = seed_with_wizard_turned_up(3)
    world.bot.manager._seed_source = lambda: seed
    seats = world.people[:3]
    table = await start_game(world, seats)
    dealer = seats[table.game.dealer]
    shown = await world.standin.wait_for(
        lambda: (m := table_message(world)) and read(m).trump_pending and m, 5, "trump pending"
    )
    assert Face(Kind.WIZARD) in faces(shown.text().split("turned up:")[1])
    assert f"▶ **{names(dealer)}** is choosing trump." in shown.text()
    hand = await world.standin.wait_for(
        lambda: (m := latest_hand(world, dealer)) and action_buttons(m) and m, 5, "the dealer's hand"
    )
    assert "choose trump" in hand.text()
    suits = ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert [b["label"] for b in action_buttons(hand)] == suits  # each wearing its suit's emoji
    assert all((b.get("emoji") or {}).get("id") for b in action_buttons(hand))
    for other in seats:
        if other is not dealer:
            other_hand = await world.standin.wait_for(lambda u=other: latest_hand(world, u), 5, "a hand")
            assert action_buttons(other_hand) == []

    chosen = await world.driver.click(dealer, hand, "Hearts")
    await chosen.wait_acked(3)

    bidder = seats[table.game.trick_leader]
    shown = await world.standin.wait_for(
        lambda: (m := table_message(world)) and read(m).trump is Suit.HEARTS and m, 5, "the chosen trump"
    )
    assert f"(chosen by {names(dealer)})" in shown.text()
    assert f"▶ **{names(bidder)}** is bidding." in shown.text()
    assert table.game.phase is Phase.BID


async def test_the_last_round_turns_up_no_card_and_has_no_trump(world: World) -> None:
    seats = world.people[:6]
    table = await start_game(world, seats)
    recorder = Recorder(world, seats)
    await recorder.play_until(lambda: table.game.round == table.game.rounds)
    last = f"round {table.game.rounds} of {table.game.rounds}"
    shown = await world.standin.wait_for(
        lambda: (m := table_message(world)) and last in m.text() and m, 5, "the last round's table"
    )
    assert "no card turned up (last round)" in shown.text()
    assert shown.text().splitlines()[0].endswith("no trump")


async def test_a_card_clicked_while_others_still_bid_is_refused_with_why(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats)
    assert table.game.phase is Phase.BID
    bidder = seats[table.game.to_move or 0]
    hand = await world.standin.wait_for(
        lambda: (m := latest_hand(world, bidder)) and action_buttons(m) and m, 5, "the first bidder's DM"
    )
    await (await world.driver.click(bidder, hand, "0")).wait_acked(3)
    assert action_buttons(hand) == []  # their bid is in: nothing to click until their card is due
    seat = table.seat_of(bidder.id)
    assert seat is not None
    card = _ids.build(_ids.ActionId(table.id, 1, 0, Play(table.game.hands[seat][0])))  # a tampered button
    before = table.game.snapshot()
    text = await reply_text(await world.driver.click_custom_id(bidder, hand, card), bidder)
    assert text == f"**{names(seats[table.game.to_move or 0])}** is bidding; your bid is in."
    assert table.game.snapshot() == before


# -- the variant -----------------------------------------------------------------------------


async def _last_bidder_of_round_one(world: World) -> tuple[Table, User, StoredMessage]:
    """A 3-player variant game where the first two bid 0: the last bidder may not bid 1."""
    seats = world.people[:3]
    table = await start_game(world, seats, bids_may_not_add_up=True)
    assert table.game.phase is Phase.BID
    for _ in range(2):
        bidder = seats[table.game.to_move or 0]
        hand = await world.standin.wait_for(
            lambda u=bidder: (m := latest_hand(world, u)) and action_buttons(m) and m, 5, "a bidder's buttons"
        )
        record = await world.driver.click(bidder, hand, "0")
        await record.wait_acked(3)
    last = seats[table.game.to_move or 0]
    # The last bidder's DM, which has shown every bid so far, is edited once the forbidden one is known.
    hand = await world.standin.wait_for(
        lambda: (m := latest_hand(world, last)) and "may not add up" in m.text() and m, 5, "the last bidder's DM"
    )
    return table, last, hand


async def test_the_last_bidder_sees_the_forbidden_bid_disabled_and_why(world: World) -> None:
    _, _, hand = await _last_bidder_of_round_one(world)
    bids = [b for b in hand.buttons() if str(b.get("custom_id", "")).startswith(f"{_ids.PREFIX}bid:")]
    assert {str(b["label"]): bool(b.get("disabled")) for b in bids} == {"0": False, "1": True}
    assert "Not 1: the bids may not add up to 1." in hand.text()


async def test_a_forged_click_on_the_forbidden_bid_is_refused(world: World) -> None:
    table, last, hand = await _last_bidder_of_round_one(world)
    forbidden = next(str(b["custom_id"]) for b in hand.buttons() if b["label"] == "1")
    before = table.game.snapshot()

    record = await world.driver.click_custom_id(last, hand, forbidden)

    assert "You may not bid 1" in await reply_text(record, last)
    assert table.game.snapshot() == before
    assert table.game.bids.count(None) == 1


# -- closed DMs ------------------------------------------------------------------------------


async def test_a_player_with_closed_dms_plays_a_whole_game_from_the_table(world: World) -> None:
    gina = world.closed_dms
    seats = [*world.people[:5], gina]
    await start_game(world, seats)
    recorder = Recorder(world, seats, via_table={gina.id})
    await recorder.play_to_end()

    assert any(user is gina for user, _ in recorder.moves)
    named = [m for m in world.driver.channel_view(world.channel) if gina.mention in m.content]
    assert len(named) == 1, [m.content for m in named]
    assert "I can't send" in named[0].content
    assert world.driver.dm_view(gina) == []
    assert not [m for m in world.standin.messages.values() if m.channel_id == world.standin.dm_channels.get(gina.id)]


# -- acknowledgements ------------------------------------------------------------------------


async def test_every_interaction_of_a_whole_game_is_answered_once_within_3_seconds(world: World) -> None:
    seats = world.people[:6]
    await start_game(world, seats)
    await Recorder(world, seats).play_to_end()

    assert world.standin.unacknowledged() == []
    assert world.standin.slow_acks(3.0) == []
    assert [r.name for r in world.standin.interactions.values() if r.rejected_callbacks] == []


# -- /wizard stop ----------------------------------------------------------------------------


async def _game_hosted_by_bob(world: World) -> tuple[Table, StoredMessage]:
    bob, carol, dave = world.people[1:4]
    table = await start_game(world, [bob, carol, dave])
    message = table_message(world)
    assert message is not None
    return table, message


async def test_stop_by_a_player_who_is_not_the_host_is_refused(world: World) -> None:
    table, _ = await _game_hosted_by_bob(world)
    carol = world.people[2]
    record = await world.driver.slash(carol, world.channel, "wizard stop")
    assert "Only the host or a member who can manage the server" in await reply_text(record, carol)
    assert world.bot.manager.in_channel(world.channel.id) is table
    assert not table.stopped


async def test_the_host_stops_the_game_and_the_table_loses_its_buttons(world: World) -> None:
    _, message = await _game_hosted_by_bob(world)
    bob = world.people[1]
    record = await world.driver.slash(bob, world.channel, "wizard stop")
    answer = await record.wait_response()
    assert not answer.ephemeral
    assert "This game was stopped by Bob." in answer.text()
    await world.standin.wait_for(lambda: not message.buttons(), 5, "the table without buttons")
    assert "This game was stopped by Bob." in message.text()
    assert world.bot.manager.in_channel(world.channel.id) is None


async def test_a_server_manager_who_is_not_the_host_stops_the_game(world: World) -> None:
    _, message = await _game_hosted_by_bob(world)
    alice = world.people[0]
    record = await world.driver.slash(alice, world.channel, "wizard stop")
    answer = await record.wait_response()
    assert "This game was stopped by Alice." in answer.text()
    await world.standin.wait_for(lambda: not message.buttons(), 5, "the table without buttons")
    assert world.bot.manager.in_channel(world.channel.id) is None
    # The table says who stopped it by name, not by a mention (which would notify them).
    assert "This game was stopped by Alice." in message.text()


# -- a busy channel and an idle lobby --------------------------------------------------------


async def test_a_second_start_in_a_channel_with_a_running_game_links_to_its_table(world: World) -> None:
    table = await start_game(world, world.people[:3])
    erin = world.people[4]
    record = await world.driver.slash(erin, world.channel, "wizard start")
    text = await reply_text(record, erin)
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{table.table_message_id}"
    assert f"There is already a game in this channel: {link}" in text
    assert table.table_message_id in {m.id for m in world.driver.channel_view(world.channel)}


async def test_a_second_start_in_a_channel_with_a_lobby_links_to_the_lobby(world: World) -> None:
    lobby = await open_lobby(world, world.people[0])
    bob = world.people[1]
    record = await world.driver.slash(bob, world.channel, "wizard start")
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{lobby.id}"
    assert f"There is already a game in this channel: {link}" in await reply_text(record, bob)


async def test_an_untouched_lobby_closes_itself(world: World) -> None:
    world.bot.manager._lobby_idle_seconds = 0.2
    lobby = await open_lobby(world, world.people[0])
    await world.standin.wait_for(lambda: "so it was closed" in lobby.text(), 5, "the lobby to close")
    assert lobby.components == []
    assert world.bot.manager.in_channel(world.channel.id) is None


# -- the lobby -------------------------------------------------------------------------------


async def test_joining_twice_is_refused(world: World) -> None:
    lobby = await open_lobby(world, world.people[0])
    bob = world.people[1]
    await (await world.driver.click(bob, lobby, "Join")).wait_acked(3)
    record = await world.driver.click(bob, lobby, "Join")
    assert "You have already joined." in await reply_text(record, bob)
    assert "Players (2/6)" in lobby.text()
    assert lobby.text().count("Bob") == 1


async def test_start_by_someone_other_than_the_host_is_refused(world: World) -> None:
    lobby = await open_lobby(world, world.people[0])
    bob, carol = world.people[1:3]
    for person in (bob, carol):
        await (await world.driver.click(person, lobby, "Join")).wait_acked(3)
    record = await world.driver.click(bob, lobby, "Start")
    assert "Only the host can do that." in await reply_text(record, bob)
    assert world.bot.manager.tables() == []
    assert lobby.find_component("Start") is not None


async def test_start_with_two_players_is_refused(world: World) -> None:
    alice, bob = world.people[:2]
    lobby = await open_lobby(world, alice)
    await (await world.driver.click(bob, lobby, "Join")).wait_acked(3)
    record = await world.driver.click(alice, lobby, "Start")
    assert "At least 3 players are needed to start." in await reply_text(record, alice)
    assert world.bot.manager.tables() == []


async def test_a_player_who_leaves_is_taken_off_the_lobby(world: World) -> None:
    lobby = await open_lobby(world, world.people[0])
    bob, carol = world.people[1:3]
    for person in (bob, carol):
        await (await world.driver.click(person, lobby, "Join")).wait_acked(3)
    left = await world.driver.click(bob, lobby, "Leave")
    await left.wait_acked(3)
    await world.standin.wait_for(lambda: "Players (2/6)" in lobby.text(), 5, "the lobby without Bob")
    assert "Bob" not in lobby.text()
    assert "Carol" in lobby.text()


async def test_cancel_by_someone_other_than_the_host_is_refused(world: World) -> None:
    lobby = await open_lobby(world, world.people[0])
    bob = world.people[1]
    await (await world.driver.click(bob, lobby, "Join")).wait_acked(3)
    record = await world.driver.click(bob, lobby, "Cancel")
    assert "Only the host can do that." in await reply_text(record, bob)
    assert world.bot.manager.in_channel(world.channel.id) is not None


async def test_the_host_cancels_the_lobby(world: World) -> None:
    alice = world.people[0]
    lobby = await open_lobby(world, alice)
    record = await world.driver.click(alice, lobby, "Cancel")
    await record.wait_acked(3)
    await world.standin.wait_for(lambda: "cancelled by the host" in lobby.text(), 5, "the lobby to close")
    assert lobby.components == []
    assert world.bot.manager.in_channel(world.channel.id) is None
