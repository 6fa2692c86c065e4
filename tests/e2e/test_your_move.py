"""What each person sees at their move, in their private hands, and in the lobby (issue 18, items 1-3)."""

from __future__ import annotations

import random

from bot.engine import Phase, led_suit
from bot.manager import Table
from tests.e2e._play import (
    enabled_ids,
    host_panel,
    latest_hand,
    legal_ids,
    shown_round,
    start_game,
    table_message,
)
from tests.e2e._reading import read
from tests.e2e.conftest import World
from tests.e2e.standin import StoredMessage, User

YOUR_MOVE = "▶ Your move"


def user_of(world: World, table: Table, seat: int) -> User:
    return next(user for user in [*world.people, world.closed_dms] if user.id == table.players[seat].user_id)


def turn_form(world: World, table: Table, user: User) -> StoredMessage | None:
    """The user's DM hand of the current round, once it shows their move."""
    hand = latest_hand(world, user)
    if hand is None or shown_round(hand) != table.game.round or YOUR_MOVE not in hand.text():
        return None
    return hand


async def move_from_dm(world: World, table: Table, rng: random.Random) -> tuple[User, StoredMessage]:
    """The person to move makes a legal move from their DM once it shows their move."""
    seat = table.game.to_move
    assert seat is not None
    user = user_of(world, table, seat)
    hand = await world.standin.wait_for(lambda: turn_form(world, table, user), 5, f"{user.name}'s move in the DM")
    record = await world.driver.click(user, hand, rng.choice(sorted(legal_ids(table, seat))))
    await record.wait_acked(3)
    return user, hand


# -- 1. your move, in your hand ------------------------------------------------------------


async def test_the_movers_dm_says_your_move_with_only_the_legal_choices_and_none_after(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats)
    rng = random.Random(18)
    followed = 0
    while table.game.round < 3:  # every bid and card of rounds 1 and 2
        seat = table.game.to_move
        assert seat is not None
        user, round_ = user_of(world, table, seat), table.game.round
        hand = await world.standin.wait_for(
            lambda mover=user: turn_form(world, table, mover),
            5,
            f"{user.name}'s move",  # type: ignore[misc]
        )
        assert hand.text().index(YOUR_MOVE) < hand.text().index("Game in")  # at the top
        assert enabled_ids(hand) == legal_ids(table, seat)
        led = led_suit(table.game.trick) if table.game.phase is Phase.PLAY else None
        if led is not None:
            assert read(hand).follow == led or "you have no" in hand.text()
            followed += 1
        for other in seats:
            shown = latest_hand(world, other)
            if other is not user and shown is not None and shown_round(shown) == round_:
                assert YOUR_MOVE not in shown.text(), f"{other.name}'s DM says it is their move"
        record = await world.driver.click(user, hand, rng.choice(sorted(legal_ids(table, seat))))
        await record.wait_acked(3)
        if table.game.round == round_ and table.game.to_move != seat:
            # The click's answer: no move left to make, and who moves now.
            assert YOUR_MOVE not in hand.text()
            assert enabled_ids(hand) == set()
            assert read(hand).mover is not None
    assert followed, "no card was played to a suit led"


async def test_a_dm_hand_its_player_has_clicked_this_round_is_edited_through_that_clicks_token(world: World) -> None:
    """Discord counts interaction endpoints outside the global request budget: once each person has
    bid from their DM, the turn edits of the cards cost the budget nothing."""
    table = await start_game(world, world.people[:3])
    rng = random.Random(18)
    for _ in range(3):  # the bids: each person's first click on this round's hand
        await move_from_dm(world, table, rng)
    dms = {hand.channel_id for user in world.people[:3] if (hand := latest_hand(world, user)) is not None}
    since = len(world.standin.rest_log)
    await move_from_dm(world, table, rng)  # the first card: the next person's DM turns to their move
    seat = table.game.to_move
    assert seat is not None
    user = user_of(world, table, seat)
    await world.standin.wait_for(lambda: turn_form(world, table, user), 5, f"{user.name}'s move in the DM")
    calls = world.standin.rest_log[since:]
    assert [c.path for c in calls if c.method == "PATCH" and "/webhooks/" in c.path and c.status == 200]
    assert not [c.path for c in calls if c.method == "PATCH" and any(f"/channels/{dm}/" in c.path for dm in dms)]


