"""/wizard help: how a game is played here, with every command, privately and in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.guild_settings import DEFAULTS
from bot.i18n import duration, t
from tests.e2e.conftest import World

# A Discord locale of each of the bot's languages.
LOCALES = ["en-US", "cs", "ko", "ru", "pl", "el"]


def synced_commands(world: World) -> list[str]:
    """The slash commands as the bot synced them, as a person types them ("wizard start", "stats")."""
    names = []
    for command in world.standin.commands[None]:
        subcommands = [option for option in command.get("options") or [] if option["type"] == 1]
        names += [f"{command['name']} {sub['name']}" for sub in subcommands] or [command["name"]]
    return names


@pytest.mark.parametrize("locale", LOCALES)
async def test_help_explains_the_game_here_and_lists_every_command_in_the_readers_language(
    world: World, locale: str
) -> None:
    person = world.people[1]
    record = await world.driver.slash(person, world.channel, "wizard help", locale=locale)
    reply = await record.wait_response()

    assert reply.ephemeral
    assert reply.ephemeral_to == person.id
    [embed] = reply.embeds
    assert embed["title"] == t(locale, "help.title")
    # The turn timer a game here starts with (the server's default) is named, in the reader's language.
    assert embed["description"] == t(locale, "help.text", time=duration(locale, DEFAULTS.turn_timer))
    [commands] = embed["fields"]
    assert commands["name"] == t(locale, "help.commands")
    listed = [line.split("`")[1].removeprefix("/") for line in commands["value"].splitlines()]
    assert sorted(listed) == sorted(synced_commands(world))
    assert t(locale, "command.wizard.hand") in commands["value"]


def help_command(world: World) -> dict[str, Any]:
    [wizard] = [command for command in world.standin.commands[None] if command["name"] == "wizard"]
    [found] = [option for option in wizard["options"] if option["name"] == "help"]
    return found


@pytest.mark.parametrize("locale", LOCALES[1:])
async def test_the_help_command_is_described_in_each_language(world: World, locale: str) -> None:
    assert help_command(world)["description_localizations"][locale] == t(locale, "command.wizard.help")
