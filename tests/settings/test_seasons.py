"""The season options of /wizard settings through the Discord stand-in: the length, the channel of
the ends, starting and ending a season by command; and an end that waits for the bot's permissions
in that channel, posted once they are granted."""

from __future__ import annotations

import logging
import random

import pytest

from bot.engine import Options
from bot.manager import Player, Table

from .conftest import Server


def seasons_field(reply_text: str) -> list[str]:
    lines = reply_text.splitlines()
    return lines[lines.index("Seasons") + 1 : lines.index("Seasons") + 4]


async def a_ranked_game(server: Server) -> None:
    """Three people finish a one-round game in #games (through the manager: the game is not what is tested)."""
    manager = server.bot.manager
    people = [(user.id, user.name) for user in (server.admin, server.bob, server.carol)]
    lobby = await manager.open_lobby(server.guild.id, server.games.id, Player(*people[0]), Options(rounds=1), 300)
    for person in people[1:]:
        await manager.join(lobby.id, Player(*person))
    table = await manager.start(lobby.id, lobby.host_id)
    assert isinstance(table, Table)
    rng = random.Random(3)
    while not table.game.is_over:
        player = table.player_to_move()
        assert player is not None
        action = rng.choice(table.game.legal_actions())
        await manager.act(table.id, player.user_id, action, round=table.game.round, trick=len(table.game.tricks))


async def test_a_monthly_length_and_a_channel_are_shown_with_the_season_they_began(server: Server) -> None:
    reply = await server.settings(server.admin, season_length="monthly", season_channel=server.general)
    assert reply.ephemeral
    length, season, channel = seasons_field(reply.text())
    assert length == "Length: monthly"
    assert season.startswith("Season 1: since <t:")
    assert ", ends <t:" in season
    assert channel == f"Each season's end is announced in <#{server.general.id}>."

    shown = await server.settings(server.admin)  # no options: the same, read back
    assert seasons_field(shown.text()) == [length, season, channel]


async def test_without_seasons_the_settings_say_so_and_ending_one_is_refused(server: Server) -> None:
    reply = await server.settings(server.admin)
    assert seasons_field(reply.text()) == [
        "Length: no seasons",
        "No season is running.",
        "The ends of seasons are not announced: choose a channel with `season_channel`.",
    ]
    refused = await server.settings(server.admin, season="end")
    assert refused.ephemeral
    assert refused.text() == "No season is running on this server."


async def test_a_season_started_and_ended_by_command(server: Server) -> None:
    started = await server.settings(server.admin, season="start")
    assert "Season 1 has begun." in started.text()
    assert seasons_field(started.text())[1].endswith("until the server's managers end it.")
    ended = await server.settings(server.admin, season="end")
    assert "Season 1 has ended." in ended.text()
    assert seasons_field(ended.text())[1] == "No season is running."
    again = await server.settings(server.admin, season="start")
    assert "Season 2 has begun." in again.text()


async def test_an_end_waits_for_the_bots_permissions_in_its_channel_and_is_posted_once_they_are_granted(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="cogs")
    await server.standin.deny_bot(server.general, "send_messages")
    reply = await server.settings(server.admin, season_length="monthly", season_channel=server.general)
    assert f"I cannot post in <#{server.general.id}> yet" in reply.text()
    await a_ranked_game(server)
    await server.settings(server.admin, season="end")

    def announcements() -> list[object]:
        return [m for m in server.driver.channel_view(server.general) if "Season 1 is over" in m.text()]

    await server.standin.wait_for(
        lambda: any("waits for permissions" in record.getMessage() for record in caplog.records), 10, "the end held"
    )
    assert announcements() == []
    await server.standin.allow_bot(server.general, "send_messages")
    await server.standin.wait_for(announcements, 10, "the season's end, once the bot may post")
    repository = server.bot.repository
    assert repository is not None
    season = await repository.season(server.guild.id, 1)
    assert season is not None
    assert season.announced_id == announcements()[0].id  # type: ignore[attr-defined]
