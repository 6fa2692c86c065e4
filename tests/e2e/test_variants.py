"""A whole game for each variant, clicked through the stand-in from /wizard start to the end."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game, Options
from tests.e2e._play import Recorder, final_line, host_panel, latest_hand, start_game, table_message
from tests.e2e._reading import read
from tests.e2e.conftest import World

VARIANTS: dict[str, tuple[dict[str, Any], Options]] = {
    "bids may not add up, except round 1": (
        {"bids_may_not_add_up": True, "bids_may_add_up_in_round_one": True, "rounds": 4},
        Options(bids_may_not_add_up=True, bids_may_add_up_in_round_one=True, rounds=4),
    ),
    "hidden bids": ({"hidden_bids": True, "rounds": 4}, Options(hidden_bids=True, rounds=4)),
    "first 3 rounds": ({"rounds": 3}, Options(rounds=3)),
    "even rounds": ({"even_rounds": True, "rounds": 3}, Options(schedule="even", rounds=3)),
    "blind first round": ({"blind_first_round": True, "rounds": 3}, Options(blind_first_round=True, rounds=3)),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_a_whole_game_with_each_variant(world: World, variant: str) -> None:
    given, options = VARIANTS[variant]
    seats = world.people[:3]
    table = await start_game(world, seats, **given)
    assert table.game.options == options
    recorder = Recorder(world, seats)
    await recorder.play_to_end()
    assert table.game.is_over
    assert table.game.rounds == len(options.round_numbers(3))
    # The log the bot kept replays to the same game in the engine.
    assert Game.replay(3, table.game.seed, options, table.game.log).scores == table.game.scores
    summaries = [m for m in world.driver.channel_view(world.channel) if "results" in m.text()]
    assert len(summaries) == table.game.rounds
    final = next(m for m in world.driver.channel_view(world.channel) if "Final standings" in m.text())
    for user, score in zip(seats, table.game.scores, strict=True):
        assert final_line(user.global_name or user.name, score) in final.text()


async def test_hidden_bids_stay_hidden_until_everyone_has_bid(world: World) -> None:
    seats = world.people[:3]
    table = await start_game(world, seats, hidden_bids=True)
    recorder = Recorder(world, seats)
    await recorder.step()  # one bid
    bids = table.game.bids
    [bidder] = [seat for seat, bid in enumerate(bids) if bid is not None]
    await world.standin.wait_for(
        lambda: (m := table_message(world)) and "Everyone bids at once: 1 of 3 are in." in m.text(),
        timeout=5,
        what="the table to count the bid",
    )
    live = table_message(world)
    assert live is not None
    assert read(live).seats[bidder].bid is None
    assert "bid is in" in live.text()
    # Nobody but the bidder can see the bid's value anywhere: their hands show only that it is in.
    for seat, user in enumerate(seats):
        if seat != bidder:
            hand = await world.standin.wait_for(lambda u=user: latest_hand(world, u), 5, f"{user.name}'s hand")
            await world.standin.wait_for(lambda h=hand: "1 of 3" in h.text() or "bid is in" in h.text(), 5, "the hand")
            assert read(hand).seats[bidder].bid is None


async def test_a_combination_of_variants_that_cannot_work_is_refused(world: World) -> None:
    record = await world.driver.slash(
        world.people[0], world.channel, "wizard start", options={"hidden_bids": True, "bids_may_not_add_up": True}
    )
    reply = await record.wait_response()
    assert reply.ephemeral
    assert "Hidden bids cannot be combined with bids that may not add up" in reply.text()


async def test_the_host_switches_house_rules_in_the_lobby_before_starting(world: World) -> None:
    host, guest = world.people[:2]
    lobby = await (await world.driver.slash(host, world.channel, "wizard start")).wait_response()
    panel = await host_panel(world, host, lobby)
    await (await world.driver.click(host, panel, "Hidden bids")).wait_acked(3)
    await (await world.driver.click(host, panel, "Length: all rounds")).wait_acked(3)
    # The lobby message, which everyone sees, follows the panel.
    shown = await world.standin.wait_for(
        lambda: "Shorter game" in (text := world.standin.messages[lobby.id].text()) and text, 3, "the lobby updated"
    )
    assert "Hidden bids: everyone bids at once" in shown
    assert "Shorter game: 5 rounds" in shown
    # A clash is explained and changes nothing; only the host may switch, even with a forged button.
    clash = await world.driver.click(host, panel, "Bids may not add up")
    assert "don't go together" in (await clash.wait_response()).text()
    blind = next(c for c in panel.all_components() if c.get("label") == "Blind first round")
    refused = await world.driver.click_custom_id(guest, lobby, str(blind["custom_id"]))
    assert "Only the host" in (await refused.wait_response()).text()
    assert world.bot.manager.lobby(
        lobby.data["components"][0]["components"][0]["custom_id"].split(":")[2]
    ).options == Options(hidden_bids=True, rounds=5)


async def test_the_rules_name_the_house_rules_of_the_game_here(world: World) -> None:
    await start_game(world, world.people[:3], hidden_bids=True, rounds=4)
    record = await world.driver.slash(world.people[4], world.channel, "wizard rules")
    rules = await record.wait_response()
    assert "Hidden bids: everyone bids at once" in rules.text()
    assert "Shorter game: 4 rounds" in rules.text()