async def test_a_move_made_from_my_hand_takes_the_your_move_off_the_dm(world: World) -> None:
    table = await start_game(world, world.people[:3])
    seat = table.game.to_move
    assert seat is not None
    user = user_of(world, table, seat)
    dm = await world.standin.wait_for(lambda: turn_form(world, table, user), 5, "the first move in the DM")
    board = table_message(world)
    assert board is not None
    private = await (await world.driver.click(user, board, "My hand")).wait_response()
    assert YOUR_MOVE in private.text()
    assert enabled_ids(private) == legal_ids(table, seat)
    await (await world.driver.click(user, private, sorted(legal_ids(table, seat))[0])).wait_acked(3)
    await world.standin.wait_for(lambda: YOUR_MOVE not in dm.text(), 5, "the DM no longer saying 'your move'")
    assert enabled_ids(dm) == set()


async def test_a_player_whose_dms_are_closed_gets_their_move_through_my_hand(world: World) -> None:
    gina = world.closed_dms
    table = await start_game(world, [world.people[0], gina, world.people[1]])
    await world.standin.wait_for(lambda: gina.id in table.dm_closed, 5, "gina's closed DMs found")
    board = table_message(world)
    assert board is not None
    private = await (await world.driver.click(gina, board, "My hand")).wait_response()
    rng = random.Random(7)
    gina_seat = table.seat_of(gina.id)
    if table.game.to_move == gina_seat:
        await (await world.driver.click(gina, private, sorted(legal_ids(table, gina_seat))[0])).wait_acked(3)
    if table.game.to_move == gina_seat:
        return  # still hers (a dealer's trump choice, then the first bid): nothing passed
    assert YOUR_MOVE not in private.text()
    while table.game.to_move != gina_seat:
        await move_from_dm(world, table, rng)
    # Her earlier private hand follows the turn, as a DM would.
    await world.standin.wait_for(lambda: YOUR_MOVE in private.text(), 5, "gina's move in her private hand")
    assert enabled_ids(private) == legal_ids(table, gina_seat)
    assert [m.id for m in world.standin.ephemeral_messages(gina, world.channel)] == [private.id]


# -- 2. My hand without the pile-up ------------------------------------------------------


async def test_a_repeated_my_hand_updates_the_earlier_private_hand_instead_of_adding_one(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats)
    alice = seats[0]
    board = table_message(world)
    assert board is not None
    first = await world.driver.click(alice, board, "My hand")
    private = await first.wait_response()
    await move_from_dm(world, table, random.Random(1))  # the game moves on
    # The copy follows the move (the bot edits it through its token); then Alice presses again.
    presenter = world.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await world.standin.wait_for(lambda: not presenter.backlog(), 5, "the move shown")
    edits = private.edits
    again = await world.driver.click(alice, board, "My hand")
    await again.wait_acked(3)
    assert again.callback_types == [6]  # acknowledged without a message
    await world.standin.wait_for(lambda: private.edits > edits, 5, "the earlier private hand updated")
    assert [m.id for m in world.standin.ephemeral_messages(alice, world.channel)] == [private.id]
    seat = table.seat_of(alice.id)
    assert seat is not None
    assert (YOUR_MOVE in private.text()) == (table.game.to_move == seat)


