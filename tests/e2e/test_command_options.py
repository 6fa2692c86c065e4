"""Slash-command options outside what the bot offers: Discord refuses them against the synced schema,
and the bot refuses them again, privately, when the schema Discord holds is an older one.

Discord checks an option's type, range and choices against the schema the bot last synced, which
after an upgrade may be a version behind until the new one is published (at its first start, or
later if Discord refused the sync then). The stand-in's driver refuses
to send what the synced schema forbids, as Discord does; these tests make the synced schema an
older one, so a value the running bot no longer offers reaches it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.manager import Lobby
from tests.e2e._play import reply_text
from tests.e2e.conftest import World


def stale_start_option(world: World, name: str, **changes: Any) -> None:
    """Change /wizard start's option `name` in the schema Discord holds, as an older bot synced it."""
    (wizard,) = [command for command in world.standin.commands[None] if command["name"] == "wizard"]
    (start,) = [option for option in wizard["options"] if option["name"] == "start"]
    (option,) = [option for option in start["options"] if option["name"] == name]
    option.update(changes)


async def test_a_number_outside_the_range_is_refused_privately(world: World) -> None:
    stale_start_option(world, "rounds", max_value=30)
    host = world.people[0]
    text = await reply_text(await world.driver.slash(host, world.channel, "wizard start", {"rounds": 25}), host)
    assert text == "“rounds” must be from 1 to 20."
    assert world.bot.manager.in_channel(world.channel.id) is None


async def test_too_many_computer_players_are_refused_privately(world: World) -> None:
    stale_start_option(world, "computer_players", max_value=9)
    host = world.people[0]
    record = await world.driver.slash(host, world.channel, "wizard start", {"computer_players": 6})
    assert await reply_text(record, host) == "“computer_players” must be from 0 to 5."
    assert world.bot.manager.in_channel(world.channel.id) is None


async def test_a_choice_the_bot_no_longer_offers_is_refused_privately(world: World) -> None:
    stale_start_option(world, "turn_timer", choices=[{"name": "7 seconds", "value": 7}])
    host = world.people[0]
    record = await world.driver.slash(host, world.channel, "wizard start", {"turn_timer": 7})
    assert await reply_text(record, host) == "“7” is not a choice I offer; please pick one from the list."
    assert world.bot.manager.in_channel(world.channel.id) is None
    assert world.runner.error_messages == []


async def test_options_within_the_schema_open_a_lobby(world: World) -> None:
    host = world.people[0]
    options = {"rounds": 20, "computer_players": 5, "turn_timer": 60}
    lobby = await (await world.driver.slash(host, world.channel, "wizard start", options)).wait_response()
    assert "Computer 5" in lobby.text()
    assert isinstance(world.bot.manager.in_channel(world.channel.id), Lobby)


@pytest.mark.parametrize(
    "command",
    [
        "wizard start",
        "wizard rules",
        "wizard help",
        "wizard hand",
        "wizard stop",
        "wizard settings",
        "leaderboard",
        "stats",
    ],
)
async def test_a_server_command_used_in_a_dm_is_answered(world: World, command: str) -> None:
    # The commands are guild-only; a schema synced before they were is offered in DMs too.
    for synced in world.standin.commands[None]:
        synced["contexts"] = [0, 1]
    person = world.people[0]
    record = await world.driver.slash(person, world.standin.dm_channel_for(person), command)
    assert await reply_text(record, person) == "Wizard games are played in server channels."
