"""Turn pings (issue 28, item 1): an edit never notifies, so a person who asks gets a short DM when
their move comes, one at a time, taken down once the move is made."""

from __future__ import annotations

from tests.e2e._play import Recorder, latest_hand, reply_text, start_game, turn_pings
from tests.e2e.conftest import World
from tests.e2e.standin import StoredMessage, User


def pings(world: World, user: User) -> list[StoredMessage]:
    return turn_pings(world.driver, user)


def labels(message: StoredMessage | None) -> list[str]:
    return [] if message is None else [str(b.get("label")) for b in message.buttons()]


async def test_a_person_who_asks_gets_one_dm_at_each_move_and_it_goes_once_the_move_is_made(world: World) -> None:
    seats = world.people[:3]
    alice = seats[0]
    await start_game(world, seats, rounds=3)
    hand = await world.standin.wait_for(lambda: latest_hand(world, alice), 5, "alice's hand")
    assert "Ping my turns" in labels(hand)
    record = await world.driver.click(alice, hand, "Ping my turns")
    await record.wait_acked(3)
    await world.standin.wait_for(lambda: "Stop pings" in labels(latest_hand(world, alice)), 5, "the bell switched")

    recorder = Recorder(world, seats)
    pinged: list[int] = []
    while True:
        found = await world.standin.wait_for(lambda: recorder.whose_turn() or recorder.finished(), 10, "someone's turn")
        if found is True:
            break
        assert isinstance(found, tuple)
        user, hand = found
        if user is alice:
            # The ping links the hand it is for, so one tap opens where the move is made.
            ping = await world.standin.wait_for(
                lambda: (shown := pings(world, alice)) and len(shown) == 1 and shown[0].id not in pinged and shown[0],
                5,
                "alice's ping at her move",
            )
            assert f"https://discord.com/channels/@me/{hand.channel_id}/{hand.id}" in ping.text()
            pinged.append(ping.id)
        assert len(pings(world, alice)) <= 1  # never a pile of them
        for other in seats[1:]:
            assert pings(world, other) == []  # who did not ask gets none
        await recorder.step()
        if user is alice:
            await world.standin.wait_for(
                lambda: all(m.id != pinged[-1] for m in pings(world, alice)), 5, "the ping taken down after the move"
            )
    await world.standin.wait_for(lambda: pings(world, alice) == [], 5, "no ping left at the end")
    assert len(pinged) == sum(1 for user, _ in recorder.moves if user is alice)
    assert len(pinged) >= 3 + 1  # a bid a round and at least one card


class SecondGame(Recorder):
    """Plays the channel's second game: the first one's final standings are already there."""

    def finished(self) -> bool:
        return sum("Final standings" in m.text() for m in self.world.driver.channel_view(self.world.channel)) >= 2


async def test_the_choice_is_kept_for_the_next_game_and_turned_off_by_the_command(world: World) -> None:
    seats = world.people[:3]
    alice = seats[0]
    await start_game(world, seats, rounds=1)
    hand = await world.standin.wait_for(lambda: latest_hand(world, alice), 5, "alice's hand")
    await (await world.driver.click(alice, hand, "Ping my turns")).wait_acked(3)
    await world.standin.wait_for(lambda: "Stop pings" in labels(latest_hand(world, alice)), 5, "the bell on")
    await Recorder(world, seats).play_to_end()
    await world.standin.wait_for(lambda: pings(world, alice) == [], 5, "no ping left at the end")

    before = latest_hand(world, alice)
    table = await start_game(world, seats, rounds=2)
    hand = await world.standin.wait_for(
        lambda: (shown := latest_hand(world, alice)) is not before and shown, 5, "alice's hand in the second game"
    )
    assert "Stop pings" in labels(hand)  # remembered
    recorder = SecondGame(world, seats)
    await recorder.play_until(lambda: table.game.to_move == table.seat_of(alice.id))
    await world.standin.wait_for(lambda: len(pings(world, alice)) == 1, 5, "alice's ping at her move")

    record = await world.driver.slash(alice, world.channel, "wizard pings", {"switch": "off"})
    assert await reply_text(record, alice) == "Turn pings are off."
    # The hand's bell turns, and the open ping goes.
    await world.standin.wait_for(lambda: "Ping my turns" in labels(latest_hand(world, alice)), 5, "the bell off")
    await world.standin.wait_for(lambda: pings(world, alice) == [], 5, "the open ping taken down")
    await recorder.play_to_end()
    assert pings(world, alice) == []

    record = await world.driver.slash(alice, world.channel, "wizard pings", {"switch": "on"})
    assert await reply_text(record, alice) == "Turn pings are on: I'll send you a short DM when your move comes."
    assert await world.bot.manager.wants_turn_ping(alice.id)