async def test_my_hand_sends_a_new_private_hand_when_discord_refuses_the_earlier_token(world: World) -> None:
    """Discord honours an interaction token for 15 minutes: past that, the earlier hand cannot be
    edited, and a new one is sent; the next press edits the new one (a follow-up, by its id)."""
    table = await start_game(world, world.people[:3])
    alice = world.people[0]
    board = table_message(world)
    assert board is not None
    first = await world.driver.click(alice, board, "My hand")
    await first.wait_response()
    # As if pressed 15 minutes ago (and answered then).
    first.dispatched_at -= world.standin.token_lifetime + 1
    assert first.acked_at is not None
    first.acked_at -= world.standin.token_lifetime + 1
    second = await world.driver.click(alice, board, "My hand")
    await second.wait_acked(3)
    await world.standin.wait_for(lambda: second.followup_ids, 5, "a new private hand")
    assert len(world.standin.ephemeral_messages(alice, world.channel)) == 2
    newer = world.standin.messages[second.followup_ids[0]]
    await move_from_dm(world, table, random.Random(2))
    presenter = world.bot.get_cog("Wizard").presenter  # type: ignore[union-attr]
    await world.standin.wait_for(lambda: not presenter.backlog(), 5, "the move shown")
    edits = newer.edits
    third = await world.driver.click(alice, board, "My hand")
    await third.wait_acked(3)
    await world.standin.wait_for(lambda: newer.edits > edits, 5, "the new private hand updated")
    assert len(world.standin.ephemeral_messages(alice, world.channel)) == 2


async def test_wizard_hand_always_answers_with_a_new_private_hand(world: World) -> None:
    """A slash command cannot be acknowledged without a message."""
    await start_game(world, world.people[:3])
    alice = world.people[0]
    for count in (1, 2):
        record = await world.driver.slash(alice, world.channel, "wizard hand")
        await record.wait_response()
        assert record.callback_types == [4]
        assert len(world.standin.ephemeral_messages(alice, world.channel)) == count


# -- 3. the lobby ----------------------------------------------------------------------------

PUBLIC = ["Join", "Leave", "Start", "Cancel", "Host settings"]


def labels(message: StoredMessage) -> list[str]:
    return [str(c.get("label")) for c in message.all_components() if "custom_id" in c]


async def test_a_non_host_sees_no_host_controls(world: World) -> None:
    host, guest = world.people[:2]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    await (await world.driver.click(guest, lobby, "Join")).wait_acked(3)
    assert labels(world.standin.messages[lobby.id]) == PUBLIC
    refused = await world.driver.click(guest, lobby, "Host settings")
    reply = await refused.wait_response()
    assert (reply.ephemeral_to, reply.all_components()) == (guest.id, [])
    assert "Only the host" in reply.text()
    panel = await host_panel(world, host, lobby)
    assert "Add easy" in labels(panel)
    seen_by_guest = world.standin.channel_messages(world.channel) + world.standin.ephemeral_messages(guest)
    assert all(set(labels(message)) <= set(PUBLIC) for message in seen_by_guest)


async def test_the_host_panel_offers_except_round_one_only_while_its_rule_is_on(world: World) -> None:
    host = world.people[0]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    panel = await host_panel(world, host, lobby)
    except_round_one = "…except round 1"
    assert except_round_one not in labels(panel)
    await (await world.driver.click(host, panel, "Bids may not add up")).wait_acked(3)
    assert except_round_one in labels(panel)
    await (await world.driver.click(host, panel, "Bids may not add up")).wait_acked(3)
    assert except_round_one not in labels(panel)
    assert "Remove computer" not in labels(panel)  # there is none to remove


async def test_after_start_the_lobby_says_the_game_is_on_and_links_to_the_table(world: World) -> None:
    host, *others = world.people[:3]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    for person in others:
        await (await world.driver.click(person, lobby, "Join")).wait_acked(3)
    await (await world.driver.click(host, lobby, "Start")).wait_acked(3)
    board = await world.standin.wait_for(lambda: table_message(world), 5, "the table")
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{board.id}"
    await world.standin.wait_for(lambda: link in lobby.text(), 5, "the lobby linking the table")
    assert "the game is on" in lobby.text()
    assert "forming" not in lobby.text()
    assert labels(lobby) == []
