"""One tidy channel and one tidy DM (issue 28, item 2): how many messages a whole game leaves."""

from __future__ import annotations

from tests.e2e._play import Recorder, start_game
from tests.e2e.conftest import World


async def test_a_whole_game_leaves_one_message_a_round_in_the_channel_and_in_each_dm(world: World) -> None:
    """The lobby, one table a round (closed into the round's score pad), the final standings; in
    each DM one message a round (closed into a line of how it went). Before, the channel got a table
    and a score pad a round: 2 + 2 x rounds messages."""
    seats = world.people[:3]
    rounds = 5
    table = await start_game(world, seats, rounds=rounds)
    await Recorder(world, seats).play_to_end()
    channel = world.driver.channel_view(world.channel)
    assert len(channel) == 1 + rounds + 1
    assert [message.text().splitlines()[0] for message in channel[1:-1]] == [
        f"### Round {n} of {rounds} — results" for n in range(1, rounds + 1)
    ]
    for user in seats:
        dms = world.driver.dm_view(user)
        assert len(dms) == rounds
        seat = table.seat_of(user.id)
        assert seat is not None
        for n, (dm, result) in enumerate(zip(dms, table.game.history, strict=True), start=1):
            assert dm.text().startswith(f"Round {n}: bid {result.bids[seat]}, took {result.tricks[seat]}, ")
            assert dm.buttons() == []
    # The closed table names the round's last trick, and its pad every player's total.
    last = channel[-2].text()
    assert "Last trick:" in last
    for player, total in zip(table.players, table.game.scores, strict=True):
        assert player.name in last
        assert str(total).replace("-", "−") in last
